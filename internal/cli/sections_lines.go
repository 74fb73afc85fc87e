package cli

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/internal/atomicfile"
	"github.com/egprof/egprof/render"
	"github.com/egprof/egprof/symtab"
)

// printLineSections prints the execution-count listing (-C) and the
// annotated source (-A), when selected, after the call graph and index.
// blocks are the basic-block counts attached to the symbols (nil without
// -l); messages about sources that cannot be read go to stderr.
func printLineSections(t *render.Text, c *config, style int, g *callgraph.Graph, blocks *callgraph.Blocks, stderr io.Writer) {
	if style&styleExec != 0 {
		t.ExecCounts(blocks)
	}
	if style&styleAnnotate != 0 {
		opt := c.annotateOptions(g, blocks, stderr)
		if c.separateFiles {
			opt.CreateFile = createAnnotationFile
		}
		t.AnnotatedSource(opt)
	}
}

// annotateOptions are -A's settings: the source files of g's symbols in
// gprof's order, opened as gprof looks for them.
func (c *config) annotateOptions(g *callgraph.Graph, blocks *callgraph.Blocks, stderr io.Writer) render.AnnotateOptions {
	return render.AnnotateOptions{
		Files:       g.SourceFiles(sourceFileOrder(g.Syms), blocks),
		OpenSource:  func(name string) (io.ReadCloser, error) { return openSource(name, c.searchDirs) },
		AllLines:    c.allLines,
		MinCount:    c.minCount,
		TableLength: c.tableLength,
		Argv0:       c.argv0,
		Stderr:      stderr,
	}
}

// htmlLines are the line data of --html's page: the line-by-line flat
// profile's names (-l) and the annotated sources (-A).
type htmlLines struct {
	names   []string
	locs    []symtab.SourceLoc
	sources []render.AnnotatedFile
}

// htmlLineData reads the page's line data where the options ask for it:
// the names as t's flat profile prints them, and the annotated files as -A prints them
// (the text report says which sources it cannot find).
func (c *config) htmlLineData(t *render.Text, style int, g *callgraph.Graph, blocks *callgraph.Blocks) htmlLines {
	var hl htmlLines
	if c.ext.html == "" {
		return hl
	}
	if c.textOptions().LineGranularity {
		hl.names = make([]string, len(g.Entries))
		hl.locs = make([]symtab.SourceLoc, len(g.Entries))
		for i := range g.Entries {
			if !g.Entries[i].IsCycle() {
				hl.names[i] = t.FlatName(i)
				hl.locs[i], _ = g.Syms.SymbolSource(i)
			}
		}
	}
	if style&styleAnnotate != 0 {
		hl.sources = render.AnnotatedFiles(c.annotateOptions(g, blocks, io.Discard), c.showZeros)
	}
	return hl
}

// openSource opens a source file the way gprof looks for it. A relative
// path is tried as it is, then under each search directory; an absolute
// one only as it is. Then, if the path has a directory part, its base name
// is tried under each search directory. The error is that of the last
// attempt.
func openSource(name string, dirs []string) (io.ReadCloser, error) {
	f, err := os.Open(name)
	if err == nil {
		return f, nil
	}
	var tries []string
	if !strings.HasPrefix(name, "/") {
		for _, d := range dirs {
			tries = append(tries, d+"/"+name)
		}
	}
	if k := strings.LastIndexByte(name, '/'); k >= 0 {
		for _, d := range dirs {
			tries = append(tries, d+"/"+name[k+1:])
		}
	}
	for _, p := range tries {
		if f, err = os.Open(p); err == nil {
			return f, nil
		}
	}
	return nil, fmt.Errorf("opening source %s: %w", name, err)
}

// createAnnotationFile creates one of -y's annotation files in the current
// directory. gprof opens it with fopen(name, "w"): an existing file keeps
// its mode and is overwritten, a symbolic link is written through. It is
// replaced here by that same rule, but atomically, so that a failed run
// never leaves half a file.
func createAnnotationFile(name string) (io.WriteCloser, error) {
	f, err := atomicfile.Create(name)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// sourceFileOrder lists the source files of tab's symbols in the order
// gprof prints annotated files: the reverse of the order in which it first
// met them. gprof meets the files of the function symbols first, walking
// the ELF symbol table in its own order (not by address; see
// symtab.Table.FunctionSourceFiles), then those of the line symbols of -l
// by address.
func sourceFileOrder(tab *symtab.Table) []string {
	order := tab.FunctionSourceFiles()
	seen := map[string]bool{}
	for _, f := range order {
		seen[f] = true
	}
	for i := range tab.Syms {
		if f := tab.Syms[i].Src.File; tab.Syms[i].IsLine && !seen[f] {
			seen[f] = true
			order = append(order, f)
		}
	}
	slices.Reverse(order)
	return order
}
