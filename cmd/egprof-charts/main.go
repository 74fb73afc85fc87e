// Command egprof-charts draws the SVG charts of egprof's rank analysis
// (--rank-plots) and experiments (--plots). egprof runs it with a request
// on standard input and reads the charts from standard output (package
// render/charts/wire); it is a command of its own because the plotting
// library parses its fonts when a program starts, which would slow down
// every run of egprof. Install it next to egprof with:
//
//	go install github.com/egprof/egprof/cmd/egprof-charts@latest
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/egprof/egprof/render/charts"
	"github.com/egprof/egprof/render/charts/wire"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the command with its arguments and files; it returns the exit
// status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 0 {
		fmt.Fprintln(stderr, "usage: egprof-charts <REQUEST >CHARTS\n"+
			"Draws the charts egprof asks for on standard input (a request in egprof's wire format)\n"+
			"and writes them to standard output; egprof runs it for --rank-plots and --plots.")
		return 2
	}
	if err := draw(bufio.NewReader(stdin), stdout); err != nil {
		fmt.Fprintf(stderr, "egprof-charts: %v\n", err)
		return 1
	}
	return 0
}

// draw reads one request and writes its charts.
func draw(in io.Reader, out io.Writer) error {
	req, err := wire.ReadRequest(in)
	if err != nil {
		return err
	}
	var cs []charts.Chart
	var skipped []string
	if req.Ranks != nil {
		cs, err = charts.RankCharts(req.Ranks)
	} else {
		cs, skipped, err = charts.ExperimentCharts(req.Experiment)
	}
	if err != nil {
		return err
	}
	drawn := make([]wire.Chart, 0, len(cs))
	for _, c := range cs {
		var svg bytes.Buffer
		if err := c.WriteSVG(&svg); err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
		drawn = append(drawn, wire.Chart{Name: c.Name, SVG: svg.Bytes()})
	}
	return wire.WriteReply(out, &wire.Reply{Charts: drawn, Skipped: skipped})
}
