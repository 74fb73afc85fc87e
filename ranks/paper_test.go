package ranks

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The worked example of Calzarossa, Massari and Tessera, section 4.3: a
// fluid dynamics code on 16 processors, 9 code regions, 4 activities.
// Table 6 gives t_ij (seconds, "-" is zero) and Table 7 ID_ij.
var (
	paperActivities = []string{"computation", "point-to-point", "collective", "synchronization"}
	table6          = [][]float64{
		{12.24, 0, 6.75, 0.061},
		{7.90, 0, 6.32, 0},
		{5.22, 5.68, 0, 0},
		{8.03, 2.51, 0, 0},
		{7.53, 0.07, 1.43, 0.011},
		{0, 3.38, 0, 0},
		{0, 1.72, 0.07, 0},
		{0.36, 0.33, 0, 0.002},
		{0.28, 0, 0.03, 0},
	}
	table7 = [][]float64{
		{0.03674, 0, 0.06793, 0.12870},
		{0.01095, 0, 0.00318, 0},
		{0.00672, 0.02833, 0, 0},
		{0.01615, 0.10742, 0, 0},
		{0.00933, 0.08872, 0.04907, 0.30571},
		{0, 0.00293, 0, 0},
		{0, 0.07002, 0.01036, 0},
		{0.05017, 0.23200, 0, 0.16163},
		{0.00719, 0, 0.01138, 0},
	}
)

// paperIndices computes the indices of Tables 6 and 7.
func paperIndices() Indices {
	id := make([][]Metric, len(table7))
	for i, row := range table7 {
		id[i] = make([]Metric, len(row))
		for j, v := range row {
			if table6[i][j] > 0 {
				id[i][j] = defined(v)
			}
		}
	}
	return ComputeIndices(table6, id)
}

// decimals returns the number of decimals of a printed number.
func decimals(printed string) int {
	if _, frac, ok := strings.Cut(printed, "."); ok {
		return len(frac)
	}
	return 0
}

// assertPrinted checks got against a number printed in the paper: exactly
// at the printed precision when exact, else within 0.5 % relative or
// within half a unit of the last printed digit (the paper computed from
// unrounded inputs, and some entries have only two significant digits).
func assertPrinted(t *testing.T, what, printed string, got Metric, exact bool) {
	t.Helper()
	require.True(t, got.Defined, "%s undefined", what)
	want, err := strconv.ParseFloat(printed, 64)
	require.NoError(t, err)
	prec := decimals(printed)
	if exact {
		assert.Equal(t, printed, strconv.FormatFloat(got.Value, 'f', prec, 64), "%s (%.7f)", what, got.Value)
		return
	}
	halfUnit := 0.5 * math.Pow(10, -float64(prec))
	ok := math.Abs(got.Value-want) <= 0.005*want || math.Abs(got.Value-want) <= halfUnit
	assert.True(t, ok, "%s: got %.7f, paper %s", what, got.Value, printed)
}

// Table 5: the activity times are the column sums of Table 6.
func TestPaperTable5ActivityTimes(t *testing.T) {
	x := paperIndices()
	for j, want := range []string{"41.56", "13.69", "14.60", "0.074"} {
		assert.Equal(t, want, strconv.FormatFloat(x.ActivityTime[j], 'f', decimals(want), 64), paperActivities[j])
	}
	assert.Equal(t, "69.924", strconv.FormatFloat(x.Total, 'f', 3, 64))
	assert.Equal(t, 0, x.DominantActivity, "computation dominates")
	assert.Equal(t, 0, x.DominantRegion, "code region 1 dominates")
}

