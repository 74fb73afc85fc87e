package render

import (
	"path"
	"sort"
	"strings"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/symtab"
)

// This file prints gprof's two link-order suggestions: -r, a function
// order, and -R, an object-file order. Both are decided while printing in
// gprof (cg_print.c), by a greedy placement that chains the two ends of
// heavily used arcs; the placement is reproduced here step by step,
// including its oddities, because every one of them shows in the output.
//
// gprof runs the placement over its array of all arcs. Besides the arcs of
// the profile (self-calls excluded) that array holds zero-count arcs its
// symspec parser creates for every FROM/TO option, between private copies
// of the matching symbols; those copies can be chained and printed like
// real symbols (so "-r -k main/fib" prints main and fib twice). SpecArcs
// rebuilds them.

// SpecArcs are the zero-count arcs gprof's symspec parser adds for every
// option argument that contains a '/', with the private symbol copies they
// join. Build them with NewSpecArcs.
type SpecArcs struct {
	copies []specCopy
	arcs   [][2]int // parent and child copy, in creation order
}

// specCopy is one copy of a run of consecutive matching symbols, as its
// table slot holds it once gprof has finalised the table.
type specCopy struct {
	name   string
	mapped bool
	next   int // copy the slot's chain link points to, or -1
}

// slotContent is what gprof copies into a table slot: the run's first
// symbol with the run's address range and the link to the previous run of
// the same spec.
type slotContent struct {
	sym      int // symbol index of the run's first symbol
	lo, hi   uint64
	next     int // slot index in the same table, or -1
	children []int
}

// specSide is one half of a symspec, parsed as gprof parses it.
type specSide struct {
	file    string // basename, if a file was given
	hasFile bool
	line    int
	name    string
}

// runtimeNames returns the profiling runtime's functions that gprof adds
// to three of its symspec tables before reading the profiles.
func runtimeNames() []string {
	return []string{"_gprof_mcount", "mcount", "_mcount", "__mcount", "__mcount_internal", "__mcleanup"}
}

// NewSpecArcs rebuilds the arcs gprof's symspec parser adds between its
// copies of the symbols that the FROM and TO halves of each spec match.
// specs are the command line's symspecs in order; the runtime functions
// gprof excludes by default are added here as gprof adds them, since they
// share tables with the user's specs.
func NewSpecArcs(tab *symtab.Table, specs []callgraph.SpecUse) *SpecArcs {
	all := append([]callgraph.SpecUse(nil), specs...)
	for _, n := range runtimeNames() {
		all = append(all, callgraph.SpecUse{Table: callgraph.ExclTime, Spec: n},
			callgraph.SpecUse{Table: callgraph.ExclGraph, Spec: n},
			callgraph.SpecUse{Table: callgraph.ExclFlat, Spec: n})
	}
	sa := &SpecArcs{}
	anyArc := false
	for _, u := range all {
		anyArc = anyArc || strings.Contains(u.Spec, "/")
	}
	if !anyArc {
		return sa
	}

	// gprof keeps its spec list newest first.
	type id struct {
		table       callgraph.TableID
		left, right specSide
		hasRight    bool
	}
	ids := make([]id, 0, len(all))
	for k := len(all) - 1; k >= 0; k-- {
		s := all[k].Spec
		d := id{table: all[k].Table}
		if sl := strings.IndexByte(s, '/'); sl >= 0 {
			d.right, d.hasRight = parseSpecSide(s[sl+1:]), true
			s = s[:sl]
		}
		d.left = parseSpecSide(s)
		ids = append(ids, d)
	}
	match := newSpecMatcher(tab)

	// Second pass of gprof's parser: walk the symbols, extending each
	// spec's current run or opening a new slot for it.
	type run struct{ prev, slot, first int }
	tables := map[callgraph.TableID][]slotContent{}
	var rights []slotContent
	lefts := make([]run, len(ids))
	rightRuns := make([]run, len(ids))
	for k := range ids {
		lefts[k] = run{prev: -2, first: -1}
		rightRuns[k] = run{prev: -2, first: -1}
	}
	extend := func(r *run, slots *[]slotContent, i int) {
		s := &tab.Syms[i]
		if r.prev != i-1 {
			*slots = append(*slots, slotContent{sym: i, lo: s.Addr, next: r.first})
			r.slot = len(*slots) - 1
			r.first = r.slot
		}
		(*slots)[r.slot].hi = s.End
		r.prev = i
	}
	for i := range tab.Syms {
		for k := range ids {
			if match(&ids[k].left, i) {
				ts := tables[ids[k].table]
				extend(&lefts[k], &ts, i)
				tables[ids[k].table] = ts
			}
			if ids[k].hasRight && match(&ids[k].right, i) {
				extend(&rightRuns[k], &rights, i)
			}
		}
	}

	// Arcs from every FROM copy to every TO copy, each chain walked from
	// its newest copy. An arc whose child range lies inside an existing
	// arc's child range of the same parent only adds its count (0).
	type arcEnd struct {
		table callgraph.TableID
		slot  int
	}
	var raw [][2]arcEnd
	for k := range ids {
		if !ids[k].hasRight {
			continue
		}
		ts := tables[ids[k].table]
		for l := lefts[k].first; l >= 0; l = ts[l].next {
			for r := rightRuns[k].first; r >= 0; r = rights[r].next {
				if containsChild(ts[l].children, rights, r) {
					continue
				}
				ts[l].children = append(ts[l].children, r)
				raw = append(raw, [2]arcEnd{{ids[k].table, l}, {-1, r}})
			}
		}
	}
	if len(raw) == 0 {
		return sa
	}

	// Copies become nodes: every slot of each table an arc starts in
	// (after gprof's finalisation moved the slots' contents), then the
	// TO slots, which are never moved.
	base := map[callgraph.TableID]int{}
	var tableOrder []callgraph.TableID
	for _, a := range raw {
		if _, ok := base[a[0].table]; !ok {
			base[a[0].table] = -1
			tableOrder = append(tableOrder, a[0].table)
		}
	}
	sort.Slice(tableOrder, func(a, b int) bool { return tableOrder[a] < tableOrder[b] })
	for _, tid := range tableOrder {
		base[tid] = len(sa.copies)
		for _, c := range finalizedSlots(tab, tables[tid]) {
			sa.copies = append(sa.copies, copyNode(tab, c, base[tid]))
		}
	}
	rightBase := len(sa.copies)
	for _, c := range rights {
		sa.copies = append(sa.copies, copyNode(tab, c, rightBase))
	}
	for _, a := range raw {
		sa.arcs = append(sa.arcs, [2]int{base[a[0].table] + a[0].slot, rightBase + a[1].slot})
	}
	return sa
}

