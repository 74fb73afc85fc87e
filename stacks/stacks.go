// Package stacks synthesises call stacks, with their time and calls, from
// the call arcs of a single or differential gprof profile.
package stacks

// gprof records call arcs, not stacks, so the stacks are synthesised from
// the arcs the way gprof propagates time: a function's time (its own and
// what it received from its callees) is shared among its callers in
// proportion to the calls each made, and a cycle is one node whose time is
// shared among the callers from outside it.
//
// The synthesis starts a bundle (a stack and the time it carries) at
// every root, a function or cycle without callers, and visits the nodes
// callers first. At each node the bundles that arrived are shared among
// the node's outputs: each member's self time, which ends on the bundle's
// stack, and each arc, whose share of the callee's time travels on to the
// callee as a new bundle on the stack extended by the callee. Sharing
// every bundle in proportion to the outputs (gprof's rule) expands every
// call path, and their number grows exponentially with the depth of the
// graph, so two bounds apply:
//
//   - MinWeight: a bundle carrying less than MinWeight of the side's total
//     time is light;
//   - MaxDepth: a bundle whose stack has MaxDepth frames or more is deep.
//
// Light and deep bundles are not shared in proportion but routed whole,
// one after the other, into the outputs in order (the north-west corner
// rule), so that every output still receives exactly its time. Whatever
// the bounds, each function's flat value (the stacks it ends) is gprof's
// self time, the cumulative value (the stacks it is on) of a function
// outside cycles is gprof's self + children (a stack passes such a
// function at most once, and all of its time and only its time passes
// through it), and the time on each caller-callee edge is gprof's time for
// that arc; what the bounds change is how the time below them is spread
// over the stacks above them. Stats reports how much self time ended on
// stacks routed whole.
//
// The calls of an arc are spread like its time, so that each arc's calls
// end on stacks where the caller calls the callee; the calls of an arc
// that carries no time go on the caller's representative stack (the one
// that brought it the most time, else the one made from its own heaviest
// caller). Calls to a function therefore sum to gprof's count, self-calls
// excluded as in gprof's flat profile.
//
// Inside a cycle a stack goes from the member through which the cycle was
// entered straight to the member whose time or arc it carries (gprof does
// not share a cycle's time among its internal arcs either), so every
// member appears at most once per entry and no path is infinite.

import (
	"errors"
	"fmt"
	"math"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/diff"
)

// The default bounds of the synthesis.
const (
	// DefaultMaxDepth is the depth (in frames) from which a bundle is
	// routed whole.
	DefaultMaxDepth = 64
	// DefaultMinWeight is the share of the total time below which a
	// bundle is routed whole.
	DefaultMinWeight = 1e-3
)

// Options are the bounds of the synthesis.
type Options struct {
	// MaxDepth and MinWeight are the depth and weight bounds; zero (or
	// less) selects DefaultMaxDepth and DefaultMinWeight.
	MaxDepth  int
	MinWeight float64
}

// Values are what one side of a profile puts on a stack, all ending on the
// stack's leaf: its self time, in samples and in nanoseconds, and the calls
// to it made from the stack's second frame. Each function's values summed
// over the stacks are gprof's self time (rounded) and call count.
type Values struct {
	Samples, Nanos, Calls int64
}

// Stack is one synthesised stack and its values on each side.
type Stack struct {
	// Funcs are the stack's functions, leaf first, each an index into
	// the profile's diff.Profile.Functions.
	Funcs []int32
	// Plus and Minus are the '+' and '-' sides' values (Minus is zero
	// for a single profile).
	Plus, Minus Values
}

// Net returns the stack's values of the '+' side minus those of the '-'
// side: a single profile's values, or a differential profile's changes.
func (s *Stack) Net() Values {
	return Values{s.Plus.Samples - s.Minus.Samples, s.Plus.Nanos - s.Minus.Nanos, s.Plus.Calls - s.Minus.Calls}
}

