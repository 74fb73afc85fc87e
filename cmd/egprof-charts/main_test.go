package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/experiment"
	"github.com/egprof/egprof/ranks"
	"github.com/egprof/egprof/render/charts"
	"github.com/egprof/egprof/render/charts/wire"
)

// rankReport analyses a small made-up job whose "solve" is twice as long
// on every third rank.
func rankReport(t *testing.T) *ranks.Report {
	acts := ranks.DefaultActivities()
	l := &ranks.Layout{
		Config:     ranks.Config{Regions: "function", Activities: acts},
		Regions:    []string{"solve", "exchange"},
		Activities: []string{acts[0].Name, ranks.Computation},
		Cells:      []ranks.Cell{{Region: 0, Activity: 1}, {Region: 1, Activity: 0}},
	}
	s := ranks.NewSummary("prog", l, ranks.DefaultTopK)
	for rank := range 6 {
		solve := uint64(100 + 100*(1-min(rank%3, 1)))
		require.NoError(t, s.AddRank(rank, fmt.Sprintf("gmon.%d", rank), 100,
			[]uint64{solve * ranks.FixedOne, uint64(10+rank) * ranks.FixedOne}, []uint64{1, 1}))
	}
	require.NoError(t, s.Normalize())
	rep, err := ranks.Analyze(s, ranks.AnalyzeOptions{})
	require.NoError(t, err)
	return rep
}

// experimentResult is a SCALA analysis of runs whose time follows
// W/p + p.
func experimentResult() *experiment.Result {
	var pts []experiment.Point
	for _, p := range []float64{1, 2, 4, 8} {
		for _, w := range []float64{100, 400} {
			pts = append(pts, experiment.Point{P: p, W: w, T: w/p + p})
		}
	}
	rep := &experiment.ScalaReport{Points: pts, VaryW: true, Matrix: experiment.IsospeedMatrix(pts), Pairs: experiment.AllPairs(pts)}
	rep.Functions = []experiment.FunctionScaling{{Name: "solve", Points: pts, Model: experiment.Fit(pts, true)}}
	return &experiment.Result{Config: experiment.Config{ProcsDim: "procs", WorkDim: "work", Top: 10}, Scala: []*experiment.ScalaReport{rep}}
}

// The charts drawn from a request that crossed the pipe are the charts
// drawn in one process from the same analysis, byte for byte.
func TestChartsSurviveThePipe(t *testing.T) {
	for _, req := range []*wire.Request{{Ranks: rankReport(t)}, {Experiment: experimentResult()}} {
		var direct []charts.Chart
		var skipped []string
		var err error
		if req.Ranks != nil {
			direct, err = charts.RankCharts(req.Ranks)
		} else {
			direct, skipped, err = charts.ExperimentCharts(req.Experiment)
		}
		require.NoError(t, err)
		require.NotEmpty(t, direct)

		var in, out, stderr bytes.Buffer
		require.NoError(t, wire.WriteRequest(&in, req))
		require.Zero(t, run(nil, &in, &out, &stderr), stderr.String())
		reply, err := wire.ReadReply(&out)
		require.NoError(t, err)
		assert.Equal(t, skipped, reply.Skipped)
		require.Len(t, reply.Charts, len(direct))
		for i, c := range direct {
			var want bytes.Buffer
			require.NoError(t, c.WriteSVG(&want))
			assert.Equal(t, c.Name, reply.Charts[i].Name)
			assert.True(t, bytes.Equal(want.Bytes(), reply.Charts[i].SVG), "%s differs after the pipe", c.Name)
		}
	}
}

// Bad input and arguments end with a message and a non-zero status.
func TestBadInput(t *testing.T) {
	var out, stderr bytes.Buffer
	assert.Equal(t, 1, run(nil, strings.NewReader("not a request"), &out, &stderr))
	assert.Contains(t, stderr.String(), "egprof-charts: decoding the chart request")
	assert.Zero(t, out.Len())
	stderr.Reset()
	assert.Equal(t, 2, run([]string{"x"}, strings.NewReader(""), &out, &stderr))
	assert.Contains(t, stderr.String(), "usage: egprof-charts")
}
