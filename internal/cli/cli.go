// Package cli is the egprof command: its option table, its modes (gprof's
// report, differential profiles, MPI ranks, experiments), every output file
// it writes and every process it starts.
package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/experiment"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/atomicfile"
	"github.com/egprof/egprof/internal/mapfile"
	"github.com/egprof/egprof/internal/oserr"
	"github.com/egprof/egprof/ranks"
	"github.com/egprof/egprof/render"
	"github.com/egprof/egprof/render/graphfile"
	"github.com/egprof/egprof/render/pprof"
	"github.com/egprof/egprof/symtab"
)

// Main runs one egprof command line (argv[0] included) and returns the
// process exit status.
func Main(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return execute(argv, stdin, stdout, stderr, true)
}

// run executes one egprof command line (argv[0] included) and returns the
// process exit status. It never calls os.Exit, so tests can drive it.
func run(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return execute(argv, stdin, stdout, stderr, false)
}

// execute is run; with process set it is the whole process (Main), and
// the garbage collector is tuned for the inputs (see tuneGC).
func execute(argv []string, stdin io.Reader, stdout, stderr io.Writer, process bool) (exit int) {
	if len(argv) == 0 {
		argv = []string{"egprof"}
	}
	var out, errs strings.Builder
	cfg, stop := parseCommandLine(argv, os.LookupEnv, &out, &errs)
	// Most command lines have nothing to say here: an empty write would
	// still be a system call.
	if out.Len() > 0 {
		io.WriteString(stdout, out.String())
	}
	if errs.Len() > 0 {
		io.WriteString(stderr, errs.String())
	}
	if stop != nil {
		return stop.code
	}
	files, err := profileFiles(cfg.gmonFiles, cfg.ext.filesFrom, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cfg.argv0, err)
		return 1
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "%s: --files-from names no profile data file\n", cfg.argv0)
		return 1
	}
	cfg.gmonFiles = files
	if err := cfg.ext.expandDiffPatterns(); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cfg.argv0, err)
		return 1
	}
	if process {
		run, code := joinJob(cfg, stdin, stderr)
		if !run {
			return code
		}
		if cfg.job != nil {
			defer func() { cfg.job.finish(exit) }()
			if cfg.job.comm.Rank() != 0 {
				// Process 0 prints and writes everything.
				stdout, stderr = io.Discard, io.Discard
			}
		}
	}
	if process {
		tuneGC(cfg, os.LookupEnv)
	}
	bw := bufio.NewWriterSize(stdout, 64<<10)
	code := report(cfg, stdin, bw, stderr)
	if err := bw.Flush(); err != nil && code == 0 {
		fmt.Fprintf(stderr, "%s: writing the report: %v\n", cfg.argv0, err)
		return 1
	}
	if !cfg.checkSources(stderr) {
		return 1
	}
	return code
}

// checkSources reports, as an error, an executable that changed while its
// mapped debug sections were being read: the source positions printed
// after that are missing (see symtab.Options.MapDebugSections). It
// returns false when it reported one. It warns of source positions that
// lie in a dwz file that was not found.
func (c *config) checkSources(stderr io.Writer) bool {
	ok := true
	for _, tab := range c.tables {
		if err := tab.SourcesErr(); err != nil {
			fmt.Fprintf(stderr, "%s: %v; the source files shown are incomplete\n", c.argv0, err)
			ok = false
		}
		if alt := tab.UnreadAltFile(); alt != "" {
			fmt.Fprintf(stderr, "%s: warning: %s: part of its debug information is in %s (dwz -m), which was not found beside it; "+
				"some source files and lines are missing\n", c.argv0, tab.Path, alt)
		}
	}
	return ok
}

