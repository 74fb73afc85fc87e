package main

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/image/font"
)

func TestParseTransform(t *testing.T) {
	tests := []struct {
		in         string
		x, y       float64 // a point
		wantX      float64 // and its image
		wantY      float64
		wantErrSub string
	}{
		// graphviz's page transform at 96 dpi: translate first, then scale.
		{in: "scale(1.33333 1.33333) rotate(0) translate(4 2890)", x: 0, y: 0, wantX: 5.33332, wantY: 3853.32370},
		{in: "scale(2) translate(10)", x: 1, y: 1, wantX: 22, wantY: 2},
		// rotate=90: graphviz turns the page a quarter.
		{in: "rotate(-90) translate(0 0)", x: 1, y: 0, wantX: 0, wantY: -1},
		{in: "rotate(30)", x: 2, y: 0, wantX: math.Sqrt(3), wantY: 1},
		{in: "", x: 3, y: 4, wantX: 3, wantY: 4},
		{in: "skewX(3)", wantErrSub: "unsupported skewX"},
		{in: "scale(1 2", wantErrSub: "expected name(arguments)"},
		{in: "translate(a b)", wantErrSub: `"a" is not a number`},
		{in: "scale(1 2 3)", wantErrSub: "unsupported scale with 3 arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			m, err := parseTransform(tt.in)
			if tt.wantErrSub != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErrSub)
				return
			}
			require.NoError(t, err)
			x, y := m.apply(tt.x, tt.y)
			assert.InDelta(t, tt.wantX, x, 1e-4)
			assert.InDelta(t, tt.wantY, y, 1e-4)
		})
	}
}

func TestPaintColor(t *testing.T) {
	tests := []struct {
		paint, opacity string
		want           color.NRGBA
		wantErrSub     string
	}{
		{paint: "#ca0020", want: color.NRGBA{0xca, 0x00, 0x20, 255}},
		{paint: "#abc", want: color.NRGBA{0xaa, 0xbb, 0xcc, 255}},
		{paint: "none"},
		{paint: "transparent"},
		// graphviz's colour names are X11's, also where SVG's differ.
		{paint: "green", want: color.NRGBA{0, 0xff, 0, 255}},
		{paint: "Gray", want: color.NRGBA{0xbe, 0xbe, 0xbe, 255}},
		{paint: "lightblue", want: color.NRGBA{0xad, 0xd8, 0xe6, 255}},
		{paint: "#ca0020", opacity: "0.501961", want: color.NRGBA{0xca, 0x00, 0x20, 128}},
		{paint: "#12345g", wantErrSub: `"#12345g" is not #rrggbb`},
		{paint: "nosuchcolour", wantErrSub: `unknown colour "nosuchcolour"`},
		{paint: "red", opacity: "half", wantErrSub: `opacity "half" is not a number`},
	}
	for _, tt := range tests {
		t.Run(tt.paint+"/"+tt.opacity, func(t *testing.T) {
			c, err := paintColor(tt.paint, tt.opacity)
			if tt.wantErrSub != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErrSub)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, c)
		})
	}
}

func TestPathPoints(t *testing.T) {
	m := affine{a: 2, d: 2, f: 100} // scale 2, then move down 100
	tests := []struct {
		d          string
		want       []float64
		wantErrSub string
	}{
		{d: "M1,2C3,4 5,6 7,8", want: []float64{2, 104, 6, 108, 10, 112, 14, 116}},
		{d: "M1,-2C3,-4 5,-6 7,-8 9,-10 11,-12 13,-14", want: []float64{2, 96, 6, 92, 10, 88, 14, 84, 18, 80, 22, 76, 26, 72}},
		{d: ""},
		{d: "L1,2", wantErrSub: "want M, then C"},
		{d: "M1,2C3,4", wantErrSub: "a cubic segment has three points"},
		{d: "M1,2C3,4 5,6 7,8L9,9", wantErrSub: "only one M and one C"},
		{d: "M1C3,4 5,6 7,8", wantErrSub: "its start is not one point"},
	}
	for _, tt := range tests {
		t.Run(tt.d, func(t *testing.T) {
			pts, err := pathPoints(tt.d, m)
			if tt.wantErrSub != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErrSub)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, pts)
		})
	}
}

