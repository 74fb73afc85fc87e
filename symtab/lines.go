package symtab

import (
	"fmt"
	"sync"

	"github.com/egprof/egprof/symtab/internal/bfd"
)

// SourceLoc is a source position as gprof knows it: the file name as BFD
// builds it from DWARF (directory and name joined, not cleaned) and the
// line.
type SourceLoc struct {
	File string
	Line int
}

// sourceState holds the DWARF line information and the source position of
// every function symbol, found the first time a position is needed.
type sourceState struct {
	lines *bfd.Lines
	// bySymIndex holds the position of each kept function symbol, keyed by
	// its .symtab index.
	bySymIndex map[int]SourceLoc
}

// sourceHolder loads the source state once.
type sourceHolder struct {
	once sync.Once
	st   *sourceState
	err  error
}

// source loads the line information and looks up every function symbol in
// .symtab order, as gprof does while building its symbol table.
func (t *Table) source() (*sourceState, error) {
	h := t.src
	if h == nil {
		return &sourceState{}, nil
	}
	h.once.Do(func() {
		st := &sourceState{bySymIndex: map[int]SourceLoc{}}
		if t.file != nil {
			st.lines, h.err = bfd.Load(t.file)
		}
		if st.lines != nil {
			for _, s := range t.kept {
				if file, _, line, ok := st.lines.Find(s.Addr); ok {
					st.bySymIndex[s.symIndex] = SourceLoc{File: file, Line: line}
				}
			}
		}
		h.st = st
	})
	return h.st, h.err
}

// SymbolSource returns the source position of symbol i, or false without
// debug information for it.
func (t *Table) SymbolSource(i int) (SourceLoc, bool) {
	s := &t.Syms[i]
	if s.IsLine {
		return s.Src, true
	}
	st, err := t.source()
	if err != nil {
		return SourceLoc{}, false
	}
	loc, ok := st.bySymIndex[s.symIndex]
	return loc, ok
}

// WithLineSymbols returns the symbol table of gprof's -l: the function
// symbols plus one line symbol wherever the (function, file, line) of the
// code changes, walking .text one byte at a time as gprof does. Without
// line information the table is returned unchanged.
func (t *Table) WithLineSymbols() (*Table, error) {
	st, err := t.source()
	if err != nil {
		return nil, err
	}
	if st.lines == nil {
		// gprof still rebuilds its table, which drops a symbol whose
		// range is empty (data_start in ordinary executables).
		nt := *t
		nt.setSyms(finalize(append([]Symbol(nil), t.Syms...), t.TextEnd))
		return &nt, nil
	}
	// gprof walks the text twice, counting and then creating, and fails
	// when BFD's answers changed between the walks; the walks are repeated
	// here so that the same failure shows.
	count := t.walkLines(st, nil)
	var lineSyms []Symbol
	made := t.walkLines(st, &lineSyms)
	if made != count {
		return nil, fmt.Errorf("somebody miscounted: ltab.len=%d instead of %d", count+len(t.Syms), made+len(t.Syms))
	}
	all := make([]Symbol, 0, len(lineSyms)+len(t.Syms))
	all = append(all, lineSyms...)
	all = append(all, t.Syms...)
	nt := *t
	nt.setSyms(finalize(all, t.TextEnd))
	return &nt, nil
}

// walkLines visits every byte of .text and counts (or, with out, creates)
// the line symbols.
func (t *Table) walkLines(st *sourceState, out *[]Symbol) int {
	n := 0
	var prev *Symbol
	var prevName, prevFile string
	prevLine := 0
	havePrev := false
	for addr := t.TextLow; addr <= t.TextEnd; addr++ {
		file, fn, line, ok := st.lines.Find(addr)
		if !ok {
			continue
		}
		if havePrev && line == prevLine && fn == prevName && file == prevFile {
			continue
		}
		n++
		if out != nil {
			s := Symbol{Name: fn, Addr: addr, IsLine: true, Src: SourceLoc{File: file, Line: line}, symIndex: -1}
			if prev != nil && prev.Src.File == file && prev.Name == fn {
				s.IsStatic = prev.IsStatic
			} else if k := t.Lookup(addr); k >= 0 {
				s.IsStatic = t.Syms[k].IsStatic
			}
			*out = append(*out, s)
			prev = &(*out)[len(*out)-1]
		}
		havePrev, prevName, prevFile, prevLine = true, fn, file, line
	}
	return n
}