// Table 8: ID_C and SID_C of the nine code regions.
func TestPaperTable8RegionIndices(t *testing.T) {
	x := paperIndices()
	tests := []struct {
		region    int
		idc, sidc string
		exact     bool // the issue asks for these rows to the printed digits
	}{
		{1, "0.04809", "0.01310", true},
		{2, "0.00750", "0.00153", false},
		{3, "0.01798", "0.00280", false},
		{4, "0.03789", "0.00571", false},
		{5, "0.01655", "0.00214", false},
		{6, "0.00293", "0.00014", false},
		{7, "0.06769", "0.00173", false},
		{8, "0.13720", "0.00136", true},
		{9, "0.00760", "0.00003", false},
	}
	for _, tt := range tests {
		i := tt.region - 1
		assertPrinted(t, "ID_C region "+strconv.Itoa(tt.region), tt.idc, x.IDC[i], tt.exact)
		assertPrinted(t, "SID_C region "+strconv.Itoa(tt.region), tt.sidc, x.SIDC[i], tt.exact)
	}
	// The paper: region 8 has the largest ID_C, region 1 the largest SID_C.
	assert.Equal(t, 7, RankDescending(x.IDC)[0])
	assert.Equal(t, 0, RankDescending(x.SIDC)[0])
}

// Table 9: ID_A and SID_A of the four activities.
func TestPaperTable9ActivityIndices(t *testing.T) {
	x := paperIndices()
	tests := []struct {
		activity  int
		ida, sida string
		exact     bool
	}{
		{0, "0.01904", "0.01132", true},
		{1, "0.04701", "0.00920", false},
		{2, "0.03766", "0.00786", false},
		{3, "0.15559", "0.00016", false},
	}
	for _, tt := range tests {
		name := paperActivities[tt.activity]
		assertPrinted(t, "ID_A "+name, tt.ida, x.IDA[tt.activity], tt.exact)
		assertPrinted(t, "SID_A "+name, tt.sida, x.SIDA[tt.activity], tt.exact)
	}
	// Synchronisation has the largest ID_A, computation the largest SID_A.
	assert.Equal(t, 3, RankDescending(x.IDA)[0])
	assert.Equal(t, 0, RankDescending(x.SIDA)[0])
}

// Tables 3 and 4: the multigrid kernel has one activity, so SID_C is ID_C
// scaled by each routine's share of the 1.90926 s.
func TestPaperTable4MultigridScaled(t *testing.T) {
	tests := []struct {
		name      string
		seconds   float64 // Table 3
		idc, sidc string  // Table 4
	}{
		{"bubble", 0.000067, "0.0132119", "0.0000005"},
		{"interp", 0.210597, "0.0200752", "0.0022144"},
		{"norm2u3", 0.208532, "0.0040778", "0.0004454"},
		{"psinv", 0.546485, "0.0056927", "0.0016294"},
		{"resid", 0.630935, "0.0047494", "0.0015695"},
		{"rprj3", 0.296276, "0.0111050", "0.0017233"},
		{"zero3", 0.016373, "0.0062990", "0.0000540"},
	}
	tm := make([][]float64, len(tests))
	id := make([][]Metric, len(tests))
	for i, tt := range tests {
		v, err := strconv.ParseFloat(tt.idc, 64)
		require.NoError(t, err)
		tm[i] = []float64{tt.seconds}
		id[i] = []Metric{defined(v)}
	}
	x := ComputeIndices(tm, id)
	assert.Equal(t, "1.90926", strconv.FormatFloat(x.Total, 'f', 5, 64))
	for i, tt := range tests {
		assertPrinted(t, "ID_C "+tt.name, tt.idc, x.IDC[i], true)
		// Table 3's times are rounded to the microsecond, so the 7th
		// decimal of SID_C may differ by one unit.
		want, _ := strconv.ParseFloat(tt.sidc, 64)
		assert.InDelta(t, want, x.SIDC[i].Value, 1.0e-7, "SID_C %s", tt.name)
	}
	// resid dominates (about 33 %); interp has the largest SID_C.
	assert.Equal(t, 4, x.DominantRegion)
	assert.InDelta(t, 0.33, x.RegionTime[4]/x.Total, 0.005)
	assert.Equal(t, 1, RankDescending(x.SIDC)[0])
	assert.Equal(t, 1, RankDescending(x.IDC)[0])
}

