package callgraph

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/symtab"
)

// TestCreditHistogramMatchesCredit sums random large histograms with gmon
// (which marks the blocks it writes) and checks that crediting only their
// spans gives every symbol, the running total and the credited sum bit
// for bit what crediting every bin gives, with selected and unselected
// symbols; and that the belonging check counts the same samples.
func TestCreditHistogramMatchesCredit(t *testing.T) {
	target := gmon.Target{Order: binary.LittleEndian, AddrSize: 8}
	for seed := range uint64(100) {
		r := rand.New(rand.NewPCG(seed, 3))
		const low = 0x400000
		n := 1 + r.IntN(20_000)
		high := low + 2*uint64(n)
		if r.IntN(3) == 0 {
			high = low + 4*uint64(n) // bins of 4 bytes
		}
		var syms []symtab.Symbol
		for a := uint64(low) + uint64(r.IntN(64)); a < high; a += 2 + uint64(r.IntN(400)) {
			syms = append(syms, symtab.Symbol{Name: "f", Addr: a, End: a + 1, IsFunc: true})
		}
		tab := table(syms...)
		bins := make([]uint16, n)
		for range r.IntN(50) {
			bins[r.IntN(n)] = uint16(1 + r.IntN(60000))
		}
		data, err := gmon.Marshal(&gmon.File{Hists: []gmon.HistRecord{{LowPC: low, HighPC: high, Rate: 100, Size: uint32(n), Bins: bins}}}, target)
		require.NoError(t, err)
		p := gmon.NewProfile(target, gmon.FormatAuto)
		_, err = p.AddDataLean(data, "gmon.out")
		require.NoError(t, err)
		h := &p.Hists[0]
		scale := p.Scale()

		a := NewAttribution(tab, func(i int) bool { return i%3 != 0 })
		wantTicks, gotTicks := make([]float64, len(syms)), make([]float64, len(syms))
		var wantTotal, gotTotal float64
		want := Credit(a, h.LowPC, h.Bins, scale, wantTicks, &wantTotal)
		got := CreditHistogram(a, h, scale, gotTicks, &gotTotal)
		require.Equal(t, want, got, "seed %d", seed)
		require.Equal(t, wantTotal, gotTotal, "seed %d", seed)
		require.Equal(t, wantTicks, gotTicks, "seed %d", seed)

		wantAll, wantIn := binsInside(tab, h.LowPC, h.HighPC, len(h.Bins), 0, h.Bins)
		var gotAll, gotIn uint64
		for from, to := range h.Spans() {
			all, in := binsInside(tab, h.LowPC, h.HighPC, len(h.Bins), from, h.Bins[from:to])
			gotAll, gotIn = gotAll+all, gotIn+in
		}
		require.Equal(t, wantAll, gotAll, "seed %d", seed)
		require.Equal(t, wantIn == 0, gotIn == 0, "seed %d", seed)
	}
}
