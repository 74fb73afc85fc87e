package callgraph

import (
	"path"
	"sort"
	"strconv"
	"strings"

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
	line     int    // 0 for any
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
				p.line = atoi(s)
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
		p.line = atoi(s)
	default:
		p.name = s
	}
	return p
}

// atoi is C's atoi: leading digits, anything else ignored.
func atoi(s string) int {
	end := 0
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(s[:end])
	if err != nil {
		return 0
	}
	return n
}

// Range is an inclusive address range of a symspec table.
type Range struct {
	Lo, Hi uint64
	// to lists, for the FROM side of a FROM/TO spec, the TO ranges this
	// range calls into.
	to []Range
	// the symbol that opened the range, for gprof's duplicate rule
	first symtab.Symbol
}

// RangeTable is a finished symspec table: address-sorted ranges.
type RangeTable []Range

// Contains reports whether addr lies in one of the table's ranges, with
// gprof's lookup.
func (t RangeTable) Contains(addr uint64) bool {
	return symtab.LookupRanges(len(t), func(i int) (uint64, uint64) { return t[i].Lo, t[i].Hi }, addr) >= 0
}

// HasArc reports whether an arc from symbol from to symbol to matches a
// FROM/TO table: from's address lies in a FROM range whose TO ranges hold
// the whole of to.
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

// sourceOf gives a symbol's source file (as DWARF records it) and line.
type sourceOf func(i int) (file string, line int, ok bool)

// ResolveSpecs turns symspecs into address ranges over the symbol table,
// the way gprof's sym_id_parse does: runs of consecutive matching symbols
// become one range; a FROM/TO spec links every FROM run to every TO run.
func ResolveSpecs(tab *symtab.Table, specs []SpecUse) Tables {
	var out Tables
	if len(specs) == 0 {
		return out
	}
	// Source files are known by basename; a named file gprof does not
	// know matches nothing.
	var known map[string]string
	src := func(i int) (string, int, bool) {
		loc, ok := tab.SymbolSource(i)
		return loc.File, loc.Line, ok
	}
	needSource := false
	type parsed struct {
		use      SpecUse
		left     specPart
		right    specPart
		hasRight bool
	}
	ps := make([]parsed, 0, len(specs))
	// gprof keeps its symspec list newest first.
	for k := len(specs) - 1; k >= 0; k-- {
		u := specs[k]
		p := parsed{use: u}
		l := u.Spec
		if sl := strings.IndexByte(l, '/'); sl >= 0 {
			p.right, p.hasRight = parseSpecPart(l[sl+1:]), true
			l = l[:sl]
		}
		p.left = parseSpecPart(l)
		if p.left.fileSpec || p.left.line != 0 || p.right.fileSpec || p.right.line != 0 {
			needSource = true
		}
		ps = append(ps, p)
	}
	if needSource {
		known = map[string]string{}
		for i := range tab.Syms {
			if f, _, ok := src(i); ok {
				b := path.Base(f)
				if _, dup := known[b]; !dup {
					known[b] = f
				}
			}
		}
		fix := func(p *specPart) {
			if p.fileSpec {
				full, ok := known[p.file]
				if !ok {
					p.noFile = true
				} else {
					p.file = full
				}
			}
		}
		for k := range ps {
			fix(&ps[k].left)
			fix(&ps[k].right)
		}
	}
	match := func(p *specPart, i int) bool {
		if p.noFile {
			return false
		}
		if p.fileSpec || p.line != 0 {
			f, l, ok := src(i)
			if p.fileSpec && (!ok || f != p.file) {
				return false
			}
			if p.line != 0 && (!ok || l != p.line) {
				return false
			}
		}
		return p.name == "" || p.name == tab.Syms[i].Name
	}
	type runs struct {
		list []Range
		prev int
	}
	lefts := make([]runs, len(ps))
	rights := make([]runs, len(ps))
	extend := func(r *runs, i int) {
		s := tab.Syms[i]
		if len(r.list) == 0 || r.prev != i-1 {
			r.list = append(r.list, Range{Lo: s.Addr, first: s})
		}
		r.list[len(r.list)-1].Hi = s.End
		r.prev = i
	}
	for k := range ps {
		lefts[k].prev, rights[k].prev = -2, -2
	}
	for i := range tab.Syms {
		for k := range ps {
			if match(&ps[k].left, i) {
				extend(&lefts[k], i)
			}
			if ps[k].hasRight && match(&ps[k].right, i) {
				extend(&rights[k], i)
			}
		}
	}
	var raw [numTables][]Range
	for k, p := range ps {
		for _, r := range lefts[k].list {
			if p.hasRight {
				r.to = append([]Range(nil), rights[k].list...)
			}
			raw[p.use.Table] = append(raw[p.use.Table], r)
		}
	}
	for t := range raw {
		out[t] = finalizeRanges(raw[t], tab.TextEnd)
	}
	return out
}

// finalizeRanges sorts a table, keeps one range per start address and drops
// empty ranges, as gprof finalises its symspec tables.
func finalizeRanges(rs []Range, textEnd uint64) RangeTable {
	if len(rs) == 0 {
		return nil
	}
	sort.SliceStable(rs, func(i, j int) bool { return symtab.AddrOrder(&rs[i].first, &rs[j].first) })
	var out RangeTable
	havePrev := false
	var prevAddr uint64
	for k := range rs {
		r := rs[k]
		if havePrev && r.Lo == prevAddr {
			if symtab.Prefer(&rs[k].first, &out[len(out)-1].first) {
				out[len(out)-1] = r
			}
			continue
		}
		if r.Hi != 0 && r.Lo > r.Hi {
			continue
		}
		out = append(out, r)
		havePrev, prevAddr = true, r.Lo
	}
	if len(out) > 0 && out[len(out)-1].Hi == 0 {
		out[len(out)-1].Hi = textEnd
	}
	return out
}
