package cli

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/egprof/egprof/experiment"
	"github.com/egprof/egprof/internal/getopt"
	"github.com/egprof/egprof/ranks"
)

// mode is one of the ways egprof runs; a command line selects exactly one.
type mode uint8

// The modes, and the option that selects each (classic is the default).
const (
	modeClassic    mode = 1 << iota // gprof's report of one (summed) profile
	modeDiff                        // --diff: '+' minus '-'
	modeRanks                       // --ranks (or any rank option)
	modeExperiment                  // --experiment or --runs
)

// String names the mode as an error message speaks of it.
func (m mode) String() string {
	switch m {
	case modeDiff:
		return "a differential profile (--diff)"
	case modeRanks:
		return "the rank analysis (--ranks)"
	case modeExperiment:
		return "an experiment (--experiment or --runs)"
	default:
		return "gprof's report"
	}
}

// names lists the modes of a set for an error message.
func (m mode) names() string {
	var out []string
	for _, one := range []mode{modeClassic, modeDiff, modeRanks, modeExperiment} {
		if m&one != 0 {
			out = append(out, one.String())
		}
	}
	switch len(out) {
	case 0:
		return ""
	case 1:
		return out[0]
	}
	return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
}

// optionDef is one long option of the command line: one of GNU gprof's
// (short is the letter or code getopt reports), or one of egprof's own
// (short is 0; the other fields describe it).
type optionDef struct {
	name  string
	short rune
	arg   getopt.ArgKind

	// egprof's own options only.
	metavar string                         // the argument in --help ("GMON", "N")
	modes   mode                           // the modes the option belongs to
	selects mode                           // the mode the option selects, if any
	help    string                         // one sentence for --help
	set     func(*extConfig, string) error // records the option (val is "" without argument)
}

// egprof reports whether the option is one of egprof's own.
func (o *optionDef) egprof() bool { return o.short == 0 }

// Codes for gprof's long options that have no short letter.
const (
	optDemangle = 0x100 + iota
	optNoDemangle
	optInlineFileNames
)

// gprofShorts is GNU gprof 2.40's short-option string.
const gprofShorts = "aA::bBcC::d::De:E:f:F:hiI:J::k:lLm:n:N:O:p::P::q::Q::rR:sS:t:Tvw:xyzZ::"

// Mode sets of egprof's options.
const (
	inProfileModes = modeClassic | modeDiff | modeRanks    // one (summed or subtracted) call graph
	inTableModes   = modeRanks | modeExperiment | modeDiff // analysis tables with --format (diff: the impact table)
)

