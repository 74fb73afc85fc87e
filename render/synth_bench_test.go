package render_test

import (
	"io"
	"testing"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/internal/progen"
	"github.com/egprof/egprof/internal/testenv"
	"github.com/egprof/egprof/internal/testprof"
	"github.com/egprof/egprof/render"
)

// syntheticGraph returns the call-graph model of the synthetic benchmark
// profile (20,000 functions, 100,000 arcs).
func syntheticGraph(b *testing.B) *callgraph.Graph {
	b.Helper()
	testenv.Need(b, "gcc")
	files, err := progen.BenchFiles(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	return testprof.Graph(b, files.Binary, files.Gmon)
}

// benchSection times one section of the brief report on the synthetic
// profile, each run with a fresh renderer (so names are computed anew, as
// in one run of the command) writing to io.Discard.
func benchSection(b *testing.B, section func(*render.Text)) {
	g := syntheticGraph(b)
	opt := render.TextOptions{Brief: true, Demangle: true}
	b.ReportAllocs()
	for b.Loop() {
		t := render.NewText(io.Discard, g, opt)
		section(t)
		if err := t.Flush(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFlatSynthetic measures the flat profile (-b -p).
func BenchmarkFlatSynthetic(b *testing.B) { benchSection(b, (*render.Text).Flat) }

// BenchmarkCallGraphSynthetic measures the call graph without its index.
func BenchmarkCallGraphSynthetic(b *testing.B) { benchSection(b, (*render.Text).CallGraph) }

// BenchmarkIndexSynthetic measures the index by function name.
func BenchmarkIndexSynthetic(b *testing.B) { benchSection(b, (*render.Text).Index) }
