package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/goccy/go-graphviz"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/internal/testenv"
	"github.com/egprof/egprof/internal/testprof"
	"github.com/egprof/egprof/render/graphfile"
)

func load(t *testing.T, dir, gmonName string) *callgraph.Graph {
	t.Helper()
	return testprof.Graph(t, filepath.Join(dir, "prog"), filepath.Join(dir, gmonName))
}

// dotOf is egprof's DOT for a profile.
func dotOf(t *testing.T, p *diff.Profile, opt graphfile.Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, graphfile.WriteDOT(&buf, p, opt))
	return buf.Bytes()
}

// TestParseEgprofDOT parses egprof's DOT for every test program, single
// and differential, with go-graphviz: it must parse, with one node per
// kept function and one edge per kept arc.
func TestParseEgprofDOT(t *testing.T) {
	var dirs []string
	for _, d := range testenv.Programs(t) {
		if _, err := os.Stat(filepath.Join(d, "gmon2.out")); err == nil {
			dirs = append(dirs, d)
		}
	}
	require.Greater(t, len(dirs), 5)
	for _, dir := range dirs {
		a, b := load(t, dir, "gmon.out"), load(t, dir, "gmon2.out")
		for _, tc := range []struct {
			name string
			p    *diff.Profile
			opt  graphfile.Options
		}{
			{"single", diff.Single(a, diff.Options{}), graphfile.Options{}},
			{"diff", diff.Subtract(a, b, diff.Options{}), graphfile.Options{}},
			{"diff-top4", diff.Subtract(a, b, diff.Options{}), graphfile.Options{Select: diff.GraphOptions{Top: 4}}},
		} {
			t.Run(filepath.Base(dir)+"/"+tc.name, func(t *testing.T) {
				g, err := graphviz.ParseBytes(dotOf(t, tc.p, tc.opt))
				require.NoError(t, err)
				defer g.Close()
				sel := tc.p.SelectGraph(tc.opt.Select)
				nodes, err := g.NodeNum()
				require.NoError(t, err)
				edges, err := g.EdgeNum()
				require.NoError(t, err)
				assert.Equal(t, len(sel.Nodes), nodes)
				assert.Equal(t, len(sel.Arcs)+len(sel.Paths), edges)
			})
		}
	}
}

// svgNodes checks that svg is well-formed XML and counts its node groups.
func svgNodes(t *testing.T, svg []byte) int {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	n := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return n
		}
		require.NoError(t, err)
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "g" {
			for _, a := range se.Attr {
				if a.Name.Local == "class" && a.Value == "node" {
					n++
				}
			}
		}
	}
}

