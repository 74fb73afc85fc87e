package symtab

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// The address index answers exactly as gprof's binary search, for every
// symbol boundary of the test programs and for random addresses.
func TestAddrIndexMatchesBinarySearch(t *testing.T) {
	progs, err := filepath.Glob("../testdata/progs/*/prog")
	require.NoError(t, err)
	require.NotEmpty(t, progs)
	r := rand.New(rand.NewPCG(1, 2))
	for _, prog := range progs {
		tab, err := Load(prog, Options{})
		require.NoError(t, err)
		require.NotNil(t, tab.index)
		search := func(addr uint64) int {
			return LookupRanges(len(tab.Syms), func(i int) (uint64, uint64) { return tab.Syms[i].Addr, tab.Syms[i].End }, addr)
		}
		var addrs []uint64
		for _, s := range tab.Syms {
			addrs = append(addrs, s.Addr-1, s.Addr, s.Addr+1, s.End-1, s.End, s.End+1)
		}
		lo, hi := tab.Syms[0].Addr, tab.Syms[len(tab.Syms)-1].End
		for range 5000 {
			addrs = append(addrs, lo-64+r.Uint64N(hi-lo+128))
		}
		addrs = append(addrs, 0, math.MaxUint64)
		for _, a := range addrs {
			require.Equal(t, search(a), tab.Lookup(a), "%s: address %#x", prog, a)
		}
	}
}
