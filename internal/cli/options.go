package cli

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/cnum"
	"github.com/egprof/egprof/internal/getopt"
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

// config is everything the command line asks for.
type config struct {
	job           *job // the MPI job egprof runs in, if any (see joinJob)
	argv0         string
	argv          []string // the command line, for the outputs that name it
	style         int      // sections selected
	userSpecified int      // sections the user mentioned at all
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
	// loaded is what to do with the collector once the profiles are
	// summed (see tuneGC).
	loaded loadedPlan
	// processors is GOMAXPROCS as it was before tuneGC lowered it to one
	// for the loading (0: not lowered, or not given back; see oneProcessor).
	processors int
	// tables are the executables loaded with mapped debug sections, whose
	// SourcesErr is checked once the report is written (checkSources).
	tables []*symtab.Table
}

// exitNow is returned by applyOption when the command is finished (-v, -h)
// or failed; code is the exit status.
type exitNow struct{ code int }

// parseCommandLine turns argv into a config, or returns the exit status
// when the command ends during option processing.
func parseCommandLine(argv []string, env func(string) (string, bool), out, errw *strings.Builder) (*config, *exitNow) {
	c := &config{argv0: argv[0], argv: argv, demangle: true, width: 80, minCount: 1, tableLength: 10}
	table := optionTable()
	p := gprofParser(table)
	if _, ok := env("POSIXLY_CORRECT"); ok {
		p.Posixly = true
	}
	args, ext, extErr := splitExtensions(table, expandArgs(argv[1:]))
	if extErr != nil {
		fmt.Fprintf(errw, "%s: %v\n", c.argv0, extErr)
		return nil, &exitNow{1}
	}
	c.ext = ext
	opts, operands, err := p.Parse(args)
	for _, o := range opts {
		if stop := c.apply(o, table, out, errw); stop != nil {
			return nil, stop
		}
	}
	if err != nil {
		fmt.Fprintf(errw, "%s: %v\n", c.argv0, err)
		errw.WriteString(usage(c.argv0))
		return nil, &exitNow{1}
	}
	if err := c.ext.checkModes(); err != nil {
		fmt.Fprintf(errw, "%s: %v\n", c.argv0, err)
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
	c.gmonFiles = sharedTail(argv, operands)
	if len(c.gmonFiles) == 0 && len(c.ext.filesFrom) == 0 {
		c.gmonFiles = []string{"gmon.out"}
	}
	return c, nil
}

// sharedTail returns the end of argv when it holds the words words holds,
// else words. The data files usually end the command line, and a job's
// can name tens of thousands: the process already holds them in argv, and
// a copy costs 16 bytes a file.
func sharedTail(argv, words []string) []string {
	if len(words) == 0 || len(words) > len(argv) {
		return words
	}
	tail := argv[len(argv)-len(words):]
	if !slices.Equal(tail, words) {
		return words
	}
	return tail
}

// apply handles one option, in command-line order.
func (c *config) apply(o getopt.Option, table []optionDef, out, errw *strings.Builder) *exitNow {
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
		out.WriteString(extensionHelp(table))
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
// Without an @FILE argument it returns args itself: a job's command line
// can name tens of thousands of files, and each copy of it costs 16 bytes
// a word.
func expandArgs(args []string) []string {
	if !slices.ContainsFunc(args, isResponseFile) {
		return args
	}
	out := append([]string(nil), args...)
	expansions := 0
	for i := 0; i < len(out); i++ {
		a := out[i]
		if !isResponseFile(a) {
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

// isResponseFile reports whether a word is an @FILE argument.
func isResponseFile(word string) bool { return len(word) >= 2 && word[0] == '@' }

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
