package main

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"image"
	"image/color"
	imagedraw "image/draw"
	"io"
	"math"
	"runtime"
	"sync"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// A picture is a page's drawing operations, read from graphviz's SVG of
// the page by pictureFromSVG, in pixels.
type picture struct {
	fonts         *fonts
	width, height int
	ops           []drawOp
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
	// opText draws text in the face named by face at the baseline's start (pts[0],
	// pts[1]) in the pen's colour, turned turn quarter turns
	// counterclockwise (see quarterTurns).
	opText
)

// A drawOp is one recorded drawing operation. Coordinates are the
// picture's pixels, y down.
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
	face            faceKey
	turn            int
	// y0 and y1 bound the rows of the picture the operation may touch.
	y0, y1 float64
}

// stripRows is how many rows of pixels are drawn at a time: a strip of a
// 9,000-pixel wide picture is under 5 MB, where the whole picture could be
// more than a hundred.
const stripRows = 128

// stripMargin is how many rows above its strip a strip's drawing starts:
// the rasterizer truncates coordinates towards zero, so what lies less
// than a row above the drawing lands in its first row, a row that is then
// not kept.
const stripMargin = 8

// maxStripWorkers bounds how many strips are drawn at once, each in a
// buffer of its own.
const maxStripWorkers = 4

// opaque reports whether the picture's first operation fills the whole
// page with an opaque colour (graphviz's background), so that every pixel
// is opaque.
func (p *picture) opaque() bool {
	return len(p.ops) > 0 && p.ops[0].kind == opRect &&
		p.ops[0].rect.Min.X <= 0 && p.ops[0].rect.Min.Y <= 0 &&
		p.ops[0].rect.Max.X >= p.width && p.ops[0].rect.Max.Y >= p.height
}

// encode draws the picture a strip of rows at a time and writes it to w as
// a PNG: 8-bit RGB when every pixel is opaque, else 8-bit RGBA. Strips are
// drawn, filtered and compressed on as many processors as there are (up
// to maxStripWorkers), each into a deflate stream of its own that ends
// byte-aligned (a sync flush), and the streams are written in order as
// one zlib stream. It is written here rather than taken from image/png
// because image/png encodes only a whole image held in memory (123 MB for
// a 200-function graph); the compression and checksums are the standard
// library's (compress/flate, hash/adler32, hash/crc32).
func (p *picture) encode(w io.Writer) error {
	if p.width <= 0 || p.height <= 0 {
		return fmt.Errorf("empty picture (%d x %d pixels)", p.width, p.height)
	}
	opaque := p.opaque()
	strips := (p.height + stripRows - 1) / stripRows
	results := make([]chan stripResult, strips)
	for i := range results {
		results[i] = make(chan stripResult, 1)
	}
	next := make(chan int)
	done := make(chan struct{})
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(done)
	wg.Go(func() {
		defer close(next)
		for k := range strips {
			select {
			case next <- k:
			case <-done:
				return
			}
		}
	})
	for range min(runtime.GOMAXPROCS(0), maxStripWorkers, strips) {
		wg.Go(func() {
			s := newStripEncoder(p, opaque)
			for k := range next {
				results[k] <- s.encode(k, k == strips-1)
			}
		})
	}

	bw := bufio.NewWriterSize(w, 64<<10)
	if err := writePNGHeader(bw, p.width, p.height, opaque); err != nil {
		return err
	}
	idat := &idatWriter{w: bw, buf: make([]byte, 0, 256<<10)}
	// zlib's header: deflate with a 32 KB window, the fastest level.
	if _, err := idat.Write([]byte{0x78, 0x01}); err != nil {
		return err
	}
	sum := uint32(1) // Adler-32 of no bytes
	for k := range strips {
		r := <-results[k]
		if r.err != nil {
			return r.err
		}
		if _, err := idat.Write(r.data); err != nil {
			return err
		}
		sum = adler32Combine(sum, r.adler, r.n)
	}
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], sum)
	if _, err := idat.Write(tail[:]); err != nil {
		return err
	}
	if err := idat.flush(); err != nil {
		return err
	}
	if err := writeChunk(bw, "IEND", nil); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing PNG: %w", err)
	}
	return nil
}

