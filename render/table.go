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

// write prints the table, each line after indent.
func (t *textTable) write(w *bufio.Writer, indent string) {
	all := append([][]string{t.head}, t.rows...)
	var width []int
	for _, r := range all {
		for i, c := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], len(c))
		}
	}
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
