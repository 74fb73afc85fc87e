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

func TestSelectGraphTop(t *testing.T) {
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
		paths       []ElidedPath
	}{
		{"all when top is 0", true, 0, []int{0, 1, 2, 3, 4}, []int{0, 1, 2, 3, 4, 5}, nil},
		{"all when top exceeds", true, 9, []int{0, 1, 2, 3, 4}, []int{0, 1, 2, 3, 4, 5}, nil},
		{"largest |inclusive delta|", true, 2, []int{0, 1}, []int{0, 5}, nil},
		// f3 and f4 tie at |1|; f3's |self delta| 1 beats f4's 0.
		{"tie by |self delta|", true, 3, []int{0, 1, 3}, []int{0, 2, 5}, nil},
		{"self loop kept with its node", true, 4, []int{0, 1, 3, 4}, []int{0, 2, 3, 4, 5}, nil},
		// Single profile: inclusive times 4, 0, 2, 2, 1; f2 and f3 tie at 2,
		// f3's self 2 beats f2's 1.
		{"single profile by inclusive time", false, 2, []int{0, 3}, []int{2}, nil},
		// f2's caller f1 is left out: f0 reaches f2 through it.
		{"single profile, three", false, 3, []int{0, 2, 3}, []int{2}, []ElidedPath{{From: 0, To: 2, Via: []int{1}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := selProfile(tc.diff, fns, arcs)
			sel := p.SelectGraph(GraphOptions{Top: tc.top})
			assert.Equal(t, tc.nodes, sel.Nodes)
			assert.Equal(t, tc.arcs, sel.Arcs)
			assert.Equal(t, tc.paths, sel.Paths)
			assert.Empty(t, sel.Connectors)
			assert.Equal(t, len(fns)-len(tc.nodes), sel.PrunedNodes)
			assert.Equal(t, len(arcs)-len(tc.arcs), sel.PrunedArcs)
		})
	}
}

// sigFunctions and sigArcs are a hand-made differential profile at 100 Hz
// for the significance tests: function name, '+' self and children, '-'
// self and children (seconds); arcs with the time charged along them on
// each side.
var (
	sigFunctions = []struct {
		name                   string
		plus, plusC, minus, mC float64
	}{
		{"main", 0, 10, 0, 6},   // 0: inclusive +4
		{"p", 0, 5, 0, 5},       // 1: no change: its callees' changes cancel
		{"x", 3, 0, 1, 0},       // 2: self +2
		{"y", 2, 0, 4, 0},       // 3: self -2
		{"a", 0, 5, 0, 1},       // 4: inclusive +4
		{"hot", 5, 0, 1, 0},     // 5: self +4
		{"c", 0.05, 0, 0.03, 0}, // 6: +0.02, within noise
		{"d", 0.30, 0, 0, 0},    // 7: +0.30, beyond noise (30 samples)
		{"r", 0, 2, 0, 2},       // 8: a second root, no change
		{"w", 0, 2, 0, 2},       // 9: no change: its callees' changes cancel
		{"z", 1.5, 0, 0.5, 0},   // 10: self +1
		{"q", 0.5, 0, 1.5, 0},   // 11: self -1
	}
	sigArcs = []struct {
		from, to    int
		plus, minus float64
	}{
		{0, 1, 5, 5}, {1, 2, 3, 1}, {1, 3, 2, 4}, {0, 4, 5, 1}, {4, 5, 5, 1}, {0, 6, 0.05, 0.03},
		{0, 7, 0.3, 0}, {8, 9, 2, 2}, {9, 10, 1.5, 0.5}, {9, 11, 0.5, 1.5}, {5, 5, 0, 0},
	}
)

