// Command egprof is a drop-in replacement for GNU gprof 2.40 that also
// subtracts profiles and aggregates the ranks of MPI jobs.
//
// Given gprof's command line, the same executable and the same gmon files,
// it prints what gprof prints (byte for byte under -b; with its own
// explanations otherwise).
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/render"
	"github.com/egprof/egprof/symtab"
)

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// run executes one egprof command line (argv[0] included) and returns the
// process exit status. It never calls os.Exit, so tests can drive it.
func run(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(argv) == 0 {
		argv = []string{"egprof"}
	}
	var out, errs strings.Builder
	cfg, stop := parseCommandLine(argv, os.LookupEnv, &out, &errs)
	io.WriteString(stdout, out.String())
	io.WriteString(stderr, errs.String())
	if stop != nil {
		return stop.code
	}
	bw := bufio.NewWriterSize(stdout, 64<<10)
	code := report(cfg, stdin, bw, stderr)
	if err := bw.Flush(); err != nil && code == 0 {
		fmt.Fprintf(stderr, "%s: writing the report: %v\n", cfg.argv0, err)
		return 1
	}
	return code
}

// report loads the executable and the profiles and prints the sections the
// configuration asks for.
func report(c *config, stdin io.Reader, stdout *bufio.Writer, stderr io.Writer) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, format, args...)
		return 1
	}
	if unsupported := c.notYetSupported(); unsupported != "" {
		return fail("%s: %s is not supported by this version of egprof yet\n", c.argv0, unsupported)
	}
	if c.debug {
		fmt.Fprintf(stdout, "%s: debugging not supported; -d ignored\n", c.argv0)
	}
	tab, err := symtab.Load(c.image, symtab.Options{NoStatic: c.noStatic, IgnoreNonFunctions: c.ignoreNonFunc})
	if err != nil {
		var le *symtab.LoadError
		if errors.As(err, &le) && le.Kind == symtab.ErrOpen {
			return fail("%v\n", err)
		}
		return fail("%s: %v\n", c.argv0, err)
	}
	defer tab.Close()
	lineLevel := false
	if c.line && c.externalSyms == "" {
		// Without debug information -l changes nothing, as in gprof.
		lt, err := tab.WithLineSymbols()
		if err != nil {
			return fail("%s: %v\n", c.argv0, err)
		}
		lineLevel = lt != tab
		tab = lt
	}
	if c.format == gmon.FormatProf {
		return fail("%s: sorry, file format `prof' is not yet supported\n", c.argv0)
	}

	prof := gmon.NewProfile(tab.Target, c.format)
	for _, name := range c.gmonFiles {
		data, err := readProfileFile(name, stdin)
		if err != nil {
			return fail("%s: %s\n", name, describeOSError(err))
		}
		f, err := prof.AddData(data, name)
		if err != nil {
			return fail("%s: %v\n", c.argv0, err)
		}
		if c.style&styleInfo != 0 {
			printFileInfo(stdout, f, prof)
		}
	}

	if c.style == 0 {
		if prof.HasHist || prof.HasArcs {
			if prof.HasHist {
				c.style |= styleFlat
			}
			if prof.HasArcs {
				c.style |= styleGraph
			}
		} else {
			c.style = styleExec
		}
		c.style &^= c.userSpecified
	}

	opt := callgraph.Options{Specs: c.specs, StaticCalls: c.staticCalls}
	if c.staticCalls {
		opt.TextBytes = tab.TextBytes()
	}
	g := callgraph.Build(tab, prof, opt)

	if c.style&styleSum != 0 {
		if err := writeSum(g, prof, c.format); err != nil {
			return fail("%s: %v\n", c.argv0, err)
		}
	}
	if c.style&styleFlat != 0 && !prof.HasHist {
		return fail("%s: gmon.out file is missing histogram\n", c.argv0)
	}
	if c.style&styleGraph != 0 && !prof.HasArcs {
		return fail("%s: gmon.out file is missing call-graph data\n", c.argv0)
	}
	warnForeignProfile(c, g, stderr)

	t := render.NewText(stdout, g, render.TextOptions{
		Brief:           !c.verbose(),
		Traditional:     c.traditional,
		Demangle:        c.demangle,
		DemangleStyle:   c.demangleStyle,
		InlineFileNames: c.inlineNames,
		PrintPath:       c.printPath,
		LineGranularity: lineLevel,
		ShowZeros:       c.showZeros,
		Width:           c.width,
	})
	if c.style&styleInfo != 0 {
		t.MarkPrinted()
	}
	graph := g.HasArcs && c.style&styleGraph != 0
	if graph && c.traditional {
		t.CallGraph()
	}
	if c.style&styleFlat != 0 {
		t.Flat()
	}
	if graph {
		if !c.traditional {
			t.CallGraph()
		}
		t.Index()
	}
	if err := printLineSections(t, c, g); err != nil {
		t.Flush()
		return fail("%s: %v\n", c.argv0, err)
	}
	if err := printOrderings(t, c, g); err != nil {
		t.Flush()
		return fail("%s: %v\n", c.argv0, err)
	}
	if err := t.Flush(); err != nil {
		return fail("%s: writing the report: %v\n", c.argv0, err)
	}
	return 0
}