// report runs the mode the command line selects.
func report(c *config, stdin io.Reader, stdout *bufio.Writer, stderr io.Writer) int {
	defer c.lockAccumulated(stderr)()
	switch c.ext.mode {
	case modeExperiment:
		return c.reportExperiment(stdout, stderr)
	case modeRanks:
		return c.reportRanks(stdin, stdout, stderr)
	}
	c.noteDebug(stdout)
	tab, _, code := c.loadSide(c.image, nil, stdin, stdout, stderr)
	if code != 0 {
		return code
	}
	prof, code := c.sumProfiles(tab, c.gmonFiles, stdin, stdout, stderr)
	if code != 0 {
		return code
	}
	c.collectLoaded()
	return c.classic(tab, prof, c.gmonFiles, nil, nil, stdin, stdout, stderr)
}

// modelOnly reports whether the outputs style selects can do without the
// call graph's printing orders (index numbers, the order of entries and of
// their arcs): the differential outputs order their rows themselves, and
// gprof's flat profile alone (without -T, which prints index numbers in
// it, and without egprof's files) prints none of them.
func (c *config) modelOnly(style int) bool {
	switch c.ext.mode {
	case modeDiff:
		return true
	case modeClassic:
		return style == styleFlat && !c.traditional && !c.line &&
			!c.ext.wantsGraphFiles() && c.ext.pprof == "" && c.ext.html == ""
	}
	return false
}

// noteDebug prints gprof's note that -d does nothing here.
func (c *config) noteDebug(stdout io.Writer) {
	if c.debug {
		fmt.Fprintf(stdout, "%s: debugging not supported; -d ignored\n", c.argv0)
	}
}

// classic prints gprof's report of one (summed) profile of the executable
// tab describes, read from files: the sections the options select, the
// files of egprof's own options, and in diff mode the differential profile
// instead. The rank analysis calls it for the summed rank files, with the
// rank inputs (the pprof export labels its samples by rank) and its report
// (for the HTML page).
func (c *config) classic(tab *symtab.Table, prof *gmon.Profile, files []string, rankInputs *ranks.Inputs, rankReport *ranks.Report, stdin io.Reader, stdout *bufio.Writer, stderr io.Writer) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, format, args...)
		return 1
	}
	style := c.sections(prof)
	// The belonging check reads the samples and arcs, which building the
	// graph then releases unless gmon.sum needs them (the rank analysis
	// has checked every rank's file already and keeps its sum).
	var belongErr error
	if c.ext.mode != modeRanks {
		belongErr = c.checkBelongs(prof, tab)
	}
	c.restoreProcessors()
	if c.staticCalls && !callgraph.ScansCalls(tab.Machine) && prof.HasArcs && len(tab.Syms) > 0 {
		// gprof says so when it first looks for a symbol's calls.
		fmt.Fprintf(stderr, "%s: -c not supported on architecture unknown\n", c.argv0)
	}
	g := c.buildGraph(tab, prof, style&styleSum == 0 && c.ext.mode != modeRanks, c.modelOnly(style))
	var blocks *callgraph.Blocks
	if c.line {
		blocks = callgraph.AttachBlocks(tab, prof.BBs)
	}

	if style&styleSum != 0 {
		if err := writeSum(g, prof, blocks, c.format); err != nil {
			return fail("%s: %v\n", c.argv0, err)
		}
	}
	if style&styleFlat != 0 && !prof.HasHist {
		return fail("%s: gmon.out file is missing histogram\n", c.argv0)
	}
	if style&styleGraph != 0 && !prof.HasArcs {
		return fail("%s: gmon.out file is missing call-graph data\n", c.argv0)
	}
	if c.ext.mode != modeRanks {
		if err := belongErr; err != nil {
			msg := fmt.Sprintf("%s does not belong to %s: %v", strings.Join(files, ", "), tab.Path, err)
			if c.ext.mode != modeClassic {
				return fail("%s: %s\n", c.argv0, msg)
			}
			// gprof prints whatever numbers a foreign profile gives;
			// egprof keeps its output and exit status and says so.
			fmt.Fprintf(stderr, "%s: warning: %s; its numbers cannot be trusted\n", c.argv0, msg)
		}
	}
	if c.ext.mode == modeDiff {
		return c.reportDiff(g, style, stdin, stdout, stderr)
	}

	t := render.NewText(stdout, g, c.textOptions())
	if style&styleInfo != 0 {
		t.MarkPrinted()
	}
	if c.ext.wantsGraphFiles() || c.ext.pprof != "" || c.ext.html != "" {
		single := diff.Single(g, diff.Options{KeepAll: c.showZeros})
		if code := c.writeGraphFiles(single, stderr); code != 0 {
			return code
		}
		if code := c.writePProf(single, c.rankProfiles(tab, rankInputs), stderr); code != 0 {
			return code
		}
		if code := c.writeHTML(single, nil, "", rankReport, c.htmlLineData(t, style, g, blocks), stderr); code != 0 {
			return code
		}
	}
	graph := g.HasArcs && style&styleGraph != 0
	if graph && c.traditional {
		t.CallGraph()
	}
	if style&styleFlat != 0 {
		t.Flat()
	}
	if graph {
		if !c.traditional {
			t.CallGraph()
		}
		t.Index()
	}
	printLineSections(t, c, style, g, blocks, stderr)
	printOrderings(t, style, g)
	if err := t.Flush(); err != nil {
		return fail("%s: writing the report: %v\n", c.argv0, err)
	}
	return 0
}

