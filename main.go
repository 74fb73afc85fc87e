// Command egprof is a drop-in replacement for GNU gprof 2.40 that also
// subtracts profiles, aggregates the ranks of MPI jobs and analyses
// experiments.
//
// Given gprof's command line, the same executable and the same gmon files,
// it prints what gprof prints (byte for byte under -b; with its own
// explanations otherwise).
package main

import (
	"os"

	"github.com/egprof/egprof/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
