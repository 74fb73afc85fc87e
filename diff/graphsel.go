package diff

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/symtab"
)

// NoiseSEs is the number of standard errors (see Function.NoiseSE) within
// which a self-time delta counts as sampling noise rather than a change.
const NoiseSEs = 2

// Total is the side's inclusive time in seconds as the call graph shows
// it: the function's own time plus the time propagated from its callees.
func (s *Side) Total() float64 { return s.PropSelf + s.Children }

// Inclusive is function i's inclusive time in seconds: in a differential
// profile the change of it ('+' minus '-', Function.TotalDelta), in a single
// profile the '+' side's own inclusive time.
func (p *Profile) Inclusive(i int) float64 {
	f := &p.Functions[i]
	if p.IsDiff() {
		return f.TotalDelta()
	}
	return f.Plus.Total()
}

// Exclusive is function i's self time in seconds: in a differential
// profile the self delta, in a single profile the '+' side's self time.
func (p *Profile) Exclusive(i int) float64 {
	f := &p.Functions[i]
	if p.IsDiff() {
		return f.SelfDelta()
	}
	return f.Plus.Self
}

// WithinNoise reports whether function i's self-time delta lies within
// NoiseSEs standard errors of zero, so that it cannot be told apart from
// sampling noise. A delta of exactly zero is within the noise; a single
// profile has no deltas, and WithinNoise is always false for it.
func (p *Profile) WithinNoise(i int) bool {
	if !p.IsDiff() {
		return false
	}
	f := &p.Functions[i]
	return math.Abs(f.SelfDelta()) <= NoiseSEs*f.NoiseSE(p.PlusHZ(), p.MinusHZ())
}

// InclusiveWithinNoise is WithinNoise for the change of inclusive time.
// Its standard error treats each side's inclusive samples as one Poisson
// count: the inclusive time is a sum of shares of sample counts, whose
// variance is at most the sum itself, so the estimate errs on the side of
// calling a change noise.
func (p *Profile) InclusiveWithinNoise(i int) bool {
	if !p.IsDiff() {
		return false
	}
	f := &p.Functions[i]
	v := 0.0
	if hz := p.PlusHZ(); hz > 0 {
		v += scaleOf(f.Plus.Scale) * math.Abs(f.Plus.Total()) / hz
	}
	if hz := p.MinusHZ(); hz > 0 {
		v += scaleOf(f.Minus.Scale) * math.Abs(f.Minus.Total()) / hz
	}
	return math.Abs(f.TotalDelta()) <= NoiseSEs*math.Sqrt(v)
}

// ArcTime is the time charged along arc a in seconds (the callee's self
// and children time its caller is charged with): its change in a
// differential profile, the '+' side's time in a single one.
func (p *Profile) ArcTime(a int) float64 {
	arc := &p.Arcs[a]
	if p.IsDiff() {
		return arc.TimeDelta()
	}
	return arc.Plus.Time + arc.Plus.ChildTime
}

// ShownInCallGraph reports whether gprof's call graph of either side
// prints function i's entry: false only for the functions its call-graph
// symspecs (-q/-Q, -f/-e and -F/-E) leave out. A side without call arcs
// has no call graph and leaves nothing out.
func (p *Profile) ShownInCallGraph(i int) bool {
	f := &p.Functions[i]
	arcs := false
	for _, s := range []struct {
		g *callgraph.Graph
		e int
	}{{p.Plus, f.Plus.Entry}, {p.Minus, f.Minus.Entry}} {
		if s.g == nil || !s.g.HasArcs {
			continue
		}
		arcs = true
		if s.e >= 0 && s.g.Entries[s.e].PrintFlag {
			return true
		}
	}
	return !arcs
}

// Default thresholds of GraphOptions: gprof2dot's defaults for its node
// and edge thresholds (0.5 % and 0.1 % of the total).
const (
	DefaultNodeShare = 0.005
	DefaultEdgeShare = 0.001
)