// optionTable is egprof's one option table: GNU gprof 2.40's long options
// in gprof's order (the order decides abbreviation matches and the wording
// of ambiguity errors), then egprof's own. egprof's options are matched
// before gprof's, and only in ways that cannot change the meaning of a gprof
// command line: the exact name, or an abbreviation that is not also one of a
// gprof option.
func optionTable() []optionDef {
	return []optionDef{
		{name: "line", short: 'l'},
		{name: "no-static", short: 'a'},
		{name: "ignore-non-functions", short: 'D'},
		{name: "external-symbol-table", short: 'S', arg: getopt.Required},
		{name: "annotated-source", short: 'A', arg: getopt.Optional},
		{name: "no-annotated-source", short: 'J', arg: getopt.Optional},
		{name: "flat-profile", short: 'p', arg: getopt.Optional},
		{name: "no-flat-profile", short: 'P', arg: getopt.Optional},
		{name: "graph", short: 'q', arg: getopt.Optional},
		{name: "no-graph", short: 'Q', arg: getopt.Optional},
		{name: "exec-counts", short: 'C', arg: getopt.Optional},
		{name: "no-exec-counts", short: 'Z', arg: getopt.Optional},
		{name: "function-ordering", short: 'r'},
		{name: "file-ordering", short: 'R', arg: getopt.Required},
		{name: "file-info", short: 'i'},
		{name: "sum", short: 's'},
		{name: "all-lines", short: 'x'},
		{name: "demangle", short: optDemangle, arg: getopt.Optional},
		{name: "no-demangle", short: optNoDemangle},
		{name: "directory-path", short: 'I', arg: getopt.Required},
		{name: "display-unused-functions", short: 'z'},
		{name: "inline-file-names", short: optInlineFileNames},
		{name: "min-count", short: 'm', arg: getopt.Required},
		{name: "print-path", short: 'L'},
		{name: "separate-files", short: 'y'},
		{name: "static-call-graph", short: 'c'},
		{name: "table-length", short: 't', arg: getopt.Required},
		{name: "time", short: 'n', arg: getopt.Required},
		{name: "no-time", short: 'N', arg: getopt.Required},
		{name: "width", short: 'w', arg: getopt.Required},
		// gprof's table has five nameless entries for its deprecated
		// options; they make "--=X" mean "-e X".
		{name: "", short: 'e', arg: getopt.Required},
		{name: "", short: 'E', arg: getopt.Required},
		{name: "", short: 'f', arg: getopt.Required},
		{name: "", short: 'F', arg: getopt.Required},
		{name: "", short: 'k', arg: getopt.Required},
		{name: "brief", short: 'b'},
		{name: "debug", short: 'd', arg: getopt.Optional},
		{name: "help", short: 'h'},
		{name: "file-format", short: 'O', arg: getopt.Required},
		{name: "traditional", short: 'T'},
		{name: "version", short: 'v'},

		// Differential profiles.
		{name: "diff", metavar: "GMON", modes: modeDiff, selects: modeDiff,
			help: "subtract this profile from the positional ones (repeatable; several are summed)",
			set:  func(e *extConfig, v string) error { e.diffFiles = append(e.diffFiles, v); return nil }},
		{name: "diff-exe", metavar: "B.OUT", modes: modeDiff,
			help: "the executable of the --diff profiles, when it is another build",
			set:  func(e *extConfig, v string) error { e.diffExe = v; return nil }},
		{name: "diff-scale", metavar: "sum|mean|total", modes: modeDiff,
			help: "compare the sums of each side's profiles (eGprof's, the default), their means, " +
				"or '-' scaled to the total time of '+' (as pprof's -normalize)",
			set: setDiffScale},
		{name: "impact", modes: modeDiff,
			help: "print the differential impact table instead of the flat profile",
			set:  func(e *extConfig, _ string) error { e.impact = true; return nil }},
		{name: "fail-if-slower", metavar: "PCT[,FUNC_PCT]", modes: modeDiff,
			help: "exit with status 3 when the --diff run is slower than the positional one by more than " +
				"PCT percent of its time beyond noise (or a function's self time, by more than FUNC_PCT)",
			set: setFailIfSlower},
		{name: "noise", metavar: "on|off", modes: modeDiff,
			help: "mark deltas within two standard errors of sampling noise (default on)",
			set:  setNoise},

		// Files of the call graph.
		{name: "gml", metavar: "FILE", modes: inProfileModes,
			help: "write the call graph (differential in diff mode) as GML",
			set:  func(e *extConfig, v string) error { e.gml = v; return nil }},
		{name: "dot", metavar: "FILE", modes: inProfileModes,
			help: "write the call graph as Graphviz DOT",
			set:  func(e *extConfig, v string) error { e.dot = v; return nil }},
		{name: "svg", metavar: "FILE", modes: inProfileModes,
			help: "draw the call graph as SVG (runs egprof-graphviz)",
			set:  func(e *extConfig, v string) error { e.svg = v; return nil }},
		{name: "png", metavar: "FILE", modes: inProfileModes,
			help: "draw the call graph as PNG (runs egprof-graphviz)",
			set:  func(e *extConfig, v string) error { e.png = v; return nil }},
		{name: "graph-top", metavar: "N", modes: inProfileModes,
			help: "keep at most the N significant functions of largest (change of) inclusive time in graph files " +
				"(0: no limit; SVG and PNG keep 200 by default)",
			set: setGraphTop},
		{name: "node-thres", metavar: "PCT", modes: inProfileModes,
			help: "graph files keep the functions whose inclusive time (in diff mode: change of self or inclusive time, " +
				"beyond noise) is at least PCT percent of the total (change), and the paths to them (default 0.5; 0: all)",
			set: func(e *extConfig, v string) error { return setShare(&e.nodeShare, "--node-thres", v) }},
		{name: "edge-thres", metavar: "PCT", modes: inProfileModes,
			help: "graph files draw the arcs between kept functions that carry at least PCT percent of the total (change) " +
				"of time (default 0.1; 0: all)",
			set: func(e *extConfig, v string) error { return setShare(&e.edgeShare, "--edge-thres", v) }},
		{name: "focus", metavar: "SYMSPEC", modes: inProfileModes,
			help: "graph files show only the call paths through the functions SYMSPEC names: their callers and callees " +
				"(repeatable; a gprof symspec or a demangled name)",
			set: func(e *extConfig, v string) error { e.focus = append(e.focus, v); return nil }},
		{name: "files-from", metavar: "FILE", modes: inProfileModes | modeExperiment,
			help: "read more profile data files from FILE, one path a line (after those on the command line; " +
				"repeatable; - is standard input; with --runs, more runs)",
			set: func(e *extConfig, v string) error { e.filesFrom = append(e.filesFrom, v); return nil }},
		{name: "pprof", metavar: "FILE", modes: inProfileModes,
			help: "write the profile (or differential profile) as a gzipped pprof profile.proto",
			set:  func(e *extConfig, v string) error { e.pprof = v; return nil }},
		{name: "html", metavar: "FILE", modes: inProfileModes | modeExperiment,
			help: "write a self-contained HTML page to explore the profile (flat profile, call graph, flame graph), " +
				"the differential profile (impact table, differential flame graph and call graph), " +
				"the rank analysis or the experiment (PERDAC, SCALA and range comparisons)",
			set: func(e *extConfig, v string) error { e.html = v; return nil }},
		{name: "format", metavar: "text|tsv|json", modes: inTableModes,
			help: "the output format of the rank, experiment and impact tables (default text)",
			set:  setFormat},

		// Experiments.
		{name: "experiment", metavar: "TABLE", modes: modeExperiment, selects: modeExperiment,
			help: "analyse the profiles this TSV/CSV table lists (gmon, binary and dimension columns), " +
				"or an experiment summary (repeatable: they are merged)",
			set: func(e *extConfig, v string) error { e.exp.tables = append(e.exp.tables, v); return nil }},
		{name: "runs", modes: modeExperiment, selects: modeExperiment,
			help: "analyse the positional profiles as runs of one experiment (dimension run)",
			set:  func(e *extConfig, _ string) error { e.exp.runs = true; return nil }},
		{name: "over", metavar: "DIM", modes: modeExperiment,
			help: "PERDAC statistics over this dimension (repeatable; population standard deviation)",
			set:  func(e *extConfig, v string) error { e.exp.over = append(e.exp.over, v); return nil }},
		{name: "threshold", metavar: "PCT", modes: modeExperiment,
			help: "list the rows whose relative standard deviation exceeds PCT percent (default 10)",
			set:  setThreshold},
		{name: "sort", metavar: "share|rsd|natural", modes: modeExperiment,
			help: "the order of the statistics rows: share of a run's time (default), relative standard deviation, " +
				"or function, group and metric as PERDAC's Fig. 3",
			set: setSort},
		{name: "show-noise", modes: modeExperiment,
			help: "list the statistics rows whose spread is within sampling noise too, marked ~",
			set:  func(e *extConfig, _ string) error { e.exp.showNoise = true; return nil }},
		{name: "procs-dim", metavar: "DIM", modes: modeExperiment,
			help: "the experiment's column of process counts (default procs)",
			set:  func(e *extConfig, v string) error { e.exp.procsDim, e.exp.scalaGiven = v, true; return nil }},
		{name: "work-dim", metavar: "DIM", modes: modeExperiment,
			help: "the experiment's column of work (default work)",
			set:  func(e *extConfig, v string) error { e.exp.workDim, e.exp.scalaGiven = v, true; return nil }},
		{name: "rank-dim", metavar: "DIM", modes: modeExperiment,
			help: "the experiment's column telling the ranks of a run apart (default rank)",
			set:  func(e *extConfig, v string) error { e.exp.rankDim = v; return nil }},
		{name: "compare-dim", metavar: "DIM", modes: modeExperiment,
			help: "range-compare the code-machine combinations this column names (SCALA)",
			set:  func(e *extConfig, v string) error { e.exp.compareDim = v; return nil }},
		{name: "time-of-run", metavar: "max|sum|mean", modes: modeExperiment,
			help: "a run's time from its ranks' times (default max)",
			set:  setTimeOfRun},
		{name: "predict", metavar: "P[,W]", modes: modeExperiment,
			help: "evaluate the functions' scaling models at P processes (and work W)",
			set:  setPredict},
		{name: "plots", metavar: "DIR", modes: modeExperiment,
			help: "write the experiment's scalability plots (SVG) into DIR",
			set:  func(e *extConfig, v string) error { e.exp.plots = v; return nil }},

		// MPI ranks: each of these selects the rank analysis.
		{name: "ranks", modes: modeRanks, selects: modeRanks,
			help: "each gmon file is one MPI rank: add the load-imbalance analysis to the summed profile",
			set:  func(*extConfig, string) error { return nil }},
		{name: "rank-pattern", metavar: "REGEX", modes: modeRanks, selects: modeRanks,
			help: "regular expression whose first group is the rank number in a gmon file name",
			set:  func(e *extConfig, v string) error { e.rank.pattern = v; return nil }},
		{name: "activity", metavar: "NAME=REGEX", modes: modeRanks, selects: modeRanks,
			help: "a class of functions for the rank analysis (repeatable; replaces the built-in ones)",
			set:  setActivity},
		{name: "regions", metavar: "function|file|REGEX", modes: modeRanks, selects: modeRanks,
			help: "how the rank analysis groups functions into code regions (default function)",
			set:  setRegions},
		{name: "rank-plots", metavar: "DIR", modes: modeRanks, selects: modeRanks,
			help: "write SVG charts of the rank analysis into DIR",
			set:  func(e *extConfig, v string) error { e.rank.plots = v; return nil }},
		{name: "save-summary", metavar: "FILE", modes: modeRanks | modeExperiment, selects: modeRanks,
			help: "write the mergeable rank (or experiment) summary to FILE",
			set:  func(e *extConfig, v string) error { e.rank.saveSummary = v; return nil }},
		{name: "rank-top", metavar: "N", modes: modeRanks, selects: modeRanks,
			help: "the number of code regions the rank analysis shows in detail (default 20)",
			set:  setRankTop},
		{name: "rank-time", metavar: "self|inclusive", modes: modeRanks, selects: modeRanks,
			help: "a region's time: its self time with the time of the activity functions it calls (default), " +
				"or with the time of everything it calls (gprof's self plus children)",
			set: setRankTime},
		{name: "rank-criterion", metavar: "max|pN|X", modes: modeRanks, selects: modeRanks,
			help: "the candidates for tuning: the largest scaled index (default), those at or above its N-th percentile, or above X",
			set:  setRankCriterion},
	}
}