// checkBelongs runs the belonging check of prof against the executable tab
// was loaded from.
func (c *config) checkBelongs(prof *gmon.Profile, tab *symtab.Table) error {
	own := c.ownSymbols(tab)
	if own == nil {
		return nil // the executable's own symbols cannot be had: nothing to check against
	}
	return callgraph.CheckBelongs(prof, own)
}

// ownSymbols returns the executable's own function symbols, which the
// belonging check needs: those of tab (without -l's line symbols), unless
// -a, -D, -R or -S changed them; then they are loaded again. It returns nil
// when they cannot be loaded.
func (c *config) ownSymbols(tab *symtab.Table) *symtab.Table {
	if !(c.noStatic || c.ignoreNonFunc || c.mapFile != "" || c.externalSyms != "") {
		return tab.Functions()
	}
	own, err := symtab.Load(tab.Path, symtab.Options{})
	if err != nil {
		return nil
	}
	return own
}

// sections returns the sections to print: those the options select, or
// without any, gprof's default for what the profile holds.
func (c *config) sections(prof *gmon.Profile) int {
	if c.style != 0 {
		return c.style
	}
	style := 0
	if prof.HasHist {
		style |= styleFlat
	}
	if prof.HasArcs {
		style |= styleGraph
	}
	if style == 0 {
		style = styleExec
	}
	return style &^ c.userSpecified
}

// textOptions are the options of gprof's sections.
func (c *config) textOptions() render.TextOptions {
	return render.TextOptions{
		Brief:           c.brief,
		Traditional:     c.traditional,
		Demangle:        c.demangle,
		DemangleStyle:   c.demangleStyle,
		InlineFileNames: c.inlineNames,
		PrintPath:       c.printPath,
		LineGranularity: c.line && c.externalSyms == "",
		ShowZeros:       c.showZeros,
		Width:           c.width,
	}
}

// symtabOptions are the options that decide which symbols exist.
func (c *config) symtabOptions() symtab.Options {
	return symtab.Options{
		NoStatic:           c.noStatic,
		IgnoreNonFunctions: c.ignoreNonFunc,
		MapFile:            c.mapFile,
		ExternalSymbols:    c.externalSyms,
		ReadText:           c.staticCalls,
		MapDebugSections:   true,
	}
}

// loadSide loads an executable (with -l's line symbols when asked) and
// sums its profile files. On failure it has printed the error and returns
// the exit status.
func (c *config) loadSide(image string, files []string, stdin io.Reader, stdout io.Writer, stderr io.Writer) (*symtab.Table, *gmon.Profile, int) {
	fail := func(format string, args ...any) (*symtab.Table, *gmon.Profile, int) {
		fmt.Fprintf(stderr, format, args...)
		return nil, nil, 1
	}
	tab, err := symtab.Load(image, c.symtabOptions())
	if err != nil {
		var le *symtab.LoadError
		if errors.As(err, &le) && le.Kind == symtab.ErrOpen {
			return fail("%v\n", err)
		}
		return fail("%s: %v\n", c.argv0, err)
	}
	if c.line && c.externalSyms == "" {
		// Without debug information -l changes nothing, as in gprof.
		lt, err := tab.WithLineSymbols()
		if err != nil {
			return fail("%s: %v\n", c.argv0, err)
		}
		tab = lt
	}
	c.tables = append(c.tables, tab)
	prof, code := c.loadProfiles(tab, files, stdin, stdout, stderr)
	if code != 0 {
		return nil, nil, code
	}
	return tab, prof, 0
}

