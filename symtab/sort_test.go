package symtab

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSortByAddr checks sortByAddr against a stable sort by AddrOrder, on
// symbol sets with many equal addresses and kinds (so that the order of
// ties matters) and on sets already in order.
func TestSortByAddr(t *testing.T) {
	tests := []struct {
		name   string
		n      int
		addrs  int // distinct addresses
		sorted bool
	}{
		{"empty", 0, 1, false},
		{"one", 1, 1, false},
		{"all at one address", 40, 1, false},
		{"many ties", 500, 20, false},
		{"few ties", 2000, 1500, false},
		{"already sorted", 300, 50, true},
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			syms := make([]Symbol, tt.n)
			for i := range syms {
				syms[i] = Symbol{
					Name:     fmt.Sprintf("s%d", i),
					Addr:     0x1000 + 4*uint64(rng.IntN(tt.addrs)),
					IsFunc:   rng.IntN(2) == 0,
					IsStatic: rng.IntN(2) == 0,
					symIndex: i,
				}
			}
			less := func(a, b Symbol) int {
				switch {
				case AddrOrder(&a, &b):
					return -1
				case AddrOrder(&b, &a):
					return 1
				}
				return 0
			}
			if tt.sorted {
				slices.SortStableFunc(syms, less)
			}
			want := slices.Clone(syms)
			slices.SortStableFunc(want, less)
			sortByAddr(syms)
			require.Equal(t, want, syms)
		})
	}
}
