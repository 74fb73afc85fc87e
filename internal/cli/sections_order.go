package cli

import (
	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/render"
)

// printOrderings prints the suggested function order (-r) or file order
// (-R), when selected; they come last and have no separator.
func printOrderings(t *render.Text, c *config, style int, g *callgraph.Graph) error {
	if style&(styleFuncOrder|styleFileOrder) == 0 {
		return nil
	}
	// gprof's placement also sees the zero-count arcs its symspec parser
	// made for FROM/TO options.
	sa := render.NewSpecArcs(g.Syms, c.specs)
	if style&styleFuncOrder != 0 {
		t.FunctionOrdering(sa)
	}
	if style&styleFileOrder != 0 {
		t.FileOrdering(g.Syms.Mapping, sa)
	}
	return nil
}
