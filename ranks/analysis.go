package ranks

import (
	"cmp"
	"encoding/binary"
	"github.com/egprof/egprof/symtab"
	"math"
	"slices"
	"strconv"
	"strings"
)

// AnalyzeOptions control Analyze.
type AnalyzeOptions struct {
	// Top is the number of regions in the ID_ij matrix, the per-rank
	// series and the plots (DefaultTop when 0).
	Top int
	// Naming spells the regions' names (the zero value: raw names).
	Naming symtab.Naming
	// Criterion picks the candidates for tuning (the zero value: the
	// maximum).
	Criterion Criterion
	// NoSeries leaves Report.Series empty, when nothing plots it: it
	// holds a number per rank and region shown.
	NoSeries bool
}

// DefaultTop is the default number of regions shown in detail.
const DefaultTop = 20

// clusterDims is the number of regions (the most imbalanced by SID_C)
// describing each rank for clustering.
const clusterDims = 16

// Report is the rank analysis of a summary, ready to print.
type Report struct {
	Exe          string  `json:"executable"`
	P            int     `json:"ranks"`
	RankList     string  `json:"rank_list"`
	HZ           uint32  `json:"hz"`
	TotalSeconds float64 `json:"total_seconds"`
	// Time is how the regions' times are counted (TimeSelf or
	// TimeInclusive); the activities' times are always counted once.
	Time string `json:"rank_time"`
	// Criterion describes how the candidates were picked and
	// CriterionKind is its Criterion.Kind (CriterionMax,
	// CriterionPercentile or CriterionThreshold); Cut is the scaled index
	// a region or activity had to reach (for the maximum, the maximum;
	// undefined when nothing qualifies).
	Criterion     string `json:"criterion"`
	CriterionKind string `json:"criterion_kind"`
	Cut           Metric `json:"criterion_cut"`
	CutA          Metric `json:"criterion_cut_activities"`
	// DominantActivity and DominantRegion name the heaviest activity and
	// region ("" when there is no time at all).
	DominantActivity string `json:"dominant_activity"`
	DominantRegion   string `json:"dominant_region"`

	Activities []ActivityRow `json:"activities"`
	Regions    []RegionRow   `json:"regions"`
	Matrix     Matrix        `json:"matrix"`

	RankClusters     []RankCluster   `json:"rank_clusters"`
	RankSilhouette   float64         `json:"rank_silhouette"`
	ClusterRegions   []string        `json:"rank_cluster_regions"`
	RegionClusters   []RegionCluster `json:"region_clusters"`
	RegionSilhouette float64         `json:"region_silhouette"`

	// Series holds per-rank times of the top regions, for plots.
	Series Series `json:"-"`
	// Truncated counts ranks whose time in one of the regions of Series
	// is not known exactly (the rank kept only its TopK heaviest
	// regions); those times count as zero.
	Truncated int `json:"truncated_ranks"`
	TopK      int `json:"regions_kept_per_rank"`
}

// ActivityRow is one activity: the paper's Table 9 with the time.
type ActivityRow struct {
	Name     string  `json:"name"`
	Seconds  float64 `json:"seconds"`
	Share    float64 `json:"share"`
	ID       Metric  `json:"id_a"`
	SID      Metric  `json:"sid_a"`
	Regions  int     `json:"regions"`
	Heaviest string  `json:"heaviest_region"`
	// Lightest is the region with the least time in the activity among
	// those that perform it (the paper's best region).
	Lightest  string `json:"lightest_region"`
	Candidate bool   `json:"candidate"`
}

