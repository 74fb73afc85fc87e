package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/image/colornames"
	"golang.org/x/image/font"
)

// pngDPI is the resolution of the PNG: graphviz's default for its PNG
// device, 96 pixels to the inch (4/3 of a pixel per point).
const pngDPI = 96

// The picture of a PNG is read from graphviz's own SVG of the page, laid
// out at the PNG's resolution, rather than recorded through a go-graphviz
// render plugin: with the plugin, every number read from a drawing
// callback (each point of each edge, each colour and font field) crosses
// into the WASM module three times, making three wazero function handles
// with a 10 KB stack each. On ninja's 200 functions (263 KB of DOT) that
// was 1.4 GB of garbage and a third of egprof-graphviz's CPU; reading the
// SVG takes a few milliseconds. graphviz's SVG is a closed vocabulary
// (svg_* in gvrender_core_svg.c): a <g> holding the page's transform,
// <polygon>, <polyline>, <ellipse>, <path> (M then C) and <text>, with
// their fill, stroke, stroke-width, stroke-dasharray and font attributes
// written on each shape.

// affine is a 2-D affine transform: (x, y) -> (a*x + c*y + e, b*x + d*y + f).
type affine struct{ a, b, c, d, e, f float64 }

// identity returns the transform that changes nothing.
func identity() affine { return affine{a: 1, d: 1} }

// apply returns the image of (x, y).
func (m affine) apply(x, y float64) (float64, float64) {
	return m.a*x + m.c*y + m.e, m.b*x + m.d*y + m.f
}

// then is m followed by n.
func (m affine) then(n affine) affine {
	return affine{
		a: n.a*m.a + n.c*m.b, b: n.b*m.a + n.d*m.b,
		c: n.a*m.c + n.c*m.d, d: n.b*m.c + n.d*m.d,
		e: n.a*m.e + n.c*m.f + n.e, f: n.b*m.e + n.d*m.f + n.f,
	}
}

// scale is how much m scales lengths (the square root of its determinant's
// magnitude): a pen width or a font size drawn through m.
func (m affine) scale() float64 {
	return math.Sqrt(math.Abs(m.a*m.d - m.b*m.c))
}

// parseTransform reads an SVG transform list (graphviz writes
// "scale(sx sy) rotate(r) translate(tx ty)"); the rightmost applies first.
func parseTransform(s string) (affine, error) {
	m := identity()
	var steps []affine
	rest := strings.TrimSpace(s)
	for rest != "" {
		open := strings.IndexByte(rest, '(')
		end := strings.IndexByte(rest, ')')
		if open < 0 || end < open {
			return m, fmt.Errorf("transform %q: expected name(arguments)", s)
		}
		name := strings.TrimSpace(rest[:open])
		args, err := parseNumbers(rest[open+1 : end])
		if err != nil {
			return m, fmt.Errorf("transform %q: %w", s, err)
		}
		rest = strings.TrimLeft(rest[end+1:], " ,")
		var t affine
		switch {
		case name == "scale" && (len(args) == 1 || len(args) == 2):
			sx := args[0]
			sy := sx
			if len(args) == 2 {
				sy = args[1]
			}
			t = affine{a: sx, d: sy}
		case name == "translate" && (len(args) == 1 || len(args) == 2):
			t = identity()
			t.e = args[0]
			if len(args) == 2 {
				t.f = args[1]
			}
		case name == "rotate" && len(args) == 1:
			sin, cos := math.Sincos(args[0] * math.Pi / 180)
			if q := args[0] / 90; q == math.Trunc(q) {
				// Quarter turns exactly, so that upright boxes stay
				// upright (cos 90° is 6e-17 in floating point).
				sin, cos = math.Round(sin), math.Round(cos)
			}
			t = affine{a: cos, b: sin, c: -sin, d: cos}
		default:
			return m, fmt.Errorf("transform %q: unsupported %s with %d arguments", s, name, len(args))
		}
		steps = append(steps, t)
	}
	for i := len(steps) - 1; i >= 0; i-- {
		m = m.then(steps[i])
	}
	return m, nil
}

