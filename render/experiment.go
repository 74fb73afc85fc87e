package render

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/egprof/egprof/experiment"
)

// ExperimentOptions are the display settings of an experiment's report.
type ExperimentOptions struct {
	Brief  bool   // -b: no explanations
	Format string // "text" (default), "tsv" or "json"
}

// Experiment writes the report of an analysed experiment: PERDAC's tables,
// SCALA's scalability per combination and the range comparisons.
func Experiment(w io.Writer, res *experiment.Result, opt ExperimentOptions) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var err error
	switch opt.Format {
	case "", "text":
		x := &expText{w: bw, res: res, brief: opt.Brief}
		x.write()
	case "tsv":
		writeExperimentTSV(bw, res)
	case "json":
		err = writeExperimentJSON(bw, res)
	default:
		return fmt.Errorf("unknown output format %q (text, tsv or json)", opt.Format)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// grid is the experiment tables' name for a text table.
type grid = textTable

// expText writes the text report.
type expText struct {
	w       *bufio.Writer
	res     *experiment.Result
	brief   bool
	printed bool
	// sections, when not nil, records what is written (see
	// ExperimentSections).
	sections *[]ExperimentSection
}

// ExperimentSection is one section of the experiment's text report, as
// ExperimentSections records it for other renderers (the HTML page).
type ExperimentSection struct {
	// Kind is "perdac", "scala" or "ranges"; Title the section's title.
	Kind  string           `json:"kind"`
	Title string           `json:"title"`
	Parts []ExperimentPart `json:"parts"`
}

// ExperimentPart is a part of a section, in the report's order: an
// explanation (Kind "para", the text unwrapped), a line of the report
// ("line") or a table. A table's Kind says which: "perdac", "runs"
// (SCALA's runs), "psi" (the psi matrix), "predicted", "pairs",
// "functions" (the top functions with their models) or "steps" (the
// range comparison's steps); its cells are the report's.
type ExperimentPart struct {
	Kind  string     `json:"kind"`
	Text  string     `json:"text,omitempty"`
	Head  []string   `json:"head,omitempty"`
	Right []bool     `json:"right,omitempty"`
	Rows  [][]string `json:"rows,omitempty"`
}

// ExperimentSections returns the sections of the experiment's text
// report, with every explanation, line and table it prints (the tables'
// cells as it prints them).
func ExperimentSections(res *experiment.Result) []ExperimentSection {
	sections := []ExperimentSection{}
	x := &expText{w: bufio.NewWriter(io.Discard), res: res, sections: &sections}
	x.write()
	return sections
}

// record adds a part to the current section when recording.
func (x *expText) record(p ExperimentPart) {
	if x.sections == nil || len(*x.sections) == 0 {
		return
	}
	s := &(*x.sections)[len(*x.sections)-1]
	s.Parts = append(s.Parts, p)
}

func (x *expText) section(kind, title string) {
	if x.printed {
		x.w.WriteString("\f\n")
	}
	x.printed = true
	x.w.WriteString(title + "\n\n")
	if x.sections != nil {
		*x.sections = append(*x.sections, ExperimentSection{Kind: kind, Title: title})
	}
}

// para writes an explanation, wrapped, unless -b.
func (x *expText) para(text string) {
	x.record(ExperimentPart{Kind: "para", Text: text})
	if x.brief {
		return
	}
	x.w.WriteString(wrap(text, 76) + "\n\n")
}

// say writes text, lines of the report.
func (x *expText) say(text string) {
	x.w.WriteString(text)
	if t := strings.TrimRight(text, "\n"); t != "" {
		x.record(ExperimentPart{Kind: "line", Text: t})
	}
}

// table writes the table g of the given kind.
func (x *expText) table(kind string, g *grid, indent string) {
	g.write(x.w, indent)
	x.record(ExperimentPart{Kind: kind, Head: g.head, Right: g.right, Rows: g.rows})
}

func (x *expText) write() {
	for _, t := range x.res.Perdac {
		x.perdac(t)
	}
	if x.res.ScalaSkipped != "" {
		x.w.WriteString(x.res.ScalaSkipped + ".\n\n")
	}
	for _, s := range x.res.Scala {
		x.scala(s)
	}
	for i := range x.res.Ranges {
		x.ranges(&x.res.Ranges[i])
	}
	if !x.printed {
		x.w.WriteString("Nothing to report.\n")
	}
}

func f3(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }
func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
func gv(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

func (x *expText) perdac(t *experiment.PerdacTable) {
	x.section("perdac", "Statistics over "+t.Over+" (PERDAC)")
	var others string
	switch len(t.Others) {
	case 0:
		others = ""
	case 1:
		others = " for one value of " + t.Others[0]
	default:
		others = " for one combination of " + strings.Join(t.Others, ", ")
	}
	order := "share: the function's spread of self seconds (largest minus smallest run) as a percentage of the average run's time, so that the rows that can explain the most seconds come first"
	switch t.Order {
	case experiment.OrderRSD:
		order = "re_sdev, largest first"
	case experiment.OrderNatural:
		order = "function, then " + strings.Join(append(slices.Clone(t.Others), "metric"), ", then ") + ", as PERDAC's Fig. 3 lists them"
	}
	var noise string
	switch {
	case t.Hidden > 0:
		noise = fmt.Sprintf("%d rows whose spread is within sampling noise are left out (--show-noise lists them, marked ~)", t.Hidden)
	case t.Noisy > 0:
		noise = fmt.Sprintf("rows whose spread is within sampling noise are marked ~ (%d here)", t.Noisy)
	default:
		noise = "no row above the threshold is within sampling noise"
	}
	x.para(fmt.Sprintf("This table shows which functions behave differently as %s varies. "+
		"Each row is one metric of one function%s, summarised over the values of %s: "+
		"the average, the standard deviation (the population one, dividing by n, as PERDAC computes it), "+
		"that deviation as a percentage of the average (re_sdev), and the smallest and largest values with the %s where each occurs. "+
		"Only rows whose re_sdev is above %g%% are listed (%d of %d); they are sorted by %s. "+
		"Times are in seconds, per-call times in milliseconds (microseconds, us/call, where a row's values are all below a millisecond), "+
		"divided by the calls of each run before the statistics (a run without calls has no per-call value: n counts the values). "+
		"A time counts histogram samples, whose number varies from run to run like a Poisson count even when nothing changes: "+
		"a row is within sampling noise when its standard deviation is at most twice the one Poisson counting alone gives; %s. "+
		"A function missing from the executable of a run counts as zero there; 'absent' says where.",
		t.Over, others, t.Over, t.Over, t.Threshold, len(t.Rows), t.Candidates, order, noise))
	if len(t.Rows) == 0 {
		if t.Hidden > 0 {
			x.say(fmt.Sprintf("No metric of any function varies by more than %g%% over %s beyond sampling noise (%d rows within it; --show-noise lists them).\n\n", t.Threshold, t.Over, t.Hidden))
			return
		}
		x.say(fmt.Sprintf("No metric of any function varies by more than %g%% over %s.\n\n", t.Threshold, t.Over))
		return
	}
	g := &grid{head: append(append([]string{"function"}, t.Others...), "metric", "average", "stdev", "re_sdev", "min", "minloc", "max", "maxloc", "n", "share%", "absent", "")}
	g.right = make([]bool, len(g.head))
	for c := len(t.Others) + 2; c < len(g.head)-2; c++ {
		g.right[c] = true
	}
	g.right[len(t.Others)+6] = false // minloc
	g.right[len(t.Others)+8] = false // maxloc
	for _, r := range t.Rows {
		absent := "-"
		if r.Absent > 0 {
			absent = fmt.Sprintf("%d of %d runs, first %s", r.Absent, r.Runs, r.AbsentAt)
		}
		mark := ""
		if r.WithinNoise {
			mark = "~"
		}
		metric, mean, stdev, lo, hi := perdacValues(&r)
		cells := append(append([]string{r.Name}, r.Group...), metric, mean, stdev, f1(r.RSD),
			lo, r.MinAt, hi, r.MaxAt, strconv.Itoa(r.N), f1(r.Share), absent, mark)
		g.row(cells...)
	}
	x.table("perdac", g, "")
	x.w.WriteString("\n")
}

// perdacValues formats a row's metric name and values for the text
// report: calls' extremes as integers (their average and deviation with
// one decimal), per-call milliseconds in microseconds when every value
// of the row is below a millisecond (so that they do not print as 0.000),
// everything else with three decimals.
func perdacValues(r *experiment.PerdacRow) (metric, mean, stdev, lo, hi string) {
	switch {
	case r.Metric == "calls":
		return r.Metric, f1(r.Mean), f1(r.Stdev), strconv.FormatFloat(r.Min, 'f', 0, 64), strconv.FormatFloat(r.Max, 'f', 0, 64)
	case strings.HasSuffix(r.Metric, " ms/call") && max(math.Abs(r.Min), math.Abs(r.Max)) < 1:
		const us = 1000
		return strings.TrimSuffix(r.Metric, "ms/call") + "us/call", f3(us * r.Mean), f3(us * r.Stdev), f3(us * r.Min), f3(us * r.Max)
	}
	return r.Metric, f3(r.Mean), f3(r.Stdev), f3(r.Min), f3(r.Max)
}

func (x *expText) scala(s *experiment.ScalaReport) {
	cfg := x.res.Config
	title := "Isospeed scalability (SCALA)"
	if s.Combination != "" {
		title += " for " + s.Combination
	}
	x.section("scala", title)
	x.para(fmt.Sprintf("Each run's time is its ranks' %s (--time-of-run=%s). The average unit speed of a run is W/(p·T), "+
		"with W the work (column %s) and p the processes (column %s). The isospeed scalability psi(p, p') = p'·W/(p·W') compares "+
		"the initial run (p, W) with the work W' that keeps the same average unit speed at p'; W' is interpolated "+
		"(linearly in log-log space) between the two works measured at p' whose speeds bracket it. 1 is ideal; "+
		"smaller values mean that the work must grow faster than the processes to keep the speed. "+
		"n/b marks a speed the runs at p' do not bracket: measure a larger (or smaller) work there. "+
		"n/d marks a p' where the speed does not change with the work beyond sampling noise (a time that scales perfectly "+
		"has a speed independent of the work): no work W' is defined, so neither is psi.",
		reductionWords(cfg.TimeOfRun), cfg.TimeOfRun, cfg.WorkDim, cfg.ProcsDim))
	for _, n := range s.Notes {
		x.say("Note: " + n + "\n")
	}
	if len(s.Points) == 0 {
		x.w.WriteString("\n")
		return
	}
	g := &grid{head: []string{cfg.ProcsDim, cfg.WorkDim, "time s", "speed"}, right: []bool{true, true, true, true}}
	for _, pt := range s.Points {
		g.row(gv(pt.P), gv(pt.W), f3(pt.T), gv(pt.Speed()))
	}
	x.table("runs", g, "")
	x.w.WriteString("\n")

	m := s.Matrix
	g = &grid{head: []string{"psi(p, p')"}, right: []bool{false}}
	for _, q := range m.Procs {
		g.head = append(g.head, "p'="+gv(q))
		g.right = append(g.right, true)
	}
	for i, p := range m.Procs {
		row := []string{fmt.Sprintf("p=%s (W=%s)", gv(p), gv(m.Initial[i].W))}
		for j := range m.Procs {
			if j < i {
				row = append(row, "-")
			} else {
				row = append(row, psiText(m.Cells[i][j]))
			}
		}
		g.row(row...)
	}
	x.table("psi", g, "")
	x.w.WriteString("\n")
	x.predicted(s)
	if len(s.Pairs) > 0 {
		x.say("Every run against every larger process count:\n")
		g = &grid{head: []string{"p", "W", "p'", "W'", "psi"}, right: []bool{true, true, true, true, true}}
		for _, sc := range s.Pairs {
			w := "-"
			if sc.OK {
				w = gv(sc.WPrime)
			}
			g.row(gv(sc.From.P), gv(sc.From.W), gv(sc.To), w, psiText(sc))
		}
		x.table("pairs", g, "  ")
		x.w.WriteString("\n")
	}
	x.functions(s)
	if undefinedIn(s) {
		x.say(wrap("n/d: the unit speed at p' does not change with the work beyond sampling noise (the time scales perfectly), so no W' and no psi exist.", 76) + "\n\n")
	}
}

// undefinedIn reports whether any psi of the report is n/d.
func undefinedIn(s *experiment.ScalaReport) bool {
	undefined := func(sc experiment.Scaling) bool { return sc.Undefined }
	if slices.ContainsFunc(s.Pairs, undefined) {
		return true
	}
	for _, row := range s.Matrix.Cells {
		if slices.ContainsFunc(row, undefined) {
			return true
		}
	}
	for _, f := range s.Functions {
		if slices.ContainsFunc(f.Psi, undefined) {
			return true
		}
	}
	return false
}

// psiText prints a scalability: its value, n/b when the runs at p' do
// not bracket the speed, n/d when the speed there does not depend on the
// work.
func psiText(sc experiment.Scaling) string {
	switch {
	case sc.OK:
		return f3(sc.Psi)
	case sc.Undefined:
		return "n/d"
	}
	return "n/b"
}

// predicted writes psi predicted from the runs' time model beside the
// measured one, in the layout of SCALA's Table 2: for each p', P, M and
// the error in percent of M.
func (x *expText) predicted(s *experiment.ScalaReport) {
	if !s.Model.OK || len(s.Matrix.Procs) < 2 {
		return
	}
	x.para(fmt.Sprintf("Predicted (P) and measured (M) scalability, as in SCALA's Table 2: the runs' times are fitted "+
		"as the functions' below (t = %s, root mean square relative error %s%%), and P is psi with W' solved from that model alone, "+
		"at the initial run's speed by the model; %% is |P - M| in percent of M. "+
		"n/b under P: the model never reaches the speed between W/10^6 and W·10^6.",
		s.Model.String(), f1(100*s.Model.RelErr)))
	m := s.Matrix
	g := &grid{head: []string{"psi(p, p')"}, right: []bool{false}}
	for _, q := range m.Procs[1:] {
		g.head = append(g.head, "P p'="+gv(q), "M", "%")
		g.right = append(g.right, true, true, true)
	}
	for i, p := range m.Procs {
		row := []string{"p=" + gv(p)}
		for j := 1; j < len(m.Procs); j++ {
			if j < i {
				row = append(row, "-", "-", "-")
				continue
			}
			pr, ms := s.Predicted[i][j], m.Cells[i][j]
			errText := "-"
			if pr.OK && ms.OK && pr.Psi != ms.Psi {
				errText = f1(experiment.PsiError(pr.Psi, ms.Psi))
			}
			row = append(row, psiText(pr), psiText(ms), errText)
		}
		g.row(row...)
	}
	x.say("Predicted (P) and measured (M) scalability:\n")
	x.table("predicted", g, "  ")
	x.w.WriteString("\n")
}

func reductionWords(r experiment.Reduction) string {
	switch r {
	case experiment.ReduceSum:
		return "total (sum)"
	case experiment.ReduceMean:
		return "mean"
	}
	return "largest time, the critical path of a bulk-synchronous job"
}

func (x *expText) functions(s *experiment.ScalaReport) {
	if len(s.Functions) == 0 {
		return
	}
	cfg := x.res.Config
	init := s.Matrix.Initial[0]
	predict := ""
	if cfg.Predict > 0 {
		predict = " Functions are ranked by the time their model predicts at p=" + gv(cfg.Predict)
		if s.VaryW {
			predict += ", W=" + gv(s.PredictWork(cfg))
		}
		predict += "."
	}
	x.para(fmt.Sprintf("The top functions by self time, with their own time in place of the run's: psi from p=%s, W=%s. "+
		"The model is the time fitted as C0 + C1·p^i·log2(p)^j%s (the normal form of Extra-P) by least squares on relative errors, "+
		"choosing the form with a penalty for each extra coefficient; 'fit' is the root mean square relative error. "+
		"'grows' marks a function whose time increases with p. "+
		"A function whose time scales perfectly has a unit speed that does not depend on the work: its psi is n/d, and its model says how it scales.%s",
		gv(init.P), gv(init.W), map[bool]string{true: "·W^k", false: ""}[s.VaryW], predict))
	g := &grid{head: []string{"function", "time s"}, right: []bool{false, true}}
	for _, q := range s.Matrix.Procs[1:] {
		g.head = append(g.head, fmt.Sprintf("psi(%s,%s)", gv(init.P), gv(q)))
		g.right = append(g.right, true)
	}
	g.head = append(g.head, "model", "fit")
	g.right = append(g.right, false, true)
	if cfg.Predict > 0 {
		g.head = append(g.head, "at p="+gv(cfg.Predict))
		g.right = append(g.right, true)
	}
	g.head = append(g.head, "")
	g.right = append(g.right, false)
	for _, f := range s.Functions {
		row := []string{f.Name, f3(f.Time)}
		for _, sc := range f.Psi {
			if sc.From.T == 0 {
				row = append(row, "-")
			} else {
				row = append(row, psiText(sc))
			}
		}
		fit := "-"
		if f.Model.OK {
			fit = f1(100*f.Model.RelErr) + "%"
		}
		row = append(row, f.Model.String(), fit)
		if cfg.Predict > 0 {
			if f.Model.OK {
				row = append(row, f3(f.Predicted))
			} else {
				row = append(row, "-")
			}
		}
		mark := ""
		if f.Grows {
			mark = "grows"
		}
		g.row(append(row, mark)...)
	}
	x.table("functions", g, "")
	x.w.WriteString("\n")
}

func (x *expText) ranges(r *experiment.RangeResult) {
	title := fmt.Sprintf("Range comparison over %s: %s and %s", r.Dim, r.Slower, r.Faster)
	if r.Context != "" {
		title += " (" + r.Context + ")"
	}
	x.section("ranges", title)
	if r.Problem != "" {
		x.say("No comparison: " + r.Problem + ".\n\n")
		return
	}
	c := &r.Comparison
	x.para("From the initial state (the smallest process count and work measured for both), alpha is the slower " +
		"combination's time over the faster one's. Walking p' up through the process counts measured for both, " +
		"the scalabilities Phi (of the slower) and Psi (of the faster) are computed from the same initial state; " +
		"the first p' where Phi > alpha·Psi is the smallest scaled crossing point (SCALA's Definition 1 and Fig. 2): " +
		"there the initially slower combination, run at its scaled work W', becomes faster than the other at its scaled work W*. " +
		"The same is checked directly on the execution times at the scaled works, interpolated in the measured times, " +
		"and, where measured, on the times at the initial work itself (the unscaled crossing).")
	initial := fmt.Sprintf("initial state: p=%s, W=%s: %s takes %s s, %s %s s",
		gv(c.Initial.P), gv(c.Initial.W), c.Slower, f3(c.Initial.T), c.Faster, f3(c.TFaster))
	if c.Equal {
		x.say(initial + "; equal times, so no crossing point is defined.\n\n")
		return
	}
	x.say(fmt.Sprintf("%s; alpha = %s (%s is faster)\n\n", initial, f3(c.Alpha), c.Faster))
	g := &grid{head: []string{"p'", "Phi(p,p')", "alpha*Psi(p,p')", "crossing", "t(W') s", "T(W*) s", "t(W) s", "T(W) s"},
		right: []bool{true, true, true, false, true, true, true, true}}
	for _, st := range c.Steps {
		row := []string{gv(st.To)}
		if st.Phi.OK && st.Psi.OK {
			row = append(row, f3(st.Phi.Psi), f3(c.Alpha*st.Psi.Psi), yesNo(st.Crossing))
		} else {
			row = append(row, psiText(st.Phi), orNBScaled(st.Psi, c.Alpha), "unknown")
		}
		if st.TimesKnown {
			row = append(row, f3(st.TSlow), f3(st.TFast))
		} else {
			row = append(row, "-", "-")
		}
		if st.FixedKnown {
			row = append(row, f3(st.TSlowAtW), f3(st.TFastAtW))
		} else {
			row = append(row, "-", "-")
		}
		g.row(row...)
	}
	x.table("steps", g, "")
	x.w.WriteString("\n")
	p := gv(c.Initial.P)
	switch {
	case c.Crossing > 0:
		x.say(fmt.Sprintf("smallest scaled crossing point: p'=%s; %s is faster for %s <= p' < %s\n", gv(c.Crossing), c.Faster, p, gv(c.Crossing)))
	case c.Limit > 0:
		x.say(fmt.Sprintf("smallest scaled crossing point: none up to p'=%s; %s is faster for %s <= p' <= %s\n", gv(c.Limit), c.Faster, p, gv(c.Limit)))
	default:
		x.say("smallest scaled crossing point: unknown: the runs at no p' bracket both initial speeds\n")
	}
	x.say(fmt.Sprintf("by execution times at the scaled works: %s\n", crossingWords(c.ByTime, c.TimeLimit)))
	x.say(fmt.Sprintf("at the initial work W=%s itself: %s\n\n", gv(c.Initial.W), crossingWords(c.Fixed, c.FixedLimit)))
}

func crossingWords(p, limit float64) string {
	switch {
	case p > 0:
		return "p'=" + gv(p)
	case limit > 0:
		return "none up to p'=" + gv(limit)
	}
	return "unknown (not measured)"
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func orNBScaled(sc experiment.Scaling, alpha float64) string {
	if sc.OK {
		return f3(alpha * sc.Psi)
	}
	return psiText(sc)
}

// full formats v for TSV and JSON with the fewest digits that read back
// as v.
func full(v float64) string {
	// Plain digits where they are short enough, so that a count of two
	// million reads 2334252.5 next to 933701, not 2.3342525e+06.
	if a := math.Abs(v); v == 0 || a >= 1e-4 && a < 1e15 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// writeExperimentTSV writes every table as tab-separated values in the
// framing of TSVTable: perdac (one per dimension), scala_runs, scala_psi
// (isospeed pairs of the runs and of the functions), scala_predicted
// (predicted against measured psi), scala_functions and ranges.
func writeExperimentTSV(w *bufio.Writer, res *experiment.Result) {
	for _, t := range res.Perdac {
		head := append(append([]string{"over", "function"}, t.Others...), "metric", "n", "average", "stdev", "re_sdev", "min", "minloc", "max", "maxloc", "share", "absent", "absent_first", "noise", "within_noise")
		var rows [][]string
		for _, r := range t.Rows {
			rows = append(rows, append(append([]string{t.Over, r.Name}, r.Group...), r.Metric, strconv.Itoa(r.N),
				full(r.Mean), full(r.Stdev), full(r.RSD), full(r.Min), r.MinAt, full(r.Max), r.MaxAt, full(r.Share),
				strconv.Itoa(r.Absent), r.AbsentAt, full(r.Noise), strconv.FormatBool(r.WithinNoise)))
		}
		TSVTable(w, "perdac", head, rows)
	}
	if len(res.Scala) > 0 {
		var runs, pairs, predicted, funcs [][]string
		for _, s := range res.Scala {
			for _, pt := range s.Points {
				runs = append(runs, []string{s.Combination, full(pt.P), full(pt.W), full(pt.T), full(pt.Speed()), full(pt.Samples)})
			}
			for _, sc := range s.Pairs {
				pairs = append(pairs, scalingRow(s.Combination, "", sc))
			}
			for i := range s.Predicted {
				for j := i + 1; j < len(s.Matrix.Procs); j++ {
					pr, ms := s.Predicted[i][j], s.Matrix.Cells[i][j]
					errText := psiText(experiment.Scaling{})
					if pr.OK && ms.OK {
						errText = full(experiment.PsiError(pr.Psi, ms.Psi))
					}
					predicted = append(predicted, []string{s.Combination, full(s.Matrix.Procs[i]), full(s.Matrix.Initial[i].W), full(s.Matrix.Procs[j]),
						psiValue(pr), psiValue(ms), errText, s.Model.String()})
				}
			}
			for _, f := range s.Functions {
				m := f.Model
				model := []string{m.String(), "", "", "", "", "", "", "", "", ""}
				if m.OK {
					model = []string{m.String(), full(m.C0), full(m.C1), full(m.I), full(m.J), full(m.K), full(m.RelErr), strconv.FormatBool(f.Grows), "", ""}
					if res.Config.Predict > 0 {
						model[8], model[9] = full(res.Config.Predict), full(f.Predicted)
					}
				}
				funcs = append(funcs, append([]string{f.Name, s.Combination, full(f.Time)}, model...))
				for _, sc := range f.Psi {
					if sc.From.T > 0 {
						pairs = append(pairs, scalingRow(s.Combination, f.Name, sc))
					}
				}
			}
		}
		TSVTable(w, "scala_runs", []string{"combination", "procs", "work", "time", "speed", "samples"}, runs)
		TSVTable(w, "scala_psi", []string{"from_p", "combination", "function", "from_work", "from_time", "to_p", "scaled_work", "psi"}, pairs)
		TSVTable(w, "scala_predicted", []string{"combination", "p", "work", "to_p", "predicted", "measured", "error_pct", "model"}, predicted)
		TSVTable(w, "scala_functions", []string{"function", "combination", "time", "model", "c0", "c1", "p_exp", "log_exp", "work_exp", "rel_err", "grows", "predict_p", "predicted"}, funcs)
	}
	if len(res.Ranges) > 0 {
		var rows [][]string
		for _, r := range res.Ranges {
			if r.Problem != "" {
				rows = append(rows, []string{r.Dim, r.Context, r.Slower, r.Faster, "", "", "", "", "", "", "", "", "", "", "", r.Problem})
				continue
			}
			c := &r.Comparison
			for _, st := range c.Steps {
				row := []string{r.Dim, r.Context, c.Slower, c.Faster, full(c.Initial.P), full(c.Initial.W), full(c.Alpha), full(st.To),
					psiValue(st.Phi), psiValue(st.Psi), "", "", "", "", "", ""}
				if st.Phi.OK && st.Psi.OK {
					row[10] = strconv.FormatBool(st.Crossing)
				}
				if st.TimesKnown {
					row[11], row[12], row[13] = full(st.TSlow), full(st.TFast), strconv.FormatBool(st.ByTime)
				}
				if st.FixedKnown {
					row[14] = strconv.FormatBool(st.Fixed)
				}
				rows = append(rows, row)
			}
		}
		TSVTable(w, "ranges", []string{"compared", "context", "slower", "faster", "p", "work", "alpha", "to_p", "phi", "psi", "crossing", "t_slow_scaled", "t_fast_scaled", "crossing_by_time", "crossing_at_work", "problem"}, rows)
	}
}

// psiValue writes a scalability in full precision, or n/b or n/d.
func psiValue(sc experiment.Scaling) string {
	if sc.OK {
		return full(sc.Psi)
	}
	return psiText(sc)
}

func scalingRow(combo, fn string, sc experiment.Scaling) []string {
	w := psiText(sc)
	if sc.OK {
		w = full(sc.WPrime)
	}
	return []string{full(sc.From.P), combo, fn, full(sc.From.W), full(sc.From.T), full(sc.To), w, psiValue(sc)}
}

// The JSON document: the same tables, numbers in full precision, null
// where a value is not defined.
type (
	jsonExperiment struct {
		Perdac       []jsonPerdac `json:"perdac"`
		Scala        []jsonScala  `json:"scala"`
		ScalaSkipped string       `json:"scala_skipped,omitempty"`
		Ranges       []jsonRange  `json:"ranges"`
	}
	jsonPerdac struct {
		Over       string          `json:"over"`
		Others     []string        `json:"others"`
		Threshold  float64         `json:"threshold"`
		Sort       string          `json:"sort"`
		Candidates int             `json:"candidates"`
		Hidden     int             `json:"hidden_within_noise"`
		Rows       []jsonPerdacRow `json:"rows"`
	}
	jsonPerdacRow struct {
		Function string            `json:"function"`
		Group    map[string]string `json:"group"`
		Metric   string            `json:"metric"`
		N        int               `json:"n"`
		Average  float64           `json:"average"`
		Stdev    float64           `json:"stdev"`
		RSD      float64           `json:"re_sdev"`
		Min      float64           `json:"min"`
		MinLoc   string            `json:"minloc"`
		Max      float64           `json:"max"`
		MaxLoc   string            `json:"maxloc"`
		Share    float64           `json:"share"`
		Absent   int               `json:"absent"`
		AbsentAt string            `json:"absent_first,omitempty"`
		Noise    float64           `json:"noise"`
		InNoise  bool              `json:"within_noise"`
	}
	jsonScala struct {
		Combination string         `json:"combination"`
		Runs        []jsonRun      `json:"runs"`
		Procs       []float64      `json:"procs"`
		Matrix      [][]*float64   `json:"matrix"`
		Model       *jsonModel     `json:"model"`
		Predicted   [][]*float64   `json:"predicted"`
		Pairs       []jsonScaling  `json:"pairs"`
		Functions   []jsonFunction `json:"functions"`
		Notes       []string       `json:"notes,omitempty"`
	}
	jsonRun struct {
		P     float64 `json:"procs"`
		W     float64 `json:"work"`
		T     float64 `json:"time"`
		Speed float64 `json:"speed"`
	}
	jsonScaling struct {
		P      float64  `json:"p"`
		W      float64  `json:"work"`
		To     float64  `json:"to_p"`
		WPrime *float64 `json:"scaled_work"`
		Psi    *float64 `json:"psi"`
		// NotDefined is psi's n/d: the speed at p' does not depend on
		// the work beyond sampling noise.
		NotDefined bool `json:"not_defined,omitempty"`
	}
	jsonFunction struct {
		Name      string        `json:"function"`
		Time      float64       `json:"time"`
		Psi       []jsonScaling `json:"psi"`
		Model     *jsonModel    `json:"model"`
		Predicted *float64      `json:"predicted,omitempty"`
	}
	jsonModel struct {
		Form   string  `json:"form"`
		C0     float64 `json:"c0"`
		C1     float64 `json:"c1"`
		I      float64 `json:"p_exp"`
		J      float64 `json:"log_exp"`
		K      float64 `json:"work_exp"`
		RelErr float64 `json:"rel_err"`
		Grows  bool    `json:"grows"`
	}
	jsonRange struct {
		Dim      string     `json:"compared"`
		Context  string     `json:"context"`
		Slower   string     `json:"slower"`
		Faster   string     `json:"faster"`
		Problem  string     `json:"problem,omitempty"`
		P        float64    `json:"p,omitempty"`
		W        float64    `json:"work,omitempty"`
		Alpha    float64    `json:"alpha,omitempty"`
		Steps    []jsonStep `json:"steps,omitempty"`
		Crossing *float64   `json:"crossing"`
		ByTime   *float64   `json:"crossing_by_time"`
		Fixed    *float64   `json:"crossing_at_work"`
	}
	jsonStep struct {
		To       float64  `json:"to_p"`
		Phi      *float64 `json:"phi"`
		Psi      *float64 `json:"psi"`
		Crossing *bool    `json:"crossing"`
		TSlow    *float64 `json:"t_slow_scaled"`
		TFast    *float64 `json:"t_fast_scaled"`
	}
)

func ptr[T any](v T) *T { return &v }

func jsonScalingOf(sc experiment.Scaling) jsonScaling {
	j := jsonScaling{P: sc.From.P, W: sc.From.W, To: sc.To, NotDefined: sc.Undefined}
	if sc.OK {
		j.WPrime, j.Psi = ptr(sc.WPrime), ptr(sc.Psi)
	}
	return j
}

func nonZero(v float64) *float64 {
	if v == 0 {
		return nil
	}
	return &v
}

func writeExperimentJSON(w *bufio.Writer, res *experiment.Result) error {
	doc := jsonExperiment{Perdac: []jsonPerdac{}, Scala: []jsonScala{}, Ranges: []jsonRange{}, ScalaSkipped: res.ScalaSkipped}
	for _, t := range res.Perdac {
		jp := jsonPerdac{Over: t.Over, Others: append([]string{}, t.Others...), Threshold: t.Threshold, Candidates: t.Candidates, Hidden: t.Hidden, Rows: []jsonPerdacRow{}}
		jp.Sort = t.Order.String()
		for _, r := range t.Rows {
			group := map[string]string{}
			for i, d := range t.Others {
				group[d] = r.Group[i]
			}
			jp.Rows = append(jp.Rows, jsonPerdacRow{Function: r.Name, Group: group, Metric: r.Metric, N: r.N, Average: r.Mean,
				Stdev: r.Stdev, RSD: r.RSD, Min: r.Min, MinLoc: r.MinAt, Max: r.Max, MaxLoc: r.MaxAt, Share: r.Share,
				Absent: r.Absent, AbsentAt: r.AbsentAt, Noise: r.Noise, InNoise: r.WithinNoise})
		}
		doc.Perdac = append(doc.Perdac, jp)
	}
	for _, s := range res.Scala {
		js := jsonScala{Combination: s.Combination, Procs: s.Matrix.Procs, Notes: s.Notes, Runs: []jsonRun{}, Pairs: []jsonScaling{}, Functions: []jsonFunction{}}
		for _, pt := range s.Points {
			js.Runs = append(js.Runs, jsonRun{pt.P, pt.W, pt.T, pt.Speed()})
		}
		for i := range s.Matrix.Cells {
			row := make([]*float64, len(s.Matrix.Procs))
			for j := i; j < len(row); j++ {
				if sc := s.Matrix.Cells[i][j]; sc.OK {
					row[j] = ptr(sc.Psi)
				}
			}
			js.Matrix = append(js.Matrix, row)
		}
		if m := s.Model; m.OK {
			js.Model = &jsonModel{Form: m.String(), C0: m.C0, C1: m.C1, I: m.I, J: m.J, K: m.K, RelErr: m.RelErr}
			for i := range s.Predicted {
				row := make([]*float64, len(s.Matrix.Procs))
				for j := i; j < len(row); j++ {
					if sc := s.Predicted[i][j]; sc.OK {
						row[j] = ptr(sc.Psi)
					}
				}
				js.Predicted = append(js.Predicted, row)
			}
		}
		for _, sc := range s.Pairs {
			js.Pairs = append(js.Pairs, jsonScalingOf(sc))
		}
		for _, f := range s.Functions {
			jf := jsonFunction{Name: f.Name, Time: f.Time, Psi: []jsonScaling{}}
			for _, sc := range f.Psi {
				jf.Psi = append(jf.Psi, jsonScalingOf(sc))
			}
			if m := f.Model; m.OK {
				jf.Model = &jsonModel{Form: m.String(), C0: m.C0, C1: m.C1, I: m.I, J: m.J, K: m.K, RelErr: m.RelErr, Grows: f.Grows}
				if res.Config.Predict > 0 {
					jf.Predicted = ptr(f.Predicted)
				}
			}
			js.Functions = append(js.Functions, jf)
		}
		doc.Scala = append(doc.Scala, js)
	}
	for _, r := range res.Ranges {
		jr := jsonRange{Dim: r.Dim, Context: r.Context, Slower: r.Slower, Faster: r.Faster, Problem: r.Problem}
		if r.Problem == "" {
			c := &r.Comparison
			jr.P, jr.W, jr.Alpha = c.Initial.P, c.Initial.W, c.Alpha
			jr.Crossing, jr.ByTime, jr.Fixed = nonZero(c.Crossing), nonZero(c.ByTime), nonZero(c.Fixed)
			for _, st := range c.Steps {
				js := jsonStep{To: st.To}
				if st.Phi.OK {
					js.Phi = ptr(st.Phi.Psi)
				}
				if st.Psi.OK {
					js.Psi = ptr(st.Psi.Psi)
				}
				if st.Phi.OK && st.Psi.OK {
					js.Crossing = ptr(st.Crossing)
				}
				if st.TimesKnown {
					js.TSlow, js.TFast = ptr(st.TSlow), ptr(st.TFast)
				}
				jr.Steps = append(jr.Steps, js)
			}
		}
		doc.Ranges = append(doc.Ranges, jr)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	return nil
}