// RegionRow is one code region: the paper's Table 8 and the spread of the
// ranks' times.
type RegionRow struct {
	Name     string  `json:"name"`
	Activity string  `json:"activity"` // the activity with most of its time
	Seconds  float64 `json:"seconds"`
	Share    float64 `json:"share"`
	ID       Metric  `json:"id_c"`
	SID      Metric  `json:"sid_c"`

	Mean float64 `json:"mean"`
	// Median is the middle rank's time (the lower of the two middle ones
	// for an even number of ranks), from the region's histogram of whole
	// samples: to the sample below 256 samples, else within 0.4 %.
	Median      float64 `json:"median"`
	Min         float64 `json:"min"`
	MinRank     int     `json:"min_rank"`
	Max         float64 `json:"max"`
	MaxRank     int     `json:"max_rank"`
	ZeroRanks   int     `json:"zero_ranks"`
	Stdev       float64 `json:"stdev"`
	CV          Metric  `json:"cv"`
	MaxOverMean Metric  `json:"max_over_mean"`
	// Low and High are the shares of ranks whose time lies in the lowest
	// and highest 15 % of the range [min, max] (the paper's Fig. 2),
	// counted in whole samples like Median (each rank's time rounded to
	// the nearest sample, and to one when it has any); undefined when
	// every rank has the same count. Exact tells whether every rank's
	// count was kept exactly (the histogram is exact below 256 samples),
	// not whether the times are whole samples.
	Low   Metric `json:"low15"`
	High  Metric `json:"high15"`
	Exact bool   `json:"low_high_exact"`

	Calls     uint64  `json:"calls"`
	CallsMean float64 `json:"calls_mean"`
	CallsID   Metric  `json:"id_calls"`

	Candidate bool `json:"candidate"`
}

// Matrix is the top regions (rows, by SID_C) by the activities with time
// (columns): the time of each activity in each region, t_ij (the paper's
// Table 6), and its index of dispersion over the ranks, ID_ij (Table 7),
// with each region's ID_C over all its activities.
type Matrix struct {
	Regions    []string    `json:"regions"`
	Activities []string    `json:"activities"`
	ID         [][]Metric  `json:"id"`
	Seconds    [][]float64 `json:"seconds"`
	IDC        []Metric    `json:"id_c"`
}

// RankCluster is a group of ranks with similar times in the most
// imbalanced regions.
type RankCluster struct {
	Ranks string `json:"ranks"` // as ranges, "0-15,32"
	Size  int    `json:"size"`
	// First and Last are the lowest and highest rank of the group, and
	// Spacing the difference between each rank and the next when it is
	// the same all along (else 0).
	First   int `json:"-"`
	Last    int `json:"-"`
	Spacing int `json:"-"`
	// Separating are the regions whose mean time in the group differs
	// from the other ranks' by 5 % or more, the largest difference in
	// seconds first (at most 3).
	Separating []Separation `json:"separating"`
}

// Separation is how much more (or less) time a group of ranks spends in a
// region than the other ranks, per rank: relative to the region's mean
// per rank, and in seconds.
type Separation struct {
	Region     string  `json:"region"`
	Difference float64 `json:"difference"`
	Seconds    float64 `json:"seconds"`
}

// RegionCluster is a group of code regions with similar activity times
// (the paper clusters regions described by their t_ij).
type RegionCluster struct {
	Size    int       `json:"size"`
	Seconds float64   `json:"seconds"`
	Share   float64   `json:"share"`
	Mix     []float64 `json:"activity_mix"` // share of each Matrix activity in the group's time
	Members []string  `json:"members"`      // heaviest first, at most 5
	More    int       `json:"more"`         // members not listed
}

// Series are the per-rank times of the top regions.
type Series struct {
	Regions []string    // by SID_C, most imbalanced first
	Ranks   []int       // rank numbers, ascending
	Seconds [][]float64 // [region][rank]
	Mean    []float64   // per region, over all ranks
	Spread  []Spread    // per region, what its box plot draws
}

// Spread is a region's five numbers over the ranks, in seconds, as the box
// plot draws them: Min, Median and Max are its RegionRow's, and Q1 and Q3
// the quartiles counted by the median's rule (the times of rank orders
// ⌈P/4⌉ and ⌈3P/4⌉ among the P ranks, from the same histogram of whole
// samples, kept between Min and Max).
type Spread struct {
	Min, Q1, Median, Q3, Max float64
}

// regionSpread computes region i's Spread: the one rule for its median,
// quartiles, minimum and maximum.
func (s *Summary) regionSpread(i int) Spread {
	rt := &s.RegionTime[i]
	lo, hi := float64(rt.Min), float64(rt.Max)
	q := s.RegionSketch[i].Quantiles(rt.N-rt.NonZero, 0.25, 0.5, 0.75)
	at := func(k int) float64 { return s.Seconds(min(max(FixedOne*q[k], lo), hi)) }
	return Spread{Min: s.Seconds(lo), Q1: at(0), Median: at(1), Q3: at(2), Max: s.Seconds(hi)}
}

