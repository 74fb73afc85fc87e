package symtab

import (
	"os"
	"strings"
	"testing"

	"github.com/egprof/egprof/internal/testenv"
)

// benchExecutable is the program the benchmarks load: the repository's
// optimised C++ test program, or the executable named by
// EGPROF_BENCH_EXE (for example a larger program built -O2 -g).
func benchExecutable(b *testing.B) string {
	if p := os.Getenv("EGPROF_BENCH_EXE"); p != "" {
		return p
	}
	p := "../testdata/progs/cxx-O2/prog"
	if _, err := os.Stat(p); err != nil {
		b.Skip("no testdata/progs/cxx-O2/prog")
	}
	return p
}

// BenchmarkLoad measures Load, which selects the symbols and reads the
// debug sections (source positions are looked up on first use).
func BenchmarkLoad(b *testing.B) {
	path := benchExecutable(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(path, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSources measures Load followed by the first source position
// asked for, which decodes the DWARF line information and looks up every
// function symbol's position in gprof's order.
func BenchmarkSources(b *testing.B) {
	path := benchExecutable(b)
	b.ReportAllocs()
	for b.Loop() {
		tab, err := Load(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		tab.SymbolSource(0)
	}
}

// BenchmarkLineSymbols measures Load followed by -l's walk over every
// byte of .text.
func BenchmarkLineSymbols(b *testing.B) {
	path := benchExecutable(b)
	for b.Loop() {
		tab, err := Load(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tab.WithLineSymbols(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDemangle demangles every name of the checked-in C++ corpus
// sample (20,227 names) as gprof's default style does; ns/op is per name.
func BenchmarkDemangle(b *testing.B) {
	lines := testenv.GzipLines(b, corpusSamplePath)
	names := make([]string, len(lines))
	for i, line := range lines {
		names[i], _, _ = strings.Cut(line, "\t")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		Demangle(names[i%len(names)], StyleAuto)
	}
}