// parseNumbers reads numbers separated by spaces or commas.
func parseNumbers(s string) ([]float64, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\n' || r == '\t' || r == '\r' })
	v := make([]float64, len(fields))
	for i, f := range fields {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		v[i] = x
	}
	return v, nil
}

// svgReader turns graphviz's SVG into a picture.
type svgReader struct {
	faces faceCache
	pic   *picture
	// stack holds the transform of each open element, innermost last.
	stack []affine
	// gradients are the first colours of the gradients defined so far,
	// by id, and gradient the id of the one being read.
	gradients map[string]color.NRGBA
	gradient  string
}

// pictureFromSVG reads graphviz's SVG of one page, laid out at pngDPI,
// into a picture with the fonts f. The page's size is the first <svg>
// element's (see page).
func pictureFromSVG(svg []byte, f *fonts) (*picture, error) {
	r := &svgReader{faces: newFaceCache(f), pic: &picture{fonts: f}, gradients: map[string]color.NRGBA{}}
	dec := xml.NewDecoder(bytes.NewReader(xmlChars(svg)))
	dec.Entity = xml.HTMLEntity
	seenSVG := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading graphviz's SVG: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			m := identity()
			if len(r.stack) > 0 {
				m = r.stack[len(r.stack)-1]
			}
			if tr, ok := attr(t, "transform"); ok {
				inner, err := parseTransform(tr)
				if err != nil {
					return nil, fmt.Errorf("reading graphviz's SVG: <%s>: %w", t.Name.Local, err)
				}
				m = inner.then(m)
			}
			r.stack = append(r.stack, m)
			if t.Name.Local == "svg" && !seenSVG {
				seenSVG = true
				if err := r.page(t); err != nil {
					return nil, err
				}
				continue
			}
			if err := r.element(dec, t, m); err != nil {
				return nil, fmt.Errorf("reading graphviz's SVG: <%s>: %w", t.Name.Local, err)
			}
		case xml.EndElement:
			if len(r.stack) > 0 {
				r.stack = r.stack[:len(r.stack)-1]
			}
		}
	}
	if !seenSVG {
		return nil, errors.New("reading graphviz's SVG: no <svg> element")
	}
	return r.pic, nil
}

// xmlChars returns svg with each character that XML does not allow (the
// control characters other than tab, newline and carriage return, U+FFFE,
// U+FFFF, and bytes that are not UTF-8) replaced by U+FFFD: graphviz copies
// a label's control characters into its SVG as they are (also those of
// character references such as "&#1;"), and encoding/xml rejects the
// whole SVG for one. svg itself is returned when it has none.
func xmlChars(svg []byte) []byte {
	var out []byte
	for i := 0; i < len(svg); {
		r, size := rune(svg[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(svg[i:])
		}
		allowed := r == '\t' || r == '\n' || r == '\r' ||
			r >= 0x20 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd || r >= 0x10000 && r <= utf8.MaxRune
		if r == utf8.RuneError && size == 1 {
			allowed = false
		}
		switch {
		case !allowed && out == nil:
			out = append(make([]byte, 0, len(svg)+16), svg[:i]...)
			fallthrough
		case !allowed:
			out = utf8.AppendRune(out, utf8.RuneError)
		case out != nil:
			out = append(out, svg[i:i+size]...)
		}
		i += size
	}
	if out == nil {
		return svg
	}
	return out
}

// page reads the page's size in pixels from the <svg> element's width and
// height: graphviz writes the size of its page at the layout's resolution
// there, in "pt", and the viewBox before that scaling.
func (r *svgReader) page(t xml.StartElement) error {
	var size [2]float64
	for i, name := range []string{"width", "height"} {
		s, ok := attr(t, name)
		if !ok {
			return fmt.Errorf("reading graphviz's SVG: <svg> without a %s", name)
		}
		v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(s), "pt"), "px"), 64)
		// A picture is drawn a strip at a time, but each of its rows
		// is allocated whole and its rows are counted in int.
		if err != nil || !(v >= 0 && v <= 1<<20) {
			return fmt.Errorf("reading graphviz's SVG: <svg %s=%q>: want a size of at most %d pixels", name, s, 1<<20)
		}
		size[i] = v
	}
	r.pic.width, r.pic.height = int(math.Round(size[0])), int(math.Round(size[1]))
	return nil
}