// Analyze computes the report of a summary. It fails only when the ranks
// Collect kept in a Spill cannot be read back.
func Analyze(s *Summary, opt AnalyzeOptions) (*Report, error) {
	top := opt.Top
	if top <= 0 {
		top = DefaultTop
	}
	named := make([]symtab.Named, len(s.Regions))
	for i, r := range s.Regions {
		named[i] = RegionNamed(r)
	}
	labels := opt.Naming.Labels(named)
	label := make(map[string]string, len(s.Regions))
	for i, r := range s.Regions {
		label[r] = labels[i]
	}
	name := func(region string) string { return label[region] }
	P := s.P()
	nr, na := len(s.Regions), len(s.Activities)
	rep := &Report{Exe: s.Exe, P: P, HZ: s.HZ, TopK: s.TopK}
	rd := s.reader()
	var all rankRanges
	for p := range P {
		ri, err := rd.at(p)
		if err != nil {
			return nil, err
		}
		all.add(ri.Rank)
	}
	rep.RankList = all.String()

	// The paper's indices from t_ij and ID_ij: the activities from the
	// time counted once (x), the regions from the regions' view (v), which
	// is the same unless regions count their callees' time.
	tx, idx := s.cellMatrix(s.CellTime)
	x := ComputeIndices(tx, idx)
	t, id, v := tx, idx, x
	rep.Time = orDefault(s.Config.Time, TimeSelf)
	if s.CellIncl != nil {
		t, id = s.cellMatrix(s.CellIncl)
		v = ComputeIndices(t, id)
		// Shares of the program's time, which inclusive times overlap.
		for i := range v.SIDC {
			v.SIDC[i] = scaled(v.RegionTime[i], x.Total, v.IDC[i])
		}
		v.Total = x.Total
	}
	rep.TotalSeconds = x.Total
	if x.DominantActivity >= 0 {
		rep.DominantActivity = s.Activities[x.DominantActivity]
	}
	if x.DominantRegion >= 0 {
		rep.DominantRegion = name(s.Regions[x.DominantRegion])
	}

	// Activities, by SID_A.
	crit := opt.Criterion
	rep.Criterion = crit.String()
	rep.CriterionKind = cmp.Or(crit.Kind, CriterionMax)
	hasTimeA := make([]bool, na)
	for j := range na {
		hasTimeA[j] = x.ActivityTime[j] > 0
	}
	candA, cutA := crit.Select(x.SIDA, hasTimeA)
	rep.CutA = cutA
	for _, j := range RankDescending(x.SIDA) {
		row := ActivityRow{Name: s.Activities[j], Seconds: x.ActivityTime[j], ID: x.IDA[j], SID: x.SIDA[j], Candidate: candA[j]}
		if x.Total > 0 {
			row.Share = x.ActivityTime[j] / x.Total
		}
		heavy, light := -1, -1
		for i := range nr {
			if tx[i][j] > 0 {
				row.Regions++
				if heavy < 0 || tx[i][j] > tx[heavy][j] {
					heavy = i
				}
				if light < 0 || tx[i][j] < tx[light][j] {
					light = i
				}
			}
		}
		if heavy >= 0 {
			row.Heaviest = name(s.Regions[heavy])
			row.Lightest = name(s.Regions[light])
		}
		if row.Seconds > 0 || row.ID.Defined {
			rep.Activities = append(rep.Activities, row)
		}
	}

	// Regions, by SID_C; regions never sampled nor called are left out.
	hasTime := make([]bool, nr)
	for i := range nr {
		hasTime[i] = v.RegionTime[i] > 0
	}
	cand, cut := crit.Select(v.SIDC, hasTime)
	rep.Cut = cut
	order := RankDescending(v.SIDC)
	for _, i := range order {
		rt, rc := &s.RegionTime[i], &s.RegionCalls[i]
		if rt.Sum() == 0 && rc.Sum() == 0 {
			continue
		}
		row := s.regionRow(i, v, t, name)
		row.Candidate = cand[i]
		rep.Regions = append(rep.Regions, row)
	}
	// Regions with calls but no time come last, most called first.
	slices.SortStableFunc(rep.Regions, func(a, b RegionRow) int {
		if a.SID.Defined != b.SID.Defined {
			if a.SID.Defined {
				return -1
			}
			return 1
		}
		if !a.SID.Defined {
			return cmp.Compare(b.Calls, a.Calls)
		}
		return 0
	})

	// The top regions: matrix, series, clusters.
	topIdx := topRegions(v, max(top, clusterDims))
	var activeActs []int
	for j := range na {
		if v.ActivityTime[j] > 0 {
			activeActs = append(activeActs, j)
		}
	}
	m := Matrix{}
	for _, j := range activeActs {
		m.Activities = append(m.Activities, s.Activities[j])
	}
	for _, i := range topIdx[:min(top, len(topIdx))] {
		m.Regions = append(m.Regions, name(s.Regions[i]))
		ids := make([]Metric, len(activeActs))
		secs := make([]float64, len(activeActs))
		for k, j := range activeActs {
			secs[k] = t[i][j]
			if t[i][j] > 0 {
				ids[k] = id[i][j]
			}
		}
		m.ID = append(m.ID, ids)
		m.Seconds = append(m.Seconds, secs)
		m.IDC = append(m.IDC, v.IDC[i])
	}
	rep.Matrix = m

	var err error
	if !opt.NoSeries {
		if rep.Series, err = s.series(rd, topIdx[:min(top, len(topIdx))], name); err != nil {
			return nil, err
		}
	}
	if rep.Truncated, err = s.unknown(rd, topIdx); err != nil {
		return nil, err
	}
	if err := rep.clusterRanks(s, rd, topIdx[:min(clusterDims, len(topIdx))], name); err != nil {
		return nil, err
	}
	// The regions' clusters describe how the program's time splits
	// (section 2): by the time counted once, in either view.
	var activeX []int
	for j := range na {
		if x.ActivityTime[j] > 0 {
			activeX = append(activeX, j)
		}
	}
	rep.clusterRegions(s, tx, activeX, x, name)
	return rep, nil
}

