package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/egprof/egprof/experiment"
	"github.com/egprof/egprof/render"
	"github.com/egprof/egprof/render/charts/wire"
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
}

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
	cfg.Naming = c.textOptions().Naming()
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
		cs, err := drawCharts(&wire.Request{Experiment: res})
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
	case o.table != "" && !(len(c.gmonFiles) == 1 && c.gmonFiles[0] == "gmon.out"):
		return fmt.Errorf("with --experiment the profiles come from the table, not from the command line (%s)", strings.Join(c.gmonFiles, " "))
	case c.style&styleSum != 0:
		return errors.New("-s does not combine with an experiment; sum the runs with gprof -s instead")
	}
	return nil
}
