package render

import (
	"io"
	"strings"
)

// TSVTable writes one table of tab-separated values in the framing every
// TSV output of egprof shares: a line "#table<TAB>NAME", the header, one
// line per row, then an empty line. Tabs and line breaks inside a cell
// become spaces. A value that is not bracketed or not defined is written
// as the token n/b or n/d, never as an empty cell.
func TSVTable(w io.Writer, name string, head []string, rows [][]string) error {
	clean := strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")
	var b strings.Builder
	line := func(cells []string) {
		for i, c := range cells {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(clean.Replace(c))
		}
		b.WriteByte('\n')
	}
	b.WriteString("#table\t" + clean.Replace(name) + "\n")
	line(head)
	for _, r := range rows {
		line(r)
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}
