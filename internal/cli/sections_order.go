package cli

import (
	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/linkorder"
	"github.com/egprof/egprof/render"
)

// printOrderings prints the suggested function order (-r) or file order
// (-R), when selected; they come last and have no separator.
func printOrderings(t *render.Text, style int, g *callgraph.Graph) {
	if style&styleFuncOrder != 0 {
		t.FunctionOrdering(linkorder.FunctionOrder(g))
	}
	if style&styleFileOrder != 0 {
		t.FileOrdering(linkorder.FileOrder(g, g.Syms.Mapping))
	}
}