// loadProfiles reads and sums profile files for the executable tab
// describes. On failure it has printed the error and returns the exit
// status.
func (c *config) loadProfiles(tab *symtab.Table, files []string, stdin io.Reader, stdout io.Writer, stderr io.Writer) (*gmon.Profile, int) {
	fail := func(format string, args ...any) (*gmon.Profile, int) {
		fmt.Fprintf(stderr, format, args...)
		return nil, 1
	}
	if c.format == gmon.FormatProf {
		return fail("%s: sorry, file format `prof' is not yet supported\n", c.argv0)
	}
	prof := gmon.NewProfile(tab.Target, c.format)
	warnedBB := false
	// One read buffer and one file's storage for all the files: each is
	// done with once added.
	var buf []byte
	var last *gmon.File
	for _, name := range files {
		in, err := openProfileData(name, stdin, &buf)
		if err != nil {
			return fail("%s: %s\n", name, oserr.Text(err))
		}
		var f *gmon.File
		var why string
		err = in.Guard(func() (err error) {
			if why = summaryGivenAsProfile(in.Data); why == "" {
				f, err = prof.AddDataLeanReusing(last, in.Data, name)
			}
			return err
		})
		in.Close()
		if errors.Is(err, mapfile.ErrCutShort) {
			return fail("%s: %s: %v\n", c.argv0, name, err)
		}
		if why != "" {
			return fail("%s: %s %s\n", c.argv0, name, why)
		}
		if err != nil {
			return fail("%s: %v\n", c.argv0, err)
		}
		last = f
		if c.ext.mode == modeDiff {
			// Each file of a side counts (--diff-scale=mean divides by
			// their number): one without samples would count as zero.
			if err := f.RequireHistogram(); err != nil {
				return fail("%s: %v\n", c.argv0, err)
			}
		}
		if !c.line && len(f.BBs) > 0 && !warnedBB {
			// gprof uses basic-block counts only at line granularity.
			warnedBB = true
			fmt.Fprintf(stderr, "%s: warning: ignoring basic-block exec counts (use -l or --line)\n", c.argv0)
		}
		if c.style&styleInfo != 0 {
			printFileInfo(stdout, f, prof)
		}
	}
	return prof, 0
}

// buildGraph computes the call-graph model of one side; with release set,
// prof's samples and arcs are released once used, and with modelOnly the
// call graph's printing orders are left out (callgraph.Options).
func (c *config) buildGraph(tab *symtab.Table, prof *gmon.Profile, release, modelOnly bool) *callgraph.Graph {
	scan := c.staticCalls && callgraph.ScansCalls(tab.Machine)
	opt := callgraph.Options{Specs: c.specs, StaticCalls: scan, Release: release, ModelOnly: modelOnly}
	if scan {
		opt.TextBytes = tab.TextBytes()
	}
	return callgraph.Build(tab, prof, opt)
}

