// Command egprof-graphviz renders a graph in graphviz's DOT language as SVG
// or PNG, with the graphviz that github.com/goccy/go-graphviz embeds (no
// system graphviz needed). egprof runs it for --svg and --png; it is a
// command of its own because the embedded graphviz, compiled from WASM when
// the program starts, would slow down every run of egprof.
//
// Usage:
//
//	egprof-graphviz [-T svg|png] [-o FILE] [FILE.dot]
//
// It reads the DOT from FILE.dot or, without one, from standard input, and
// writes the picture to -o FILE (replaced atomically) or standard output.
// SVG is graphviz's own; PNG is drawn by this command from that SVG (see
// recordPNG) with the Go fonts, so it looks the same whatever fonts a
// machine has.
// Install it next to egprof with:
//
//	go install github.com/egprof/egprof/cmd/egprof-graphviz@latest
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/goccy/go-graphviz"

	"github.com/egprof/egprof/internal/atomicfile"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the command with its arguments and files; it returns the exit
// status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("egprof-graphviz", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("T", "svg", "output format: svg or png")
	out := fs.String("o", "", "write the picture to `FILE` (default: standard output)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: egprof-graphviz [-T svg|png] [-o FILE] [FILE.dot]\n"+
			"Renders DOT (from FILE.dot or standard input) as SVG or PNG.\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return 2
	}
	var f graphviz.Format
	switch *format {
	case "svg":
		f = graphviz.SVG
	case "png":
		f = graphviz.PNG
	default:
		fmt.Fprintf(stderr, "egprof-graphviz: unknown output format %q (want svg or png)\n", *format)
		return 2
	}
	var dot []byte
	var err error
	if fs.NArg() == 1 {
		dot, err = os.ReadFile(fs.Arg(0))
	} else {
		dot, err = io.ReadAll(stdin)
	}
	if err != nil {
		fmt.Fprintf(stderr, "egprof-graphviz: %v\n", err)
		return 1
	}
	if *out == "" {
		err = draw(dot, f, stdout)
	} else {
		err = atomicfile.Write(*out, func(w io.Writer) error { return draw(dot, f, w) })
	}
	if err != nil {
		fmt.Fprintf(stderr, "egprof-graphviz: %v\n", err)
		return 1
	}
	return 0
}

// draw lays out the DOT graph with graphviz's dot engine and writes it in
// format f to w. Nothing is written when the layout fails.
func draw(dot []byte, f graphviz.Format, w io.Writer) error {
	if f == graphviz.PNG {
		return drawPNG(dot, w)
	}
	ctx := context.Background()
	gv, err := graphviz.New(ctx)
	if err != nil {
		return fmt.Errorf("starting graphviz: %w", err)
	}
	defer gv.Close()
	var buf bytes.Buffer
	if err := render(ctx, gv, dot, f, &buf); err != nil {
		return err
	}
	if buf.Len() == 0 {
		return fmt.Errorf("rendering %s: graphviz produced nothing", f)
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// render parses dot and renders it with gv in format f to w.
func render(ctx context.Context, gv *graphviz.Graphviz, dot []byte, f graphviz.Format, w io.Writer) error {
	g, err := parseDOT(dot)
	if err != nil {
		return err
	}
	defer g.Close()
	if err := gv.Render(ctx, g, f, w); err != nil {
		return fmt.Errorf("rendering %s: %w", f, err)
	}
	return nil
}

// parseDOT parses the DOT graph dot. go-graphviz returns neither a graph
// nor an error for input without a graph (empty, or only comments), on
// which its graph's methods panic.
func parseDOT(dot []byte) (*graphviz.Graph, error) {
	g, err := graphviz.ParseBytes(dot)
	if err != nil {
		return nil, fmt.Errorf("parsing DOT: %w", err)
	}
	if g == nil {
		return nil, errors.New("parsing DOT: no graph in the input")
	}
	return g, nil
}

// recordProcs is how many processors run Go code while graphviz lays
// out the graph and writes its SVG, unless the environment sets
// GOMAXPROCS: graphviz runs on one goroutine, and a second processor only
// ran the collector's idle workers and looked for work. On ninja's 200
// functions (7 runs, medians): 0.68 s of CPU for the whole PNG against
// 0.77 s, the same peak RSS. Drawing the pixels uses them all.
const recordProcs = 1

// recordProcsFrom returns how many processors to run while recording (see
// recordProcs), or ok false when the environment sets GOMAXPROCS.
func recordProcsFrom(lookupEnv func(string) (string, bool)) (n int, ok bool) {
	if _, set := lookupEnv("GOMAXPROCS"); set {
		return 0, false
	}
	return recordProcs, true
}

// withProcs runs f on n processors, and then sets their number back.
func withProcs(n int, f func()) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(n))
	f()
}

// drawPNG lays out the DOT graph, reads graphviz's drawing of it (see
// recordPNG), and only then draws the pixels and writes the PNG to w, so
// that the WASM graphviz and the pixels never need memory at the same
// time.
func drawPNG(dot []byte, w io.Writer) error {
	var pic *picture
	var err error
	record := func() { pic, err = recordPNG(dot) }
	if n, ok := recordProcsFrom(os.LookupEnv); ok {
		inner := record
		record = func() { withProcs(n, inner) }
	}
	record()
	if err != nil {
		return err
	}
	return pic.encode(w)
}

// recordPNG lays out the DOT graph and returns its picture: graphviz's
// SVG of the page at pngDPI (unless the graph sets its own resolution),
// read back by pictureFromSVG.
func recordPNG(dot []byte) (*picture, error) {
	f, err := newFonts()
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	gv, err := graphviz.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("starting graphviz: %w", err)
	}
	defer gv.Close()
	g, err := parseDOT(dot)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	if !setsResolution(g.GetStr("dpi")) && !setsResolution(g.GetStr("resolution")) {
		if err := g.SafeSet("dpi", strconv.Itoa(pngDPI), ""); err != nil {
			return nil, fmt.Errorf("setting the resolution: %w", err)
		}
	}
	var svg bytes.Buffer
	if err := gv.Render(ctx, g, graphviz.SVG, &svg); err != nil {
		return nil, fmt.Errorf("rendering %s: %w", graphviz.PNG, err)
	}
	return pictureFromSVG(svg.Bytes(), f)
}

// setsResolution reports whether a graph's dpi (or resolution) attribute
// value v sets one: graphviz takes a missing, empty or zero value as its
// device's default.
func setsResolution(v string) bool {
	x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	return err == nil && x > 0
}
