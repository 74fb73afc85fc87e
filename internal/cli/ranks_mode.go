package cli

import (
	"bufio"
	"fmt"
	"github.com/egprof/egprof/internal/oserr"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/atomicfile"
	"github.com/egprof/egprof/ranks"
	"github.com/egprof/egprof/render"
	"github.com/egprof/egprof/render/charts/wire"
	"github.com/egprof/egprof/symtab"
)

// rankOptions are the options of the rank analysis (each selects it).
type rankOptions struct {
	pattern     string   // --rank-pattern
	activities  []string // --activity, NAME=REGEX
	regions     string   // --regions
	plots       string   // --rank-plots directory
	saveSummary string   // --save-summary file
	top         int      // --rank-top
	time        string   // --rank-time
	criterion   ranks.Criterion
}

// reportRanks runs the rank aggregation: it reads every rank's file (and
// summaries) on all cores, prints the classic sections of the summed
// profile through report, exactly as gprof prints them for the summed
// files, then the rank analysis.
func (c *config) reportRanks(stdin io.Reader, stdout *bufio.Writer, stderr io.Writer) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, format, args...)
		return 1
	}
	o := &c.ext.rank
	format := orDefault(c.ext.format, "text")

	// The executable as gprof loads it (with -l's line symbols, for the
	// classic sections), and at function granularity for the analysis.
	tab, _, code := c.loadSide(c.image, nil, stdin, stdout, stderr)
	if code != 0 {
		return code
	}
	anaTab := tab.Functions()

	inputs := ranks.NewInputs(c.gmonFiles)
	var firstSummary string
	for i, name := range c.gmonFiles {
		isSum := false
		if name == "-" {
			data, err := io.ReadAll(stdin)
			if err != nil {
				return fail("%s: %s\n", name, oserr.Text(err))
			}
			inputs.SetData(i, data)
			isSum = ranks.IsSummary(data)
		} else {
			var err error
			if isSum, err = ranks.Sniff(name); err != nil {
				return fail("%s: %s\n", name, oserr.Text(err))
			}
		}
		inputs.SetSummary(i, isSum)
		if isSum && firstSummary == "" {
			firstSummary = name
		}
	}
	if err := ranks.CheckDistinct(inputs); err != nil {
		return fail("%s: %v\n", c.argv0, err)
	}
	if err := ranks.AssignRanks(inputs, o.pattern); err != nil {
		return fail("%s: %v\n", c.argv0, err)
	}

	cfg, err := c.rankConfig(inputs, firstSummary)
	if err != nil {
		return fail("%s: %v\n", c.argv0, err)
	}
	var dem symtab.Demangler // NewLayout demangles the names one after the other
	layout, err := ranks.NewLayout(anaTab, cfg, func(n string) string { return dem.Demangle(n, symtab.StyleAuto) })
	if err != nil {
		return fail("%s: %v\n", c.argv0, err)
	}

	classic := c.ranksSummed()
	bar := newProgressBar(stderr)
	opts := c.rankCollectOptions(anaTab, classic)
	opts.Progress = bar.update
	if inputs.Len() >= spillRanks && !opts.KeepHeaviest {
		// Unlinked at once: it goes when it is closed, or egprof ends.
		// Without one (no writable temporary directory) the ranks stay
		// in memory, with the same results.
		if spill, err := os.CreateTemp("", "egprof-ranks-*"); err == nil {
			os.Remove(spill.Name())
			defer spill.Close()
			opts.Spill = spill
		}
	}
	res, err := c.collectRanks(anaTab, layout, inputs, opts, stdout)
	bar.finish()
	if err != nil {
		return fail("%s: %v\n", c.argv0, err)
	}
	if res.HasBB && !c.line {
		fmt.Fprintf(stderr, "%s: warning: ignoring basic-block exec counts (use -l or --line)\n", c.argv0)
	}
	// Ranks keep only their heaviest regions; read again the files of
	// those that miss a region shown rank by rank.
	regions := ranks.AnalysisRegions(res.Summary, o.top)
	if _, err := ranks.FillRanks(anaTab, layout, res.Summary, inputs, regions, ranks.CollectOptions{Format: c.format}); err != nil {
		return fail("%s: %v\n", c.argv0, err)
	}
	if o.saveSummary != "" {
		err := atomicfile.Write(o.saveSummary, func(w io.Writer) error {
			_, err := res.Summary.WriteTo(w)
			return err
		})
		if err != nil {
			return fail("%s: writing summary %s: %s\n", c.argv0, o.saveSummary, oserr.Text(err))
		}
	}

	rep, err := ranks.Analyze(res.Summary, ranks.AnalyzeOptions{Top: o.top, Naming: c.textOptions().Naming(), Criterion: o.criterion,
		NoSeries: o.plots == "" && c.ext.html == ""})
	if err != nil {
		return fail("%s: %v\n", c.argv0, err)
	}
	afterOther := false
	if classic {
		c.noteDebug(stdout)
		cw := &countingWriter{w: stdout}
		bw := bufio.NewWriterSize(cw, 64<<10)
		code := c.classic(tab, res.Sum, c.gmonFiles, inputs, rep, stdin, bw, stderr)
		if err := bw.Flush(); err != nil && code == 0 {
			return fail("%s: writing the report: %v\n", c.argv0, err)
		}
		if code != 0 {
			return code
		}
		afterOther = cw.n > 0
	}

	switch format {
	case "tsv":
		err = render.RankTSV(stdout, rep)
	case "json":
		err = render.RankJSON(stdout, rep)
	default:
		err = render.RankText(stdout, rep, render.RankOptions{Brief: c.brief, Top: o.top, AfterOther: afterOther})
	}
	if err != nil {
		return fail("%s: writing the rank analysis: %v\n", c.argv0, err)
	}
	if o.plots != "" {
		reply, err := drawCharts(&wire.Request{Ranks: rep})
		if err == nil {
			_, err = writeCharts(o.plots, reply.Charts)
		}
		if err != nil {
			return fail("%s: --rank-plots: %v\n", c.argv0, err)
		}
	}
	return 0
}