// reportDiff prints the differential profile: the positional profiles
// ('+') minus the --diff profiles ('-'), of the same executable or of the
// --diff-exe build.
func (c *config) reportDiff(plus *callgraph.Graph, style int, stdin io.Reader, stdout *bufio.Writer, stderr io.Writer) int {
	// One executable: the '-' profiles are read against the same symbol
	// table, so the two sides align by address.
	tab := plus.Syms
	if c.ext.diffExe != "" {
		other, _, code := c.loadSide(c.ext.diffExe, nil, stdin, stdout, stderr)
		if code != 0 {
			return code
		}
		tab = other
	}
	prof, code := c.loadProfiles(tab, c.ext.diffFiles, stdin, stdout, stderr)
	if code != 0 {
		return code
	}
	c.collectLoaded()
	if err := c.checkBelongs(prof, tab); err != nil {
		hint := ""
		if c.ext.diffExe == "" {
			hint = "; if another build made it, name that build's executable with --diff-exe=B.OUT"
		}
		fmt.Fprintf(stderr, "%s: --diff profile %s does not belong to %s: %v%s\n",
			c.argv0, strings.Join(c.ext.diffFiles, ", "), tab.Path, err, hint)
		return 1
	}
	minus := c.buildGraph(tab, prof, true, true)
	scale, scaling := c.diffScaling(plus, minus, stderr)
	scale.KeepAll = c.showZeros
	d := diff.Subtract(plus, minus, scale)
	if len(d.Guessed) > 0 {
		names := make([]string, len(d.Guessed))
		for i, name := range d.Guessed {
			if c.demangle {
				name = symtab.Demangle(name, c.demangleStyle)
			}
			names[i] = name
		}
		fmt.Fprintf(stderr, "%s: warning: %d functions of the two builds share their name with others that neither their translation unit nor their source file tells apart; they were paired in address order: %s\n",
			c.argv0, len(names), someOf(names, 5, ", "))
	}
	if code := c.writeGraphFiles(d, stderr); code != 0 {
		return code
	}
	if code := c.writePProf(d, nil, stderr); code != 0 {
		return code
	}
	opt := render.DiffOptions{
		TextOptions: c.textOptions(),
		NoiseOff:    c.ext.noiseOff,
		Selected: func(f *diff.Function) bool {
			if f.Plus.Entry >= 0 {
				return plus.FlatSelected(f.Plus.Entry)
			}
			return minus.FlatSelected(f.Minus.Entry)
		},
	}
	if c.minCount > 1 {
		opt.MinCalls = c.minCount
	}
	opt.Plus = render.Side{Exe: plus.Syms.Path, Files: c.gmonFiles}
	opt.Minus = render.Side{Exe: tab.Path, Files: c.ext.diffFiles}
	opt.Scaling = scaling
	dt := render.NewDiffText(stdout, d, opt)
	if style&styleInfo != 0 {
		dt.MarkPrinted()
	}
	if code := c.writeHTML(d, dt, scaling, nil, htmlLines{}, stderr); code != 0 {
		return code
	}
	switch {
	case c.ext.impact && (c.ext.format == "tsv" || c.ext.format == "json"):
		// For scripts: the impact table's data alone.
		data := dt.ImpactData(c.diffScaleName())
		write := render.WriteImpactTSV
		if c.ext.format == "json" {
			write = render.WriteImpactJSON
		}
		if err := write(stdout, data); err != nil {
			fmt.Fprintf(stderr, "%s: writing the impact table: %v\n", c.argv0, err)
			return 1
		}
	default:
		if style&styleFlat != 0 || c.ext.impact || (style&styleGraph != 0 && plus.HasArcs) {
			dt.Sides()
		}
		if style&styleFlat != 0 || c.ext.impact {
			if c.ext.impact {
				dt.Impact()
			} else {
				dt.Flat()
			}
		}
		if style&styleGraph != 0 && plus.HasArcs {
			dt.CallGraph()
		}
	}
	if err := dt.Flush(); err != nil {
		fmt.Fprintf(stderr, "%s: writing the report: %v\n", c.argv0, err)
		return 1
	}
	if c.ext.gate {
		return c.gate(d, dt, stderr)
	}
	return 0
}

// someOf joins the first most of names with sep, and says how many more
// there are.
func someOf(names []string, most int, sep string) string {
	s := strings.Join(names[:min(most, len(names))], sep)
	if len(names) > most {
		s += fmt.Sprintf(" and %d more", len(names)-most)
	}
	return s
}

// diffScaleName is the scaling --diff-scale asks for (sum by default).
func (c *config) diffScaleName() string {
	if c.ext.diffScale == "" {
		return "sum"
	}
	return c.ext.diffScale
}

