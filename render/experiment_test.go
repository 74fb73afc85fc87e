package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/experiment"
)

// experimentResult is a small analysed experiment: one PERDAC table and
// SCALA's view of one combination with a scalability that is not
// bracketed.
//
// At p = 4 the two runs' speeds, 100/(4·2.5) = 10 and 400/(4·9.6) =
// 10.4, each from 1000 samples, agree within sampling noise (X = 0.83 against 5.1; see experiment.SpeedIsFlat), so psi(1,
// 4) is not defined.
func experimentResult() *experiment.Result {
	pts := []experiment.Point{{P: 1, W: 100, T: 10}, {P: 2, W: 100, T: 8}, {P: 2, W: 400, T: 20},
		{P: 4, W: 100, T: 2.5, Samples: 1000}, {P: 4, W: 400, T: 9.6, Samples: 1000}}
	rep := &experiment.ScalaReport{Points: pts, Matrix: experiment.IsospeedMatrix(pts), Pairs: experiment.AllPairs(pts)}
	// The time model t = 2·√p predicts W' = W·(p'/p)^1.5, psi = √(p/p').
	rep.Model = experiment.Model{C1: 2, I: 0.5, Terms: 1, OK: true}
	for i, init := range rep.Matrix.Initial {
		row := make([]experiment.Scaling, len(rep.Matrix.Procs))
		for j := i; j < len(row); j++ {
			row[j] = rep.Model.Isospeed(init.P, init.W, rep.Matrix.Procs[j])
		}
		rep.Predicted = append(rep.Predicted, row)
	}
	return &experiment.Result{
		Config: experiment.Config{ProcsDim: "procs", WorkDim: "work"},
		Perdac: []*experiment.PerdacTable{{
			Over: "library", Others: []string{"nb"}, Threshold: 10, Candidates: 3,
			Rows: []experiment.PerdacRow{{
				Name: "MPI_Send", Group: []string{"240"}, Metric: "self s",
				Summary: experiment.Summary{N: 3, Mean: 8529, Stdev: 4852.3, RSD: 56.9, Min: 3915, MinAt: "lam7", Max: 15235, MaxAt: "mpich2"},
				Share:   12.5, Absent: 1, AbsentAt: "ftmpi", Runs: 3,
			}, {
				Name: "MPI_Send", Group: []string{"240"}, Metric: "calls",
				Summary: experiment.Summary{N: 2, Mean: 6.5, Stdev: 3.5, RSD: 53.8, Min: 3, MinAt: "lam7", Max: 10, MaxAt: "mpich2"}, Runs: 3,
			}, {
				Name: "MPI_Send", Group: []string{"240"}, Metric: "self ms/call",
				Summary: experiment.Summary{N: 2, Mean: 0.0004, Stdev: 0.0001, RSD: 25, Min: 0.0003, MinAt: "lam7", Max: 0.0005, MaxAt: "mpich2",
					Noise: 0.0001, WithinNoise: true}, Runs: 3,
			}},
		}},
		Scala: []*experiment.ScalaReport{rep},
	}
}

// The explanation of a PERDAC table says what became of the rows within
// sampling noise: left out (how many), marked, or that there are none.
func TestPerdacNoiseExplained(t *testing.T) {
	tests := []struct {
		name          string
		noisy, hidden int
		want          string
	}{
		{"left out", 4, 4, "4 rows whose spread is within sampling noise are left out (--show-noise lists them, marked ~)."},
		{"shown", 1, 0, "rows whose spread is within sampling noise are marked ~ (1 here)."},
		{"none", 0, 0, "no row above the threshold is within sampling noise."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := experimentResult()
			res.Scala = nil
			res.Perdac[0].Noisy, res.Perdac[0].Hidden = tt.noisy, tt.hidden
			var b bytes.Buffer
			require.NoError(t, Experiment(&b, res, ExperimentOptions{}))
			assert.Contains(t, strings.Join(strings.Fields(b.String()), " "), tt.want)
		})
	}
}

func TestExperimentText(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, Experiment(&b, experimentResult(), ExperimentOptions{Brief: true}))
	out := b.String()
	assert.True(t, strings.HasPrefix(out, "Statistics over library (PERDAC)\n\nfunction  nb   metric         average     stdev  re_sdev"), out)
	assert.Contains(t, out, "MPI_Send  240  self s        8529.000  4852.300     56.9  3915.000  lam7    15235.000  mpich2  3    12.5  1 of 3 runs, first ftmpi\n")
	assert.Contains(t, out, "\f\nIsospeed scalability (SCALA)\n\n")
	// From (1, 100) at speed 10: at p'=2 the speeds are 6.25 and 10, so
	// W' = 400 and psi = 2·100/(1·400) = 0.5.
	assert.Contains(t, out, "p=1 (W=100)  1.000  0.500    n/d\n")
	assert.Contains(t, out, "p=2 (W=100)      -  1.000    n/d\n")
	assert.NotContains(t, out, "This table shows", "-b leaves the explanations out")
	assert.Contains(t, out, "Every run against every larger process count:\n", "-b keeps every table")
	assert.Contains(t, out, "MPI_Send  240  calls              6.5       3.5     53.8         3  lam7           10  mpich2  2     0.0  -\n", "calls' extremes as integers")
	assert.Contains(t, out, "MPI_Send  240  self us/call     0.400     0.100     25.0     0.300  lam7        0.500  mpich2  2     0.0  -                         ~\n",
		"microseconds where milliseconds print 0.000, and the noise mark")
	// P = √(1/2) = 0.707 against M = 0.5: |P − M|/M = 41.4 %; at p' = 4
	// P = √(1/4) = 0.5 from p = 1 and √(2/4) = 0.707 from p = 2, M is
	// not defined.
	assert.Contains(t, out, "Predicted (P) and measured (M) scalability:\n  psi(p, p')  P p'=2      M     %  P p'=4      M  %\n")
	assert.Contains(t, out, "  p=1          0.707  0.500  41.4   0.500    n/d  -\n")
	assert.Contains(t, out, "  p=2          1.000  1.000     -   0.707    n/d  -\n")
	assert.Contains(t, out, "  1  100   4    -    n/d\n")
	assert.Contains(t, out, "n/d: the unit speed at p' does not change with the work beyond sampling\nnoise", "the reason, even under -b")

	b.Reset()
	require.NoError(t, Experiment(&b, experimentResult(), ExperimentOptions{}))
	assert.Contains(t, strings.ReplaceAll(b.String(), "\n", " "), "population one, dividing by n, as PERDAC computes it")
	for _, line := range strings.Split(b.String(), "\n") {
		if !strings.HasPrefix(line, "MPI_Send") && !strings.HasPrefix(line, "function") {
			assert.LessOrEqual(t, len(line), 80, line)
		}
	}
}