func copyNode(tab *symtab.Table, c slotContent, base int) specCopy {
	s := &tab.Syms[c.sym]
	n := specCopy{name: s.Name, mapped: s.Mapped, next: -1}
	if c.next >= 0 {
		n.next = base + c.next
	}
	return n
}

// containsChild is gprof's arc lookup for a copy: whether one of the
// parent's children covers the range of TO slot r.
func containsChild(children []int, rights []slotContent, r int) bool {
	for _, c := range children {
		if rights[r].lo >= rights[c].lo && rights[r].hi <= rights[c].hi {
			return true
		}
	}
	return false
}

// finalizedSlots returns a table's slot contents after gprof's
// finalisation: sorted by address, one slot per address (by symbol
// preference), runs with an empty range dropped, and the slots past the
// new end left holding what the sort put there.
func finalizedSlots(tab *symtab.Table, slots []slotContent) []slotContent {
	sorted := append([]slotContent(nil), slots...)
	sort.SliceStable(sorted, func(a, b int) bool {
		x, y := &tab.Syms[sorted[a].sym], &tab.Syms[sorted[b].sym]
		if sorted[a].lo != sorted[b].lo {
			return sorted[a].lo < sorted[b].lo
		}
		if x.IsFunc != y.IsFunc {
			return x.IsFunc
		}
		return !x.IsStatic && y.IsStatic
	})
	out := append([]slotContent(nil), sorted...)
	dst := 0
	prevAddr := sorted[0].lo - 1
	for _, src := range sorted {
		if src.lo == prevAddr && dst > 0 {
			kept := tab.Syms[out[dst-1].sym]
			newcomer := tab.Syms[src.sym]
			if symtab.Prefer(&newcomer, &kept) {
				out[dst-1] = src
			}
			continue
		}
		if dst > 0 && out[dst-1].hi == 0 {
			out[dst-1].hi = src.lo - 1
		}
		if src.hi == 0 || src.lo <= src.hi {
			out[dst] = src
			dst++
			prevAddr = src.lo
		}
	}
	return out
}

// parseSpecSide reads FILE:FUNC, FILE:LINE, FILE.c, LINE or FUNC as gprof
// does: a colon splits at its last occurrence; without one, a dot makes a
// file name and a leading digit a line number.
func parseSpecSide(s string) specSide {
	var p specSide
	setTail := func(t string) {
		if t == "" {
			return
		}
		if t[0] >= '0' && t[0] <= '9' {
			p.line = leadingInt(t)
		} else {
			p.name = t
		}
	}
	if c := strings.LastIndexByte(s, ':'); c >= 0 {
		if c > 0 {
			p.file, p.hasFile = s[:c], true
		}
		setTail(s[c+1:])
		return p
	}
	if strings.Contains(s, ".") {
		p.file, p.hasFile = s, true
		return p
	}
	setTail(s)
	return p
}