// GraphOptions choose the part of a profile's call graph that a picture of
// it shows (see SelectGraph). The zero value keeps every function and arc.
type GraphOptions struct {
	// NodeShare is the share of the total (Total) below which a function
	// is not significant: a function is kept when its inclusive time (in
	// a differential profile: the change of its self or inclusive time,
	// beyond sampling noise) is at least NodeShare times the total. 0
	// keeps every function.
	NodeShare float64
	// EdgeShare is the same for arcs: an arc between two kept functions
	// is drawn when the time charged along it (its change) is at least
	// EdgeShare times the total, or when it is the one that connects its
	// callee to the rest; an arc from a left-out caller that carries that
	// much gets an elided path. 0 draws every arc between kept functions,
	// and elided paths only to connect functions without a kept caller.
	EdgeShare float64
	// Top keeps at most the Top significant functions of largest
	// |Inclusive| (then |Exclusive|); 0 sets no limit.
	Top int
	// NoiseOff counts changes within sampling noise as significant.
	NoiseOff bool
	// Shown, when set, reports whether function i may appear at all
	// (ShownInCallGraph, for gprof's call-graph symspecs).
	Shown func(i int) bool
	// Focus, when not empty, restricts the picture to the functions on
	// call paths through one of these: their callers and callees,
	// transitively (as pprof's -focus). They are kept whatever their
	// time.
	Focus []int
}

// DefaultGraphOptions are the options egprof's pictures use unless told
// otherwise: gprof2dot's thresholds.
func DefaultGraphOptions() GraphOptions {
	return GraphOptions{NodeShare: DefaultNodeShare, EdgeShare: DefaultEdgeShare}
}

// ElidedPath is a call path between two kept functions whose interior
// was left out of the picture: pictures draw it as one dashed edge, as
// pprof draws the edges that stand for removed frames.
type ElidedPath struct {
	// From calls, through Via, To; both are kept function indexes.
	From, To int
	// Via are the left-out functions on the way, From's callee first:
	// the route that carries the most time (in a differential profile
	// the largest change) into To's caller, climbed caller by caller,
	// the largest arc first.
	Via []int
}

// GraphSelection is the part of a profile's call graph that a picture of
// it shows: the kept functions, the arcs between them, and dashed paths
// where left-out functions connect them.
type GraphSelection struct {
	// Nodes are the kept function indexes, ascending.
	Nodes []int
	// Connectors are the kept functions that are not significant, kept
	// only to connect others: roots (functions nobody calls) from which a
	// kept function is reached, and functions where several elided paths
	// would meet; ascending, a subset of Nodes.
	Connectors []int
	// Arcs are the indexes of the arcs drawn, ascending: each joins two
	// kept functions.
	Arcs []int
	// Paths are the elided paths drawn, by To then From.
	Paths []ElidedPath
	// Total is the total the thresholds are shares of, in seconds: in a
	// differential profile the sum of the functions' |self delta|
	// (TotalAbsSelfDelta), in a single one the profile's time. NodeLimit
	// and EdgeLimit are the thresholds in seconds (0: not applied).
	Total, NodeLimit, EdgeLimit float64
	// Capped counts the significant functions left out by GraphOptions.Top.
	Capped int
	// PrunedNodes and PrunedArcs count the functions and arcs not drawn.
	PrunedNodes, PrunedArcs int
}

// SelectGraph chooses what a call-graph picture of the profile shows, the
// model behind every graph output:
//
//   - the significant functions (see GraphOptions.NodeShare), at most Top of
//     them, among the candidates (those Shown allows, on paths through
//     Focus when it is set); with a total of 0, every candidate;
//   - for every kept function, its connection towards the roots: the arcs
//     from kept callers that carry at least EdgeShare of the total, and an
//     elided path through each left-out caller whose arc does (when
//     EdgeShare is set), climbing from that caller along its largest arcs
//     (backing up out of cycles) to the first kept function or root; a
//     kept function that has neither gets its largest arc from a kept
//     caller, or else one elided path, through the caller of its largest
//     arc that leads to one. Roots reached this way are kept as
//     Connectors, and so is a left-out function that several elided paths
//     pass through (the one nearest their ends), which then gets
//     connections of its own;
//   - for every kept function a root reaches but the connections do not
//     (they can close on themselves), the same from the functions they do
//     reach (see reachFromRoots);
//   - a kept function's arc to itself when it carries EdgeShare.
//
// Ties in the Top order go to the smaller raw name, then to the earlier
// function.
func (p *Profile) SelectGraph(opt GraphOptions) GraphSelection {
	s := newSelector(p, opt)
	s.chooseSignificant()
	for round := 0; ; round++ {
		s.connectAll()
		if round == maxHubRounds || !s.promoteHubs() {
			break
		}
	}
	return s.result()
}

// maxHubRounds bounds how many times SelectGraph keeps the functions where
// elided paths meet and connects again: each round keeps at least one more
// function, and real call graphs settle in one or two.
const maxHubRounds = 8

