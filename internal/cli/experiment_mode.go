package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/egprof/egprof/internal/atomicfile"
	"github.com/egprof/egprof/internal/oserr"
	"github.com/egprof/egprof/ranks"

	"github.com/egprof/egprof/experiment"
	"github.com/egprof/egprof/render"
	"github.com/egprof/egprof/render/charts/wire"
	"github.com/egprof/egprof/render/html"
	"github.com/egprof/egprof/symtab"
)

// experimentOptions are the options of the experiment mode (--experiment,
// --runs and what goes with them).
type experimentOptions struct {
	tables     []string // --experiment: tables or summaries
	runs       bool     // --runs
	over       []string
	threshold  float64
	thresholdG bool
	order      experiment.Order
	showNoise  bool
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
		if errors.Is(err, errJobWorker) {
			return 0
		}
		fmt.Fprintf(stderr, "%s: %v\n", c.argv0, err)
		return 1
	}
	o := &c.ext.exp
	if err := c.checkExperimentOptions(); err != nil {
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
		Over: over, Threshold: threshold, Order: o.order, ShowNoise: o.showNoise,
		ProcsDim: orDefault(o.procsDim, "procs"), WorkDim: orDefault(o.workDim, "work"), RankDim: o.rankDimOr(), CompareDim: o.compareDim,
		RequireScala: o.scalaGiven, TimeOfRun: o.timeOfRun, Predict: o.predict, PredictWork: o.predictW,
		Load: experiment.LoadOptions{
			Symtab: symtab.Options{NoStatic: c.noStatic, IgnoreNonFunctions: c.ignoreNonFunc},
			Format: c.format,
		},
	}
	bar := newProgressBar(stderr)
	cfg.Load.Progress = bar.update
	if c.job != nil {
		cfg.Load.Rows = c.job.experimentRows
	}
	cfg.Naming = c.textOptions().Naming()
	acc, err := c.accumulateExperiment(cfg)
	bar.finish()
	if err != nil {
		return fail(err)
	}
	res, err := acc.Report(cfg)
	if err != nil {
		return fail(err)
	}
	if path := c.ext.rank.saveSummary; path != "" {
		if err := atomicfile.Write(path, func(w io.Writer) error { _, err := w.Write(acc.Encode()); return err }); err != nil {
			return fail(fmt.Errorf("writing the experiment summary %s: %s", path, oserr.Text(err)))
		}
	}
	// The report is made whole before anything is written.
	var out bytes.Buffer
	if err := render.Experiment(&out, res, render.ExperimentOptions{Brief: c.brief, Format: orDefault(c.ext.format, "text")}); err != nil {
		return fail(err)
	}
	if o.plots != "" {
		reply, err := drawCharts(&wire.Request{Experiment: res})
		var cs []wire.Chart
		if err == nil {
			cs = reply.Charts
			for _, why := range reply.Skipped {
				fmt.Fprintf(stderr, "%s: warning: --plots: %s\n", c.argv0, why)
			}
		}
		var files []string
		if err == nil && len(cs) > 0 {
			files, err = writeCharts(o.plots, cs)
		}
		if err != nil {
			return fail(fmt.Errorf("writing the plots: %w", err))
		}
		if len(files) == 0 && len(reply.Skipped) == 0 {
			fmt.Fprintf(stderr, "%s: warning: --plots: the experiment has no %s and %s columns, so there is nothing to plot\n", c.argv0, cfg.ProcsDim, cfg.WorkDim)
		}
	}
	if c.ext.html != "" {
		opt := html.ExperimentOptions{Command: c.argv, Inputs: o.tables}
		if o.runs {
			opt.Inputs, opt.Exe = c.gmonFiles, c.image
		}
		err := atomicfile.Write(c.ext.html, func(w io.Writer) error {
			_, err := html.WriteExperiment(w, res, opt)
			return err
		})
		if err != nil {
			return fail(fmt.Errorf("--html=%s: %w", c.ext.html, err))
		}
	}
	if _, err := stdout.Write(out.Bytes()); err != nil {
		return fail(fmt.Errorf("writing the report: %w", err))
	}
	return 0
}

// accumulateExperiment reads the experiment: the positional profiles
// (--runs), or each --experiment table's profiles, or summary, merged in
// the order given.
func (c *config) accumulateExperiment(cfg experiment.Config) (*experiment.Accumulators, error) {
	o := &c.ext.exp
	if o.runs {
		e, err := experiment.FromRuns(c.image, c.gmonFiles)
		if err != nil {
			return nil, err
		}
		return experiment.Accumulate(e, cfg)
	}
	var all *experiment.Accumulators
	for _, path := range o.tables {
		var acc *experiment.Accumulators
		data, err := os.ReadFile(path)
		switch {
		case err != nil:
			return nil, &experiment.TableError{File: path, Err: fmt.Errorf("cannot read the experiment table: %w", err)}
		case experiment.IsSummary(data):
			acc, err = experiment.DecodeSummary(data, path)
		case ranks.IsSummary(data):
			err = fmt.Errorf("%s is a rank summary, not an experiment table or summary: list it in a table's gmon column", path)
		default:
			var e *experiment.Experiment
			if e, err = experiment.ReadTable(path, experiment.TableOptions{Binary: c.image, RankDim: o.rankDimOr()}); err == nil {
				acc, err = experiment.Accumulate(e, cfg)
			}
		}
		if err != nil {
			return nil, err
		}
		if all == nil {
			all = acc
		} else if err := all.Merge(acc); err != nil {
			return nil, fmt.Errorf("%s cannot be merged with %s: %w", path, o.tables[0], err)
		}
	}
	return all, nil
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
	case len(o.tables) > 0 && !(len(c.gmonFiles) == 1 && c.gmonFiles[0] == "gmon.out"):
		return fmt.Errorf("with --experiment the profiles come from the table, not from the command line (%s)", someOf(c.gmonFiles, 3, " "))
	case c.style&styleSum != 0:
		return errors.New("-s does not combine with an experiment; sum the runs with gprof -s instead")
	}
	return nil
}
