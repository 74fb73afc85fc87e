package cli

import (
	"fmt"
	"strconv"
	"strings"
)

// extOption is a long option of egprof's own, which GNU gprof does not
// have.
type extOption struct {
	name   string
	hasArg bool
	help   string
}

// extOptions lists egprof's extensions. They are matched before gprof's
// options, and only in ways that cannot change the meaning of a gprof
// command line: an exact name, or an abbreviation that is not also an
// abbreviation of one of gprof's long options.
var extOptions = []extOption{
	{"diff", true, "subtract this profile (repeatable; several are summed) from the positional ones"},
	{"diff-exe", true, "executable of the --diff profiles, when it is another build"},
	{"impact", false, "print the differential impact table instead of the flat profile"},
	{"noise", true, "on (default) or off: mark deltas within two standard errors of sampling noise"},
	{"gml", true, "write the call graph (or differential call graph) as GML"},
	{"dot", true, "write the call graph as Graphviz DOT"},
	{"svg", true, "render the call graph as SVG (needs egprof-graphviz)"},
	{"png", true, "render the call graph as PNG (needs egprof-graphviz)"},
	{"graph-top", true, "keep the N functions with the largest (change of) inclusive time in graph files (0: all; SVG/PNG default 200)"},
	{"pprof", true, "write the profile (or differential profile) as a gzipped pprof profile.proto"},
	{"format", true, "text (default), tsv or json: the output format of egprof's analysis tables"},
	{"experiment", true, "analyse the profiles this table lists (TSV/CSV: gmon, binary and dimension columns)"},
	{"runs", false, "analyse the positional profiles as runs of one experiment (dimension run)"},
	{"over", true, "PERDAC statistics over this dimension (repeatable); stdev is the population one (divides by n), as in PERDAC"},
	{"threshold", true, "list the rows whose relative standard deviation exceeds PCT percent (default 10)"},
	{"sort", true, "share (default: of a run's time) or rsd: the order of the statistics rows"},
	{"procs-dim", true, "the experiment's column of process counts (default procs)"},
	{"work-dim", true, "the experiment's column of work (default work)"},
	{"rank-dim", true, "the experiment's column telling the ranks of a run apart (default rank)"},
	{"compare-dim", true, "range-compare the code-machine combinations this column names (SCALA)"},
	{"time-of-run", true, "max (default), sum or mean: a run's time from its ranks' times"},
	{"predict", true, "evaluate the functions' scaling models at P processes (P or P,WORK)"},
	{"plots", true, "write the experiment's scalability plots (SVG) into this directory"},
	{"ranks", false, "each gmon file is one MPI rank: add the load-imbalance analysis to the summed profile"},
	{"rank-pattern", true, "regular expression whose first group is the rank number in a gmon file name"},
	{"activity", true, "NAME=REGEX: a class of functions for the rank analysis (repeatable; replaces the built-in ones)"},
	{"regions", true, "function (default), file or REGEX: how the rank analysis groups functions into code regions"},
	{"rank-plots", true, "write SVG charts of the rank analysis into this directory"},
	{"save-summary", true, "write the mergeable rank summary to this file"},
	{"rank-top", true, "number of code regions the rank analysis shows in detail (default 20)"},
}

// extConfig holds the extension options given.
type extConfig struct {
	diffFiles []string
	diffExe   string
	impact    bool
	noiseOff  bool
	gml, dot  string
	svg, png  string
	graphTop  int
	// graphTopSet reports an explicit --graph-top (0 means no limit).
	graphTopSet bool
	pprof       string
	given       bool // any extension option was used

	// format is --format, the output format of the analysis tables; exp
	// holds the experiment mode's options.
	format string
	exp    experimentOptions
	// rank holds --ranks and the rank analysis options (ranks_mode.go).
	rank rankOptions
}

// wantsGraphFiles reports whether any call-graph file was asked for.
func (e *extConfig) wantsGraphFiles() bool {
	return e.gml != "" || e.dot != "" || e.svg != "" || e.png != ""
}