// Result is the outcome of the synthesis.
type Result struct {
	// Stacks are the stacks that carry a value on either side, unique,
	// in the order the synthesis reached them.
	Stacks []Stack
	// Period is the '+' side's sampling period in nanoseconds (0
	// without a sampling rate).
	Period float64
	// MixedRates reports that the two sides have different sampling
	// rates: each side's nanoseconds use its own.
	MixedRates bool
	Stats      Stats
}

// Stats describes what the synthesis did.
type Stats struct {
	MaxDepth  int     // the depth bound used, in frames
	MinWeight float64 // the weight bound used, as a share of the total time
	// Bundles counts the bundles routed, Routed those routed whole
	// because they were light or deep.
	Bundles, Routed int
	// RoutedTime is the self time (seconds) that ended on stacks routed
	// whole somewhere above it: the part of the profile whose stacks are
	// not gprof's proportional split path by path (its flat, cum and edge
	// values still are gprof's). TotalTime and TotalCalls are what the
	// profile holds. All three are summed over the two sides of a
	// differential profile.
	RoutedTime, TotalTime, TotalCalls float64
	// Deepest is the deepest stack, in frames.
	Deepest int
}

// Synthesise makes the stacks of d, single or differential (each side's
// stacks from its own call graph, on the functions of d).
func Synthesise(d *diff.Profile, opt Options) (*Result, error) {
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = DefaultMaxDepth
	}
	if opt.MinWeight <= 0 {
		opt.MinWeight = DefaultMinWeight
	}
	b := &builder{opt: opt, d: d}
	b.stats.MaxDepth, b.stats.MinWeight = opt.MaxDepth, opt.MinWeight
	if d.Plus == nil {
		return nil, errors.New("no profile")
	}
	// About two frames per arc and function is typical of the routing.
	hint := 2 * (len(d.Plus.Arcs) + d.Plus.NumSyms)
	if d.Minus != nil {
		hint += 2 * (len(d.Minus.Arcs) + d.Minus.NumSyms)
	}
	b.trie.init(hint)
	b.vals = make([][2][3]int64, 0, hint)
	b.sampleFrame = make([]int32, 0, hint)
	b.period = periodNanos(d.Plus)
	if err := b.addSide(d.Plus, true); err != nil {
		return nil, err
	}
	if d.Minus != nil {
		if err := b.addSide(d.Minus, false); err != nil {
			return nil, err
		}
	}
	r := &Result{Period: b.period, Stats: b.stats}
	// Both sides are converted to nanoseconds with their own rates.
	r.MixedRates = d.Minus != nil && periodNanos(d.Minus) != b.period
	r.Stacks = b.stacks()
	return r, nil
}

// stacks lists the samples as stacks, their functions in one allocation.
func (b *builder) stacks() []Stack {
	refs := 0
	for _, fr := range b.sampleFrame {
		refs += int(b.trie.depth[fr])
	}
	funcs := make([]int32, refs)
	out := make([]Stack, len(b.vals))
	for i, v := range b.vals {
		fr := b.sampleFrame[i]
		d := int(b.trie.depth[fr])
		s := funcs[:d:d]
		funcs = funcs[d:]
		for j := 0; fr > 0; fr, j = b.trie.parent[fr], j+1 {
			s[j] = b.trie.loc[fr]
		}
		out[i] = Stack{
			Funcs: s,
			Plus:  scaled(Values{v[0][0], v[0][1], v[0][2]}, b.d.PlusScale),
			Minus: scaled(Values{v[1][0], v[1][1], v[1][2]}, b.d.MinusScale),
		}
	}
	return out
}

// scaled multiplies a side's values by its scale (diff.Profile.PlusScale,
// MinusScale), to the nearest whole unit.
func scaled(v Values, k float64) Values {
	if k == 0 || k == 1 {
		return v
	}
	r := func(x int64) int64 { return int64(math.Round(float64(x) * k)) }
	return Values{r(v.Samples), r(v.Nanos), r(v.Calls)}
}

// periodNanos is a side's sampling period in nanoseconds (0 without a
// sampling rate).
func periodNanos(g *callgraph.Graph) float64 {
	if g.HZ == 0 {
		return 0
	}
	return 1e9 / float64(g.HZ)
}

