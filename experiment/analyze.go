package experiment

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/egprof/egprof/symtab"
)

// Reduction is how a run's time is made of its ranks' times.
type Reduction int

// The reductions --time-of-run accepts.
const (
	ReduceMax  Reduction = iota // the slowest rank: the critical path of a bulk-synchronous job
	ReduceSum                   // all ranks together: CPU time
	ReduceMean                  // the average rank
)

// ParseReduction reads max, sum or mean.
func ParseReduction(s string) (Reduction, error) {
	switch s {
	case "max":
		return ReduceMax, nil
	case "sum":
		return ReduceSum, nil
	case "mean":
		return ReduceMean, nil
	}
	return 0, fmt.Errorf("takes max, sum or mean, not %q", s)
}

func (r Reduction) String() string {
	return [...]string{"max", "sum", "mean"}[r]
}

func (r Reduction) of(a *Acc) float64 {
	switch r {
	case ReduceSum:
		return a.Sum()
	case ReduceMean:
		return a.Mean
	}
	return a.Max
}

// Config is what to compute.
type Config struct {
	// Over names the dimensions PERDAC's statistics run over, one table
	// each. Empty: every dimension, unless the experiment is a scaling
	// study (it has the process-count and work dimensions), which then
	// gets SCALA's analysis alone.
	Over      []string
	Threshold float64 // percent of relative standard deviation
	Order     Order
	// ShowNoise keeps PERDAC's rows whose spread is within sampling
	// noise (marked); they are left out otherwise.
	ShowNoise bool

	// ProcsDim and WorkDim name the process count and the work of a run;
	// RankDim the rank of a profile within its run; CompareDim the
	// dimension naming the code-machine combinations to range-compare.
	ProcsDim, WorkDim, RankDim, CompareDim string
	// RequireScala makes a missing process-count or work dimension an
	// error (they were named on the command line).
	RequireScala bool
	TimeOfRun    Reduction
	// Predict is the process count functions' models are evaluated at
	// (0: none); PredictWork the work (0: the largest measured).
	Predict, PredictWork float64
	Top                  int // functions in SCALA's per-function view (0: 10)

	Load LoadOptions
	// Naming spells the functions' names (the zero value: raw names).
	Naming symtab.Naming
}

// Result is the analysis of an experiment.
type Result struct {
	Experiment *Experiment
	Functions  []Function
	Names      []string // printed name of each function, unique
	Perdac     []*PerdacTable
	Scala      []*ScalaReport
	Ranges     []RangeResult
	Config     Config
	// ScalaSkipped says why a table without SCALA's columns got no
	// scalability analysis (empty when it got one, or for --runs).
	ScalaSkipped string
}

// ScalaReport is SCALA's analysis of one code-machine combination.
type ScalaReport struct {
	Combination string  // the other dimensions' values, e.g. "build=O2"; empty when there is one
	Points      []Point // one per run: p, W and the run's time
	Matrix      Matrix
	Pairs       []Scaling // from every run to every larger p'
	// Model is the runs' times fitted as for a function; Predicted holds
	// psi predicted from it (Model.Isospeed) in Matrix.Cells' layout.
	Model     Model
	Predicted [][]Scaling
	Functions []FunctionScaling
	VaryW     bool     // more than one work was measured
	Notes     []string // runs left out, and why
}

// FunctionScaling is SCALA's view of one function: its times in place of
// the run's.
type FunctionScaling struct {
	Function int
	Name     string
	Time     float64   // summed over the runs
	Points   []Point   // the function's time per run
	Psi      []Scaling // from the first matrix row's initial run to each larger p'
	Model    Model
	// Grows reports that the model's time rises with p at the largest
	// measured process count.
	Grows     bool
	Predicted float64 // the model at Config.Predict (when asked)
}

// RangeResult is a range comparison between two combinations.
type RangeResult struct {
	Dim     string // the compared dimension
	Context string // the other dimensions' values
	Comparison
	Problem string // why no comparison was possible
}

// Analyze reads the experiment's profiles and computes the statistics and
// scalability the configuration asks for.
func Analyze(e *Experiment, cfg Config) (*Result, error) {
	acc, err := Accumulate(e, cfg)
	if err != nil {
		return nil, err
	}
	return acc.Report(cfg)
}

