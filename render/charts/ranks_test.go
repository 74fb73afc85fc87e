package charts

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/ranks"
)

// imbalancedJob analyses p ranks of a made-up job: "solve" takes twice as
// long on every third rank, "exchange" (communication) grows with the
// rank.
func imbalancedJob(t *testing.T, p int) *ranks.Report {
	t.Helper()
	acts := ranks.DefaultActivities()
	l := &ranks.Layout{
		Config:     ranks.Config{Regions: "function", Activities: acts},
		Regions:    []string{"solve", "exchange"},
		Activities: []string{acts[0].Name, ranks.Computation},
		Cells:      []ranks.Cell{{Region: 0, Activity: 1}, {Region: 1, Activity: 0}},
	}
	s := ranks.NewSummary("prog", l, ranks.DefaultTopK)
	for rank := range p {
		solve := uint64(100)
		if rank%3 == 0 {
			solve = 200
		}
		exchange := uint64(10 + 50*rank/p)
		require.NoError(t, s.AddRank(rank, fmt.Sprintf("gmon.%d", rank), 100,
			[]uint64{solve * ranks.FixedOne, exchange * ranks.FixedOne}, []uint64{1, 1}))
	}
	require.NoError(t, s.Normalize())
	return ranks.Analyze(s, ranks.AnalyzeOptions{})
}

// The charts are drawn for a handful of ranks and for thousands, and stay
// of a reasonable size.
func TestRankCharts(t *testing.T) {
	for _, p := range []int{1, 4, 4096} {
		charts, err := RankCharts(imbalancedJob(t, p))
		require.NoError(t, err, "%d ranks", p)
		var names []string
		for _, c := range charts {
			names = append(names, c.Name)
			var svg bytes.Buffer
			require.NoError(t, c.WriteSVG(&svg), "%s, %d ranks", c.Name, p)
			data := svg.Bytes()
			assert.NoError(t, xml.Unmarshal(data, new(struct{})), "%s, %d ranks", c.Name, p)
			assert.Contains(t, string(data), "solve", "%s, %d ranks", c.Name, p)
			assert.Less(t, len(data), 4<<20, "%s, %d ranks", c.Name, p)
		}
		assert.Equal(t, []string{RankTimesPlot, HeatMapPlot, BoxPlot, SpreadPlot}, names)
	}
	_, err := RankCharts(&ranks.Report{})
	assert.Error(t, err)
}