// builder holds the stacks and samples shared by the two sides.
type builder struct {
	opt    Options
	d      *diff.Profile
	period float64 // nanoseconds per sample of the '+' side
	trie   stackTrie
	// vals holds each sample's values per side ('+', '-'): samples,
	// nanoseconds, calls; sampleFrame is the frame (stack) of each sample.
	vals        [][2][3]int64
	sampleFrame []int32
	stats       Stats
}

// stackTrie holds the synthesised stacks as a tree of frames: frame 0 is
// the empty stack, every other frame is a function (loc, its index in the
// profile's Functions) called from its parent frame. Frames are unique per
// (parent, function), so equal stacks are one frame and one sample. A frame's children are found through a list of
// siblings, or through index once they are many.
type stackTrie struct {
	parent, loc, depth []int32
	sample             []int32 // sample index of the frame, -1 if none
	first, next        []int32 // first child and next sibling, -1 if none
	kids               []int32 // number of children
	index              map[uint64]int32
}

// trieFanout is the number of children beyond which a frame's children are
// looked up in the index rather than in the list.
const trieFanout = 8

// init makes the empty stack, with room for about hint frames.
func (t *stackTrie) init(hint int) {
	t.parent = append(make([]int32, 0, hint), -1)
	t.loc = append(make([]int32, 0, hint), -1)
	t.depth = append(make([]int32, 0, hint), 0)
	t.sample = append(make([]int32, 0, hint), -1)
	t.first = append(make([]int32, 0, hint), -1)
	t.next = append(make([]int32, 0, hint), -1)
	t.kids = append(make([]int32, 0, hint), 0)
	t.index = make(map[uint64]int32)
}

// child returns the frame of loc called from parent.
func (t *stackTrie) child(parent, loc int32) int32 {
	key := func(parent, loc int32) uint64 { return uint64(uint32(parent))<<32 | uint64(uint32(loc)) }
	if t.kids[parent] <= trieFanout {
		for c := t.first[parent]; c >= 0; c = t.next[c] {
			if t.loc[c] == loc {
				return c
			}
		}
	} else if id, ok := t.index[key(parent, loc)]; ok {
		return id
	}
	id := int32(len(t.parent))
	t.parent = append(t.parent, parent)
	t.loc = append(t.loc, loc)
	t.depth = append(t.depth, t.depth[parent]+1)
	t.sample = append(t.sample, -1)
	t.first = append(t.first, -1)
	t.next = append(t.next, t.first[parent])
	t.kids = append(t.kids, 0)
	t.first[parent] = id
	t.kids[parent]++
	switch n := t.kids[parent]; {
	case n == trieFanout+1:
		for c := id; c >= 0; c = t.next[c] {
			t.index[key(parent, t.loc[c])] = c
		}
	case n > trieFanout+1:
		t.index[key(parent, loc)] = id
	}
	return id
}

// sampleAt returns the sample of a frame, creating it.
func (b *builder) sampleAt(frame int32) int32 {
	if s := b.trie.sample[frame]; s >= 0 {
		return s
	}
	s := int32(len(b.vals))
	b.vals = append(b.vals, [2][3]int64{})
	b.sampleFrame = append(b.sampleFrame, frame)
	b.trie.sample[frame] = s
	if d := int(b.trie.depth[frame]); d > b.stats.Deepest {
		b.stats.Deepest = d
	}
	return s
}

// sideExpander synthesises the stacks of one side's call graph.
type sideExpander struct {
	b      *builder
	g      *callgraph.Graph
	side   int     // 0 for the '+' side, 1 for the '-' side
	period float64 // nanoseconds per sample of this side
	loc    []int32 // each symbol's function (index in the profile's Functions), -1 if none
	node   []int32 // each symbol's node: itself, or its cycle's entry
	// prop marks the arcs along which gprof propagates time; ratio is the
	// caller's share of the callee node's time for those arcs.
	prop  []bool
	ratio []float64
	// mass is each node's time in samples, self plus what its callees
	// send it (a cycle's: its members' self time plus what callees
	// outside the cycle send them): gprof's self + children.
	mass     []float64
	state    []uint8 // of the mass computation: 0 new, 1 busy, 2 done
	order    []int32 // nodes, callees before callers
	thrTime  float64 // MinWeight of the total time, in samples
	maxDepth int32
	// pending holds the bundles that have reached each node; rep is each
	// node's representative bundle, the heaviest that reached it (or, for
	// a node without time, the one made from its heaviest caller's), on
	// which the calls of arcs without time are placed.
	pending [][]bundle
	rep     []bundle
	hasRep  []bool
	outs    []output // scratch: the outputs of the node being routed
	light   []int32  // scratch: the light bundles of the node being routed
	// Per symbol: the self samples and calls placed so far, the rounded
	// values written so far, and the last sample written to.
	accTime, accCalls                 []float64
	wroteSamples, wroteNanos, wroteCl []int64
	last                              []int32
}

