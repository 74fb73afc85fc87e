package gmon_test

import (
	"encoding/binary"
	"os"
	"testing"

	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/progen"
	"github.com/egprof/egprof/internal/testenv"
)

// BenchmarkReadSynthetic measures reading the synthetic benchmark profile
// (20,000 functions, 100,000 arcs) from memory into a fresh profile, as
// the command does for each data file.
func BenchmarkReadSynthetic(b *testing.B) {
	testenv.Need(b, "gcc")
	files, err := progen.BenchFiles(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(files.Gmon)
	if err != nil {
		b.Fatal(err)
	}
	target := gmon.Target{Order: binary.LittleEndian, AddrSize: 8}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		p := gmon.NewProfile(target, gmon.FormatAuto)
		if _, err := p.AddData(data, files.Gmon); err != nil {
			b.Fatal(err)
		}
	}
}
