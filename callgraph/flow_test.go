package callgraph_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/testprof"
)

// TestFlowIsPropagation holds Flow to Build's propagation on the test
// programs (cycles, recursion, callbacks among them): when every function
// passes its self time, each function holds gprof's self plus children
// time, and split in two by any labelling of the functions the two parts
// add up to it.
func TestFlowIsPropagation(t *testing.T) {
	for _, prog := range []string{"ranks", "cycles", "recursion", "callbacks", "multifile"} {
		dir := filepath.Join("../testdata/progs", prog)
		g := testprof.Graph(t, filepath.Join(dir, "prog"), filepath.Join(dir, "gmon.out"))
		all := func(int) bool { return true }
		held := g.Flow(1, func(i int, v []float64) { v[0] = g.Entries[i].Ticks }, all)
		split := g.Flow(2, func(i int, v []float64) { v[i%2] = g.Entries[i].Ticks }, all)
		checked := 0
		for i := range g.NumSyms {
			e := &g.Entries[i]
			if e.Fract == 0 {
				continue
			}
			want := e.Ticks + e.ChildTime
			assert.InDelta(t, want, held[i], 1e-9*(1+want), "%s: %s", prog, e.Sym.Name)
			assert.InDelta(t, want, split[2*i]+split[2*i+1], 1e-9*(1+want), "%s: %s", prog, e.Sym.Name)
			if want > 0 {
				checked++
			}
		}
		require.Positive(t, checked, prog)
	}
}
