package charts

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"strings"
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
	rep, err := ranks.Analyze(s, ranks.AnalyzeOptions{})
	require.NoError(t, err)
	return rep
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

// The heat map's colour bar is drawn as rectangles, the map too with few
// ranks; with many the map is a picture that every viewer draws: labelled
// PNG (gonum says image/jpg, which librsvg refuses), stretched to its
// rectangle, and sharp. The rank axis is marked at rank numbers.
func TestHeatMapPictures(t *testing.T) {
	for _, tc := range []struct {
		p      int
		images int
	}{{4, 0}, {heatCellsVec/2 + 1, 1}} {
		charts, err := RankCharts(imbalancedJob(t, tc.p))
		require.NoError(t, err)
		var svg bytes.Buffer
		require.NoError(t, charts[1].WriteSVG(&svg))
		require.Equal(t, HeatMapPlot, charts[1].Name)
		out := svg.String()
		assert.Equal(t, tc.images, strings.Count(out, "<image "), "%d ranks", tc.p)
		assert.Equal(t, tc.images, strings.Count(out, `<image preserveAspectRatio="none" image-rendering="optimizeSpeed" style="image-rendering:pixelated" `), "%d ranks", tc.p)
		assert.Equal(t, tc.images, strings.Count(out, "data:image/png;base64,"), "%d ranks", tc.p)
		assert.NotContains(t, out, "image/jpg")
		// 96 steps of the colour scale, each a filled path.
		assert.GreaterOrEqual(t, strings.Count(out, "<path"), 96, "%d ranks", tc.p)
		if tc.p == 4 {
			for _, tick := range []string{">0<", ">1<", ">2<", ">3<"} {
				assert.Contains(t, out, tick, "rank tick")
			}
			assert.NotContains(t, out, ">0.5<", "no tick between ranks")
			assert.NotContains(t, out, ">-0.5<")
		}
	}
}

// Each region's box is drawn on an axis fitted to its own times: the
// short "exchange" is not squashed against the long "solve".
func TestBoxPanelsOwnScale(t *testing.T) {
	rep := imbalancedJob(t, 30)
	panels, err := boxPanels(rep)
	require.NoError(t, err)
	require.Len(t, panels, len(rep.Series.Regions))
	for k, p := range panels {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range rep.Series.Seconds[k] {
			lo, hi = min(lo, v), max(hi, v)
		}
		assert.LessOrEqual(t, p.X.Min, lo, rep.Series.Regions[k])
		assert.GreaterOrEqual(t, p.X.Max, hi, rep.Series.Regions[k])
		assert.Less(t, p.X.Max-p.X.Min, 1.2*(hi-lo)+1e-9, "%s: the axis spans the times, not more", rep.Series.Regions[k])
	}
}