// Accumulators are the mergeable state of an experiment's analysis: the
// experiment's dimensions and functions, PERDAC's accumulators over each
// dimension the statistics run over, and, for a scaling study, each run's
// accumulators over its ranks. Their size does not depend on the number
// of profiles read. Two of them, made with the same configuration from
// disjoint profiles of the same executables, merge into those of the
// union (Merge); Report computes the result from them.
type Accumulators struct {
	File      string // the (first) experiment table, for messages; empty for --runs
	Dims      []Dimension
	Functions []Function
	// Scala reports that the experiment has the process-count and work
	// columns ProcsDim and WorkDim; RankDim tells a run's ranks apart.
	Scala                      bool
	ProcsDim, WorkDim, RankDim string
	stats                      []*Stats
	runs                       *runTimes // nil without Scala
}

// defaults fills in the configuration's defaults.
func (cfg *Config) defaults() {
	if cfg.RankDim == "" {
		cfg.RankDim = "rank"
	}
	if cfg.Top <= 0 {
		cfg.Top = 10
	}
}

// plan decides from the dimensions whether SCALA applies and which
// dimensions the statistics run over, and refuses what the configuration
// names but the experiment lacks.
func (e *Experiment) plan(cfg *Config) (scala bool, overs []int, err error) {
	procs, work := e.Dim(cfg.ProcsDim), e.Dim(cfg.WorkDim)
	scala = procs >= 0 && work >= 0
	if cfg.RequireScala && !scala {
		missing := cfg.ProcsDim
		if procs >= 0 {
			missing = cfg.WorkDim
		}
		return false, nil, e.tableError(fmt.Errorf("no %q column for the scalability analysis (columns: %s)", missing, strings.Join(e.dimNames(), ", ")))
	}
	if scala {
		for _, d := range []int{procs, work} {
			if !e.Dims[d].Numeric {
				return false, nil, e.tableError(fmt.Errorf("column %q must hold numbers for the scalability analysis", e.Dims[d].Name))
			}
			if e.Dims[d].Nums[0] <= 0 {
				return false, nil, e.tableError(fmt.Errorf("column %q must hold positive numbers, not %s", e.Dims[d].Name, e.Dims[d].Values[0]))
			}
		}
	}
	if _, err := e.compareDim(cfg, scala); err != nil {
		return false, nil, err
	}
	for _, name := range cfg.Over {
		d := e.Dim(name)
		if d < 0 {
			return false, nil, e.tableError(fmt.Errorf("no dimension %q to compute statistics over (dimensions: %s)", name, strings.Join(e.dimNames(), ", ")))
		}
		if !slices.Contains(overs, d) {
			overs = append(overs, d)
		}
	}
	if len(cfg.Over) == 0 && !scala {
		for d := range e.Dims {
			overs = append(overs, d)
		}
	}
	return scala, overs, nil
}

// compareDim returns the dimension the range comparison compares, -1 for
// none.
func (e *Experiment) compareDim(cfg *Config, scala bool) (int, error) {
	if cfg.CompareDim == "" {
		return -1, nil
	}
	compare := e.Dim(cfg.CompareDim)
	if compare < 0 {
		return -1, e.tableError(fmt.Errorf("no %q column to compare (columns: %s)", cfg.CompareDim, strings.Join(e.dimNames(), ", ")))
	}
	if !scala {
		return -1, e.tableError(fmt.Errorf("comparing %s needs the %q and %q columns", cfg.CompareDim, cfg.ProcsDim, cfg.WorkDim))
	}
	return compare, nil
}