// attr returns the value of t's attribute name.
func attr(t xml.StartElement, name string) (string, bool) {
	for _, a := range t.Attr {
		if a.Name.Local == name && a.Name.Space == "" {
			return a.Value, true
		}
	}
	return "", false
}

// element records the drawing of one element, whose transform to pixels
// is m. Elements other than shapes and text draw nothing.
func (r *svgReader) element(dec *xml.Decoder, t xml.StartElement, m affine) error {
	switch t.Name.Local {
	case "polygon", "polyline":
		pts, err := pointsAttr(t, m)
		if err != nil || len(pts) == 0 {
			return err
		}
		op := drawOp{kind: opPath, pts: pts, closed: t.Name.Local == "polygon"}
		if err := r.paint(t, m, &op, op.closed); err != nil {
			return err
		}
		if op.filled {
			if rect, ok := rectOf(op.pts, op.fill); ok {
				r.add(drawOp{kind: opRect, rect: rect, fill: op.fill, pts: op.pts}, 1)
				op.filled = false // filled already; only the outline is left
			}
		}
		if op.filled || op.stroked {
			r.add(op, strokeMargin(&op))
		}
	case "path":
		d, _ := attr(t, "d")
		pts, err := pathPoints(d, m)
		if err != nil || len(pts) == 0 {
			return err
		}
		op := drawOp{kind: opPath, pts: pts, curve: true}
		if err := r.paint(t, m, &op, true); err != nil {
			return err
		}
		if op.filled || op.stroked {
			r.add(op, strokeMargin(&op))
		}
	case "ellipse":
		v, err := numberAttrs(t, "cx", "cy", "rx", "ry")
		if err != nil {
			return err
		}
		cx, cy := m.apply(v[0], v[1])
		// The radii along the page's axes: graphviz's rotations are
		// quarter turns, which keep an ellipse's axes on them (a turned
		// page swaps the radii).
		rx := math.Hypot(m.a*v[2], m.c*v[3])
		ry := math.Hypot(m.b*v[2], m.d*v[3])
		op := drawOp{kind: opEllipse, pts: []float64{cx, cy, rx, ry}}
		if err := r.paint(t, m, &op, true); err != nil {
			return err
		}
		if op.filled || op.stroked {
			margin := ry + strokeMargin(&op)
			r.addRows(op, cy-margin, cy+margin)
		}
	case "text":
		return r.text(dec, t, m)
	case "linearGradient", "radialGradient":
		r.gradient, _ = attr(t, "id")
	case "stop":
		return r.stop(t)
	}
	return nil
}

// stop reads a gradient's stop (graphviz writes its colour in a style:
// "stop-color:red;stop-opacity:1.;"); the first stop of each gradient is
// kept, the colour a gradient is drawn in here.
func (r *svgReader) stop(t xml.StartElement) error {
	if r.gradient == "" {
		return nil
	}
	if _, seen := r.gradients[r.gradient]; seen {
		return nil
	}
	style, _ := attr(t, "style")
	var paint, opacity string
	for decl := range strings.SplitSeq(style, ";") {
		name, value, _ := strings.Cut(decl, ":")
		switch strings.TrimSpace(name) {
		case "stop-color":
			paint = strings.TrimSpace(value)
		case "stop-opacity":
			opacity = strings.TrimSpace(value)
		}
	}
	c, err := paintColor(paint, opacity)
	if err != nil {
		return fmt.Errorf("gradient %q: %w", r.gradient, err)
	}
	r.gradients[r.gradient] = c
	return nil
}

// pointsAttr reads a polygon's or polyline's points, in pixels.
func pointsAttr(t xml.StartElement, m affine) ([]float64, error) {
	s, _ := attr(t, "points")
	v, err := parseNumbers(s)
	if err != nil {
		return nil, fmt.Errorf("points: %w", err)
	}
	if len(v)%2 != 0 {
		return nil, fmt.Errorf("points: an odd count of coordinates (%d)", len(v))
	}
	for i := 0; i < len(v); i += 2 {
		v[i], v[i+1] = m.apply(v[i], v[i+1])
	}
	return v, nil
}

