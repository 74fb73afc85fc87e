package callgraph

import (
	"path"
	"sort"
	"strings"

	"github.com/egprof/egprof/internal/cnum"
	"github.com/egprof/egprof/symtab"
)

// TableID names one of gprof's symbol tables that options fill with
// symspecs.
type TableID int

// The symspec tables, as gprof's options fill them.
const (
	InclGraph TableID = iota // -f, -F, -q SPEC
	ExclGraph                // -e, -E, -Q SPEC
	InclArcs                 // -q FROM/TO
	ExclArcs                 // -k FROM/TO, -Q FROM/TO
	InclFlat                 // -p SPEC
	ExclFlat                 // -P SPEC
	InclTime                 // -F, -n
	ExclTime                 // -E, -N
	InclAnno                 // -A SPEC
	ExclAnno                 // -J SPEC
	InclExec                 // -C SPEC
	ExclExec                 // -Z SPEC
	numTables
)

// SpecUse is one symspec given on the command line and the table it goes
// to.
type SpecUse struct {
	Table TableID
	Spec  string
}

// specPart is one side of a symspec: a file, a line, a function name, each
// optional.
type specPart struct {
	file     string // basename to match; "" for any
	noFile   bool   // a file was named but no such source file exists
	line     int    // 0 for any; what C's atoi made of the digits
	name     string // raw symbol name; "" for any
	fileSpec bool   // a file was given
}

// parseSpecPart reads FILE:NAME, FILE:LINE, FILE:, :NAME, FILE.c, LINE or
// NAME, as gprof does: a colon splits at its last occurrence; without one,
// a dot makes it a file and a leading digit a line.
func parseSpecPart(s string) specPart {
	var p specPart
	if c := strings.LastIndexByte(s, ':'); c >= 0 {
		if c > 0 {
			p.file, p.fileSpec = s[:c], true
		}
		s = s[c+1:]
		if s != "" {
			if s[0] >= '0' && s[0] <= '9' {
				p.line = int(cnum.Atoi(s))
			} else {
				p.name = s
			}
		}
		return p
	}
	switch {
	case s == "":
	case strings.Contains(s, "."):
		p.file, p.fileSpec = s, true
	case s[0] >= '0' && s[0] <= '9':
		p.line = int(cnum.Atoi(s))
	default:
		p.name = s
	}
	return p
}

// Range is an inclusive address range of a symspec table.
type Range struct {
	Lo, Hi uint64
	// to lists, for a range made by the FROM side of a FROM/TO spec, the
	// ranges of the TO side it has arcs to.
	to []Range
}

// RangeTable is a finished symspec table: address-sorted ranges.
type RangeTable []Range

// Contains reports whether addr lies in one of the table's ranges, with
// gprof's lookup.
func (t RangeTable) Contains(addr uint64) bool {
	return symtab.LookupRanges(len(t), func(i int) (uint64, uint64) { return t[i].Lo, t[i].Hi }, addr) >= 0
}

// HasArc reports whether an arc from symbol from to symbol to matches a
// FROM/TO table, as gprof's sym_id_arc_is_present decides: from's address
// lies in a FROM range that has an arc to a TO range holding the whole of
// to.
func (t RangeTable) HasArc(from, to *symtab.Symbol) bool {
	for i := range t {
		r := &t[i]
		if from.Addr < r.Lo || from.Addr > r.Hi {
			continue
		}
		for _, d := range r.to {
			if to.Addr >= d.Lo && to.End <= d.Hi {
				return true
			}
		}
	}
	return false
}

// Tables holds every symspec table, resolved against a symbol table.
type Tables [numTables]RangeTable

// SpecArcs are the zero-count arcs gprof's symspec parser adds for every
// FROM/TO spec: from each copy of a run of symbols matching FROM to each
// copy of a run matching TO. gprof keeps the copies in its symspec tables
// and the arcs in its array of all arcs, so -r and -R place and print the
// copies like symbols (and "-r -k main/fib" prints main and fib twice).
type SpecArcs struct {
	// Copies are the slots the arcs join: all slots of each FROM table
	// holding an arc's start, in table order, as gprof's finalisation left
	// them (a slot past the table's new end still holds what the sort put
	// there); then the TO slots, which are never sorted.
	Copies []SpecCopy
	// Arcs are in creation order.
	Arcs []SpecArc
}

// SpecCopy is a table slot: a copy of the first symbol of a run, under
// that symbol's name.
type SpecCopy struct {
	Sym int // index of the symbol copied
	// Next is the copy the slot's link points to, or -1. The link chains
	// the runs of one spec side; -r's placement reads the same field as
	// its chain of placed symbols.
	Next int
}

