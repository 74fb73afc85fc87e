package progen

import (
	"math"
	"time"
)

// Cost model, in nanoseconds, measured on x86-64 with gcc 12 (-O0 and -O2
// behave alike for these loops because every iteration goes through a
// volatile variable).
const (
	callCostNS    = 8.0 // one call of a -pg function, mcount included
	mulLoopCostNS = 1.0 // one iteration of the integer multiply loop
	fpLoopCostNS  = 3.0 // one iteration of the floating-point loop
)

// Work loop flavours.
const (
	styleMul = iota // volatile unsigned long, multiply-add chain
	styleFP         // volatile double, multiply-add chain
	numStyles
)

// styleCost returns the cost of one busy-loop iteration of a flavour.
func styleCost(style int) float64 {
	if style == styleFP {
		return fpLoopCostNS
	}
	return mulLoopCostNS
}

// edgeKind says how a call is written in C.
type edgeKind int

const (
	edgeDirect    edgeKind = iota // plain call, reps times
	edgeGuarded                   // recursive call guarded by the group's depth counter
	edgeSelfParam                 // self call with the parameter decremented
	edgeTable                     // calls through a table of function pointers
	edgeQsort                     // qsort of reps ints with the comparator
	edgeHot                       // loop calling the hot function reps times
)

// edge is one call site (one loop of calls).
type edge struct {
	kind edgeKind
	to   []int // callees; several only for edgeTable
	reps int64 // loop count; rounds over the table for edgeTable; array length for edgeQsort
	arg  int   // constant argument passed (direct and table calls)
	id   int   // table number for edgeTable
}

// fn is a function under construction.
type fn struct {
	Func
	group  int // index in gen.groups, -1 when never run through the graph
	edges  []edge
	style  int
	weight float64 // share of the work budget
}

// group is one strongly connected set of functions: a single function, a
// self-recursive one, or a mutual-recursion cycle.
type group struct {
	members []int
	depth   int    // recursion bound
	guard   string // depth counter variable, "" if the group does not use one
	param   bool   // recursion through the parameter (single function)
}

// gen holds the state of one Generate call.
type gen struct {
	cfg      Config
	seed     int64
	r        *rng
	fns      []*fn // fns[0] is main
	groups   []*group
	worker   int // index of the thread start routine, or -1
	hot      int // index of the hot function, or -1
	cmp, key int // comparator and its key function, or -1
	cycles   int
	tables   int
	names    map[string]bool
	order    []int // source order
}

func newGen(seed int64, cfg Config) *gen {
	return &gen{
		cfg:    cfg,
		seed:   seed,
		r:      newRNG(seed, 1),
		worker: -1, hot: -1, cmp: -1, key: -1,
		names: map[string]bool{"main": true},
	}
}

// addFn appends a function with a fresh name and returns its index.
func (g *gen) addFn(role Role) int {
	f := &fn{Func: Func{Role: role}, group: -1, style: g.r.intn(numStyles)}
	switch role {
	case RoleMain:
		f.Name = "main"
	default:
		f.Name = g.newName(role)
	}
	g.fns = append(g.fns, f)
	return len(g.fns) - 1
}

