package charts

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/egprof/egprof/experiment"
)

// plotFunctions is the number of top functions that get a time plot.
const plotFunctions = 6

// ExperimentCharts returns SCALA's figures of the result: per
// combination, the time of each top function against p (log-log, with its
// fitted model) and the average unit speed against work for each p with the
// isospeed level; per range comparison, the two scalability curves with
// the crossing point. Each is named by what it shows, such as
// "speed-vs-work.svg"; there are none without SCALA's figures. skipped
// says, for each figure of a SCALA report or range comparison that is left
// out, its name and why (no run with samples, a function with no time, no
// comparison possible, equal initial times, no larger process count, or no
// known psi, where the plot would show nothing but its initial point).
func ExperimentCharts(res *experiment.Result) (charts []Chart, skipped []string, err error) {
	add := func(name string, p *plot.Plot) {
		charts = append(charts, Chart{Name: name, WriteSVG: func(w io.Writer) error { return writePlot(w, p) }})
	}
	skip := func(name, why string, args ...any) {
		skipped = append(skipped, name+" is not written: "+fmt.Sprintf(why, args...))
	}
	for _, s := range res.Scala {
		suffix, of := "", ""
		if s.Combination != "" {
			suffix, of = "-"+fileSafe(s.Combination), " of "+s.Combination
		}
		if len(s.Points) == 0 {
			skip("speed-vs-work"+suffix+".svg (nor any time"+suffix+"-*.svg)", "no run%s has samples, so there is no speed or time to plot", of)
			continue
		}
		shown := s.Functions[:min(len(s.Functions), plotFunctions)]
		names := make([]string, len(shown))
		for k := range shown {
			names[k] = shown[k].Name
		}
		titles := chartLabels(names)
		for k, f := range shown {
			p, err := timePlot(res, s, &f, titles[k])
			if err != nil {
				return nil, nil, err
			}
			name := fmt.Sprintf("time%s-%02d-%s.svg", suffix, k+1, fileSafe(f.Name))
			if p == nil {
				skip(name, "%s has no time in any run%s", f.Name, of)
				continue
			}
			add(name, p)
		}
		p, err := speedPlot(res, s)
		if err != nil {
			return nil, nil, err
		}
		add("speed-vs-work"+suffix+".svg", p)
	}
	for i := range res.Ranges {
		r := &res.Ranges[i]
		name := fmt.Sprintf("scalability-%s-%s-%s", fileSafe(r.Dim), fileSafe(r.Slower), fileSafe(r.Faster))
		if r.Context != "" {
			name += "-" + fileSafe(r.Context)
		}
		name += ".svg"
		initial := fmt.Sprintf("p=%s, W=%s", tickLabel(r.Initial.P), tickLabel(r.Initial.W))
		switch {
		case r.Problem != "":
			skip(name, "no range comparison: %s", r.Problem)
			continue
		case r.Equal:
			skip(name, "%s and %s take equal times at the initial state (%s: %s s each), so alpha = 1, "+
				"neither is the slower and no crossing point is defined", r.Slower, r.Faster, initial, strconv.FormatFloat(r.Initial.T, 'f', 3, 64))
			continue
		case len(r.Steps) == 0:
			skip(name, "%s and %s have no process count above p=%s in common, so there is no p' to compare at", r.Slower, r.Faster, tickLabel(r.Initial.P))
			continue
		case !slices.ContainsFunc(r.Steps, func(st experiment.CrossStep) bool { return st.Phi.OK || st.Psi.OK }):
			skip(name, "no psi of %s or %s from %s is known at any larger p' "+
				"(the runs there do not bracket the initial speed, or their speed does not depend on the work)",
				r.Slower, r.Faster, initial)
			continue
		}
		p, err := crossingPlot(r)
		if err != nil {
			return nil, nil, err
		}
		add(name, p)
	}
	return charts, skipped, nil
}

// writePlot writes p to w as SVG.
func writePlot(w io.Writer, p *plot.Plot) (err error) {
	defer func() {
		// The plotting library panics on data it cannot draw; the data
		// is checked before, so this is a last resort against a bug.
		if r := recover(); r != nil {
			err = fmt.Errorf("cannot draw the plot: %v", r)
		}
	}()
	wt, err := p.WriterTo(6*vg.Inch, 4*vg.Inch, "svg")
	if err != nil {
		return err
	}
	_, err = wt.WriteTo(w)
	return err
}

// fileSafe turns s into a file-name part.
func fileSafe(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
	if len(s) > 60 {
		s = s[:60]
	}
	return s
}

