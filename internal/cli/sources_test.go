package cli

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/oserr"
)

// TestOpenSource checks gprof's search for a source file of -A: the path
// as recorded, then under each -I directory, then its base name under each.
func TestOpenSource(t *testing.T) {
	t.Chdir(t.TempDir())
	write := func(name, content string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(name), 0o755))
		require.NoError(t, os.WriteFile(name, []byte(content), 0o644))
	}
	read := func(name string, dirs ...string) (string, error) {
		f, err := openSource(name, dirs)
		if err != nil {
			return "", err
		}
		defer f.Close()
		b, err := io.ReadAll(f)
		return string(b), err
	}
	write("d1/src/x.c", "d1 relative")
	write("d2/x.c", "d2 base")
	write("d3/x.c", "d3 base")

	got, err := read("src/x.c", "d2", "d1")
	require.NoError(t, err)
	assert.Equal(t, "d1 relative", got, "the relative path under every directory before base names")
	got, err = read("other/x.c", "nosuch", "d3", "d2")
	require.NoError(t, err)
	assert.Equal(t, "d3 base", got)
	got, err = read("/nonexistent/dir/x.c", "d2")
	require.NoError(t, err)
	assert.Equal(t, "d2 base", got, "an absolute path falls back to base names only")

	write("src/x.c", "as recorded")
	got, err = read("src/x.c", "d1")
	require.NoError(t, err)
	assert.Equal(t, "as recorded", got)

	_, err = read("x.c")
	assert.True(t, errors.Is(err, os.ErrNotExist))
	_, err = read("x.c", "d1")
	assert.True(t, errors.Is(err, os.ErrNotExist), "a path without a slash is not retried by base name")
	write("file", "")
	_, err = read("file/x.c")
	assert.True(t, errors.Is(err, syscall.ENOTDIR))
	assert.Equal(t, "Not a directory", oserr.Text(err))
}