func TestRun(t *testing.T) {
	demo := "../../testdata/demo"
	p := diff.Subtract(load(t, demo, "gmon.out"), load(t, demo, "gmon2.out"), diff.Options{})
	dot := dotOf(t, p, graphfile.Options{})
	dir := t.TempDir()
	dotFile := filepath.Join(dir, "g.dot")
	require.NoError(t, os.WriteFile(dotFile, dot, 0o644))

	t.Run("svg from stdin to stdout", func(t *testing.T) {
		var out, errs bytes.Buffer
		require.Equal(t, 0, run([]string{"-T", "svg"}, bytes.NewReader(dot), &out, &errs), errs.String())
		assert.Equal(t, len(p.Functions), svgNodes(t, out.Bytes()))
	})
	t.Run("svg is the default format", func(t *testing.T) {
		var out, errs bytes.Buffer
		require.Equal(t, 0, run(nil, bytes.NewReader(dot), &out, &errs), errs.String())
		assert.Contains(t, out.String(), "<svg")
	})
	t.Run("png from a file to a file", func(t *testing.T) {
		path := filepath.Join(dir, "g.png")
		var out, errs bytes.Buffer
		require.Equal(t, 0, run([]string{"-T", "png", "-o", path, dotFile}, nil, &out, &errs), errs.String())
		assert.Zero(t, out.Len())
		f, err := os.Open(path)
		require.NoError(t, err)
		defer f.Close()
		img, err := png.Decode(f)
		require.NoError(t, err)
		assert.Greater(t, img.Bounds().Dx(), 300)
	})

	errCases := []struct {
		name   string
		args   []string
		stdin  string
		status int
		msg    string
	}{
		// Before any syntax error: graphviz keeps reporting its last
		// error for input without a graph.
		{"no graph, svg", []string{"-T", "svg"}, "", 1, "parsing DOT: no graph in the input"},
		{"no graph, png", []string{"-T", "png"}, "/* only a comment */\n", 1, "parsing DOT: no graph in the input"},
		{"bad DOT", []string{"-o", filepath.Join(dir, "bad.svg")}, "digraph { a -> ", 1, "parsing DOT"},
		{"unknown format", []string{"-T", "jpg"}, "", 2, "unknown output format"},
		{"two inputs", []string{"a.dot", "b.dot"}, "", 2, "usage"},
		{"missing input", []string{filepath.Join(dir, "none.dot")}, "", 1, "none.dot"},
		{"bad flag", []string{"-x"}, "", 2, "-x"},
	}
	for _, tc := range errCases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			assert.Equal(t, tc.status, run(tc.args, strings.NewReader(tc.stdin), &out, &errs))
			assert.Contains(t, errs.String(), tc.msg)
			assert.Zero(t, out.Len())
		})
	}
	_, err := os.Stat(filepath.Join(dir, "bad.svg"))
	assert.True(t, errors.Is(err, os.ErrNotExist), "no output file when the DOT is bad")

	var out, errs bytes.Buffer
	assert.Equal(t, 0, run([]string{"-h"}, nil, &out, &errs))
	assert.Contains(t, errs.String(), "usage: egprof-graphviz")
}

// TestPNGShapes checks what go-graphviz's own PNG renderer gets wrong:
// rounded boxes are filled, edges (a self loop here, whose area is large)
// are only stroked, and box outlines are drawn.
func TestPNGShapes(t *testing.T) {
	dot := `digraph {
  node [shape=box, width=2, height=1];
  a [style="filled,rounded", fillcolor="#ca0020", color="#000000"];
  b [style=filled, fillcolor="#ffffff", color="#00ff00", penwidth=2, height=4];
  b -> b [color="#0571b0", fillcolor="#ff00ff", penwidth=3];
}`
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-T", "png"}, strings.NewReader(dot), &out, &errs), errs.String())
	img, err := png.Decode(&out)
	require.NoError(t, err)
	count := func(c uint32) int {
		n := 0
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				if (r>>8)<<16|(g>>8)<<8|bl>>8 == c {
					n++
				}
			}
		}
		return n
	}
	// A 2 x 1 inch box at 96 dpi is about 18,000 pixels.
	assert.Greater(t, count(0xca0020), 12000, "rounded box filled")
	assert.Greater(t, count(0x00ff00), 500, "box outline drawn")
	assert.Less(t, count(0x0571b0), 600, "self loop stroked, not filled")
	assert.Greater(t, count(0x0571b0), 50, "self loop drawn")
	// Only the arrowhead is filled with the edge's fill colour, not the
	// loop's area.
	assert.Less(t, count(0xff00ff), 100, "self loop not filled")
}

// TestRecordProcs checks that the recording runs on recordProcs
// processors unless the environment sets GOMAXPROCS, and that withProcs
// sets their number back.
func TestRecordProcs(t *testing.T) {
	n, ok := recordProcsFrom(func(string) (string, bool) { return "", false })
	assert.Equal(t, recordProcs, n)
	assert.True(t, ok)
	_, ok = recordProcsFrom(func(k string) (string, bool) { return "4", k == "GOMAXPROCS" })
	assert.False(t, ok)

	before := runtime.GOMAXPROCS(0)
	withProcs(1, func() { assert.Equal(t, 1, runtime.GOMAXPROCS(0)) })
	assert.Equal(t, before, runtime.GOMAXPROCS(0))
}
