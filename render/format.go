// Package render formats egprof's profiles and analyses as text to an
// io.Writer: gprof's sections, differential reports, annotated source,
// execution counts, rank and experiment tables. Its subpackages write the
// other formats: graphfile (GML, DOT), pprof (profile.proto) and charts
// (SVG). Renderers only format what the model holds; they compute nothing
// anew.
package render

import (
	"math"
	"strconv"
	"strings"
)

// fixed formats v like C's printf("%*.*f", width, prec, v), including the
// spellings glibc uses for infinities and NaN ("inf", "-nan").
func fixed(v float64, width, prec int) string {
	var s string
	switch {
	case math.IsNaN(v):
		// The NaN of 0.0/0.0 on x86 has its sign bit set; glibc prints it
		// as "-nan", which is what gprof shows when the rate is 0.
		s = "-nan"
	case math.IsInf(v, 1):
		s = "inf"
	case math.IsInf(v, -1):
		s = "-inf"
	default:
		s = strconv.FormatFloat(v, 'f', prec, 64)
	}
	return padLeft(s, width)
}

// gfmt formats v like C's "%g".
func gfmt(v float64) string {
	switch {
	case math.IsNaN(v):
		return "-nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

func padLeft(s string, width int) string {
	if len(s) >= width {
		return s
	}
	return strings.Repeat(" ", width-len(s)) + s
}

func padRight(s string, width int) string {
	if len(s) >= width {
		return s
	}
	return s + strings.Repeat(" ", width-len(s))
}

// cut truncates s to at most n bytes, as printf's "%.Ns" does.
func cut(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// wrap fills the words of text into lines of at most width bytes (a
// longer word stands alone on its line).
func wrap(text string, width int) string {
	var b strings.Builder
	col := 0
	for _, word := range strings.Fields(text) {
		if col > 0 && col+1+len(word) > width {
			b.WriteString("\n")
			col = 0
		} else if col > 0 {
			b.WriteString(" ")
			col++
		}
		b.WriteString(word)
		col += len(word)
	}
	return b.String()
}
