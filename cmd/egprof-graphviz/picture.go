package main

import (
	"bufio"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	imagedraw "image/draw"
	"io"
	"math"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// A picture is a page's drawing operations, recorded from graphviz's
// render callbacks by pngEngine, in pixels.
type picture struct {
	width, height int
	// tx and ty are the page's translation, in pixels.
	tx, ty float64
	ops    []drawOp
}

// opKind says what a drawOp draws.
type opKind uint8

const (
	// opRect fills rect with the opaque colour fill straight into the
	// picture.
	opRect opKind = iota
	// opPath fills and strokes a path: a polygon, a broken line or a
	// piecewise cubic Bézier curve.
	opPath
	// opEllipse fills and strokes the ellipse of centre (pts[0], pts[1])
	// and radii pts[2], pts[3].
	opEllipse
	// opText draws text with face at the baseline's start (pts[0],
	// pts[1]) in the pen's colour.
	opText
)

// A drawOp is one recorded drawing operation. Coordinates are pixels, y
// down, before the page's translation (except rect, which is translated).
type drawOp struct {
	kind opKind
	// pts are x, y pairs; for opPath with curve, a start point and then
	// three points per cubic segment.
	pts    []float64
	curve  bool
	closed bool
	// filled says whether the shape is filled with fill; stroked whether it
	// is outlined with a pen of colour pen, width and dashes dash (solid
	// when empty).
	filled, stroked bool
	fill, pen       color.NRGBA
	width           float64
	dash            []float64
	rect            image.Rectangle
	text            string
	face            font.Face
	// y0 and y1 bound the rows of the picture the operation may touch.
	y0, y1 float64
}

// stripRows is how many rows of pixels are drawn at a time: a strip of a
// 9,000-pixel wide picture is 9 MB, where the whole picture could be more
// than a hundred.
const stripRows = 256

// stripMargin is how many rows above its strip a strip's drawing starts:
// the rasterizer truncates coordinates towards zero, so what lies less
// than a row above the drawing lands in its first row, a row that is then
// not kept.
const stripMargin = 8

// opaque reports whether the picture's first operation fills the whole
// page with an opaque colour (graphviz's background), so that every pixel
// is opaque.
func (p *picture) opaque() bool {
	return len(p.ops) > 0 && p.ops[0].kind == opRect &&
		p.ops[0].rect.Min.X <= 0 && p.ops[0].rect.Min.Y <= 0 &&
		p.ops[0].rect.Max.X >= p.width && p.ops[0].rect.Max.Y >= p.height
}

// encode draws the picture a strip of rows at a time and writes it to w as
// a PNG.
func (p *picture) encode(w io.Writer) error {
	if p.width <= 0 || p.height <= 0 {
		return fmt.Errorf("empty picture (%d x %d pixels)", p.width, p.height)
	}
	opaque := p.opaque()
	enc, err := newPNGWriter(w, p.width, p.height, opaque)
	if err != nil {
		return err
	}
	strip := image.NewRGBA(image.Rect(0, 0, p.width, stripMargin+stripRows))
	rows := strip.SubImage(image.Rect(0, stripMargin, p.width, stripMargin+stripRows)).(*image.RGBA)
	for y0 := 0; y0 < p.height; y0 += stripRows {
		if !opaque {
			clear(strip.Pix) // else the background covers every pixel
		}
		p.drawStrip(strip, y0-stripMargin)
		if err := enc.writeRows(rows, min(stripRows, p.height-y0)); err != nil {
			return err
		}
	}
	return enc.close()
}

// drawStrip draws into strip the operations that touch its rows, the
// picture's from y0 on.
func (p *picture) drawStrip(strip *image.RGBA, y0 int) {
	dc := gg.NewContextForRGBA(strip)
	dc.Translate(p.tx, p.ty-float64(y0))
	lo, hi := float64(y0), float64(y0+strip.Rect.Dy())
	for i := range p.ops {
		op := &p.ops[i]
		if op.y1 < lo || op.y0 > hi {
			continue
		}
		switch op.kind {
		case opRect:
			imagedraw.Draw(strip, op.rect.Sub(image.Pt(0, y0)), image.NewUniform(op.fill), image.Point{}, imagedraw.Src)
		case opPath:
			dc.Push()
			dc.MoveTo(op.pts[0], op.pts[1])
			if op.curve {
				for j := 2; j+5 < len(op.pts); j += 6 {
					dc.CubicTo(op.pts[j], op.pts[j+1], op.pts[j+2], op.pts[j+3], op.pts[j+4], op.pts[j+5])
				}
			} else {
				for j := 2; j+1 < len(op.pts); j += 2 {
					dc.LineTo(op.pts[j], op.pts[j+1])
				}
			}
			if op.closed {
				dc.ClosePath()
			}
			paint(dc, op)
			dc.Pop()
		case opEllipse:
			dc.Push()
			dc.DrawEllipse(op.pts[0], op.pts[1], op.pts[2], op.pts[3])
			paint(dc, op)
			dc.Pop()
		case opText:
			// Glyphs are drawn where they go, at their fractional
			// position, not drawn at the origin and moved by
			// bilinear interpolation as gg does: that costs more
			// than all the other shapes.
			d := font.Drawer{Dst: strip, Src: image.NewUniform(op.pen), Face: op.face,
				Dot: fixed.Point26_6{X: fixed26(op.pts[0] + p.tx), Y: fixed26(op.pts[1] + p.ty - float64(y0))}}
			d.DrawString(op.text)
		}
	}
}

// fixed26 is v in 26.6 fixed point, rounded.
func fixed26(v float64) fixed.Int26_6 {
	return fixed.Int26_6(math.Round(v * 64))
}

// paint fills the current path when op is filled and strokes it with op's
// pen.
func paint(dc *gg.Context, op *drawOp) {
	if op.filled {
		dc.SetColor(op.fill)
		dc.FillPreserve()
	}
	if op.stroked {
		dc.SetDash(op.dash...)
		dc.SetLineWidth(op.width)
		dc.SetColor(op.pen)
		dc.Stroke()
	}
	dc.ClearPath()
}

// pngWriter writes a PNG a few rows at a time: 8-bit RGB when every pixel
// is opaque, else 8-bit RGBA; each row filtered with the Up filter (a
// picture of boxes on a white page repeats most rows) and compressed at
// zlib's fast level.
type pngWriter struct {
	w    *bufio.Writer
	idat *idatWriter
	zw   *zlib.Writer
	// bpp is the bytes per pixel; prev and cur are the previous row and
	// the row being written, unfiltered, and out the filtered row with its
	// filter byte.
	bpp            int
	prev, cur, out []byte
}

// pngFilterUp is PNG's Up filter: each byte minus the one above it.
const pngFilterUp = 2

func newPNGWriter(w io.Writer, width, height int, opaque bool) (*pngWriter, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	pw := &pngWriter{w: bw, bpp: 4}
	colourType := byte(6) // RGBA
	if opaque {
		pw.bpp, colourType = 3, 2 // RGB
	}
	if _, err := bw.WriteString("\x89PNG\r\n\x1a\n"); err != nil {
		return nil, fmt.Errorf("writing PNG: %w", err)
	}
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = 8, colourType // depth 8; compression, filter, interlace 0
	if err := writeChunk(bw, "IHDR", ihdr[:]); err != nil {
		return nil, err
	}
	pw.idat = &idatWriter{w: bw, buf: make([]byte, 0, 256<<10)}
	zw, err := zlib.NewWriterLevel(pw.idat, zlib.BestSpeed)
	if err != nil {
		return nil, fmt.Errorf("writing PNG: %w", err)
	}
	pw.zw = zw
	n := width * pw.bpp
	pw.prev, pw.cur, pw.out = make([]byte, n), make([]byte, n), make([]byte, n+1)
	return pw, nil
}

// writeRows writes the first n rows of img, whose width is the picture's.
func (pw *pngWriter) writeRows(img *image.RGBA, n int) error {
	for y := range n {
		row := img.Pix[y*img.Stride : y*img.Stride+img.Rect.Dx()*4]
		pw.out[0] = pngFilterUp
		out, cur, prev := pw.out[1:], pw.cur, pw.prev
		if pw.bpp == 3 {
			cur, prev, out = cur[:len(row)/4*3], prev[:len(row)/4*3], out[:len(row)/4*3]
			for i, j := 0, 0; i+3 < len(row) && j+2 < len(cur); i, j = i+4, j+3 {
				r, g, b := row[i], row[i+1], row[i+2]
				cur[j], cur[j+1], cur[j+2] = r, g, b
				out[j], out[j+1], out[j+2] = r-prev[j], g-prev[j+1], b-prev[j+2]
			}
		} else {
			for i := 0; i < len(row); i += 4 {
				c := color.NRGBAModel.Convert(color.RGBA{row[i], row[i+1], row[i+2], row[i+3]}).(color.NRGBA)
				cur[i], cur[i+1], cur[i+2], cur[i+3] = c.R, c.G, c.B, c.A
			}
			for i, b := range cur {
				out[i] = b - prev[i]
			}
		}
		if _, err := pw.zw.Write(pw.out); err != nil {
			return fmt.Errorf("writing PNG: %w", err)
		}
		pw.prev, pw.cur = pw.cur, pw.prev
	}
	return nil
}

// close ends the compressed data and the PNG.
func (pw *pngWriter) close() error {
	if err := pw.zw.Close(); err != nil {
		return fmt.Errorf("writing PNG: %w", err)
	}
	if err := pw.idat.flush(); err != nil {
		return err
	}
	if err := writeChunk(pw.w, "IEND", nil); err != nil {
		return err
	}
	if err := pw.w.Flush(); err != nil {
		return fmt.Errorf("writing PNG: %w", err)
	}
	return nil
}

// idatWriter cuts the compressed data into IDAT chunks.
type idatWriter struct {
	w   io.Writer
	buf []byte
}

func (iw *idatWriter) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		k := min(len(b), cap(iw.buf)-len(iw.buf))
		iw.buf = append(iw.buf, b[:k]...)
		b = b[k:]
		if len(iw.buf) == cap(iw.buf) {
			if err := iw.flush(); err != nil {
				return 0, err
			}
		}
	}
	return n, nil
}

// flush writes the data buffered as one IDAT chunk.
func (iw *idatWriter) flush() error {
	if len(iw.buf) == 0 {
		return nil
	}
	err := writeChunk(iw.w, "IDAT", iw.buf)
	iw.buf = iw.buf[:0]
	return err
}

// writeChunk writes one PNG chunk: length, type, data and CRC.
func writeChunk(w io.Writer, typ string, data []byte) error {
	var head [8]byte
	binary.BigEndian.PutUint32(head[:4], uint32(len(data)))
	copy(head[4:], typ)
	crc := crc32.NewIEEE()
	crc.Write(head[4:])
	crc.Write(data)
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], crc.Sum32())
	for _, b := range [][]byte{head[:], data, tail[:]} {
		if _, err := w.Write(b); err != nil {
			return fmt.Errorf("writing PNG: %w", err)
		}
	}
	return nil
}
