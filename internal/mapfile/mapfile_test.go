package mapfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWholeGuard maps a file of three pages, then reads its last byte
// under Guard: intact, the byte is read; cut short to one page after
// mapping (as a rebuild could do while egprof runs), the read faults and
// Guard returns ErrCutShort with the byte's offset instead of the process
// dying of SIGBUS.
func TestWholeGuard(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no mappings here")
	}
	page := os.Getpagesize()
	tests := []struct {
		name    string
		cut     bool
		wantErr string
	}{
		{name: "intact"},
		{name: "cut short", cut: true, wantErr: "could not be read: the file was cut short"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "gmon.out")
			content := make([]byte, 3*page)
			content[len(content)-1] = 42
			require.NoError(t, os.WriteFile(path, content, 0o644))
			f, err := os.Open(path)
			require.NoError(t, err)
			defer f.Close()
			w, ok := Open(f)
			require.True(t, ok, "a regular file of three pages maps")
			defer w.Close()
			require.Len(t, w.Data, 3*page)
			if tc.cut {
				require.NoError(t, os.Truncate(path, int64(page)))
			}
			var last byte
			err = w.Guard(func() error {
				last = w.Data[len(w.Data)-1]
				return nil
			})
			if tc.wantErr == "" {
				require.NoError(t, err)
				assert.Equal(t, byte(42), last)
				return
			}
			require.Error(t, err)
			assert.True(t, errors.Is(err, ErrCutShort))
			assert.Contains(t, err.Error(), tc.wantErr)
			// The offset named is one the cut removed.
			assert.Contains(t, err.Error(), "byte 0x2")
		})
	}
}

// TestOpenRefuses lists the files Open does not map, which the caller
// reads instead: an empty file and one that is not regular.
func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	for _, path := range []string{empty, dir} {
		f, err := os.Open(path)
		require.NoError(t, err)
		_, ok := Open(f)
		assert.False(t, ok, path)
		f.Close()
	}
}

// TestGuardPassesOtherPanics checks that a panic that is not a fault on
// the mapping goes on: Guard must not hide a bug as a cut-short file.
func TestGuardPassesOtherPanics(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no mappings here")
	}
	path := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(path, []byte("data"), 0o644))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	w, ok := Open(f)
	require.True(t, ok)
	defer w.Close()
	assert.PanicsWithValue(t, "a bug", func() {
		_ = w.Guard(func() error { panic("a bug") })
	})
}
