// Package linkorder computes gprof's suggested link orders: the function
// order of -r and the object-file order of -R.
package linkorder

import (
	"sort"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/symtab"
)

// gprof decides both orders while printing them (cg_print.c), by a greedy
// placement that chains the two ends of heavily used arcs; the placement is
// reproduced here step by step, including its oddities, because every one
// of them shows in the output.
//
// gprof runs the placement over its array of all arcs. Besides the arcs of
// the profile (self-calls excluded) that array holds the zero-count arcs
// its symspec parser creates for every FROM/TO option between copies of
// the matching symbols (callgraph.SpecArcs); those copies are chained and
// printed like real symbols.

// placer is the state of gprof's placement: per node (the symbols, then
// the symspec copies) whether it has been placed, its chain neighbours and
// its use count; per arc its ends, count and whether it has been placed.
type placer struct {
	names  []string
	mapped []bool
	placed []bool
	next   []int
	prev   []int
	nuses  []int
	arcs   []placeArc
	out    []string
	// seen marks the nodes printed by chain walk number walk.
	seen []int
	walk int
}

type placeArc struct {
	parent, child int
	count         uint64
	placed        bool
}

// newPlacer builds the nodes and gprof's arc array: the symspec arcs
// (created before the profiles were read), then the profile's arcs in
// creation order without self-calls. realArc maps a graph arc to its
// position in that array, -1 for a self-call.
func newPlacer(g *callgraph.Graph) (p *placer, realArc []int) {
	n := g.NumSyms
	sa := &g.SpecArcs
	total := n + len(sa.Copies)
	p = &placer{
		names:  make([]string, total),
		mapped: make([]bool, total),
		placed: make([]bool, total),
		next:   make([]int, total),
		prev:   make([]int, total),
		nuses:  make([]int, total),
		seen:   make([]int, total),
	}
	for i := 0; i < total; i++ {
		sym := i
		if i >= n {
			sym = sa.Copies[i-n].Sym
		}
		s := &g.Syms.Syms[sym]
		p.names[i], p.mapped[i] = s.Name, s.Mapped
		p.next[i], p.prev[i] = -1, -1
	}
	// A copy starts with the link of its symspec chain.
	for k, c := range sa.Copies {
		if c.Next >= 0 {
			p.next[n+k] = n + c.Next
		}
	}
	for _, a := range sa.Arcs {
		p.arcs = append(p.arcs, placeArc{parent: n + a.Parent, child: n + a.Child})
	}
	realArc = make([]int, len(g.Arcs))
	for k := range g.Arcs {
		a := &g.Arcs[k]
		if a.Parent == a.Child {
			realArc[k] = -1
			continue
		}
		realArc[k] = len(p.arcs)
		p.arcs = append(p.arcs, placeArc{parent: int(a.Parent), child: int(a.Child), count: a.Count})
	}
	return p, realArc
}

func (p *placer) print(node int) { p.out = append(p.out, p.names[node]) }

// chainEnd follows next (or prev) links from s to the end of its chain and
// returns the end and the number of steps. Links that loop (where gprof
// never returns) are cut after as many steps as there are nodes.
func (p *placer) chainEnd(s int, forward bool) (end, steps int) {
	links := p.prev
	if forward {
		links = p.next
	}
	for ; links[s] >= 0 && steps < len(links); steps++ {
		s = links[s]
	}
	return s, steps
}

// nearerEnd returns the end of s's chain that takes fewer steps to reach;
// on a tie, the last node when tieLast, else the first.
func (p *placer) nearerEnd(s int, tieLast bool) int {
	last, nextSteps := p.chainEnd(s, true)
	first, prevSteps := p.chainEnd(s, false)
	if nextSteps < prevSteps || (nextSteps == prevSteps && tieLast) {
		return last
	}
	return first
}

// place is gprof's order_and_dump_functions_by_arcs: it chains the ends
// of the given arcs where it can, prints the chains it made, and (with
// all) the parents of the arcs it could not use. Without all, only the
// arcs making up the first 99% of the total count are used. Arcs it did
// not use are appended to *unplaced when unplaced is not nil.
func (p *placer) place(list []int, all bool, unplaced *[]int) {
	var total uint64
	if !all {
		for _, a := range list {
			total += p.arcs[a].count
		}
	}
	skip := func(a int) {
		if unplaced != nil {
			*unplaced = append(*unplaced, a)
		}
	}
	var sum uint64
	for _, ai := range list {
		a := &p.arcs[ai]
		sum += a.count
		if a.placed {
			continue
		}
		parent, child := a.parent, a.child
		// 0/0 is NaN, which is never above the limit.
		if (!all && float64(sum)/float64(total) > 0.99) || p.placed[child] || p.placed[parent] {
			skip(ai)
			continue
		}
		if p.next[parent] >= 0 && p.prev[parent] >= 0 && p.next[child] >= 0 && p.prev[child] >= 0 {
			skip(ai)
			continue
		}
		switch {
		case p.next[parent] < 0 && p.prev[parent] < 0:
			child = p.nearerEnd(child, false)
		case p.next[child] < 0 && p.prev[child] < 0:
			parent = p.nearerEnd(parent, true)
		default:
			skip(ai)
			continue
		}
		// Joining the two ends of one chain would close a loop.
		sym1, _ := p.chainEnd(parent, p.next[parent] >= 0)
		sym2, _ := p.chainEnd(child, p.next[child] >= 0)
		if sym1 == child && sym2 == parent {
			skip(ai)
			continue
		}
		switch {
		case p.next[parent] >= 0:
			if p.next[child] < 0 {
				p.prev[parent], p.next[child] = child, parent
				a.placed = true
			}
		case p.prev[parent] >= 0:
			if p.prev[child] < 0 {
				p.next[parent], p.prev[child] = child, parent
				a.placed = true
			}
		case p.prev[child] >= 0:
			p.prev[parent], p.next[child] = child, parent
			a.placed = true
		default:
			p.next[parent], p.prev[child] = child, parent
			a.placed = true
		}
	}

	// Print each chain from its head. A chain whose links loop (gprof
	// prints it forever) is printed once round.
	for _, ai := range list {
		a := &p.arcs[ai]
		if p.placed[a.parent] || p.placed[a.child] {
			continue
		}
		s := a.parent
		if p.next[s] < 0 && p.prev[s] < 0 {
			continue
		}
		s, _ = p.chainEnd(s, false)
		p.walk++
		for ; s >= 0 && p.seen[s] != p.walk; s = p.next[s] {
			p.seen[s] = p.walk
			p.placed[s] = true
			p.print(s)
		}
	}
	if !all {
		return
	}
	for _, ai := range list {
		a := &p.arcs[ai]
		if p.placed[a.parent] || p.placed[a.child] {
			continue
		}
		p.placed[a.parent] = true
		p.print(a.parent)
	}
}