// cellMatrix returns t_ij in seconds and ID_ij, region by activity, from
// the cells' accumulators accs (CellTime or CellIncl).
func (s *Summary) cellMatrix(accs []Acc) ([][]float64, [][]Metric) {
	nr, na := len(s.Regions), len(s.Activities)
	t := make([][]float64, nr)
	id := make([][]Metric, nr)
	for i := range t {
		t[i] = make([]float64, na)
		id[i] = make([]Metric, na)
	}
	for c, cell := range s.Cells {
		a := &accs[c]
		t[cell.Region][cell.Activity] = s.Seconds(a.Sum())
		if v, ok := a.Dispersion(); ok {
			id[cell.Region][cell.Activity] = defined(v)
		}
	}
	return t, id
}

// topRegions returns at most n regions with time, by SID_C.
func topRegions(x Indices, n int) []int {
	var out []int
	for _, i := range RankDescending(x.SIDC) {
		if x.RegionTime[i] > 0 && len(out) < n {
			out = append(out, i)
		}
	}
	return out
}

// AnalysisRegions returns the regions that Analyze with this top shows
// rank by rank (in the per-rank series, the plots and the clustering of
// ranks): those with time, most costly imbalance (SID_C) first.
func AnalysisRegions(s *Summary, top int) []int {
	if top <= 0 {
		top = DefaultTop
	}
	accs := s.CellTime
	if s.CellIncl != nil {
		accs = s.CellIncl
	}
	t, id := s.cellMatrix(accs)
	return topRegions(ComputeIndices(t, id), max(top, clusterDims))
}

