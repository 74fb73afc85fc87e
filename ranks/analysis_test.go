package ranks

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Analyze against a direct computation from the per-rank values.
func TestAnalyzeAgainstDirect(t *testing.T) {
	l := testLayout()
	r := rand.New(rand.NewPCG(31, 32))
	const P = 9
	const hz = 100
	// Whole samples per rank and cell; region 2 (io_write) runs on rank
	// 0 only; region 4 (main) is called but never sampled.
	vals := make([][]uint64, P)
	calls := make([][]uint64, P)
	s := NewSummary("prog", l, DefaultTopK)
	for p := range P {
		vals[p] = make([]uint64, len(l.Cells))
		calls[p] = make([]uint64, len(l.Cells))
		for c, cell := range l.Cells {
			switch cell.Region {
			case 2:
				if p == 0 {
					vals[p][c] = 40
				}
			case 4:
				calls[p][c] = 1
				continue
			default:
				vals[p][c] = uint64(10 + r.IntN(40))
				if cell.Region == 0 {
					vals[p][c] += uint64(60 * (p % 3)) // three groups
				}
			}
			calls[p][c] = uint64(r.IntN(50))
		}
		fixed := make([]uint64, len(l.Cells))
		for c := range fixed {
			fixed[c] = vals[p][c] * FixedOne
		}
		require.NoError(t, s.AddRank(p, "r", hz, fixed, calls[p]))
	}
	require.NoError(t, s.Normalize())
	rep := analyze(t, s, AnalyzeOptions{Top: 3})

	// Direct: t_ij in seconds and ID_ij from the per-rank values.
	nr, na := len(l.Regions), len(l.Activities)
	tm := make([][]float64, nr)
	id := make([][]Metric, nr)
	for i := range tm {
		tm[i] = make([]float64, na)
		id[i] = make([]Metric, na)
	}
	for c, cell := range l.Cells {
		v := make([]float64, P)
		var sum float64
		for p := range P {
			v[p] = float64(vals[p][c])
			sum += v[p]
		}
		tm[cell.Region][cell.Activity] = sum / hz
		if sum > 0 {
			id[cell.Region][cell.Activity] = defined(directID(v))
		}
	}
	x := ComputeIndices(tm, id)
	assert.InDelta(t, x.Total, rep.TotalSeconds, 1e-9)
	require.Len(t, rep.Regions, 5)
	for _, row := range rep.Regions {
		i := indexOf(l.Regions, row.Name)
		require.GreaterOrEqual(t, i, 0)
		per := make([]float64, P)
		for p := range P {
			for c, cell := range l.Cells {
				if cell.Region == i {
					per[p] += float64(vals[p][c])
				}
			}
		}
		mean, lo, hi, loRank, hiRank := 0.0, math.Inf(1), math.Inf(-1), -1, -1
		for p, v := range per {
			mean += v / P
			if v < lo {
				lo, loRank = v, p
			}
			if v > hi {
				hi, hiRank = v, p
			}
		}
		var sq float64
		for _, v := range per {
			sq += (v - mean) * (v - mean)
		}
		sd := math.Sqrt(sq / P)
		assert.InDelta(t, mean/hz, row.Mean, 1e-9, row.Name)
		assert.InDelta(t, lo/hz, row.Min, 1e-9, row.Name)
		assert.InDelta(t, hi/hz, row.Max, 1e-9, row.Name)
		assert.Equal(t, loRank, row.MinRank, row.Name)
		assert.Equal(t, hiRank, row.MaxRank, row.Name)
		assert.InDelta(t, sd/hz, row.Stdev, 1e-9, row.Name)
		sorted := slices.Clone(per)
		slices.Sort(sorted)
		assert.InDelta(t, sorted[(P+1)/2-1]/hz, row.Median, 1e-9, "%s: median", row.Name)
		if mean == 0 {
			assert.False(t, row.CV.Defined, row.Name)
			assert.False(t, row.SID.Defined, row.Name)
			assert.False(t, row.Low.Defined, row.Name)
			continue
		}
		assert.InDelta(t, sd/mean, row.CV.Value, 1e-9, row.Name)
		assert.InDelta(t, hi/mean, row.MaxOverMean.Value, 1e-9, row.Name)
		assert.InDelta(t, x.IDC[i].Value, row.ID.Value, 1e-9, row.Name)
		assert.InDelta(t, x.SIDC[i].Value, row.SID.Value, 1e-9, row.Name)
		var low, high int
		for _, v := range per {
			if v <= lo+0.15*(hi-lo) {
				low++
			}
			if v >= hi-0.15*(hi-lo) {
				high++
			}
		}
		assert.True(t, row.Exact, "%s: below 256 samples per rank", row.Name)
		assert.InDelta(t, float64(low)/P, row.Low.Value, 1e-12, row.Name)
		assert.InDelta(t, float64(high)/P, row.High.Value, 1e-12, row.Name)
	}
	// Ordered by SID_C; the called-only region last.
	last := rep.Regions[len(rep.Regions)-1]
	assert.Equal(t, "main", last.Name)
	assert.Equal(t, uint64(P), last.Calls)
	for k := 1; k < len(rep.Regions)-1; k++ {
		assert.GreaterOrEqual(t, rep.Regions[k-1].SID.Value, rep.Regions[k].SID.Value)
	}
	// io_write: one rank does everything: ID = sqrt(1 - 1/P); idle ranks.
	io := rep.Regions[indexOfRow(rep.Regions, "io_write")]
	assert.InDelta(t, math.Sqrt(1-1.0/P), io.ID.Value, 1e-12)
	assert.Equal(t, P-1, io.ZeroRanks)

	// Activities by SID_A, with their indices.
	for _, a := range rep.Activities {
		j := indexOf(l.Activities, a.Name)
		assert.InDelta(t, x.IDA[j].Value, a.ID.Value, 1e-9, a.Name)
		assert.InDelta(t, x.SIDA[j].Value, a.SID.Value, 1e-9, a.Name)
	}
	assert.Equal(t, l.Activities[x.DominantActivity], rep.DominantActivity)
	assert.Equal(t, l.Regions[x.DominantRegion], rep.DominantRegion)

	// Matrix, series and clusters follow the top regions.
	assert.Len(t, rep.Matrix.Regions, 3)
	assert.Equal(t, rep.Regions[0].Name, rep.Matrix.Regions[0])
	assert.Equal(t, 0, rep.Truncated)
	assert.Len(t, rep.Series.Seconds, 3)
	size := 0
	for _, c := range rep.RankClusters {
		size += c.Size
	}
	assert.Equal(t, rep.P, size, "every rank in one cluster")
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func indexOfRow(rows []RegionRow, name string) int {
	for i, r := range rows {
		if r.Name == name {
			return i
		}
	}
	return -1
}

func TestAnalyzeEmpty(t *testing.T) {
	l := testLayout()
	s := NewSummary("prog", l, 4)
	for p := range 3 {
		require.NoError(t, s.AddRank(p, "r", 0, make([]uint64, len(l.Cells)), make([]uint64, len(l.Cells))))
	}
	rep := analyze(t, s, AnalyzeOptions{})
	assert.Empty(t, rep.Regions)
	assert.Equal(t, "", rep.DominantRegion)
	assert.Equal(t, "0-2", rep.RankList)
	require.Len(t, rep.RankClusters, 1)
	assert.Equal(t, 3, rep.RankClusters[0].Size)
}

func TestFormatRanks(t *testing.T) {
	tests := []struct {
		in   []int
		want string
	}{
		{nil, ""},
		{[]int{3}, "3"},
		{[]int{0, 1, 2, 3}, "0-3"},
		{[]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 32}, "0-15,32"},
		{[]int{1, 3, 4, 6}, "1,3-4,6"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, FormatRanks(tt.in))
	}
}

// A rank's record keeps its heaviest regions; Lookup tells what is known.
func TestRankInfoLookup(t *testing.T) {
	l := testLayout()
	s := NewSummary("prog", l, 2)
	tm := []uint64{5, 0, 9, 1, 7, 0, 0} // regions: 0:5, 1:9, 2:1, 3:7
	require.NoError(t, s.AddRank(4, "r", 100, tm, make([]uint64, len(tm))))
	ri := &s.Ranks[0]
	assert.True(t, ri.Truncated)
	assert.Equal(t, []RegionValue{{1, 9}, {3, 7}}, ri.Top())
	v, known := ri.Lookup(0)
	assert.False(t, known)
	assert.Zero(t, v)
	ri.set(0, 5)
	v, known = ri.Lookup(0)
	assert.True(t, known)
	assert.Equal(t, uint64(5), v)
	assert.Equal(t, uint64(22), ri.Total())
}

// analyze is Analyze, which must not fail.
func analyze(t testing.TB, s *Summary, opt AnalyzeOptions) *Report {
	t.Helper()
	rep, err := Analyze(s, opt)
	require.NoError(t, err)
	return rep
}