// spillRanks is the number of rank files from which the ranks' rows are
// kept in an unlinked temporary file rather than memory
// (ranks.CollectOptions.Spill), so that memory does not grow with the
// number of files: below it they take less than half a megabyte.
const spillRanks = 1024

// ranksSummed reports whether the rank analysis needs the summed profile:
// -P -Q (and nothing else) leave only the rank analysis, and the files
// need not be summed then, unless a file of the summed profile (--pprof,
// --html, call-graph files) is asked for; report writes those and prints
// no section.
func (c *config) ranksSummed() bool {
	return !(c.style == 0 && c.userSpecified&(styleFlat|styleGraph) == styleFlat|styleGraph) ||
		c.ext.pprof != "" || c.ext.html != "" || c.ext.wantsGraphFiles()
}

// rankCollectOptions returns how the rank files are read (without
// progress): the same on every process of a job.
func (c *config) rankCollectOptions(anaTab *symtab.Table, classic bool) ranks.CollectOptions {
	o := &c.ext.rank
	return ranks.CollectOptions{
		Exe:          filepath.Base(c.image),
		Format:       c.format,
		Sum:          classic || o.saveSummary != "",
		KeepHeaviest: o.saveSummary != "",
		Shown:        o.top,
		Belongs:      c.ownSymbols(anaTab),
	}
}

// collectRanks reads the rank files, on every process of the job when
// there is one (see job.collectRanks), and prints gprof -i's lines for them.
func (c *config) collectRanks(anaTab *symtab.Table, layout *ranks.Layout, inputs *ranks.Inputs, opts ranks.CollectOptions, stdout io.Writer) (*ranks.Collected, error) {
	if j := c.job; j != nil && !j.planned {
		if res, ok, err := j.collectRanks(c, anaTab, layout, inputs, opts, stdout); ok || err != nil {
			return res, err
		}
	}
	opts.OnFile = func(f *gmon.File, p *gmon.Profile) {
		if c.style&styleInfo != 0 {
			printFileInfo(stdout, f, p)
		}
	}
	return ranks.Collect(anaTab, layout, inputs, opts)
}

// rankConfig returns the grouping asked for on the command line; what it
// leaves out (--regions, --activity, --rank-time) is the first summary's,
// else the default.
func (c *config) rankConfig(inputs *ranks.Inputs, firstSummary string) (ranks.Config, error) {
	o := &c.ext.rank
	var cfg ranks.Config
	if firstSummary != "" {
		var data []byte
		var err error
		for _, in := range inputs.All() {
			if in.Name == firstSummary && in.Data != nil {
				data = in.Data
			}
		}
		if data == nil {
			if data, err = os.ReadFile(firstSummary); err != nil {
				return ranks.Config{}, err
			}
		}
		s, err := ranks.DecodeSummary(data, firstSummary)
		if err != nil {
			return ranks.Config{}, err
		}
		cfg = s.Config
	}
	if o.regions != "" {
		cfg.Regions = o.regions
	}
	if o.time != "" {
		cfg.Time = o.time
	}
	if len(o.activities) > 0 {
		cfg.Activities = nil
		for _, a := range o.activities {
			act, err := ranks.ParseActivity(a)
			if err != nil {
				return cfg, err
			}
			cfg.Activities = append(cfg.Activities, act)
		}
	}
	return cfg, nil
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

// Write passes p on and counts it.
func (cw *countingWriter) Write(p []byte) (int, error) {
	n, err := cw.w.Write(p)
	cw.n += int64(n)
	return n, err
}

// progressBar draws the reading progress on stderr, only when stderr is a
// terminal and reading has taken more than a second.
type progressBar struct {
	w       io.Writer
	width   int
	enabled bool
	start   time.Time
	last    time.Time
	drawn   bool
}

// newProgressBar returns a bar for w; it stays silent unless w is a
// terminal.
func newProgressBar(w io.Writer) *progressBar {
	p := &progressBar{w: w, width: 80, start: time.Now()}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.enabled = true
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 20 {
			p.width = cols
		}
	}
	return p
}

// update redraws the bar at most ten times a second.
func (p *progressBar) update(done, total int) {
	if !p.enabled {
		return
	}
	now := time.Now()
	if now.Sub(p.start) < time.Second || (p.drawn && now.Sub(p.last) < 100*time.Millisecond && done < total) {
		return
	}
	fmt.Fprintf(p.w, "\r%s", progressLine(done, total, now.Sub(p.start), p.width))
	p.drawn, p.last = true, now
}

// finish erases the bar.
func (p *progressBar) finish() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// progressLine is the text of the bar: a label, a bar filled in
// proportion, the count and the elapsed time, at most width-1 columns.
func progressLine(done, total int, elapsed time.Duration, width int) string {
	label := "reading profiles "
	count := fmt.Sprintf(" %d/%d %3d%% %s", done, total, 100*done/max(total, 1), elapsed.Truncate(time.Second))
	barLen := width - 1 - len(label) - len(count) - 2
	if barLen < 5 {
		return strings.TrimSpace(label + count)
	}
	filled := barLen * done / max(total, 1)
	return label + "[" + strings.Repeat("#", filled) + strings.Repeat(".", barLen-filled) + "]" + count
}
