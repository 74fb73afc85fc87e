package main

import (
	"bytes"
	"hash/adler32"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/image/font"
)

// TestAdler32Combine: the checksum of two pieces combined is the checksum
// of the whole, for pieces of every length class (empty, short, longer
// than Adler-32's modulus).
func TestAdler32Combine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 200000)
	for i := range data {
		data[i] = byte(rng.IntN(256))
	}
	for _, cut := range []int{0, 1, 100, 65521, 65522, 150000, len(data)} {
		a, b := data[:cut], data[cut:]
		got := adler32Combine(adler32.Checksum(a), adler32.Checksum(b), int64(len(b)))
		assert.Equal(t, adler32.Checksum(data), got, "cut at %d", cut)
	}
	// Chained over many strips, as encode does.
	sum := uint32(1)
	for i := 0; i < len(data); i += 7000 {
		piece := data[i:min(i+7000, len(data))]
		sum = adler32Combine(sum, adler32.Checksum(piece), int64(len(piece)))
	}
	assert.Equal(t, adler32.Checksum(data), sum)
}

// TestPNGTransparent: without a background the picture is RGBA, and it
// decodes (several strips, each its own deflate stream) with the box and
// the transparent page.
func TestPNGTransparent(t *testing.T) {
	dot := `digraph {
  bgcolor=transparent;
  node [shape=box, width=2, height=6, style=filled, fillcolor="#ca0020", color="#000000"];
  a;
}`
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-T", "png"}, strings.NewReader(dot), &out, &errs), errs.String())
	img, err := png.Decode(&out)
	require.NoError(t, err)
	b := img.Bounds()
	require.Greater(t, b.Dy(), 2*stripRows, "several strips")
	red, clear := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			switch {
			case a == 0:
				clear++
			case a == 0xffff && r>>8 == 0xca && g>>8 == 0 && bl>>8 == 0x20:
				red++
			}
		}
	}
	// A 2 x 6 inch box at 96 dpi is about 110,000 pixels.
	assert.Greater(t, red, 100000, "box filled")
	assert.Greater(t, clear, 1000, "page transparent")
}

// pngOnWhite is the PNG of a square picture of side pixels: a white page
// with op drawn on it.
func pngOnWhite(t *testing.T, f *fonts, side int, op drawOp) image.Image {
	t.Helper()
	pic := &picture{fonts: f, width: side, height: side, ops: []drawOp{
		{kind: opRect, rect: image.Rect(0, 0, side, side), fill: color.NRGBA{255, 255, 255, 255}, y1: float64(side)},
		op,
	}}
	var buf bytes.Buffer
	require.NoError(t, pic.encode(&buf))
	img, err := png.Decode(&buf)
	require.NoError(t, err)
	return img
}

