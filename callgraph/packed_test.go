package callgraph

import (
	"cmp"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPackedOrders checks that sorting packed keys gives the orders the
// comparisons give (cmpTotal for the call graph, the flat profile's), on
// random keys with many ties: few distinct times (zero, negative zero, a
// tiny and the largest finite one among them), few call counts, cycles,
// leading underscores.
func TestPackedOrders(t *testing.T) {
	times := []float64{0, math.Copysign(0, -1), 0.5, 1, 3, 1e-300, math.MaxFloat64}
	tests := []struct {
		name string
		n    int
		seed uint64
	}{
		{"small", 12, 1},
		{"medium", 300, 2},
		{"large", 5000, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(tt.seed, 0))
			// Name positions: a permutation, as sortNames gives them.
			ranks := r.Perm(tt.n)
			total := make([]totalKey, tt.n)
			flat := make([]flatKey, tt.n)
			for i := range tt.n {
				tm := times[r.IntN(len(times))]
				calls := uint64(r.IntN(4))
				total[i] = totalKey{total: tm, ncalls: calls, name: int32(ranks[i]), idx: int32(i),
					cycle: r.IntN(10) == 0, underscore: r.IntN(3) == 0}
				flat[i] = flatKey{ticks: tm, ncalls: calls, rank: int32(ranks[i]), idx: int32(i)}
			}
			packed, ok := packKeys(len(total), func(i int) (packedKey, bool) { return packTotal(total[i]) })
			require.True(t, ok)
			want := sortedEntries(append([]totalKey(nil), total...), cmpTotal)
			assert.Equal(t, want, sortPacked(packed), "call-graph order")

			packedFlat, ok := packKeys(len(flat), func(i int) (packedKey, bool) { return packFlat(flat[i]) })
			require.True(t, ok)
			// The flat order: more self time, then more calls, then name.
			wantFlat := sortedEntries(append([]flatKey(nil), flat...), func(l, r flatKey) int {
				switch {
				case l.ticks > r.ticks:
					return -1
				case l.ticks < r.ticks:
					return 1
				case l.ncalls != r.ncalls:
					return cmp.Compare(r.ncalls, l.ncalls)
				}
				return cmp.Compare(l.rank, r.rank)
			})
			assert.Equal(t, wantFlat, sortPacked(packedFlat), "flat order")
		})
	}
}

// TestPackedKeysRefuse checks the keys that do not pack: NaN, negative and
// infinite times, call counts beyond the packed field.
func TestPackedKeysRefuse(t *testing.T) {
	tests := []struct {
		name string
		key  totalKey
	}{
		{"NaN", totalKey{total: math.NaN()}},
		{"negative", totalKey{total: -1}},
		{"infinite", totalKey{total: math.Inf(1)}},
		{"many calls", totalKey{total: 1, ncalls: packedCalls + 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ok := packTotal(tt.key)
			assert.False(t, ok, "call-graph key")
			_, ok = packFlat(flatKey{ticks: tt.key.total, ncalls: tt.key.ncalls})
			assert.False(t, ok, "flat key")
		})
	}
}