// parseTSV splits egprof's framed TSV into its tables by name (a name
// that appears again gets the rows of each table appended).
func parseTSV(t *testing.T, out string) map[string][][]string {
	t.Helper()
	tables := map[string][][]string{}
	require.True(t, strings.HasSuffix(out, "\n\n"), "every table ends with an empty line")
	for _, block := range strings.Split(strings.TrimSuffix(out, "\n\n"), "\n\n") {
		lines := strings.Split(block, "\n")
		frame := strings.Split(lines[0], "\t")
		require.Len(t, frame, 2, lines[0])
		require.Equal(t, "#table", frame[0])
		require.GreaterOrEqual(t, len(lines), 2, "a header follows the frame")
		width := len(strings.Split(lines[1], "\t"))
		for _, l := range lines[1:] {
			cells := strings.Split(l, "\t")
			require.Len(t, cells, width, l)
			tables[frame[1]] = append(tables[frame[1]], cells)
		}
	}
	return tables
}

func TestExperimentTSVAndJSON(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, Experiment(&b, experimentResult(), ExperimentOptions{Format: "tsv"}))
	tables := parseTSV(t, b.String())
	assert.Len(t, tables, 5, "perdac, scala_runs, scala_psi, scala_predicted, scala_functions")
	assert.Equal(t, "over\tfunction\tnb\tmetric\tn\taverage\tstdev\tre_sdev\tmin\tminloc\tmax\tmaxloc\tshare\tabsent\tabsent_first\tnoise\twithin_noise",
		strings.Join(tables["perdac"][0], "\t"))
	assert.Equal(t, "library\tMPI_Send\t240\tself s\t3\t8529\t4852.3\t56.9\t3915\tlam7\t15235\tmpich2\t12.5\t1\tftmpi\t0\tfalse",
		strings.Join(tables["perdac"][1], "\t"))
	psi := tables["scala_psi"]
	assert.Equal(t, "from_p\tcombination\tfunction\tfrom_work\tfrom_time\tto_p\tscaled_work\tpsi", strings.Join(psi[0], "\t"))
	assert.Equal(t, "1\t\t\t100\t10\t2\t400\t0.5", strings.Join(psi[1], "\t"))
	assert.Contains(t, psi, []string{"1", "", "", "100", "10", "4", "n/d", "n/d"}, "the explicit token, not an empty cell")

	b.Reset()
	require.NoError(t, Experiment(&b, experimentResult(), ExperimentOptions{Format: "json"}))
	var doc map[string]any
	require.NoError(t, json.Unmarshal(b.Bytes(), &doc), b.String())
	scala := doc["scala"].([]any)[0].(map[string]any)
	matrix := scala["matrix"].([]any)
	assert.Equal(t, []any{1.0, 0.5, nil}, matrix[0])
	assert.Equal(t, []any{nil, 1.0, nil}, matrix[1], "null below the diagonal")

	assert.Error(t, Experiment(&b, experimentResult(), ExperimentOptions{Format: "xml"}))
}

// TestTSVTable checks the framing on its own: the frame line, cells
// cleaned of tabs and line breaks, the closing empty line.
func TestTSVTable(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, TSVTable(&b, "demo", []string{"a", "b"}, [][]string{{"1", "x\ty"}, {"n/b", "two\nlines"}}))
	assert.Equal(t, "#table\tdemo\na\tb\n1\tx y\nn/b\ttwo lines\n\n", b.String())
}

// TestFullNumbers: the TSV and JSON numbers read back exactly, in plain
// digits unless very small or very large (a mean of calls next to a
// whole count no longer switches to an exponent).
func TestFullNumbers(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{2334252.5, "2334252.5"},
		{933701, "933701"},
		{0, "0"},
		{-0.125, "-0.125"},
		{0.0001, "0.0001"},
		{0.00001, "1e-05"},
		{1e15, "1e+15"},
		{123456789012345, "123456789012345"},
	} {
		assert.Equal(t, tc.want, full(tc.v), "%v", tc.v)
	}
}
