package gmon

import "testing"

// benchFile builds a large synthetic gmon.out: a 2 MB histogram (1,048,576
// bins) and 100,000 arcs over 5,000 distinct (caller, callee) pairs.
func benchFile(tb testing.TB) []byte {
	tb.Helper()
	const nbins = 1 << 20
	bins := make([]uint16, nbins)
	for i := range bins {
		bins[i] = uint16(i * 7919)
	}
	b := newTB(le64).gnu(1).hist(0x400000, 0x400000+4*nbins, bins)
	for i := range 100000 {
		b.arc(0x400000+uint64(i%5000)*16, 0x500000+uint64(i%97)*64, uint32(i))
	}
	return b.bytes()
}

func BenchmarkRead(b *testing.B) {
	data := benchFile(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		f, err := Read(data, "bench.out", le64, FormatAuto)
		if err != nil || len(f.Arcs) != 100000 {
			b.Fatalf("Read: %v", err)
		}
	}
}

func BenchmarkAddData(b *testing.B) {
	data := benchFile(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		p := NewProfile(le64, FormatAuto)
		if _, err := p.AddData(data, "bench.out"); err != nil {
			b.Fatalf("AddData: %v", err)
		}
	}
}
