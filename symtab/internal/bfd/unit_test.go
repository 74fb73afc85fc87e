package bfd

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCompDir checks that an IRIX "host.:" prefix is dropped from
// DW_AT_comp_dir, and only that.
func TestCompDir(t *testing.T) {
	for in, want := range map[string]string{
		"/src":          "/src",
		"host.:/src":    "/src",
		":/src":         ":/src",
		"a:/src":        "a:/src",
		"host.:src":     "host.:src",
		"x.:/a.:/b":     "/a.:/b",
		"/with:colon/x": "/with:colon/x",
	} {
		got := compDirOf(attr{form: formString, str: optString{s: in, has: true}})
		assert.Equal(t, want, got.s, in)
	}
	assert.False(t, compDirOf(attr{form: formData4, val: 5}).ok())
}

// TestSortedFuncs checks the packed-key sort of a unit's function table
// against sorting the entries with their comparison function, on random
// ranges with shared starts and ends and addresses too far apart to pack.
func TestSortedFuncs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, spread := range []uint64{16, 1 << 20, 1 << 40, 1 << 63} {
		for iter := 0; iter < 200; iter++ {
			base := rng.Uint64N(1 << 62)
			// A unit keeps only functions with a range.
			var funcs chunkList[funcInfo]
			var want []funcLookup
			lowest, highest := ^uint64(0), uint64(0)
			for i := rng.IntN(300); i >= 0; i-- {
				fn := funcInfo{idx: int32(funcs.n)}
				low := base + rng.Uint64N(spread)
				fn.arange.first = arange{low, low + 1 + rng.Uint64N(8)}
				if rng.IntN(4) == 0 {
					fn.arange.rest = []arange{{low + 20, low + 20 + rng.Uint64N(min(spread, 1<<60))}}
				}
				low, high := fn.arange.bounds()
				want = append(want, funcLookup{low: low, high: high, idx: fn.idx})
				lowest, highest = min(lowest, low), max(highest, high)
				funcs.push(fn)
			}
			slices.SortFunc(want, compareFuncLookup)
			require.Equal(t, want, sortedFuncs(&funcs, lowest, highest))
		}
	}
}

// TestOffsetOrder checks the packed-key order of the ELF symbol
// candidates against a stable sort by offset, with repeated offsets and
// offsets too far apart to pack.
func TestOffsetOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, spread := range []uint64{8, 1 << 30, 1 << 62, 1<<64 - 1} {
		for iter := 0; iter < 200; iter++ {
			cands := make([]elfCand, rng.IntN(400))
			for i := range cands {
				cands[i].codeOff = rng.Uint64N(spread)
			}
			want := make([]int, len(cands))
			for i := range want {
				want[i] = i
			}
			slices.SortStableFunc(want, func(a, b int) int { return cmp.Compare(cands[a].codeOff, cands[b].codeOff) })
			require.Equal(t, want, offsetOrder(cands))
		}
	}
}