// gprofParser is the getopt parser of gprof's options.
func gprofParser(table []optionDef) getopt.Parser {
	p := getopt.Parser{Shorts: gprofShorts}
	for _, o := range table {
		if !o.egprof() {
			p.Longs = append(p.Longs, getopt.LongOption{Name: o.name, Arg: o.arg, Short: o.short})
		}
	}
	return p
}

// extConfig holds egprof's own options.
type extConfig struct {
	filesFrom []string // --files-from lists
	diffFiles []string
	diffExe   string
	impact    bool
	noiseOff  bool
	diffScale string // --diff-scale: "", sum, mean or total
	// gateTotal and gateFunction are --fail-if-slower's shares, in
	// percent (gateFunction 0: no per-function check); gate reports it
	// was given.
	gate                    bool
	gateTotal, gateFunction float64
	gml, dot                string
	svg, png                string
	graphTop                int
	// graphTopSet reports an explicit --graph-top (0 means no limit).
	graphTopSet bool
	// nodeShare and edgeShare are --node-thres and --edge-thres as
	// shares (nil: the default); focus lists --focus's symspecs.
	nodeShare, edgeShare *float64
	focus                []string
	pprof                string
	html                 string

	// format is --format, the output format of the analysis tables; exp
	// holds the experiment mode's options, rank the rank analysis's.
	format string
	exp    experimentOptions
	rank   rankOptions

	// mode is the mode the options select; given lists the options given,
	// in order, for the checks that they belong to it.
	mode  mode
	given []*optionDef
}

