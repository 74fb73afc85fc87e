package experiment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scalaResult builds a result for two combinations from timing models, as
// Analyze would from profiles.
func scalaResult(procs, works []float64) *Result {
	res := &Result{Config: Config{ProcsDim: "procs", WorkDim: "work", Top: 10}}
	var all [][]Point
	for k, m := range []model{{c: 1, d: 20}, {c: 4, k: 15, e: 1}} {
		pts := m.measure(procs, works)
		rep := &ScalaReport{Combination: []string{"build=A", "build=B"}[k], Points: pts, VaryW: len(works) > 1}
		rep.Matrix = IsospeedMatrix(pts)
		rep.Pairs = AllPairs(pts)
		fs := FunctionScaling{Name: "solve/with odd: chars", Points: pts, Model: Fit(pts, rep.VaryW)}
		rep.Functions = []FunctionScaling{fs}
		res.Scala = append(res.Scala, rep)
		all = append(all, pts)
	}
	if c, err := RangeCompare("A", all[0], "B", all[1]); err == nil {
		res.Ranges = []RangeResult{{Dim: "build", Comparison: c}}
	}
	return res
}

// TestWritePlots draws the figures for a designed experiment and for
// degenerate ones (one process count, one run) without failing.
func TestWritePlots(t *testing.T) {
	cases := []struct {
		name         string
		procs, works []float64
		want         []string
	}{
		{"designed", []float64{1, 2, 4, 8}, []float64{100, 200, 400, 800, 1600, 6400},
			[]string{"speed-vs-work-build_A.svg", "time-build_B-01-solve_with_odd__chars.svg", "scalability-build-A-B.svg"}},
		{"one process count", []float64{4}, []float64{100, 1000}, []string{"speed-vs-work-build_A.svg"}},
		{"one run", []float64{1}, []float64{100}, []string{"speed-vs-work-build_B.svg"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "plots")
			files, err := WritePlots(scalaResult(tc.procs, tc.works), dir)
			require.NoError(t, err)
			var names []string
			for _, f := range files {
				names = append(names, filepath.Base(f))
				b, err := os.ReadFile(f)
				require.NoError(t, err)
				assert.True(t, strings.HasPrefix(string(b), "<?xml"), f)
				assert.Contains(t, string(b), "</svg>", f)
			}
			for _, w := range tc.want {
				assert.Contains(t, names, w)
			}
			left, _ := filepath.Glob(filepath.Join(dir, ".*"))
			assert.Empty(t, left, "no temporary files left")
		})
	}
	files, err := WritePlots(&Result{}, filepath.Join(t.TempDir(), "none"))
	assert.NoError(t, err)
	assert.Empty(t, files, "nothing to plot without SCALA")
}
