package main

import (
	"bytes"
	"hash/adler32"
	"image/png"
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
