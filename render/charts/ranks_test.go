package charts

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"regexp"
	"strconv"
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
	solve, exchange := make([]uint64, p), make([]uint64, p)
	for rank := range p {
		solve[rank] = 100
		if rank%3 == 0 {
			solve[rank] = 200
		}
		exchange[rank] = uint64(10 + 50*rank/p)
	}
	return solveExchangeJob(t, solve, exchange)
}

// solveExchangeJob analyses a made-up job of two regions, "solve"
// (computation) and "exchange" (communication), given each rank's
// samples in them at 100 Hz.
func solveExchangeJob(t *testing.T, solve, exchange []uint64) *ranks.Report {
	t.Helper()
	acts := ranks.DefaultActivities()
	l := &ranks.Layout{
		Config:     ranks.Config{Regions: "function", Activities: acts},
		Regions:    []string{"solve", "exchange"},
		Activities: []string{acts[0].Name, ranks.Computation},
		Cells:      []ranks.Cell{{Region: 0, Activity: 1}, {Region: 1, Activity: 0}},
	}
	s := ranks.NewSummary("prog", l, ranks.DefaultTopK)
	for rank := range solve {
		require.NoError(t, s.AddRank(rank, fmt.Sprintf("gmon.%d", rank), 100,
			[]uint64{solve[rank] * ranks.FixedOne, exchange[rank] * ranks.FixedOne}, []uint64{1, 1}))
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

// drawnBox is what boxplot.svg draws for one region, read back in seconds
// through the panel's x axis.
type drawnBox struct{ Low, Q1, Median, Q3, High float64 }

// drawnBoxes reads the boxes of boxplot.svg back: in each panel, the
// numeric tick labels and their major tick marks (8 points long) give the
// axis; the box's filled rectangle spans Q1 to Q3, the solid line after
// it is the median, and the first and third dashed lines are the
// whiskers from Q3 to the high end and from Q1 to the low end.
func drawnBoxes(t *testing.T, svg string) []drawnBox {
	t.Helper()
	elem := regexp.MustCompile(`(?s)<(path|text)\b([^>]*)>(?:([^<]*)</text>)?`)
	attr := func(attrs, name string) string {
		m := regexp.MustCompile(`\b` + name + `="([^"]*)"`).FindStringSubmatch(attrs)
		if m == nil {
			return ""
		}
		return m[1]
	}
	point := regexp.MustCompile(`[ML]([-0-9.e]+),([-0-9.e]+)`)
	var boxes []drawnBox
	var labels, marks []float64
	toValue := func(x float64) float64 {
		require.GreaterOrEqual(t, len(labels), 2, "an axis needs two tick labels")
		require.Len(t, marks, len(labels), "a major tick mark per label")
		n := len(labels) - 1
		v := labels[0] + (x-marks[0])*(labels[n]-labels[0])/(marks[n]-marks[0])
		return v
	}
	var box *drawnBox
	dashed := 0
	for _, m := range elem.FindAllStringSubmatch(svg, -1) {
		if m[1] == "text" {
			if v, err := strconv.ParseFloat(strings.TrimSpace(m[3]), 64); err == nil {
				labels = append(labels, v)
			}
			continue
		}
		style := attr(m[2], "style")
		var xs, ys []float64
		for _, p := range point.FindAllStringSubmatch(attr(m[2], "d"), -1) {
			x, err := strconv.ParseFloat(p[1], 64)
			require.NoError(t, err)
			y, err := strconv.ParseFloat(p[2], 64)
			require.NoError(t, err)
			xs, ys = append(xs, x), append(ys, y)
		}
		switch {
		case strings.Contains(style, "fill:#C8D7EB"):
			require.GreaterOrEqual(t, len(xs), 2)
			boxes = append(boxes, drawnBox{Q1: toValue(xs[0]), Q3: toValue(xs[1]), Median: math.NaN()})
			box, dashed = &boxes[len(boxes)-1], 0
		case box == nil && len(xs) == 2 && xs[0] == xs[1] && math.Abs(math.Abs(ys[1]-ys[0])-8) < 0.01:
			marks = append(marks, xs[0])
		case box != nil && style == "fill:none;stroke:#000000" && len(xs) == 2 && math.IsNaN(box.Median):
			box.Median = toValue(xs[0])
		case box != nil && strings.Contains(style, "stroke-dasharray") && len(xs) == 2:
			dashed++
			switch dashed {
			case 1:
				box.High = toValue(xs[1])
			case 3:
				box.Low = toValue(xs[1])
			case 4:
				// The panel is done: the next one has its own axis.
				box, labels, marks = nil, nil, nil
			}
		}
	}
	return boxes
}

// TestBoxPlotDrawsTheTablesSpread: the box plot draws the median the
// spread table prints (for an even number of ranks the lower of the two
// middle times, not their mean as gonum's box plot computes it), the
// quartiles by the same rule, and whiskers to the table's min and max
// (not to Tukey's fences, which leave a far rank out as a point). Eight
// ranks; the expected numbers are counted by hand from their sorted
// sample counts.
func TestBoxPlotDrawsTheTablesSpread(t *testing.T) {
	// Samples at 100 Hz, in rank order (sorted: solve 10 20 25 40 60 61
	// 90 400, exchange 1 1 2 3 5 8 13 21).
	rep := solveExchangeJob(t, []uint64{60, 10, 400, 25, 90, 40, 20, 61}, []uint64{13, 1, 8, 2, 21, 3, 1, 5})
	// Of 8 ranks: the median is the 4th time, the quartiles the 2nd
	// (⌈8/4⌉) and the 6th (⌈3·8/4⌉).
	want := map[string]drawnBox{
		"solve":    {Low: 0.10, Q1: 0.20, Median: 0.40, Q3: 0.61, High: 4.00},
		"exchange": {Low: 0.01, Q1: 0.01, Median: 0.03, Q3: 0.08, High: 0.21},
	}
	// The table's numbers are those.
	for _, g := range rep.Regions {
		w := want[g.Name]
		assert.InDelta(t, w.Median, g.Median, 1e-9, "%s: the table's median", g.Name)
		assert.InDelta(t, w.Low, g.Min, 1e-9, "%s: the table's min", g.Name)
		assert.InDelta(t, w.High, g.Max, 1e-9, "%s: the table's max", g.Name)
	}

	charts, err := RankCharts(rep)
	require.NoError(t, err)
	var svg bytes.Buffer
	require.Equal(t, BoxPlot, charts[2].Name)
	require.NoError(t, charts[2].WriteSVG(&svg))
	boxes := drawnBoxes(t, svg.String())
	require.Len(t, boxes, len(rep.Series.Regions))
	for k, got := range boxes {
		name := rep.Series.Regions[k]
		w := want[name]
		t.Logf("%s drawn: %+v", name, got)
		// Coordinates are written to 0.01 point: well within 0.002 s.
		assert.InDelta(t, w.Median, got.Median, 2e-3, "%s: median drawn", name)
		assert.InDelta(t, w.Q1, got.Q1, 2e-3, "%s: first quartile drawn", name)
		assert.InDelta(t, w.Q3, got.Q3, 2e-3, "%s: third quartile drawn", name)
		assert.InDelta(t, w.Low, got.Low, 2e-3, "%s: low whisker drawn", name)
		assert.InDelta(t, w.High, got.High, 2e-3, "%s: high whisker drawn", name)
	}
}
