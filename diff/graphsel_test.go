package diff

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
)

// selProfile builds a differential profile by hand: functions with the
// given '+' and '-' (self, children) seconds at 100 Hz, and arcs.
func selProfile(diffMode bool, fns [][4]float64, arcs [][2]int) *Profile {
	p := &Profile{Plus: &callgraph.Graph{HZ: 100}}
	if diffMode {
		p.Minus = &callgraph.Graph{HZ: 100}
	}
	for i, f := range fns {
		side := func(self, children float64) Side {
			return Side{Present: true, Entry: i, Samples: self * 100, Self: self, PropSelf: self, Children: children}
		}
		fn := Function{Name: fmt.Sprintf("f%d", i), Plus: side(f[0], f[1]), Minus: Side{Entry: -1}}
		if diffMode {
			fn.Minus = side(f[2], f[3])
		}
		p.Functions = append(p.Functions, fn)
	}
	for _, a := range arcs {
		p.Arcs = append(p.Arcs, Arc{Parent: a[0], Child: a[1], Plus: ArcSide{Present: true, Count: 1}})
	}
	return p
}

func TestSelectGraph(t *testing.T) {
	// Inclusive deltas: f0 +3, f1 -5, f2 0, f3 +1 (self +1), f4 -1 (self 0).
	fns := [][4]float64{
		{1, 3, 1, 0},
		{0, 0, 2, 3},
		{1, 1, 1, 1},
		{2, 0, 1, 0},
		{0, 1, 0, 2},
	}
	arcs := [][2]int{{0, 1}, {1, 2}, {0, 3}, {3, 4}, {4, 4}, {1, 0}}
	tests := []struct {
		name        string
		diff        bool
		top         int
		nodes, arcs []int
	}{
		{"all when top is 0", true, 0, []int{0, 1, 2, 3, 4}, []int{0, 1, 2, 3, 4, 5}},
		{"all when top exceeds", true, 9, []int{0, 1, 2, 3, 4}, []int{0, 1, 2, 3, 4, 5}},
		{"largest |inclusive delta|", true, 2, []int{0, 1}, []int{0, 5}},
		// f3 and f4 tie at |1|; f3's |self delta| 1 beats f4's 0.
		{"tie by |self delta|", true, 3, []int{0, 1, 3}, []int{0, 2, 5}},
		{"self loop kept with its node", true, 4, []int{0, 1, 3, 4}, []int{0, 2, 3, 4, 5}},
		// Single profile: inclusive times 4, 0, 2, 2, 1; f2 and f3 tie at 2,
		// f3's self 2 beats f2's 1.
		{"single profile by inclusive time", false, 2, []int{0, 3}, []int{2}},
		{"single profile, three", false, 3, []int{0, 2, 3}, []int{2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := selProfile(tc.diff, fns, arcs)
			sel := p.SelectGraph(tc.top)
			assert.Equal(t, tc.nodes, sel.Nodes)
			assert.Equal(t, tc.arcs, sel.Arcs)
			assert.Equal(t, len(fns)-len(tc.nodes), sel.PrunedNodes)
			assert.Equal(t, len(arcs)-len(tc.arcs), sel.PrunedArcs)
		})
	}
}

func TestSelectGraphLarge(t *testing.T) {
	// 20,000 functions and 100,000 arcs: the kept functions are exactly
	// those whose |inclusive delta| is at least the 200th largest, and
	// every kept arc joins two kept functions.
	r := rand.New(rand.NewPCG(4, 2))
	const n, m, top = 20000, 100000, 200
	fns := make([][4]float64, n)
	for i := range fns {
		fns[i] = [4]float64{float64(r.IntN(100)) / 100, r.Float64(), float64(r.IntN(100)) / 100, r.Float64()}
	}
	arcs := make([][2]int, m)
	for i := range arcs {
		arcs[i] = [2]int{r.IntN(n), r.IntN(n)}
	}
	p := selProfile(true, fns, arcs)
	sel := p.SelectGraph(top)
	require.Len(t, sel.Nodes, top)
	kept := make([]bool, n)
	least := math.Inf(1)
	for _, i := range sel.Nodes {
		kept[i] = true
		least = math.Min(least, math.Abs(p.Inclusive(i)))
	}
	for i := range n {
		if !kept[i] {
			assert.LessOrEqual(t, math.Abs(p.Inclusive(i)), least, "function %d left out", i)
		}
	}
	want := 0
	for _, a := range p.Arcs {
		if kept[a.Parent] && kept[a.Child] {
			want++
		}
	}
	assert.Len(t, sel.Arcs, want)
	for _, ai := range sel.Arcs {
		assert.True(t, kept[p.Arcs[ai].Parent] && kept[p.Arcs[ai].Child])
	}
	assert.Equal(t, m-want, sel.PrunedArcs)
}

func TestWithinNoise(t *testing.T) {
	// At 100 Hz, a and b samples: SE = sqrt(a+b)/100 s.
	tests := []struct {
		name       string
		plus, minu float64 // samples
		want       bool
	}{
		{"0 vs 1 sample is noise", 0, 1, true},
		{"equal is within noise", 50, 50, true},
		{"zero on both sides", 0, 0, true},
		{"inside two SEs", 100, 80, true},   // |20| <= 2*sqrt(180) = 26.8
		{"outside two SEs", 100, 70, false}, // |30| > 2*sqrt(170) = 26.1
		{"clear change", 400, 100, false},   // |300| > 2*sqrt(500) = 44.7
		{"clear change, other way", 10, 200, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := selProfile(true, [][4]float64{{tc.plus / 100, 0, tc.minu / 100, 0}}, nil)
			assert.Equal(t, tc.want, p.WithinNoise(0))
		})
	}
	t.Run("single profile has no noise", func(t *testing.T) {
		p := selProfile(false, [][4]float64{{0.01, 0, 0, 0}}, nil)
		assert.False(t, p.WithinNoise(0))
	})
}
