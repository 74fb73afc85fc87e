package filelock

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLockExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".x.lock")
	first, err := Acquire(path)
	require.NoError(t, err)
	assert.FileExists(t, path, "the lock file is made")

	got := make(chan *Lock)
	go func() {
		second, err := Acquire(path)
		assert.NoError(t, err)
		got <- second
	}()
	select {
	case <-got:
		t.Fatal("a second lock was granted while the first was held")
	case <-time.After(200 * time.Millisecond):
	}
	require.NoError(t, first.Release())
	select {
	case second := <-got:
		require.NoError(t, second.Release())
	case <-time.After(10 * time.Second):
		t.Fatal("the second lock was not granted after the first was released")
	}
	assert.FileExists(t, path, "the lock file stays")
}

func TestAcquireErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := Acquire(filepath.Join(dir, "nosuch", ".x.lock"))
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.False(t, Unsupported(err))

	require.NoError(t, os.Mkdir(filepath.Join(dir, ".d.lock"), 0o755))
	_, err = Acquire(filepath.Join(dir, ".d.lock"))
	assert.ErrorIs(t, err, syscall.EISDIR)
}

func TestUnsupported(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{&fs.PathError{Op: "flock", Path: "x", Err: syscall.ENOLCK}, true},
		{&fs.PathError{Op: "flock", Path: "x", Err: syscall.EOPNOTSUPP}, true},
		{syscall.ENOSYS, true},
		{&fs.PathError{Op: "open", Path: "x", Err: syscall.EACCES}, false},
		{nil, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Unsupported(tt.err), "%v", tt.err)
	}
}