// regionRow computes one region's row.
func (s *Summary) regionRow(i int, x Indices, t [][]float64, name func(string) string) RegionRow {
	P := s.P()
	rt, rc := &s.RegionTime[i], &s.RegionCalls[i]
	sec := func(v float64) float64 { return s.Seconds(v) }
	spread := s.regionSpread(i)
	row := RegionRow{
		Name:      name(s.Regions[i]),
		Seconds:   x.RegionTime[i],
		ID:        x.IDC[i],
		SID:       x.SIDC[i],
		Mean:      sec(rt.Mean()),
		Median:    spread.Median,
		Min:       spread.Min,
		MinRank:   rt.MinRank,
		Max:       spread.Max,
		MaxRank:   rt.MaxRank,
		ZeroRanks: int(rt.N - rt.NonZero),
		Stdev:     sec(rt.Stdev()),
		Calls:     uint64(rc.Sum()),
		CallsMean: rc.Mean(),
	}
	if x.Total > 0 {
		row.Share = x.RegionTime[i] / x.Total
	}
	best := -1
	for j := range t[i] {
		if t[i][j] > 0 && (best < 0 || t[i][j] > t[i][best]) {
			best = j
		}
	}
	if best >= 0 {
		row.Activity = s.Activities[best]
	}
	row.CV = ratio(row.Stdev, row.Mean)
	row.MaxOverMean = ratio(row.Max, row.Mean)
	if v, ok := rc.Dispersion(); ok {
		row.CallsID = defined(v)
	}
	// Fig. 2: ranks in the lowest and highest 15 % of the range, counted
	// in whole samples.
	lo, hi := float64(sketchValue(rt.Min)), float64(sketchValue(rt.Max))
	sk := &s.RegionSketch[i]
	row.Exact = sk.Exact()
	if hi > lo && P > 0 {
		span := hi - lo
		// The ranks at the minimum and at the maximum are in their part
		// however wide the sketch's buckets are.
		low := sk.CountIn(0, lo+0.15*span, uint64(lo))
		if rt.Min == 0 {
			low += rt.N - rt.NonZero
		}
		high := sk.CountIn(hi-0.15*span, math.Inf(1), uint64(hi))
		row.Low = defined(float64(low) / float64(P))
		row.High = defined(float64(high) / float64(P))
	}
	return row
}

// unknown counts the ranks whose time in one of the regions idx is not
// known, reading them with rd.
func (s *Summary) unknown(rd *rankReader, idx []int) (int, error) {
	n := 0
	for p := range s.P() {
		ri, err := rd.at(p)
		if err != nil {
			return 0, err
		}
		for _, i := range idx {
			if _, known := ri.Lookup(i); !known {
				n++
				break
			}
		}
	}
	return n, nil
}

// series returns the per-rank times of the regions idx, reading the
// ranks with rd: a number per rank and region drawn.
func (s *Summary) series(rd *rankReader, idx []int, name func(string) string) (Series, error) {
	P := s.P()
	sr := Series{Ranks: make([]int, P)}
	for _, i := range idx {
		sr.Regions = append(sr.Regions, name(s.Regions[i]))
		sr.Seconds = append(sr.Seconds, make([]float64, P))
		sr.Mean = append(sr.Mean, s.Seconds(s.RegionTime[i].Mean()))
		sr.Spread = append(sr.Spread, s.regionSpread(i))
	}
	for p := range P {
		ri, err := rd.at(p)
		if err != nil {
			return Series{}, err
		}
		sr.Ranks[p] = ri.Rank
		for k, i := range idx {
			sr.Seconds[k][p] = s.Seconds(float64(ri.Value(i)))
		}
	}
	return sr, nil
}