// TestPNGPolygonJoins: each corner of a thick outline is joined, also the
// one where its path starts and ends (flat line ends left a notch there),
// and no side is drawn darker than the others, so that shapes symmetric
// about the page's middle are drawn symmetric: a triangle (an arrowhead,
// as graphviz writes one), and a box's thin outline whose first side is
// its top.
func TestPNGPolygonJoins(t *testing.T) {
	f, err := newFonts()
	require.NoError(t, err)
	black := color.NRGBA{0, 0, 0, 255}
	triangle := []float64{75, 30, 50, 70, 25, 30}
	box := []float64{80, 20.3, 20, 20.3, 20, 79.7, 80, 79.7}
	for _, tt := range []struct {
		name string
		op   drawOp
		// upsideDown mirrors the page top to bottom, else left to right.
		upsideDown bool
		// minInk is the least ink of the shape, in pixels.
		minInk float64
	}{
		{name: "outline", op: drawOp{pts: triangle, stroked: true, pen: black, width: 20}, minInk: 1500},
		{name: "filled", op: drawOp{pts: triangle, filled: true, fill: black, stroked: true, pen: black, width: 20}, minInk: 1500},
		// graphviz's SVG repeats the first point last.
		{name: "closing point", op: drawOp{pts: append(triangle, 75, 30), stroked: true, pen: black, width: 20}, minInk: 1500},
		{name: "thin box", op: drawOp{pts: append(box, 80, 20.3), stroked: true, pen: black, width: 4.0 / 3}, upsideDown: true, minInk: 300},
	} {
		t.Run(tt.name, func(t *testing.T) {
			op := tt.op
			op.kind, op.closed = opPath, true
			op.y0, op.y1 = 0, 100
			img := pngOnWhite(t, f, 100, op)
			ink := func(x, y int) float64 {
				r, _, _, _ := img.At(x, y).RGBA()
				return 1 - float64(r)/0xffff
			}
			inked, asymmetric := 0.0, 0.0
			for y := range 100 {
				for x := range 100 {
					mx, my := 99-x, y
					if tt.upsideDown {
						mx, my = x, 99-y
					}
					inked += ink(x, y)
					asymmetric += math.Abs(ink(x, y) - ink(mx, my))
				}
			}
			assert.Greater(t, inked, tt.minInk, "the shape")
			// Some 4 pixels' worth of ink differ (antialiasing); the
			// triangle's notch made it 214, and drawing the first
			// side twice 30 for the triangle, 48 for the box.
			assert.Less(t, asymmetric, 12.0)
		})
	}
}

// TestPNGTurnedText: text on a turned page runs along its baseline's
// direction from its start, with its top on the side the turn puts it
// (on a page turned by rotate=90 the text runs bottom to top, its top to
// the left); upright text, drawn otherwise, is the reference.
func TestPNGTurnedText(t *testing.T) {
	f, err := newFonts()
	require.NoError(t, err)
	face, err := newFaceCache(f).face(faceKey{size: 20})
	require.NoError(t, err)
	ascent, descent := face.Metrics().Ascent.Ceil(), face.Metrics().Descent.Ceil()
	const x0, y0 = 100, 100 // the baseline's start
	blue := color.NRGBA{0, 0, 0xff, 255}
	for _, tt := range []struct {
		turn int
		// want bounds the ink: the text's length along its baseline
		// from (x0, y0), its ascent and descent across it.
		want func(length int) image.Rectangle
	}{
		{0, func(n int) image.Rectangle { return image.Rect(x0, y0-ascent, x0+n, y0+descent) }},
		{1, func(n int) image.Rectangle { return image.Rect(x0-ascent, y0-n, x0+descent, y0) }},
		{2, func(n int) image.Rectangle { return image.Rect(x0-n, y0-descent, x0, y0+ascent) }},
		{3, func(n int) image.Rectangle { return image.Rect(x0-descent, y0, x0+ascent, y0+n) }},
	} {
		t.Run(strconv.Itoa(tt.turn), func(t *testing.T) {
			op := drawOp{kind: opText, text: "Wgy", face: faceKey{size: 20}, pen: blue, pts: []float64{x0, y0}, turn: tt.turn, y0: 0, y1: 200}
			img := pngOnWhite(t, f, 200, op)
			var ink image.Rectangle
			for y := range 200 {
				for x := range 200 {
					if r, _, _, _ := img.At(x, y).RGBA(); r < 0x8000 {
						ink = ink.Union(image.Rect(x, y, x+1, y+1))
					}
				}
			}
			require.False(t, ink.Empty(), "text drawn")
			want := tt.want(font.MeasureString(face, "Wgy").Ceil())
			// Glyphs do not fill their advance and ascent to the pixel:
			// the ink lies within the box, and spans most of its length.
			assert.True(t, ink.In(want.Inset(-1)), "ink %v within %v", ink, want)
			length := max(ink.Dx(), ink.Dy())
			assert.Greater(t, length, max(want.Dx(), want.Dy())*3/4, "ink %v along the baseline of %v", ink, want)
			assert.Equal(t, tt.turn%2 == 1, ink.Dy() > ink.Dx(), "ink %v runs along the baseline", ink)
		})
	}
}