// selector holds the work of one SelectGraph.
type selector struct {
	p   *Profile
	opt GraphOptions
	sel GraphSelection

	cand    []bool // may appear
	focus   []bool
	kept    []bool
	sigNode []bool // kept as significant
	hub     []bool // kept because several elided paths met there
	root    []bool // candidate without candidate callers (itself aside)
	drawn   []bool // per arc
	// in lists, per function, the arcs into it from other candidates, in
	// arc order (a compressed row: inArcs[inStart[i]:inStart[i+1]]).
	inStart, inArcs []int
	paths           map[[2]int]ElidedPath

	// The functions on the route being climbed (see climb) carry the
	// current gen.
	stamp []int
	gen   int
}

func newSelector(p *Profile, opt GraphOptions) *selector {
	n := len(p.Functions)
	s := &selector{p: p, opt: opt,
		cand: make([]bool, n), focus: make([]bool, n), kept: make([]bool, n), sigNode: make([]bool, n), hub: make([]bool, n),
		root: make([]bool, n), drawn: make([]bool, len(p.Arcs)),
		stamp: make([]int, n), paths: map[[2]int]ElidedPath{},
	}
	for i := range s.cand {
		s.cand[i] = opt.Shown == nil || opt.Shown(i)
	}
	if len(opt.Focus) > 0 {
		s.restrictToFocus()
	}
	// The arcs into each candidate from other candidates.
	s.inStart = make([]int, n+1)
	for _, a := range p.Arcs {
		if s.arcBetweenCandidates(&a) {
			s.inStart[a.Child+1]++
		}
	}
	for i := range n {
		s.inStart[i+1] += s.inStart[i]
	}
	s.inArcs = make([]int, s.inStart[n])
	fill := slices.Clone(s.inStart[:n])
	for ai := range p.Arcs {
		if a := &p.Arcs[ai]; s.arcBetweenCandidates(a) {
			s.inArcs[fill[a.Child]] = ai
			fill[a.Child]++
		}
	}
	for i := range n {
		s.root[i] = s.cand[i] && s.inStart[i] == s.inStart[i+1]
	}
	if p.IsDiff() {
		s.sel.Total = p.TotalAbsSelfDelta()
	} else {
		s.sel.Total = p.PlusTotal()
	}
	if s.sel.Total > 0 {
		s.sel.NodeLimit = opt.NodeShare * s.sel.Total
		s.sel.EdgeLimit = opt.EdgeShare * s.sel.Total
	}
	return s
}

// arcBetweenCandidates reports whether a joins two different candidates.
func (s *selector) arcBetweenCandidates(a *Arc) bool {
	return a.Parent != a.Child && s.cand[a.Parent] && s.cand[a.Child]
}

// restrictToFocus keeps as candidates only the focused functions and
// their callers and callees, transitively.
func (s *selector) restrictToFocus() {
	n := len(s.p.Functions)
	down, up := make([][]int, n), make([][]int, n)
	for _, a := range s.p.Arcs {
		if a.Parent != a.Child && s.cand[a.Parent] && s.cand[a.Child] {
			down[a.Parent] = append(down[a.Parent], a.Child)
			up[a.Child] = append(up[a.Child], a.Parent)
		}
	}
	reach := make([]bool, n)
	for _, next := range [][][]int{down, up} {
		seen := make([]bool, n)
		var queue []int
		for _, f := range s.opt.Focus {
			if f >= 0 && f < n && s.cand[f] && !seen[f] {
				seen[f], s.focus[f] = true, true
				queue = append(queue, f)
			}
		}
		for len(queue) > 0 {
			u := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			reach[u] = true
			for _, w := range next[u] {
				if !seen[w] {
					seen[w] = true
					queue = append(queue, w)
				}
			}
		}
	}
	for i := range s.cand {
		s.cand[i] = s.cand[i] && reach[i]
	}
}

// significant reports whether function i passes the node threshold.
func (s *selector) significant(i int) bool {
	if s.opt.NodeShare <= 0 || s.sel.Total <= 0 || s.focus[i] {
		return true
	}
	passes := func(v float64, noise bool) bool {
		v = math.Abs(v)
		return v > 0 && v >= s.sel.NodeLimit && (s.opt.NoiseOff || !noise)
	}
	p := s.p
	if !p.IsDiff() {
		return passes(p.Inclusive(i), false)
	}
	return passes(p.Exclusive(i), p.WithinNoise(i)) || passes(p.Inclusive(i), p.InclusiveWithinNoise(i))
}

