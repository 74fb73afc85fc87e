package charts

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/egprof/egprof/ranks"
	"github.com/egprof/egprof/symtab"
)

// The names of the rank analysis charts (see RankCharts).
const (
	RankTimesPlot = "rank-times.svg" // per-rank time bars of the top regions (the paper's Fig. 1)
	HeatMapPlot   = "heatmap.svg"    // ranks x top regions, time relative to the region's mean
	BoxPlot       = "boxplot.svg"    // spread of the ranks' times per region
	SpreadPlot    = "spread.svg"     // shares of ranks in the lowest and highest 15 % (Fig. 2)
)

// Plot layout limits.
const (
	barPanels      = 6   // regions with their own per-rank bar chart
	boxRegions     = 12  // regions in the box plot and the spread chart
	barRanksAsBars = 256 // above this, per-rank times are drawn as a filled step line
	stripRanks     = 256 // up to this, the box plot also shows every rank as a dot
	heatCellsVec   = 20000
	labelLen       = 40
)

// RankCharts returns the rank analysis charts, named as the files
// RankTimesPlot, HeatMapPlot, BoxPlot and SpreadPlot. The charts stay
// readable from a handful of ranks to thousands: bars turn into a filled
// step line, and the heat map is rasterised, when there are many.
func RankCharts(r *ranks.Report) ([]Chart, error) {
	if len(r.Series.Regions) == 0 || r.P == 0 {
		return nil, errors.New("no region has any time: nothing to plot")
	}
	charts := []Chart{
		rankChart(RankTimesPlot, r, rankTimesChart),
		rankChart(HeatMapPlot, r, heatMapChart),
		rankChart(BoxPlot, r, boxChart),
		rankChart(SpreadPlot, r, spreadChart),
	}
	return charts, nil
}

// rankChart is the chart name that layout lays out for r.
func rankChart(name string, r *ranks.Report, layout func(*ranks.Report) (*chartSpec, error)) Chart {
	return Chart{Name: name, WriteSVG: func(w io.Writer) (err error) {
		defer func() {
			// The plotting library panics on inputs it cannot draw;
			// report that as an error rather than crash.
			if p := recover(); p != nil {
				err = fmt.Errorf("drawing the charts: %v", p)
			}
		}()
		spec, err := layout(r)
		if err != nil {
			return err
		}
		cv := vgsvg.New(spec.w, spec.h)
		spec.draw(draw.New(cv))
		var buf bytes.Buffer
		if _, err := cv.WriteTo(&buf); err != nil {
			return err
		}
		_, err = w.Write(fixImages(buf.Bytes()))
		return err
	}}
}

// fixImages corrects the pictures gonum's SVG canvas embeds (the
// rasterised heat map, when there are many ranks). It encodes them as PNG
// but labels them image/jpg, and librsvg (rsvg-convert, GNOME's viewers)
// then draws nothing, where Chromium and Firefox look at the bytes; and it
// leaves SVG's default preserveAspectRatio, so that every viewer keeps the
// picture's proportions (one pixel per rank by one per region) and draws a
// thin strip in the middle of the area it should fill; and viewers smooth
// a stretched picture, blending one region's row into the next. Every
// embedded picture is PNG, and is meant to fill its rectangle with sharp
// cells (librsvg reads SVG's optimizeSpeed so, browsers CSS's pixelated).
func fixImages(svg []byte) []byte {
	svg = bytes.ReplaceAll(svg, []byte(`xlink:href="data:image/jpg;base64,`), []byte(`xlink:href="data:image/png;base64,`))
	return bytes.ReplaceAll(svg, []byte(`<image `), []byte(`<image preserveAspectRatio="none" image-rendering="optimizeSpeed" style="image-rendering:pixelated" `))
}

// rankTicks marks rank numbers: each rank when there are few, else the
// default ticks that fall on whole numbers (every whole number is a rank
// then, or close to one).
type rankTicks struct{ ranks []int }