// logLog sets both axes of p to log scales.
func logLog(p *plot.Plot) {
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = logTicks{}, logTicks{}
}

// logTicks marks a log axis at every digit of each power of ten and labels
// 1, 2 and 5 of each (only the powers of ten when the axis spans more than
// two decades, the ends when no mark is labelled).
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	labelled := []int{1, 2, 5}
	if hi > 100*lo {
		labelled = []int{1}
	}
	var ticks []plot.Tick
	any := false
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for m := 1; m < 10; m++ {
			v := float64(m) * math.Pow(10, e)
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if slices.Contains(labelled, m) {
				t.Label, any = tickLabel(v), true
			}
			ticks = append(ticks, t)
		}
	}
	if !any {
		ticks = append(ticks, plot.Tick{Value: lo, Label: tickLabel(lo)}, plot.Tick{Value: hi, Label: tickLabel(hi)})
	}
	return ticks
}

func tickLabel(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }

// procsTicks labels an axis at the measured process counts.
func procsTicks(procs []float64) plot.ConstantTicks {
	var ticks plot.ConstantTicks
	for _, q := range procs {
		ticks = append(ticks, plot.Tick{Value: q, Label: tickLabel(q)})
	}
	return ticks
}

// headroom raises the top of a log axis so that the legend has room above
// the data.
func headroom(a *plot.Axis) {
	if a.Max > 0 {
		a.Max *= 4
	}
}

// widen gives a log axis whose data collapse to one value a range around
// it (the library would widen it by ±1, below zero).
func widen(a *plot.Axis) {
	if a.Min == a.Max && a.Min > 0 {
		a.Min, a.Max = a.Min/2, a.Max*2
	}
}

// positive keeps the points a log-log plot can show.
func positive(xys plotter.XYs) plotter.XYs {
	return slices.DeleteFunc(xys, func(xy plotter.XY) bool {
		return !(xy.X > 0 && xy.Y > 0 && finite(xy.X) && finite(xy.Y))
	})
}

// geometric returns n points from lo to hi evenly spaced in log scale.
func geometric(lo, hi float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = lo * math.Pow(hi/lo, float64(i)/float64(n-1))
	}
	return out
}

// timePlot draws one function's time against p, a series per work, with
// the fitted model at each work; title names the function (chartLabels).
func timePlot(res *experiment.Result, s *experiment.ScalaReport, f *experiment.FunctionScaling, title string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	if s.Combination != "" {
		p.Title.Text += " (" + s.Combination + ")"
	}
	p.X.Label.Text = axisLabel("processes", res.Config.ProcsDim)
	p.Y.Label.Text = "self seconds (run's " + res.Config.TimeOfRun.String() + " over ranks)"
	logLog(p)
	p.Legend.Top, p.Legend.Left = true, false
	var works []float64
	for _, pt := range f.Points {
		if !slices.Contains(works, pt.W) {
			works = append(works, pt.W)
		}
	}
	slices.Sort(works)
	procs := s.Matrix.Procs
	drawn := false
	for k, w := range works {
		var pts plotter.XYs
		for _, pt := range f.Points {
			if pt.W == w {
				pts = append(pts, plotter.XY{X: pt.P, Y: pt.T})
			}
		}
		pts = positive(pts)
		if len(pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		sc.Color, sc.Shape = plotutil.Color(k), plotutil.Shape(k)
		p.Add(sc)
		label := "measured"
		if len(works) > 1 {
			label = "W=" + tickLabel(w)
		}
		p.Legend.Add(label, sc)
		drawn = true
		if !f.Model.OK || len(procs) < 2 {
			continue
		}
		var curve plotter.XYs
		for _, q := range geometric(procs[0], procs[len(procs)-1], 40) {
			curve = append(curve, plotter.XY{X: q, Y: f.Model.At(q, w)})
		}
		curve = positive(curve)
		if len(curve) < 2 {
			continue
		}
		l, err := plotter.NewLine(curve)
		if err != nil {
			return nil, err
		}
		l.Color, l.Dashes = plotutil.Color(k), []vg.Length{vg.Points(4), vg.Points(2)}
		p.Add(l)
		if k == 0 {
			p.Legend.Add("model: "+f.Model.String(), l)
		}
	}
	if !drawn {
		return nil, nil
	}
	widen(&p.X)
	widen(&p.Y)
	headroom(&p.Y)
	p.X.Tick.Marker = procsTicks(procs)
	return p, nil
}

// speedPlot draws the average unit speed against work, a line per p, and
// the isospeed level of the first initial run.
func speedPlot(res *experiment.Result, s *experiment.ScalaReport) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Average unit speed W/(p·T)"
	if s.Combination != "" {
		p.Title.Text += " (" + s.Combination + ")"
	}
	p.X.Label.Text = axisLabel("work", res.Config.WorkDim)
	p.Y.Label.Text = "speed per process"
	logLog(p)
	p.Legend.Top, p.Legend.Left = false, false
	lo, hi := math.Inf(1), math.Inf(-1)
	for k, q := range s.Matrix.Procs {
		var pts plotter.XYs
		for _, pt := range experiment.PointsAt(s.Points, q) {
			pts = append(pts, plotter.XY{X: pt.W, Y: pt.Speed()})
			lo, hi = min(lo, pt.W), max(hi, pt.W)
		}
		pts = positive(pts)
		if len(pts) == 0 {
			continue
		}
		l, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		l.Color, sc.Color, sc.Shape = plotutil.Color(k), plotutil.Color(k), plotutil.Shape(k)
		p.Add(l, sc)
		p.Legend.Add(fmt.Sprintf("p=%g", q), l, sc)
	}
	init := s.Matrix.Initial[0]
	if level := init.Speed(); level > 0 && finite(level) && lo < hi {
		l, err := plotter.NewLine(plotter.XYs{{X: lo, Y: level}, {X: hi, Y: level}})
		if err != nil {
			return nil, err
		}
		l.Color, l.Dashes = plotutil.Color(len(s.Matrix.Procs)), []vg.Length{vg.Points(6), vg.Points(3)}
		p.Add(l)
		p.Legend.Add("isospeed level of p="+tickLabel(init.P)+", W="+tickLabel(init.W), l)
	}
	widen(&p.X)
	widen(&p.Y)
	return p, nil
}