// Accumulate reads the experiment's profiles into accumulators.
func Accumulate(e *Experiment, cfg Config) (*Accumulators, error) {
	cfg.defaults()
	scala, overs, err := e.plan(&cfg)
	if err != nil {
		return nil, err
	}
	ps, err := loadExecutables(e, cfg.Load)
	if err != nil {
		return nil, err
	}
	a := &Accumulators{File: e.File, Dims: e.Dims, Functions: ps.funcs, Scala: scala,
		ProcsDim: cfg.ProcsDim, WorkDim: cfg.WorkDim, RankDim: cfg.RankDim}
	metrics := FunctionMetrics()
	raw := make([]string, len(ps.funcs))
	for i, f := range ps.funcs {
		raw[i] = f.Name
	}
	for _, d := range overs {
		a.stats = append(a.stats, NewStats(e.Dims, d, raw, metrics))
	}
	if scala {
		a.runs = newRunTimes(e, cfg.RankDim, len(ps.funcs))
	}
	err = ps.read(e, cfg.Load, func(row int, obs *Observations) {
		vals := e.Rows[row].Values
		for _, s := range a.stats {
			s.Add(vals, obs)
		}
		if a.runs != nil {
			a.runs.add(vals, obs)
		}
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// Report computes the result from the accumulators: the statistics'
// tables with the configuration's threshold and order, and SCALA's
// analysis. The dimensions the statistics run over are those the
// accumulators were made with; a configuration naming others is refused.
func (a *Accumulators) Report(cfg Config) (*Result, error) {
	cfg.defaults()
	e := &Experiment{File: a.File, Dims: a.Dims}
	if a.Scala {
		cfg.ProcsDim, cfg.WorkDim, cfg.RankDim = a.ProcsDim, a.WorkDim, a.RankDim
	} else if cfg.RequireScala {
		return nil, e.tableError(fmt.Errorf("no %q and %q columns for the scalability analysis (dimensions: %s)", cfg.ProcsDim, cfg.WorkDim, orNone(e.dimNames())))
	}
	if len(cfg.Over) > 0 {
		var have []string
		for _, s := range a.stats {
			have = append(have, a.Dims[s.over].Name)
		}
		for _, name := range cfg.Over {
			if !slices.Contains(have, name) {
				return nil, e.tableError(fmt.Errorf("the summary holds statistics over %s only, not over %q (--over when it was saved)", orNone(have), name))
			}
		}
	}
	compare, err := e.compareDim(&cfg, a.Scala)
	if err != nil {
		return nil, err
	}
	res := &Result{Experiment: e, Config: cfg, Functions: a.Functions}
	res.Names = printedNames(a.Functions, cfg.Naming)
	if !a.Scala && a.File != "" {
		var missing []string
		for _, m := range []struct{ name, option string }{{cfg.ProcsDim, "--procs-dim"}, {cfg.WorkDim, "--work-dim"}} {
			if e.Dim(m.name) < 0 {
				missing = append(missing, fmt.Sprintf("no %q column (%s names it)", m.name, m.option))
			}
		}
		res.ScalaSkipped = "SCALA's scalability analysis was skipped: the table has " + strings.Join(missing, " and ")
	}
	for _, s := range a.stats {
		if len(cfg.Over) > 0 && !slices.Contains(cfg.Over, a.Dims[s.over].Name) {
			continue
		}
		s.items = res.Names
		res.Perdac = append(res.Perdac, s.Table(ReportOptions{Threshold: cfg.Threshold, Order: cfg.Order, ShowNoise: cfg.ShowNoise, KeyMetric: 0}))
	}
	if a.Scala {
		res.scalability(a.runs, e.Dim(a.ProcsDim), e.Dim(a.WorkDim), compare)
	}
	return res, nil
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "no dimension"
	}
	return strings.Join(names, ", ")
}

// FunctionMetrics are PERDAC's metrics of a function: self seconds, calls,
// self plus children seconds, and the two per-call values in
// milliseconds (divided by the run's calls before the statistics). The
// times are sampled; calls are counted exactly.
func FunctionMetrics() []Metric {
	return []Metric{
		{Name: "self s", Base: baseSelf, Per: -1, Sampled: true},
		{Name: "calls", Base: baseCalls, Per: -1},
		{Name: "total s", Base: baseTotal, Per: -1, Sampled: true},
		{Name: "self ms/call", Base: baseSelf, Per: baseCalls, Scale: 1000, Sampled: true},
		{Name: "total ms/call", Base: baseTotal, Per: baseCalls, Scale: 1000, Sampled: true},
	}
}

// printedNames names every function with naming (same-named statics get
// their file, as in gprof's index); names that still print alike get a
// number.
func printedNames(funcs []Function, naming symtab.Naming) []string {
	named := make([]symtab.Named, len(funcs))
	for i, f := range funcs {
		named[i] = symtab.Named{Raw: f.Name, Src: f.Src, HasSrc: f.HasSrc, Static: f.Static}
	}
	out := naming.Labels(named)
	count := map[string]int{}
	for _, n := range out {
		count[n]++
	}
	seen := map[string]int{}
	for i, n := range out {
		if count[n] < 2 {
			continue
		}
		seen[n]++
		if seen[n] > 1 {
			out[i] = fmt.Sprintf("%s #%d", n, seen[n])
		}
	}
	return out
}

func (e *Experiment) dimNames() []string {
	var names []string
	for _, d := range e.Dims {
		names = append(names, d.Name)
	}
	return names
}

// tableError is a problem of the experiment as a whole.
func (e *Experiment) tableError(err error) error {
	return &TableError{File: e.File, Err: err}
}

// runTimes accumulates, per run (the rows that differ only in their
// rank), the ranks' total times and each function's self times.
type runTimes struct {
	rank  int // the rank dimension, -1 if none
	index map[string]int
	vals  [][]int   // per run, its dimension values (rank's -1)
	total []Acc     // per run, over ranks
	funcs [][]Acc   // per run, per function, over ranks
	hz    []float64 // per run, the (last) sampling rate of its ranks
	nf    int
}

func newRunTimes(e *Experiment, rankDim string, nf int) *runTimes {
	return &runTimes{rank: e.Dim(rankDim), index: map[string]int{}, nf: nf}
}

// run returns the index of the run whose dimension values (the rank's
// left out) are vals, adding it if new.
func (rt *runTimes) run(vals []int) int {
	i, isNew := lookup(rt.index, vals, rt.rank)
	if isNew {
		v := slices.Clone(vals)
		if rt.rank >= 0 {
			v[rt.rank] = -1
		}
		rt.vals = append(rt.vals, v)
		rt.total = append(rt.total, Acc{})
		rt.hz = append(rt.hz, 0)
		rt.funcs = append(rt.funcs, make([]Acc, rt.nf))
	}
	return i
}

func (rt *runTimes) add(vals []int, obs *Observations) {
	i := rt.run(vals)
	at := 0
	if rt.rank >= 0 {
		at = vals[rt.rank]
	}
	rt.total[i].Add(obs.Total, at)
	if obs.HZ > 0 {
		rt.hz[i] = obs.HZ
	}
	for f := range rt.funcs[i] {
		rt.funcs[i][f].Add(obs.Base[f*obs.Bases+baseSelf], at)
	}
}

// samples is the number of histogram samples behind run i's time taken
// from a by r: the time times the rate, and for the mean of the ranks,
// times their number (the mean of k counts is as noisy as their sum).
// It is rounded to a millionth of a sample: seconds are samples over the
// rate, and multiplying back leaves float residue (14.000000000000002)
// that the TSV output would print; gprof's shared histogram bins make
// fractional counts, which stay.
func (rt *runTimes) samples(i int, a *Acc, r Reduction) float64 {
	n := r.of(a) * rt.hz[i]
	if r == ReduceMean {
		n *= float64(a.N)
	}
	return math.Round(n*1e6) / 1e6
}

// scalability computes SCALA's reports from the runs' times.
func (res *Result) scalability(rt *runTimes, procs, work, compare int) {
	e, cfg := res.Experiment, res.Config
	// A combination is every dimension but the process count, the work
	// and the rank.
	comboOf := func(vals []int, skip int) string {
		var parts []string
		for d, v := range vals {
			if d == procs || d == work || d == rt.rank || d == skip || v < 0 {
				continue
			}
			parts = append(parts, e.Dims[d].Name+"="+e.Dims[d].Values[v])
		}
		return strings.Join(parts, ", ")
	}
	type combo struct {
		name    string
		runs    []int
		compare int    // value index of the compared dimension
		context string // the combination without the compared dimension
	}
	var combos []*combo
	byName := map[string]*combo{}
	order := make([]int, len(rt.vals))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return slices.Compare(rt.vals[a], rt.vals[b]) })
	for _, i := range order {
		name := comboOf(rt.vals[i], -1)
		c, ok := byName[name]
		if !ok {
			c = &combo{name: name, compare: -1}
			if compare >= 0 {
				c.compare, c.context = rt.vals[i][compare], comboOf(rt.vals[i], compare)
			}
			byName[name] = c
			combos = append(combos, c)
		}
		c.runs = append(c.runs, i)
	}
	pointsOf := map[*combo][]Point{}
	for _, c := range combos {
		rep := &ScalaReport{Combination: c.name}
		works := map[float64]bool{}
		for _, i := range c.runs {
			p, w := e.Dims[procs].Nums[rt.vals[i][procs]], e.Dims[work].Nums[rt.vals[i][work]]
			t := cfg.TimeOfRun.of(&rt.total[i])
			if t <= 0 {
				rep.Notes = append(rep.Notes, fmt.Sprintf("the run at %s=%g, %s=%g has no samples and is left out", cfg.ProcsDim, p, cfg.WorkDim, w))
				continue
			}
			rep.Points = append(rep.Points, Point{P: p, W: w, T: t, Samples: rt.samples(i, &rt.total[i], cfg.TimeOfRun)})
			works[w] = true
		}
		if len(rep.Points) == 0 {
			rep.Notes = append(rep.Notes, "no run has samples: nothing to analyse")
			res.Scala = append(res.Scala, rep)
			continue
		}
		rep.VaryW = len(works) > 1
		rep.Matrix = IsospeedMatrix(rep.Points)
		rep.Pairs = AllPairs(rep.Points)
		rep.Model = Fit(rep.Points, rep.VaryW)
		for i, init := range rep.Matrix.Initial {
			row := make([]Scaling, len(rep.Matrix.Procs))
			for j := i; j < len(row); j++ {
				row[j] = rep.Model.Isospeed(init.P, init.W, rep.Matrix.Procs[j])
			}
			rep.Predicted = append(rep.Predicted, row)
		}
		rep.Functions = res.functionScaling(rt, c.runs, procs, work, rep)
		pointsOf[c] = rep.Points
		res.Scala = append(res.Scala, rep)
	}
	if compare < 0 {
		return
	}
	for i, a := range combos {
		for _, b := range combos[i+1:] {
			if a.context != b.context || a.compare == b.compare {
				continue
			}
			rr := RangeResult{Dim: e.Dims[compare].Name, Context: a.context}
			nameA, nameB := e.Dims[compare].Values[a.compare], e.Dims[compare].Values[b.compare]
			cmpRes, err := RangeCompare(nameA, pointsOf[a], nameB, pointsOf[b])
			if err != nil {
				rr.Problem = err.Error()
				rr.Slower, rr.Faster = nameA, nameB
			} else {
				rr.Comparison = cmpRes
			}
			res.Ranges = append(res.Ranges, rr)
		}
	}
}

