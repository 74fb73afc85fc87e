package render

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/internal/testprof"
)

// TestCallGraphParallel checks that the call graph formatted on several
// goroutines, a few entries at a time, is the one formatted on one: on
// every test program, under the layouts and namings that take the
// parallel path.
func TestCallGraphParallel(t *testing.T) {
	dirs, err := filepath.Glob("../testdata/progs/*")
	require.NoError(t, err)
	dirs = append(dirs, "../testdata/demo")
	for _, dir := range dirs {
		if _, err := os.Stat(filepath.Join(dir, "gmon.out")); err != nil {
			continue
		}
		g := testprof.Graph(t, filepath.Join(dir, "prog"), filepath.Join(dir, "gmon.out"))
		for _, opt := range []TextOptions{
			{Brief: true, Demangle: true},
			{Brief: true, Traditional: true},
			{Demangle: true, ShowZeros: true},
		} {
			serial := formatCallGraph(g, opt, parallelism{minRows: len(g.Entries) + 1, chunk: 1})
			for _, par := range []parallelism{{workers: 2, chunk: 1}, {workers: 3, chunk: 2}, {workers: 4, chunk: 5}} {
				require.Equal(t, serial, formatCallGraph(g, opt, par), "%s %+v %+v", dir, opt, par)
			}
		}
	}
}

// formatCallGraph returns the call graph, then the index, of g under opt,
// formatted with the parallelism par.
func formatCallGraph(g *callgraph.Graph, opt TextOptions, par parallelism) string {
	var buf bytes.Buffer
	t := NewText(&buf, g, opt)
	t.par = par
	t.CallGraph()
	t.Index()
	if err := t.Flush(); err != nil {
		panic(err)
	}
	return buf.String()
}