// build generates the whole program model.
func (g *gen) build() {
	r, cfg := g.r, g.cfg
	n := r.between(cfg.MinFuncs, cfg.MaxFuncs)

	// Decide the special roles first; what is left is the random graph.
	wantHot := n >= 3 && r.chance(cfg.HotProb)
	wantCmp := n >= 4 && r.chance(cfg.QsortProb)
	wantKey := wantCmp && n >= 6 && r.chance(0.6)
	wantThread := n >= 6 && r.chance(cfg.ThreadProb)
	unreach := int(math.Round(float64(n) * cfg.UnreachableFrac * (0.5 + r.float())))
	if n >= 6 && unreach < 1 {
		unreach = 1
	}
	special := func() int {
		c := unreach
		for _, b := range []bool{wantHot, wantCmp, wantKey, wantThread} {
			if b {
				c++
			}
		}
		return c
	}
	for n-special() < 2 && special() > 0 {
		switch {
		case wantThread:
			wantThread = false
		case wantKey:
			wantKey = false
		case unreach > 0:
			unreach--
		case wantCmp:
			wantCmp = false
		default:
			wantHot = false
		}
	}
	normals := n - special()

	g.addFn(RoleMain)
	if wantThread {
		g.worker = g.addFn(RoleThread)
	}
	var normalIdx []int
	for range normals {
		i := g.addFn(RoleNormal)
		g.fns[i].Static = r.chance(cfg.StaticFrac)
		g.fns[i].NoInline = r.chance(0.7)
		normalIdx = append(normalIdx, i)
	}
	if wantHot {
		g.hot = g.addFn(RoleHot)
		g.fns[g.hot].Static = r.chance(0.5)
		g.fns[g.hot].NoInline = true
	}
	if wantCmp {
		g.cmp = g.addFn(RoleComparator)
		g.fns[g.cmp].Static = r.chance(0.7)
	}
	if wantKey {
		g.key = g.addFn(RoleKey)
		g.fns[g.key].Static = r.chance(0.5)
		g.fns[g.key].NoInline = r.chance(0.5)
	}
	if g.worker >= 0 {
		g.fns[g.worker].Static = r.chance(0.7)
	}
	var unreachIdx []int
	for k := range unreach {
		i := g.addFn(RoleUnreachable)
		// The first one is global so that gcc keeps it; the static ones are
		// all called from it, so they are kept too.
		g.fns[i].Static = k > 0 && r.chance(cfg.StaticFrac)
		g.fns[i].NoInline = r.chance(0.5)
		unreachIdx = append(unreachIdx, i)
	}

	// Groups: roots first, then the random graph in topological order, then
	// the special leaves.
	g.addGroup(&group{members: []int{0}})
	if g.worker >= 0 {
		g.addGroup(&group{members: []int{g.worker}})
	}
	g.buildNormalGroups(normalIdx)
	for _, i := range []int{g.hot, g.cmp, g.key} {
		if i >= 0 {
			g.addGroup(&group{members: []int{i}})
		}
	}

	g.spanningEdges()
	g.extraEdges(n)
	g.specialEdges()
	g.unreachableEdges(unreachIdx)
	g.assignWork()

	g.order = make([]int, len(g.fns))
	for i := range g.order {
		g.order[i] = i
	}
	r.shuffle(len(g.order), func(i, j int) { g.order[i], g.order[j] = g.order[j], g.order[i] })
}

// addGroup appends gr and records its members' group index.
func (g *gen) addGroup(gr *group) {
	for _, m := range gr.members {
		g.fns[m].group = len(g.groups)
	}
	g.groups = append(g.groups, gr)
}

// buildNormalGroups partitions the normal functions into cycles and single
// (possibly self-recursive) functions, in random topological order.
func (g *gen) buildNormalGroups(idx []int) {
	r, cfg := g.r, g.cfg
	r.shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
	var groups []*group
	ncycles := 0
	if len(idx) >= 2 && cfg.MaxCycles > 0 {
		ncycles = r.between(1, cfg.MaxCycles)
	}
	for ; ncycles > 0 && len(idx) >= 2; ncycles-- {
		size := r.between(2, min(5, len(idx)))
		members := append([]int(nil), idx[:size]...)
		idx = idx[size:]
		g.cycles++
		// Going once around the ring takes size calls, so the depth bound
		// counts from there: whatever the entry point, every member runs
		// and every call of the ring happens.
		gr := &group{
			members: members,
			depth:   size - 1 + r.between(1, cfg.MaxRecursionDepth),
			guard:   "depth_cycle" + itoa(g.cycles),
		}
		for _, m := range members {
			g.fns[m].Cycle = g.cycles
		}
		// The ring makes the cycle; chords and self calls make further
		// cycles interlocking with it.
		for k, m := range members {
			next := members[(k+1)%size]
			g.fns[m].edges = append(g.fns[m].edges, edge{kind: edgeGuarded, to: []int{next}, reps: 1})
		}
		if size >= 3 && r.chance(0.6) {
			for range r.between(1, size-1) {
				a, b := pick(r, members), pick(r, members)
				if a != b {
					g.fns[a].edges = append(g.fns[a].edges, edge{kind: edgeGuarded, to: []int{b}, reps: 1})
				}
			}
		}
		if r.chance(0.25) {
			m := pick(r, members)
			g.fns[m].SelfRecursive = true
			g.fns[m].edges = append(g.fns[m].edges, edge{kind: edgeGuarded, to: []int{m}, reps: 1})
		}
		groups = append(groups, gr)
	}
	for _, m := range idx {
		gr := &group{members: []int{m}}
		if r.chance(cfg.SelfRecursionProb) {
			f := g.fns[m]
			f.SelfRecursive = true
			gr.depth = r.between(1, cfg.MaxRecursionDepth)
			reps := int64(1)
			if gr.depth <= 3 && r.chance(0.3) {
				reps = 2 // binary recursion
			}
			if r.chance(0.5) {
				gr.param = true
				f.edges = append(f.edges, edge{kind: edgeSelfParam, to: []int{m}, reps: reps})
			} else {
				gr.guard = "depth_" + f.Name
				f.edges = append(f.edges, edge{kind: edgeGuarded, to: []int{m}, reps: reps})
			}
		}
		groups = append(groups, gr)
	}
	r.shuffle(len(groups), func(i, j int) { groups[i], groups[j] = groups[j], groups[i] })
	for _, gr := range groups {
		g.addGroup(gr)
	}
}

