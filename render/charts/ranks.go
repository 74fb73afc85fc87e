package charts

import (
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
		_, err = cv.WriteTo(w)
		return err
	}}
}

// rankTicks marks whole rank numbers: every rank when there are few, else
// the default ticks rounded to whole numbers.
type rankTicks struct{}

// Ticks returns the tick marks for [lo, hi].
func (rankTicks) Ticks(lo, hi float64) []plot.Tick {
	if hi-lo <= 16 {
		var ts []plot.Tick
		for v := math.Ceil(lo); v <= hi; v++ {
			ts = append(ts, plot.Tick{Value: v, Label: strconv.Itoa(int(v))})
		}
		return ts
	}
	var ts []plot.Tick
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

// shortName cuts a long region name for axis labels.
func shortName(s string) string {
	if len(s) <= labelLen {
		return s
	}
	return s[:labelLen-3] + "..."
}

// rankTimesChart draws one panel per top region: each rank's time, with
// the mean as a dashed line.
func rankTimesChart(r *ranks.Report) (*chartSpec, error) {
	s := &r.Series
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
		p.Title.Text = shortName(s.Regions[k])
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
		p.X.Tick.Marker = rankTicks{}
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
// relative to each region's mean per rank, clamped to ±heatRange.
type heatGrid struct {
	s *ranks.Series
	n int
}

// heatRange is the largest |log2(time/mean)| the heat map tells apart
// (a quarter to four times the mean).
const heatRange = 2.0

func (g heatGrid) Dims() (c, r int) { return len(g.s.Ranks), g.n }
func (g heatGrid) X(c int) float64  { return float64(g.s.Ranks[c]) }
func (g heatGrid) Y(r int) float64  { return float64(r) }
func (g heatGrid) Z(c, r int) float64 {
	row := g.n - 1 - r // most imbalanced region on top
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
	g := heatGrid{s: s, n: n}
	cm := moreland.SmoothBlueRed()
	cm.SetMin(-heatRange)
	cm.SetMax(heatRange)
	pal := cm.Palette(255)
	h := plotter.NewHeatMap(g, pal)
	h.Min, h.Max = -heatRange, heatRange
	h.Rasterized = len(s.Ranks)*n > heatCellsVec
	p := plot.New()
	p.Title.Text = "Time per rank relative to the region's mean"
	p.X.Label.Text = "rank"
	p.Add(h)
	ticks := make([]plot.Tick, n)
	for row := range n {
		ticks[row] = plot.Tick{Value: float64(n - 1 - row), Label: shortName(s.Regions[row])}
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Padding, p.Y.Padding = 0, 0

	bar := plot.New()
	bar.HideY()
	bar.X.Label.Text = "time / mean time of the region (idle ranks at the left end)"
	bar.Add(&plotter.ColorBar{ColorMap: colorMapOf(cm)})
	bar.X.Tick.Marker = plot.ConstantTicks([]plot.Tick{
		{Value: -2, Label: "1/4 or less"}, {Value: -1, Label: "1/2"}, {Value: 0, Label: "1"},
		{Value: 1, Label: "2"}, {Value: 2, Label: "4 or more"},
	})
	bar.X.Padding = 0

	height := vg.Length(n)*0.3*vg.Inch + 2.5*vg.Inch
	return &chartSpec{10 * vg.Inch, height, func(dc draw.Canvas) {
		barH := 1.0 * vg.Inch
		top := draw.Crop(dc, 0, 0, barH, 0)
		bottom := draw.Crop(dc, 0, 0, 0, -(height - barH))
		p.Draw(top)
		bar.Draw(draw.Crop(bottom, 2.5*vg.Inch, -0.5*vg.Inch, 0, 0))
	}}, nil
}

// colorMapOf returns the colour map for the colour bar.
func colorMapOf(cm palette.DivergingColorMap) palette.ColorMap { return cm }

// boxChart draws one horizontal box per top region over the ranks' times,
// with every rank as a dot when there are few.
func boxChart(r *ranks.Report) (*chartSpec, error) {
	s := &r.Series
	n := min(boxRegions, len(s.Regions))
	p := plot.New()
	p.Title.Text = "Spread of the ranks' times"
	p.X.Label.Text = "seconds per rank"
	p.X.Min = 0
	ticks := make([]plot.Tick, n)
	for k := range n {
		y := float64(n - 1 - k)
		vals := plotter.Values(s.Seconds[k])
		b, err := plotter.NewBoxPlot(vg.Points(14), y, vals)
		if err != nil {
			return nil, err
		}
		b.Horizontal = true
		b.FillColor = color.RGBA{R: 200, G: 215, B: 235, A: 255}
		p.Add(b)
		if len(vals) <= stripRanks {
			pts := make(plotter.XYs, len(vals))
			for i, v := range vals {
				// Deterministic jitter: golden-ratio steps in [-0.3, 0.3].
				j := math.Mod(float64(i)*0.6180339887, 1)*0.6 - 0.3
				pts[i] = plotter.XY{X: v, Y: y + j}
			}
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, err
			}
			sc.GlyphStyle.Radius = vg.Points(1.5)
			sc.GlyphStyle.Color = color.RGBA{R: 40, G: 40, B: 40, A: 160}
			p.Add(sc)
		}
		ticks[k] = plot.Tick{Value: y, Label: shortName(s.Regions[k])}
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Min, p.Y.Max = -0.7, float64(n)-0.3
	return &chartSpec{10 * vg.Inch, vg.Length(n)*0.45*vg.Inch + 1.5*vg.Inch, p.Draw}, nil
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
	low, mid, high := make(plotter.Values, n), make(plotter.Values, n), make(plotter.Values, n)
	names := make([]string, n)
	for k := range n {
		row := n - 1 - k // most imbalanced on top
		names[row] = shortName(s.Regions[k])
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
