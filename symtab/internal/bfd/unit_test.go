package bfd

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCompDir checks that an IRIX "host.:" prefix is dropped from
// DW_AT_comp_dir, and only that.
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
		got := compDirOf(attr{form: formString, str: optString{s: in, has: true}})
		assert.Equal(t, want, got.s, in)
	}
	assert.False(t, compDirOf(attr{form: formData4, val: 5}).ok())
}