// sigProfile builds the significance tests' profile, differential or
// its '+' side alone.
func sigProfile(diffMode bool) *Profile {
	plusSelf := 0.0
	for _, f := range sigFunctions {
		plusSelf += f.plus
	}
	p := &Profile{Plus: &callgraph.Graph{HZ: 100, TotalTime: plusSelf * 100, CreditedSamples: plusSelf * 100}}
	if diffMode {
		p.Minus = &callgraph.Graph{HZ: 100}
	}
	side := func(i int, self, children float64) Side {
		return Side{Present: true, Entry: i, Samples: self * 100, Self: self, PropSelf: self, Children: children}
	}
	for i, f := range sigFunctions {
		fn := Function{Name: f.name, Plus: side(i, f.plus, f.plusC), Minus: Side{Entry: -1}}
		if diffMode {
			fn.Minus = side(i, f.minus, f.mC)
		}
		p.Functions = append(p.Functions, fn)
	}
	for _, a := range sigArcs {
		arc := Arc{Parent: a.from, Child: a.to, Plus: ArcSide{Present: true, Count: 1, Time: a.plus}}
		if diffMode {
			arc.Minus = ArcSide{Present: true, Count: 1, Time: a.minus}
		}
		p.Arcs = append(p.Arcs, arc)
	}
	return p
}

// TestSelectGraphSignificance checks the pruning by significance on the
// hand-made profile; every expected set is worked out in the comments.
func TestSelectGraphSignificance(t *testing.T) {
	// Differential: the total change is the sum of |self delta|,
	// 2+2+4+0.02+0.30+1+1 = 10.32 s. At 5 % a function needs 0.516 s
	// beyond noise: main (+4 inclusive, 2 SE = 2*sqrt(0.10+0.06) = 0.8),
	// x, y, a (+4 inclusive, 2 SE 0.49), hot, z and q; not c (noise), d
	// (0.30 s), p, r, w (no change). At 1 % an arc needs 0.1032 s.
	//
	// x and y hang from p, left out: main reaches them through p, and p
	// is kept to connect both (as is w for z and q); the root r calls w
	// and is kept to connect it. hot's self-arc carries no time.
	ep := func(from, to int, via ...int) ElidedPath { return ElidedPath{From: from, To: to, Via: via} }
	tests := []struct {
		name        string
		diff        bool
		opt         GraphOptions
		nodes, conn []int
		arcs        []int
		paths       []ElidedPath
		capped      int
	}{
		{
			name: "5% of nodes, 1% of edges", diff: true, opt: GraphOptions{NodeShare: 0.05, EdgeShare: 0.01},
			nodes: []int{0, 1, 2, 3, 4, 5, 8, 9, 10, 11}, conn: []int{1, 8, 9}, arcs: []int{0, 1, 2, 3, 4, 7, 8, 9},
		},
		{
			// d's 0.30 s pass 2 % (0.206 s), c's 0.02 s do not; main's
			// arc to d carries 0.30 s.
			name: "2% of nodes", diff: true, opt: GraphOptions{NodeShare: 0.02, EdgeShare: 0.01},
			nodes: []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11}, conn: []int{1, 8, 9}, arcs: []int{0, 1, 2, 3, 4, 6, 7, 8, 9},
		},
		{
			// Every function: the arcs that carry no change (main->p,
			// main->c, r->w) are drawn as their callee's only connection.
			name: "all nodes", diff: true, opt: GraphOptions{EdgeShare: 0.01},
			nodes: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, arcs: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9},
		},
		{
			// By |inclusive delta|: main, a and hot tie at 4; hot's self
			// +4 goes first, then a before main by name. x, y, z, q capped.
			name: "top 3", diff: true, opt: GraphOptions{NodeShare: 0.05, EdgeShare: 0.01, Top: 3},
			nodes: []int{0, 4, 5}, arcs: []int{3, 4}, capped: 4,
		},
		{
			name: "focus on hot: its callers", diff: true, opt: GraphOptions{NodeShare: 0.05, EdgeShare: 0.01, Focus: []int{5}},
			nodes: []int{0, 4, 5}, arcs: []int{3, 4},
		},
		{
			// w is kept because it is focused; its caller r is the root.
			name: "focus on w: r, w, z, q", diff: true, opt: GraphOptions{NodeShare: 0.05, EdgeShare: 0.01, Focus: []int{9}},
			nodes: []int{8, 9, 10, 11}, conn: []int{8}, arcs: []int{7, 8, 9},
		},
		{
			// Without y, one elided path goes through p: drawn dashed.
			name: "y not shown", diff: true, opt: GraphOptions{NodeShare: 0.05, EdgeShare: 0.01, Shown: func(i int) bool { return i != 3 }},
			nodes: []int{0, 2, 4, 5, 8, 9, 10, 11}, conn: []int{8, 9}, arcs: []int{3, 4, 7, 8, 9},
			paths: []ElidedPath{ep(0, 2, 1)},
		},
		{
			// Without p, x and y have no caller: they are roots.
			name: "p not shown", diff: true, opt: GraphOptions{NodeShare: 0.05, EdgeShare: 0.01, Shown: func(i int) bool { return i != 1 }},
			nodes: []int{0, 2, 3, 4, 5, 8, 9, 10, 11}, conn: []int{8, 9}, arcs: []int{3, 4, 7, 8, 9},
		},
		{
			// c's 0.02 s is kept without the noise check only when the
			// threshold lets it: at 0.1 % (0.0103 s) it does.
			name: "noise off", diff: true, opt: GraphOptions{NodeShare: 0.001, EdgeShare: 0.01, NoiseOff: true},
			nodes: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, conn: []int{1, 8, 9}, arcs: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9},
		},
		{
			name: "noise on at 0.1%", diff: true, opt: GraphOptions{NodeShare: 0.001, EdgeShare: 0.01},
			nodes: []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11}, conn: []int{1, 8, 9}, arcs: []int{0, 1, 2, 3, 4, 6, 7, 8, 9},
		},
		{
			// Single profile of the '+' side: 12.35 s in all; at 5 %
			// (0.6175 s of inclusive time) c (0.05), d (0.30) and q (0.50)
			// are left out, every other function's inclusive time is 1.5 s
			// or more; every arc into a kept function carries 0.1235 s.
			name: "single profile", opt: GraphOptions{NodeShare: 0.05, EdgeShare: 0.01},
			nodes: []int{0, 1, 2, 3, 4, 5, 8, 9, 10}, arcs: []int{0, 1, 2, 3, 4, 7, 8},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := sigProfile(tc.diff)
			sel := p.SelectGraph(tc.opt)
			assert.Equal(t, tc.nodes, sel.Nodes)
			assert.Equal(t, tc.conn, sel.Connectors)
			assert.Equal(t, tc.arcs, sel.Arcs)
			assert.Equal(t, tc.paths, sel.Paths)
			assert.Equal(t, tc.capped, sel.Capped)
			assert.Equal(t, len(p.Functions)-len(tc.nodes), sel.PrunedNodes)
			assert.Equal(t, len(p.Arcs)-len(tc.arcs), sel.PrunedArcs)
		})
	}
	sel := sigProfile(true).SelectGraph(DefaultGraphOptions())
	assert.InDelta(t, 10.32, sel.Total, 1e-9)
	assert.InDelta(t, 0.0516, sel.NodeLimit, 1e-9)
	assert.InDelta(t, 0.01032, sel.EdgeLimit, 1e-9)
	sel = sigProfile(false).SelectGraph(DefaultGraphOptions())
	assert.InDelta(t, 12.35, sel.Total, 1e-9)
}

