// Command mksynth builds (or finds in its cache) a synthetic profile for
// benchmarking egprof against GNU gprof, and prints where its files are.
//
// Usage:
//
//	go run ./internal/progen/cmd/mksynth [-dir cachedir] [-seed n] [-funcs n] [-arcs n]
//
// The output is shell assignments, one per line:
//
//	SYNTH_BINARY=/path/to/synth
//	SYNTH_GMON=/path/to/gmon.out
//
// The default cache directory is the one egprof's benchmarks use:
// $EGPROF_BENCH_DIR if set, else egprof-bench in the user cache directory.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/egprof/egprof/internal/progen"
)

func main() {
	dir := flag.String("dir", progen.DefaultBenchDir(), "cache directory")
	seed := flag.Int64("seed", progen.BenchSeed, "generator seed")
	funcs := flag.Int("funcs", progen.BenchFuncs, "number of functions")
	arcs := flag.Int("arcs", progen.BenchArcs, "number of arcs")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: mksynth [-dir cachedir] [-seed n] [-funcs n] [-arcs n]")
		os.Exit(2)
	}
	files, err := progen.SyntheticProfile(*seed, *funcs, *arcs).Build(context.Background(), *dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mksynth:", err)
		os.Exit(1)
	}
	for _, kv := range [][2]string{{"SYNTH_BINARY", files.Binary}, {"SYNTH_GMON", files.Gmon}} {
		p, err := filepath.Abs(kv[1])
		if err != nil {
			p = kv[1]
		}
		fmt.Printf("%s=%s\n", kv[0], p)
	}
}
