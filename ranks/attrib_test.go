package ranks

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/symtab"

	"github.com/egprof/egprof/internal/testenv"
)

// testProfiles lists the checked-in test programs and their profiles.
func testProfiles(t *testing.T) [][2]string {
	t.Helper()
	var out [][2]string
	for _, d := range testenv.Programs(t) {
		for _, g := range []string{"gmon.out", "gmon2.out"} {
			if _, err := os.Stat(filepath.Join(d, g)); err == nil {
				out = append(out, [2]string{filepath.Join(d, "prog"), filepath.Join(d, g)})
			}
		}
	}
	require.NotEmpty(t, out)
	return out
}

// The attributor must give, file by file, the self samples and the calls
// (a function's calls to itself left out, as the flat profile counts them)
// of callgraph.Build, the model behind gprof's flat profile.
func TestAttributorMatchesCallGraph(t *testing.T) {
	for _, pg := range testProfiles(t) {
		t.Run(pg[1], func(t *testing.T) {
			tab, err := symtab.Load(pg[0], symtab.Options{})
			require.NoError(t, err)
			data, err := os.ReadFile(pg[1])
			require.NoError(t, err)
			p := gmon.NewProfile(tab.Target, gmon.FormatAuto)
			_, err = p.AddData(data, pg[1])
			require.NoError(t, err)
			g := callgraph.Build(tab, p, callgraph.Options{})

			f, err := gmon.Read(data, pg[1], tab.Target, gmon.FormatAuto)
			require.NoError(t, err)
			a := newAttributor(tab)
			ticks := make([]float64, len(tab.Syms))
			calls := make([]uint64, len(tab.Syms))
			a.samples(f, ticks)
			a.calls(f, calls, nil)
			assert.Equal(t, p.Rate, a.rate(f))
			for i := range tab.Syms {
				e := &g.Entries[i]
				assert.InDelta(t, e.Ticks, ticks[i], 1e-9*math.Max(1, e.Ticks), "ticks of %s", tab.Syms[i].Name)
				assert.Equal(t, e.NCalls, calls[i], "calls of %s", tab.Syms[i].Name)
			}
		})
	}
}