// checkSelection checks what holds for every selection: drawn arcs and
// paths join kept functions, each path is a real call chain through
// left-out functions and a shortest one (by a search of its own), every
// connector is kept.
func checkSelection(t *testing.T, p *Profile, sel GraphSelection) {
	t.Helper()
	n := len(p.Functions)
	kept := make([]bool, n)
	for _, i := range sel.Nodes {
		kept[i] = true
	}
	calls := map[[2]int]int{}
	callers := make([][]int, n)
	into := make([][]Arc, n)
	for ai, a := range p.Arcs {
		calls[[2]int{a.Parent, a.Child}] = ai
		if a.Parent != a.Child {
			callers[a.Child] = append(callers[a.Child], a.Parent)
			into[a.Child] = append(into[a.Child], a)
		}
	}
	for _, ai := range sel.Arcs {
		a := p.Arcs[ai]
		require.True(t, kept[a.Parent] && kept[a.Child], "arc %d", ai)
	}
	for _, c := range sel.Connectors {
		require.True(t, kept[c])
	}
	for _, path := range sel.Paths {
		require.True(t, kept[path.From] && kept[path.To])
		require.NotEmpty(t, path.Via)
		chain := append(append([]int{path.From}, path.Via...), path.To)
		for k := 1; k < len(chain); k++ {
			_, ok := calls[[2]int{chain[k-1], chain[k]}]
			require.True(t, ok, "path %v: no call %d->%d", chain, chain[k-1], chain[k])
		}
		for _, v := range path.Via {
			require.False(t, kept[v], "path %v goes through kept %d", chain, v)
		}
		// Climbing from To's caller, each step takes the caller with the
		// largest |time| among those not yet on the route (ties: the
		// larger |count|), unless a larger one leads nowhere: no root can
		// be reached from it through left-out functions off the route
		// (a path that makes a kept function reachable from the roots
		// also passes by kept functions that are not).
		onRoute := map[int]bool{path.To: true}
		for k := len(chain) - 2; k > 0; k-- {
			x := chain[k]
			onRoute[x] = true
			chosen := p.Arcs[calls[[2]int{chain[k-1], x}]]
			ct, cc := math.Abs(chosen.TimeDelta()), math.Abs(float64(chosen.CountDelta()))
			for _, a := range into[x] {
				tm, c := math.Abs(a.TimeDelta()), math.Abs(float64(a.CountDelta()))
				if onRoute[a.Parent] || !(tm > ct || tm == ct && c > cc) {
					continue
				}
				// a is larger: it must lead nowhere.
				seen := map[int]bool{a.Parent: true}
				queue := []int{a.Parent}
				for len(queue) > 0 {
					u := queue[0]
					queue = queue[1:]
					require.NotEmpty(t, callers[u], "path %v at %d: the larger caller %d reaches the root %d", chain, x, a.Parent, u)
					if kept[u] {
						continue
					}
					for _, w := range callers[u] {
						if !seen[w] && !onRoute[w] {
							seen[w] = true
							queue = append(queue, w)
						}
					}
				}
			}
		}
	}
}