// bundle is the part of a node's time that arrives on one stack.
type bundle struct {
	frame int32 // the stack, ending with the member entered (empty for a cycle without callers)
	entry int32 // the symbol entered; -1 for a cycle without callers
	time  float64
	// routed reports that the bundle, or one it came from, was routed
	// whole rather than shared in proportion.
	routed bool
}

// output is where part of a node's time goes: a member's self time, or an
// arc to a callee.
type output struct {
	member int32 // the symbol whose frame the output hangs from
	child  int32 // the callee, -1 for the member's self time
	node   int32 // the callee's node when time propagates on the arc, else -1
	time   float64
	count  float64 // the calls on the arc
}

// addSide expands one side's stacks into the builder.
func (b *builder) addSide(g *callgraph.Graph, plus bool) error {
	n := g.NumSyms
	x := &sideExpander{b: b, g: g, period: periodNanos(g), maxDepth: int32(min(b.opt.MaxDepth, math.MaxInt32))}
	if !plus {
		x.side = 1
	}
	x.loc = make([]int32, n)
	for i := range x.loc {
		x.loc[i] = -1
	}
	for k := range b.d.Functions {
		s := &b.d.Functions[k].Plus
		if !plus {
			s = &b.d.Functions[k].Minus
		}
		if s.Entry >= 0 && s.Entry < n {
			x.loc[s.Entry] = int32(k)
		}
	}
	x.node = make([]int32, n)
	for i := range x.node {
		x.node[i] = int32(i)
		if c := g.CycleEntry(i); c >= 0 {
			x.node[i] = int32(c)
		}
	}
	x.classifyArcs()
	if err := x.computeMasses(); err != nil {
		return err
	}
	totalTime, totalCalls := 0.0, 0.0
	for i := 0; i < n; i++ {
		totalTime += g.Entries[i].Ticks
		totalCalls += float64(g.Entries[i].NCalls)
	}
	x.thrTime = b.opt.MinWeight * totalTime
	b.stats.TotalTime += x.seconds(totalTime)
	b.stats.TotalCalls += totalCalls

	x.accTime = make([]float64, n)
	x.accCalls = make([]float64, n)
	x.wroteSamples = make([]int64, n)
	x.wroteNanos = make([]int64, n)
	x.wroteCl = make([]int64, n)
	x.last = make([]int32, n)
	for i := range x.last {
		x.last[i] = -1
	}
	x.pending = make([][]bundle, len(g.Entries))
	x.rep = make([]bundle, len(g.Entries))
	x.hasRep = make([]bool, len(g.Entries))
	x.startRoots()
	for k := len(x.order) - 1; k >= 0; k-- {
		x.route(int(x.order[k]))
	}
	x.settle()
	return nil
}

// seconds converts samples of this side to seconds.
func (x *sideExpander) seconds(samples float64) float64 {
	if x.g.HZ == 0 {
		return 0
	}
	return samples / float64(x.g.HZ)
}