// argFor returns the argument a caller passes to callee: the recursion depth
// for parameter-recursive functions, a small constant otherwise.
func (g *gen) argFor(callee int) int {
	if gi := g.fns[callee].group; gi >= 0 && g.groups[gi].param {
		return g.groups[gi].depth
	}
	return g.r.between(0, 9)
}

// randomReps returns a loop count for an extra call.
func (g *gen) randomReps() int64 {
	switch x := g.r.float(); {
	case x < 0.6:
		return 1
	case x < 0.9:
		return int64(g.r.between(2, 5))
	default:
		return int64(g.r.between(10, 50))
	}
}

// isNormalGroup reports whether group gi holds normal functions.
func (g *gen) isNormalGroup(gi int) bool {
	return g.fns[g.groups[gi].members[0]].Role == RoleNormal
}

// tryEdge adds e to caller if the call budget allows it, and reports whether
// it did.
func (g *gen) tryEdge(caller int, e edge) bool {
	f := g.fns[caller]
	f.edges = append(f.edges, e)
	if g.graphCalls() <= float64(g.cfg.MaxCalls) {
		return true
	}
	f.edges = f.edges[:len(f.edges)-1]
	return false
}

// spanningEdges gives every normal group a caller in an earlier group, so
// that every normal function runs.
func (g *gen) spanningEdges() {
	r := g.r
	first := true
	for gi, gr := range g.groups {
		if !g.isNormalGroup(gi) {
			continue
		}
		entry := pick(r, gr.members)
		var parents []int
		for _, pg := range g.groups[:gi] {
			parents = append(parents, pg.members...)
		}
		parent := pick(r, parents)
		switch {
		case first && g.worker >= 0:
			parent = g.worker // the thread must do something
		case first:
			parent = 0
		}
		first = false
		e := edge{kind: edgeDirect, to: []int{entry}, reps: g.randomReps(), arg: g.argFor(entry)}
		if g.tryEdge(parent, e) {
			continue
		}
		e.reps = 1
		if g.tryEdge(parent, e) {
			continue
		}
		// main runs once: the cost is the group's own, which is small.
		g.fns[0].edges = append(g.fns[0].edges, e)
	}
}

// extraEdges adds random forward calls, some through function-pointer
// tables, as long as the call budget allows.
func (g *gen) extraEdges(n int) {
	r := g.r
	var callers []int // roots and normal functions
	for gi, gr := range g.groups {
		if gi == 0 || g.isNormalGroup(gi) || gr.members[0] == g.worker {
			callers = append(callers, gr.members...)
		}
	}
	laterNormals := func(caller int) []int {
		var out []int
		for gi := g.fns[caller].group + 1; gi < len(g.groups); gi++ {
			if g.isNormalGroup(gi) {
				out = append(out, g.groups[gi].members...)
			}
		}
		return out
	}
	for range r.between(n/3, n) {
		caller := pick(r, callers)
		cands := laterNormals(caller)
		if len(cands) == 0 {
			continue
		}
		if len(cands) >= 2 && r.chance(g.cfg.TableProb) {
			var targets []int
			for _, c := range cands {
				if !g.groups[g.fns[c].group].param {
					targets = append(targets, c)
				}
			}
			r.shuffle(len(targets), func(i, j int) { targets[i], targets[j] = targets[j], targets[i] })
			if len(targets) > 4 {
				targets = targets[:r.between(2, 4)]
			}
			if len(targets) >= 2 {
				g.tables++
				e := edge{kind: edgeTable, to: targets, reps: int64(r.between(1, 3)), arg: r.between(0, 9), id: g.tables}
				if !g.tryEdge(caller, e) {
					g.tables--
				}
				continue
			}
		}
		callee := pick(r, cands)
		e := edge{kind: edgeDirect, to: []int{callee}, reps: g.randomReps(), arg: g.argFor(callee)}
		if !g.tryEdge(caller, e) && e.reps > 1 {
			e.reps = 1
			g.tryEdge(caller, e)
		}
	}
}