// realize returns P per-rank times, in fixed-point samples at hz, that sum
// to t seconds and have the index of dispersion d: the shares 1/P + d·u_p
// along the unit vector u = (a, −b, ..., −b) orthogonal to (1, ..., 1)
// (a = sqrt((P−1)/P), b = 1/sqrt(P(P−1))), turned so that rank heavy gets
// the excess. The paper prints no per-processor time, so these stand for
// them: any times with the printed totals and indices are as good.
func realize(t, d float64, P, heavy int, hz float64) []uint64 {
	a := math.Sqrt(float64(P-1) / float64(P))
	b := 1 / math.Sqrt(float64(P*(P-1)))
	out := make([]uint64, P)
	for p := range P {
		x := 1/float64(P) - d*b
		if p == heavy {
			x = 1/float64(P) + d*a
		}
		out[p] = toFixed(x * t * hz)
	}
	return out
}

// paperSummary folds P ranks into a summary of one region per row of t
// (seconds) and one activity per column, each cell's per-rank times
// realizing the index id[i][j] (realize); every rank makes calls equal
// calls to each region.
func paperSummary(t *testing.T, regions, acts []string, tm, id [][]float64, P int, hz float64, calls uint64) *Summary {
	t.Helper()
	l := &Layout{Config: Config{Regions: "function"}, Regions: regions, Activities: acts}
	for i := range tm {
		for j := range tm[i] {
			if tm[i][j] > 0 {
				l.Cells = append(l.Cells, Cell{i, j})
			}
		}
	}
	per := make([][]uint64, len(l.Cells)) // cell -> rank -> time
	for c, cell := range l.Cells {
		per[c] = realize(tm[cell.Region][cell.Activity], id[cell.Region][cell.Activity], P, (3*c)%P, hz)
	}
	s := NewSummary("paper", l, DefaultTopK)
	for p := range P {
		times := make([]uint64, len(l.Cells))
		cs := make([]uint64, len(l.Cells))
		for c := range l.Cells {
			times[c] = per[c][p]
			cs[c] = calls
		}
		require.NoError(t, s.AddRank(p, fmt.Sprintf("processor %d", p+1), uint32(hz), times, cs))
	}
	require.NoError(t, s.Normalize())
	return s
}