// wantsGraphFiles reports whether any call-graph file was asked for.
func (e *extConfig) wantsGraphFiles() bool {
	return e.gml != "" || e.dot != "" || e.svg != "" || e.png != ""
}

// usageError is a mistake in the command line's egprof options: one line,
// exit status 1, no usage text.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// splitExtensions takes egprof's own long options out of args and returns
// the rest for gprof's parser. A word after "--" is never taken.
func splitExtensions(table []optionDef, args []string) (rest []string, ext extConfig, err error) {
	rest = make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		if !strings.HasPrefix(a, "--") || len(a) == 2 {
			rest = append(rest, a)
			continue
		}
		name, val, hasVal := strings.Cut(a[2:], "=")
		opt, err := matchExtension(table, name)
		if err != nil {
			return nil, ext, err
		}
		if opt == nil {
			rest = append(rest, a)
			continue
		}
		takesArg := opt.metavar != ""
		if takesArg && !hasVal {
			if i+1 >= len(args) {
				return nil, ext, usagef("--%s needs an argument: --%s=%s", opt.name, opt.name, opt.metavar)
			}
			i++
			val = args[i]
		}
		if !takesArg && hasVal {
			return nil, ext, usagef("--%s takes no argument", opt.name)
		}
		if err := opt.set(&ext, val); err != nil {
			return nil, ext, &usageError{msg: err.Error()}
		}
		ext.given = append(ext.given, opt)
	}
	return rest, ext, nil
}