// specialEdges adds the loop calling the hot function and the qsort call,
// each in one of the functions that run least often.
func (g *gen) specialEdges() {
	r, cfg := g.r, g.cfg
	inv := g.invocations()
	var hosts []int
	for gi, gr := range g.groups {
		if gi == 0 || g.isNormalGroup(gi) || gr.members[0] == g.worker {
			hosts = append(hosts, gr.members...)
		}
	}
	rarest := func() int {
		best := 0 // main, which always runs once
		var ties []int
		for _, h := range hosts {
			switch {
			case inv[h] == 0:
				// never runs (cannot happen with a consistent graph)
			case inv[h] < inv[best]:
				best, ties = h, []int{h}
			case inv[h] == inv[best]:
				ties = append(ties, h)
			}
		}
		return pick(r, ties)
	}
	if g.hot >= 0 {
		host := rarest()
		calls := r.between64(cfg.MinHotCalls, cfg.MaxHotCalls)
		reps := max(1, int64(float64(calls)/inv[host]))
		g.fns[host].edges = append(g.fns[host].edges, edge{kind: edgeHot, to: []int{g.hot}, reps: reps})
	}
	if g.cmp >= 0 {
		host := rarest()
		// Aim at 100k-400k comparisons, which also keeps the comparator
		// (and its key function) among the functions with samples.
		target := float64(r.between(100_000, 400_000)) / inv[host]
		m := int64(16)
		for m < 1<<16 && comparisons(m*2) <= target {
			m *= 2
		}
		m += int64(r.intn(int(m))) // not only powers of two
		g.fns[host].edges = append(g.fns[host].edges, edge{kind: edgeQsort, to: []int{g.cmp}, reps: m})
		if g.key >= 0 {
			g.fns[g.cmp].edges = append(g.fns[g.cmp].edges, edge{kind: edgeDirect, to: []int{g.key}, reps: 2})
		}
	}
}

// unreachableEdges gives the never-called functions calls of their own, so
// that they appear in gprof -c's static call graph.
func (g *gen) unreachableEdges(idx []int) {
	r := g.r
	if len(idx) == 0 {
		return
	}
	var targets []int
	for i, f := range g.fns {
		if f.Role == RoleNormal || f.Role == RoleUnreachable || f.Role == RoleHot {
			targets = append(targets, i)
		}
	}
	for k, u := range idx {
		f := g.fns[u]
		if k > 0 && f.Static {
			g.fns[idx[0]].edges = append(g.fns[idx[0]].edges,
				edge{kind: edgeDirect, to: []int{u}, reps: 1, arg: r.between(0, 9)})
		}
		for range r.between(1, 3) {
			t := pick(r, targets)
			if t == u || (g.fns[t].Role == RoleUnreachable && g.fns[t].Static) {
				continue
			}
			f.edges = append(f.edges, edge{kind: edgeDirect, to: []int{t}, reps: g.randomReps(), arg: g.argFor(t)})
		}
		f.Work = r.between64(0, 200_000)
	}
}