// arcSignificant reports whether arc a passes the edge threshold.
func (s *selector) arcSignificant(a int) bool {
	if s.opt.EdgeShare <= 0 || s.sel.Total <= 0 {
		return true
	}
	v := math.Abs(s.p.ArcTime(a))
	return v > 0 && v >= s.sel.EdgeLimit
}

// chooseSignificant keeps the significant candidates, at most Top of them
// (the focused functions always).
func (s *selector) chooseSignificant() {
	p := s.p
	var sig []int
	for i := range p.Functions {
		if s.cand[i] && s.significant(i) {
			sig = append(sig, i)
		}
	}
	if top := s.opt.Top; top > 0 && len(sig) > top {
		incl := make([]float64, len(p.Functions))
		excl := make([]float64, len(p.Functions))
		for _, i := range sig {
			incl[i], excl[i] = math.Abs(p.Inclusive(i)), math.Abs(p.Exclusive(i))
		}
		sort.Slice(sig, func(a, b int) bool {
			x, y := sig[a], sig[b]
			if s.focus[x] != s.focus[y] {
				return s.focus[x]
			}
			if incl[x] != incl[y] {
				return incl[x] > incl[y]
			}
			if excl[x] != excl[y] {
				return excl[x] > excl[y]
			}
			if p.Functions[x].Name != p.Functions[y].Name {
				return p.Functions[x].Name < p.Functions[y].Name
			}
			return x < y
		})
		top = max(top, s.countFocus(sig))
		s.sel.Capped = len(sig) - top
		sig = sig[:top]
	}
	for _, i := range sig {
		s.kept[i], s.sigNode[i] = true, true
	}
}

func (s *selector) countFocus(list []int) int {
	n := 0
	for _, i := range list {
		if s.focus[i] {
			n++
		}
	}
	return n
}

// endpoint reports whether a connection search stops at function u: it is
// kept, or a root (which is then kept too).
func (s *selector) endpoint(u int) bool { return s.kept[u] || s.root[u] }

// connectAll connects every significant function towards the roots, and
// draws the significant self-arcs.
func (s *selector) connectAll() {
	p := s.p
	for i := range s.kept {
		s.kept[i] = s.sigNode[i] || s.hub[i]
	}
	clear(s.drawn)
	clear(s.paths)
	var roots []int
	for v := range p.Functions {
		if s.kept[v] {
			roots = s.connect(v, roots)
		}
	}
	roots = s.reachFromRoots(roots)
	for _, r := range roots {
		s.kept[r] = true
	}
	for ai := range p.Arcs {
		if a := &p.Arcs[ai]; a.Parent == a.Child && s.kept[a.Parent] && s.arcSignificant(ai) {
			s.drawn[ai] = true
		}
	}
}

// reachFromRoots makes sure every kept function that a root reaches in
// the call graph is reached from a root in the picture too: connections
// among kept functions can close on themselves (a recursion whose way in
// carries no change). A kept function not reached gets the largest arc
// from a reached function or a root, else an elided path climbed, as in
// connect, from its callers to the first reached function or root, until
// no more can be reached. It returns roots with the roots it used added.
func (s *selector) reachFromRoots(roots []int) []int {
	p := s.p
	next := map[int][]int{} // the picture's edges, caller to callees
	for ai, d := range s.drawn {
		if d {
			next[p.Arcs[ai].Parent] = append(next[p.Arcs[ai].Parent], p.Arcs[ai].Child)
		}
	}
	for key := range s.paths {
		next[key[0]] = append(next[key[0]], key[1])
	}
	reached := make([]bool, len(p.Functions))
	var queue []int
	reach := func(u int) {
		if reached[u] {
			return
		}
		reached[u] = true
		queue = append(queue[:0], u)
		for len(queue) > 0 {
			x := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			for _, w := range next[x] {
				if !reached[w] {
					reached[w] = true
					queue = append(queue, w)
				}
			}
		}
	}
	for i, k := range s.kept {
		if k && s.root[i] {
			reach(i)
		}
	}
	for _, r := range roots {
		reach(r)
	}
	for progress := true; progress; {
		progress = false
		for v, k := range s.kept {
			if !k || reached[v] {
				continue
			}
			in := s.byLarger(s.inArcs[s.inStart[v]:s.inStart[v+1]])
			from := -1
			for _, ai := range in {
				if u := p.Arcs[ai].Parent; reached[u] || s.root[u] {
					s.drawn[ai] = true
					from = u
					break
				}
			}
			for k := 0; from < 0 && k < len(in); k++ {
				if u := p.Arcs[in[k]].Parent; !s.kept[u] {
					from = s.climbTo(v, u, reached)
				}
			}
			if from < 0 {
				continue
			}
			if !s.kept[from] && !slices.Contains(roots, from) {
				roots = append(roots, from)
			}
			next[from] = append(next[from], v)
			if !reached[from] {
				reach(from)
			} else {
				reach(v)
			}
			progress = true
		}
	}
	return roots
}