// matchExtension finds the egprof option a --NAME word means, if any.
func matchExtension(table []optionDef, name string) (*optionDef, error) {
	if name == "" {
		return nil, nil
	}
	for i := range table {
		if o := &table[i]; o.egprof() && o.name == name {
			return o, nil
		}
	}
	for _, o := range table {
		if !o.egprof() && o.name != "" && strings.HasPrefix(o.name, name) {
			return nil, nil // gprof's meaning wins
		}
	}
	var found []*optionDef
	for i := range table {
		if o := &table[i]; o.egprof() && strings.HasPrefix(o.name, name) {
			found = append(found, o)
		}
	}
	switch len(found) {
	case 0:
		return nil, nil
	case 1:
		return found[0], nil
	}
	names := make([]string, len(found))
	for i, o := range found {
		names[i] = "--" + o.name
	}
	return nil, usagef("--%s is ambiguous: it could be %s", name, strings.Join(names, ", "))
}

// checkModes decides the mode the egprof options select and refuses an
// option given outside the modes it belongs to.
func (e *extConfig) checkModes() error {
	e.mode = modeClassic
	for _, m := range []mode{modeExperiment, modeRanks, modeDiff} {
		if e.selected(m) {
			e.mode = m
			break
		}
	}
	for _, o := range e.given {
		switch {
		case o.modes&e.mode != 0:
		case o.selects != 0:
			return usagef("--%s asks for %s, which does not combine with %s", o.name, o.selects, e.mode)
		default:
			return usagef("--%s belongs to %s; it has no meaning in %s", o.name, o.modes.names(), e.mode)
		}
	}
	if e.mode == modeDiff && e.format != "" && e.format != "text" && !e.impact {
		return usagef("--format=%s applies to the impact table of a differential profile: give --impact as well", e.format)
	}
	if !e.wantsGraphFiles() && e.html == "" {
		for _, o := range e.given {
			switch o.name {
			case "graph-top", "node-thres", "edge-thres", "focus":
				return usagef("--%s chooses what graph files keep: give --gml, --dot, --svg, --png or --html as well", o.name)
			}
		}
	}
	if len(e.exp.tables) > 0 && e.exp.runs {
		return usagef("--experiment and --runs are two ways to give the experiment: choose one")
	}
	return nil
}