// verbose reports whether the explanations are wanted (no -b).
func (c *config) verbose() bool { return !c.brief }

// notYetSupported names an option whose output egprof does not produce
// yet, so that it fails clearly instead of printing something else.
func (c *config) notYetSupported() string {
	switch {
	case c.style&styleExec != 0:
		return "the execution-count listing (-C)"
	case c.style&styleAnnotate != 0:
		return "annotated source (-A)"
	case c.style&styleFuncOrder != 0:
		return "function ordering (-r)"
	case c.style&styleFileOrder != 0:
		return "file ordering (-R)"
	case c.externalSyms != "":
		return "an external symbol table (-S)"
	}
	return ""
}

// readProfileFile reads a whole data file; "-" is standard input.
func readProfileFile(name string, stdin io.Reader) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(stdin)
	}
	return os.ReadFile(name)
}

// describeOSError words a file error like C's perror, without the path.
func describeOSError(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	s := err.Error()
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// printFileInfo writes gprof -i's summary of one data file.
func printFileInfo(w io.Writer, f *gmon.File, p *gmon.Profile) {
	plural := func(n int, one, many string) string {
		if n == 1 {
			return fmt.Sprintf("\t%d %s\n", n, one)
		}
		return fmt.Sprintf("\t%d %s\n", n, many)
	}
	fmt.Fprintf(w, "File `%s' (version %d) contains:\n", f.Name, p.FileVersion)
	io.WriteString(w, plural(f.NumHistRecords, "histogram record", "histogram records"))
	io.WriteString(w, plural(f.NumArcRecords, "call-graph record", "call-graph records"))
	io.WriteString(w, plural(f.NumBBRecords, "basic-block count record", "basic-block count records"))
}

// writeSum writes gmon.sum: the summed histograms and the arcs as gprof
// keeps them (merged per caller and callee, at the symbols' start
// addresses, callers in address order, each caller's arcs newest first).
func writeSum(g *callgraph.Graph, p *gmon.Profile, f gmon.Format) error {
	var arcs []gmon.ArcRecord
	for i := 0; i < g.NumSyms; i++ {
		ch := g.Entries[i].Children
		for k := len(ch) - 1; k >= 0; k-- {
			a := &g.Arcs[ch[k]]
			if a.Static {
				continue
			}
			arcs = append(arcs, gmon.ArcRecord{
				FromPC: g.Syms.Syms[a.Parent].Addr,
				SelfPC: g.Syms.Syms[a.Child].Addr,
				Count:  a.Count,
			})
		}
	}
	return gmon.WriteFileAtomic("gmon.sum", func(w io.Writer) error {
		return gmon.WriteSum(w, p, arcs, f)
	})
}

// warnForeignProfile tells the user when the profile cannot belong to the
// executable: samples were taken but none fell inside any of its symbols,
// or arcs were recorded but none joined two of its symbols. gprof prints an
// empty profile without a word in that case; the exit status stays 0.
func warnForeignProfile(c *config, g *callgraph.Graph, stderr io.Writer) {
	if g.TotalTime > 0 && g.CreditedSamples == 0 && len(g.Arcs) == 0 && g.DroppedArcs > 0 {
		fmt.Fprintf(stderr, "%s: warning: no sample and no call in %s falls inside %s; was the profile made by another program?\n",
			c.argv0, strings.Join(c.gmonFiles, ", "), c.image)
	}
}