// assignWork distributes the CPU budget over the functions that run, as
// busy-loop iteration counts, and records the expected call counts.
func (g *gen) assignWork() {
	r, cfg := g.r, g.cfg
	inv := g.invocations()
	target := float64(r.between64(cfg.MinCPU.Nanoseconds(), cfg.MaxCPU.Nanoseconds()))
	// The hot function's calls are not part of the budget: their cost is
	// mostly spent in mcount, inside libc, where no sample is credited.
	calls := 0.0
	for i, c := range inv {
		if i != g.hot {
			calls += c
		}
	}
	budget := max(target-calls*callCostNS, 0.5*target)

	var runners []int
	sum := 0.0
	for i, f := range g.fns {
		if inv[i] == 0 || f.Role == RoleHot {
			continue
		}
		runners = append(runners, i)
		if r.chance(0.25) && f.Role != RoleComparator {
			continue // some functions only call others
		}
		f.weight = 0.05 + r.float()*r.float()
		if r.chance(0.1) {
			f.weight *= 5
		}
		if f.Role != RoleComparator {
			sum += f.weight
		}
	}
	if g.cmp >= 0 && inv[g.cmp] > 0 {
		// gprof prints a function called only from libc (as
		// <spontaneous>) only if it has time, and each call costs mcount
		// time that no sample records: give the comparator a fifth of the
		// budget.
		f := g.fns[g.cmp]
		f.weight = sum / 4
		sum += f.weight
	}
	if sum == 0 {
		f := g.fns[pick(r, runners)]
		f.weight = 1
		sum = 1
	}
	for _, i := range runners {
		f := g.fns[i]
		f.Work = int64(budget * f.weight / sum / inv[i] / styleCost(f.style))
	}
	for i, f := range g.fns {
		f.Calls = int64(math.Round(inv[i]))
	}
}

// estimatedCPU evaluates the cost model on the finished program.
func (g *gen) estimatedCPU() time.Duration {
	inv := g.invocations()
	ns := 0.0
	for i, f := range g.fns {
		if inv[i] == 0 {
			continue
		}
		ns += inv[i] * (callCostNS + float64(f.Work)*styleCost(f.style))
	}
	return time.Duration(ns)
}

// comparisons estimates how many times qsort calls the comparator for m
// elements (glibc 2.36 sorts with a merge sort).
func comparisons(m int64) float64 {
	if m < 2 {
		return 0
	}
	return float64(m) * math.Log2(float64(m))
}

// graphCalls is the number of calls the random call graph makes, roots
// included (the hot function, comparator and key are not added yet when it
// is used).
func (g *gen) graphCalls() float64 {
	total := 0.0
	for _, c := range g.invocations() {
		total += c
	}
	return total
}

// invocations computes, group by group in topological order, how many times
// each function runs.
func (g *gen) invocations() []float64 {
	inv := make([]float64, len(g.fns))
	entries := make([]float64, len(g.fns))
	entries[0] = 1
	if g.worker >= 0 {
		entries[g.worker] = 1
	}
	for _, gr := range g.groups {
		for _, v := range gr.members {
			if entries[v] == 0 {
				continue
			}
			per := g.perEntry(gr, v)
			for k, u := range gr.members {
				inv[u] += entries[v] * per[k]
			}
		}
		for _, u := range gr.members {
			if inv[u] == 0 {
				continue
			}
			for _, e := range g.fns[u].edges {
				switch e.kind {
				case edgeDirect, edgeTable, edgeHot:
					for _, w := range e.to {
						entries[w] += inv[u] * float64(e.reps)
					}
				case edgeQsort:
					entries[e.to[0]] += inv[u] * comparisons(e.reps)
				}
			}
		}
	}
	return inv
}

// perEntry returns, for one entry into group gr at member v, how many times
// each member runs (indexed like gr.members).
func (g *gen) perEntry(gr *group, v int) []float64 {
	pos := make(map[int]int, len(gr.members))
	for k, m := range gr.members {
		pos[m] = k
	}
	type key struct{ fn, depth int }
	memo := map[key][]float64{}
	var visit func(u, d int) []float64
	visit = func(u, d int) []float64 {
		if res, ok := memo[key{u, d}]; ok {
			return res
		}
		res := make([]float64, len(gr.members))
		res[pos[u]] = 1
		for _, e := range g.fns[u].edges {
			if (e.kind == edgeGuarded || e.kind == edgeSelfParam) && d < gr.depth {
				sub := visit(e.to[0], d+1)
				for k := range res {
					res[k] += float64(e.reps) * sub[k]
				}
			}
		}
		memo[key{u, d}] = res
		return res
	}
	return visit(v, 0)
}

// program assembles the result.
func (g *gen) program() *Program {
	p := &Program{
		Seed:         g.seed,
		Cycles:       g.cycles,
		Threaded:     g.worker >= 0,
		EstimatedCPU: g.estimatedCPU(),
	}
	for _, i := range g.order {
		p.Funcs = append(p.Funcs, g.fns[i].Func)
	}
	p.Source = g.emit()
	return p
}
