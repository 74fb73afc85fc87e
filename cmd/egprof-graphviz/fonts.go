package main

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"

	"github.com/goccy/go-graphviz/gvc"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
)

// pngEngine records graphviz's rendering calls as drawing operations (a
// picture); the picture is drawn and encoded after graphviz is done (see
// picture.encode), so the WASM graphviz and the pixels never need memory
// at the same time, and the pixels are drawn a strip at a time.
//
// go-graphviz has a PNG renderer of its own, but it leaves the outlines of
// filled shapes undrawn (node borders, table cells), fills edge curves as
// if they were areas (go-graphviz v0.2.10 reports every Bézier curve as
// filled), and draws text at 72 dpi on a 96 dpi picture. This one strokes
// outlines, fills a curve only when the object drawn is filled (a rounded
// box), and sizes text with the picture. Text is set in the Go fonts, so
// pictures look the same on every machine, fonts installed or not.
type pngEngine struct {
	*gvc.DefaultRenderEngine
	fonts *fonts
	// faces are the faces text is measured with.
	faces faceCache
	// sx and sy are the page's scale from points to pixels, read once per
	// page: every field read from graphviz crosses into its WASM module,
	// which costs more than drawing a box.
	sx, sy float64
	// pic is the page being recorded; graphviz renders one page.
	pic *picture
}

// faceKey names a face of the Go fonts: bold or regular, and its size in
// pixels.
type faceKey struct {
	bold bool
	size float64
}

// fonts are the Go fonts, regular and bold; they may be used by several
// goroutines at once, each with faces of its own (a face is not safe for
// concurrent use).
type fonts struct {
	regular, bold *opentype.Font
}

// faceCache is one goroutine's faces, made as asked for.
type faceCache struct {
	fonts *fonts
	faces map[faceKey]font.Face
}

// newFaceCache returns an empty cache of faces of f.
func newFaceCache(f *fonts) faceCache {
	return faceCache{fonts: f, faces: map[faceKey]font.Face{}}
}