// classifyArcs marks the arcs gprof propagates time along (see
// callgraph's propagateTime): counted, not a self-call, not inside a
// cycle, from a caller and to a callee that both propagate (Fract != 0),
// against the topological order.
func (x *sideExpander) classifyArcs() {
	g := x.g
	x.prop = make([]bool, len(g.Arcs))
	x.ratio = make([]float64, len(g.Arcs))
	for a := range g.Arcs {
		arc := &g.Arcs[a]
		p, c := int(arc.Parent), int(arc.Child)
		if arc.Count == 0 || p == c || p >= g.NumSyms || c >= g.NumSyms {
			continue
		}
		ep, ec := &g.Entries[p], &g.Entries[c]
		if ep.Fract == 0 || ec.Fract == 0 {
			continue
		}
		nd := int(x.node[c])
		if nd != c {
			if ep.Cycle == ec.Cycle {
				continue
			}
		} else if ep.TopOrder <= ec.TopOrder {
			continue
		}
		if g.Entries[nd].NCalls == 0 {
			continue
		}
		x.prop[a] = true
		x.ratio[a] = float64(arc.Count) / float64(g.Entries[nd].NCalls)
	}
}

// computeMasses fills mass, callees first, and records that order.
func (x *sideExpander) computeMasses() error {
	g := x.g
	x.mass = make([]float64, len(g.Entries))
	x.state = make([]uint8, len(g.Entries))
	x.order = make([]int32, 0, len(g.Entries))
	for nd := range g.Entries {
		if nd < g.NumSyms && int(x.node[nd]) != nd {
			continue // a cycle member: done with its cycle
		}
		if err := x.massOf(nd); err != nil {
			return err
		}
	}
	return nil
}

// members returns the symbols of node nd: the cycle's members, or nil for
// a function.
func (x *sideExpander) members(nd int) []int {
	if nd >= x.g.NumSyms {
		return x.g.Entries[nd].Members
	}
	return nil
}

// massOf computes the mass of node nd after those of its callees.
func (x *sideExpander) massOf(nd int) error {
	switch x.state[nd] {
	case 2:
		return nil
	case 1:
		return fmt.Errorf("the propagation graph has a loop through %s", x.nodeName(nd))
	}
	x.state[nd] = 1
	one := [1]int{nd}
	members := x.members(nd)
	if members == nil {
		members = one[:]
	}
	for _, m := range members {
		t := x.g.Entries[m].Ticks
		for _, a := range x.g.Entries[m].Children {
			if !x.prop[a] || x.loc[x.g.Arcs[a].Child] < 0 {
				continue
			}
			c := int(x.node[x.g.Arcs[a].Child])
			if err := x.massOf(c); err != nil {
				return err
			}
			t += x.ratio[a] * x.mass[c]
		}
		x.mass[nd] += t
	}
	x.state[nd] = 2
	x.order = append(x.order, int32(nd))
	return nil
}

// nodeName names a node for error messages.
func (x *sideExpander) nodeName(nd int) string {
	if nd >= x.g.NumSyms {
		return fmt.Sprintf("<cycle %d>", x.g.Entries[nd].Cycle)
	}
	return x.g.Syms.Syms[nd].Name
}

// rootBundle is the bundle of node nd started without a caller.
func (x *sideExpander) rootBundle(nd int, time float64) bundle {
	if nd >= x.g.NumSyms {
		return bundle{entry: -1, time: time}
	}
	return bundle{frame: x.b.trie.child(0, x.loc[nd]), entry: int32(nd), time: time}
}

// startRoots gives a bundle to every node with time not owed to callers:
// the functions and cycles without callers, and the part of the others
// that their callers do not propagate (gprof's -E, -F and friends).
func (x *sideExpander) startRoots() {
	g := x.g
	inflow := make([]float64, len(g.Entries))
	for a := range g.Arcs {
		if x.prop[a] {
			inflow[x.node[g.Arcs[a].Child]] += x.ratio[a]
		}
	}
	for _, nd32 := range x.order {
		nd := int(nd32)
		share := 1 - inflow[nd]
		if share < 1e-9 || x.mass[nd] == 0 || (nd < g.NumSyms && x.loc[nd] < 0) {
			continue
		}
		x.pending[nd] = append(x.pending[nd], x.rootBundle(nd, share*x.mass[nd]))
	}
}

