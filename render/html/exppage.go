package html

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/egprof/egprof/experiment"
	"github.com/egprof/egprof/render"
)

// ExperimentOptions say what the experiment's page names in its header.
type ExperimentOptions struct {
	// Command is the command line that made the page.
	Command []string
	// Inputs are the experiment's tables or summaries (--experiment), or
	// its profiles (--runs); Exe is the executable of --runs.
	Inputs []string
	Exe    string
}

// experimentJSON is an experiment's analysis: the text report's sections
// (render.ExperimentSections: PERDAC's tables, SCALA's per combination,
// the range comparisons) with their cells as the report prints them, and
// for each SCALA section the measured times against p of the runs and of
// the top functions with their models' curves, to draw.
type experimentJSON struct {
	Inputs   []string                   `json:"inputs"`
	Count    int                        `json:"count"`
	Exe      string                     `json:"exe,omitempty"`
	Skipped  string                     `json:"skipped,omitempty"`
	Sections []render.ExperimentSection `json:"sections"`
	// Charts[k] are the charts of the k-th SCALA section.
	Charts [][]timeChart `json:"charts"`
}

// timeChart is one function's (or the runs') time against the process
// count: the measured points [p, W, seconds] and, when the function has a
// model, the model's time at each of them (Fitted, in Points' order) and
// its curve for each work measured at two process counts or more, [p,
// seconds] at modelSteps process counts spaced evenly in log p over the
// measured range.
type timeChart struct {
	Name   string       `json:"name"`
	Model  string       `json:"model"`
	Points [][3]float64 `json:"points"`
	Fitted []float64    `json:"fitted"`
	Curves []modelCurve `json:"curves"`
}

type modelCurve struct {
	W      float64      `json:"w"`
	Points [][2]float64 `json:"points"`
}

// modelSteps is how many points draw a model's curve.
const modelSteps = 48

// WriteExperiment writes the page of an analysed experiment: a tab per
// PERDAC table (filterable), one per SCALA combination (its runs, the psi
// matrix, predicted against measured psi, and the top functions' times
// against p with their models) and one per range comparison (its steps
// and crossing points).
func WriteExperiment(w io.Writer, res *experiment.Result, opt ExperimentOptions) (Stats, error) {
	if res == nil {
		return Stats{}, errors.New("html page: no experiment")
	}
	ex := &experimentJSON{
		Inputs:   shortList(opt.Inputs, sideFilesShown),
		Count:    len(opt.Inputs),
		Exe:      opt.Exe,
		Skipped:  res.ScalaSkipped,
		Sections: render.ExperimentSections(res),
		Charts:   [][]timeChart{},
	}
	for _, s := range res.Scala {
		ex.Charts = append(ex.Charts, scalaCharts(s))
	}
	title := "egprof: experiment"
	if len(opt.Inputs) > 0 {
		title += ", " + files(opt.Inputs)
	}
	p := &page{Kind: "experiment", Title: title, Command: commandLine(opt.Command), Sides: []sideJSON{}, Names: []string{}, Experiment: ex}
	data, err := json.Marshal(p)
	if err != nil {
		return Stats{}, fmt.Errorf("html page: %w", err)
	}
	st := Stats{DataBytes: len(data)}
	if err := writePage(w, p.Title, data); err != nil {
		return st, fmt.Errorf("html page: %w", err)
	}
	return st, nil
}

// scalaCharts are the runs' times and the top functions' against p, with
// their models.
func scalaCharts(s *experiment.ScalaReport) []timeChart {
	charts := []timeChart{chartOf("the runs", s.Points, s.Model)}
	for _, f := range s.Functions {
		charts = append(charts, chartOf(f.Name, f.Points, f.Model))
	}
	return charts
}

// chartOf is the chart of measured points and their model. Points that
// are not finite numbers are left out (JSON has no NaN).
func chartOf(name string, pts []experiment.Point, m experiment.Model) timeChart {
	c := timeChart{Name: name, Model: m.String(), Points: [][3]float64{}, Fitted: []float64{}, Curves: []modelCurve{}}
	finite := func(v ...float64) bool {
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return false
			}
		}
		return true
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	procs := map[float64][]float64{} // work -> the process counts it was measured at
	var works []float64
	for _, pt := range pts {
		if !finite(pt.P, pt.W, pt.T) || pt.P <= 0 {
			continue
		}
		c.Points = append(c.Points, [3]float64{pt.P, pt.W, pt.T})
		lo, hi = min(lo, pt.P), max(hi, pt.P)
		if !slices.Contains(procs[pt.W], pt.P) {
			procs[pt.W] = append(procs[pt.W], pt.P)
		}
		if len(procs[pt.W]) == 2 {
			works = append(works, pt.W)
		}
	}
	if !m.OK || len(c.Points) == 0 {
		return c
	}
	for _, pt := range c.Points {
		t := m.At(pt[0], pt[1])
		if !finite(t) {
			c.Fitted = []float64{}
			break
		}
		c.Fitted = append(c.Fitted, t)
	}
	slices.Sort(works)
	for _, wk := range works {
		curve := modelCurve{W: wk, Points: [][2]float64{}}
		for k := range modelSteps {
			p := lo
			if hi > lo {
				p = lo * math.Pow(hi/lo, float64(k)/float64(modelSteps-1))
			}
			if t := m.At(p, wk); finite(t) {
				curve.Points = append(curve.Points, [2]float64{p, t})
			}
		}
		c.Curves = append(c.Curves, curve)
	}
	return c
}