// diffScaling returns the factors that make the two sides comparable, as
// --diff-scale asks, and the phrase that says so in the report's opening
// lines. Sums of unequal numbers of profiles get a warning on stderr.
func (c *config) diffScaling(plus, minus *callgraph.Graph, stderr io.Writer) (diff.Options, string) {
	np, nm := len(c.gmonFiles), len(c.ext.diffFiles)
	switch c.diffScaleName() {
	case "mean":
		return diff.Options{PlusScale: 1 / float64(np), MinusScale: 1 / float64(nm)},
			fmt.Sprintf("mean of each side's profiles ('+' / %d, '-' / %d)", np, nm)
	case "total":
		pt, mt := plus.Seconds(), minus.Seconds()
		if mt > 0 && pt > 0 {
			k := pt / mt
			return diff.Options{MinusScale: k}, fmt.Sprintf("total ('-' scaled by %.4g to the total time of '+')", k)
		}
		return diff.Options{}, "total (a side without time: not scaled)"
	}
	if np != nm && c.ext.diffScale == "" {
		fmt.Fprintf(stderr, "%s: warning: '+' sums %d profiles and '-' %d: the sums differ by their numbers of runs; --diff-scale=mean compares per-profile means\n",
			c.argv0, np, nm)
	}
	return diff.Options{}, "sum of each side's profiles"
}

// gateFailed is the exit status of a --fail-if-slower check that fails.
const gateFailed = 3

// gate runs --fail-if-slower's check on the differential profile d and
// says on stderr why it fails.
func (c *config) gate(d *diff.Profile, dt *render.DiffText, stderr io.Writer) int {
	g := d.CheckRegression(c.ext.gateTotal, c.ext.gateFunction)
	if !g.Failed() {
		return 0
	}
	pct := func(v float64) string {
		if g.PlusTotal <= 0 {
			return "n/a"
		}
		return fmt.Sprintf("%+.1f%%", 100*v/g.PlusTotal)
	}
	if g.Slower {
		fmt.Fprintf(stderr, "%s: --fail-if-slower: the --diff run took %.2f s, the positional run %.2f s: %+.2f s (%s), more than %g%% and than the noise (2 x %.2f s)\n",
			c.argv0, g.MinusTotal, g.PlusTotal, g.Growth, pct(g.Growth), c.ext.gateTotal, g.NoiseSE)
	}
	for _, i := range g.Functions {
		f := &d.Functions[i]
		fmt.Fprintf(stderr, "%s: --fail-if-slower: %s: self time %.2f s against %.2f s: %+.2f s (%s of the positional run), more than %g%%\n",
			c.argv0, dt.Name(i), f.Minus.Self, f.Plus.Self, -f.SelfDelta(), pct(-f.SelfDelta()), c.ext.gateFunction)
	}
	return gateFailed
}

// writeGraphFiles writes the call-graph files asked for with --gml, --dot,
// --svg and --png.
func (c *config) writeGraphFiles(d *diff.Profile, stderr io.Writer) int {
	files := []struct {
		path   string
		format graphFormat
	}{
		{c.ext.gml, formatGML}, {c.ext.dot, formatDOT},
		{c.ext.svg, formatSVG}, {c.ext.png, formatPNG},
	}
	if !c.ext.wantsGraphFiles() {
		return 0
	}
	sel, err := c.graphSelection(d)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", c.argv0, err)
		return 1
	}
	for _, f := range files {
		if f.path == "" {
			continue
		}
		opt := graphfile.Options{
			Select:    sel,
			Naming:    c.textOptions().Naming(),
			PlusName:  strings.Join(c.gmonFiles, " "),
			MinusName: strings.Join(c.ext.diffFiles, " "),
		}
		if f.format == formatSVG || f.format == formatPNG {
			opt.Select = c.pictureSelection(sel)
		}
		if err := writeGraphFile(f.path, f.format, d, opt); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", c.argv0, err)
			return 1
		}
	}
	return 0
}

