package charts

import (
	"bytes"
	"math"
	"slices"
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
		// One process count: no p' to compare at, said so.
		{"one process count", []float64{4}, []float64{100, 1000}, []string{"speed-vs-work-build_A.svg"},
			"scalability-build-B-A.svg is not written: B and A have no process count above p=4 in common"},
		{"one run", []float64{1}, []float64{100}, []string{"speed-vs-work-build_B.svg"},
			"scalability-build-A-B.svg is not written: A and B have no process count above p=1 in common"},
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

// TestExperimentChartsSkippedSaySo checks that every figure --plots asks
// for and ExperimentCharts leaves out is named in skipped with its reason
// (egprof prints each as a warning on stderr), one case per reason.
func TestExperimentChartsSkippedSaySo(t *testing.T) {
	procs, works := []float64{1, 2, 4}, []float64{100, 400}
	same := measure(1, 0, 0, 20, procs, works)
	compare := func(a, b []experiment.Point) experiment.RangeResult {
		r := experiment.RangeResult{Dim: "build"}
		c, err := experiment.RangeCompare("A", a, "B", b)
		if err != nil {
			r.Problem, r.Slower, r.Faster = err.Error(), "A", "B"
		} else {
			r.Comparison = c
		}
		return r
	}
	at := func(pts []experiment.Point, ps ...float64) []experiment.Point {
		var out []experiment.Point
		for _, pt := range pts {
			if slices.Contains(ps, pt.P) {
				out = append(out, pt)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name string
		res  func() *experiment.Result
		want string
	}{
		{"equal initial times", func() *experiment.Result {
			return &experiment.Result{Ranges: []experiment.RangeResult{compare(same, same)}}
		}, "scalability-build-A-B.svg is not written: A and B take equal times at the initial state (p=1, W=100: 120.000 s each), " +
			"so alpha = 1, neither is the slower and no crossing point is defined"},
		{"no comparison", func() *experiment.Result {
			return &experiment.Result{Ranges: []experiment.RangeResult{compare(at(same, 1), at(same, 2, 4))}}
		}, "scalability-build-A-B.svg is not written: no range comparison: A and B have no process count in common"},
		{"no larger p' in common", func() *experiment.Result {
			return &experiment.Result{Ranges: []experiment.RangeResult{compare(at(same, 1, 2), at(measure(2, 0, 0, 20, procs, works), 1, 4))}}
		}, "scalability-build-A-B.svg is not written: A and B have no process count above p=1 in common, so there is no p' to compare at"},
		{"no run with samples", func() *experiment.Result {
			return &experiment.Result{Scala: []*experiment.ScalaReport{{Combination: "build=C"}}}
		}, "speed-vs-work-build_C.svg (nor any time-build_C-*.svg) is not written: no run of build=C has samples, so there is no speed or time to plot"},
		{"function with no time", func() *experiment.Result {
			res := scalaResult(procs, works)
			res.Ranges = nil
			res.Scala = res.Scala[:1]
			idle := slices.Clone(res.Scala[0].Points)
			for i := range idle {
				idle[i].T = 0
			}
			res.Scala[0].Functions = append(res.Scala[0].Functions, experiment.FunctionScaling{Name: "idle", Points: idle})
			return res
		}, "time-build_A-02-idle.svg is not written: idle has no time in any run of build=A"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			charts, skipped, err := ExperimentCharts(tc.res())
			require.NoError(t, err)
			assert.Equal(t, []string{tc.want}, skipped)
			for _, c := range charts {
				assert.NotEqual(t, strings.Fields(tc.want)[0], c.Name, "named as not written, but written")
			}
		})
	}
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
