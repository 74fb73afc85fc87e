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
// SVG is graphviz's own; PNG is drawn by this command (see pngEngine) with
// the Go fonts, so it looks the same whatever fonts a machine has.
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
	"runtime/debug"

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
	g, err := graphviz.ParseBytes(dot)
	if err != nil {
		return fmt.Errorf("parsing DOT: %w", err)
	}
	defer g.Close()
	if err := gv.Render(ctx, g, f, w); err != nil {
		return fmt.Errorf("rendering %s: %w", f, err)
	}
	return nil
}

// recordGCPercent is the collector's growth target while graphviz lays
// out and draws into pngEngine, unless the environment sets GOGC. The
// garbage of that step is go-graphviz's (v0.2.10): every field read
// across into its WASM module makes three new wazero function handles,
// each with a call stack of its own, and with Go's default target the 200
// functions of ninja's -O0 profile cost about 200 collections. Paired
// runs, medians, on that picture: 0.83x the CPU of egprof-graphviz, peak
// RSS 65.6 against 62.3 MiB. Drawing the pixels keeps the default.
const recordGCPercent = 400

// recordMemoryBase and recordMemoryPerDOT make the soft memory limit
// (debug.SetMemoryLimit) that bounds the collector's target while
// recording (see recordGCPercent). That target is 5x the heap the last
// collection marked, and the marked heap counts all that was allocated
// while the marking ran: the 200 functions of ninja's -O0 profile (263 KB
// of DOT) allocate 1.4 GB in about 0.4 s, nearly all of it garbage, with
// 6 MB live, so the marked heap swung from 5 to 50 MB with how the
// marking was scheduled, the target from 25 to 260 MB, and the peak RSS
// of 15 runs from 61 to 224 MiB. Under the limit the runtime collects
// sooner instead; it grows with the graph, as what is really live does
// (6, 8 and 14 MB for 200, 400 and 800 functions; the marked heap up to
// 60 MB for 800), so that a large graph does not make the collector run
// all the time: 64 MiB for ninja's 200 functions, 111 MiB for 800. On
// one processor (see recordProcs), a base of 64 MiB took the same CPU
// on the 200 functions (31 paired runs) for 15 MiB more peak RSS.
const (
	recordMemoryBase   = 48 << 20
	recordMemoryPerDOT = 64
)

// recordMemoryLimit is the soft memory limit while recording a graph of
// dotSize bytes of DOT.
func recordMemoryLimit(dotSize int) int64 {
	return recordMemoryBase + recordMemoryPerDOT*int64(dotSize)
}

// gcSettings are the collector's growth target (debug.SetGCPercent) and
// soft memory limit (debug.SetMemoryLimit; negative: left as it is).
type gcSettings struct {
	percent int
	limit   int64
}

// recordGC returns the collector's settings while recording (see
// recordGCPercent and recordMemoryLimit), or ok false when the
// environment sets GOGC: then the collector is left alone. When it sets
// GOMEMLIMIT, that limit is kept.
func recordGC(lookupEnv func(string) (string, bool), dotSize int) (s gcSettings, ok bool) {
	if _, set := lookupEnv("GOGC"); set {
		return gcSettings{}, false
	}
	s = gcSettings{percent: recordGCPercent, limit: recordMemoryLimit(dotSize)}
	if _, set := lookupEnv("GOMEMLIMIT"); set {
		s.limit = -1
	}
	return s, true
}

// withGC runs f with the collector set to s, and then sets it back.
func withGC(s gcSettings, f func()) {
	oldPercent := debug.SetGCPercent(s.percent)
	defer debug.SetGCPercent(oldPercent)
	if s.limit >= 0 {
		oldLimit := debug.SetMemoryLimit(s.limit)
		defer debug.SetMemoryLimit(oldLimit)
	}
	f()
}

// recordProcs is how many processors run Go code while graphviz lays
// out and draws into pngEngine, unless the environment sets GOMAXPROCS:
// graphviz runs on one goroutine, and a second processor only ran the
// collector's idle workers and looked for work. Paired runs (15, CPU from
// wait4) on ninja's 200 functions: 0.91x the CPU of egprof-graphviz, the
// same wall time and peak RSS. Drawing the pixels uses them all.
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

// drawPNG lays out the DOT graph, records graphviz's drawing with
// pngEngine, and only then draws the pixels and writes the PNG to w.
func drawPNG(dot []byte, w io.Writer) error {
	var pic *picture
	var err error
	record := func() { pic, err = recordPNG(dot) }
	if s, ok := recordGC(os.LookupEnv, len(dot)); ok {
		inner := record
		record = func() { withGC(s, inner) }
	}
	if n, ok := recordProcsFrom(os.LookupEnv); ok {
		inner := record
		record = func() { withProcs(n, inner) }
	}
	record()
	if err != nil {
		return err
	}
	if pic == nil {
		return fmt.Errorf("rendering %s: graphviz produced nothing", graphviz.PNG)
	}
	return pic.encode(w)
}

// recordPNG lays out the DOT graph and returns the picture graphviz drew
// (nil if it drew no page).
func recordPNG(dot []byte) (*picture, error) {
	ctx := context.Background()
	e, err := newPNGEngine()
	if err != nil {
		return nil, fmt.Errorf("starting graphviz: %w", err)
	}
	plugins, err := pngPlugins(ctx, e)
	if err != nil {
		return nil, fmt.Errorf("starting graphviz: %w", err)
	}
	gv, err := graphviz.NewWithPlugins(ctx, plugins...)
	if err != nil {
		return nil, fmt.Errorf("starting graphviz: %w", err)
	}
	defer gv.Close()
	// graphviz's own output is empty: the picture is e's.
	if err := render(ctx, gv, dot, graphviz.PNG, io.Discard); err != nil {
		return nil, err
	}
	return e.pic, nil
}
