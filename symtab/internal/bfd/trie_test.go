package bfd

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// dumpTrie writes the shape and the ranges of a trie, naming units by
// their position in units.
func dumpTrie(sb *strings.Builder, t *trieNode, units []*unit, depth int) {
	if t == nil {
		return
	}
	if t.room > 0 {
		fmt.Fprintf(sb, "%*sleaf room %d:", depth, "", t.room)
		for _, r := range t.ranges {
			k := 0
			for k < len(units) && units[k] != r.unit {
				k++
			}
			fmt.Fprintf(sb, " u%d[%#x,%#x)", k, r.low, r.high)
		}
		sb.WriteByte('\n')
		return
	}
	for ch, c := range t.children {
		if c != nil {
			fmt.Fprintf(sb, "%*s%02x\n", depth, "", ch)
			dumpTrie(sb, c, units, depth+1)
		}
	}
}

// TestTrieAddMatchesWalk adds random unit and function ranges, close
// together as compilers lay them out and far apart, to two tries: one
// through trieAdd (which merges into the last leaf when it can) and one
// always walking from the root as BFD does. The tries and the budgets
// left must be the same.
func TestTrieAddMatchesWalk(t *testing.T) {
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 17))
		units := make([]*unit, 1+r.IntN(8))
		for i := range units {
			units[i] = &unit{start: i}
		}
		fast, walk := newLines(binary.LittleEndian), newLines(binary.LittleEndian)
		if r.IntN(4) == 0 {
			budget := 40 + r.IntN(400) // runs out on the way
			fast.trieBudget, walk.trieBudget = budget, budget
		}
		base := uint64(0x1000)
		if r.IntN(3) == 0 {
			base = 0x7f00_0000_0000 + r.Uint64N(1<<30)
		}
		next := base
		for range 1 + r.IntN(400) {
			u := units[r.IntN(len(units))]
			var low, high uint64
			switch r.IntN(4) {
			case 0: // a unit's whole range, somewhere
				low = base + r.Uint64N(1<<20)
				high = low + 1 + r.Uint64N(1<<16)
			case 1: // the next function, maybe after padding
				low = next + r.Uint64N(3)*16
				high = low + 1 + r.Uint64N(600)
				next = high
			case 2: // inside the last ranges
				low = base + r.Uint64N(next-base+1)
				high = low + 1 + r.Uint64N(64)
			default: // far away
				low = r.Uint64N(1 << 48)
				high = low + 1 + r.Uint64N(1<<12)
			}
			fast.trieAdd(u, low, high)
			walk.trie = walk.trieInsert(walk.trie, 0, 0, u, low, high)
		}
		var a, b strings.Builder
		dumpTrie(&a, fast.trie, units, 0)
		dumpTrie(&b, walk.trie, units, 0)
		require.Equal(t, b.String(), a.String(), "seed %d", seed)
		require.Equal(t, walk.trieBudget, fast.trieBudget, "seed %d", seed)
	}
}
