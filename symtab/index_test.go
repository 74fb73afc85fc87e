package symtab

import (
	"cmp"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
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

// TestSymbolSourceByIndex checks the invariant SymbolSource's binary
// search rests on, that the kept symbols are in .symtab order, and that
// it finds for every symbol of the testdata programs the position a
// linear scan of the kept symbols finds.
func TestSymbolSourceByIndex(t *testing.T) {
	progs, err := filepath.Glob("../testdata/progs/*/prog")
	require.NoError(t, err)
	require.NotEmpty(t, progs)
	withSources, positions := 0, 0
	for _, prog := range progs {
		tab, err := Load(prog, Options{})
		require.NoError(t, err)
		if tab.sources == nil {
			continue
		}
		withSources++
		st := tab.sources
		require.True(t, slices.IsSortedFunc(st.kept, func(a, b keptSym) int { return cmp.Compare(a.symIndex, b.symIndex) }), prog)
		for i := range tab.Syms {
			got, gotOK := tab.SymbolSource(i)
			var want SourceLoc
			wantOK := false
			for k, s := range st.kept {
				if s.symIndex == tab.Syms[i].symIndex {
					want, wantOK = st.locs[k], st.found[k]
					break
				}
			}
			if gotOK {
				positions++
			}
			assert.Equal(t, wantOK, gotOK, "%s: %s", prog, tab.Syms[i].Name)
			assert.Equal(t, want, got, "%s: %s", prog, tab.Syms[i].Name)
		}
	}
	require.NotZero(t, withSources, "no testdata program has debug information")
	require.NotZero(t, positions, "no symbol of the testdata programs has a source position")
}
