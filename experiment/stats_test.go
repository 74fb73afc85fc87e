package experiment

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fig3Row is one printed line of PERDAC's Fig. 3 (Gabriel et al.): the
// statistics of one counter of one MPI function on one rank over three MPI
// libraries (ftmpi, lam7, mpich2), block size NB = 240.
type fig3Row struct {
	fn     string
	rank   int
	metric string
	avg    string
	stdev  string
	rsd    string
	min    string
	minAt  string
	max    string
	maxAt  string
}

// The integer counters of Fig. 3 (the time rows are printed with too few
// digits to rebuild their values from).
var fig3Counters = []fig3Row{
	{"MPI_Send", 0, "Ll_D_MISS", "8529.000", "4852.3", "56.9", "3915.000", "lam7", "15235.000", "mpich2"},
	{"MPI_Send", 0, "Ll_D_ACCESS", "278860.667", "223263.2", "80.1", "92339.000", "lam7", "592750.000", "ftmpi"},
	{"MPI_Send", 1, "Ll_D_MISS", "8397.000", "5380.4", "64.1", "3741.000", "lam7", "15937.000", "mpich2"},
	{"MPI_Send", 1, "Ll_D_ACCESS", "213838.000", "159552.6", "74.6", "64205.000", "lam7", "434918.000", "ftmpi"},
	{"MPI_Send", 2, "Ll_D_MISS", "8826.667", "4514.9", "51.2", "4522.000", "lam7", "15063.000", "mpich2"},
	{"MPI_Send", 2, "Ll_D_ACCESS", "280489.333", "227877.4", "81.2", "90787.000", "lam7", "600955.000", "ftmpi"},
	{"MPI_Send", 3, "Ll_D_MISS", "7677.333", "4305.6", "56.1", "3742.000", "lam7", "13669.000", "mpich2"},
	{"MPI_Send", 3, "Ll_D_ACCESS", "209378.333", "163009.9", "77.9", "64192.000", "lam7", "437049.000", "ftmpi"},
	{"MPI_Comm_split", 0, "Ll_D_MISS", "18965.333", "17183.8", "90.6", "1091.000", "mpich2", "42161.000", "lam7"},
	{"MPI_Comm_split", 0, "Ll_D_ACCESS", "924954.667", "1093523.2", "118.2", "23528.000", "mpich2", "2463906.000", "lam7"},
	{"MPI_Type_struct", 0, "Ll_D_MISS", "9545.333", "6334.4", "66.4", "3376.000", "lam7", "18255.000", "ftmpi"},
	{"MPI_Type_struct", 0, "Ll_D_ACCESS", "1428610.667", "1382473.1", "96.8", "312860.000", "mpich2", "3376872.000", "ftmpi"},
}

// The derived per-occurrence rows of Fig. 3: the counters divided by the
// number of occurrences of the call on that rank, per run, before the
// statistics. The occurrence counts are not printed; min/max of a derived
// row divided into its counter's min/max give them (e.g. 3915/76.765 = 51
// for MPI_Send on rank 0), the same for every library.
var fig3Derived = []fig3Row{
	{"MPI_Send", 0, "Ll_M_Pro_oc", "167.235", "95.1", "56.9", "76.765", "lam7", "298.725", "mpich2"},
	{"MPI_Send", 0, "Ll_A_Pro_oc", "5467.856", "4377.7", "80.1", "1810.569", "lam7", "11622.549", "ftmpi"},
	{"MPI_Send", 1, "Ll_M_Pro_oc", "254.455", "163.0", "64.1", "113.364", "lam7", "482.939", "mpich2"},
	{"MPI_Send", 1, "Ll_A_Pro_oc", "6479.939", "4834.9", "74.6", "1945.606", "lam7", "13179.333", "ftmpi"},
	{"MPI_Send", 2, "Ll_M_Pro_oc", "180.136", "92.1", "51.2", "92.286", "lam7", "307.408", "mpich2"},
	{"MPI_Send", 2, "Ll_A_Pro_oc", "5724.272", "4650.6", "81.2", "1852.796", "lam7", "12264.388", "ftmpi"},
	{"MPI_Send", 3, "Ll_M_Pro_oc", "232.646", "130.5", "56.1", "113.394", "lam7", "414.212", "mpich2"},
	{"MPI_Send", 3, "Ll_A_Pro_oc", "6344.798", "4939.7", "77.9", "1945.212", "lam7", "13243.909", "ftmpi"},
	{"MPI_Comm_split", 0, "Ll_M_Pro_oc", "6321.778", "5727.9", "90.6", "363.667", "mpich2", "14053.667", "lam7"},
	{"MPI_Comm_split", 0, "Ll_A_Pro_oc", "308318.222", "364507.7", "118.2", "7842.667", "mpich2", "821302.000", "lam7"},
	{"MPI_Type_struct", 0, "Ll_M_Pro_oc", "381.813", "253.4", "66.4", "135.040", "lam7", "730.200", "ftmpi"},
	{"MPI_Type_struct", 0, "Ll_A_Pro_oc", "57144.427", "55298.9", "96.8", "12514.400", "mpich2", "135074.880", "ftmpi"},
}

