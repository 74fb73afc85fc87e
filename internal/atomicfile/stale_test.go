package atomicfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTemporaryNamesAreRecognised(t *testing.T) {
	dir := t.TempDir()
	for range 20 {
		f, err := Create(filepath.Join(dir, "gmon.sum"))
		require.NoError(t, err)
		assert.True(t, isTempOf(filepath.Base(f.tmpPath), "gmon.sum"), f.tmpPath)
		assert.False(t, isTempOf(filepath.Base(f.tmpPath), "gmon"), f.tmpPath)
		f.Abort()
	}
}

func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "gmon.sum")
	require.NoError(t, os.WriteFile(dest, []byte("sum"), 0o644))
	// Two replacements whose writers died before Close.
	var stale []string
	for range 2 {
		f, err := Create(dest)
		require.NoError(t, err)
		_, err = f.Write([]byte("half"))
		require.NoError(t, err)
		stale = append(stale, f.tmpPath)
	}
	keep := []string{
		"gmon.sum",
		".gmon.sum.lock",
		".gmon.sum.tmp-ABCDEFGHIJK",   // one character short
		".gmon.sum.tmp-ABCDEFGHIJKLM", // one too many
		".gmon.sum.tmp-abcdefghijkl",  // not the alphabet
		".gmon.sum.tmp-ABCDEFGHIJ01",  // 0 and 1 are not in it either
		".gmon.tmp-ABCDEFGHIJKL",      // another destination's
		".x.gmon.sum.tmp-ABCDEFGHIJKL",
		"gmon.sum.tmp-ABCDEFGHIJKL",
	}
	for _, name := range keep[1:] {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), nil, 0o644))
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".gmon.sum.tmp-ZZZZZZZZZZZZ"), 0o755))
	keep = append(keep, ".gmon.sum.tmp-ZZZZZZZZZZZZ") // a directory

	removed, err := RemoveStale(dest)
	require.NoError(t, err)
	assert.ElementsMatch(t, stale, removed)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	assert.ElementsMatch(t, keep, left)
}

func TestRemoveStaleFollowsLinks(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file", "gmon.sum")
	require.NoError(t, os.Mkdir(filepath.Dir(file), 0o755))
	require.NoError(t, os.Symlink(file, filepath.Join(dir, "gmon.sum")))
	f, err := Create(filepath.Join(dir, "gmon.sum"))
	require.NoError(t, err)
	assert.Equal(t, filepath.Dir(file), filepath.Dir(f.tmpPath), "the temporary file is beside the file replaced")
	removed, err := RemoveStale(filepath.Join(dir, "gmon.sum"))
	require.NoError(t, err)
	assert.Equal(t, []string{f.tmpPath}, removed)
	target, err := Target(filepath.Join(dir, "gmon.sum"))
	require.NoError(t, err)
	assert.Equal(t, file, target)
}