// Tables 6 to 9 through egprof's whole analysis: per-processor times (1 µs
// samples, fine enough for the 2 ms of region 8's synchronisation) with
// Table 6's times and Table 7's indices (16 processors), folded into a
// summary and analysed, must give back Tables 6 and 7 in the report's
// matrix, Table 8 and Table 9, the dominant activity and region, the
// heaviest and lightest region of each activity (section 2's worst and
// best), and the candidates of each criterion of section 3.
func TestPaperTables6To9Analysed(t *testing.T) {
	names := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}
	s := paperSummary(t, names, paperActivities, table6, table7, 16, 1e6, 5)
	rep := analyze(t, s, AnalyzeOptions{})
	require.Equal(t, 16, rep.P)
	assert.Equal(t, "69.924", strconv.FormatFloat(rep.TotalSeconds, 'f', 3, 64), "Table 5's total")
	assert.Equal(t, "computation", rep.DominantActivity)
	assert.Equal(t, "1", rep.DominantRegion)

	// Tables 6 and 7 in the matrix (all nine regions, by SID_C).
	require.Len(t, rep.Matrix.Regions, 9)
	require.Equal(t, paperActivities, rep.Matrix.Activities)
	for k, region := range rep.Matrix.Regions {
		i := slices.Index(names, region)
		for j := range paperActivities {
			assert.InDelta(t, table6[i][j], rep.Matrix.Seconds[k][j], 1e-9, "t_ij region %s %s", region, paperActivities[j])
			if table6[i][j] == 0 {
				assert.False(t, rep.Matrix.ID[k][j].Defined)
				continue
			}
			assert.Equal(t, strconv.FormatFloat(table7[i][j], 'f', 5, 64), rep.Matrix.ID[k][j].Format(5), "ID_ij region %s %s", region, paperActivities[j])
		}
	}

	// Table 8 and Table 9, as TestPaperTable8RegionIndices and
	// TestPaperTable9ActivityIndices check them on ComputeIndices.
	table8 := map[string][2]string{"1": {"0.04809", "0.01310"}, "2": {"0.00750", "0.00153"}, "3": {"0.01798", "0.00280"},
		"4": {"0.03789", "0.00571"}, "5": {"0.01655", "0.00214"}, "6": {"0.00293", "0.00014"}, "7": {"0.06769", "0.00173"},
		"8": {"0.13720", "0.00136"}, "9": {"0.00760", "0.00003"}}
	for _, row := range rep.Regions {
		want := table8[row.Name]
		exact := row.Name == "1" || row.Name == "8"
		assertPrinted(t, "ID_C "+row.Name, want[0], row.ID, exact)
		assertPrinted(t, "SID_C "+row.Name, want[1], row.SID, exact)
		assert.Equal(t, 0.0, row.CallsID.Value, "every processor made the same calls")
	}
	assert.Equal(t, "1", rep.Regions[0].Name, "region 1 has the largest SID_C")
	table9 := map[string][3]string{"computation": {"41.56", "0.01904", "0.01132"}, "point-to-point": {"13.69", "0.04701", "0.00920"},
		"collective": {"14.60", "0.03766", "0.00786"}, "synchronization": {"0.074", "0.15559", "0.00016"}}
	// Section 2: the worst and best region of each activity (Table 6).
	extremes := map[string][2]string{"computation": {"1", "9"}, "point-to-point": {"3", "5"}, "collective": {"1", "9"}, "synchronization": {"1", "8"}}
	for _, a := range rep.Activities {
		want := table9[a.Name]
		assert.Equal(t, want[0], strconv.FormatFloat(a.Seconds, 'f', decimals(want[0]), 64), "Table 5: %s", a.Name)
		assertPrinted(t, "ID_A "+a.Name, want[1], a.ID, a.Name == "computation")
		assertPrinted(t, "SID_A "+a.Name, want[2], a.SID, a.Name == "computation")
		assert.Equal(t, extremes[a.Name], [2]string{a.Heaviest, a.Lightest}, "heaviest and lightest region of %s", a.Name)
	}

	// Section 3's criteria on the scaled indices.
	candidates := func(c Criterion) (regions, acts []string) {
		r := analyze(t, s, AnalyzeOptions{Criterion: c})
		for _, row := range r.Regions {
			if row.Candidate {
				regions = append(regions, row.Name)
			}
		}
		for _, a := range r.Activities {
			if a.Candidate {
				acts = append(acts, a.Name)
			}
		}
		return regions, acts
	}
	for _, tc := range []struct {
		c             Criterion
		regions, acts []string
	}{
		// The maximum: region 1 and computation, the paper's conclusion.
		{Criterion{}, []string{"1"}, []string{"computation"}},
		// Above 0.005: regions 1 and 4 (0.01310, 0.00571); every
		// activity but synchronisation (0.00016).
		{Criterion{Kind: CriterionThreshold, Value: 0.005}, []string{"1", "4"}, []string{"computation", "point-to-point", "collective"}},
		// At or above the 75th percentile of the nine SID_C (the 7th
		// smallest, region 3's 0.00280) and of the four SID_A (the 3rd
		// smallest, point-to-point's 0.00920).
		{Criterion{Kind: CriterionPercentile, Value: 75}, []string{"1", "4", "3"}, []string{"computation", "point-to-point"}},
	} {
		regions, acts := candidates(tc.c)
		assert.Equal(t, tc.regions, regions, tc.c.String())
		assert.Equal(t, tc.acts, acts, tc.c.String())
	}
}