// promoteHubs keeps, for the next round of connections, the functions
// where elided paths meet: on each path, the left-out function nearest its
// end that another path passes through too. Drawn once with its own
// connection, such a function replaces several dashed edges that would
// repeat the same functions. It reports whether it kept any.
func (s *selector) promoteHubs() bool {
	count := map[int]int{}
	for _, path := range s.paths {
		for _, x := range path.Via {
			count[x]++
		}
	}
	promoted := false
	for _, path := range s.paths {
		for k := len(path.Via) - 1; k >= 0; k-- {
			if x := path.Via[k]; count[x] > 1 {
				promoted = promoted || !s.hub[x]
				s.hub[x] = true
				break
			}
		}
	}
	return promoted
}

// connect draws the connections of kept function v (see SelectGraph) and
// returns roots with the roots it used added.
func (s *selector) connect(v int, roots []int) []int {
	use := func(u int) {
		if !s.kept[u] && !slices.Contains(roots, u) {
			roots = append(roots, u)
		}
	}
	in := s.inArcs[s.inStart[v]:s.inStart[v+1]]
	// Without an edge threshold every arc counts, and a path through
	// every left-out caller would bury the picture in dashes: then only
	// an unconnected function gets one (below).
	filter := s.opt.EdgeShare > 0 && s.sel.Total > 0
	var through []int // arcs from left-out callers that count
	connected := false
	for _, ai := range in {
		if !s.arcSignificant(ai) {
			continue
		}
		if u := s.p.Arcs[ai].Parent; s.endpoint(u) {
			s.drawn[ai] = true
			use(u)
			connected = true
		} else if filter {
			through = append(through, ai)
			connected = true
		}
	}
	// The largest first, so that where two routes meet the same kept
	// caller the path drawn is the larger one's.
	for _, ai := range s.byLarger(through) {
		if u := s.climb(v, s.p.Arcs[ai].Parent); u >= 0 {
			use(u)
		}
	}
	if connected {
		return roots
	}
	// The largest arc from a kept caller (or a root), else one path
	// through the left-out caller of the largest arc that leads
	// somewhere.
	for _, ai := range s.byLarger(in) {
		if u := s.p.Arcs[ai].Parent; s.endpoint(u) {
			s.drawn[ai] = true
			use(u)
			return roots
		}
	}
	for _, ai := range s.byLarger(in) {
		if u := s.climb(v, s.p.Arcs[ai].Parent); u >= 0 {
			use(u)
			return roots
		}
	}
	return roots
}

// arcLarger orders arcs by |ArcTime|, then |count delta| (the count in a
// single profile), the earlier first on ties.
func (s *selector) arcLarger(a, b int) bool {
	ta, tb := math.Abs(s.p.ArcTime(a)), math.Abs(s.p.ArcTime(b))
	if ta != tb {
		return ta > tb
	}
	ca, cb := s.arcCount(a), s.arcCount(b)
	if ca != cb {
		return ca > cb
	}
	return a < b
}

func (s *selector) arcCount(a int) uint64 {
	arc := &s.p.Arcs[a]
	if s.p.IsDiff() {
		return uint64(abs64(arc.CountDelta()))
	}
	return arc.Plus.Count
}

// climb finds, from v's left-out caller w, the route that the most time
// (or change of time) takes into w: it goes up to callers, the one with
// the largest arc (see arcLarger) first, through left-out functions not
// yet on the way, backing up where a way ends without reaching a kept
// function or root (a cycle of left-out functions). It records the elided
// path from the first kept function or root it reaches to v and returns
// that endpoint, or -1 when there is none.
func (s *selector) climb(v, w int) int { return s.climbTo(v, w, nil) }