// SpecArc is a zero-count arc between two copies, given by their indexes
// in SpecArcs.Copies.
type SpecArc struct{ Parent, Child int }

// parsedSpec is a symspec as gprof's parse_id leaves it.
type parsedSpec struct {
	table       TableID
	left, right specPart
	hasRight    bool
}

// slot is what gprof's second pass writes into a table slot: a copy of a
// run's first symbol with the run's address range, the link to the
// previous run of the same spec side, and, for a FROM slot, the TO slots
// it has arcs to.
type slot struct {
	sym      int // symbol index of the run's first symbol
	lo, hi   uint64
	next     int // slot index in the same table, or -1
	children []int
}

// matchRun is gprof's struct match: the last symbol matched, the slot of
// the current run and the newest slot of the spec side.
type matchRun struct{ prev, slot, first int }

// extend is gprof's extend_match: symbol i continues the current run or
// opens a new slot linked to the previous one.
func (m *matchRun) extend(tab *symtab.Table, slots *[]slot, i int) {
	s := &tab.Syms[i]
	if m.prev != i-1 {
		*slots = append(*slots, slot{sym: i, lo: s.Addr, next: m.first})
		m.slot = len(*slots) - 1
		m.first = m.slot
	}
	(*slots)[m.slot].hi = s.End
	m.prev = i
}

// ResolveSpecs turns symspecs into address ranges over the symbol table,
// the way gprof's sym_id_parse does: runs of consecutive matching symbols
// become one range; a FROM/TO spec links every FROM run to every TO run.
// It also returns those links as the arcs between copies that gprof's
// placement (-r, -R) sees.
func ResolveSpecs(tab *symtab.Table, specs []SpecUse) (Tables, SpecArcs) {
	if len(specs) == 0 {
		return Tables{}, SpecArcs{}
	}
	ids := parseSpecs(tab, specs)
	match := func(p *specPart, i int) bool {
		if p.noFile {
			return false
		}
		if p.fileSpec || p.line != 0 {
			loc, ok := tab.SymbolSource(i)
			if p.fileSpec && (!ok || loc.File != p.file) {
				return false
			}
			if p.line != 0 && (!ok || loc.Line != p.line) {
				return false
			}
		}
		return p.name == "" || p.name == tab.Syms[i].Name
	}

	// gprof's second pass: for each symbol, each spec in list order.
	var slots [numTables][]slot
	var rights []slot
	lefts := make([]matchRun, len(ids))
	rightRuns := make([]matchRun, len(ids))
	for k := range ids {
		lefts[k] = matchRun{prev: -2, first: -1}
		rightRuns[k] = matchRun{prev: -2, first: -1}
	}
	names := specNames(ids)
	for i := range tab.Syms {
		if names != nil {
			if _, ok := names[tab.Syms[i].Name]; !ok {
				continue // no spec matches the symbol
			}
		}
		for k := range ids {
			if match(&ids[k].left, i) {
				lefts[k].extend(tab, &slots[ids[k].table], i)
			}
			if ids[k].hasRight && match(&ids[k].right, i) {
				rightRuns[k].extend(tab, &rights, i)
			}
		}
	}

	// Arcs from every FROM slot to every TO slot, each chain walked from
	// its newest slot. gprof's arc_add first looks the arc up: one whose
	// TO range lies inside the range of an arc the FROM slot already has
	// only adds its count (0).
	type rawArc struct {
		table    TableID
		from, to int
	}
	var raw []rawArc
	for k := range ids {
		if !ids[k].hasRight {
			continue
		}
		ts := slots[ids[k].table]
		for l := lefts[k].first; l >= 0; l = ts[l].next {
			for r := rightRuns[k].first; r >= 0; r = rights[r].next {
				if coveredBy(ts[l].children, rights, r) {
					continue
				}
				ts[l].children = append(ts[l].children, r)
				raw = append(raw, rawArc{ids[k].table, l, r})
			}
		}
	}

	var tables Tables
	for t := range slots {
		kept := finalizeSlots(tab, slots[t])
		tables[t] = rangeTable(slots[t][:kept], rights)
	}
	if len(raw) == 0 {
		return tables, SpecArcs{}
	}

	var sa SpecArcs
	addCopies := func(ss []slot) int {
		base := len(sa.Copies)
		for _, s := range ss {
			c := SpecCopy{Sym: s.sym, Next: -1}
			if s.next >= 0 {
				c.Next = base + s.next
			}
			sa.Copies = append(sa.Copies, c)
		}
		return base
	}
	var base [numTables]int
	for _, a := range raw {
		base[a.table] = -1
	}
	for t := range base {
		if base[t] < 0 {
			base[t] = addCopies(slots[t])
		}
	}
	rightBase := addCopies(rights)
	for _, a := range raw {
		sa.Arcs = append(sa.Arcs, SpecArc{Parent: base[a.table] + a.from, Child: rightBase + a.to})
	}
	return tables, sa
}

