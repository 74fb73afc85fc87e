// Package render formats egprof's profiles and analyses as text to an
// io.Writer: gprof's sections, differential reports, annotated source,
// execution counts, rank and experiment tables. Its subpackages write the
// other formats: graphfile (GML, DOT), pprof (profile.proto) and charts
// (SVG). Renderers only format what the model holds; they compute nothing
// anew.
package render

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// fixed formats v like C's printf("%*.*f", width, prec, v), including the
// spellings glibc uses for infinities and NaN ("inf", "-nan").
func fixed(v float64, width, prec int) string {
	return string(appendFixed(nil, v, width, prec))
}

// appendFixed appends v formatted as fixed does to b. The numbers of the
// fast path (see scaledDecimal) are written in place after their padding;
// the others are formatted on the stack first, so that the padding goes in
// front of them without moving them.
func appendFixed(b []byte, v float64, width, prec int) []byte {
	if u, ok := scaledDecimal(v, prec); ok {
		n := scaledLen(u, prec)
		return putScaled(appendSpaces(b, width-n), u, prec, n)
	}
	var tmp [32]byte
	var d []byte
	switch {
	case math.IsNaN(v):
		// The NaN of 0.0/0.0 on x86 has its sign bit set; glibc prints it
		// as "-nan", which is what gprof shows when the rate is 0.
		d = append(tmp[:0], "-nan"...)
	case math.IsInf(v, 1):
		d = append(tmp[:0], "inf"...)
	case math.IsInf(v, -1):
		d = append(tmp[:0], "-inf"...)
	default:
		d = strconv.AppendFloat(tmp[:0], v, 'f', prec, 64)
	}
	b = appendSpaces(b, width-len(d))
	return append(b, d...)
}

// pow10 are the scales appendDecimal's fast path handles.
var pow10 = [...]float64{1, 10, 100, 1000, 10000}

// appendDecimal appends v with prec decimals, rounded as printf rounds
// (the exact binary value, ties to even): from the integer scaledDecimal
// gives when it can, through strconv otherwise.
func appendDecimal(b []byte, v float64, prec int) []byte {
	if u, ok := scaledDecimal(v, prec); ok {
		return appendScaled(b, u, prec)
	}
	return strconv.AppendFloat(b, v, 'f', prec, 64)
}

// scaledDecimal returns v*10^prec rounded to an integer as printf rounds
// it, when that is cheap and safe: for non-negative values whose scaled
// value has a fraction clear of 1/2 by more than the scaling's rounding
// error (zero and whole numbers included: the error cannot carry them
// past a half). ok is false for the rest.
func scaledDecimal(v float64, prec int) (u uint64, ok bool) {
	if prec >= len(pow10) || v < 0 || math.Signbit(v) {
		return 0, false
	}
	x := v * pow10[prec]
	if !(x < 1e15) { // NaN too
		return 0, false
	}
	n := math.Floor(x)
	f := x - n
	// The product is within half an ulp of v*10^prec; x*2^-52, at least
	// one ulp (and at most 1/4 below 1e15), is a safe margin.
	eps := x * 0x1p-52
	if math.Abs(f-0.5) <= eps {
		return 0, false
	}
	u = uint64(n)
	if f > 0.5 {
		u++
	}
	return u, true
}

// appendScaled appends u / 10^prec with exactly prec decimals and at
// least one digit before the point: cheaper than strconv for the small
// numbers printed.
func appendScaled(b []byte, u uint64, prec int) []byte {
	return putScaled(b, u, prec, scaledLen(u, prec))
}

// scaledLen is the length of what appendScaled appends.
func scaledLen(u uint64, prec int) int {
	n := 1
	for u >= 10 {
		u /= 10
		n++
	}
	if prec > 0 {
		n = max(n, prec+1) + 1 // the point, a digit before it
	}
	return n
}

// putScaled appends u / 10^prec as appendScaled does, n (its scaledLen)
// bytes, written in place from the last digit back.
func putScaled(b []byte, u uint64, prec, n int) []byte {
	start := len(b)
	b = slices.Grow(b, n)[:start+n]
	d := b[start:]
	i := n
	if prec > 0 {
		for range prec {
			i--
			d[i] = byte('0' + u%10)
			u /= 10
		}
		i--
		d[i] = '.'
	}
	for i > 0 {
		i--
		d[i] = byte('0' + u%10)
		u /= 10
	}
	return b
}

// appendUint appends v right-aligned in width columns, as C's "%*d" does.
func appendUint(b []byte, v uint64, width int) []byte {
	n := scaledLen(v, 0)
	return putScaled(appendSpaces(b, width-n), v, 0, n)
}

// appendUintLeft appends v left-aligned in width columns, as C's "%-*d"
// does.
func appendUintLeft(b []byte, v uint64, width int) []byte {
	n := scaledLen(v, 0)
	return appendSpaces(putScaled(b, v, 0, n), width-n)
}

// appendInt appends v right-aligned in width columns, as C's "%*d" does.
func appendInt(b []byte, v int64, width int) []byte {
	var tmp [24]byte
	d := strconv.AppendInt(tmp[:0], v, 10)
	b = appendSpaces(b, width-len(d))
	return append(b, d...)
}

// appendIntLeft appends v left-aligned in width columns, as C's "%-*d"
// does.
func appendIntLeft(b []byte, v int64, width int) []byte {
	start := len(b)
	b = strconv.AppendInt(b, v, 10)
	return appendSpaces(b, width-(len(b)-start))
}

// spaces is a run of blanks to append from.
const spaces = "                                                                "

// appendSpaces appends n blanks (none when n <= 0).
func appendSpaces(b []byte, n int) []byte {
	for n > len(spaces) {
		b = append(b, spaces...)
		n -= len(spaces)
	}
	if n > 0 {
		b = append(b, spaces[:n]...)
	}
	return b
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
