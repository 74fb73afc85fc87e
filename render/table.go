package render

import (
	"bufio"
	"strings"
)

// textTable is a table of text cells printed with aligned columns, two
// spaces apart: right-aligned columns for numbers, left-aligned ones for
// text, the last column never padded and no trailing blanks.
type textTable struct {
	head  []string
	right []bool // per column; missing entries are left-aligned
	rows  [][]string
}

// newTextTable makes a table from column titles; a title starting with
// '>' is a right-aligned column (the '>' is not printed).
func newTextTable(cols ...string) *textTable {
	t := &textTable{}
	for _, c := range cols {
		t.head = append(t.head, strings.TrimPrefix(c, ">"))
		t.right = append(t.right, strings.HasPrefix(c, ">"))
	}
	return t
}

// row adds a row of cells.
func (t *textTable) row(cells ...string) { t.rows = append(t.rows, cells) }

// widths returns each column's width.
func (t *textTable) widths() []int {
	var width []int
	for _, r := range append([][]string{t.head}, t.rows...) {
		for i, c := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], len(c))
		}
	}
	return width
}

// colGroup is a title over the columns from First to Last.
type colGroup struct {
	First, Last int
	Title       string
}

// writeGroups prints a line of group titles above the table's header,
// each centred over its columns (at least starting at its first column).
func (t *textTable) writeGroups(w *bufio.Writer, indent string, groups []colGroup) {
	width := t.widths()
	start := make([]int, len(width)+1)
	for i, wd := range width {
		start[i+1] = start[i] + wd + 2
	}
	var line []byte
	for _, g := range groups {
		span := start[g.Last+1] - 2 - start[g.First]
		at := start[g.First] + max(0, (span-len(g.Title))/2)
		for len(line) < at {
			line = append(line, ' ')
		}
		if len(line) > at && len(line) > 0 {
			line = append(line, ' ')
		}
		line = append(line, g.Title...)
	}
	w.WriteString(indent + strings.TrimRight(string(line), " ") + "\n")
}

// write prints the table, each line after indent.
func (t *textTable) write(w *bufio.Writer, indent string) {
	all := append([][]string{t.head}, t.rows...)
	width := t.widths()
	for _, r := range all {
		var line strings.Builder
		line.WriteString(indent)
		for i, c := range r {
			if i > 0 {
				line.WriteString("  ")
			}
			switch {
			case i < len(t.right) && t.right[i]:
				line.WriteString(padLeft(c, width[i]))
			case i == len(r)-1:
				line.WriteString(c)
			default:
				line.WriteString(padRight(c, width[i]))
			}
		}
		w.WriteString(strings.TrimRight(line.String(), " "))
		w.WriteString("\n")
	}
}
