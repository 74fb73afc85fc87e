package html

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/experiment"
)

// TestExperimentPage checks that odd experiments make a page, not a
// panic: none at all is an error; an empty one, and a SCALA report with a
// time that is not a number, make pages whose data is valid JSON, the
// point without a number left out of its chart.
func TestExperimentPage(t *testing.T) {
	constant := experiment.Model{C0: 2, Terms: 1, HasConst: true, OK: true, Points: 2}
	for _, c := range []struct {
		name     string
		res      *experiment.Result
		sections int
		points   []int // measured points in each chart of the first SCALA section
	}{
		{name: "empty", res: &experiment.Result{}},
		{name: "NaN time", res: &experiment.Result{
			Config: experiment.Config{ProcsDim: "procs", WorkDim: "work"},
			Scala: []*experiment.ScalaReport{{
				Points: []experiment.Point{{P: 1, W: 1, T: 2}, {P: 2, W: 1, T: math.NaN()}, {P: 2, W: 2, T: 2}},
				Model:  constant,
			}},
		}, sections: 1, points: []int{2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			st, err := WriteExperiment(&b, c.res, ExperimentOptions{Command: []string{"egprof", "--runs"}, Inputs: []string{"a.out"}})
			require.NoError(t, err)
			doc := b.String()
			const open = `<script type="application/json" id="egprof-data">`
			i := strings.Index(doc, open)
			require.GreaterOrEqual(t, i, 0)
			j := strings.Index(doc[i:], "</script>")
			require.Equal(t, st.DataBytes, j-len(open))
			var p page
			require.NoError(t, json.Unmarshal([]byte(doc[i+len(open):i+j]), &p))
			assert.Equal(t, "experiment", p.Kind)
			require.NotNil(t, p.Experiment)
			assert.Len(t, p.Experiment.Sections, c.sections)
			if c.points == nil {
				return
			}
			require.Len(t, p.Experiment.Charts, 1)
			for k, n := range c.points {
				ch := p.Experiment.Charts[0][k]
				assert.Len(t, ch.Points, n, ch.Name)
				assert.Len(t, ch.Fitted, n, ch.Name)
				// Work 1 was measured at p=1 only (its p=2 time is not a
				// number); no other work at two process counts.
				assert.Empty(t, ch.Curves, ch.Name)
			}
		})
	}
	_, err := WriteExperiment(&bytes.Buffer{}, nil, ExperimentOptions{})
	assert.Error(t, err)
}
