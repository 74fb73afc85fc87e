package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/internal/testprof"
	"github.com/egprof/egprof/render/graphfile"
)

// TestRenderGraphvizMissing: without egprof-graphviz the error says how to
// install it, and no file is written.
func TestRenderGraphvizMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	out := filepath.Join(t.TempDir(), "g.svg")
	err := renderGraphviz([]byte("digraph { a -> b }"), "svg", out)
	require.Error(t, err)
	assert.True(t, errors.Is(err, errNoHelper))
	assert.Contains(t, err.Error(), graphvizHelper.install)
	_, statErr := os.Stat(out)
	assert.True(t, errors.Is(statErr, os.ErrNotExist), "no file on failure")
}

// TestRenderGraphvizAtomic: a renderer that fails half-way leaves the old
// file as it was and no temporary file behind.
func TestRenderGraphvizAtomic(t *testing.T) {
	bin := t.TempDir()
	script := "#!/bin/sh\ncat >/dev/null\necho '<svg partial'\necho 'bad layout' >&2\nexit 3\n"
	require.NoError(t, os.WriteFile(filepath.Join(bin, graphvizHelper.name), []byte(script), 0o755))
	t.Setenv("PATH", bin+string(os.PathListSeparator)+"/usr/bin:/bin")
	dir := t.TempDir()
	out := filepath.Join(dir, "g.svg")
	require.NoError(t, os.WriteFile(out, []byte("old picture"), 0o644))
	err := renderGraphviz([]byte("digraph { a -> b }"), "svg", out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "bad layout")
	assert.Contains(t, err.Error(), "exit status 3")
	old, rerr := os.ReadFile(out)
	require.NoError(t, rerr)
	assert.Equal(t, "old picture", string(old))
	entries, rerr := os.ReadDir(dir)
	require.NoError(t, rerr)
	assert.Len(t, entries, 1, "temporary file left behind")

	assert.Error(t, renderGraphviz(nil, "jpg", out))
}

// TestWriteGraphFile: GML and DOT files hold what package graphfile
// writes; an unknown format or a missing directory is an error naming the
// file.
func TestWriteGraphFile(t *testing.T) {
	p := diff.Single(testprof.Graph(t, "testdata/demo/prog", "testdata/demo/gmon.out"), diff.Options{})
	dir := t.TempDir()
	for _, f := range []graphFormat{formatGML, formatDOT} {
		path := filepath.Join(dir, "g."+string(f))
		require.NoError(t, writeGraphFile(path, f, p, graphfile.Options{}))
		var want bytes.Buffer
		if f == formatGML {
			require.NoError(t, graphfile.WriteGML(&want, p, graphfile.Options{}))
		} else {
			require.NoError(t, graphfile.WriteDOT(&want, p, graphfile.Options{}))
		}
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, want.String(), string(got))
	}
	assert.Error(t, writeGraphFile(filepath.Join(dir, "g.x"), "x", p, graphfile.Options{}))
	err := writeGraphFile(filepath.Join(dir, "missing", "g.gml"), formatGML, p, graphfile.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "missing")
}

// TestFindGraphviz: egprof-graphviz is looked for next to egprof, then on
// PATH.
func TestFindGraphviz(t *testing.T) {
	exeDir, pathDir, empty := t.TempDir(), t.TempDir(), t.TempDir()
	next := filepath.Join(exeDir, graphvizHelper.name)
	onPath := filepath.Join(pathDir, graphvizHelper.name)
	require.NoError(t, os.WriteFile(onPath, []byte("#!/bin/sh\n"), 0o755))
	t.Setenv("PATH", pathDir)

	// Not executable next to egprof: PATH's wins.
	require.NoError(t, os.WriteFile(next, []byte("#!/bin/sh\n"), 0o644))
	got, err := graphvizHelper.findIn(exeDir)
	require.NoError(t, err)
	assert.Equal(t, onPath, got)

	// Executable next to egprof: it wins over PATH's.
	require.NoError(t, os.Chmod(next, 0o755))
	got, err = graphvizHelper.findIn(exeDir)
	require.NoError(t, err)
	assert.Equal(t, next, got)

	// Neither: the error names both places.
	t.Setenv("PATH", empty)
	_, err = graphvizHelper.findIn(empty)
	require.ErrorIs(t, err, errNoHelper)
	assert.Contains(t, err.Error(), "looked in "+empty+" and PATH")
}
