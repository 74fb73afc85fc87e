package callgraph

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStaticArcAndRelease checks, on a graph with a recorded arc and one
// found by scanning the code (-c), which arcs StaticArc calls static, and
// that Release gives the same graph while emptying the profile's samples
// and arcs.
func TestStaticArcAndRelease(t *testing.T) {
	tab := table(fn("main", 0x100, 0x10), fn("f", 0x110, 0x10))
	// main's first instruction calls f: e8 and f's address relative to
	// the next instruction (0x105).
	text := make([]byte, 0x20)
	copy(text, []byte{0xe8, 0x0b, 0, 0, 0})
	bins := make([]uint16, 16)
	bins[2], bins[9] = 3, 5
	for _, release := range []bool{false, true} {
		prof := profile(t, &histRec{low: 0x100, high: 0x120, bins: bins},
			[]arcRec{{from: 0x112, self: 0x100, count: 4}}) // f -> main
		g := Build(tab, prof, Options{StaticCalls: true, TextBytes: text, Release: release})
		require.Len(t, g.Arcs, 2)
		assert.Equal(t, Arc{Parent: 1, Child: 0, Count: 4}, g.Arcs[0])
		assert.False(t, g.StaticArc(0), "recorded arc")
		assert.Equal(t, int32(0), g.Arcs[1].Parent)
		assert.Equal(t, int32(1), g.Arcs[1].Child)
		assert.Equal(t, uint64(0), g.Arcs[1].Count)
		assert.True(t, g.StaticArc(1), "arc found in the code")
		assert.InDelta(t, 3.0, g.Entries[0].Ticks, 1e-9)
		assert.InDelta(t, 5.0, g.Entries[1].Ticks, 1e-9)
		if release {
			assert.Nil(t, prof.Arcs)
			assert.Nil(t, prof.Hists[0].Bins)
		} else {
			assert.Len(t, prof.Arcs, 1)
			assert.NotNil(t, prof.Hists[0].Bins)
		}
	}
}
