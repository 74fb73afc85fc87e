package main

import (
	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/render"
)

// printOrderings prints the suggested function order (-r) or file order
// (-R), when selected; they come last and have no separator.
func printOrderings(t *render.Text, c *config, g *callgraph.Graph) error {
	return nil
}