// expandDiffPatterns replaces each --diff value that is a glob pattern
// (quoted, so that egprof sees it) by the files it matches, in sorted
// order; a pattern that matches nothing is an error. It reads the disk,
// so the command runs it once the command line is parsed, as it reads
// --files-from.
func (e *extConfig) expandDiffPatterns() error {
	var files []string
	for _, v := range e.diffFiles {
		if !strings.ContainsAny(v, "*?[") {
			files = append(files, v)
			continue
		}
		matches, err := filepath.Glob(v)
		if err != nil {
			return usagef("--diff=%s: %v", v, err)
		}
		if len(matches) == 0 {
			return usagef("--diff=%s matches no file", v)
		}
		files = append(files, matches...) // Glob sorts them
	}
	e.diffFiles = files
	return nil
}

// selected reports whether an option that selects m was given.
func (e *extConfig) selected(m mode) bool {
	for _, o := range e.given {
		if o.selects == m {
			return true
		}
	}
	return false
}

func setNoise(e *extConfig, v string) error {
	switch v {
	case "on":
		e.noiseOff = false
	case "off":
		e.noiseOff = true
	default:
		return fmt.Errorf("--noise takes on or off, not %q", v)
	}
	return nil
}

func setDiffScale(e *extConfig, v string) error {
	switch v {
	case "sum", "mean", "total":
		e.diffScale = v
		return nil
	}
	return fmt.Errorf("--diff-scale takes sum, mean or total, not %q", v)
}

func setFailIfSlower(e *extConfig, v string) error {
	pct := func(s string) (float64, bool) {
		f, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		return f, err == nil && f >= 0 && !math.IsInf(f, 0)
	}
	ts, fs, hasF := strings.Cut(v, ",")
	t, ok := pct(ts)
	if !ok {
		return fmt.Errorf("--fail-if-slower takes PCT or PCT,FUNC_PCT (percentages, 0 or more), not %q", v)
	}
	e.gate, e.gateTotal = true, t
	if hasF {
		f, ok := pct(fs)
		if !ok || f == 0 {
			return fmt.Errorf("--fail-if-slower takes PCT or PCT,FUNC_PCT (FUNC_PCT above 0), not %q", v)
		}
		e.gateFunction = f
	}
	return nil
}

func setGraphTop(e *extConfig, v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return fmt.Errorf("--graph-top takes a number of functions (0 for all), not %q", v)
	}
	e.graphTop, e.graphTopSet = n, true
	return nil
}

// setShare records a percentage option as a share.
func setShare(share **float64, name, v string) error {
	pct, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
	if err != nil || pct < 0 || pct > 100 || math.IsNaN(pct) {
		return fmt.Errorf("%s takes a percentage from 0 to 100, not %q", name, v)
	}
	s := pct / 100
	*share = &s
	return nil
}

func setFormat(e *extConfig, v string) error {
	if v != "text" && v != "tsv" && v != "json" {
		return fmt.Errorf("--format takes text, tsv or json, not %q", v)
	}
	e.format = v
	return nil
}

func setThreshold(e *extConfig, v string) error {
	pct, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
	if err != nil || pct < 0 || math.IsNaN(pct) || math.IsInf(pct, 0) {
		return fmt.Errorf("--threshold takes a percentage (0 or more), not %q", v)
	}
	e.exp.threshold, e.exp.thresholdG = pct, true
	return nil
}

