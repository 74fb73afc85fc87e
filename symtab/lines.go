package symtab

import (
	"debug/dwarf"
	"errors"
	"fmt"
	"io"
	"sort"
)

// lineRow is one row of a DWARF line table: addresses from addr up to the
// next row of the same sequence belong to file:line.
type lineRow struct {
	addr uint64
	file string
	line int
	end  bool // end_sequence: the row only closes the previous range
}

// lineIndex holds every line-table row of the executable, by address.
type lineIndex struct {
	rows []lineRow
}

// SourceLoc is a source position: the file as recorded in DWARF (joined with
// its directory) and the line.
type SourceLoc struct {
	File string
	Line int
}

// HasLines reports whether the executable has DWARF line information. The
// line tables are read on first use only.
func (t *Table) HasLines() bool {
	idx, err := t.lineTables()
	return err == nil && idx != nil && len(idx.rows) > 0
}

// LineError returns the error met while reading DWARF line tables, if any.
func (t *Table) LineError() error {
	_, err := t.lineTables()
	return err
}

// SourceAt returns the source position holding addr, as gprof's nearest-line
// lookup does, or false when no line table covers addr.
func (t *Table) SourceAt(addr uint64) (SourceLoc, bool) {
	idx, err := t.lineTables()
	if err != nil || idx == nil {
		return SourceLoc{}, false
	}
	return idx.lookup(addr)
}

// SymbolSource returns the source position of symbol i (the line-table row at
// its address), or false without debug information.
func (t *Table) SymbolSource(i int) (SourceLoc, bool) {
	return t.SourceAt(t.Syms[i].Addr)
}

func (t *Table) lineTables() (*lineIndex, error) {
	t.lineOnce.Do(func() {
		t.lines, t.lineErr = readLines(t.file)
	})
	return t.lines, t.lineErr
}

func readLines(f interface {
	DWARF() (*dwarf.Data, error)
}) (*lineIndex, error) {
	if f == nil {
		return nil, nil
	}
	d, err := f.DWARF()
	if err != nil {
		// No debug information is normal, not an error.
		return nil, nil
	}
	idx := &lineIndex{}
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil {
			return nil, fmt.Errorf("reading DWARF: %w", err)
		}
		if e == nil {
			break
		}
		if e.Tag != dwarf.TagCompileUnit {
			r.SkipChildren()
			continue
		}
		lr, err := d.LineReader(e)
		if err != nil {
			return nil, fmt.Errorf("reading DWARF line table: %w", err)
		}
		r.SkipChildren()
		if lr == nil {
			continue
		}
		var le dwarf.LineEntry
		for {
			err := lr.Next(&le)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("reading DWARF line table: %w", err)
			}
			name := ""
			if le.File != nil {
				name = le.File.Name
			}
			idx.rows = append(idx.rows, lineRow{addr: le.Address, file: name, line: le.Line, end: le.EndSequence})
		}
	}
	// At equal addresses an end-of-sequence marker closes the previous
	// sequence before the next one starts.
	sort.SliceStable(idx.rows, func(i, j int) bool {
		a, b := &idx.rows[i], &idx.rows[j]
		if a.addr != b.addr {
			return a.addr < b.addr
		}
		return a.end && !b.end
	})
	return idx, nil
}

// lookup finds the last row at or below addr that starts a range (not an
// end-of-sequence marker) and whose range, up to the next row, holds addr.
func (x *lineIndex) lookup(addr uint64) (SourceLoc, bool) {
	i := sort.Search(len(x.rows), func(i int) bool { return x.rows[i].addr > addr }) - 1
	for ; i >= 0; i-- {
		r := x.rows[i]
		if r.end {
			if r.addr <= addr {
				return SourceLoc{}, false
			}
			continue
		}
		return SourceLoc{File: r.file, Line: r.line}, true
	}
	return SourceLoc{}, false
}