// pathPoints reads a path as graphviz writes a Bézier curve ("M x,y C"
// then three points per cubic segment) into a start point and the
// segments' points, in pixels.
func pathPoints(d string, m affine) ([]float64, error) {
	d = strings.TrimSpace(d)
	if d == "" {
		return nil, nil
	}
	rest, ok := strings.CutPrefix(d, "M")
	if !ok {
		return nil, fmt.Errorf("path %.40q: want M, then C", d)
	}
	start, curves, ok := strings.Cut(rest, "C")
	if !ok {
		curves = ""
	}
	if strings.ContainsAny(curves, "MCLHVSQTAZmclhvsqtaz") {
		return nil, fmt.Errorf("path %.40q: only one M and one C are read", d)
	}
	s, err := parseNumbers(start)
	if err != nil || len(s) != 2 {
		return nil, fmt.Errorf("path %.40q: its start is not one point", d)
	}
	c, err := parseNumbers(curves)
	if err != nil {
		return nil, fmt.Errorf("path %.40q: %w", d, err)
	}
	if len(c)%6 != 0 {
		return nil, fmt.Errorf("path %.40q: a cubic segment has three points", d)
	}
	v := append(s, c...)
	for i := 0; i < len(v); i += 2 {
		v[i], v[i+1] = m.apply(v[i], v[i+1])
	}
	return v, nil
}

// numberAttrs reads the numeric attributes names of t.
func numberAttrs(t xml.StartElement, names ...string) ([]float64, error) {
	v := make([]float64, len(names))
	for i, n := range names {
		s, ok := attr(t, n)
		if !ok {
			return nil, fmt.Errorf("no %s", n)
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, fmt.Errorf("%s=%q is not a number", n, s)
		}
		v[i] = x
	}
	return v, nil
}

// paint reads t's fill (when fillable) and stroke into op. SVG's defaults
// apply: a black fill, no stroke.
func (r *svgReader) paint(t xml.StartElement, m affine, op *drawOp, fillable bool) error {
	if fillable {
		fill, ok := attr(t, "fill")
		if !ok {
			fill = "black"
		}
		opacity, _ := attr(t, "fill-opacity")
		c, err := r.color(fill, opacity)
		if err != nil {
			return err
		}
		if c.A != 0 {
			op.filled, op.fill = true, c
		}
	}
	stroke, ok := attr(t, "stroke")
	if !ok {
		return nil
	}
	opacity, _ := attr(t, "stroke-opacity")
	c, err := r.color(stroke, opacity)
	if err != nil || c.A == 0 {
		return err
	}
	width := 1.0
	if _, ok := attr(t, "stroke-width"); ok {
		v, err := numberAttrs(t, "stroke-width")
		if err != nil {
			return err
		}
		width = v[0]
	}
	sc := m.scale()
	op.stroked, op.pen = true, c
	op.width = max(width, 0.5) * sc
	if dash, ok := attr(t, "stroke-dasharray"); ok {
		op.dash = dashes(dash, sc)
	}
	return nil
}

// dashes returns the dash pattern of graphviz's stroke-dasharray, in
// pixels for a picture scaled by sc: its dashed ("5,2") and dotted ("1,5")
// styles get the dashes of graphviz's cairo renderer, the look of its own
// PNG; another list is taken as it is.
func dashes(s string, sc float64) []float64 {
	switch strings.ReplaceAll(s, " ", "") {
	case "5,2":
		return []float64{6 * sc, 4 * sc}
	case "1,5":
		return []float64{1.5 * sc, 3 * sc}
	}
	v, err := parseNumbers(s)
	if err != nil {
		return nil
	}
	for i := range v {
		v[i] = max(v[i], 0) * sc
	}
	return v
}

// color reads the paint s of an element with the opacity opacity (0 to 1,
// or "" for none) as paintColor does, and also a gradient defined before
// ("url(#id)"), which is drawn in its first colour.
func (r *svgReader) color(s, opacity string) (color.NRGBA, error) {
	if id, ok := strings.CutPrefix(strings.TrimSpace(s), "url(#"); ok {
		c, known := r.gradients[strings.TrimSuffix(id, ")")]
		if !known {
			return c, fmt.Errorf("paint %q: no such gradient before it", s)
		}
		return c, nil
	}
	return paintColor(s, opacity)
}