// clusterRanks groups the ranks by their times in the regions idx: each
// rank is described by how far its time in each region lies from the
// region's mean, in seconds, so that a region weighs by the time its
// imbalance costs. What sets a group apart is reported relative to each
// region's mean.
func (rep *Report) clusterRanks(s *Summary, rd *rankReader, idx []int, name func(string) string) error {
	P := s.P()
	var dims []int
	var means []float64
	for _, i := range idx {
		if m := s.RegionTime[i].Mean(); m > 0 {
			dims = append(dims, i)
			means = append(means, m)
		}
	}
	for _, i := range dims {
		rep.ClusterRegions = append(rep.ClusterRegions, name(s.Regions[i]))
	}
	// In samples from the region's mean, for the clustering, read from
	// the ranks' records as needed rather than held for every rank.
	pts, err := newRankPoints(rd, dims, means)
	if err != nil {
		return err
	}
	cl := ClusterPoints(pts)
	if pts.err != nil {
		return pts.err
	}
	if len(dims) == 0 {
		cl = Clustering{K: min(1, P), Assign: make([]uint8, P)}
	}
	rep.RankSilhouette = cl.Silhouette
	dev := make([]float64, len(dims))
	a, b := make([]float64, len(dims)), make([]float64, len(dims))
	for g := range cl.K {
		var members rankRanges
		// Each region's sums over the group and over the others, in
		// rank order.
		clear(a)
		clear(b)
		na, nb := 0, 0
		for p := range P {
			in := int(cl.Assign[p]) == g
			if in {
				ri, err := rd.at(p)
				if err != nil {
					return err
				}
				members.add(ri.Rank)
			}
			if cl.K > 1 {
				pts.Point(p, dev)
				sum := b
				if in {
					sum = a
					na++
				} else {
					nb++
				}
				for d := range dims {
					// The rank's time in region d relative to the
					// region's mean.
					sum[d] += dev[d] * FixedOne / means[d]
				}
			}
		}
		if pts.err != nil {
			return pts.err
		}
		// Separating is never nil: JSON readers get [] for none.
		rc := RankCluster{Size: members.n, Ranks: members.String(), First: members.first, Last: members.last, Spacing: members.spacing(),
			Separating: []Separation{}}
		if cl.K > 1 {
			seps := []Separation{}
			for d := range dims {
				diff := a[d]/float64(na) - b[d]/float64(max(nb, 1))
				if math.Abs(diff) >= 0.05 {
					seps = append(seps, Separation{Region: name(s.Regions[dims[d]]), Difference: diff,
						Seconds: s.Seconds(diff * means[d])})
				}
			}
			// The regions where the difference costs most time first.
			slices.SortStableFunc(seps, func(a, b Separation) int {
				return cmp.Compare(math.Abs(b.Seconds), math.Abs(a.Seconds))
			})
			rc.Separating = seps[:min(3, len(seps))]
		}
		rep.RankClusters = append(rep.RankClusters, rc)
	}
	return nil
}

// rankPoints are the ranks as points to cluster: each rank's time in the
// regions dims, in samples from the region's mean. Ranks in a Spill are
// written there again as the points alone (see pointTable): k-means reads
// them many times over.
type rankPoints struct {
	rd    *rankReader
	err   error // the first failure to read a rank
	dims  []int
	means []float64
	// store and cols are the last store read and the positions of dims
	// among its regions (-1 for a region it does not hold).
	store *keptStore
	cols  []int
	table *pointTable // the points of ranks in a Spill
	v     []uint64
}

// newRankPoints returns the ranks read by rd as points.
func newRankPoints(rd *rankReader, dims []int, means []float64) (*rankPoints, error) {
	r := &rankPoints{rd: rd, dims: dims, means: means, v: make([]uint64, len(dims))}
	t := rd.s.rows
	if t == nil || len(dims) == 0 {
		return r, nil
	}
	pt := &pointTable{st: t.st, base: t.end(), n: t.n, dim: len(dims)}
	var out []byte
	for p := range t.n {
		ri, err := rd.at(p)
		if err != nil {
			return nil, err
		}
		r.values(ri)
		for _, v := range r.v {
			out = binary.LittleEndian.AppendUint64(out, v)
		}
		if last := p == t.n-1; last || len(out) >= pointWindow*8*pt.dim {
			if err := pt.write(out, p+1-len(out)/(8*pt.dim)); err != nil {
				return nil, err
			}
			out = out[:0]
		}
	}
	r.table = pt
	return r, nil
}

func (r *rankPoints) Len() int { return r.rd.s.P() }
func (r *rankPoints) Dim() int { return len(r.dims) }

// Point writes rank p's coordinates to dst: zeros when it cannot be
// read (r.err tells).
func (r *rankPoints) Point(p int, dst []float64) {
	if r.table != nil {
		b, err := r.table.at(p)
		if err != nil {
			r.err = cmp.Or(r.err, err)
			clear(dst)
			return
		}
		for d := range r.dims {
			r.v[d] = binary.LittleEndian.Uint64(b[8*d:])
		}
	} else {
		ri, err := r.rd.at(p)
		if err != nil {
			r.err = cmp.Or(r.err, err)
			clear(dst)
			return
		}
		r.values(ri)
	}
	for d, v := range r.v {
		dst[d] = (float64(v) - r.means[d]) / FixedOne
	}
}