// graphvizLikeSVG is a page as graphviz writes one at twice 72 dpi: a
// 150 x 100 point page, its background, a filled box, a dashed edge, an
// ellipse and right-aligned text.
const graphvizLikeSVG = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN"
 "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg width="300pt" height="200pt" viewBox="0.00 0.00 150.00 100.00" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
<g id="graph0" class="graph" transform="scale(2 2) rotate(0) translate(4 96)">
<title>G</title>
<polygon fill="white" stroke="none" points="-4,4 -4,-96 146,-96 146,4 -4,4"/>
<g id="node1" class="node"><title>a</title>
<polygon fill="#ca0020" stroke="black" stroke-width="2" points="50,-80 10,-80 10,-60 50,-60 50,-80"/>
<text text-anchor="end" x="50" y="-66" font-family="Helvetica,sans-Serif" font-weight="bold" font-size="10.00" fill="#0000ff">a&#45;b</text>
</g>
<g id="edge1" class="edge"><title>a&#45;&gt;b</title>
<path fill="none" stroke="#737373" stroke-dasharray="5,2" d="M30,-60C30,-50 30,-40 30,-30"/>
<ellipse fill="none" stroke="black" cx="30" cy="-20" rx="10" ry="5"/>
</g>
</g>
</svg>
`

func TestPictureFromSVG(t *testing.T) {
	f, err := newFonts()
	require.NoError(t, err)
	pic, err := pictureFromSVG([]byte(graphvizLikeSVG), f)
	require.NoError(t, err)
	assert.Equal(t, 300, pic.width)
	assert.Equal(t, 200, pic.height)
	require.Len(t, pic.ops, 6)

	// The background becomes a rectangle over the whole page: the PNG is
	// opaque.
	assert.Equal(t, opRect, pic.ops[0].kind)
	assert.Equal(t, image.Rect(0, 0, 300, 200), pic.ops[0].rect)
	assert.True(t, pic.opaque())

	// The box: its inside filled straight, then its outline, 2 points
	// wide, 4 pixels.
	assert.Equal(t, opRect, pic.ops[1].kind)
	assert.Equal(t, image.Rect(28, 32, 108, 72), pic.ops[1].rect)
	assert.Equal(t, color.NRGBA{0xca, 0, 0x20, 255}, pic.ops[1].fill)
	outline := pic.ops[2]
	assert.Equal(t, opPath, outline.kind)
	assert.True(t, outline.closed)
	assert.False(t, outline.filled)
	assert.True(t, outline.stroked)
	assert.InDelta(t, 4, outline.width, 1e-9)

	// The text ends at x = (50+4)*2 = 108, its baseline at (96-66)*2 = 60.
	text := pic.ops[3]
	assert.Equal(t, opText, text.kind)
	assert.Equal(t, "a-b", text.text)
	assert.Equal(t, faceKey{bold: true, size: 20}, text.face)
	assert.Equal(t, color.NRGBA{0, 0, 0xff, 255}, text.pen)
	face, err := newFaceCache(f).face(text.face)
	require.NoError(t, err)
	width := float64(font.MeasureString(face, "a-b") >> 6)
	assert.InDelta(t, 108-width, text.pts[0], 1e-9)
	assert.InDelta(t, 60, text.pts[1], 1e-9)

	// The edge: a curve with graphviz's cairo dashes, scaled.
	edge := pic.ops[4]
	assert.Equal(t, opPath, edge.kind)
	assert.True(t, edge.curve)
	assert.False(t, edge.filled)
	assert.Equal(t, []float64{68, 72, 68, 92, 68, 112, 68, 132}, edge.pts)
	assert.Equal(t, []float64{12, 8}, edge.dash)
	assert.Equal(t, color.NRGBA{0x73, 0x73, 0x73, 255}, edge.pen)
	assert.InDelta(t, 72-edge.width-2, edge.y0, 1e-9)
	assert.InDelta(t, 132+edge.width+2, edge.y1, 1e-9)

	ellipse := pic.ops[5]
	assert.Equal(t, opEllipse, ellipse.kind)
	assert.Equal(t, []float64{68, 152, 20, 10}, ellipse.pts)
	assert.False(t, ellipse.filled)
}

func TestPictureFromSVGErrors(t *testing.T) {
	f, err := newFonts()
	require.NoError(t, err)
	page := func(body string) string {
		return `<svg width="10pt" height="10pt" viewBox="0 0 10 10"><g transform="translate(0 10)">` + body + `</g></svg>`
	}
	tests := []struct {
		name, svg, wantErrSub string
	}{
		{"not XML", "<svg", "reading graphviz's SVG"},
		{"no svg", "<g/>", "no <svg> element"},
		{"no width", `<svg height="10pt"/>`, "without a width"},
		{"huge page", `<svg width="9999999pt" height="10pt"/>`, "at most 1048576 pixels"},
		{"negative page", `<svg width="-1pt" height="10pt"/>`, "at most 1048576 pixels"},
		{"odd points", page(`<polygon fill="red" points="1,2 3"/>`), "<polygon>: points: an odd count"},
		{"bad colour", page(`<polygon fill="chartreuse4" points="1,2 3,4 5,6"/>`), `unknown colour "chartreuse4"`},
		{"bad ellipse", page(`<ellipse cx="1" cy="2" rx="x" ry="1"/>`), `<ellipse>: rx="x" is not a number`},
		{"bad transform", page(`<g transform="matrix(1 0 0 1 0 0)"/>`), "unsupported matrix"},
		{"text without x", page(`<text y="1">a</text>`), "<text>: no x"},
		{"unknown gradient", page(`<polygon fill="url(#g)" points="1,2 3,4 5,6"/>`), `paint "url(#g)": no such gradient before it`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := pictureFromSVG([]byte(tt.svg), f)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErrSub)
		})
	}
}

// TestPNGGradient: a gradient fill is drawn in its first colour (a
// gradient's paint is a reference to its definition in the SVG).
func TestPNGGradient(t *testing.T) {
	img := pngOf(t, `digraph { node [style=filled, shape=box, width=2, height=1];
  a [fillcolor="#ca0020:#0571b0"]; b [style=radial, fillcolor="#00ff00:#ff00ff"]; a -> b; }`)
	red := count(img, func(c color.NRGBA) bool { return c == color.NRGBA{0xca, 0x00, 0x20, 255} })
	green := count(img, func(c color.NRGBA) bool { return c == color.NRGBA{0, 0xff, 0, 255} })
	// A 2 x 1 inch box at 96 dpi is about 18,000 pixels.
	assert.Greater(t, red, 12000, "linear gradient")
	assert.Greater(t, green, 12000, "radial gradient")
}

// TestPNGHTMLLabelText: text in an HTML-like label is drawn (a recording
// of go-graphviz's render callbacks lost it), in its font colour.
func TestPNGHTMLLabelText(t *testing.T) {
	dot := `digraph { a [shape=plaintext, label=<<table><tr><td bgcolor="yellow"><font color="#0000ff" point-size="30"><b>WWWW</b></font></td></tr></table>>]; }`
	img := pngOf(t, dot)
	blue := count(img, func(c color.NRGBA) bool { return c.B > 200 && c.R < 60 && c.G < 60 })
	yellow := count(img, func(c color.NRGBA) bool { return c.R > 240 && c.G > 240 && c.B < 30 })
	assert.Greater(t, blue, 300, "the label's text")
	assert.Greater(t, yellow, 2000, "the cell's background")
}

// TestPNGResolution: the PNG is laid out at 96 dpi, graphviz's default
// for PNG (4/3 of a pixel per point of the SVG, which is at 72 dpi), or
// at the graph's own dpi.
func TestPNGResolution(t *testing.T) {
	for _, tt := range []struct {
		attrs string
		dpi   float64
	}{
		{"", 96},
		{"dpi=48;", 48},
		{"resolution=144;", 144},
	} {
		t.Run(tt.attrs, func(t *testing.T) {
			dot := `digraph { ` + tt.attrs + ` node [shape=box, width=2, height=1, fixedsize=true]; a }`
			var svg, errs bytes.Buffer
			require.Equal(t, 0, run([]string{"-T", "svg"}, strings.NewReader(`digraph { node [shape=box, width=2, height=1, fixedsize=true]; a }`), &svg, &errs), errs.String())
			var size struct {
				Width  string `xml:"width,attr"`
				Height string `xml:"height,attr"`
			}
			require.NoError(t, xml.Unmarshal(svg.Bytes(), &size))
			wh, err := parseNumbers(strings.ReplaceAll(size.Width+" "+size.Height, "pt", ""))
			require.NoError(t, err)
			require.Len(t, wh, 2)
			w, h := wh[0], wh[1]
			img := pngOf(t, dot)
			assert.Equal(t, int(math.Round(w*tt.dpi/72)), img.Bounds().Dx())
			assert.Equal(t, int(math.Round(h*tt.dpi/72)), img.Bounds().Dy())
		})
	}
}

// pngOf is egprof-graphviz's PNG of dot.
func pngOf(t *testing.T, dot string) image.Image {
	t.Helper()
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-T", "png"}, strings.NewReader(dot), &out, &errs), errs.String())
	img, err := png.Decode(&out)
	require.NoError(t, err)
	return img
}

// count is how many pixels of img satisfy is.
func count(img image.Image, is func(color.NRGBA) bool) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if is(color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)) {
				n++
			}
		}
	}
	return n
}

func FuzzPictureFromSVG(f *testing.F) {
	f.Add([]byte(graphvizLikeSVG))
	f.Add([]byte(`<svg width="10pt" height="10pt"><g transform="rotate(90) scale(2)"><text x="1" y="2">é</text><path d="M0,0C1,1 2,2 3,3"/></g></svg>`))
	fonts, err := newFonts()
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, svg []byte) {
		pic, err := pictureFromSVG(svg, fonts)
		if err != nil {
			return
		}
		require.LessOrEqual(t, pic.width, 1<<20)
		require.LessOrEqual(t, pic.height, 1<<20)
		for _, op := range pic.ops {
			require.Zero(t, len(op.pts)%2, "x, y pairs")
			require.LessOrEqual(t, op.y0, op.y1)
		}
	})
}

// TestXMLChars: characters XML does not allow become U+FFFD, and SVG
// without any is left as it is.
func TestXMLChars(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"a\tb\nc\r\n é 日 😀 \ufffd", "a\tb\nc\r\n é 日 😀 \ufffd"},
		{"ctl \x01\x02\x1b x", "ctl \ufffd\ufffd\ufffd x"},
		{"\x00", "\ufffd"},
		{"\ufffe\uffff", "\ufffd\ufffd"},
		{"latin1 \xe9\xff.", "latin1 \ufffd\ufffd."},
	} {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, string(xmlChars([]byte(tt.in))))
		})
	}
}

// TestPNGControlCharacters: a label with control characters, which
// graphviz writes into its SVG as they are, is drawn (encoding/xml
// rejected the SVG), each of them as U+FFFD.
func TestPNGControlCharacters(t *testing.T) {
	img := pngOf(t, "digraph { a [label=\"WW\x01\x1bWW &#2;\", fontcolor=\"#0000ff\", fontsize=30] }")
	blue := count(img, func(c color.NRGBA) bool { return c.B > 200 && c.R < 60 && c.G < 60 })
	assert.Greater(t, blue, 300, "the label's text")
}

// TestTextOnTurnedPage: on a page graphviz turns (rotate=90: its
// transform has rotate(-90)), text runs bottom to top, and its anchor is
// the middle of that run.
func TestTextOnTurnedPage(t *testing.T) {
	// A quarter turn is exact: an upright rectangle stays one.
	m, err := parseTransform("rotate(-90)")
	require.NoError(t, err)
	assert.Equal(t, affine{a: 0, b: -1, c: 1, d: 0}, m)

	f, err := newFonts()
	require.NoError(t, err)
	svg := `<svg width="100pt" height="200pt"><g transform="rotate(-90) translate(-200 0)">` +
		`<text text-anchor="middle" x="100" y="50" font-size="10.00">abc</text></g></svg>`
	pic, err := pictureFromSVG([]byte(svg), f)
	require.NoError(t, err)
	require.Len(t, pic.ops, 1)
	op := pic.ops[0]
	assert.Equal(t, 1, op.turn)
	face, err := newFaceCache(f).face(op.face)
	require.NoError(t, err)
	w := float64(font.MeasureString(face, "abc") >> 6)
	// rotate(-90) takes (x, y) to (y, -x): the anchor (100-200, 50) goes
	// to (50, 100), and the baseline starts half the text below it.
	assert.InDelta(t, 50, op.pts[0], 1e-9)
	assert.InDelta(t, 100+w/2, op.pts[1], 1e-9)
	assert.InDelta(t, 100-w/2-2, op.y0, 1e-9)
	assert.InDelta(t, 100+w/2+2, op.y1, 1e-9)
}