// leadingInt is C's atoi on a string that starts with a digit.
func leadingInt(s string) int {
	n := 0
	for i := 0; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		n = n*10 + int(s[i]-'0')
		if n > 1<<31-1 {
			return 0
		}
	}
	return n
}

// newSpecMatcher returns gprof's test of a spec half against symbol i. A
// file is known by the basename of a symbol's source file (the first
// symbol with that basename decides which path it stands for); a file gprof
// does not know matches nothing.
func newSpecMatcher(tab *symtab.Table) func(p *specSide, i int) bool {
	var known map[string]string
	return func(p *specSide, i int) bool {
		if p.hasFile || p.line != 0 {
			loc, ok := tab.SymbolSource(i)
			if p.hasFile {
				if known == nil {
					known = map[string]string{}
					for k := range tab.Syms {
						if l, ok := tab.SymbolSource(k); ok {
							b := path.Base(l.File)
							if _, dup := known[b]; !dup {
								known[b] = l.File
							}
						}
					}
				}
				full, exists := known[p.file]
				if !exists || !ok || loc.File != full {
					return false
				}
			}
			if p.line != 0 && (!ok || loc.Line != p.line) {
				return false
			}
		}
		return p.name == "" || p.name == tab.Syms[i].Name
	}
}

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
func newPlacer(g *callgraph.Graph, sa *SpecArcs) (p *placer, realArc []int) {
	n := g.NumSyms
	total := n
	if sa != nil {
		total += len(sa.copies)
	}
	p = &placer{
		names:  make([]string, total),
		mapped: make([]bool, total),
		placed: make([]bool, total),
		next:   make([]int, total),
		prev:   make([]int, total),
		nuses:  make([]int, total),
		seen:   make([]int, total),
	}
	for i := 0; i < n; i++ {
		s := &g.Syms.Syms[i]
		p.names[i], p.mapped[i] = s.Name, s.Mapped
		p.next[i], p.prev[i] = -1, -1
	}
	if sa != nil {
		for k, c := range sa.copies {
			p.names[n+k], p.mapped[n+k] = c.name, c.mapped
			p.next[n+k], p.prev[n+k] = -1, -1
			if c.next >= 0 {
				p.next[n+k] = n + c.next
			}
		}
		for _, a := range sa.arcs {
			p.arcs = append(p.arcs, placeArc{parent: n + a[0], child: n + a[1]})
		}
	}
	realArc = make([]int, len(g.Arcs))
	for k := range g.Arcs {
		a := &g.Arcs[k]
		if a.Parent == a.Child {
			realArc[k] = -1
			continue
		}
		realArc[k] = len(p.arcs)
		p.arcs = append(p.arcs, placeArc{parent: a.Parent, child: a.Child, count: a.Count})
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
			last, nextSteps := p.chainEnd(child, true)
			first, prevSteps := p.chainEnd(child, false)
			if nextSteps < prevSteps {
				child = last
			} else {
				child = first
			}
		case p.next[child] < 0 && p.prev[child] < 0:
			last, nextSteps := p.chainEnd(parent, true)
			first, prevSteps := p.chainEnd(parent, false)
			if prevSteps < nextSteps {
				parent = first
			} else {
				parent = last
			}
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
//
// sa may be nil when no symspec has a '/'.
func FunctionOrder(g *callgraph.Graph, sa *SpecArcs) []string {
	p, realArc := newPlacer(g, sa)
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
// sa may be nil when no symspec has a '/'.
func FileOrder(g *callgraph.Graph, m *symtab.FunctionMap, sa *SpecArcs) []string {
	p, _ := newPlacer(g, sa)
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

// FunctionOrdering writes -r's suggested function order, one raw name per
// line, with no heading or separator.
func (t *Text) FunctionOrdering(sa *SpecArcs) {
	for _, name := range FunctionOrder(t.g, sa) {
		t.w.WriteString(name)
		t.w.WriteByte('\n')
	}
}

// FileOrdering writes -R's suggested object-file order, one name per line,
// with no heading or separator.
func (t *Text) FileOrdering(m *symtab.FunctionMap, sa *SpecArcs) {
	for _, name := range FileOrder(t.g, m, sa) {
		t.w.WriteString(name)
		t.w.WriteByte('\n')
	}
}
