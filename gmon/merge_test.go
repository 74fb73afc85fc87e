package gmon

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomRun makes n GNU files of a run, most of them alike (the ranks of
// one job) and some with a header that conflicts with others: another
// unit, another bin count for a known range, an overlapping range, a
// range of its own, a BSD file.
func randomRun(r *rand.Rand, tg Target, n int) [][]byte {
	type rng struct {
		lo, hi uint64
		n      uint32
	}
	common := []rng{{0x1000, 0x1200, 256}, {0x4000, 0x4040, 32}, {0x8000, 0x8000, 0}}
	files := make([][]byte, n)
	for i := range files {
		b := newTB(tg).gnu(1)
		for _, h := range common {
			if r.IntN(4) == 0 {
				continue
			}
			bins := make([]uint16, h.n)
			for j := range bins {
				if r.IntN(3) == 0 {
					bins[j] = uint16(r.IntN(70000))
				}
			}
			dimen, abbrev, nn := "seconds", byte('s'), h.n
			switch r.IntN(40) {
			case 0:
				dimen = "cycles"
			case 1:
				abbrev = 'c'
			case 2:
				nn = h.n / 2 // another scale, or another count for the range
				bins = bins[:nn]
			}
			b.histN(h.lo, h.hi, nn, 100, dimen, abbrev, bins)
		}
		switch r.IntN(40) {
		case 0: // overlaps the first common range
			b.hist(0x1100, 0x1300, make([]uint16, 256))
		case 1: // a disjoint range of this file's own, same scale
			b.hist(0x6000, 0x6200, make([]uint16, 256))
		}
		for range r.IntN(6) {
			b.arc(uint64(0x1000+16*r.IntN(8)), uint64(0x1100+16*r.IntN(8)), uint32(r.IntN(1000)))
		}
		if r.IntN(3) == 0 {
			b.bb(BBRecord{Addr: uint64(0x1000 + 4*r.IntN(4)), Count: uint64(r.IntN(50))})
		}
		files[i] = b.bytes()
		if r.IntN(60) == 0 {
			files[i] = newTB(tg).bsd(0x1000, 0x1200, make([]uint16, 256), 100).bsdArc(0x1000, 0x1100, 3).bytes()
		}
	}
	return files
}

// sumOf sums files one by one, as gprof does.
func sumOf(tg Target, files [][]byte, first int) (*Profile, error) {
	p := NewProfile(tg, FormatAuto)
	for i, data := range files {
		if _, err := p.AddData(data, fileName(first+i)); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// summed writes p as gmon.sum, the bytes the summing is judged by.
func summed(t *testing.T, p *Profile) []byte {
	var buf bytes.Buffer
	require.NoError(t, WriteSum(&buf, p, p.Arcs, FormatAuto))
	return buf.Bytes()
}

// TestMergeEqualsSequentialSum cuts random runs at every point: whenever
// Merge accepts the two parts, the result is exactly the sequential sum
// (its state, and the gmon.sum bytes), and when the sequential sum fails,
// Merge never accepts parts that each read without error.
func TestMergeEqualsSequentialSum(t *testing.T) {
	accepted, refused, conflicts := 0, 0, 0
	for seed := range uint64(1000) {
		r := rand.New(rand.NewPCG(seed, 7))
		tg := []Target{le64, le32, be64, be32}[seed%4]
		files := randomRun(r, tg, 2+r.IntN(7))
		whole, wholeErr := sumOf(tg, files, 0)
		for k := 1; k < len(files); k++ {
			left, errL := sumOf(tg, files[:k], 0)
			right, errR := sumOf(tg, files[k:], k)
			if errL != nil || errR != nil {
				continue
			}
			// Through the transport, as processes exchange them.
			var err error
			right, err = DecodeState(right.EncodeState(), "part", tg, FormatAuto)
			require.NoError(t, err)
			if wholeErr != nil {
				conflicts++ // parts that read alone, a whole that gprof refuses
			}
			before := left.EncodeState()
			if !left.Merge(right) {
				refused++
				assert.Equal(t, before, left.EncodeState(), "seed %d cut %d: a refused merge changed the left part", seed, k)
				continue
			}
			accepted++
			require.NoError(t, wholeErr, "seed %d cut %d: merge accepted parts of a run gprof cannot sum", seed, k)
			// The encoding holds the whole state, floats bit for bit.
			assert.Equal(t, whole.EncodeState(), left.EncodeState(), "seed %d cut %d", seed, k)
			assert.Equal(t, summed(t, whole), summed(t, left), "seed %d cut %d", seed, k)
			assert.Equal(t, whole.Spare(), left.Spare(), "seed %d cut %d", seed, k)
		}
	}
	t.Logf("%d merges accepted, %d refused (%d of the whole runs fail)", accepted, refused, conflicts)
	assert.Greater(t, conflicts, 20)
	assert.Greater(t, accepted, 1000)
	assert.Greater(t, refused, 20)
}

func TestMergeRefusals(t *testing.T) {
	base := newTB(le64).gnu(1).hist(0x1000, 0x1200, make([]uint16, 256)).bytes()
	cases := []struct {
		name string
		next []byte
	}{
		{"another unit", newTB(le64).gnu(1).histN(0x4000, 0x4200, 256, 100, "cycles", 's', make([]uint16, 256)).bytes()},
		{"another unit letter", newTB(le64).gnu(1).histN(0x4000, 0x4200, 256, 100, "seconds", 'c', make([]uint16, 256)).bytes()},
		{"another scale", newTB(le64).gnu(1).hist(0x4000, 0x4200, make([]uint16, 128)).bytes()},
		{"another bin count for a known range", newTB(le64).gnu(1).histN(0x1000, 0x1200, 200, 100, "seconds", 's', make([]uint16, 200)).bytes()},
		{"an overlapping range", newTB(le64).gnu(1).hist(0x1100, 0x1300, make([]uint16, 256)).bytes()},
		{"a BSD file", newTB(le64).bsd(0x1000, 0x1200, make([]uint16, 256), 100).bytes()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			left, err := sumOf(le64, [][]byte{base}, 0)
			require.NoError(t, err)
			right, err := sumOf(le64, [][]byte{tc.next}, 1)
			require.NoError(t, err)
			assert.False(t, left.Merge(right))
		})
	}
	// The same range with the same count merges, and an empty side is
	// no change.
	left, _ := sumOf(le64, [][]byte{base}, 0)
	right, _ := sumOf(le64, [][]byte{base}, 1)
	assert.True(t, left.Merge(right))
	assert.Equal(t, 2, left.Files)
	assert.True(t, left.Merge(NewProfile(le64, FormatAuto)))
	assert.Equal(t, 2, left.Files)
}

func TestDecodeStateRejects(t *testing.T) {
	p, err := sumOf(le64, [][]byte{newTB(le64).gnu(1).hist(0x1000, 0x1200, make([]uint16, 256)).arc(1, 2, 3).bytes()}, 0)
	require.NoError(t, err)
	good := p.EncodeState()
	_, err = DecodeState(good, "part", le64, FormatAuto)
	require.NoError(t, err)
	_, err = DecodeState(good[:len(good)-1], "part", le64, FormatAuto)
	assert.ErrorContains(t, err, "part: offset 0xc")
	bad := append([]byte(nil), good...)
	bad[len(bad)-3] ^= 1
	_, err = DecodeState(bad, "part", le64, FormatAuto)
	assert.ErrorContains(t, err, "checksum")
	_, err = DecodeState([]byte("gmon"), "part", le64, FormatAuto)
	assert.ErrorContains(t, err, "signature")
}

// FuzzDecodeState checks that any bytes are refused or decoded into a
// state that encodes back to the same bytes.
func FuzzDecodeState(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, files := range [][][]byte{randomRun(r, le64, 3), randomRun(r, le64, 1)} {
		if p, err := sumOf(le64, files, 0); err == nil {
			f.Add(p.EncodeState())
		}
	}
	f.Add([]byte("EGPGMSUM"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := DecodeState(data, "fuzz", le64, FormatAuto)
		if err != nil {
			return
		}
		if again := p.EncodeState(); !bytes.Equal(again, data) {
			t.Fatalf("decoded state encodes to other bytes")
		}
	})
}