// specNames returns the names the specs match when each of their parts
// names a symbol or a missing file (as gprof's default exclusions do):
// then no other symbol matches any spec. It returns nil when some part
// can match any name.
func specNames(ids []parsedSpec) map[string]struct{} {
	names := make(map[string]struct{}, 2*len(ids))
	add := func(p *specPart) bool {
		if p.noFile {
			return true
		}
		if p.name == "" {
			return false
		}
		names[p.name] = struct{}{}
		return true
	}
	for k := range ids {
		if !add(&ids[k].left) || ids[k].hasRight && !add(&ids[k].right) {
			return nil
		}
	}
	return names
}

// parseSpecs parses the symspecs into gprof's list, which holds the newest
// first, and looks up the files they name. Source files are known by the
// basename of a symbol's source file (the first symbol with that basename
// decides which path it stands for); a file gprof does not know matches
// nothing.
func parseSpecs(tab *symtab.Table, specs []SpecUse) []parsedSpec {
	ids := make([]parsedSpec, 0, len(specs))
	needSource := false
	for k := len(specs) - 1; k >= 0; k-- {
		p := parsedSpec{table: specs[k].Table}
		l := specs[k].Spec
		if sl := strings.IndexByte(l, '/'); sl >= 0 {
			p.right, p.hasRight = parseSpecPart(l[sl+1:]), true
			l = l[:sl]
		}
		p.left = parseSpecPart(l)
		needSource = needSource || p.left.fileSpec || p.right.fileSpec
		ids = append(ids, p)
	}
	if !needSource {
		return ids
	}
	known := map[string]string{}
	for i := range tab.Syms {
		if loc, ok := tab.SymbolSource(i); ok {
			b := path.Base(loc.File)
			if _, dup := known[b]; !dup {
				known[b] = loc.File
			}
		}
	}
	lookup := func(p *specPart) {
		if !p.fileSpec {
			return
		}
		if full, ok := known[p.file]; ok {
			p.file = full
		} else {
			p.noFile = true
		}
	}
	for k := range ids {
		lookup(&ids[k].left)
		lookup(&ids[k].right)
	}
	return ids
}

// coveredBy is gprof's arc_lookup for a FROM slot: whether the range of
// TO slot r lies inside the range of one of the slot's children.
func coveredBy(children []int, rights []slot, r int) bool {
	for _, c := range children {
		if rights[r].lo >= rights[c].lo && rights[r].hi <= rights[c].hi {
			return true
		}
	}
	return false
}

// finalizeSlots is gprof's symtab_finalize on a symspec table, in place:
// the slots are sorted by address, one is kept per address (by symbol
// preference), an unset end becomes the next kept start minus one (the
// last one's the end of .text), and slots with an empty range are dropped.
// It returns the number kept; the slots past them keep what the sort put
// there, as gprof leaves them.
func finalizeSlots(tab *symtab.Table, slots []slot) int {
	if len(slots) == 0 {
		return 0
	}
	sort.SliceStable(slots, func(a, b int) bool { return symtab.AddrOrder(&tab.Syms[slots[a].sym], &tab.Syms[slots[b].sym]) })
	dst := 0
	prevAddr := slots[0].lo - 1
	for src := range slots {
		s := slots[src]
		if dst > 0 && s.lo == prevAddr {
			if symtab.Prefer(&tab.Syms[s.sym], &tab.Syms[slots[dst-1].sym]) {
				slots[dst-1] = s
			}
			continue
		}
		if dst > 0 && slots[dst-1].hi == 0 {
			slots[dst-1].hi = s.lo - 1
		}
		if s.hi == 0 || s.lo <= s.hi {
			slots[dst] = s
			dst++
			prevAddr = s.lo
		}
	}
	if dst > 0 && slots[dst-1].hi == 0 {
		slots[dst-1].hi = tab.TextEnd
	}
	return dst
}

// rangeTable makes a finished table of kept slots.
func rangeTable(kept []slot, rights []slot) RangeTable {
	if len(kept) == 0 {
		return nil
	}
	out := make(RangeTable, len(kept))
	for k, s := range kept {
		out[k] = Range{Lo: s.lo, Hi: s.hi}
		for _, c := range s.children {
			out[k].to = append(out[k].to, Range{Lo: rights[c].lo, Hi: rights[c].hi})
		}
	}
	return out
}