// TestClimbBacksUp: the largest arc into a left-out function comes from a
// cycle of left-out functions that nothing else calls; the path goes
// round it through the smaller arc.
func TestClimbBacksUp(t *testing.T) {
	// main (0) -> a (1) -> hot (2); a is also called by b (3), which b
	// and c (4) call in a cycle: b <-> c, nothing else calls them. The
	// cycle's arc into a carries more time than main's.
	p := &Profile{Plus: &callgraph.Graph{HZ: 100, TotalTime: 1000, CreditedSamples: 1000}}
	for i, name := range []string{"main", "a", "hot", "b", "c"} {
		self := map[string]float64{"hot": 5, "b": 2.5, "c": 2.5}[name]
		p.Functions = append(p.Functions, Function{Name: name, Minus: Side{Entry: -1},
			Plus: Side{Present: true, Entry: i, Samples: self * 100, Self: self, PropSelf: self}})
	}
	for _, a := range []struct {
		from, to int
		time     float64
	}{{0, 1, 1}, {1, 2, 5}, {3, 1, 4}, {3, 4, 1}, {4, 3, 1}} {
		p.Arcs = append(p.Arcs, Arc{Parent: a.from, Child: a.to, Plus: ArcSide{Present: true, Count: 1, Time: a.time}})
	}
	// Keep hot and main only (inclusive time 5 and more of 10: 50 %).
	p.Functions[0].Plus.Children = 10
	sel := p.SelectGraph(GraphOptions{NodeShare: 0.5, EdgeShare: 0.01})
	assert.Equal(t, []int{0, 2}, sel.Nodes)
	assert.Equal(t, []ElidedPath{{From: 0, To: 2, Via: []int{1}}}, sel.Paths)
	checkSelection(t, p, sel)
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
	sel := p.SelectGraph(GraphOptions{Top: top})
	require.Len(t, sel.Nodes, top+len(sel.Connectors))
	kept := make([]bool, n)
	for _, i := range sel.Nodes {
		kept[i] = true
	}
	for _, i := range sel.Connectors {
		kept[i] = false
	}
	least := math.Inf(1)
	for i, k := range kept {
		if k {
			least = math.Min(least, math.Abs(p.Inclusive(i)))
		}
	}
	for i := range n {
		if !kept[i] {
			assert.LessOrEqual(t, math.Abs(p.Inclusive(i)), least, "function %d left out", i)
		}
	}
	for _, i := range sel.Connectors {
		kept[i] = true
	}
	want := 0
	for _, a := range p.Arcs {
		if kept[a.Parent] && kept[a.Child] {
			want++
		}
	}
	assert.Len(t, sel.Arcs, want, "every arc between kept functions")
	assert.Equal(t, m-want, sel.PrunedArcs)
	checkSelection(t, p, sel)

	// Random graphs with roots: trees of calls plus random arcs, pruned
	// by significance.
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 9))
		n := 50 + r.IntN(400)
		fns := make([][4]float64, n)
		var arcs [][2]int
		for i := range fns {
			fns[i] = [4]float64{float64(r.IntN(300)) / 100, float64(r.IntN(900)) / 100, float64(r.IntN(300)) / 100, float64(r.IntN(900)) / 100}
			if i > 3 {
				arcs = append(arcs, [2]int{r.IntN(i), i})
			}
		}
		for range n / 2 {
			arcs = append(arcs, [2]int{r.IntN(n), r.IntN(n)})
		}
		p := selProfile(true, fns, arcs)
		for _, opt := range []GraphOptions{DefaultGraphOptions(), {NodeShare: 0.02, EdgeShare: 0.01}, {Top: 10}, {NodeShare: 0.01, Top: 20, Focus: []int{n - 1}}} {
			sel := p.SelectGraph(opt)
			checkSelection(t, p, sel)
		}
	}
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

