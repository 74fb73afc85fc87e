package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/getopt"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/cnum"
	"github.com/egprof/egprof/symtab"
)

// Output sections, as gprof's output_style bits.
const (
	styleFlat = 1 << iota
	styleGraph
	styleSum
	styleExec
	styleAnnotate
	styleInfo
	styleFuncOrder
	styleFileOrder
)

// Codes for long options that have no short letter.
const (
	optDemangle = 0x100 + iota
	optNoDemangle
	optInlineFileNames
)

// gprofOptions is GNU gprof 2.40's option table: the short-option string
// and the long options in gprof's order (the order decides abbreviation
// matches and the wording of ambiguity errors).
var gprofOptions = getopt.Parser{
	Shorts: "aA::bBcC::d::De:E:f:F:hiI:J::k:lLm:n:N:O:p::P::q::Q::rR:sS:t:Tvw:xyzZ::",
	Longs: []getopt.LongOption{
		{Name: "line", Arg: getopt.None, Short: 'l'},
		{Name: "no-static", Arg: getopt.None, Short: 'a'},
		{Name: "ignore-non-functions", Arg: getopt.None, Short: 'D'},
		{Name: "external-symbol-table", Arg: getopt.Required, Short: 'S'},
		{Name: "annotated-source", Arg: getopt.Optional, Short: 'A'},
		{Name: "no-annotated-source", Arg: getopt.Optional, Short: 'J'},
		{Name: "flat-profile", Arg: getopt.Optional, Short: 'p'},
		{Name: "no-flat-profile", Arg: getopt.Optional, Short: 'P'},
		{Name: "graph", Arg: getopt.Optional, Short: 'q'},
		{Name: "no-graph", Arg: getopt.Optional, Short: 'Q'},
		{Name: "exec-counts", Arg: getopt.Optional, Short: 'C'},
		{Name: "no-exec-counts", Arg: getopt.Optional, Short: 'Z'},
		{Name: "function-ordering", Arg: getopt.None, Short: 'r'},
		{Name: "file-ordering", Arg: getopt.Required, Short: 'R'},
		{Name: "file-info", Arg: getopt.None, Short: 'i'},
		{Name: "sum", Arg: getopt.None, Short: 's'},
		{Name: "all-lines", Arg: getopt.None, Short: 'x'},
		{Name: "demangle", Arg: getopt.Optional, Short: optDemangle},
		{Name: "no-demangle", Arg: getopt.None, Short: optNoDemangle},
		{Name: "directory-path", Arg: getopt.Required, Short: 'I'},
		{Name: "display-unused-functions", Arg: getopt.None, Short: 'z'},
		{Name: "inline-file-names", Arg: getopt.None, Short: optInlineFileNames},
		{Name: "min-count", Arg: getopt.Required, Short: 'm'},
		{Name: "print-path", Arg: getopt.None, Short: 'L'},
		{Name: "separate-files", Arg: getopt.None, Short: 'y'},
		{Name: "static-call-graph", Arg: getopt.None, Short: 'c'},
		{Name: "table-length", Arg: getopt.Required, Short: 't'},
		{Name: "time", Arg: getopt.Required, Short: 'n'},
		{Name: "no-time", Arg: getopt.Required, Short: 'N'},
		{Name: "width", Arg: getopt.Required, Short: 'w'},
		// gprof's table has five nameless entries for its deprecated
		// options; they make "--=X" mean "-e X".
		{Name: "", Arg: getopt.Required, Short: 'e'},
		{Name: "", Arg: getopt.Required, Short: 'E'},
		{Name: "", Arg: getopt.Required, Short: 'f'},
		{Name: "", Arg: getopt.Required, Short: 'F'},
		{Name: "", Arg: getopt.Required, Short: 'k'},
		{Name: "brief", Arg: getopt.None, Short: 'b'},
		{Name: "debug", Arg: getopt.Optional, Short: 'd'},
		{Name: "help", Arg: getopt.None, Short: 'h'},
		{Name: "file-format", Arg: getopt.Required, Short: 'O'},
		{Name: "traditional", Arg: getopt.None, Short: 'T'},
		{Name: "version", Arg: getopt.None, Short: 'v'},
	},
}

// config is everything the command line asks for.
type config struct {
	argv0         string
	style         int // sections selected
	userSpecified int // sections the user mentioned at all
	brief         bool
	noStatic      bool
	ignoreNonFunc bool
	staticCalls   bool
	line          bool
	printPath     bool
	showZeros     bool
	traditional   bool
	demangle      bool
	demangleStyle symtab.DemangleStyle
	inlineNames   bool
	width         int
	minCount      uint64
	tableLength   int
	allLines      bool
	separateFiles bool
	format        gmon.Format
	specs         []callgraph.SpecUse
	searchDirs    []string
	externalSyms  string
	mapFile       string
	debug         bool
	image         string
	gmonFiles     []string
	ext           extConfig // egprof's own options
}

