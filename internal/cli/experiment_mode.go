package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/egprof/egprof/experiment"
	"github.com/egprof/egprof/render"
	"github.com/egprof/egprof/render/charts"
	"github.com/egprof/egprof/symtab"
)

// experimentOptions are the options of the experiment mode (--experiment,
// --runs and what goes with them).
type experimentOptions struct {
	table      string // --experiment
	runs       bool   // --runs
	over       []string
	threshold  float64
	thresholdG bool
	sortRSD    bool
	procsDim   string
	workDim    string
	rankDim    string
	compareDim string
	timeOfRun  experiment.Reduction
	predict    float64
	predictW   float64
	plots      string
	scalaGiven bool // --procs-dim or --work-dim named a column
	given      []string
}

// active reports whether the experiment mode was asked for.
func (o *experimentOptions) active() bool { return o.table != "" || o.runs }

// set records one of the experiment options.
func (o *experimentOptions) set(name, val string) error {
	o.given = append(o.given, name)
	switch name {
	case "experiment":
		o.table = val
	case "runs":
		o.runs = true
	case "over":
		o.over = append(o.over, val)
	case "threshold":
		v, err := strconv.ParseFloat(strings.TrimSuffix(val, "%"), 64)
		if err != nil || v < 0 || !finiteNumber(v) {
			return fmt.Errorf("--threshold takes a percentage (0 or more), not %q", val)
		}
		o.threshold, o.thresholdG = v, true
	case "sort":
		switch val {
		case "share":
			o.sortRSD = false
		case "rsd":
			o.sortRSD = true
		default:
			return fmt.Errorf("--sort takes share or rsd, not %q", val)
		}
	case "procs-dim":
		o.procsDim, o.scalaGiven = val, true
	case "work-dim":
		o.workDim, o.scalaGiven = val, true
	case "rank-dim":
		o.rankDim = val
	case "compare-dim":
		o.compareDim = val
	case "time-of-run":
		r, err := experiment.ParseReduction(val)
		if err != nil {
			return fmt.Errorf("--time-of-run %w", err)
		}
		o.timeOfRun = r
	case "predict":
		ps, ws, hasW := strings.Cut(val, ",")
		p, err := strconv.ParseFloat(ps, 64)
		if err != nil || p <= 0 || !finiteNumber(p) {
			return fmt.Errorf("--predict takes a process count P or P,W, not %q", val)
		}
		o.predict = p
		if hasW {
			w, err := strconv.ParseFloat(ws, 64)
			if err != nil || w <= 0 || !finiteNumber(w) {
				return fmt.Errorf("--predict takes a process count P or P,W, not %q", val)
			}
			o.predictW = w
		}
	case "plots":
		o.plots = val
	}
	return nil
}

func finiteNumber(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// reportExperiment runs the experiment mode: reads the experiment (the
// table, or the positional profiles with --runs), analyses it and prints
// the report. Nothing is printed or written unless every profile was read.
func (c *config) reportExperiment(stdout io.Writer, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "%s: %v\n", c.argv0, err)
		return 1
	}
	o := &c.ext.exp
	if err := c.checkExperimentOptions(); err != nil {
		return fail(err)
	}
	var e *experiment.Experiment
	var err error
	if o.runs {
		e, err = experiment.FromRuns(c.image, c.gmonFiles)
	} else {
		e, err = experiment.ReadTable(o.table, experiment.TableOptions{Binary: c.image, RankDim: o.rankDimOr()})
	}
	if err != nil {
		return fail(err)
	}
	over := o.over
	if o.runs && len(over) == 0 {
		over = []string{"run"}
	}
	threshold := 10.0
	if o.thresholdG {
		threshold = o.threshold
	}
	cfg := experiment.Config{
		Over: over, Threshold: threshold, SortByRSD: o.sortRSD,
		ProcsDim: orDefault(o.procsDim, "procs"), WorkDim: orDefault(o.workDim, "work"), RankDim: o.rankDimOr(), CompareDim: o.compareDim,
		RequireScala: o.scalaGiven, TimeOfRun: o.timeOfRun, Predict: o.predict, PredictWork: o.predictW,
		Load: experiment.LoadOptions{
			Symtab: symtab.Options{NoStatic: c.noStatic, IgnoreNonFunctions: c.ignoreNonFunc},
			Format: c.format,
		},
	}
	bar := newProgressBar(stderr)
	cfg.Load.Progress = bar.update
	if c.demangle {
		style := c.demangleStyle
		cfg.Name = func(s string) string { return symtab.Demangle(s, style) }
	}
	res, err := experiment.Analyze(e, cfg)
	bar.finish()
	if err != nil {
		return fail(err)
	}
	// The report is made whole before anything is written.
	var out bytes.Buffer
	if err := render.Experiment(&out, res, render.ExperimentOptions{Brief: c.brief, Format: orDefault(c.ext.format, "text")}); err != nil {
		return fail(err)
	}
	if o.plots != "" {
		cs, err := charts.ExperimentCharts(res)
		var files []string
		if err == nil && len(cs) > 0 {
			files, err = writeCharts(o.plots, cs)
		}
		if err != nil {
			return fail(fmt.Errorf("writing the plots: %w", err))
		}
		if len(files) == 0 {
			fmt.Fprintf(stderr, "%s: warning: --plots: the experiment has no %s and %s columns, so there is nothing to plot\n", c.argv0, cfg.ProcsDim, cfg.WorkDim)
		}
	}
	if _, err := stdout.Write(out.Bytes()); err != nil {
		return fail(fmt.Errorf("writing the report: %w", err))
	}
	return 0
}

func (o *experimentOptions) rankDimOr() string { return orDefault(o.rankDim, "rank") }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// checkExperimentOptions refuses combinations that mean nothing.
func (c *config) checkExperimentOptions() error {
	o := &c.ext.exp
	switch {
	case o.table != "" && o.runs:
		return errors.New("--experiment and --runs are two ways to give the experiment: choose one")
	case len(c.ext.diffFiles) > 0:
		return errors.New("--diff does not combine with an experiment; compare runs with --runs or --over instead")
	case o.table != "" && !(len(c.gmonFiles) == 1 && c.gmonFiles[0] == "gmon.out"):
		return fmt.Errorf("with --experiment the profiles come from the table, not from the command line (%s)", strings.Join(c.gmonFiles, " "))
	case c.style&styleSum != 0:
		return errors.New("-s does not combine with an experiment; sum the runs with gprof -s instead")
	}
	if !o.active() {
		return fmt.Errorf("--%s needs --experiment=FILE or --runs", o.given[0])
	}
	return nil
}