// pictureSelection is sel for a drawn picture (SVG, PNG, the HTML page's
// call graph): without --graph-top it keeps at most
// graphfile.DefaultImageTop functions, beyond which graphviz's layout
// gets slow.
func (c *config) pictureSelection(sel diff.GraphOptions) diff.GraphOptions {
	if !c.ext.graphTopSet {
		sel.Top = graphfile.DefaultImageTop
	}
	return sel
}

// graphSelection is what the graph files of d keep, as the options say:
// gprof2dot's thresholds unless --node-thres and --edge-thres say
// otherwise, --graph-top's limit, the noise check, --focus, and gprof's
// call-graph symspecs (-q/-Q, -f/-e, -F/-E).
func (c *config) graphSelection(d *diff.Profile) (diff.GraphOptions, error) {
	sel := diff.DefaultGraphOptions()
	if c.ext.nodeShare != nil {
		sel.NodeShare = *c.ext.nodeShare
	}
	if c.ext.edgeShare != nil {
		sel.EdgeShare = *c.ext.edgeShare
	}
	sel.Top = c.ext.graphTop
	sel.NoiseOff = c.ext.noiseOff
	for _, s := range c.specs {
		if s.Table == callgraph.InclGraph || s.Table == callgraph.ExclGraph {
			sel.Shown = d.ShownInCallGraph
			break
		}
	}
	for _, spec := range c.ext.focus {
		found := d.FunctionsMatching(spec)
		if len(found) == 0 {
			return sel, fmt.Errorf("--focus=%s matches no function of the profile", spec)
		}
		sel.Focus = append(sel.Focus, found...)
	}
	return sel, nil
}

// summaryGivenAsProfile says what an egprof summary file given where a
// profile data file is read is, and how to read it ("" when data is not
// a summary).
func summaryGivenAsProfile(data []byte) string {
	switch {
	case ranks.IsSummary(data):
		return "is an egprof rank summary (written by --ranks --save-summary), not a profile data file: add --ranks to read it"
	case experiment.IsSummary(data):
		return "is an egprof experiment summary, not a profile data file: give it with --experiment"
	}
	return ""
}

// openProfileData returns the bytes of a whole data file: mapped where the
// system allows (see mapfile), else read into *buf (see
// gmon.ReadFileInto); "-" is standard input. The caller reads them under
// the result's Guard, then closes it.
func openProfileData(name string, stdin io.Reader, buf *[]byte) (mapfile.Whole, error) {
	if name == "-" {
		data, err := io.ReadAll(stdin)
		return mapfile.Whole{Data: data}, err
	}
	f, err := os.Open(name)
	if err != nil {
		return mapfile.Whole{}, err
	}
	defer f.Close()
	if in, ok := mapfile.Open(f); ok {
		return in, nil
	}
	data, err := gmon.ReadInto(f, buf)
	return mapfile.Whole{Data: data}, err
}

// printFileInfo writes gprof -i's summary of one data file.
func printFileInfo(w io.Writer, f *gmon.File, p *gmon.Profile) {
	w.Write(appendFileInfo(nil, f, p))
}

// appendFileInfo appends gprof -i's summary of one data file, just added
// to p, to b.
func appendFileInfo(b []byte, f *gmon.File, p *gmon.Profile) []byte {
	plural := func(b []byte, n int, one, many string) []byte {
		if n == 1 {
			return fmt.Appendf(b, "\t%d %s\n", n, one)
		}
		return fmt.Appendf(b, "\t%d %s\n", n, many)
	}
	b = fmt.Appendf(b, "File `%s' (version %d) contains:\n", f.Name, p.FileVersion)
	b = plural(b, f.NumHistRecords, "histogram record", "histogram records")
	b = plural(b, f.NumArcRecords, "call-graph record", "call-graph records")
	return plural(b, f.NumBBRecords, "basic-block count record", "basic-block count records")
}