// splitExtensions takes egprof's own long options out of args and returns
// the rest for gprof's parser. A word after "--" is never taken.
func splitExtensions(args []string) (rest []string, ext extConfig, err error) {
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
		opt, ok, err := matchExtension(name)
		if err != nil {
			return nil, ext, err
		}
		if !ok {
			rest = append(rest, a)
			continue
		}
		if opt.hasArg && !hasVal {
			if i+1 >= len(args) {
				return nil, ext, fmt.Errorf("option '--%s' requires an argument", opt.name)
			}
			i++
			val = args[i]
		}
		if !opt.hasArg && hasVal {
			return nil, ext, fmt.Errorf("option '--%s' doesn't allow an argument", opt.name)
		}
		if err := ext.set(opt.name, val); err != nil {
			return nil, ext, err
		}
		ext.given = true
	}
	return rest, ext, nil
}

// matchExtension finds the extension a --NAME word means, if any.
func matchExtension(name string) (extOption, bool, error) {
	for _, o := range extOptions {
		if o.name == name {
			return o, true, nil
		}
	}
	if name == "" {
		return extOption{}, false, nil
	}
	for _, l := range gprofOptions.Longs {
		if l.Name != "" && strings.HasPrefix(l.Name, name) {
			return extOption{}, false, nil // gprof's meaning wins
		}
	}
	var found []extOption
	for _, o := range extOptions {
		if strings.HasPrefix(o.name, name) {
			found = append(found, o)
		}
	}
	switch len(found) {
	case 0:
		return extOption{}, false, nil
	case 1:
		return found[0], true, nil
	}
	names := make([]string, len(found))
	for i, o := range found {
		names[i] = "'--" + o.name + "'"
	}
	return extOption{}, false, fmt.Errorf("option '--%s' is ambiguous; possibilities: %s", name, strings.Join(names, " "))
}

func (e *extConfig) set(name, val string) error {
	switch name {
	case "diff":
		e.diffFiles = append(e.diffFiles, val)
	case "diff-exe":
		e.diffExe = val
	case "impact":
		e.impact = true
	case "noise":
		switch val {
		case "on":
			e.noiseOff = false
		case "off":
			e.noiseOff = true
		default:
			return fmt.Errorf("--noise takes on or off, not %q", val)
		}
	case "pprof":
		e.pprof = val
	case "format":
		if val != "text" && val != "tsv" && val != "json" {
			return fmt.Errorf("--format takes text, tsv or json, not %q", val)
		}
		e.format = val
	case "experiment", "runs", "over", "threshold", "sort", "procs-dim", "work-dim", "rank-dim", "compare-dim", "time-of-run", "predict", "plots":
		return e.exp.set(name, val)
	case "ranks", "rank-pattern", "activity", "regions", "rank-plots", "save-summary", "rank-top":
		return e.rank.set(name, val)
	case "gml":
		e.gml = val
	case "dot":
		e.dot = val
	case "svg":
		e.svg = val
	case "png":
		e.png = val
	case "graph-top":
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 {
			return fmt.Errorf("--graph-top takes a number of functions (0 for all), not %q", val)
		}
		e.graphTop, e.graphTopSet = n, true
	}
	return nil
}

// extensionHelp describes egprof's own options for --help.
func extensionHelp() string {
	var b strings.Builder
	b.WriteString("\negprof's own options (GNU gprof has none of these):\n")
	for _, o := range extOptions {
		n := "--" + o.name
		if o.hasArg {
			n += "=ARG"
		}
		fmt.Fprintf(&b, "  %-18s %s\n", n, o.help)
	}
	b.WriteString("\nDifferential profiling: egprof [options] a.out gmon.before --diff=gmon.after [--diff-exe=b.out]\n")
	b.WriteString("prints '+' (positional profiles) minus '-' (--diff profiles) in gprof's layout.\n")
	b.WriteString("\nExperiments: egprof --experiment=TABLE [--over=DIM] [--compare-dim=DIM] [a.out], or egprof --runs a.out gmon.1 gmon.2 ...\n")
	b.WriteString("prints PERDAC's statistics over a dimension (population standard deviation, divided by n) and SCALA's isospeed scalability.\n")
	b.WriteString("\nMPI ranks: egprof --ranks a.out gmon.rank0.PID gmon.rank1.PID ... (or rank summaries)\n")
	b.WriteString("prints the summed profile, then the ranks' load-imbalance indices (Calzarossa, Massari and Tessera) and clusters.\n")
	return b.String()
}
