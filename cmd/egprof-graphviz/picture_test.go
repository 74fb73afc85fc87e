package main

import (
	"bytes"
	"hash/adler32"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
			pic := &picture{fonts: f, width: 100, height: 100, ops: []drawOp{
				{kind: opRect, rect: image.Rect(0, 0, 100, 100), fill: color.NRGBA{255, 255, 255, 255}, y1: 100},
				op,
			}}
			var buf bytes.Buffer
			require.NoError(t, pic.encode(&buf))
			img, err := png.Decode(&buf)
			require.NoError(t, err)
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