// FunctionOrder returns the raw symbol names in the order gprof's -r
// prints them (cg_print_function_ordering):
//
//  1. Functions called from many sites: the children of the arcs making
//     up the first 90% of all calls get a use count; of the called
//     functions, at most one in 80, the most used first, are taken (the
//     walk stops at a use count of exactly 5). Those not joined by an arc
//     to another taken one (or to an uncalled function) are printed, all
//     but the last one taken, which is never printed anywhere.
//  2. Chains over the arcs among the taken functions, then over all arcs
//     up to 99% of the calls, then over the arcs left over.
//  3. Called functions still not placed, in address order.
//  4. Functions never called, in address order.
func FunctionOrder(g *callgraph.Graph) []string {
	p, realArc := newPlacer(g)
	n := g.NumSyms
	var used, unused []int
	for i := 0; i < n; i++ {
		if g.Entries[i].NCalls == 0 {
			unused = append(unused, i)
			p.placed[i] = true
		} else {
			used = append(used, i)
		}
	}

	arcs := make([]int, len(p.arcs))
	for k := range arcs {
		arcs[k] = k
	}
	sort.SliceStable(arcs, func(a, b int) bool { return p.arcs[arcs[a]].count > p.arcs[arcs[b]].count })
	var total uint64
	for _, a := range arcs {
		total += p.arcs[a].count
	}
	var sum uint64
	for _, a := range arcs {
		sum += p.arcs[a].count
		if float64(sum)/float64(total) > 0.90 {
			break
		}
		p.nuses[p.arcs[a].child]++
	}

	byUse := append([]int(nil), used...)
	sort.SliceStable(byUse, func(a, b int) bool { return p.nuses[byUse[a]] > p.nuses[byUse[b]] })
	var scratch []int
	lastTaken := 0
	for k := 0; k < len(used)/80; k++ {
		s := byUse[k]
		if p.nuses[s] == 5 {
			break
		}
		// gprof's lists hold the newest arc first.
		e := &g.Entries[s]
		for j := len(e.Children) - 1; j >= 0; j-- {
			if a := realArc[e.Children[j]]; a >= 0 {
				scratch = append(scratch, a)
				p.arcs[a].placed = true
			}
		}
		for j := len(e.Parents) - 1; j >= 0; j-- {
			if a := realArc[e.Parents[j]]; a >= 0 {
				scratch = append(scratch, a)
				p.arcs[a].placed = true
			}
		}
		lastTaken = k
		p.placed[s] = true
	}
	var high []int
	for _, a := range scratch {
		pa := &p.arcs[a]
		if p.placed[pa.child] && p.placed[pa.parent] {
			high = append(high, a)
			p.placed[pa.child], p.placed[pa.parent] = false, false
		}
	}
	for k := 0; k < lastTaken; k++ {
		if p.placed[byUse[k]] {
			p.print(byUse[k])
		}
	}

	sort.SliceStable(high, func(a, b int) bool { return p.arcs[high[a]].count > p.arcs[high[b]].count })
	var unplaced []int
	p.place(high, true, &unplaced)
	p.place(arcs, false, &unplaced)
	p.place(unplaced, true, nil)

	for _, i := range used {
		if !p.placed[i] {
			p.print(i)
		}
	}
	for _, i := range unused {
		p.print(i)
	}
	return p.out
}

// FileOrder returns the lines of gprof's -R output (cg_print_file_ordering):
// chains over the arcs between mapped symbols (in creation order, up to 99%
// of their calls), the mapped symbols not placed by them in address order,
// and then, sorted, the mapping's files that have no symbol in the table.
// m may be nil.
func FileOrder(g *callgraph.Graph, m *symtab.FunctionMap) []string {
	p, _ := newPlacer(g)
	arcs := make([]int, len(p.arcs))
	for k := range arcs {
		arcs[k] = k
		a := &p.arcs[k]
		if !p.mapped[a.parent] || !p.mapped[a.child] {
			a.placed = true
		}
	}
	p.place(arcs, false, nil)
	named := map[string]bool{}
	for i := 0; i < g.NumSyms; i++ {
		if p.mapped[i] {
			named[p.names[i]] = true
			if !p.placed[i] {
				p.print(i)
			}
		}
	}
	if m != nil {
		files := m.FileNames()
		for k, f := range files {
			if k > 0 && f == files[k-1] {
				continue
			}
			if !named[f] {
				p.out = append(p.out, f)
			}
		}
	}
	return p.out
}
