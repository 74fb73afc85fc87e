package oserr

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestText(t *testing.T) {
	_, missing := os.Open(filepath.Join(t.TempDir(), "missing"))
	_, isDir := os.ReadFile(t.TempDir())
	cases := []struct {
		err  error
		want string
	}{
		{missing, "No such file or directory"},
		{isDir, "Is a directory"},
		{errors.New("plain text"), "Plain text"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, Text(c.err))
	}
}