// drawStrip draws into strip the operations that touch its rows, the
// picture's from y0 on, with faces from faces.
func (p *picture) drawStrip(strip *image.RGBA, y0 int, faces faceCache) error {
	dc := gg.NewContextForRGBA(strip)
	// Lines end flat, as in graphviz's own SVG and PNG (and rounding
	// each end of each piece of an edge cost a tenth of the PNG's CPU).
	dc.SetLineCapButt()
	dc.Translate(0, -float64(y0))
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
			p.path(dc, op, lo, hi)
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
			f, err := faces.face(op.face)
			if err != nil {
				return err
			}
			if op.turn != 0 {
				drawTurnedText(strip, op, f, y0)
				continue
			}
			d := font.Drawer{Dst: strip, Src: image.NewUniform(op.pen), Face: f,
				Dot: fixed.Point26_6{X: fixed26(op.pts[0]), Y: fixed26(op.pts[1] - float64(y0))}}
			d.DrawString(op.text)
		}
	}
	return nil
}

// drawTurnedText draws op's text, turned op.turn quarter turns, into
// strip, whose first row is the picture's row y0, in the face f: the part
// of the text the strip shows is drawn upright into a mask of its own,
// which is turned and then painted in the pen's colour.
func drawTurnedText(strip *image.RGBA, op *drawOp, f font.Face, y0 int) {
	m := f.Metrics()
	ascent, height := m.Ascent.Ceil(), m.Ascent.Ceil()+m.Descent.Ceil()
	width := font.MeasureString(f, op.text).Ceil()
	if width <= 0 || height <= 0 {
		return
	}
	// Pixel (x, y) of the turned text's area shows pixel (u, v) of the
	// text drawn upright, u along the baseline from its start and v down
	// from its top.
	x0, yb := int(math.Round(op.pts[0])), int(math.Round(op.pts[1]))-y0
	var area image.Rectangle
	var from func(x, y int) (u, v int)
	switch op.turn {
	case 1: // bottom to top: down the text is right on the page
		area = image.Rect(x0-ascent, yb-width, x0-ascent+height, yb)
		from = func(x, y int) (int, int) { return yb - 1 - y, x - (x0 - ascent) }
	case 2: // upside down: down the text is up the page
		area = image.Rect(x0-width+1, yb+ascent-height+1, x0+1, yb+ascent+1)
		from = func(x, y int) (int, int) { return x0 - x, yb + ascent - y }
	default: // 3, top to bottom: down the text is left on the page
		area = image.Rect(x0+ascent-height+1, yb, x0+ascent+1, yb+width)
		from = func(x, y int) (int, int) { return y - yb, x0 + ascent - x }
	}
	// Only what the strip shows is drawn: a long text across many strips
	// is not drawn whole for each.
	area = area.Intersect(strip.Rect)
	if area.Empty() {
		return
	}
	u0, v0 := from(area.Min.X, area.Min.Y)
	u1, v1 := from(area.Max.X-1, area.Max.Y-1)
	upright := image.NewAlpha(image.Rect(min(u0, u1), min(v0, v1), max(u0, u1)+1, max(v0, v1)+1))
	d := font.Drawer{Dst: upright, Src: image.Opaque, Face: f, Dot: fixed.P(0, ascent)}
	d.DrawString(op.text)
	turned := image.NewAlpha(area)
	for y := area.Min.Y; y < area.Max.Y; y++ {
		for x := area.Min.X; x < area.Max.X; x++ {
			u, v := from(x, y)
			turned.SetAlpha(x, y, upright.AlphaAt(u, v))
		}
	}
	imagedraw.DrawMask(strip, area, image.NewUniform(op.pen), image.Point{}, turned, area.Min, imagedraw.Over)
}

// path makes op's path dc's current path. An open, unfilled, solid path
// (an edge) leaves out the segments that lie wholly outside the rows from
// lo to hi (and the stroke's reach beyond them), starting a new subpath
// after each gap: a long edge crosses many strips, and stroking all of it
// for each would cost more than the rest of the drawing. What is left out
// draws no pixel of these rows, nor do the ends and joins at its points,
// which lie beyond the stroke's reach of them.
func (p *picture) path(dc *gg.Context, op *drawOp, lo, hi float64) {
	pts := op.pts
	if op.closed && !op.curve && len(op.dash) == 0 && len(pts) >= 4 {
		// A dashed outline keeps its start, where its dashes start.
		polygon(dc, pts)
		return
	}
	cull := !op.closed && !op.filled && len(op.dash) == 0
	reach := op.width + 2
	// outside reports whether the points pts[i:j] lie wholly above or
	// below the rows (control points bound a Bézier segment).
	outside := func(i, j int) bool {
		if !cull {
			return false
		}
		above, below := true, true
		for k := i + 1; k < j; k += 2 {
			y := pts[k]
			above = above && y < lo-reach
			below = below && y > hi+reach
		}
		return above || below
	}
	step := 2
	if op.curve {
		step = 6
	}
	dc.MoveTo(pts[0], pts[1])
	gap := false
	for j := 2; j+step-1 < len(pts); j += step {
		if outside(j-2, j+step) {
			gap = true
			continue
		}
		if gap {
			dc.MoveTo(pts[j-2], pts[j-1])
			gap = false
		}
		if op.curve {
			dc.CubicTo(pts[j], pts[j+1], pts[j+2], pts[j+3], pts[j+4], pts[j+5])
		} else {
			dc.LineTo(pts[j], pts[j+1])
		}
	}
	if op.closed {
		dc.ClosePath()
	}
}