// exitNow is returned by applyOption when the command is finished (-v, -h)
// or failed; code is the exit status.
type exitNow struct{ code int }

// parseCommandLine turns argv into a config, or returns the exit status
// when the command ends during option processing.
func parseCommandLine(argv []string, env func(string) (string, bool), out, errw *strings.Builder) (*config, *exitNow) {
	c := &config{argv0: argv[0], demangle: true, width: 80, minCount: 1, tableLength: 10}
	p := gprofOptions
	if _, ok := env("POSIXLY_CORRECT"); ok {
		p.Posixly = true
	}
	args, ext, extErr := splitExtensions(expandArgs(argv[1:]))
	if extErr != nil {
		fmt.Fprintf(errw, "%s: %v\n", c.argv0, extErr)
		errw.WriteString(usage(c.argv0))
		return nil, &exitNow{1}
	}
	c.ext = ext
	opts, operands, err := p.Parse(args)
	for _, o := range opts {
		if stop := c.apply(o, out, errw); stop != nil {
			return nil, stop
		}
	}
	if err != nil {
		fmt.Fprintf(errw, "%s: %v\n", c.argv0, err)
		errw.WriteString(usage(c.argv0))
		return nil, &exitNow{1}
	}
	if c.userSpecified&styleFuncOrder != 0 && c.userSpecified&styleFileOrder != 0 {
		fmt.Fprintf(errw, "%s: Only one of --function-ordering and --file-ordering may be specified.\n", c.argv0)
		return nil, &exitNow{1}
	}
	if c.style&styleSum != 0 {
		c.line = true
	}
	if v, ok := env("GPROF_PATH"); ok {
		c.searchDirs = append(c.searchDirs, strings.Split(v, ":")...)
	}
	c.image = "a.out"
	if len(operands) > 0 {
		c.image = operands[0]
		operands = operands[1:]
	}
	c.gmonFiles = operands
	if len(c.gmonFiles) == 0 {
		c.gmonFiles = []string{"gmon.out"}
	}
	return c, nil
}

// apply handles one option, in command-line order.
func (c *config) apply(o getopt.Option, out, errw *strings.Builder) *exitNow {
	spec := func(t callgraph.TableID) { c.specs = append(c.specs, callgraph.SpecUse{Table: t, Spec: o.Arg}) }
	selectStyle := func(s int) { c.style |= s; c.userSpecified |= s }
	switch o.Short {
	case 'a':
		c.noStatic = true
	case 'A':
		if o.HasArg {
			spec(callgraph.InclAnno)
		}
		selectStyle(styleAnnotate)
	case 'b':
		c.brief = true
	case 'B':
		selectStyle(styleGraph)
	case 'c':
		c.staticCalls = true
	case 'C':
		if o.HasArg {
			spec(callgraph.InclExec)
		}
		selectStyle(styleExec)
	case 'd':
		c.debug = true
	case 'D':
		c.ignoreNonFunc = true
	case 'E':
		spec(callgraph.ExclTime)
		spec(callgraph.ExclGraph)
	case 'e':
		spec(callgraph.ExclGraph)
	case 'F':
		spec(callgraph.InclTime)
		spec(callgraph.InclGraph)
	case 'f':
		spec(callgraph.InclGraph)
	case 'h':
		out.WriteString(usage(c.argv0))
		out.WriteString(extensionHelp())
		out.WriteString("Report bugs in egprof to the project's issue tracker.\n")
		return &exitNow{0}
	case 'i':
		selectStyle(styleInfo)
	case 'I':
		c.searchDirs = append(c.searchDirs, strings.Split(o.Arg, ":")...)
	case 'J':
		if o.HasArg {
			spec(callgraph.ExclAnno)
			c.style |= styleAnnotate
		} else {
			c.style &^= styleAnnotate
		}
		c.userSpecified |= styleAnnotate
	case 'k':
		spec(callgraph.ExclArcs)
	case 'l':
		c.line = true
	case 'L':
		c.printPath = true
	case 'm':
		c.minCount = cnum.Strtoul(o.Arg) // gprof: strtoul (optarg, NULL, 10)
	case 'n':
		spec(callgraph.InclTime)
	case 'N':
		spec(callgraph.ExclTime)
	case 'O':
		f, err := gmon.ParseFormat(o.Arg)
		if err != nil {
			// gprof's message has its two arguments the other way round.
			fmt.Fprintf(errw, "%s: unknown file format %s\n", o.Arg, c.argv0)
			return &exitNow{1}
		}
		c.format = f
	case 'p':
		if o.HasArg {
			spec(callgraph.InclFlat)
		}
		selectStyle(styleFlat)
	case 'P':
		if o.HasArg {
			spec(callgraph.ExclFlat)
			c.style |= styleFlat
		} else {
			c.style &^= styleFlat
		}
		c.userSpecified |= styleFlat
	case 'q':
		if o.HasArg {
			if strings.Contains(o.Arg, "/") {
				spec(callgraph.InclArcs)
			} else {
				spec(callgraph.InclGraph)
			}
		}
		selectStyle(styleGraph)
	case 'Q':
		if o.HasArg {
			if strings.Contains(o.Arg, "/") {
				spec(callgraph.ExclArcs)
			} else {
				spec(callgraph.ExclGraph)
			}
			c.style |= styleGraph
		} else {
			c.style &^= styleGraph
		}
		c.userSpecified |= styleGraph
	case 'r':
		selectStyle(styleFuncOrder)
	case 'R':
		selectStyle(styleFileOrder)
		c.mapFile = o.Arg
	case 's':
		selectStyle(styleSum)
	case 'S':
		c.externalSyms = o.Arg
	case 't':
		c.tableLength = max(int(cnum.Atoi(o.Arg)), 0) // gprof: atoi
	case 'T':
		c.traditional = true
	case 'v':
		out.WriteString(versionText)
		return &exitNow{0}
	case 'w':
		c.width = max(int(cnum.Atoi(o.Arg)), 1) // gprof: atoi
	case 'x':
		c.allLines = true
	case 'y':
		c.separateFiles = true
	case 'z':
		c.showZeros = true
	case 'Z':
		if o.HasArg {
			spec(callgraph.ExclExec)
			c.style |= styleExec
		} else {
			c.style &^= styleExec
		}
		c.userSpecified |= styleExec
	case optDemangle:
		c.demangle = true
		if o.HasArg {
			st, err := symtab.ParseDemangleStyle(o.Arg)
			if err != nil {
				fmt.Fprintf(errw, "%s: %v\n", c.argv0, err)
				return &exitNow{1}
			}
			c.demangleStyle = st
		}
	case optNoDemangle:
		c.demangle = false
	case optInlineFileNames:
		c.inlineNames = true
	}
	return nil
}

