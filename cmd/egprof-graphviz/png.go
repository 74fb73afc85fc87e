package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	imagedraw "image/draw"
	"image/png"
	"math"
	"strings"

	"github.com/fogleman/gg"
	"github.com/goccy/go-graphviz/gvc"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
)

// pngEngine draws graphviz's rendering calls into a PNG. go-graphviz has a
// PNG renderer of its own, but it leaves the outlines of filled shapes
// undrawn (node borders, table cells), fills edge curves as if they were
// areas (go-graphviz v0.2.10 reports every Bézier curve as filled), and
// draws text at 72 dpi on a 96 dpi picture. This one strokes outlines,
// fills a curve only when the object drawn is filled (a rounded box), and
// sizes text with the picture. Text is set in the Go fonts, so pictures
// look the same on every machine, fonts installed or not.
type pngEngine struct {
	*gvc.DefaultRenderEngine
	dc      *gg.Context
	regular *opentype.Font
	bold    *opentype.Font
	faces   map[faceKey]font.Face
	// sx and sy are the page's scale from points to pixels, read once per
	// page: every field read from graphviz crosses into its WASM module,
	// which costs more than drawing a box.
	sx, sy float64
}

type faceKey struct {
	bold bool
	size float64
}

// htmlBold is graphviz's text flag for <b> in HTML-like labels.
const htmlBold = 1

func newPNGEngine() (*pngEngine, error) {
	regular, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return nil, fmt.Errorf("loading the Go font: %w", err)
	}
	bold, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return nil, fmt.Errorf("loading the Go bold font: %w", err)
	}
	return &pngEngine{
		DefaultRenderEngine: new(gvc.DefaultRenderEngine),
		regular:             regular,
		bold:                bold,
		faces:               map[faceKey]font.Face{},
	}, nil
}

// pngPlugins are the go-graphviz plugins that render PNG with e.
func pngPlugins(ctx context.Context, e *pngEngine) ([]gvc.Plugin, error) {
	render, err := gvc.NewRenderPlugin(ctx, "png", e)
	if err != nil {
		return nil, fmt.Errorf("PNG render plugin: %w", err)
	}
	device, err := gvc.PNGDevicePlugin(ctx)
	if err != nil {
		return nil, fmt.Errorf("PNG device plugin: %w", err)
	}
	return []gvc.Plugin{render, device}, nil
}

func (e *pngEngine) face(bold bool, size float64) (font.Face, error) {
	k := faceKey{bold, size}
	if f, ok := e.faces[k]; ok {
		return f, nil
	}
	ft := e.regular
	if bold {
		ft = e.bold
	}
	f, err := opentype.NewFace(ft, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("font of size %g: %w", size, err)
	}
	e.faces[k] = f
	return f, nil
}

// BeginPage starts a picture of the page's size, in graphviz's coordinates
// (points, y up) scaled to pixels.
func (e *pngEngine) BeginPage(_ context.Context, job *gvc.Job) error {
	e.dc = gg.NewContext(int(job.Width()), int(job.Height()))
	s := job.Scale()
	e.sx, e.sy = s.X(), s.Y()
	sx, sy := e.sx, e.sy
	t := job.Translation()
	e.dc.Translate(sx*t.X(), -sy*t.Y())
	return nil
}

// EndPage hands the encoded PNG to graphviz.
func (e *pngEngine) EndPage(_ context.Context, job *gvc.Job) error {
	var buf bytes.Buffer
	// Fast compression: on a picture of a 200-function graph (16
	// megapixels) the default level spends seconds for a file a little
	// smaller.
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, e.dc.Image()); err != nil {
		return fmt.Errorf("encoding PNG: %w", err)
	}
	job.SetOutputData(buf.Bytes())
	job.SetOutputDataPosition(uint(buf.Len()))
	return nil
}

func (e *pngEngine) setColor(c *gvc.Color) {
	rgba := c.RGBAUint()
	e.dc.SetRGBA255(int(rgba[0]), int(rgba[1]), int(rgba[2]), int(rgba[3]))
}

// pen sets colour, width and dashes of the current pen; it reports false
// when the object has no pen.
func (e *pngEngine) pen(job *gvc.Job) bool {
	o := job.Object()
	sx := e.sx
	switch o.Pen() {
	case gvc.PenNone:
		return false
	case gvc.PenDashed:
		e.dc.SetDash(6*sx, 4*sx)
	case gvc.PenDotted:
		e.dc.SetDash(1.5*sx, 3*sx)
	default:
		e.dc.SetDash()
	}
	e.dc.SetLineWidth(max(o.PenWidth(), 0.5) * sx)
	e.setColor(o.PenColor())
	return true
}

// paint fills the current path when asked to and strokes it with the pen.
func (e *pngEngine) paint(job *gvc.Job, filled bool) {
	if filled {
		e.setColor(job.Object().FillColor())
		e.dc.FillPreserve()
	}
	if e.pen(job) {
		e.dc.Stroke()
	}
	e.dc.ClearPath()
}

func (e *pngEngine) path(job *gvc.Job, pts []*gvc.PointFloat) {
	sx, sy := e.sx, e.sy
	e.dc.MoveTo(sx*pts[0].X(), -sy*pts[0].Y())
	for _, p := range pts[1:] {
		e.dc.LineTo(sx*p.X(), -sy*p.Y())
	}
}

