package experiment

import (
	"cmp"
	"slices"
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
	absent  [][]absence // per group, per item
	totals  []Acc       // per group: the runs' total times
	buf     []float64   // one item's base values
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
	k := valuesKey(values, s.over)
	g, ok := s.groups[k]
	if !ok {
		g = len(s.keys)
		s.groups[k] = g
		key := slices.Clone(values)
		key[s.over] = -1
		s.keys = append(s.keys, key)
		s.acc = append(s.acc, make([]Acc, len(s.items)*len(s.metrics)))
		s.absent = append(s.absent, make([]absence, len(s.items)))
		s.totals = append(s.totals, Acc{})
	}
	at := values[s.over]
	s.totals[g].Add(obs.Total, at)
	accs := s.acc[g]
	nm := len(s.metrics)
	for it := range s.items {
		base := obs.Base[it*obs.Bases : (it+1)*obs.Bases]
		if obs.Present != nil && !obs.Present[it] {
			s.absent[g][it].add(at)
		}
		for m := range s.metrics {
			if v, ok := s.metrics[m].value(base); ok {
				accs[it*nm+m].Add(v, at)
			}
		}
	}
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
}

// PerdacRow is one line of PERDAC's report.
type PerdacRow struct {
	Item   int
	Name   string
	Group  []string // the values of the other dimensions, in order (over's empty)
	Metric string
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

// PerdacTable is the report of the statistics over one dimension.
type PerdacTable struct {
	Over       string   // the dimension the statistics run over
	Others     []string // the other dimensions, in table order
	Threshold  float64
	SortByRSD  bool
	Rows       []PerdacRow
	Candidates int // rows with a relative standard deviation, before the threshold
}

// ReportOptions select and order PERDAC's rows.
type ReportOptions struct {
	// Threshold keeps the rows whose relative standard deviation exceeds
	// it (percent).
	Threshold float64
	// SortByRSD orders by relative standard deviation instead of share.
	SortByRSD bool
	// KeyMetric is the metric whose spread gives a row's share (a time in
	// seconds), -1 for none.
	KeyMetric int
}

// Table filters and orders the statistics into PERDAC's report.
func (s *Stats) Table(opt ReportOptions) *PerdacTable {
	t := &PerdacTable{Over: s.dims[s.over].Name, Threshold: opt.Threshold, SortByRSD: opt.SortByRSD}
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
				row := PerdacRow{
					Item: it, Name: s.items[it], Group: group, Metric: s.metrics[m].Name,
					Summary: Summary{
						N: a.N, Mean: a.Mean, Stdev: a.Stdev(), RSD: rsd,
						Min: a.Min, MinAt: overVals[a.ArgMin], Max: a.Max, MaxAt: overVals[a.ArgMax],
					},
					Share: share, Absent: ab.n, Runs: runs,
				}
				if ab.n > 0 {
					row.AbsentAt = overVals[ab.first]
				}
				t.Rows = append(t.Rows, row)
			}
		}
	}
	// Ties keep the order the rows were made in: groups, items, metrics,
	// so that a function's metrics stay together.
	slices.SortStableFunc(t.Rows, func(a, b PerdacRow) int {
		if opt.SortByRSD {
			if c := cmp.Compare(b.RSD, a.RSD); c != 0 {
				return c
			}
		}
		return cmp.Compare(b.Share, a.Share)
	})
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
