package ranks

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Metric is a number that can be undefined, as a ratio with a zero total
// is. Output shows an undefined metric as "undefined" (JSON: null), never
// as NaN.
type Metric struct {
	Value   float64
	Defined bool
}

// defined returns a defined metric.
func defined(v float64) Metric { return Metric{Value: v, Defined: true} }

// ratio returns num/den, undefined when den is zero.
func ratio(num, den float64) Metric {
	if den == 0 {
		return Metric{}
	}
	return defined(num / den)
}

// Format writes the metric with prec decimals, or "undefined".
func (m Metric) Format(prec int) string {
	if !m.Defined {
		return "undefined"
	}
	return strconv.FormatFloat(m.Value, 'f', prec, 64)
}

// MarshalJSON writes the value, or null when undefined.
func (m Metric) MarshalJSON() ([]byte, error) {
	if !m.Defined {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, m.Value, 'g', -1, 64), nil
}

// Indices are the dispersion indices of Calzarossa, Massari and Tessera
// (section 3) for N code regions and K activities, computed from the time
// t_ij of each activity j in each region i (summed over the processors)
// and the index of dispersion ID_ij of the processors' times t_ijp:
//
//	ID_A_j  = Σ_i (t_ij/T_j)·ID_ij      SID_A_j = (T_j/Σ_j T_j)·ID_A_j
//	ID_C_i  = Σ_j (t_ij/t_i)·ID_ij      SID_C_i = (t_i/Σ_i t_i)·ID_C_i
//
// with T_j = Σ_i t_ij and t_i = Σ_j t_ij. A cell with t_ij = 0 has no
// weight; an index whose total is zero is undefined.
type Indices struct {
	RegionTime   []float64 // t_i
	ActivityTime []float64 // T_j
	Total        float64   // Σ_i t_i
	IDC, SIDC    []Metric  // per region
	IDA, SIDA    []Metric  // per activity
	// DominantRegion and DominantActivity are the heaviest region (max
	// t_i) and activity (max T_j), the lowest index on ties, -1 when all
	// times are zero.
	DominantRegion, DominantActivity int
}

// UnmarshalJSON reads a number, or null for an undefined metric.
func (m *Metric) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*m = Metric{}
		return nil
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("metric %q: %w", b, err)
	}
	*m = defined(v)
	return nil
}

// ComputeIndices computes the indices from t[i][j] and id[i][j]; both
// have one row per region and one column per activity. id[i][j] is
// ignored where t[i][j] is zero.
func ComputeIndices(t [][]float64, id [][]Metric) Indices {
	n := len(t)
	k := 0
	if n > 0 {
		k = len(t[0])
	}
	x := Indices{
		RegionTime:   make([]float64, n),
		ActivityTime: make([]float64, k),
		IDC:          make([]Metric, n),
		SIDC:         make([]Metric, n),
		IDA:          make([]Metric, k),
		SIDA:         make([]Metric, k),
	}
	for i := range n {
		for j := range k {
			x.RegionTime[i] += t[i][j]
			x.ActivityTime[j] += t[i][j]
		}
	}
	for _, v := range x.RegionTime {
		x.Total += v
	}
	weighted := func(tot float64, cell func(int) (float64, Metric), m int) Metric {
		if tot == 0 {
			return Metric{}
		}
		var s float64
		for q := range m {
			w, d := cell(q)
			if w != 0 && d.Defined {
				s += w / tot * d.Value
			}
		}
		return defined(s)
	}
	for i := range n {
		x.IDC[i] = weighted(x.RegionTime[i], func(j int) (float64, Metric) { return t[i][j], id[i][j] }, k)
		x.SIDC[i] = scaled(x.RegionTime[i], x.Total, x.IDC[i])
	}
	for j := range k {
		x.IDA[j] = weighted(x.ActivityTime[j], func(i int) (float64, Metric) { return t[i][j], id[i][j] }, n)
		x.SIDA[j] = scaled(x.ActivityTime[j], x.Total, x.IDA[j])
	}
	x.DominantRegion = argMax(x.RegionTime)
	x.DominantActivity = argMax(x.ActivityTime)
	return x
}

// scaled returns (part/total)·m.
func scaled(part, total float64, m Metric) Metric {
	if !m.Defined || total == 0 {
		return Metric{}
	}
	return defined(part / total * m.Value)
}