// polygon makes the polygon of the points xy dc's current path, starting
// and ending halfway along its first side. gg strokes a closed path as an
// open one, with flat ends where it starts and ends: at a corner they left
// a notch as wide as the pen where the other corners have a round join;
// halfway along a side they meet in line, and every corner is joined.
// (Drawing the first side twice instead, to join its corner, made that
// side's antialiased edges darker.) The last point is left out when it
// repeats the first, as graphviz writes a polygon.
func polygon(dc *gg.Context, xy []float64) {
	n := len(xy)
	if n >= 6 && xy[n-2] == xy[0] && xy[n-1] == xy[1] {
		n -= 2
	}
	mx, my := (xy[0]+xy[2])/2, (xy[1]+xy[3])/2
	dc.MoveTo(mx, my)
	for j := 2; j+1 < n; j += 2 {
		dc.LineTo(xy[j], xy[j+1])
	}
	dc.LineTo(xy[0], xy[1])
	dc.LineTo(mx, my)
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

// stripResult is one strip, filtered and compressed: its deflate stream,
// the Adler-32 checksum of the filtered rows and their length.
type stripResult struct {
	data  []byte
	adler uint32
	n     int64
	err   error
}

// stripEncoder draws, filters and compresses strips, one at a time; each
// goroutine has its own.
type stripEncoder struct {
	p     *picture
	img   *image.RGBA
	faces faceCache
	// bpp is the bytes per pixel; out is the filtered row with its
	// filter byte; for RGBA, prev and cur are the previous row and the
	// row being written, unfiltered and not premultiplied.
	bpp            int
	prev, cur, out []byte
	buf            bytes.Buffer
	fw             *flate.Writer
}

// The PNG filters used: None for a strip's first row (the row above it is
// another strip's), Up for the others (a picture of boxes on a white page
// repeats most rows).
const (
	pngFilterNone = 0
	pngFilterUp   = 2
)

// newStripEncoder returns an encoder of p's strips, RGB when opaque,
// else RGBA.
func newStripEncoder(p *picture, opaque bool) *stripEncoder {
	s := &stripEncoder{
		p:     p,
		img:   image.NewRGBA(image.Rect(0, 0, p.width, stripMargin+stripRows)),
		faces: newFaceCache(p.fonts),
		bpp:   4,
	}
	if opaque {
		s.bpp = 3
	}
	n := p.width * s.bpp
	s.out = make([]byte, n+1)
	if !opaque {
		s.prev, s.cur = make([]byte, n), make([]byte, n)
	}
	return s
}

// encode draws strip k, filters its rows and compresses them into a
// deflate stream that ends byte-aligned, or, for the last strip, ends.
func (s *stripEncoder) encode(k int, last bool) stripResult {
	y0 := k * stripRows
	rows := min(stripRows, s.p.height-y0)
	if s.bpp == 4 {
		clear(s.img.Pix) // else the background covers every pixel
	}
	if err := s.p.drawStrip(s.img, y0-stripMargin, s.faces); err != nil {
		return stripResult{err: err}
	}
	s.buf.Reset()
	if s.fw == nil {
		fw, err := flate.NewWriter(&s.buf, flate.BestSpeed)
		if err != nil {
			return stripResult{err: fmt.Errorf("writing PNG: %w", err)}
		}
		s.fw = fw
	} else {
		s.fw.Reset(&s.buf)
	}
	sum := adler32.New()
	for y := range rows {
		row := s.img.Pix[(stripMargin+y)*s.img.Stride:]
		if s.bpp == 3 {
			var above []byte
			if y > 0 {
				above = s.img.Pix[(stripMargin+y-1)*s.img.Stride:]
			}
			s.filterRGB(row, above)
		} else {
			s.filterRow(row, y == 0)
		}
		sum.Write(s.out)
		if _, err := s.fw.Write(s.out); err != nil {
			return stripResult{err: fmt.Errorf("writing PNG: %w", err)}
		}
	}
	var err error
	if last {
		err = s.fw.Close()
	} else {
		err = s.fw.Flush()
	}
	if err != nil {
		return stripResult{err: fmt.Errorf("writing PNG: %w", err)}
	}
	return stripResult{data: bytes.Clone(s.buf.Bytes()), adler: sum.Sum32(), n: int64(rows) * int64(len(s.out))}
}

// filterRGB turns the row of opaque RGBA pixels at the start of pix into
// s.out: its filter byte and its RGB bytes, filtered Up from the row at
// the start of above, or None (Up from zeros) when above is nil. A run of
// pixels equal to those above (most of a picture of boxes on a white
// page) is compared as a whole and gives zeros.
func (s *stripEncoder) filterRGB(pix, above []byte) {
	const run = 64 // pixels compared at once
	width := s.p.width
	out := s.out[1 : 1+3*width]
	s.out[0] = pngFilterUp
	if above == nil {
		s.out[0] = pngFilterNone
	}
	for x0 := 0; x0 < width; x0 += run {
		x1 := min(x0+run, width)
		cur := pix[4*x0 : 4*x1]
		dst := out[3*x0 : 3*x1]
		if above == nil {
			for i, j := 0, 0; i+3 < len(cur) && j+2 < len(dst); i, j = i+4, j+3 {
				dst[j], dst[j+1], dst[j+2] = cur[i], cur[i+1], cur[i+2]
			}
			continue
		}
		up := above[4*x0 : 4*x1]
		if bytes.Equal(cur, up) {
			clear(dst)
			continue
		}
		for i, j := 0, 0; i+3 < len(cur) && i+3 < len(up) && j+2 < len(dst); i, j = i+4, j+3 {
			dst[j], dst[j+1], dst[j+2] = cur[i]-up[i], cur[i+1]-up[i+1], cur[i+2]-up[i+2]
		}
	}
}

// filterRow turns the row of RGBA pixels at the start of pix into s.out:
// its filter byte and its filtered bytes, non-premultiplied RGBA. first
// says the row is its strip's first.
func (s *stripEncoder) filterRow(pix []byte, first bool) {
	row := pix[:s.p.width*4]
	out, cur, prev := s.out[1:], s.cur, s.prev
	if first {
		clear(prev) // the None filter is Up from a row of zeros
		s.out[0] = pngFilterNone
	} else {
		s.out[0] = pngFilterUp
	}
	for i := 0; i+3 < len(row); i += 4 {
		c := color.NRGBAModel.Convert(color.RGBA{row[i], row[i+1], row[i+2], row[i+3]}).(color.NRGBA)
		cur[i], cur[i+1], cur[i+2], cur[i+3] = c.R, c.G, c.B, c.A
	}
	for i, b := range cur {
		out[i] = b - prev[i]
	}
	s.prev, s.cur = s.cur, s.prev
}

// adler32Combine is the Adler-32 checksum of the bytes of checksum a
// followed by n bytes of checksum b (zlib's adler32_combine).
func adler32Combine(a, b uint32, n int64) uint32 {
	const base = 65521
	rem := uint32(n % base)
	sum1 := a & 0xffff
	sum2 := uint32((uint64(rem) * uint64(sum1)) % base)
	sum1 += (b & 0xffff) + base - 1
	sum2 += (a >> 16) + (b >> 16) + base - rem
	if sum1 >= base {
		sum1 -= base
	}
	if sum1 >= base {
		sum1 -= base
	}
	if sum2 >= base<<1 {
		sum2 -= base << 1
	}
	if sum2 >= base {
		sum2 -= base
	}
	return sum1 | sum2<<16
}

// writePNGHeader writes the PNG signature and the IHDR chunk: 8 bits per
// channel, RGB when opaque, else RGBA.
func writePNGHeader(w io.Writer, width, height int, opaque bool) error {
	if _, err := io.WriteString(w, "\x89PNG\r\n\x1a\n"); err != nil {
		return fmt.Errorf("writing PNG: %w", err)
	}
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = 8, 6 // depth 8, RGBA; compression, filter, interlace 0
	if opaque {
		ihdr[9] = 2 // RGB
	}
	return writeChunk(w, "IHDR", ihdr[:])
}

// idatWriter cuts the compressed data into IDAT chunks.
type idatWriter struct {
	w   io.Writer
	buf []byte
}

// Write buffers b, writing a chunk each time the buffer fills.
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
