package render

// This file exports a profile, single or differential, as a pprof
// profile.proto (github.com/google/pprof/profile).
//
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
// the bounds, each function's flat value is gprof's self time, the
// cumulative value of a function outside cycles is gprof's self + children
// (a stack passes such a function at most once, and all of its time and
// only its time passes through it), and the time on each caller-callee
// edge is gprof's time for that arc; what the bounds change is how the
// time below them is spread over the stacks above them. PProfStats reports
// how much self time ended on stacks routed whole.
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
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"path"

	"github.com/google/pprof/profile"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/symtab"
)

// The default bounds of the stack synthesis.
const (
	// DefaultPProfMaxDepth is the depth (in frames) from which a bundle
	// is routed whole.
	DefaultPProfMaxDepth = 64
	// DefaultPProfMinWeight is the share of the total time below which
	// a bundle is routed whole.
	DefaultPProfMinWeight = 1e-3
)

// PProfOptions control the pprof export.
type PProfOptions struct {
	Demangle      bool                 // name functions by their demangled names
	DemangleStyle symtab.DemangleStyle // --demangle=STYLE
	// MaxDepth and MinWeight are the bounds of the stack synthesis; zero
	// selects DefaultPProfMaxDepth and DefaultPProfMinWeight.
	MaxDepth  int
	MinWeight float64
	// Comments are added to the profile's comments (pprof -comments),
	// before egprof's own description of the synthesis.
	Comments []string
}

// PProfStats describes what the synthesis did.
type PProfStats struct {
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
	// Samples, Locations and Functions count what the profile holds;
	// Deepest is the deepest stack, in frames.
	Samples, Locations, Functions, Deepest int
}

// WritePProf writes the profile as a gzipped profile.proto.
func WritePProf(w io.Writer, d *diff.Profile, opt PProfOptions) (PProfStats, error) {
	p, st, err := PProf(d, opt)
	if err != nil {
		return st, err
	}
	// profile.Write compresses at gzip's default level, three times
	// slower than BestSpeed for little gain on these profiles.
	zw, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
	if err != nil {
		return st, fmt.Errorf("writing the pprof profile: %w", err)
	}
	if err := p.WriteUncompressed(zw); err != nil {
		return st, fmt.Errorf("writing the pprof profile: %w", err)
	}
	if err := zw.Close(); err != nil {
		return st, fmt.Errorf("writing the pprof profile: %w", err)
	}
	return st, nil
}

// PProf builds the pprof profile of d: a single profile (no '-' side) with
// the numbers gprof prints, or a differential one with signed values, '+'
// minus '-'. Its sample types are samples/count, cpu/nanoseconds (the
// default) and calls/count.
func PProf(d *diff.Profile, opt PProfOptions) (*profile.Profile, PProfStats, error) {
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = DefaultPProfMaxDepth
	}
	if opt.MinWeight <= 0 {
		opt.MinWeight = DefaultPProfMinWeight
	}
	b := &pprofBuilder{opt: opt, d: d}
	b.stats.MaxDepth, b.stats.MinWeight = opt.MaxDepth, opt.MinWeight
	if d.Plus == nil {
		return nil, b.stats, fmt.Errorf("pprof export: no profile")
	}
	// About two frames per arc and function is typical of the routing.
	hint := 2 * (len(d.Plus.Arcs) + d.Plus.NumSyms)
	if d.Minus != nil {
		hint += 2 * (len(d.Minus.Arcs) + d.Minus.NumSyms)
	}
	b.trie.init(hint)
	b.vals = make([][3]int64, 0, hint)
	b.sampleFrame = make([]int32, 0, hint)
	b.period = periodNanos(d.Plus)
	if d.Minus != nil && periodNanos(d.Minus) != b.period {
		// Both sides are converted to nanoseconds with their own rates;
		// the profile's period is the '+' side's.
		b.mixedRates = true
	}
	if err := b.addSide(d.Plus, true); err != nil {
		return nil, b.stats, err
	}
	if d.Minus != nil {
		if err := b.addSide(d.Minus, false); err != nil {
			return nil, b.stats, err
		}
	}
	p, err := b.profile()
	if err != nil {
		return nil, b.stats, err
	}
	return p, b.stats, nil
}

// periodNanos is a side's sampling period in nanoseconds (0 without a
// sampling rate).
func periodNanos(g *callgraph.Graph) float64 {
	if g.HZ == 0 {
		return 0
	}
	return 1e9 / float64(g.HZ)
}

// pprofBuilder holds the stacks and samples shared by the two sides.
type pprofBuilder struct {
	opt        PProfOptions
	d          *diff.Profile
	period     float64 // nanoseconds per sample of the '+' side
	mixedRates bool
	trie       stackTrie
	// vals holds each sample's values (samples, cpu, calls), and
	// sampleFrame the frame (stack) of each sample.
	vals        [][3]int64
	sampleFrame []int32
	stats       PProfStats
}