// Ticks returns the tick marks for [lo, hi].
func (rt rankTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	if len(rt.ranks) <= 16 {
		for _, r := range rt.ranks {
			if v := float64(r); v >= lo && v <= hi {
				ts = append(ts, plot.Tick{Value: v, Label: strconv.Itoa(r)})
			}
		}
		return ts
	}
	for _, t := range (plot.DefaultTicks{}).Ticks(lo, hi) {
		if t.Value == math.Trunc(t.Value) {
			if t.Label != "" {
				t.Label = strconv.Itoa(int(t.Value))
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// chartSpec is a chart ready to draw on a canvas of its size.
type chartSpec struct {
	w, h vg.Length
	draw func(draw.Canvas)
}

// chartLabels returns the labels of names (distinct) on one chart:
// symtab.Labels cut to labelLen.
func chartLabels(names []string) []string { return symtab.Labels(names, labelLen) }

// rankTimesChart draws one panel per top region: each rank's time, with
// the mean as a dashed line.
func rankTimesChart(r *ranks.Report) (*chartSpec, error) {
	s := &r.Series
	labels := chartLabels(s.Regions)
	n := min(barPanels, len(s.Regions))
	cols := min(2, n)
	rows := (n + cols - 1) / cols
	width, height := 10*vg.Inch, vg.Length(rows)*3*vg.Inch
	plots := make([][]*plot.Plot, rows)
	for i := range plots {
		plots[i] = make([]*plot.Plot, cols)
	}
	fill := color.RGBA{R: 70, G: 110, B: 170, A: 255}
	for k := range n {
		p := plot.New()
		p.Title.Text = labels[k]
		p.X.Label.Text = "rank"
		p.Y.Label.Text = "seconds"
		p.Y.Min = 0
		vals := s.Seconds[k]
		if len(s.Ranks) <= barRanksAsBars {
			h := &plotter.Histogram{FillColor: fill, LineStyle: plotter.DefaultLineStyle}
			h.LineStyle.Width = 0
			if len(s.Ranks) <= 64 {
				h.LineStyle.Width = vg.Points(0.5)
				h.LineStyle.Color = color.White
			}
			for p, rk := range s.Ranks {
				h.Bins = append(h.Bins, plotter.HistogramBin{Min: float64(rk) - 0.45, Max: float64(rk) + 0.45, Weight: vals[p]})
			}
			h.Width = 0.9
			p.Add(h)
		} else {
			xys := make(plotter.XYs, len(s.Ranks))
			for p, rk := range s.Ranks {
				xys[p] = plotter.XY{X: float64(rk), Y: vals[p]}
			}
			l, err := plotter.NewLine(xys)
			if err != nil {
				return nil, err
			}
			l.StepStyle = plotter.MidStep
			l.FillColor = fill
			// A thin outline keeps a single rank's spike visible.
			l.LineStyle.Width = vg.Points(0.5)
			l.LineStyle.Color = fill
			p.Add(l)
		}
		first, last := float64(s.Ranks[0]), float64(s.Ranks[len(s.Ranks)-1])
		meanLine, err := plotter.NewLine(plotter.XYs{{X: first - 0.5, Y: s.Mean[k]}, {X: last + 0.5, Y: s.Mean[k]}})
		if err != nil {
			return nil, err
		}
		meanLine.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		meanLine.LineStyle.Color = color.RGBA{R: 200, G: 60, B: 40, A: 255}
		p.Add(meanLine)
		if k == 0 {
			p.Legend.Add("mean per rank", meanLine)
			p.Legend.Top = true
		}
		p.X.Min, p.X.Max = first-0.5, last+0.5
		if first == last {
			p.X.Min, p.X.Max = first-1, last+1
		}
		p.X.Tick.Marker = rankTicks{s.Ranks}
		// Headroom for the legend above the tallest bar.
		top := s.Mean[k]
		for _, v := range vals {
			top = max(top, v)
		}
		if top > 0 {
			p.Y.Max = 1.2 * top
		}
		plots[k/cols][k%cols] = p
	}
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 4}
	return &chartSpec{width, height, func(dc draw.Canvas) {
		canvases := plot.Align(plots, tiles, dc)
		for i := range plots {
			for j, p := range plots[i] {
				if p != nil {
					p.Draw(canvases[i][j])
				}
			}
		}
	}}, nil
}

// heatGrid is ranks (columns) x regions (rows) of log2 of the time
// relative to each region's mean per rank, clamped to ±heatRange. Each
// region is sub rows of the grid (sub > 1 when the map is drawn as a
// picture: viewers smooth a stretched picture, and librsvg will not be
// told otherwise, so a region several pixels high keeps its colour up to
// its edges instead of blending into the next).
type heatGrid struct {
	s   *ranks.Series
	n   int
	sub int
}

// heatRange is the largest |log2(time/mean)| the heat map tells apart
// (a quarter to four times the mean).
const heatRange = 2.0

func (g heatGrid) Dims() (c, r int) { return len(g.s.Ranks), g.n * g.sub }
func (g heatGrid) X(c int) float64  { return float64(g.s.Ranks[c]) }

// Y centres the sub rows of region row k in [k-0.5, k+0.5].
func (g heatGrid) Y(r int) float64 { return (float64(r)+0.5)/float64(g.sub) - 0.5 }
func (g heatGrid) Z(c, r int) float64 {
	row := g.n - 1 - r/g.sub // most imbalanced region on top
	m := g.s.Mean[row]
	if m == 0 {
		return 0
	}
	v := g.s.Seconds[row][c] / m
	if v <= 0 {
		return -heatRange
	}
	return max(-heatRange, min(heatRange, math.Log2(v)))
}

// heatMapChart draws the ranks x top regions map of time relative to the
// region's mean, blue below the mean and red above, with a colour bar.
func heatMapChart(r *ranks.Report) (*chartSpec, error) {
	s := &r.Series
	n := len(s.Regions)
	raster := len(s.Ranks)*n > heatCellsVec
	g := heatGrid{s: s, n: n, sub: 1}
	if raster {
		g.sub = 8
	}
	cm := moreland.SmoothBlueRed()
	cm.SetMin(-heatRange)
	cm.SetMax(heatRange)
	pal := cm.Palette(255)
	h := plotter.NewHeatMap(g, pal)
	h.Min, h.Max = -heatRange, heatRange
	h.Rasterized = raster
	p := plot.New()
	p.Title.Text = "Time per rank relative to the region's mean"
	p.X.Label.Text = "rank"
	p.Add(h)
	labels := chartLabels(s.Regions)
	ticks := make([]plot.Tick, n)
	for row := range n {
		ticks[row] = plot.Tick{Value: float64(n - 1 - row), Label: labels[row]}
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Tick.Marker = rankTicks{s.Ranks}
	p.X.Padding, p.Y.Padding = 0, 0

	bar := plot.New()
	bar.HideY()
	bar.X.Label.Text = "time / mean time of the region (idle ranks at the left end)"
	// The colour scale as filled rectangles: gonum's ColorBar is a
	// picture, which some viewers draw one pixel high or not at all.
	bar.Add(colorBand{cm: cm, lo: -heatRange, hi: heatRange, steps: 96})
	bar.Y.Min, bar.Y.Max = 0, 1
	bar.X.Tick.Marker = plot.ConstantTicks([]plot.Tick{
		{Value: -2, Label: "1/4 or less"}, {Value: -1, Label: "1/2"}, {Value: 0, Label: "1"},
		{Value: 1, Label: "2"}, {Value: 2, Label: "4 or more"},
	})
	bar.X.Padding = 0

	height := vg.Length(n)*0.3*vg.Inch + 2.5*vg.Inch
	return &chartSpec{10 * vg.Inch, height, func(dc draw.Canvas) {
		// The map above, the colour bar in the lowest inch, a gap between.
		barH := 1.0 * vg.Inch
		top := draw.Crop(dc, 0, 0, barH+0.2*vg.Inch, 0)
		bottom := draw.Crop(dc, 0, 0, 0, -(height - barH))
		p.Draw(top)
		bar.Draw(draw.Crop(bottom, 2.5*vg.Inch, -0.5*vg.Inch, 0, 0))
	}}, nil
}

// colorBand draws a colour scale from lo to hi on the x axis as steps
// filled rectangles over y in [0, 1].
type colorBand struct {
	cm     palette.ColorMap
	lo, hi float64
	steps  int
}

// Plot fills the rectangles.
func (b colorBand) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	w := (b.hi - b.lo) / float64(b.steps)
	for k := range b.steps {
		x0 := b.lo + float64(k)*w
		col, err := b.cm.At(x0 + w/2)
		if err != nil {
			continue
		}
		// Each step reaches the end of the band and the next covers it, so
		// that no seam shows between two.
		r := vg.Rectangle{Min: vg.Point{X: tx(x0), Y: ty(0)}, Max: vg.Point{X: tx(b.hi), Y: ty(1)}}
		c.SetColor(col)
		c.Fill(r.Path())
	}
}

// DataRange is the scale's extent.
func (b colorBand) DataRange() (xmin, xmax, ymin, ymax float64) { return b.lo, b.hi, 0, 1 }

// boxChart draws, for each top region, a horizontal box of the ranks'
// times on its own scale (a region taking milliseconds is not squashed
// next to one taking minutes), with every rank as a dot when there are
// few.
func boxChart(r *ranks.Report) (*chartSpec, error) {
	panels, err := boxPanels(r)
	if err != nil {
		return nil, err
	}
	n := len(panels)
	plots := make([][]*plot.Plot, n)
	for k, p := range panels {
		plots[k] = []*plot.Plot{p}
	}
	height := vg.Length(n)*0.75*vg.Inch + 0.8*vg.Inch
	tiles := draw.Tiles{Rows: n, Cols: 1, PadY: vg.Millimeter * 2, PadTop: vg.Millimeter * 2,
		PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 4}
	return &chartSpec{10 * vg.Inch, height, func(dc draw.Canvas) {
		canvases := plot.Align(plots, tiles, dc)
		for i := range plots {
			plots[i][0].Draw(canvases[i][0])
		}
	}}, nil
}

// boxPanels returns the box chart's panels, one per top region, each
// with an x axis fitted to the region's times.
func boxPanels(r *ranks.Report) ([]*plot.Plot, error) {
	s := &r.Series
	n := min(boxRegions, len(s.Regions))
	labels := chartLabels(s.Regions)
	plots := make([]*plot.Plot, n)
	for k := range n {
		p := plot.New()
		if k == 0 {
			p.Title.Text = "Spread of the ranks' times (each region on its own scale)"
		}
		if k == n-1 {
			p.X.Label.Text = "seconds per rank"
		}
		vals := plotter.Values(s.Seconds[k])
		b, err := plotter.NewBoxPlot(vg.Points(14), 0, vals)
		if err != nil {
			return nil, err
		}
		// The box draws the analysis's numbers, not gonum's own (the
		// mean of the two middle times for an even number of ranks,
		// Tukey's fences): the median the spread table prints, the
		// quartiles by its rule, whiskers to the table's min and max.
		sp := s.Spread[k]
		b.Min, b.Quartile1, b.Median, b.Quartile3, b.Max = sp.Min, sp.Q1, sp.Median, sp.Q3, sp.Max
		b.AdjLow, b.AdjHigh, b.Outside = sp.Min, sp.Max, nil
		b.Horizontal = true
		b.FillColor = color.RGBA{R: 200, G: 215, B: 235, A: 255}
		p.Add(b)
		if len(vals) <= stripRanks {
			pts := make(plotter.XYs, len(vals))
			for i, v := range vals {
				// Deterministic jitter: golden-ratio steps in [-0.3, 0.3].
				j := math.Mod(float64(i)*0.6180339887, 1)*0.6 - 0.3
				pts[i] = plotter.XY{X: v, Y: j}
			}
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, err
			}
			sc.GlyphStyle.Radius = vg.Points(1.5)
			sc.GlyphStyle.Color = color.RGBA{R: 40, G: 40, B: 40, A: 160}
			p.Add(sc)
		}
		lo, hi := sp.Min, sp.Max
		for _, v := range vals {
			lo, hi = min(lo, v), max(hi, v)
		}
		if pad := 0.05 * (hi - lo); pad > 0 {
			p.X.Min, p.X.Max = lo-pad, hi+pad
		} else {
			// Every rank took the same time: a range around it.
			p.X.Min, p.X.Max = max(0, lo-max(1e-3, 0.05*lo)), hi+max(1e-3, 0.05*hi)
		}
		p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: labels[k]}})
		p.Y.Min, p.Y.Max = -0.5, 0.5
		plots[k] = p
	}
	return plots, nil
}

