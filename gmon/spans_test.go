package gmon

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// span is one range Histogram.Spans gives.
type span struct{ from, to int }

func spansOf(h *Histogram) []span {
	var out []span
	for from, to := range h.Spans() {
		out = append(out, span{from, to})
	}
	return out
}

// TestSpans checks the ranges Spans gives for a histogram of six blocks
// (the last one short) read, added, merged and carried across processes,
// and for histograms made outside the package.
func TestSpans(t *testing.T) {
	const n = 5*binsPerBlock + 440
	bins := zeroBins(n, 5, 1, binsPerBlock*2+6, 2, binsPerBlock*2+76, 3, n-1, 4)
	data := newTB(le64).gnu(1).hist(0x10000, 0x10000+2*n, bins).bytes()
	want := []span{{0, binsPerBlock}, {2 * binsPerBlock, 3 * binsPerBlock}, {5 * binsPerBlock, n}}

	reads := map[string]func(p *Profile) error{
		"AddData":     func(p *Profile) error { _, err := p.AddData(data, "a.out"); return err },
		"AddDataLean": func(p *Profile) error { _, err := p.AddDataLean(data, "a.out"); return err },
		"Add": func(p *Profile) error {
			f, err := NewProfile(le64, FormatAuto).AddData(data, "a.out")
			if err != nil {
				return err
			}
			return p.Add(f)
		},
	}
	for name, read := range reads {
		t.Run(name, func(t *testing.T) {
			p := NewProfile(le64, FormatAuto)
			require.NoError(t, read(p))
			require.Len(t, p.Hists, 1)
			assert.Equal(t, want, spansOf(&p.Hists[0]))

			// Carried to another process and back, and copied.
			q, err := DecodeState(p.EncodeState(), "part", le64, FormatAuto)
			require.NoError(t, err)
			assert.Equal(t, want, spansOf(&q.Hists[0]))
			assert.Equal(t, want, spansOf(&p.clone().Hists[0]))

			// A merged profile with a count in block 4 gains that block,
			// joined to the last.
			more := zeroBins(n, 4*binsPerBlock+1, 9)
			r := NewProfile(le64, FormatAuto)
			_, err = r.AddData(newTB(le64).gnu(1).hist(0x10000, 0x10000+2*n, more).bytes(), "b.out")
			require.NoError(t, err)
			require.True(t, p.Merge(r))
			assert.Equal(t, []span{{0, binsPerBlock}, {2 * binsPerBlock, 3 * binsPerBlock}, {4 * binsPerBlock, n}}, spansOf(&p.Hists[0]))

			p.ReleaseBins()
			assert.Empty(t, spansOf(&p.Hists[0]))
		})
	}

	outside := Histogram{Bins: make([]int64, 10)}
	assert.Equal(t, []span{{0, 10}}, spansOf(&outside), "a histogram made elsewhere is read whole")
	assert.Empty(t, spansOf(&Histogram{}))
}

// TestSpansCoverCounts sums random runs of large histograms and checks
// that the spans are increasing, disjoint, inside Bins, and hold every
// nonzero bin.
func TestSpansCoverCounts(t *testing.T) {
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 11))
		n := 1 + r.IntN(40*binsPerBlock)
		p := NewProfile(le64, FormatAuto)
		for f := range 1 + r.IntN(4) {
			bins := make([]uint16, n)
			for range r.IntN(20) {
				bins[r.IntN(n)] = uint16(1 + r.IntN(1000))
			}
			data := newTB(le64).gnu(1).hist(0x400000, 0x400000+2*uint64(n), bins).bytes()
			var err error
			if f%2 == 0 {
				_, err = p.AddDataLean(data, fileName(f))
			} else {
				_, err = p.AddData(data, fileName(f))
			}
			require.NoError(t, err)
		}
		h := &p.Hists[0]
		covered := make([]bool, n)
		last := 0
		for _, s := range spansOf(h) {
			require.True(t, last <= s.from && s.from < s.to && s.to <= n, "seed %d: span %v after %d", seed, s, last)
			for j := s.from; j < s.to; j++ {
				covered[j] = true
			}
			last = s.to
		}
		for j, v := range h.Bins {
			if v != 0 {
				require.True(t, covered[j], "seed %d: bin %d (%d) outside every span", seed, j, v)
			}
		}
	}
}