// argMax returns the index of the largest positive value, -1 if none.
func argMax(v []float64) int {
	best := -1
	for i, x := range v {
		if x > 0 && (best < 0 || x > v[best]) {
			best = i
		}
	}
	return best
}

// RankDescending returns the indexes of m from the largest value to the
// smallest, undefined values last, ties in index order: the paper's
// ranking of regions and activities by scaled index.
func RankDescending(m []Metric) []int {
	idx := make([]int, len(m))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		ma, mb := m[a], m[b]
		switch {
		case ma.Defined != mb.Defined:
			if ma.Defined {
				return -1
			}
			return 1
		case !ma.Defined:
			return 0
		}
		return cmp.Compare(mb.Value, ma.Value)
	})
	return idx
}

// Criterion picks the candidates for tuning among the regions (by SID_C)
// and the activities (by SID_A), as the paper's section 3 offers: the
// maximum of the scaled indices, those at or above a percentile of their
// distribution, or those above a threshold. Only a region or activity
// with time and a scaled index above zero can be a candidate.
type Criterion struct {
	// Kind is CriterionMax (also ""), CriterionPercentile or
	// CriterionThreshold.
	Kind string
	// Value is the percentile (above 0, at most 100) or the threshold.
	Value float64
}

// The kinds of Criterion.
const (
	CriterionMax        = "max"
	CriterionPercentile = "percentile"
	CriterionThreshold  = "threshold"
)

// ParseCriterion reads a --rank-criterion argument: "max", "pN" (the
// N-th percentile, 0 < N ≤ 100) or a number (the threshold).
func ParseCriterion(s string) (Criterion, error) {
	switch {
	case s == CriterionMax:
		return Criterion{Kind: CriterionMax}, nil
	case strings.HasPrefix(s, "p"):
		v, err := strconv.ParseFloat(s[1:], 64)
		if err != nil || !(v > 0 && v <= 100) {
			return Criterion{}, fmt.Errorf("--rank-criterion: %q is not a percentile: pN with 0 < N <= 100", s)
		}
		return Criterion{Kind: CriterionPercentile, Value: v}, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 0) {
		return Criterion{}, fmt.Errorf("--rank-criterion takes max, pN (a percentile) or a threshold of the scaled index, not %q", s)
	}
	return Criterion{Kind: CriterionThreshold, Value: v}, nil
}

// String describes the criterion for the report.
func (c Criterion) String() string {
	switch c.Kind {
	case CriterionPercentile:
		return "at or above the " + ordinalNumber(c.Value) + " percentile"
	case CriterionThreshold:
		return "above " + strconv.FormatFloat(c.Value, 'g', -1, 64)
	}
	return "the maximum"
}

// ordinalNumber spells 90 as "90th", 99.5 as "99.5th".
func ordinalNumber(v float64) string {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if v != math.Trunc(v) {
		return s + "th"
	}
	n := int(v)
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		return s + "st"
	case n%10 == 2:
		return s + "nd"
	case n%10 == 3:
		return s + "rd"
	}
	return s + "th"
}

// Select marks the candidates among the indices m of the entries that
// have time, and returns the cut: the maximum, the percentile's value
// (nearest rank: the ⌈N/100·n⌉-th smallest of the n defined values), or
// the threshold. A candidate's index is above zero and at the cut (above
// it for a threshold). The cut is undefined when no index is defined.
func (c Criterion) Select(m []Metric, hasTime []bool) (candidate []bool, cut Metric) {
	candidate = make([]bool, len(m))
	var vals []float64
	for i, x := range m {
		if hasTime[i] && x.Defined {
			vals = append(vals, x.Value)
		}
	}
	if len(vals) == 0 {
		return candidate, Metric{}
	}
	slices.Sort(vals)
	above := func(v float64) bool { return v >= cut.Value }
	switch c.Kind {
	case CriterionPercentile:
		k := int(math.Ceil(c.Value / 100 * float64(len(vals))))
		cut = defined(vals[max(k, 1)-1])
	case CriterionThreshold:
		cut = defined(c.Value)
		above = func(v float64) bool { return v > cut.Value }
	default:
		cut = defined(vals[len(vals)-1])
	}
	for i, x := range m {
		candidate[i] = hasTime[i] && x.Defined && x.Value > 0 && above(x.Value)
	}
	return candidate, cut
}
