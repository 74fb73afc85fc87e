package bfd

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCompDir(t *testing.T) {
	for in, want := range map[string]string{
		"/src":          "/src",
		"host.:/src":    "/src",
		":/src":         ":/src",
		"a:/src":        "a:/src",
		"host.:src":     "host.:src",
		"x.:/a.:/b":     "/a.:/b",
		"/with:colon/x": "/with:colon/x",
	} {
		got := compDirOf(attr{form: formString, str: optString{s: in, ok: true}})
		assert.Equal(t, want, got.s, in)
	}
	assert.False(t, compDirOf(attr{form: formData4, val: 5}).ok)
}

// TestEntryFormats decodes DWARF 5 directory/file tables with the forms
// BFD keeps (string, line_strp, udata, data16) and one it drops (strp).
