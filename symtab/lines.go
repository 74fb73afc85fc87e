package symtab

import (
	"cmp"
	"debug/elf"
	"fmt"
	"os"
	"slices"
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

// readSources reads the DWARF line information of f, mapping its large
// sections from file when it is not nil. An executable
// without .debug_info has no line information and no error; an error
// reading .debug_info is kept for WithLineSymbols, which reports it, and
// leaves every symbol without a source position.
func (t *Table) readSources(f *elf.File, file *os.File, syms bfd.RawSymbols) {
	lines, err := bfd.LoadWith(f, file, syms)
	if err != nil {
		t.linesErr = err
		return
	}
	t.lines = lines
	if lines == nil {
		return
	}
	readAltFile(lines, t.Path)
	t.sources = &sourceTable{lines: lines, kept: t.kept}
}

// sourceTable holds the source positions of a table's function symbols.
// They are looked up on first use (from the line information in memory,
// no file is read), all of them and in .symtab order, as gprof does while
// building its symbol table: BFD's answers can depend on the order of
// lookups. Outputs that show no source position never pay for them.
type sourceTable struct {
	once  sync.Once
	lines *bfd.Lines
	kept  []keptSym // in .symtab order, so by ascending symIndex
	// locs[k] is kept[k]'s position when found[k] (slices rather than a
	// map: fewer bytes, no hashing, and kept's order is the lookup's).
	locs  []SourceLoc
	found []bool
}

// lookUp looks the positions up, on the first call only.
func (st *sourceTable) lookUp() {
	st.once.Do(func() {
		st.locs = make([]SourceLoc, len(st.kept))
		st.found = make([]bool, len(st.kept))
		for k, s := range st.kept {
			if file, _, line, ok := st.lines.Find(s.addr); ok {
				st.locs[k], st.found[k] = SourceLoc{File: file, Line: line}, true
			}
		}
	})
}

// position returns the position of the kept symbol at .symtab index
// symIndex, looking every position up on the first call.
func (st *sourceTable) position(symIndex int) (SourceLoc, bool) {
	st.lookUp()
	k, ok := slices.BinarySearchFunc(st.kept, symIndex, func(s keptSym, i int) int { return cmp.Compare(s.symIndex, i) })
	if !ok || !st.found[k] {
		return SourceLoc{}, false
	}
	return st.locs[k], true
}

// SourcesErr reports that the source positions could not all be looked
// up, because the file was cut short under its mapped debug sections (see
// Options.MapDebugSections): the positions asked for after that are
// missing.
func (t *Table) SourcesErr() error {
	if err := t.lines.Err(); err != nil {
		return fmt.Errorf("%s: %w", t.Path, err)
	}
	return nil
}

// UnreadAltFile returns the name of the file of debug information shared
// by several programs (dwz -m, named by .gnu_debugaltlink) when the
// source positions looked up so far needed it and it was not found (see
// readAltFile), or "": some positions or names are then missing, as they
// are from gprof's (see bfd.Lines.UnreadAltFile).
func (t *Table) UnreadAltFile() string {
	return t.lines.UnreadAltFile()
}

// SymbolSource returns the source position of symbol i, or false without
// debug information for it.
func (t *Table) SymbolSource(i int) (SourceLoc, bool) {
	s := &t.Syms[i]
	if s.IsLine {
		return s.Src, true
	}
	if t.sources == nil {
		return SourceLoc{}, false
	}
	return t.sources.position(s.symIndex)
}

// FunctionSourceFiles returns the source files of the function symbols'
// positions, each once, in the order gprof first meets them: the order of
// the executable's symbol table, over the symbols gprof keeps, aliases
// included (core_create_function_syms). Symbols gprof leaves out, such as
// the "$x" and "$d" mapping symbols of Arm and RISC-V code, play no part
// even where they share a kept symbol's address.
func (t *Table) FunctionSourceFiles() []string {
	if t.sources == nil {
		return nil
	}
	st := t.sources
	st.lookUp()
	var files []string
	seen := map[string]bool{}
	for k, loc := range st.locs {
		if st.found[k] && !seen[loc.File] {
			seen[loc.File] = true
			files = append(files, loc.File)
		}
	}
	return files
}

// WithLineSymbols returns the symbol table of gprof's -l: the function
// symbols plus one line symbol wherever the (function, file, line) of the
// code changes, walking .text one byte at a time as gprof does, over the
// line information read by Load (no file is read). Without line
// information the table is returned unchanged.
func (t *Table) WithLineSymbols() (*Table, error) {
	if t.linesErr != nil {
		return nil, t.linesErr
	}
	if t.lines != nil && t.textErr != nil {
		return nil, t.textErr
	}
	if t.lines == nil {
		// gprof still rebuilds its table, which drops a symbol whose
		// range is empty (data_start in ordinary executables).
		nt := *t
		nt.functions = t.Functions()
		nt.setSyms(finalize(append([]Symbol(nil), t.Syms...), t.TextEnd))
		return &nt, nil
	}
	// gprof looks up its function symbols before it walks the text.
	if t.sources != nil {
		t.sources.lookUp()
	}
	// gprof walks the text twice, counting and then creating, and fails
	// when BFD's answers changed between the walks; the walks are repeated
	// here so that the same failure shows.
	count := t.walkLines(nil)
	var lineSyms []Symbol
	made := t.walkLines(&lineSyms)
	if err := t.SourcesErr(); err != nil {
		return nil, err
	}
	if made != count {
		return nil, fmt.Errorf("somebody miscounted: ltab.len=%d instead of %d", count+len(t.Syms), made+len(t.Syms))
	}
	all := make([]Symbol, 0, len(lineSyms)+len(t.Syms))
	all = append(all, lineSyms...)
	all = append(all, t.Syms...)
	nt := *t
	nt.functions = t.Functions()
	nt.setSyms(finalize(all, t.TextEnd))
	return &nt, nil
}

// Functions returns the table of function symbols this table was made
// from by WithLineSymbols, or the table itself when it holds no line
// symbols.
func (t *Table) Functions() *Table {
	if t.functions != nil {
		return t.functions
	}
	return t
}

// walkLines visits every byte of .text and counts (or, with out, creates)
// the line symbols.
func (t *Table) walkLines(out *[]Symbol) int {
	n := 0
	var prev *Symbol
	var prevName, prevFile string
	prevLine := 0
	havePrev := false
	// end is exclusive, as gprof's bound: an empty .text (TextEnd just
	// below TextLow, or the top address at address 0) or one that wraps
	// past the top of the address space is not walked at all.
	end := t.TextEnd + 1
	if end <= t.TextLow {
		return 0
	}
	t.lines.FindRange(t.TextLow, end, func(addr uint64, file, fn string, line int) {
		if havePrev && line == prevLine && fn == prevName && file == prevFile {
			return
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
	})
	return n
}