func setSort(e *extConfig, v string) error {
	o, err := experiment.ParseOrder(v)
	if err != nil {
		return fmt.Errorf("--sort %w", err)
	}
	e.exp.order = o
	return nil
}

func setTimeOfRun(e *extConfig, v string) error {
	r, err := experiment.ParseReduction(v)
	if err != nil {
		return fmt.Errorf("--time-of-run %w", err)
	}
	e.exp.timeOfRun = r
	return nil
}

func setPredict(e *extConfig, v string) error {
	positive := func(s string) (float64, bool) {
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil && f > 0 && !math.IsInf(f, 0)
	}
	ps, ws, hasW := strings.Cut(v, ",")
	p, ok := positive(ps)
	if !ok {
		return fmt.Errorf("--predict takes a process count P or P,W, not %q", v)
	}
	e.exp.predict = p
	if hasW {
		w, ok := positive(ws)
		if !ok {
			return fmt.Errorf("--predict takes a process count P or P,W, not %q", v)
		}
		e.exp.predictW = w
	}
	return nil
}

func setActivity(e *extConfig, v string) error {
	if _, err := ranks.ParseActivity(v); err != nil {
		return fmt.Errorf("--activity: %w", err)
	}
	e.rank.activities = append(e.rank.activities, v)
	return nil
}

func setRegions(e *extConfig, v string) error {
	if err := ranks.CheckRegions(v); err != nil {
		return err
	}
	e.rank.regions = v
	return nil
}

func setRankTime(e *extConfig, v string) error {
	if err := ranks.CheckTime(v); err != nil {
		return err
	}
	e.rank.time = v
	return nil
}

func setRankCriterion(e *extConfig, v string) error {
	c, err := ranks.ParseCriterion(v)
	if err != nil {
		return err
	}
	e.rank.criterion = c
	return nil
}

func setRankTop(e *extConfig, v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return fmt.Errorf("--rank-top takes a positive number of regions, not %q", v)
	}
	e.rank.top = n
	return nil
}

// helpWidth is the widest line --help prints.
const helpWidth = 100

// extensionHelp describes egprof's own options for --help, in lines of at
// most helpWidth columns.
func extensionHelp(table []optionDef) string {
	var b strings.Builder
	b.WriteString("\negprof's own options (GNU gprof has none of these):\n")
	const indent = 28
	for _, o := range table {
		if !o.egprof() {
			continue
		}
		n := "  --" + o.name
		if o.metavar != "" {
			n += "=" + o.metavar
		}
		words := strings.Fields(o.help)
		line := n
		if len(line) >= indent-1 {
			b.WriteString(line + "\n")
			line = ""
		}
		line += strings.Repeat(" ", indent-len(line))
		first := true
		for _, w := range words {
			if !first && len(line)+1+len(w) > helpWidth {
				b.WriteString(line + "\n")
				line = strings.Repeat(" ", indent)
				first = true
			}
			if !first {
				line += " "
			}
			line += w
			first = false
		}
		b.WriteString(line + "\n")
	}
	b.WriteString(`
Differential profiling: egprof [options] a.out gmon.plus --diff=gmon.minus [--diff-exe=b.out]
prints '+' (the positional profiles) minus '-' (the --diff profiles) in gprof's layout. Its
per-call columns are the change of time per call ('+' s/call minus '-' s/call), not eGprof's
Fig. 1 change of time over change of calls, which is undefined when the calls do not change.

MPI ranks: egprof --ranks a.out gmon.rank0.PID gmon.rank1.PID ... (or rank summaries)
prints the summed profile, then the ranks' load-imbalance indices (Calzarossa, Massari, Tessera).

Experiments: egprof --experiment=TABLE [--over=DIM] [--compare-dim=DIM] [a.out],
or egprof --runs a.out gmon.1 gmon.2 ...: PERDAC's statistics over a dimension
(population standard deviation) and SCALA's isospeed scalability.
`)
	return b.String()
}
