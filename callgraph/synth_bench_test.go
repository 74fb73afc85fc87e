package callgraph_test

import (
	"testing"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/progen"
	"github.com/egprof/egprof/internal/testenv"
	"github.com/egprof/egprof/internal/testprof"
	"github.com/egprof/egprof/symtab"
)

// synthetic returns the synthetic benchmark profile's files, its symbol
// table and its profile data, loaded as the command loads them.
func synthetic(b *testing.B) (progen.SyntheticFiles, *symtab.Table, *gmon.Profile) {
	b.Helper()
	testenv.Need(b, "gcc")
	files, err := progen.BenchFiles(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	tab, prof := testprof.Load(b, files.Binary, files.Gmon)
	return files, tab, prof
}

// BenchmarkLoadSymbolsSynthetic measures loading the symbol table of the
// synthetic benchmark executable (20,000 functions).
func BenchmarkLoadSymbolsSynthetic(b *testing.B) {
	files, _, _ := synthetic(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := symtab.Load(files.Binary, symtab.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildSynthetic measures building the call-graph model of the
// synthetic benchmark profile (100,000 arcs): attribution, cycles,
// propagation and display orders.
func BenchmarkBuildSynthetic(b *testing.B) {
	_, tab, prof := synthetic(b)
	b.ReportAllocs()
	for b.Loop() {
		callgraph.Build(tab, prof, callgraph.Options{})
	}
}
