package html

import (
	"io"
	"testing"

	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/internal/progen"
	"github.com/egprof/egprof/internal/testenv"
	"github.com/egprof/egprof/internal/testprof"
)

// BenchmarkSinglePageSynthetic times the single page of the synthetic
// benchmark profile (20,000 functions, 100,000 arcs), stack synthesis
// included, written to io.Discard.
func BenchmarkSinglePageSynthetic(b *testing.B) {
	testenv.Need(b, "gcc")
	files, err := progen.BenchFiles(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	d := diff.Single(testprof.Graph(b, files.Binary, files.Gmon), diff.Options{})
	b.ReportAllocs()
	for b.Loop() {
		st, err := Write(io.Discard, d, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(st.DataBytes), "data-bytes")
		b.ReportMetric(float64(st.FlameNodes), "frames")
	}
}