// TestSelectGraphReachesFromRoots: a kept recursion (cc calls ex, which
// calls cc again through the left-out dc) connects to itself; its way in
// from main's side (cp calls cc through the left-out rr) carries no
// change, but the picture still reaches it from the root.
func TestSelectGraphReachesFromRoots(t *testing.T) {
	p := &Profile{Plus: &callgraph.Graph{HZ: 100}, Minus: &callgraph.Graph{HZ: 100}}
	side := func(i int, self, children float64) Side {
		return Side{Present: true, Entry: i, Samples: self * 100, Self: self, PropSelf: self, Children: children}
	}
	for i, f := range []struct {
		name                   string
		plus, plusC, minus, mC float64
	}{
		{"main", 0, 20, 0, 10}, {"cp", 0, 20, 0, 10}, {"rr", 0, 20, 0, 20},
		{"cc", 5, 0, 0, 0}, {"ex", 5, 0, 0, 0}, {"dc", 0, 0, 0, 0},
	} {
		p.Functions = append(p.Functions, Function{Name: f.name, Plus: side(i, f.plus, f.plusC), Minus: side(i, f.minus, f.mC)})
	}
	for _, a := range []struct {
		from, to    int
		plus, minus float64
	}{{0, 1, 20, 10}, {1, 2, 20, 20}, {2, 3, 1, 1}, {3, 4, 5, 0}, {4, 5, 5, 0}, {5, 3, 5, 0}} {
		p.Arcs = append(p.Arcs, Arc{Parent: a.from, Child: a.to,
			Plus: ArcSide{Present: true, Count: 1, Time: a.plus}, Minus: ArcSide{Present: true, Count: 1, Time: a.minus}})
	}
	sel := p.SelectGraph(GraphOptions{NodeShare: 0.05, EdgeShare: 0.01})
	assert.Equal(t, []int{0, 1, 3, 4}, sel.Nodes)
	assert.Equal(t, []int{0, 3}, sel.Arcs)
	assert.Equal(t, []ElidedPath{{From: 1, To: 3, Via: []int{2}}, {From: 4, To: 3, Via: []int{5}}}, sel.Paths)
	checkSelection(t, p, sel)
}