// spreadChart draws, per region, the shares of ranks whose time is in
// the lowest 15 %, the middle and the highest 15 % of the region's range.
func spreadChart(r *ranks.Report) (*chartSpec, error) {
	s := &r.Series
	byName := map[string]*ranks.RegionRow{}
	for i := range r.Regions {
		byName[r.Regions[i].Name] = &r.Regions[i]
	}
	n := min(boxRegions, len(s.Regions))
	labels := chartLabels(s.Regions)
	low, mid, high := make(plotter.Values, n), make(plotter.Values, n), make(plotter.Values, n)
	names := make([]string, n)
	for k := range n {
		row := n - 1 - k // most imbalanced on top
		names[row] = labels[k]
		if g := byName[s.Regions[k]]; g != nil && g.Low.Defined {
			low[row] = 100 * g.Low.Value
			high[row] = 100 * g.High.Value
			mid[row] = max(0, 100-low[row]-high[row])
		}
	}
	p := plot.New()
	p.Title.Text = "Ranks in the lowest and highest 15% of each region's range"
	p.X.Label.Text = "% of ranks"
	w := vg.Points(14)
	bl, err := plotter.NewBarChart(low, w)
	if err != nil {
		return nil, err
	}
	bm, err := plotter.NewBarChart(mid, w)
	if err != nil {
		return nil, err
	}
	bh, err := plotter.NewBarChart(high, w)
	if err != nil {
		return nil, err
	}
	for _, b := range []*plotter.BarChart{bl, bm, bh} {
		b.Horizontal = true
		b.LineStyle.Width = vg.Points(0.5)
	}
	bl.Color = color.Gray{Y: 200}
	bm.Color = color.White
	bh.Color = color.Gray{Y: 90}
	bm.StackOn(bl)
	bh.StackOn(bm)
	p.Add(bl, bm, bh)
	p.Legend.Add("lowest 15%", bl)
	p.Legend.Add("middle", bm)
	p.Legend.Add("highest 15%", bh)
	p.Legend.Top = true
	p.NominalY(names...)
	p.X.Min, p.X.Max = 0, 100
	p.Y.Max = float64(n) + 0.5 // room for the legend
	return &chartSpec{10 * vg.Inch, vg.Length(n)*0.4*vg.Inch + 1.5*vg.Inch, p.Draw}, nil
}