var fig3Occurrences = map[string]map[int]float64{
	"MPI_Send":        {0: 51, 1: 33, 2: 49, 3: 33},
	"MPI_Comm_split":  {0: 3},
	"MPI_Type_struct": {0: 25},
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err)
	return v
}

// TestFig3 rebuilds the measurements behind PERDAC's Fig. 3 and checks
// that the statistics over the library dimension print as in the paper.
// Each printed row fixes its three per-library values: the minimum and the
// maximum are printed with their libraries, and the average fixes the
// third (3·average − min − max, an integer counter). The standard
// deviation is the population one (divide by n): for MPI_Send on rank 0,
// values 3915, 6437 and 15235 give 4852.3 (56.9 %), where dividing by
// n − 1 would give 5942.9.
func TestFig3(t *testing.T) {
	libs := []string{"ftmpi", "lam7", "mpich2"}
	items := []string{"MPI_Send", "MPI_Comm_split", "MPI_Type_struct"}
	dims := []Dimension{
		{Name: "library", Values: libs},
		{Name: "rank", Numeric: true, Values: []string{"0", "1", "2", "3"}, Nums: []float64{0, 1, 2, 3}},
		{Name: "NB", Numeric: true, Values: []string{"240"}, Nums: []float64{240}},
	}
	const miss, access, occ = 0, 1, 2
	metrics := []Metric{
		{Name: "Ll_D_MISS", Base: miss, Per: -1},
		{Name: "Ll_D_ACCESS", Base: access, Per: -1},
		{Name: "Ll_M_Pro_oc", Base: miss, Per: occ},
		{Name: "Ll_A_Pro_oc", Base: access, Per: occ},
	}
	item := func(name string) int {
		for i, n := range items {
			if n == name {
				return i
			}
		}
		t.Fatalf("no item %s", name)
		return -1
	}
	lib := func(name string) int { return (&dims[0]).Index(name) }
	// values[library][rank][item*3+base]
	values := make([][][]float64, len(libs))
	for l := range values {
		values[l] = make([][]float64, 4)
		for r := range values[l] {
			values[l][r] = make([]float64, 3*len(items))
		}
	}
	for _, row := range fig3Counters {
		lo, hi := mustFloat(t, row.min), mustFloat(t, row.max)
		mid := math.Round(3*mustFloat(t, row.avg) - lo - hi)
		third := 3 - lib(row.minAt) - lib(row.maxAt)
		base := miss
		if row.metric == "Ll_D_ACCESS" {
			base = access
		}
		k := item(row.fn)*3 + base
		values[lib(row.minAt)][row.rank][k] = lo
		values[lib(row.maxAt)][row.rank][k] = hi
		values[third][row.rank][k] = mid
		for l := range libs {
			values[l][row.rank][item(row.fn)*3+occ] = fig3Occurrences[row.fn][row.rank]
		}
	}
	s := NewStats(dims, 0, items, metrics)
	for l := range libs {
		for r := range 4 {
			s.Add([]int{l, r, 0}, &Observations{Bases: 3, Base: values[l][r]})
		}
	}
	table := s.Table(ReportOptions{Threshold: 10, KeyMetric: -1})
	assert.Equal(t, "library", table.Over)
	assert.Equal(t, []string{"rank", "NB"}, table.Others)

	for _, want := range append(fig3Counters, fig3Derived...) {
		name := fmt.Sprintf("%s: %d %s", want.fn, want.rank, want.metric)
		var got *PerdacRow
		for i := range table.Rows {
			r := &table.Rows[i]
			if r.Name == want.fn && r.Metric == want.metric && r.Group[0] == strconv.Itoa(want.rank) {
				got = r
			}
		}
		if !assert.NotNil(t, got, name) {
			continue
		}
		assert.Equal(t, "240", got.Group[1], name)
		assert.Equal(t, want.avg, strconv.FormatFloat(got.Mean, 'f', 3, 64), name+" average")
		assert.Equal(t, want.stdev, strconv.FormatFloat(got.Stdev, 'f', 1, 64), name+" stdev")
		assert.Equal(t, want.rsd, strconv.FormatFloat(got.RSD, 'f', 1, 64), name+" re_sdev")
		assert.Equal(t, want.min, strconv.FormatFloat(got.Min, 'f', 3, 64), name+" min")
		assert.Equal(t, want.minAt, got.MinAt, name+" minloc")
		assert.Equal(t, want.max, strconv.FormatFloat(got.Max, 'f', 3, 64), name+" max")
		assert.Equal(t, want.maxAt, got.MaxAt, name+" maxloc")
		assert.Equal(t, 3, got.N, name)
	}

	// --sort=natural lists the rows in Fig. 3's order: function, then
	// rank, then metric (the figure's time rows left out, as above).
	var fig3Order []string
	for _, fn := range []string{"MPI_Send", "MPI_Comm_split", "MPI_Type_struct"} {
		for r := 0; r < len(fig3Occurrences[fn]); r++ {
			for _, m := range []string{"Ll_D_MISS", "Ll_D_ACCESS", "Ll_M_Pro_oc", "Ll_A_Pro_oc"} {
				fig3Order = append(fig3Order, fmt.Sprintf("%s: %d %s", fn, r, m))
			}
		}
	}
	var natural []string
	for _, r := range s.Table(ReportOptions{Threshold: 10, Order: OrderNatural, KeyMetric: -1}).Rows {
		natural = append(natural, fmt.Sprintf("%s: %s %s", r.Name, r.Group[0], r.Metric))
	}
	assert.Equal(t, fig3Order, natural)

	// The first row with the sample standard deviation instead: the
	// paper's digits rule it out.
	x := []float64{3915, 6437, 15235}
	m := (x[0] + x[1] + x[2]) / 3
	ss := 0.0
	for _, v := range x {
		ss += (v - m) * (v - m)
	}
	assert.Equal(t, "5942.9", strconv.FormatFloat(math.Sqrt(ss/2), 'f', 1, 64))
}