// climbTo is climb; with reached set, the route ends at a reached function
// or a root and cannot pass through other kept functions.
func (s *selector) climbTo(v, w int, reached []bool) int {
	s.gen++
	s.stamp[v], s.stamp[w] = s.gen, s.gen
	// route holds the functions from w up; next[k] is how many of
	// route[k]'s callers (largest first) were tried.
	route, next := []int{w}, []int{0}
	var callers [][]int // per route position, its callers' arcs, largest first
	callers = append(callers, s.callersLargestFirst(w))
	for len(route) > 0 {
		k := len(route) - 1
		if next[k] == len(callers[k]) {
			route, next, callers = route[:k], next[:k], callers[:k]
			continue
		}
		ai := callers[k][next[k]]
		next[k]++
		u := s.p.Arcs[ai].Parent
		if s.stamp[u] == s.gen {
			continue
		}
		s.stamp[u] = s.gen
		end := s.endpoint(u)
		if reached != nil {
			end = reached[u] || s.root[u]
			if !end && s.kept[u] {
				continue
			}
		}
		if end {
			via := slices.Clone(route)
			slices.Reverse(via)
			if _, ok := s.paths[[2]int{u, v}]; !ok {
				s.paths[[2]int{u, v}] = ElidedPath{From: u, To: v, Via: via}
			}
			return u
		}
		route, next = append(route, u), append(next, 0)
		callers = append(callers, s.callersLargestFirst(u))
	}
	return -1
}

// callersLargestFirst lists the arcs into x from other candidates, the
// largest first (see arcLarger).
func (s *selector) callersLargestFirst(x int) []int {
	return s.byLarger(s.inArcs[s.inStart[x]:s.inStart[x+1]])
}

// byLarger returns a copy of the arcs list, the largest first.
func (s *selector) byLarger(list []int) []int {
	list = slices.Clone(list)
	slices.SortStableFunc(list, func(a, b int) int {
		if s.arcLarger(a, b) {
			return -1
		}
		if s.arcLarger(b, a) {
			return 1
		}
		return 0
	})
	return list
}

// result assembles the selection.
func (s *selector) result() GraphSelection {
	p := s.p
	sel := s.sel
	for i, k := range s.kept {
		if k {
			sel.Nodes = append(sel.Nodes, i)
			if !s.sigNode[i] {
				sel.Connectors = append(sel.Connectors, i)
			}
		}
	}
	direct := map[[2]int]bool{}
	for ai, d := range s.drawn {
		if d {
			sel.Arcs = append(sel.Arcs, ai)
			direct[[2]int{p.Arcs[ai].Parent, p.Arcs[ai].Child}] = true
		}
	}
	for key, path := range s.paths {
		if !direct[key] {
			sel.Paths = append(sel.Paths, path)
		}
	}
	sort.Slice(sel.Paths, func(a, b int) bool {
		x, y := &sel.Paths[a], &sel.Paths[b]
		if x.To != y.To {
			return x.To < y.To
		}
		return x.From < y.From
	})
	sel.PrunedNodes = len(p.Functions) - len(sel.Nodes)
	sel.PrunedArcs = len(p.Arcs) - len(sel.Arcs)
	return sel
}

// FunctionsMatching returns the functions a gprof symspec names
// (FUNCTION, FILE:FUNCTION, FILE:LINE, FILE), resolved in each side's
// symbol table as gprof resolves its symspecs, in ascending order. A spec
// that names no symbol is then compared with the demangled names, whole
// or without their parameter lists ("Node::in_edge" for
// "Node::in_edge() const"), since C++ names are hard to spell mangled.
func (p *Profile) FunctionsMatching(spec string) []int {
	var found []int
	var in [2]callgraph.RangeTable
	for k, g := range []*callgraph.Graph{p.Plus, p.Minus} {
		if g != nil && g.Syms != nil {
			tables, _ := callgraph.ResolveSpecs(g.Syms, []callgraph.SpecUse{{Table: callgraph.InclGraph, Spec: spec}})
			in[k] = tables[callgraph.InclGraph]
		}
	}
	matches := func(g *callgraph.Graph, t callgraph.RangeTable, e int) bool {
		return g != nil && g.Syms != nil && e >= 0 && e < len(g.Syms.Syms) && t.Contains(g.Syms.Syms[e].Addr)
	}
	for i := range p.Functions {
		f := &p.Functions[i]
		if matches(p.Plus, in[0], f.Plus.Entry) || matches(p.Minus, in[1], f.Minus.Entry) {
			found = append(found, i)
		}
	}
	if len(found) > 0 {
		return found
	}
	var dem symtab.Demangler
	for i := range p.Functions {
		d := dem.Demangle(p.Functions[i].Name, symtab.StyleAuto)
		if d == spec || strings.HasPrefix(d, spec+"(") {
			found = append(found, i)
		}
	}
	return found
}