// writeSum writes gmon.sum: the summed histograms and the arcs as gprof
// keeps them (merged per caller and callee, at the symbols' start
// addresses, callers in address order, each caller's arcs newest first).
func writeSum(g *callgraph.Graph, p *gmon.Profile, blocks *callgraph.Blocks, f gmon.Format) error {
	var arcs []gmon.ArcRecord
	for i := 0; i < g.NumSyms; i++ {
		ch := g.Entries[i].Children
		for k := len(ch) - 1; k >= 0; k-- {
			a := &g.Arcs[ch[k]]
			if g.StaticArc(int(ch[k])) {
				continue
			}
			arcs = append(arcs, gmon.ArcRecord{
				FromPC: g.Syms.Syms[a.Parent].Addr,
				SelfPC: g.Syms.Syms[a.Child].Addr,
				Count:  a.Count,
			})
		}
	}
	// gprof writes the basic blocks it attached to symbols, in symbol
	// order (-s implies -l, so they are always attached).
	sum := *p
	sum.BBs = blocks.Records()
	return atomicfile.Write("gmon.sum", func(w io.Writer) error {
		return gmon.WriteSum(w, &sum, arcs, f)
	})
}

// writePProf writes --pprof's profile of d (single or differential)
// atomically. The profile's comments (pprof -comments) describe how its
// stacks were synthesised.
func (c *config) writePProf(d *diff.Profile, rankProfiles func(func(int, *diff.Profile) error) error, stderr io.Writer) int {
	if c.ext.pprof == "" {
		return 0
	}
	opt := pprof.Options{Naming: c.textOptions().Naming(), Ranks: rankProfiles}
	opt.Comments = append(opt.Comments, "egprof: "+c.image+" "+fileList(c.gmonFiles))
	if d.IsDiff() {
		image := c.image
		if c.ext.diffExe != "" {
			image = c.ext.diffExe
		}
		opt.Comments = append(opt.Comments, "egprof: minus "+image+" "+fileList(c.ext.diffFiles))
	}
	if rankProfiles != nil {
		opt.Comments = append(opt.Comments, "egprof: each sample carries its rank (numeric label rank: -tagfocus=rank=3, -tagshow=rank)")
	}
	err := atomicfile.Write(c.ext.pprof, func(w io.Writer) error {
		_, err := pprof.Write(w, d, opt)
		return err
	})
	if err != nil {
		fmt.Fprintf(stderr, "%s: --pprof=%s: %v\n", c.argv0, c.ext.pprof, err)
		return 1
	}
	return 0
}

// fileListShown is how many file names a profile's comment lists.
const fileListShown = 4

// fileList names the profile files for a comment: all of a few, or the
// first and last of many with their number.
func fileList(files []string) string {
	if len(files) <= fileListShown {
		return strings.Join(files, " ")
	}
	return fmt.Sprintf("(%d files) %s %s ... %s", len(files), files[0], files[1], files[len(files)-1])
}

// rankProfiles returns what gives the pprof export its samples rank by
// rank: each rank's gmon file read again and its call graph built with
// tab. With no rank inputs, or when a summary stands for some ranks (its
// ranks' own profiles are not kept), it returns nil: the samples are the
// summed profile's, without labels.
func (c *config) rankProfiles(tab *symtab.Table, inputs *ranks.Inputs) func(func(int, *diff.Profile) error) error {
	if inputs == nil || inputs.Len() == 0 || c.ext.pprof == "" {
		return nil
	}
	for _, in := range inputs.All() {
		if in.Summary {
			return nil
		}
	}
	return func(add func(int, *diff.Profile) error) error {
		for _, in := range inputs.All() {
			data := in.Data
			if data == nil {
				var err error
				if data, err = os.ReadFile(in.Name); err != nil {
					return fmt.Errorf("%s: %s", in.Name, oserr.Text(err))
				}
			}
			prof := gmon.NewProfile(tab.Target, c.format)
			if _, err := prof.AddData(data, in.Name); err != nil {
				return err
			}
			if err := add(in.Rank, diff.Single(c.buildGraph(tab, prof, true, false), diff.Options{KeepAll: true})); err != nil {
				return err
			}
		}
		return nil
	}
}