// crossingPlot draws Phi(p, p') of the slower combination and alpha·Psi(p,
// p') of the faster one against p', the crossing point marked.
func crossingPlot(r *experiment.RangeResult) (*plot.Plot, error) {
	c := &r.Comparison
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Range comparison over %s from p=%s, W=%s (alpha=%.3g)", r.Dim, tickLabel(c.Initial.P), tickLabel(c.Initial.W), c.Alpha)
	p.X.Label.Text = "p'"
	p.Y.Label.Text = "isospeed scalability"
	p.X.Scale = plot.LogScale{}
	var procs []float64
	for _, st := range c.Steps {
		procs = append(procs, st.To)
	}
	p.X.Tick.Marker = procsTicks(append([]float64{c.Initial.P}, procs...))
	p.Legend.Top = true
	phi := plotter.XYs{{X: c.Initial.P, Y: 1}}
	apsi := plotter.XYs{{X: c.Initial.P, Y: c.Alpha}}
	for _, st := range c.Steps {
		if st.Phi.OK {
			phi = append(phi, plotter.XY{X: st.To, Y: st.Phi.Psi})
		}
		if st.Psi.OK {
			apsi = append(apsi, plotter.XY{X: st.To, Y: c.Alpha * st.Psi.Psi})
		}
	}
	for k, series := range []struct {
		name string
		xys  plotter.XYs
	}{{"Phi: " + c.Slower + " (slower at p)", phi}, {"alpha·Psi: " + c.Faster, apsi}} {
		l, sc, err := plotter.NewLinePoints(positive(series.xys))
		if err != nil {
			return nil, err
		}
		l.Color, sc.Color, sc.Shape = plotutil.Color(k), plotutil.Color(k), plotutil.Shape(k)
		p.Add(l, sc)
		p.Legend.Add(series.name, l, sc)
	}
	if c.Crossing > 0 {
		var y float64
		for _, st := range c.Steps {
			if st.To == c.Crossing {
				y = st.Phi.Psi
			}
		}
		sc, err := plotter.NewScatter(plotter.XYs{{X: c.Crossing, Y: y}})
		if err != nil {
			return nil, err
		}
		sc.Shape, sc.Radius, sc.Color = draw.CrossGlyph{}, vg.Points(7), plotutil.DarkColors[0]
		p.Add(sc)
		p.Legend.Add(fmt.Sprintf("scaled crossing point p'=%g", c.Crossing), sc)
	}
	widen(&p.X)
	return p, nil
}

// axisLabel names an axis by what it measures and the table column it
// comes from, once when the two are the same word ("work", not
// "work (work)").
func axisLabel(quantity, column string) string {
	if column == "" || strings.EqualFold(quantity, column) {
		return quantity
	}
	return quantity + " (" + column + ")"
}
