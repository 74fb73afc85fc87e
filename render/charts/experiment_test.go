package charts

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/experiment"
)

// measure makes one run per process count and work, its time that of
// Amdahl's law with communication: W/(c·p) + k·p^e + d.
func measure(c, k, e, d float64, procs, works []float64) []experiment.Point {
	var pts []experiment.Point
	for _, p := range procs {
		for _, w := range works {
			pts = append(pts, experiment.Point{P: p, W: w, T: w/(c*p) + k*math.Pow(p, e) + d})
		}
	}
	return pts
}

// scalaResult builds a result for two combinations from timing models, as
// experiment.Analyze would from profiles.
func scalaResult(procs, works []float64) *experiment.Result {
	res := &experiment.Result{Config: experiment.Config{ProcsDim: "procs", WorkDim: "work", Top: 10}}
	var all [][]experiment.Point
	for k, pts := range [][]experiment.Point{measure(1, 0, 0, 20, procs, works), measure(4, 15, 1, 0, procs, works)} {
		rep := &experiment.ScalaReport{Combination: []string{"build=A", "build=B"}[k], Points: pts, VaryW: len(works) > 1}
		rep.Matrix = experiment.IsospeedMatrix(pts)
		rep.Pairs = experiment.AllPairs(pts)
		fs := experiment.FunctionScaling{Name: "solve/with odd: chars", Points: pts, Model: experiment.Fit(pts, rep.VaryW)}
		rep.Functions = []experiment.FunctionScaling{fs}
		res.Scala = append(res.Scala, rep)
		all = append(all, pts)
	}
	if c, err := experiment.RangeCompare("A", all[0], "B", all[1]); err == nil {
		res.Ranges = []experiment.RangeResult{{Dim: "build", Comparison: c}}
	}
	return res
}

// TestExperimentCharts draws the figures for a designed experiment and
// for degenerate ones (one process count, one run) without failing.
func TestExperimentCharts(t *testing.T) {
	cases := []struct {
		name         string
		procs, works []float64
		want         []string
		skipped      string // a figure left out, with its reason
	}{
		{"designed", []float64{1, 2, 4, 8}, []float64{100, 200, 400, 800, 1600, 6400},
			[]string{"speed-vs-work-build_A.svg", "time-build_B-01-solve_with_odd__chars.svg", "scalability-build-A-B.svg"}, ""},
		{"one process count", []float64{4}, []float64{100, 1000}, []string{"speed-vs-work-build_A.svg"}, ""},
		{"one run", []float64{1}, []float64{100}, []string{"speed-vs-work-build_B.svg"}, ""},
		// One work per process count: no speed at p' > 1 is bracketed,
		// so the scalability plot would hold the initial point alone.
		{"nothing bracketed", []float64{1, 2, 4}, []float64{100}, []string{"speed-vs-work-build_A.svg"},
			"scalability-build-A-B.svg is not written: no psi of A or B from p=1, W=100 is known at any larger p'"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			charts, skipped, err := ExperimentCharts(scalaResult(tc.procs, tc.works))
			require.NoError(t, err)
			if tc.skipped == "" {
				assert.Empty(t, skipped)
			} else if assert.Len(t, skipped, 1) {
				assert.True(t, strings.HasPrefix(skipped[0], tc.skipped), skipped[0])
			}
			var names []string
			for _, c := range charts {
				names = append(names, c.Name)
				var svg bytes.Buffer
				require.NoError(t, c.WriteSVG(&svg), c.Name)
				assert.True(t, strings.HasPrefix(svg.String(), "<?xml"), c.Name)
				assert.Contains(t, svg.String(), "</svg>", c.Name)
			}
			for _, w := range tc.want {
				assert.Contains(t, names, w)
			}
			if tc.skipped != "" {
				assert.NotContains(t, names, strings.Fields(tc.skipped)[0], "not written empty")
			}
		})
	}
	charts, _, err := ExperimentCharts(&experiment.Result{})
	assert.NoError(t, err)
	assert.Empty(t, charts, "nothing to plot without SCALA")
}

func TestAxisLabel(t *testing.T) {
	for _, tc := range []struct{ quantity, column, want string }{
		{"work", "work", "work"},
		{"work", "Work", "work"},
		{"work", "size", "work (size)"},
		{"processes", "np", "processes (np)"},
		{"processes", "", "processes"},
	} {
		assert.Equal(t, tc.want, axisLabel(tc.quantity, tc.column), "%q, %q", tc.quantity, tc.column)
	}
}
