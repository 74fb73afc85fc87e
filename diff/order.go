package diff

import (
	"math"
	"slices"
	"sort"
)

// PerCallDelta is the change of the self and the total (self plus
// callees) time per call, known only when both sides counted calls.
func (f *Function) PerCallDelta() (self, total float64, ok bool) {
	if f.Plus.Calls == 0 || f.Minus.Calls == 0 {
		return 0, 0, false
	}
	pc, mc := float64(f.Plus.Calls), float64(f.Minus.Calls)
	self = f.Plus.Self/pc - f.Minus.Self/mc
	total = (f.Plus.Self+f.Plus.FlatChildren)/pc - (f.Minus.Self+f.Minus.FlatChildren)/mc
	return self, total, true
}

// TimeDelta is the change of the time charged along the arc (the callee's
// self and children time).
func (a *Arc) TimeDelta() float64 {
	return (a.Plus.Time + a.Plus.ChildTime) - (a.Minus.Time + a.Minus.ChildTime)
}

// GraphOrder is the order of the differential call graph: functions by
// decreasing absolute change of total time (then of self time, then by
// name), each function's callers by increasing and callees by decreasing
// absolute change along the arc (then of the count), as gprof orders its
// call graph by size.
type GraphOrder struct {
	Order    []int   // function indexes in printed order
	Index    []int   // per function, its 1-based index number
	Parents  [][]int // per function, the arcs into it, in printed order
	Children [][]int // per function, the arcs out of it, in printed order
}

// CallGraphOrder computes the order of the differential call graph.
func (p *Profile) CallGraphOrder() GraphOrder {
	n := len(p.Functions)
	o := GraphOrder{Order: make([]int, n), Index: make([]int, n), Parents: make([][]int, n), Children: make([][]int, n)}
	for i := range o.Order {
		o.Order[i] = i
	}
	sort.SliceStable(o.Order, func(a, b int) bool {
		x, y := &p.Functions[o.Order[a]], &p.Functions[o.Order[b]]
		if dx, dy := math.Abs(x.TotalDelta()), math.Abs(y.TotalDelta()); dx != dy {
			return dx > dy
		}
		if sx, sy := math.Abs(x.SelfDelta()), math.Abs(y.SelfDelta()); sx != sy {
			return sx > sy
		}
		return x.Name < y.Name
	})
	for k, i := range o.Order {
		o.Index[i] = k + 1
	}
	p.arcLists(o.Parents, o.Children)
	// The sorts use only "x before y", as sort.SliceStable would: the
	// comparison is -1 for it and 0 otherwise.
	bySize := func(list []int, desc bool) {
		slices.SortStableFunc(list, func(x, y int) int {
			ax, ay := &p.Arcs[x], &p.Arcs[y]
			before := false
			if dx, dy := math.Abs(ax.TimeDelta()), math.Abs(ay.TimeDelta()); dx != dy {
				before = (dx < dy) != desc
			} else {
				cx, cy := abs64(ax.CountDelta()), abs64(ay.CountDelta())
				before = cx != cy && (cx < cy) != desc
			}
			if before {
				return -1
			}
			return 0
		})
	}
	for i := range o.Parents {
		bySize(o.Parents[i], false)
		bySize(o.Children[i], true)
	}
	return o
}

// arcLists sets parents[i] and children[i] to the arcs into and out of
// function i, in arc order, as slices of two arrays that hold all the
// lists (each capped at its end).
func (p *Profile) arcLists(parents, children [][]int) {
	n := len(parents)
	pEnd := make([]int, n+1)
	cEnd := make([]int, n+1)
	for _, a := range p.Arcs {
		pEnd[a.Child+1]++
		cEnd[a.Parent+1]++
	}
	for i := 1; i <= n; i++ {
		pEnd[i] += pEnd[i-1]
		cEnd[i] += cEnd[i-1]
	}
	pAll := make([]int, len(p.Arcs))
	cAll := make([]int, len(p.Arcs))
	for i := range n {
		// An empty list stays nil.
		if pEnd[i+1] > pEnd[i] {
			parents[i] = pAll[pEnd[i]:pEnd[i]:pEnd[i+1]]
		}
		if cEnd[i+1] > cEnd[i] {
			children[i] = cAll[cEnd[i]:cEnd[i]:cEnd[i+1]]
		}
	}
	for a, arc := range p.Arcs {
		parents[arc.Child] = append(parents[arc.Child], a)
		children[arc.Parent] = append(children[arc.Parent], a)
	}
}