// functionScaling is the per-function view of one combination: the top
// functions by time, their isospeed scalability and their fitted models.
func (res *Result) functionScaling(rt *runTimes, runs []int, procs, work int, rep *ScalaReport) []FunctionScaling {
	e, cfg := res.Experiment, res.Config
	totals := make([]float64, rt.nf)
	for _, i := range runs {
		for f := range totals {
			totals[f] += cfg.TimeOfRun.of(&rt.funcs[i][f])
		}
	}
	var top []int
	for f, t := range totals {
		if t > 0 {
			top = append(top, f)
		}
	}
	slices.SortStableFunc(top, func(a, b int) int { return cmp.Compare(totals[b], totals[a]) })
	top = top[:min(len(top), cfg.Top)]
	init := rep.Matrix.Initial[0]
	predictW := rep.PredictWork(cfg)
	var out []FunctionScaling
	for _, f := range top {
		fs := FunctionScaling{Function: f, Name: res.Names[f], Time: totals[f]}
		var from Point
		for _, i := range runs {
			t := cfg.TimeOfRun.of(&rt.funcs[i][f])
			pt := Point{P: e.Dims[procs].Nums[rt.vals[i][procs]], W: e.Dims[work].Nums[rt.vals[i][work]], T: t,
				Samples: rt.samples(i, &rt.funcs[i][f], cfg.TimeOfRun)}
			if pt.P == init.P && pt.W == init.W {
				from = pt
			}
			if t > 0 {
				fs.Points = append(fs.Points, pt)
			}
		}
		for _, q := range rep.Matrix.Procs[1:] {
			sc := Scaling{From: from, To: q}
			if from.T > 0 {
				sc = Isospeed(from, PointsAt(fs.Points, q), q)
			}
			fs.Psi = append(fs.Psi, sc)
		}
		fs.Model = Fit(fs.Points, rep.VaryW)
		fs.Grows = fs.Model.GrowsAt(rep.Matrix.Procs[len(rep.Matrix.Procs)-1])
		if cfg.Predict > 0 && fs.Model.OK {
			fs.Predicted = fs.Model.At(cfg.Predict, predictW)
		}
		out = append(out, fs)
	}
	if cfg.Predict > 0 {
		slices.SortStableFunc(out, func(a, b FunctionScaling) int { return cmp.Compare(b.Predicted, a.Predicted) })
	}
	return out
}

// PredictWork is the work the models are evaluated at: the configured
// one, else the largest measured.
func (rep *ScalaReport) PredictWork(cfg Config) float64 {
	if cfg.PredictWork > 0 {
		return cfg.PredictWork
	}
	w := 0.0
	for _, pt := range rep.Points {
		w = max(w, pt.W)
	}
	return w
}