// route shares the time that reached node nd among its outputs: a heavy
// bundle in proportion to the outputs (gprof's rule, path by path), the
// light or deep ones whole, one after the other (north-west corner), so
// that every output still receives exactly its time. The calls of an arc
// follow its time; those of an arc without time go on the node's
// representative stack.
func (x *sideExpander) route(nd int) {
	bs := x.pending[nd]
	x.pending[nd] = nil
	x.setRep(nd, bs)
	outs := x.outputs(nd)
	tin, lightT := 0.0, 0.0
	x.light = x.light[:0]
	for i := range bs {
		bd := &bs[i]
		tin += bd.time
		if bd.time < x.thrTime || x.b.trie.depth[bd.frame] >= x.maxDepth {
			lightT += bd.time
			x.light = append(x.light, int32(i))
		}
	}
	x.b.stats.Bundles += len(bs)
	next := 0 // the next light bundle
	for i := range bs {
		if next < len(x.light) && int(x.light[next]) == i {
			next++
			continue
		}
		bd := &bs[i]
		share := bd.time / tin
		for j := range outs {
			x.piece(bd, &outs[j], share*outs[j].time, bd.routed)
		}
	}
	if lightT > 0 {
		x.northWest(bs, outs, lightT/tin)
	}
	for j := range outs {
		if o := &outs[j]; o.time == 0 && o.count > 0 && x.hasRep[nd] {
			r := &x.rep[nd]
			x.emit(x.b.trie.child(x.memberFrame(r, o.member), x.loc[o.child]), int(o.child), 0, o.count)
		}
	}
}

// setRep chooses node nd's representative bundle: the heaviest that
// reached it, else the one its heaviest caller (by calls) makes, else a
// stack of its own.
func (x *sideExpander) setRep(nd int, bs []bundle) {
	best := -1
	for i := range bs {
		if best < 0 || bs[i].time > bs[best].time {
			best = i
		}
	}
	if best >= 0 {
		x.rep[nd], x.hasRep[nd] = bs[best], true
		x.rep[nd].time = 0
		return
	}
	g := x.g
	one := [1]int{nd}
	members := x.members(nd)
	if members == nil {
		members = one[:]
	}
	arc := -1
	for _, m := range members {
		for _, a := range g.Entries[m].Parents {
			p := int(g.Arcs[a].Parent)
			if p == m || x.node[p] == int32(nd) || x.loc[p] < 0 || !x.hasRep[x.node[p]] {
				continue
			}
			if arc < 0 || g.Arcs[a].Count > g.Arcs[arc].Count {
				arc = int(a)
			}
		}
	}
	if arc < 0 {
		if nd < g.NumSyms && x.loc[nd] < 0 {
			return
		}
		x.rep[nd], x.hasRep[nd] = x.rootBundle(nd, 0), true
		return
	}
	a := &g.Arcs[arc]
	pf := x.memberFrame(&x.rep[x.node[a.Parent]], int32(a.Parent))
	x.rep[nd] = bundle{frame: x.b.trie.child(pf, x.loc[a.Child]), entry: int32(a.Child)}
	x.hasRep[nd] = true
}

// northWest routes the light bundles' time whole, bundle after bundle,
// into the outputs in order, each output taking its time scaled by frac
// (the light share of the time that reached the node).
func (x *sideExpander) northWest(bs []bundle, outs []output, frac float64) {
	j, need, lastOut := -1, 0.0, -1
	advance := func() {
		for j++; j < len(outs); j++ {
			if need = outs[j].time * frac; need > 0 {
				return
			}
		}
	}
	advance()
	for _, i := range x.light {
		bd := &bs[i]
		have := bd.time
		if have > 0 {
			x.b.stats.Routed++
		}
		for have > 0 {
			if j >= len(outs) {
				// Rounding left a little: the last output takes it.
				if lastOut >= 0 {
					x.piece(bd, &outs[lastOut], have, true)
				}
				break
			}
			amount := min(have, need)
			x.piece(bd, &outs[j], amount, true)
			lastOut = j
			have -= amount
			if need -= amount; need <= 0 {
				advance()
			}
		}
	}
}