// face returns the face k.
func (c faceCache) face(k faceKey) (font.Face, error) {
	if f, ok := c.faces[k]; ok {
		return f, nil
	}
	ft := c.fonts.regular
	if k.bold {
		ft = c.fonts.bold
	}
	f, err := opentype.NewFace(ft, &opentype.FaceOptions{Size: k.size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("font of size %g: %w", k.size, err)
	}
	c.faces[k] = f
	return f, nil
}

// htmlBold is graphviz's text flag for <b> in HTML-like labels.
const htmlBold = 1

// newPNGEngine returns an engine with the Go fonts loaded.
func newPNGEngine() (*pngEngine, error) {
	regular, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return nil, fmt.Errorf("loading the Go font: %w", err)
	}
	bold, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return nil, fmt.Errorf("loading the Go bold font: %w", err)
	}
	fs := &fonts{regular: regular, bold: bold}
	return &pngEngine{
		DefaultRenderEngine: new(gvc.DefaultRenderEngine),
		fonts:               fs,
		faces:               newFaceCache(fs),
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

// BeginPage starts a picture of the page's size, in graphviz's coordinates
// (points, y up) scaled to pixels.
func (e *pngEngine) BeginPage(_ context.Context, job *gvc.Job) error {
	s := job.Scale()
	e.sx, e.sy = s.X(), s.Y()
	t := job.Translation()
	e.pic = &picture{
		fonts:  e.fonts,
		width:  int(job.Width()),
		height: int(job.Height()),
		tx:     e.sx * t.X(),
		ty:     -e.sy * t.Y(),
	}
	return nil
}

// EndPage ends the page; the picture is drawn later, by picture.encode.
func (e *pngEngine) EndPage(context.Context, *gvc.Job) error {
	return nil
}

// rgba is c as a colour.
func rgba(c *gvc.Color) color.NRGBA {
	v := c.RGBAUint()
	return color.NRGBA{uint8(v[0]), uint8(v[1]), uint8(v[2]), uint8(v[3])}
}

// pen records in op the colour, width and dashes of the pen of the object
// o, if it has one.
func (e *pngEngine) pen(o *gvc.ObjectState, op *drawOp) {
	sx := e.sx
	switch o.Pen() {
	case gvc.PenNone:
		return
	case gvc.PenDashed:
		op.dash = []float64{6 * sx, 4 * sx}
	case gvc.PenDotted:
		op.dash = []float64{1.5 * sx, 3 * sx}
	}
	op.stroked = true
	op.width = max(o.PenWidth(), 0.5) * sx
	op.pen = rgba(o.PenColor())
}

// points reads pts from graphviz once, as pixel coordinates (x, y pairs,
// y down, before the page's translation).
func (e *pngEngine) points(pts []*gvc.PointFloat) []float64 {
	xy := make([]float64, 0, 2*len(pts))
	for _, p := range pts {
		xy = append(xy, e.sx*p.X(), -e.sy*p.Y())
	}
	return xy
}

// add records op, with the rows it may touch: those of its points, widened
// by margin pixels.
func (e *pngEngine) add(op drawOp, margin float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := 1; i < len(op.pts); i += 2 {
		lo, hi = min(lo, op.pts[i]), max(hi, op.pts[i])
	}
	e.addRows(op, lo-margin, hi+margin)
}

// addRows records op, which may touch the rows from lo to hi (before the
// page's translation).
func (e *pngEngine) addRows(op drawOp, lo, hi float64) {
	if e.pic == nil {
		return
	}
	op.y0, op.y1 = lo+e.pic.ty, hi+e.pic.ty
	e.pic.ops = append(e.pic.ops, op)
}

// strokeMargin is how far a stroke of op's pen may reach beyond its points,
// with a pixel to spare for antialiasing.
func strokeMargin(op *drawOp) float64 {
	return op.width + 2
}

// Polygon draws a polygon, filled and outlined.
func (e *pngEngine) Polygon(_ context.Context, job *gvc.Job, pts []*gvc.PointFloat, filled bool) error {
	if len(pts) == 0 {
		return nil
	}
	o := job.Object()
	op := drawOp{kind: opPath, pts: e.points(pts), closed: true}
	if filled {
		op.fill = rgba(o.FillColor())
		if r, ok := e.rect(op.pts, op.fill); ok {
			e.add(drawOp{kind: opRect, rect: r, fill: op.fill, pts: op.pts}, 1)
			filled = false // filled already; only the outline is left
		}
	}
	op.filled = filled
	e.pen(o, &op)
	if op.filled || op.stroked {
		e.add(op, strokeMargin(&op))
	}
	return nil
}

// rect returns the pixels of a polygon that is an upright rectangle (the
// page's background, the boxes' insides) with an opaque fill colour c, so
// that it can be filled straight into the picture, much faster than by the
// general path filler; ok is false for any other polygon.
func (e *pngEngine) rect(xy []float64, c color.NRGBA) (r image.Rectangle, ok bool) {
	n := len(xy) / 2
	if c.A != 255 || (n != 4 && !(n == 5 && xy[8] == xy[0] && xy[9] == xy[1])) {
		return r, false
	}
	var xs, ys [4]float64
	for i := range 4 {
		xs[i], ys[i] = xy[2*i]+e.pic.tx, xy[2*i+1]+e.pic.ty
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

// Ellipse draws the ellipse of centre pts[0] through corner pts[1].
func (e *pngEngine) Ellipse(_ context.Context, job *gvc.Job, pts []*gvc.PointFloat, filled bool) error {
	if len(pts) < 2 {
		return nil
	}
	xy := e.points(pts[:2])
	cx, cy := xy[0], xy[1]
	rx, ry := abs(xy[2]-cx), abs(xy[3]-cy)
	// pts are the centre and the radii.
	o := job.Object()
	op := drawOp{kind: opEllipse, pts: []float64{cx, cy, rx, ry}, filled: filled}
	if filled {
		op.fill = rgba(o.FillColor())
	}
	e.pen(o, &op)
	m := ry + strokeMargin(&op)
	e.addRows(op, cy-m, cy+m)
	return nil
}

// BezierCurve draws a piecewise cubic Bézier curve: an edge, or the
// outline of a rounded box. The filled flag is unreliable (see pngEngine),
// so the object's own fill decides.
func (e *pngEngine) BezierCurve(_ context.Context, job *gvc.Job, pts []*gvc.PointFloat, _ bool) error {
	if len(pts) == 0 {
		return nil
	}
	o := job.Object()
	op := drawOp{kind: opPath, pts: e.points(pts), curve: true, filled: o.Fill() != gvc.FillNone}
	if op.filled {
		op.fill = rgba(o.FillColor())
	}
	e.pen(o, &op)
	// The control points bound the curve.
	e.add(op, strokeMargin(&op))
	return nil
}

// Polyline strokes a broken line.
func (e *pngEngine) Polyline(_ context.Context, job *gvc.Job, pts []*gvc.PointFloat) error {
	if len(pts) == 0 {
		return nil
	}
	op := drawOp{kind: opPath, pts: e.points(pts)}
	e.pen(job.Object(), &op)
	if op.stroked {
		e.add(op, strokeMargin(&op))
	}
	return nil
}

// TextSpan draws one line of text at p (its baseline), justified as
// graphviz says: 'l' left, 'r' right, otherwise centred.
func (e *pngEngine) TextSpan(_ context.Context, job *gvc.Job, p *gvc.PointFloat, span *gvc.TextSpan) error {
	tf := span.Font()
	sx, sy := e.sx, e.sy
	bold := tf.Flags()&htmlBold != 0 || strings.Contains(strings.ToLower(tf.Name()), "bold")
	fk := faceKey{bold, tf.Size() * sx}
	f, err := e.faces.face(fk)
	if err != nil {
		return err
	}
	text := span.Text()
	// Whole pixels, as gg measures text.
	w := float64(font.MeasureString(f, text) >> 6)
	x := sx * p.X()
	switch span.Just() {
	case 'l':
	case 'r':
		x -= w
	default:
		x -= w / 2
	}
	y := -sy * (p.Y() + span.YOffsetCenterLine() + span.YOffsetLayout())
	m := f.Metrics()
	// pts are the baseline's start.
	op := drawOp{kind: opText, text: text, face: fk, pen: rgba(job.Object().PenColor()), pts: []float64{x, y}}
	e.addRows(op, y-float64(m.Ascent)/64-float64(m.Height)/64-2, y+float64(m.Descent)/64+float64(m.Height)/64+2)
	return nil
}

// abs is |v|.
func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