// TestThresholdAndOrder checks the selection (relative standard deviation
// strictly above the threshold), the two orders, and that absent items
// count as zeros with their absence recorded.
func TestThresholdAndOrder(t *testing.T) {
	dims := []Dimension{{Name: "run", Values: []string{"a", "b", "c", "d"}}}
	metrics := []Metric{{Name: "self s", Base: 0, Per: -1}}
	items := []string{"steady", "big", "wild", "gone"}
	// per run: steady 1.0 ±0; big 10 ± 2 (RSD 14 %, spread 4 s); wild 0.1 ±
	// 0.1 (RSD 100 %, spread 0.2 s); gone only in runs a and b.
	runs := [][]float64{
		{1, 8, 0, 1},
		{1, 12, 0.2, 1},
		{1, 8, 0, 0},
		{1, 12, 0.2, 0},
	}
	s := NewStats(dims, 0, items, metrics)
	for r, v := range runs {
		present := []bool{true, true, true, r < 2}
		s.Add([]int{r}, &Observations{Bases: 1, Base: v, Present: present, Total: 20})
	}
	byShare := s.Table(ReportOptions{Threshold: 10, KeyMetric: 0})
	var names []string
	for _, r := range byShare.Rows {
		names = append(names, r.Name)
	}
	assert.Equal(t, []string{"big", "gone", "wild"}, names, "by share: spreads 4, 1 and 0.2 s")
	assert.InDelta(t, 20.0, byShare.Rows[0].Share, 1e-12, "4 s of 20")
	assert.Equal(t, 4, byShare.Candidates, "every item has a defined RSD (steady's is 0)")

	byRSD := s.Table(ReportOptions{Threshold: 10, Order: OrderRSD, KeyMetric: 0})
	names = names[:0]
	for _, r := range byRSD.Rows {
		names = append(names, r.Name)
	}
	assert.Equal(t, []string{"gone", "wild", "big"}, names, "by RSD: 100, 100 and 20 %, ties by name")

	gone := byShare.Rows[1]
	assert.Equal(t, 2, gone.Absent)
	assert.Equal(t, "c", gone.AbsentAt)
	assert.Equal(t, 4, gone.N, "absent runs count as zeros")
	assert.Equal(t, 0.0, gone.Min)
	assert.Equal(t, "c", gone.MinAt)

	high := s.Table(ReportOptions{Threshold: 20, KeyMetric: 0})
	for _, r := range high.Rows {
		assert.Greater(t, r.RSD, 20.0, r.Name)
	}
	assert.Len(t, high.Rows, 2, "big's 20 %% is not above 20")
}

