package experiment

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/egprof/egprof/diff"
)

// Metric is a quantity the statistics are computed for, derived per run
// from an item's base values (for a function: self seconds, calls, self
// plus children seconds).
type Metric struct {
	Name string
	Base int // index of the base value
	// Per is the index of the base value counting occurrences that Base is
	// divided by (PERDAC's per-occurrence metrics), or -1. A run where the
	// count is zero has no value of the metric.
	Per int
	// Scale multiplies the value (1000 for milliseconds); 0 means 1.
	Scale float64
	// Sampled reports that Base is a time in seconds measured by counting
	// histogram samples (Observations.HZ per second), so that its value
	// carries Poisson sampling noise; counts such as calls carry none.
	Sampled bool
}

// noise is the variance that Poisson sampling gives value v of the metric
// in a run sampled at hz: the base time stands for n = base·hz samples,
// whose count has variance n, so v (proportional to n) has variance v²/n.
// It is 0 for a metric that is not sampled or a run without samples.
func (m *Metric) noise(v float64, base []float64, hz float64) float64 {
	n := base[m.Base] * hz
	if !m.Sampled || n <= 0 {
		return 0
	}
	return v * v / n
}

// value computes the metric from one run's base values of an item.
func (m *Metric) value(base []float64) (float64, bool) {
	v := base[m.Base]
	if m.Per >= 0 {
		if base[m.Per] == 0 {
			return 0, false
		}
		v /= base[m.Per]
	}
	if m.Scale != 0 {
		v *= m.Scale
	}
	return v, true
}

// Observations are one run's base values for every item.
type Observations struct {
	Bases int       // base values per item
	Base  []float64 // items × Bases, item-major
	// Present tells, per item, whether the item exists in the run (a
	// function in the run's executable); nil means every item does. An
	// absent item's base values are zero, which the statistics count.
	Present []bool
	// Total is the run's total time, the denominator of the share.
	Total float64
	// HZ is the run's sampling rate (samples per second), 0 when unknown:
	// then no value is taken for sampling noise.
	HZ float64
}

// Stats computes PERDAC's statistics over one dimension: for every
// combination of the other dimensions (a group), every item and every
// metric, the accumulator of the values over the dimension's values.
// Memory is proportional to groups × items × metrics, whatever the number
// of runs.
type Stats struct {
	dims    []Dimension
	over    int
	items   []string
	metrics []Metric
	groups  map[string]int
	keys    [][]int     // per group: every dimension's value index, -1 at over
	acc     [][]Acc     // per group: items × metrics
	noise   [][]float64 // per group: items × metrics, the values' summed sampling variance
	absent  [][]absence // per group, per item
	totals  []Acc       // per group: the runs' total times
}

// absence counts the runs that lack an item and remembers the first
// (lowest) location among them.
type absence struct{ n, first int }

func (a *absence) add(at int) {
	if a.n == 0 || at < a.first {
		a.first = at
	}
	a.n++
}

// NewStats prepares the statistics over dimension over of dims for the
// named items and the metrics.
func NewStats(dims []Dimension, over int, items []string, metrics []Metric) *Stats {
	return &Stats{dims: dims, over: over, items: items, metrics: metrics, groups: map[string]int{}}
}

// Add records one run whose dimension values (indexes) are values.
func (s *Stats) Add(values []int, obs *Observations) {
	g := s.group(values)
	at := values[s.over]
	s.totals[g].Add(obs.Total, at)
	accs, noise := s.acc[g], s.noise[g]
	nm := len(s.metrics)
	for it := range s.items {
		base := obs.Base[it*obs.Bases : (it+1)*obs.Bases]
		if obs.Present != nil && !obs.Present[it] {
			s.absent[g][it].add(at)
		}
		for m := range s.metrics {
			if v, ok := s.metrics[m].value(base); ok {
				accs[it*nm+m].Add(v, at)
				noise[it*nm+m] += s.metrics[m].noise(v, base, obs.HZ)
			}
		}
	}
}

// group returns the index of the group of a run whose dimension values
// are values (over's is ignored), adding it if new.
func (s *Stats) group(values []int) int {
	g, isNew := lookup(s.groups, values, s.over)
	if isNew {
		key := slices.Clone(values)
		key[s.over] = -1
		s.keys = append(s.keys, key)
		s.acc = append(s.acc, make([]Acc, len(s.items)*len(s.metrics)))
		s.noise = append(s.noise, make([]float64, len(s.items)*len(s.metrics)))
		s.absent = append(s.absent, make([]absence, len(s.items)))
		s.totals = append(s.totals, Acc{})
	}
	return g
}

// lookup returns the position of values (dimension skip left out) in
// index, adding the next free position when they are new.
func lookup(index map[string]int, values []int, skip int) (at int, isNew bool) {
	k := valuesKey(values, skip)
	if at, ok := index[k]; ok {
		return at, false
	}
	at = len(index)
	index[k] = at
	return at, true
}

// Summary is the statistics of one metric of one item in one group.
type Summary struct {
	N     int // values (runs where the metric is defined)
	Mean  float64
	Stdev float64 // population standard deviation
	RSD   float64 // Stdev in % of Mean
	Min   float64
	MinAt string // the value of the dimension where the minimum occurs
	Max   float64
	MaxAt string
	// Noise is the standard deviation that Poisson sampling alone gives
	// the values (the root of their mean sampling variance); 0 for a
	// metric that is not sampled.
	Noise float64
	// WithinNoise reports that Stdev is at most diff.NoiseSEs times Noise:
	// the spread cannot be told apart from sampling noise.
	WithinNoise bool
}

