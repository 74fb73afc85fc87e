package render

import (
	"strconv"

	"github.com/egprof/egprof/callgraph"
)

// ExecCounts writes gprof's execution-count listing (-C): one line per
// selected symbol that was called, then one per basic block of it that ran
// (every one of them with -z), sorted by source file, line and address.
// Names are raw, paths are as the debug information gives them, and
// symbols without debug information show as "<unknown>:0".
func (t *Text) ExecCounts(blocks *callgraph.Blocks) {
	g := t.g
	t.separator()
	type row struct {
		sym  int
		addr uint64
		file string
		line int
		has  bool // a source file is known
	}
	rows := make([]row, 0, g.NumSyms)
	for i := 0; i < g.NumSyms; i++ {
		if !g.ExecCountSelected(i) {
			continue
		}
		r := row{sym: i, addr: g.Syms.Syms[i].Addr}
		if src, ok := g.Syms.SymbolSource(i); ok {
			r.file, r.line, r.has = src.File, src.Line, true
		}
		rows = append(rows, r)
	}
	// gprof's comparison is not a consistent order when symbols with and
	// without a source file mix (those pairs compare by address only), so
	// the result depends on the sorting algorithm: glibc's is used.
	glibcSort(rows, func(l, r row) int {
		if l.has && r.has {
			if l.file != r.file {
				if l.file < r.file {
					return -1
				}
				return 1
			}
			if l.line != r.line {
				return l.line - r.line
			}
		}
		switch {
		case l.addr < r.addr:
			return -1
		case l.addr > r.addr:
			return 1
		}
		return 0
	})
	var buf []byte
	emit := func(r *row, addr, count uint64) {
		buf = buf[:0]
		if r.has {
			buf = append(buf, r.file...)
		} else {
			buf = append(buf, "<unknown>"...)
		}
		buf = append(buf, ':')
		buf = strconv.AppendInt(buf, int64(r.line), 10)
		buf = append(buf, ": ("...)
		buf = append(buf, g.Syms.Syms[r.sym].Name...)
		buf = append(buf, ":0x"...)
		buf = strconv.AppendUint(buf, addr, 16)
		buf = append(buf, ") "...)
		buf = strconv.AppendUint(buf, count, 10)
		buf = append(buf, " executions\n"...)
		t.w.Write(buf)
	}
	for k := range rows {
		r := &rows[k]
		if calls := g.Entries[r.sym].NCalls; calls > 0 || t.opt.ShowZeros {
			emit(r, r.addr, calls)
		}
		for _, b := range blocks.Of(r.sym) {
			if b.Count > 0 || t.opt.ShowZeros {
				emit(r, b.Addr, b.Count)
			}
		}
	}
}

// glibcSort sorts s the way glibc's qsort sorts small elements: a
// top-down merge sort that halves the input (the left half gets the
// smaller part) and, on ties, takes from the left. For a consistent
// comparison this is a stable sort like any other; for an inconsistent one
// it reproduces gprof's order exactly.
func glibcSort[T any](s []T, cmp func(a, b T) int) {
	if len(s) < 2 {
		return
	}
	tmp := make([]T, len(s))
	mergeSort(s, tmp, cmp)
}

func mergeSort[T any](b, tmp []T, cmp func(a, b T) int) {
	n := len(b)
	if n <= 1 {
		return
	}
	n1 := n / 2
	b1, b2 := b[:n1], b[n1:]
	mergeSort(b1, tmp, cmp)
	mergeSort(b2, tmp, cmp)
	i, j, k := 0, 0, 0
	for i < len(b1) && j < len(b2) {
		if cmp(b1[i], b2[j]) <= 0 {
			tmp[k] = b1[i]
			i++
		} else {
			tmp[k] = b2[j]
			j++
		}
		k++
	}
	k += copy(tmp[k:], b1[i:])
	// What is left of b2 is already in place.
	copy(b, tmp[:k])
}