// expandArgs replaces each @FILE argument by the whitespace-separated words
// of FILE, as libiberty's expandargv does; an unreadable FILE leaves the
// word as it is. Quotes and backslashes group and escape as in libiberty.
func expandArgs(args []string) []string {
	out := append([]string(nil), args...)
	expansions := 0
	for i := 0; i < len(out); i++ {
		a := out[i]
		if len(a) < 2 || a[0] != '@' {
			continue
		}
		// A file that names itself would expand forever.
		if expansions++; expansions > 2000 {
			break
		}
		data, err := os.ReadFile(a[1:])
		if err != nil {
			continue
		}
		words := splitArgs(string(data))
		out = append(out[:i], append(words, out[i+1:]...)...)
		i--
	}
	return out
}

// splitArgs splits a response file like libiberty's buildargv.
func splitArgs(s string) []string {
	var words []string
	var cur strings.Builder
	inWord, squote, dquote, bsquote := false, false, false, false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if !squote && !dquote && !bsquote && strings.IndexByte(" \t\n\r\f\v", ch) >= 0 {
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
			continue
		}
		inWord = true
		switch {
		case bsquote:
			bsquote = false
			cur.WriteByte(ch)
		case ch == '\\':
			bsquote = true
		case squote:
			if ch == '\'' {
				squote = false
			} else {
				cur.WriteByte(ch)
			}
		case dquote:
			if ch == '"' {
				dquote = false
			} else {
				cur.WriteByte(ch)
			}
		case ch == '\'':
			squote = true
		case ch == '"':
			dquote = true
		default:
			cur.WriteByte(ch)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

func usage(argv0 string) string {
	return "Usage: " + argv0 + ` [-[abcDhilLrsTvwxyz]] [-[ABCeEfFJnNOpPqQRStZ][name]] [-I dirs]
	[-d[num]] [-k from/to] [-m min-count] [-t table-length]
	[--[no-]annotated-source[=name]] [--[no-]exec-counts[=name]]
	[--[no-]flat-profile[=name]] [--[no-]graph[=name]]
	[--[no-]time=name] [--all-lines] [--brief] [--debug[=level]]
	[--function-ordering] [--file-ordering] [--inline-file-names]
	[--directory-path=dirs] [--display-unused-functions]
	[--file-format=name] [--file-info] [--help] [--line] [--min-count=n]
	[--no-static] [--print-path] [--separate-files]
	[--static-call-graph] [--sum] [--table-length=len] [--traditional]
	[--version] [--width=n] [--ignore-non-functions]
	[--demangle[=STYLE]] [--no-demangle] [--external-symbol-table=name] [@FILE]
	[image-file] [profile-file...]
`
}

const versionText = `egprof 0.1 (compatible with GNU gprof 2.40)
A re-implementation of the BSD/GNU gprof profiler, with differential profiling and MPI rank aggregation.
Licensed under the Apache License 2.0; there is no warranty.
`
