package demangle

import (
	"path/filepath"
	"testing"

	"github.com/egprof/egprof/internal/testenv"
)

// BenchmarkDemangle demangles the C++ golden sample (20,227 real names
// of the corpus) under --demangle=auto; ns/op is per name.
func BenchmarkDemangle(b *testing.B) {
	rows := readSample(b, filepath.Join(testenv.Root(b), "testdata", "demangle", "corpus-sample.tsv.gz"), 2)
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r[0]
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		Demangle(names[i%len(names)], Auto)
	}
}

// BenchmarkDemangler is BenchmarkDemangle with one Demangler for all the
// names, as egprof's outputs demangle them: ns/op and B/op are per name.
func BenchmarkDemangler(b *testing.B) {
	rows := readSample(b, filepath.Join(testenv.Root(b), "testdata", "demangle", "corpus-sample.tsv.gz"), 2)
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r[0]
	}
	var d Demangler
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		d.Demangle(names[i%len(names)], Auto)
	}
}