// paintColor reads an SVG paint as graphviz writes one: "none",
// "transparent", #rrggbb or a colour name, with the opacity opacity (0 to
// 1, or "" for none) as its alpha.
func paintColor(s, opacity string) (color.NRGBA, error) {
	s = strings.TrimSpace(s)
	var c color.NRGBA
	switch {
	case s == "none" || s == "transparent":
		return c, nil
	case strings.HasPrefix(s, "#"):
		hex := s[1:]
		if len(hex) == 3 {
			hex = string([]byte{hex[0], hex[0], hex[1], hex[1], hex[2], hex[2]})
		}
		v, err := strconv.ParseUint(hex, 16, 32)
		if err != nil || len(hex) != 6 {
			return c, fmt.Errorf("colour %q is not #rrggbb", s)
		}
		c = color.NRGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}
	default:
		name := strings.ToLower(s)
		named, ok := x11Colour(name)
		if !ok {
			named, ok = colornames.Map[name]
		}
		if !ok {
			return c, fmt.Errorf("unknown colour %q", s)
		}
		c = color.NRGBA{named.R, named.G, named.B, 255}
	}
	if opacity != "" {
		v, err := strconv.ParseFloat(strings.TrimSpace(opacity), 64)
		if err != nil || math.IsNaN(v) {
			return c, fmt.Errorf("opacity %q is not a number", opacity)
		}
		c.A = uint8(math.Round(255 * min(max(v, 0), 1)))
	}
	return c, nil
}

// x11Colour returns the X11 colour of the names whose SVG colour is not
// graphviz's: graphviz names colours after X11, and writes a name into its
// SVG as it is when SVG knows it, so that a browser shows SVG's colour;
// its PNG shows X11's, and so does this one. The other names SVG and X11
// share mean the same colour (golang.org/x/image/colornames has SVG's).
func x11Colour(name string) (color.RGBA, bool) {
	switch name {
	case "gray", "grey":
		return color.RGBA{0xbe, 0xbe, 0xbe, 0xff}, true
	case "green":
		return color.RGBA{0x00, 0xff, 0x00, 0xff}, true
	case "maroon":
		return color.RGBA{0xb0, 0x30, 0x60, 0xff}, true
	case "purple":
		return color.RGBA{0xa0, 0x20, 0xf0, 0xff}, true
	}
	return color.RGBA{}, false
}

// text records a <text> element: one line of text whose baseline goes
// through (x, y), anchored at its start, middle or end.
func (r *svgReader) text(dec *xml.Decoder, t xml.StartElement, m affine) error {
	var content strings.Builder
	depth := 1
	for depth > 0 {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("text: %w", err)
		}
		switch tt := tok.(type) {
		case xml.CharData:
			content.Write(tt)
		case xml.StartElement:
			depth++
		case xml.EndElement:
			depth--
		}
	}
	// The decoder has consumed the end of this <text>: its transform is
	// popped here.
	r.stack = r.stack[:len(r.stack)-1]
	text := content.String()
	if strings.TrimSpace(text) == "" {
		return nil
	}
	v, err := numberAttrs(t, "x", "y")
	if err != nil {
		return err
	}
	size := 14.0 // graphviz's default font size
	if _, ok := attr(t, "font-size"); ok {
		fs, err := numberAttrs(t, "font-size")
		if err != nil {
			return err
		}
		size = fs[0]
	}
	fill, ok := attr(t, "fill")
	if !ok {
		fill = "black"
	}
	opacity, _ := attr(t, "fill-opacity")
	pen, err := r.color(fill, opacity)
	if err != nil || pen.A == 0 {
		return err
	}
	weight, _ := attr(t, "font-weight")
	family, _ := attr(t, "font-family")
	bold := weight == "bold" || strings.Contains(strings.ToLower(family), "bold")
	fk := faceKey{bold, size * m.scale()}
	f, err := r.faces.face(fk)
	if err != nil {
		return err
	}
	x, y := m.apply(v[0], v[1])
	// The baseline runs along the image of the x axis, a quarter turn of
	// it on a rotated page (rotate=90, landscape).
	turn := quarterTurns(m)
	dx, dy := turnDirection(turn)
	// Whole pixels, as gg measures text.
	w := float64(font.MeasureString(f, text) >> 6)
	back := w / 2
	switch anchor, _ := attr(t, "text-anchor"); anchor {
	case "start":
		back = 0
	case "end":
		back = w
	}
	x, y = x-back*dx, y-back*dy
	fm := f.Metrics()
	above := float64(fm.Ascent)/64 + float64(fm.Height)/64 + 2
	below := float64(fm.Descent)/64 + float64(fm.Height)/64 + 2
	// pts are the baseline's start.
	op := drawOp{kind: opText, text: text, face: fk, pen: pen, pts: []float64{x, y}, turn: turn}
	switch turn {
	case 0:
		r.addRows(op, y-above, y+below)
	case 2:
		r.addRows(op, y-below, y+above)
	default:
		r.addRows(op, min(y, y+w*dy)-2, max(y, y+w*dy)+2)
	}
	return nil
}