// Table 2: the integer sort kernel's four communication statements on 64
// processors, each a region of one activity, analysed by egprof from
// per-processor times. The paper prints each statement's ID_C and SID_C,
// and no times; SID_C/ID_C is a statement's share of the time of all
// eight statements, and the text gives MPI_Alltoallv's time, 0.175 s. The
// four other statements, whose "indices and times are negligible", are
// one region here with the rest of the time, balanced. egprof must give
// back the printed indices to their seven decimals, rank MPI_Allreduce
// first by SID_C (the text's "maximum scaled index of dispersion") and
// MPI_Reduce first by ID_C, find MPI_Alltoallv the dominant region, and
// find the statements whose counts are balanced (equal calls) at ID 0.
func TestPaperTable2Ranking(t *testing.T) {
	names := []string{"MPI_Allreduce", "MPI_Alltoall", "MPI_Alltoallv", "MPI_Reduce", "other statements"}
	idc := []string{"0.0338871", "0.0894876", "0.0212838", "0.2758272"}
	sidc := []string{"0.0142307", "0.0052846", "0.0102718", "0.0025301"}
	share := make([]float64, len(names))
	var rest float64 = 1
	for i := range idc {
		share[i] = mustFloat(t, sidc[i]) / mustFloat(t, idc[i])
		rest -= share[i]
	}
	share[4] = rest
	total := 0.175 / share[2]
	tm := make([][]float64, len(names))
	id := make([][]float64, len(names))
	for i := range names {
		tm[i] = []float64{share[i] * total}
		id[i] = []float64{0}
		if i < len(idc) {
			id[i][0] = mustFloat(t, idc[i])
		}
	}
	// 1 µs samples, so that the per-processor times carry seven
	// decimals of index.
	s := paperSummary(t, names, []string{"communication"}, tm, id, 64, 1e6, 12)
	rep := analyze(t, s, AnalyzeOptions{})
	got := map[string]RegionRow{}
	var order []string
	for _, row := range rep.Regions {
		got[row.Name] = row
		order = append(order, row.Name)
	}
	for i := range idc {
		assert.Equal(t, idc[i], got[names[i]].ID.Format(7), "ID_C %s", names[i])
		assert.Equal(t, sidc[i], got[names[i]].SID.Format(7), "SID_C %s", names[i])
	}
	assert.Equal(t, []string{"MPI_Allreduce", "MPI_Alltoallv", "MPI_Alltoall", "MPI_Reduce", "other statements"}, order, "by SID_C")
	byID := RankDescending([]Metric{got[names[0]].ID, got[names[1]].ID, got[names[2]].ID, got[names[3]].ID})
	assert.Equal(t, 3, byID[0], "MPI_Reduce has the largest ID_C")
	assert.Equal(t, "MPI_Alltoallv", rep.DominantRegion)
	// The text's "about 51%" of the time for MPI_Alltoallv: the printed
	// indices give 48.3 % (0.0102718/0.0212838); the paper's text was
	// worked out from figures it does not print.
	assert.Equal(t, "48.3", strconv.FormatFloat(100*got["MPI_Alltoallv"].Share, 'f', 1, 64))
	// "The index of dispersion of the MPI_Alltoall statement is about
	// three times larger than ... MPI_Allreduce": 2.64.
	assert.InDelta(t, 2.64, got["MPI_Alltoall"].ID.Value/got["MPI_Allreduce"].ID.Value, 0.005)
	for _, n := range names[:4] {
		assert.Equal(t, "0.0000000", got[n].CallsID.Format(7), "%s: equal occurrences on every processor", n)
	}
	assert.True(t, got["MPI_Allreduce"].Candidate, "the maximum SID_C is the candidate")
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err)
	return v
}

// Section 4.3: clustering the code regions described by their activity
// times yields two groups, regions 1 and 2 against the rest.
func TestPaperRegionClusters(t *testing.T) {
	cl := Cluster(Standardize(table6))
	require.Equal(t, 2, cl.K)
	assert.Equal(t, []uint8{0, 0, 1, 1, 1, 1, 1, 1, 1}, cl.Assign)
}

// Undefined indices: an activity without time and a region without time
// have no index, and never a NaN.
func TestIndicesUndefined(t *testing.T) {
	x := ComputeIndices([][]float64{{1, 0}, {0, 0}}, [][]Metric{{defined(0.5), {}}, {{}, {}}})
	assert.True(t, x.IDA[0].Defined)
	assert.False(t, x.IDA[1].Defined)
	assert.False(t, x.SIDA[1].Defined)
	assert.False(t, x.IDC[1].Defined)
	assert.Equal(t, "undefined", x.SIDC[1].Format(5))
	assert.Equal(t, []int{0, 1}, RankDescending(x.SIDC))
	empty := ComputeIndices([][]float64{{0}}, [][]Metric{{{}}})
	assert.Equal(t, -1, empty.DominantRegion)
	assert.Equal(t, -1, empty.DominantActivity)
	b, err := empty.IDC[0].MarshalJSON()
	require.NoError(t, err)
	assert.Equal(t, "null", string(b))
}
