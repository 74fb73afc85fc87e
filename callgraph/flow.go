package callgraph

// Flow carries k quantities per function up the call graph by the rule
// gprof propagates time by (arcShare): callees before callers, each
// callee's share to each caller in proportion to the calls, a cycle as one
// entry whose share goes to the callers outside it, nothing into or out of
// an excluded function. own(i, v) adds function i's own quantities to v
// (its self time, split some way); passes(i) tells whether function i
// hands what it holds on to its callers (gprof's propagation is every
// function passing its self time).
//
// It returns, for each symbol i, held[i*k : i*k+k]: its own quantities
// plus what its callees passed to it (for a member of a cycle, from the
// callees outside the cycle), gprof's self and children time when every
// function passes its self time. A cycle passes what its passing members
// hold. Without arcs every function holds its own.
func (g *Graph) Flow(k int, own func(i int, v []float64), passes func(i int) bool) (held []float64) {
	n := g.NumSyms
	held = make([]float64, n*k)
	for i := range n {
		own(i, held[i*k:i*k+k])
	}
	if len(g.topo) == 0 || k == 0 {
		return held
	}
	// What each cycle passes, summed once all its members are done (they
	// share a topological number, below every caller outside the cycle).
	cyc := make([][]float64, len(g.Entries)-n)
	cycleHolds := func(c int) []float64 {
		if v := cyc[c-n]; v != nil {
			return v
		}
		v := make([]float64, k)
		for m := g.Entries[c].next; m >= 0; m = g.Entries[m].next {
			if g.Entries[m].Fract == 0 || !passes(m) {
				continue
			}
			for j := range k {
				v[j] += held[m*k+j]
			}
		}
		cyc[c-n] = v
		return v
	}
	for _, p := range g.topo {
		if g.Entries[p].Fract == 0 {
			continue
		}
		mine := held[p*k : p*k+k]
		listOrder(g.Entries[p].Children, func(a int) {
			from, ratio, ok := g.arcShare(p, a)
			if !ok {
				return
			}
			var v []float64
			if from >= n {
				v = cycleHolds(from)
			} else if passes(from) {
				v = held[from*k : from*k+k]
			} else {
				return
			}
			for j := range k {
				mine[j] += ratio * v[j]
			}
		})
	}
	return held
}

// Called reports whether function i (or its cycle) is called from another
// function, as gprof counts calls, so that its time goes on to callers. A
// function no one calls keeps its time (gprof's <spontaneous>).
func (g *Graph) Called(i int) bool {
	e := i
	if c := g.CycleEntry(i); c >= 0 {
		e = c
	}
	return g.Entries[e].NCalls > 0
}