// outputs lists where node nd's time goes, in the scratch slice: each
// member's self time, then its arcs in creation order (arcs without time
// too, for their calls).
func (x *sideExpander) outputs(nd int) []output {
	g := x.g
	outs := x.outs[:0]
	one := [1]int{nd}
	members := x.members(nd)
	if members == nil {
		members = one[:]
	}
	for _, m := range members {
		e := &g.Entries[m]
		if e.Ticks > 0 {
			outs = append(outs, output{member: int32(m), child: -1, node: -1, time: e.Ticks})
		}
		for _, a := range e.Children {
			arc := &g.Arcs[a]
			c := int(arc.Child)
			if c == m || arc.Count == 0 || x.loc[c] < 0 {
				continue
			}
			o := output{member: int32(m), child: int32(c), node: -1, count: float64(arc.Count)}
			if x.prop[a] {
				o.node = x.node[c]
				o.time = x.ratio[a] * x.mass[o.node]
			}
			outs = append(outs, o)
		}
	}
	x.outs = outs
	return outs
}

// memberFrame is the frame of member m for a bundle: the bundle's own
// frame when m is the member it entered, else m called from it.
func (x *sideExpander) memberFrame(bd *bundle, m int32) int32 {
	if m == bd.entry {
		return bd.frame
	}
	return x.b.trie.child(bd.frame, x.loc[m])
}

// piece sends time t of a bundle to an output: a member's self time is
// placed on the member's frame; an arc's share of calls (in proportion to
// its time) ends on the callee's frame, and the time travels on to the
// callee's node as a new bundle.
func (x *sideExpander) piece(bd *bundle, o *output, t float64, routed bool) {
	if t <= 0 {
		return
	}
	mf := x.memberFrame(bd, o.member)
	if o.child < 0 {
		if routed {
			x.b.stats.RoutedTime += x.seconds(t)
		}
		x.emit(mf, int(o.member), t, 0)
		return
	}
	cf := x.b.trie.child(mf, x.loc[o.child])
	x.emit(cf, int(o.child), 0, o.count*t/o.time)
	if o.node >= 0 {
		x.pending[o.node] = append(x.pending[o.node], bundle{frame: cf, entry: o.child, time: t, routed: routed})
	}
}

// emit adds self samples and calls of symbol s to the sample of frame f
// (whose leaf is s). Each symbol's running totals are rounded, so that the
// integer values written for it always sum to its rounded totals.
func (x *sideExpander) emit(f int32, s int, samples, calls float64) {
	if samples == 0 && calls == 0 {
		return
	}
	i := x.b.sampleAt(f)
	x.accTime[s] += samples
	x.accCalls[s] += calls
	ns, nn, nc := int64(math.Round(x.accTime[s])), int64(math.Round(x.accTime[s]*x.period)), int64(math.Round(x.accCalls[s]))
	v := &x.b.vals[i][x.side]
	v[0] += ns - x.wroteSamples[s]
	v[1] += nn - x.wroteNanos[s]
	v[2] += nc - x.wroteCl[s]
	x.wroteSamples[s], x.wroteNanos[s], x.wroteCl[s] = ns, nn, nc
	x.last[s] = i
}

// settle makes each function's written values exactly its rounded totals,
// correcting the last sample written for it (floating-point sums can end a
// hair away from a rounding boundary). A function that received nothing,
// which the routing never leaves, would get a stack of its own.
func (x *sideExpander) settle() {
	g := x.g
	for s := 0; s < g.NumSyms; s++ {
		if x.loc[s] < 0 {
			continue
		}
		e := &g.Entries[s]
		want := [3]int64{int64(math.Round(e.Ticks)), int64(math.Round(e.Ticks * x.period)), int64(e.NCalls)}
		got := [3]int64{x.wroteSamples[s], x.wroteNanos[s], x.wroteCl[s]}
		if want == got {
			continue
		}
		if x.last[s] < 0 {
			x.last[s] = x.b.sampleAt(x.b.trie.child(0, x.loc[s]))
		}
		v := &x.b.vals[x.last[s]][x.side]
		for k := range v {
			v[k] += want[k] - got[k]
		}
		x.wroteSamples[s], x.wroteNanos[s], x.wroteCl[s] = want[0], want[1], want[2]
	}
}
