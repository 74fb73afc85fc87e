package pairindex

import "testing"

type pair struct{ a, b uint64 }

func pairKey(p *pair) (uint64, uint64) { return p.a, p.b }

// TestFindAgainstMap adds pairs (with repeats, through several growths)
// and checks every lookup against a map of first positions.
func TestFindAgainstMap(t *testing.T) {
	tests := []struct {
		name    string
		reserve int
		n       int
	}{
		{"empty index grows", 0, 5000},
		{"reserved", 5000, 5000},
		{"reserved too small", 10, 3000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x := New(tc.reserve)
			var items []pair
			first := map[pair]int{}
			for i := range tc.n {
				p := pair{uint64(i*7919) % 1013, uint64(i % 37)}
				got := Find(&x, items, pairKey, p.a, p.b)
				want, ok := first[p]
				if !ok {
					want = -1
				}
				if got != want {
					t.Fatalf("Find(%v) = %d, want %d", p, got, want)
				}
				if !ok {
					items = append(items, p)
					first[p] = len(items) - 1
					Insert(&x, items, pairKey, len(items)-1)
				}
			}
			if got := Find(&x, items, pairKey, 1<<40, 1); got != -1 {
				t.Errorf("Find of an absent pair = %d, want -1", got)
			}
		})
	}
}
