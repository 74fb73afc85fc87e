package diff

import (
	"math"
	"sort"
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

// GraphSelection is the part of a profile's call graph that a picture of
// it shows: the kept functions and the arcs between them.
type GraphSelection struct {
	// Nodes are the kept function indexes, ascending.
	Nodes []int
	// Arcs are the indexes of the arcs whose caller and callee are both
	// kept, ascending.
	Arcs []int
	// PrunedNodes and PrunedArcs count what was left out.
	PrunedNodes, PrunedArcs int
}

// SelectGraph chooses the functions a call-graph picture shows. With top
// <= 0, or at least as many as there are functions, it keeps them all.
// Otherwise it keeps the top functions of largest |Inclusive| (the
// inclusive delta in a differential profile, the inclusive time in a single
// one); ties go to the larger |Exclusive|, then to the smaller raw name,
// then to the earlier function. Arcs are kept when both of their ends are.
func (p *Profile) SelectGraph(top int) GraphSelection {
	n := len(p.Functions)
	keep := make([]bool, n)
	if top <= 0 || top >= n {
		top = n
		for i := range keep {
			keep[i] = true
		}
	} else {
		order := make([]int, n)
		incl := make([]float64, n)
		excl := make([]float64, n)
		for i := range order {
			order[i] = i
			incl[i] = math.Abs(p.Inclusive(i))
			excl[i] = math.Abs(p.Exclusive(i))
		}
		sort.Slice(order, func(a, b int) bool {
			x, y := order[a], order[b]
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
		for _, i := range order[:top] {
			keep[i] = true
		}
	}
	sel := GraphSelection{Nodes: make([]int, 0, top)}
	for i, k := range keep {
		if k {
			sel.Nodes = append(sel.Nodes, i)
		}
	}
	sel.PrunedNodes = n - len(sel.Nodes)
	for i := range p.Arcs {
		a := &p.Arcs[i]
		if keep[a.Parent] && keep[a.Child] {
			sel.Arcs = append(sel.Arcs, i)
		}
	}
	sel.PrunedArcs = len(p.Arcs) - len(sel.Arcs)
	return sel
}