// Polygon draws a polygon, filled and outlined.
func (e *pngEngine) Polygon(_ context.Context, job *gvc.Job, pts []*gvc.PointFloat, filled bool) error {
	if len(pts) == 0 {
		return nil
	}
	if filled && e.fillRect(job, pts) {
		filled = false // filled already; only the outline is left
	}
	e.dc.Push()
	defer e.dc.Pop()
	e.path(job, pts)
	e.dc.ClosePath()
	e.paint(job, filled)
	return nil
}

// fillRect fills a polygon that is an upright rectangle (the page's
// background, the boxes' insides) with its opaque fill colour straight into
// the picture, much faster than the general path filler, and reports
// whether it did.
func (e *pngEngine) fillRect(job *gvc.Job, pts []*gvc.PointFloat) bool {
	if len(pts) != 4 && !(len(pts) == 5 && pts[4].X() == pts[0].X() && pts[4].Y() == pts[0].Y()) {
		return false
	}
	sx, sy := e.sx, e.sy
	var xs, ys [4]float64
	for i := range 4 {
		xs[i], ys[i] = e.dc.TransformPoint(sx*pts[i].X(), -sy*pts[i].Y())
	}
	// The sides must be vertical and horizontal, in either winding.
	if !(xs[0] == xs[1] && ys[1] == ys[2] && xs[2] == xs[3] && ys[3] == ys[0]) &&
		!(ys[0] == ys[1] && xs[1] == xs[2] && ys[2] == ys[3] && xs[3] == xs[0]) {
		return false
	}
	// Edges are rounded to whole pixels: the outline drawn over them
	// covers the difference from the antialiased filler's edge.
	x0, x1 := math.Round(min(xs[0], xs[2])), math.Round(max(xs[0], xs[2]))
	y0, y1 := math.Round(min(ys[0], ys[2])), math.Round(max(ys[0], ys[2]))
	c := job.Object().FillColor().RGBAUint()
	if c[3] != 255 {
		return false
	}
	img, ok := e.dc.Image().(*image.RGBA)
	if !ok {
		return false
	}
	r := image.Rect(int(x0), int(y0), int(x1), int(y1))
	imagedraw.Draw(img, r, image.NewUniform(color.RGBA{uint8(c[0]), uint8(c[1]), uint8(c[2]), 255}), image.Point{}, imagedraw.Src)
	return true
}

// Ellipse draws the ellipse of centre pts[0] through corner pts[1].
func (e *pngEngine) Ellipse(_ context.Context, job *gvc.Job, pts []*gvc.PointFloat, filled bool) error {
	if len(pts) < 2 {
		return nil
	}
	e.dc.Push()
	defer e.dc.Pop()
	sx, sy := e.sx, e.sy
	e.dc.DrawEllipse(sx*pts[0].X(), -sy*pts[0].Y(), sx*abs(pts[1].X()-pts[0].X()), sy*abs(pts[1].Y()-pts[0].Y()))
	e.paint(job, filled)
	return nil
}

// BezierCurve draws a piecewise cubic Bézier curve: an edge, or the
// outline of a rounded box. The filled flag is unreliable (see pngEngine),
// so the object's own fill decides.
func (e *pngEngine) BezierCurve(_ context.Context, job *gvc.Job, pts []*gvc.PointFloat, _ bool) error {
	if len(pts) == 0 {
		return nil
	}
	e.dc.Push()
	defer e.dc.Pop()
	sx, sy := e.sx, e.sy
	e.dc.MoveTo(sx*pts[0].X(), -sy*pts[0].Y())
	for i := 1; i+2 < len(pts); i += 3 {
		e.dc.CubicTo(sx*pts[i].X(), -sy*pts[i].Y(), sx*pts[i+1].X(), -sy*pts[i+1].Y(), sx*pts[i+2].X(), -sy*pts[i+2].Y())
	}
	e.paint(job, job.Object().Fill() != gvc.FillNone)
	return nil
}

// Polyline strokes a broken line.
func (e *pngEngine) Polyline(_ context.Context, job *gvc.Job, pts []*gvc.PointFloat) error {
	if len(pts) == 0 {
		return nil
	}
	e.dc.Push()
	defer e.dc.Pop()
	e.path(job, pts)
	e.paint(job, false)
	return nil
}

// TextSpan draws one line of text at p (its baseline), justified as
// graphviz says: 'l' left, 'r' right, otherwise centred.
func (e *pngEngine) TextSpan(_ context.Context, job *gvc.Job, p *gvc.PointFloat, span *gvc.TextSpan) error {
	tf := span.Font()
	sx, sy := e.sx, e.sy
	bold := tf.Flags()&htmlBold != 0 || strings.Contains(strings.ToLower(tf.Name()), "bold")
	f, err := e.face(bold, tf.Size()*sx)
	if err != nil {
		return err
	}
	e.dc.Push()
	defer e.dc.Pop()
	e.dc.SetFontFace(f)
	e.setColor(job.Object().PenColor())
	w, _ := e.dc.MeasureString(span.Text())
	x := sx * p.X()
	switch span.Just() {
	case 'l':
	case 'r':
		x -= w
	default:
		x -= w / 2
	}
	y := -sy * (p.Y() + span.YOffsetCenterLine() + span.YOffsetLayout())
	e.dc.DrawString(span.Text(), x, y)
	return nil
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