// PerdacRow is one line of PERDAC's report.
type PerdacRow struct {
	Item   int
	Name   string
	Group  []string // the values of the other dimensions, in order (over's empty)
	Metric string
	// MetricIndex is the metric's position in the statistics' metrics.
	MetricIndex int
	Summary
	// Share is the item's spread (maximum minus minimum) of the key metric
	// in percent of the group's mean run time: how much of a run the
	// variation can explain.
	Share float64
	// Absent counts the runs of the group whose executable lacks the item,
	// AbsentAt names the first such value of the dimension.
	Absent   int
	AbsentAt string
	Runs     int // runs in the group
}

// Order is the order of PERDAC's rows.
type Order int

// The orders --sort accepts.
const (
	// OrderShare puts first the rows whose spread of the key metric is
	// the largest share of a run's time.
	OrderShare Order = iota
	// OrderRSD puts first the rows with the largest relative standard
	// deviation.
	OrderRSD
	// OrderNatural lists the rows as PERDAC's Fig. 3 does: by item, then
	// by the other dimensions' values, then by metric.
	OrderNatural
)

// ParseOrder reads share, rsd or natural.
func ParseOrder(s string) (Order, error) {
	for o, name := range orderNames {
		if s == name {
			return Order(o), nil
		}
	}
	return 0, fmt.Errorf("takes share, rsd or natural, not %q", s)
}

var orderNames = [...]string{"share", "rsd", "natural"}

func (o Order) String() string { return orderNames[o] }

// PerdacTable is the report of the statistics over one dimension.
type PerdacTable struct {
	Over      string   // the dimension the statistics run over
	Others    []string // the other dimensions, in table order
	Threshold float64
	Order     Order
	Rows      []PerdacRow
	// Candidates counts the rows with a relative standard deviation,
	// before the threshold; Noisy the rows above the threshold whose
	// spread is within sampling noise, and Hidden those of them left out
	// (all of them unless ReportOptions.ShowNoise).
	Candidates, Noisy, Hidden int
}

// ReportOptions select and order PERDAC's rows.
type ReportOptions struct {
	// Threshold keeps the rows whose relative standard deviation exceeds
	// it (percent).
	Threshold float64
	Order     Order
	// ShowNoise keeps the rows whose spread is within sampling noise
	// (marked by Summary.WithinNoise); they are left out otherwise.
	ShowNoise bool
	// KeyMetric is the metric whose spread gives a row's share (a time in
	// seconds), -1 for none.
	KeyMetric int
}

// Table filters and orders the statistics into PERDAC's report.
func (s *Stats) Table(opt ReportOptions) *PerdacTable {
	t := &PerdacTable{Over: s.dims[s.over].Name, Threshold: opt.Threshold, Order: opt.Order}
	for d := range s.dims {
		if d != s.over {
			t.Others = append(t.Others, s.dims[d].Name)
		}
	}
	overVals := s.dims[s.over].Values
	nm := len(s.metrics)
	for _, g := range s.groupOrder() {
		group := make([]string, 0, len(s.dims)-1)
		for d, v := range s.keys[g] {
			if d != s.over {
				group = append(group, s.dims[d].Values[v])
			}
		}
		runs := s.totals[g].N
		for it := range s.items {
			share := 0.0
			if opt.KeyMetric >= 0 && s.totals[g].Mean > 0 {
				a := &s.acc[g][it*nm+opt.KeyMetric]
				if a.N > 0 {
					share = 100 * (a.Max - a.Min) / s.totals[g].Mean
				}
			}
			ab := &s.absent[g][it]
			for m := range s.metrics {
				a := &s.acc[g][it*nm+m]
				if a.N == 0 {
					continue
				}
				rsd, ok := a.RSD()
				if !ok {
					continue
				}
				t.Candidates++
				if !(rsd > opt.Threshold) {
					continue
				}
				sum := Summary{
					N: a.N, Mean: a.Mean, Stdev: a.Stdev(), RSD: rsd,
					Min: a.Min, MinAt: overVals[a.ArgMin], Max: a.Max, MaxAt: overVals[a.ArgMax],
					Noise: math.Sqrt(s.noise[g][it*nm+m] / float64(a.N)),
				}
				sum.WithinNoise = sum.Stdev <= diff.NoiseSEs*sum.Noise
				if sum.WithinNoise {
					t.Noisy++
					if !opt.ShowNoise {
						t.Hidden++
						continue
					}
				}
				row := PerdacRow{
					Item: it, Name: s.items[it], Group: group, Metric: s.metrics[m].Name, MetricIndex: m,
					Summary: sum, Share: share, Absent: ab.n, Runs: runs,
				}
				if ab.n > 0 {
					row.AbsentAt = overVals[ab.first]
				}
				t.Rows = append(t.Rows, row)
			}
		}
	}
	switch opt.Order {
	case OrderNatural:
		// Rows are made group by group; Fig. 3 lists them item by item,
		// each item's groups in order, each group's metrics in order.
		slices.SortStableFunc(t.Rows, func(a, b PerdacRow) int { return cmp.Compare(a.Item, b.Item) })
	default:
		// Ties keep the order the rows were made in: groups, items,
		// metrics, so that a function's metrics stay together.
		slices.SortStableFunc(t.Rows, func(a, b PerdacRow) int {
			if opt.Order == OrderRSD {
				if c := cmp.Compare(b.RSD, a.RSD); c != 0 {
					return c
				}
			}
			return cmp.Compare(b.Share, a.Share)
		})
	}
	return t
}

// groupOrder lists the groups in the order of their dimension values.
func (s *Stats) groupOrder() []int {
	order := make([]int, len(s.keys))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return slices.Compare(s.keys[a], s.keys[b]) })
	return order
}