// stackTrie holds the synthesised stacks as a tree of frames: frame 0 is
// the empty stack, every other frame is a location called from its parent
// frame. Frames are unique per (parent, location), so equal stacks are one
// frame and one sample. A frame's children are found through a list of
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
func (b *pprofBuilder) sampleAt(frame int32) int32 {
	if s := b.trie.sample[frame]; s >= 0 {
		return s
	}
	s := int32(len(b.vals))
	b.vals = append(b.vals, [3]int64{})
	b.sampleFrame = append(b.sampleFrame, frame)
	b.trie.sample[frame] = s
	if d := int(b.trie.depth[frame]); d > b.stats.Deepest {
		b.stats.Deepest = d
	}
	return s
}

// sideExpander synthesises the stacks of one side's call graph.
type sideExpander struct {
	b      *pprofBuilder
	g      *callgraph.Graph
	sign   int64   // +1 for the '+' side, -1 for the '-' side
	period float64 // nanoseconds per sample of this side
	loc    []int32 // location (diff function) of each symbol, -1 if none
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
func (b *pprofBuilder) addSide(g *callgraph.Graph, plus bool) error {
	n := g.NumSyms
	x := &sideExpander{b: b, g: g, sign: 1, period: periodNanos(g), maxDepth: int32(min(b.opt.MaxDepth, math.MaxInt32))}
	if !plus {
		x.sign = -1
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
		p, c := arc.Parent, arc.Child
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
		return fmt.Errorf("pprof export: the propagation graph has a loop through %s", x.nodeName(nd))
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
			p := g.Arcs[a].Parent
			if p == m || x.node[p] == int32(nd) || x.loc[p] < 0 || !x.hasRep[x.node[p]] {
				continue
			}
			if arc < 0 || g.Arcs[a].Count > g.Arcs[arc].Count {
				arc = a
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
			c := arc.Child
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
	v := &x.b.vals[i]
	v[0] += x.sign * (ns - x.wroteSamples[s])
	v[1] += x.sign * (nn - x.wroteNanos[s])
	v[2] += x.sign * (nc - x.wroteCl[s])
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
		v := &x.b.vals[x.last[s]]
		for k := range v {
			v[k] += x.sign * (want[k] - got[k])
		}
		x.wroteSamples[s], x.wroteNanos[s], x.wroteCl[s] = want[0], want[1], want[2]
	}
}

// profile assembles the pprof profile from the functions and samples.
func (b *pprofBuilder) profile() (*profile.Profile, error) {
	d := b.d
	p := &profile.Profile{
		SampleType: []*profile.ValueType{
			{Type: "samples", Unit: "count"},
			{Type: "cpu", Unit: "nanoseconds"},
			{Type: "calls", Unit: "count"},
		},
		DefaultSampleType: "cpu",
		PeriodType:        &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:            int64(math.Round(b.period)),
	}
	if !d.IsDiff() {
		p.DurationNanos = int64(math.Round(d.Plus.TotalTime * b.period))
	}
	plusMap, err := mappingOf(d.Plus.Syms, 1)
	if err != nil {
		return nil, err
	}
	p.Mapping = append(p.Mapping, plusMap)
	minusMap := plusMap
	if d.Minus != nil && d.Minus.Syms != d.Plus.Syms {
		if minusMap, err = mappingOf(d.Minus.Syms, 2); err != nil {
			return nil, err
		}
		p.Mapping = append(p.Mapping, minusMap)
	}
	p.Function = make([]*profile.Function, len(d.Functions))
	p.Location = make([]*profile.Location, len(d.Functions))
	anyFiles, anyLines := false, false
	seen := make(map[string]int, len(d.Functions))
	for k := range d.Functions {
		f := &d.Functions[k]
		tab, m, idx := d.Plus.Syms, plusMap, f.Plus.Entry
		if idx < 0 {
			tab, m, idx = d.Minus.Syms, minusMap, f.Minus.Entry
		}
		name := f.Name
		if b.opt.Demangle {
			name = symtab.Demangle(name, b.opt.DemangleStyle)
		}
		seen[name]++
		fn := &profile.Function{ID: uint64(k + 1), Name: name, SystemName: f.Name}
		if loc, ok := tab.SymbolSource(idx); ok {
			fn.Filename, fn.StartLine = loc.File, int64(loc.Line)
			anyFiles = anyFiles || loc.File != ""
			anyLines = anyLines || loc.Line > 0
		}
		p.Function[k] = fn
		p.Location[k] = &profile.Location{
			ID:      uint64(k + 1),
			Mapping: m,
			Address: tab.Syms[idx].Addr,
			Line:    []profile.Line{{Function: fn, Line: fn.StartLine}},
		}
	}
	// pprof merges functions of the same name. Same-named functions of
	// different files (statics) keep apart with their file's name, as in
	// gprof's index: "helper (a.c)". Those that the file does not tell
	// apart (C++'s complete and deleting destructors) stay one function
	// for pprof.
	withFile := make(map[string]int)
	for _, fn := range p.Function {
		if seen[fn.Name] > 1 && fn.Filename != "" {
			withFile[fn.Name+" ("+path.Base(fn.Filename)+")"]++
		}
	}
	for _, fn := range p.Function {
		if seen[fn.Name] > 1 && fn.Filename != "" {
			if n := fn.Name + " (" + path.Base(fn.Filename) + ")"; withFile[n] == 1 {
				fn.Name = n
			}
		}
	}
	for _, m := range p.Mapping {
		m.HasFunctions, m.HasFilenames, m.HasLineNumbers = true, anyFiles, anyLines
	}

	// One allocation each for the samples, their values and their stacks.
	n, refs := 0, 0
	for i, v := range b.vals {
		if v != [3]int64{} { // pprof drops all-zero samples when it merges
			n++
			refs += int(b.trie.depth[b.sampleFrame[i]])
		}
	}
	samples := make([]profile.Sample, n)
	values := make([]int64, 3*n)
	stacks := make([]*profile.Location, refs)
	p.Sample = make([]*profile.Sample, n)
	k := 0
	for i, v := range b.vals {
		if v == [3]int64{} {
			continue
		}
		fr := b.sampleFrame[i]
		d := int(b.trie.depth[fr])
		locs := stacks[:d:d]
		stacks = stacks[d:]
		for j := 0; fr > 0; fr, j = b.trie.parent[fr], j+1 {
			locs[j] = p.Location[b.trie.loc[fr]]
		}
		val := values[3*k : 3*k+3 : 3*k+3]
		copy(val, v[:])
		samples[k] = profile.Sample{Location: locs, Value: val}
		p.Sample[k] = &samples[k]
		k++
	}
	b.stats.Samples = len(p.Sample)
	b.stats.Locations = len(p.Location)
	b.stats.Functions = len(p.Function)
	p.Comments = append(append([]string(nil), b.opt.Comments...), b.describe()...)
	if err := p.CheckValid(); err != nil {
		return nil, fmt.Errorf("pprof export: invalid profile: %w", err)
	}
	return p, nil
}

// describe words the synthesis and what its bounds did, briefly: pprof
// shows the comments in the legend of its graphs.
func (b *pprofBuilder) describe() []string {
	st := &b.stats
	c := []string{
		"egprof: stacks synthesised from gprof's call arcs (time shared among callers by calls, as gprof propagates it); flat, cum and edge values are gprof's",
		fmt.Sprintf("egprof: bundles under %g of the time or %d frames deep routed whole; %.4g of %.4g s self time on such stacks", st.MinWeight, st.MaxDepth, st.RoutedTime, st.TotalTime),
	}
	if b.d.IsDiff() {
		c = append(c, "egprof: differential: '+' minus '-'; functions that did not change have no samples (see egprof --impact)")
	}
	if b.mixedRates {
		c = append(c, "egprof: the two sides have different sampling rates; cpu values use each side's own")
	}
	return c
}

// mappingOf describes the executable of a symbol table: its code range
// (covering every symbol), the file offset of its start and its build ID.
func mappingOf(t *symtab.Table, id uint64) (*profile.Mapping, error) {
	start, limit := t.TextLow, t.TextEnd+1
	if len(t.Syms) > 0 {
		start = min(start, t.Syms[0].Addr)
		limit = max(limit, t.Syms[len(t.Syms)-1].Addr+1)
	}
	m := &profile.Mapping{ID: id, Start: start, Limit: limit, File: t.Path}
	if off, ok := t.TextFileOffset(); ok && off >= t.TextLow-start {
		m.Offset = off - (t.TextLow - start)
	}
	bid, err := t.BuildID()
	if err != nil {
		return nil, fmt.Errorf("pprof export: %w", err)
	}
	m.BuildID = bid
	return m, nil
}

// String summarises the stats in one line.
func (st PProfStats) String() string {
	return fmt.Sprintf("%d samples, %d functions, stacks up to %d frames; %d bundles, %d routed whole (lighter than %g of the time or %d frames deep) holding %.6g of %.6g s self time",
		st.Samples, st.Functions, st.Deepest, st.Bundles, st.Routed, st.MinWeight, st.MaxDepth, st.RoutedTime, st.TotalTime)
}
