package callgraph

import (
	"sort"

	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/symtab"
)

// MaxBlocks is how many distinct basic blocks one symbol keeps, as in
// gprof (its NBBS). Blocks of a symbol beyond that number are dropped.
const MaxBlocks = 10

// Block is one basic block: its address and its summed execution count.
type Block struct {
	Addr, Count uint64
}

// Blocks holds the basic-block counts of a profile (gmon tag-2 records)
// attached to the symbols whose ranges hold them. gprof attaches them only
// at line granularity (-l); without it they are ignored.
//
// A nil *Blocks is valid and holds no block.
type Blocks struct {
	bySym map[int][]Block
}

// AttachBlocks attaches each basic-block count to the symbol of tab whose
// range holds its address; counts outside every symbol are dropped. The
// counts are taken in the order given (first appearance first), so each
// symbol keeps its first MaxBlocks distinct addresses, counts summed per
// address.
//
// gprof marks a free slot with address 0. A block at address 0 (which no
// executable's text holds in practice) therefore never stays on its own:
// the next block of the symbol takes its slot over and adds to its count.
// The same happens here, so that lookups and listings stop where gprof's
// do.
func AttachBlocks(tab *symtab.Table, bbs []gmon.BBRecord) *Blocks {
	b := &Blocks{bySym: map[int][]Block{}}
	for _, r := range bbs {
		i := tab.Lookup(r.Addr)
		if i < 0 {
			continue
		}
		slots := b.bySym[i]
		for k := 0; k < MaxBlocks; k++ {
			if k == len(slots) {
				slots = append(slots, Block{Addr: r.Addr, Count: r.Count})
				break
			}
			if slots[k].Addr == 0 || slots[k].Addr == r.Addr {
				slots[k].Addr = r.Addr
				slots[k].Count += r.Count
				break
			}
		}
		b.bySym[i] = slots
	}
	return b
}

// Of returns the basic blocks of symbol i, in the order their addresses
// were first seen. The list stops before a block at address 0, as gprof's
// listings do.
func (b *Blocks) Of(i int) []Block {
	if b == nil {
		return nil
	}
	s := b.bySym[i]
	for k, bl := range s {
		if bl.Addr == 0 {
			return s[:k]
		}
	}
	return s
}

// Records lists every attached block as gprof writes them into gmon.sum:
// symbols in address order, each symbol's blocks in slot order.
func (b *Blocks) Records() []gmon.BBRecord {
	if b == nil {
		return nil
	}
	syms := make([]int, 0, len(b.bySym))
	for i := range b.bySym {
		syms = append(syms, i)
	}
	sort.Ints(syms)
	var out []gmon.BBRecord
	for _, i := range syms {
		for _, bl := range b.Of(i) {
			out = append(out, gmon.BBRecord{Addr: bl.Addr, Count: bl.Count})
		}
	}
	return out
}

// SourceLine is what the annotated-source listing knows about one line of
// a source file: the selected symbols whose position is that line.
type SourceLine struct {
	Line int // 1-based line number
	// Sym is the first symbol (lowest address) on the line.
	Sym int
	// IsFunc tells whether the first symbol is a function entry.
	IsFunc bool
	// Addr is the first symbol's address while it is alone on the line.
	// When further symbols share the line, gprof sets it to 0, and the -x
	// rule that compares it with the first block's address sees that 0;
	// Addr keeps that behaviour.
	Addr uint64
	// Calls is the sum of the calls of the line's symbols.
	Calls uint64
	// Blocks are the first symbol's basic blocks; those of the other
	// symbols on the line are not kept, as in gprof.
	Blocks []Block
}

// SourceFile is one source file of the annotated-source listing (-A).
type SourceFile struct {
	// Name is the path the debug information gives, not cleaned.
	Name string
	// Calls is the sum of the calls of the file's selected symbols.
	Calls uint64
	// Lines has one element per line up to the highest line holding a
	// selected symbol: Lines[k] is line k+1, nil where no symbol starts.
	Lines []*SourceLine
}

// TopLines returns at most n lines with calls, in the order of gprof's
// "Top N Lines" table: more calls first, then lower line number.
func (f *SourceFile) TopLines(n int) []*SourceLine {
	var out []*SourceLine
	for _, l := range f.Lines {
		if l != nil && l.Calls > 0 {
			out = append(out, l)
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].Calls != out[b].Calls {
			return out[a].Calls > out[b].Calls
		}
		return out[a].Line < out[b].Line
	})
	return out[:min(n, len(out))]
}

// AnnotationSelected reports whether symbol i is annotated by -A: it lies
// in the -A table, or there is no -A table and it is not in the -J table.
func (g *Graph) AnnotationSelected(i int) bool {
	t := &g.Tables
	addr := g.Syms.Syms[i].Addr
	return t[InclAnno].Contains(addr) || (len(t[InclAnno]) == 0 && !t[ExclAnno].Contains(addr))
}

// ExecCountSelected reports whether symbol i is listed by -C: it lies in
// the -C table, or there is no -C table and it is not in the -Z table.
func (g *Graph) ExecCountSelected(i int) bool {
	t := &g.Tables
	addr := g.Syms.Syms[i].Addr
	return t[InclExec].Contains(addr) || (len(t[InclExec]) == 0 && !t[ExclExec].Contains(addr))
}

// SourceFiles gathers, for each source file of files (in that order), the
// selected symbols (AnnotationSelected) per source line and the file's
// total calls, with the basic blocks of blocks. Files without a selected
// symbol are left out. A symbol belongs to the file and line its debug
// information gives (symtab.Table.SymbolSource); symbols without one, or
// whose file is not in files, are not annotated.
//
// Several symbols on one line are merged as gprof merges them: their calls
// are summed, and the first one's function flag and basic blocks are kept.
func (g *Graph) SourceFiles(files []string, blocks *Blocks) []SourceFile {
	type loc struct {
		file int
		line int
	}
	index := make(map[string]int, len(files))
	for k, f := range files {
		if _, dup := index[f]; !dup {
			index[f] = k
		}
	}
	locs := make([]loc, g.NumSyms)
	maxLine := make([]int, len(files))
	for i := 0; i < g.NumSyms; i++ {
		locs[i].file = -1
		src, ok := g.Syms.SymbolSource(i)
		if !ok || src.Line <= 0 {
			continue
		}
		k, known := index[src.File]
		if !known || !g.AnnotationSelected(i) {
			continue
		}
		locs[i] = loc{file: k, line: src.Line}
		maxLine[k] = max(maxLine[k], src.Line)
	}
	out := make([]SourceFile, len(files))
	for k, f := range files {
		out[k] = SourceFile{Name: f, Lines: make([]*SourceLine, maxLine[k])}
	}
	for i := 0; i < g.NumSyms; i++ {
		l := locs[i]
		if l.file < 0 {
			continue
		}
		sf := &out[l.file]
		calls := g.Entries[i].NCalls
		sf.Calls += calls
		switch cur := sf.Lines[l.line-1]; {
		case cur == nil:
			sym := &g.Syms.Syms[i]
			sf.Lines[l.line-1] = &SourceLine{
				Line: l.line, Sym: i, IsFunc: sym.IsFunc, Addr: sym.Addr,
				Calls: calls, Blocks: blocks.Of(i),
			}
		default:
			cur.Addr = 0
			cur.Calls += calls
		}
	}
	kept := out[:0]
	for _, sf := range out {
		if len(sf.Lines) > 0 {
			kept = append(kept, sf)
		}
	}
	return kept
}
