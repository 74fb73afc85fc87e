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
func experimentResult() *experiment.Result {
	pts := []experiment.Point{{P: 1, W: 100, T: 10}, {P: 2, W: 100, T: 8}, {P: 2, W: 400, T: 20}}
	rep := &experiment.ScalaReport{Points: pts, Matrix: experiment.IsospeedMatrix(pts), Pairs: experiment.AllPairs(pts)}
	return &experiment.Result{
		Config: experiment.Config{ProcsDim: "procs", WorkDim: "work"},
		Perdac: []*experiment.PerdacTable{{
			Over: "library", Others: []string{"nb"}, Threshold: 10, Candidates: 3,
			Rows: []experiment.PerdacRow{{
				Name: "MPI_Send", Group: []string{"240"}, Metric: "self s",
				Summary: experiment.Summary{N: 3, Mean: 8529, Stdev: 4852.3, RSD: 56.9, Min: 3915, MinAt: "lam7", Max: 15235, MaxAt: "mpich2"},
				Share:   12.5, Absent: 1, AbsentAt: "ftmpi", Runs: 3,
			}},
		}},
		Scala: []*experiment.ScalaReport{rep},
	}
}

func TestExperimentText(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, Experiment(&b, experimentResult(), ExperimentOptions{Brief: true}))
	out := b.String()
	assert.True(t, strings.HasPrefix(out, "Statistics over library (PERDAC)\n\nfunction  nb   metric   average     stdev  re_sdev"), out)
	assert.Contains(t, out, "MPI_Send  240  self s  8529.000  4852.300     56.9  3915.000  lam7    15235.000  mpich2  3    12.5  1 of 3 runs, first ftmpi\n")
	assert.Contains(t, out, "\f\nIsospeed scalability (SCALA)\n\n")
	// From (1, 100) at speed 10: at p'=2 the speeds are 6.25 and 10, so
	// W' = 400 and psi = 2·100/(1·400) = 0.5.
	assert.Contains(t, out, "p=1 (W=100)  1.000  0.500\n")
	assert.Contains(t, out, "p=2 (W=100)      -  1.000\n")
	assert.NotContains(t, out, "This table shows", "-b leaves the explanations out")

	b.Reset()
	require.NoError(t, Experiment(&b, experimentResult(), ExperimentOptions{}))
	assert.Contains(t, strings.ReplaceAll(b.String(), "\n", " "), "population one, dividing by n, as PERDAC computes it")
	for _, line := range strings.Split(b.String(), "\n") {
		if !strings.HasPrefix(line, "MPI_Send") && !strings.HasPrefix(line, "function") {
			assert.LessOrEqual(t, len(line), 80, line)
		}
	}
}

func TestExperimentTSVAndJSON(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, Experiment(&b, experimentResult(), ExperimentOptions{Format: "tsv"}))
	tables := strings.Split(strings.TrimSuffix(b.String(), "\n\n"), "\n\n")
	require.Len(t, tables, 4, "perdac, runs, isospeed pairs, functions")
	assert.Equal(t, "over\tfunction\tnb\tmetric\tn\taverage\tstdev\tre_sdev\tmin\tminloc\tmax\tmaxloc\tshare\tabsent\tabsent_first\n"+
		"library\tMPI_Send\t240\tself s\t3\t8529\t4852.3\t56.9\t3915\tlam7\t15235\tmpich2\t12.5\t1\tftmpi", tables[0])
	assert.True(t, strings.HasPrefix(tables[2], "from_p\tcombination\tfunction\tfrom_work\tfrom_time\tto_p\tscaled_work\tpsi\n1\t\t\t100\t10\t2\t400\t0.5"), tables[2])

	b.Reset()
	require.NoError(t, Experiment(&b, experimentResult(), ExperimentOptions{Format: "json"}))
	var doc map[string]any
	require.NoError(t, json.Unmarshal(b.Bytes(), &doc), b.String())
	scala := doc["scala"].([]any)[0].(map[string]any)
	matrix := scala["matrix"].([]any)
	assert.Equal(t, []any{1.0, 0.5}, matrix[0])
	assert.Equal(t, []any{nil, 1.0}, matrix[1], "null below the diagonal")

	assert.Error(t, Experiment(&b, experimentResult(), ExperimentOptions{Format: "xml"}))
}
