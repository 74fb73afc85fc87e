package render_test

import (
	"io"
	"os"
	"testing"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/progen"
	"github.com/egprof/egprof/internal/testenv"
	"github.com/egprof/egprof/render"
	"github.com/egprof/egprof/symtab"
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
	tab, err := symtab.Load(files.Binary, symtab.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { tab.Close() })
	data, err := os.ReadFile(files.Gmon)
	if err != nil {
		b.Fatal(err)
	}
	prof := gmon.NewProfile(tab.Target, gmon.FormatAuto)
	if _, err := prof.AddData(data, files.Gmon); err != nil {
		b.Fatal(err)
	}
	return callgraph.Build(tab, prof, callgraph.Options{})
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
