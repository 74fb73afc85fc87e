package main

import (
	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/render"
)

// printLineSections prints the execution-count listing (-C) and the
// annotated source (-A), when selected, after the call graph and index.
func printLineSections(t *render.Text, c *config, g *callgraph.Graph) error {
	return nil
}