// TestPerCallUndefined checks that a run without calls has no per-call
// value instead of a zero or an infinity.
func TestPerCallUndefined(t *testing.T) {
	dims := []Dimension{{Name: "run", Values: []string{"a", "b", "c"}}}
	metrics := []Metric{{Name: "ms/call", Base: 0, Per: 1, Scale: 1000}}
	s := NewStats(dims, 0, []string{"f"}, metrics)
	for r, v := range [][]float64{{1, 10}, {0, 0}, {3, 10}} {
		s.Add([]int{r}, &Observations{Bases: 2, Base: v})
	}
	rows := s.Table(ReportOptions{KeyMetric: -1}).Rows
	require.Len(t, rows, 1)
	assert.Equal(t, 2, rows[0].N)
	assert.InDelta(t, 200.0, rows[0].Mean, 1e-9)
	assert.Equal(t, "a", rows[0].MinAt)
	assert.Equal(t, "c", rows[0].MaxAt)
}

// TestAccMerge checks that accumulators merge: any split of the
// observations, merged in any order, gives the accumulator of all of them.
func TestAccMerge(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 1 + rng.IntN(40)
		xs := make([]float64, n)
		var all Acc
		for i := range xs {
			xs[i] = math.Round(rng.NormFloat64()*1000) / 10 // ties happen
			all.Add(xs[i], i)
		}
		parts := make([]Acc, 1+rng.IntN(5))
		for i, x := range xs {
			parts[rng.IntN(len(parts))].Add(x, i)
		}
		var merged Acc
		for _, k := range rng.Perm(len(parts)) {
			merged.Merge(parts[k])
		}
		name := fmt.Sprintf("trial %d", trial)
		assert.Equal(t, all.N, merged.N, name)
		assert.InDelta(t, all.Mean, merged.Mean, 1e-9*(1+math.Abs(all.Mean)), name)
		assert.InDelta(t, all.Stdev(), merged.Stdev(), 1e-9*(1+all.Stdev()), name)
		assert.Equal(t, all.Min, merged.Min, name)
		assert.Equal(t, all.ArgMin, merged.ArgMin, name)
		assert.Equal(t, all.Max, merged.Max, name)
		assert.Equal(t, all.ArgMax, merged.ArgMax, name)
	}
}