// values sets r.v to the rank's times in the regions dims.
func (r *rankPoints) values(ri *RankInfo) {
	if k := ri.kept; k != nil && k != r.store {
		r.store = k
		r.cols = r.cols[:0]
		for _, i := range r.dims {
			j, ok := k.region(i)
			if !ok {
				j = -1
			}
			r.cols = append(r.cols, j)
		}
	}
	for d, i := range r.dims {
		if ri.kept != nil && r.cols[d] >= 0 {
			r.v[d] = ri.kept.values[r.cols[d]].get(int(ri.row))
		} else {
			r.v[d] = ri.Value(i)
		}
	}
}

// clusterRegions groups the regions with time by their t_ij over the
// activities with time, each activity standardised (z-scores).
func (rep *Report) clusterRegions(s *Summary, t [][]float64, acts []int, x Indices, name func(string) string) {
	var pts []int
	for i := range t {
		if x.RegionTime[i] > 0 {
			pts = append(pts, i)
		}
	}
	if len(pts) == 0 {
		return
	}
	v := make([][]float64, len(pts))
	for k, i := range pts {
		v[k] = make([]float64, len(acts))
		for d, j := range acts {
			v[k][d] = t[i][j]
		}
	}
	cl := Cluster(Standardize(v))
	rep.RegionSilhouette = cl.Silhouette
	for _, members := range groupMembers(cl) {
		rc := RegionCluster{Size: len(members), Mix: make([]float64, len(acts))}
		slices.SortStableFunc(members, func(a, b int) int {
			return cmp.Compare(x.RegionTime[pts[b]], x.RegionTime[pts[a]])
		})
		for _, k := range members {
			i := pts[k]
			rc.Seconds += x.RegionTime[i]
			for d, j := range acts {
				rc.Mix[d] += t[i][j]
			}
		}
		for d := range rc.Mix {
			if rc.Seconds > 0 {
				rc.Mix[d] /= rc.Seconds
			}
		}
		if x.Total > 0 {
			rc.Share = rc.Seconds / x.Total
		}
		for _, k := range members[:min(5, len(members))] {
			rc.Members = append(rc.Members, name(s.Regions[pts[k]]))
		}
		rc.More = len(members) - len(rc.Members)
		rep.RegionClusters = append(rep.RegionClusters, rc)
	}
	// Heaviest group first.
	slices.SortStableFunc(rep.RegionClusters, func(a, b RegionCluster) int { return cmp.Compare(b.Seconds, a.Seconds) })
}

// FormatRanks writes ascending rank numbers as ranges: "0-15,32".
func FormatRanks(r []int) string {
	var rr rankRanges
	for _, x := range r {
		rr.add(x)
	}
	return rr.String()
}

// rankRanges writes ascending rank numbers, given one at a time, as
// FormatRanks does, and notes their spacing.
type rankRanges struct {
	b           strings.Builder
	n           int
	first, last int
	from        int // the first rank of the run that ends at last
	step        int // the difference between the first two ranks
	even        bool
	closed      bool // the last run is written
}

// add appends rank x (before String).
func (rr *rankRanges) add(x int) {
	switch {
	case rr.n == 0:
		rr.first, rr.from = x, x
	case x == rr.last+1:
	default:
		rr.flush()
		rr.from = x
	}
	switch rr.n {
	case 0:
	case 1:
		rr.step, rr.even = x-rr.last, true
	default:
		rr.even = rr.even && x-rr.last == rr.step
	}
	rr.last = x
	rr.n++
}

// flush writes the run [from, last].
func (rr *rankRanges) flush() {
	if rr.b.Len() > 0 {
		rr.b.WriteByte(',')
	}
	rr.b.WriteString(strconv.Itoa(rr.from))
	if rr.last > rr.from {
		rr.b.WriteByte('-')
		rr.b.WriteString(strconv.Itoa(rr.last))
	}
}

// String returns the ranges.
func (rr *rankRanges) String() string {
	if rr.n == 0 {
		return ""
	}
	if !rr.closed {
		rr.flush()
		rr.closed = true
	}
	return rr.b.String()
}

// spacing is the difference between consecutive ranks when it is the
// same all along, else 0.
func (rr *rankRanges) spacing() int {
	if rr.n < 2 || !rr.even {
		return 0
	}
	return rr.step
}