// quarterTurns is how many quarter turns, counterclockwise on the page, m
// turns the x axis by, to the nearest: 0 leaves text left to right, 1
// sets it bottom to top, 2 upside down and 3 top to bottom.
func quarterTurns(m affine) int {
	switch {
	case math.Abs(m.a) >= math.Abs(m.b) && m.a >= 0:
		return 0
	case math.Abs(m.a) >= math.Abs(m.b):
		return 2
	case m.b < 0: // y grows downwards: the x axis points up the page
		return 1
	default:
		return 3
	}
}

// turnDirection is the unit vector, in pixels (y down), along which text
// turned turn quarter turns runs.
func turnDirection(turn int) (dx, dy float64) {
	switch turn {
	case 1:
		return 0, -1
	case 2:
		return -1, 0
	case 3:
		return 0, 1
	}
	return 1, 0
}

// add records op, with the rows it may touch: those of its points, widened
// by margin pixels.
func (r *svgReader) add(op drawOp, margin float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := 1; i < len(op.pts); i += 2 {
		lo, hi = min(lo, op.pts[i]), max(hi, op.pts[i])
	}
	r.addRows(op, lo-margin, hi+margin)
}

// addRows records op, which may touch the rows from lo to hi.
func (r *svgReader) addRows(op drawOp, lo, hi float64) {
	op.y0, op.y1 = lo, hi
	r.pic.ops = append(r.pic.ops, op)
}

// strokeMargin is how far a stroke of op's pen may reach beyond its points,
// with a pixel to spare for antialiasing.
func strokeMargin(op *drawOp) float64 {
	return op.width + 2
}

// rectOf returns the pixels of a polygon that is an upright rectangle (the
// page's background, the boxes' insides) with an opaque fill colour c, so
// that it can be filled straight into the picture, much faster than by the
// general path filler; ok is false for any other polygon.
func rectOf(xy []float64, c color.NRGBA) (r image.Rectangle, ok bool) {
	n := len(xy) / 2
	if c.A != 255 || (n != 4 && !(n == 5 && xy[8] == xy[0] && xy[9] == xy[1])) {
		return r, false
	}
	var xs, ys [4]float64
	for i := range 4 {
		xs[i], ys[i] = xy[2*i], xy[2*i+1]
	}
	// The sides must be vertical and horizontal, in either winding.
	if !(xs[0] == xs[1] && ys[1] == ys[2] && xs[2] == xs[3] && ys[3] == ys[0]) &&
		!(ys[0] == ys[1] && xs[1] == xs[2] && ys[2] == ys[3] && xs[3] == xs[0]) {
		return r, false
	}
	// Edges are rounded to whole pixels: the outline drawn over them
	// covers the difference from the antialiased filler's edge.
	x0, x1 := math.Round(min(xs[0], xs[2])), math.Round(max(xs[0], xs[2]))
	y0, y1 := math.Round(min(ys[0], ys[2])), math.Round(max(ys[0], ys[2]))
	return image.Rect(int(x0), int(y0), int(x1), int(y1)), true
}
