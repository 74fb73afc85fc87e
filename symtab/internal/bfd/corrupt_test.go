package bfd

import (
	"debug/elf"
	"math/rand"
	"path/filepath"
	"testing"
)

// TestCorrupt mutates the debug sections of real programs and makes
// sure decoding neither panics nor runs away.
func TestCorrupt(t *testing.T) {
	progs, _ := filepath.Glob("../../../testdata/progs/*/prog")
	var base []*Lines
	var texts [][2]uint64
	for _, p := range progs {
		f, err := elf.Open(p)
		if err != nil {
			continue
		}
		b, err := Load(f, nil)
		text := f.Section(".text")
		f.Close()
		if err != nil || b == nil || text == nil {
			continue
		}
		base = append(base, b)
		texts = append(texts, [2]uint64{text.Addr, text.Size})
	}
	if len(base) == 0 {
		t.Skip("no test programs with DWARF")
	}
	rng := rand.New(rand.NewSource(1))
	mutate := func(sec section, n int) section {
		if !sec.ok || len(sec.data) == 0 {
			return sec
		}
		d := append([]byte(nil), sec.data...)
		for i := 0; i < n; i++ {
			switch rng.Intn(3) {
			case 0:
				d[rng.Intn(len(d))] = byte(rng.Intn(256))
			case 1:
				d[rng.Intn(len(d))] = 0xff
			default:
				d[rng.Intn(len(d))] = 0
			}
		}
		if rng.Intn(4) == 0 {
			d = d[:rng.Intn(len(d))]
		}
		sec.data = d
		return sec
	}
	for round := 0; round < 300; round++ {
		i := rng.Intn(len(base))
		orig := base[i]
		s := newLines(orig.order)
		s.info, s.abbrev, s.line, s.str, s.lineStr = orig.info, orig.abbrev, orig.line, orig.str, orig.lineStr
		s.ranges, s.rnglists, s.strOffsets, s.addr = orig.ranges, orig.rnglists, orig.strOffsets, orig.addr
		s.trieBudget = orig.trieBudget
		n := 1 + rng.Intn(20)
		switch rng.Intn(4) {
		case 0:
			s.info = mutate(s.info, n)
		case 1:
			s.line = mutate(s.line, n)
		case 2:
			s.abbrev = mutate(s.abbrev, n)
		default:
			s.ranges = mutate(s.ranges, n)
			s.rnglists = mutate(s.rnglists, n)
			s.lineStr = mutate(s.lineStr, n)
		}
		lo, size := texts[i][0], texts[i][1]
		for k := 0; k < 200; k++ {
			s.Find(lo + uint64(rng.Int63n(int64(size)+64)) - 32)
		}
	}
}
