package experiment

import "math"

// Acc accumulates the observations of one quantity in bounded memory: the
// count, the mean and the sum of squared deviations from it (M2, updated
// with Welford's formula and merged with Chan's, which stay accurate where
// Σx² − (Σx)²/n would cancel), and the minimum and maximum with the
// location (an index chosen by the caller) where each occurs. On ties the
// lower location wins, so the result does not depend on the order of the
// observations. Accumulators merge: adding two sets of observations to two
// accumulators and merging them gives the accumulator of the union.
type Acc struct {
	N              int
	Mean, M2       float64
	Min, Max       float64
	ArgMin, ArgMax int
}

// Add records observation x made at location at.
func (a *Acc) Add(x float64, at int) {
	if a.N == 0 {
		*a = Acc{N: 1, Mean: x, Min: x, Max: x, ArgMin: at, ArgMax: at}
		return
	}
	a.N++
	d := x - a.Mean
	a.Mean += d / float64(a.N)
	a.M2 += d * (x - a.Mean)
	a.extremes(x, at, x, at)
}

// Merge adds the observations of b.
func (a *Acc) Merge(b Acc) {
	switch {
	case b.N == 0:
		return
	case a.N == 0:
		*a = b
		return
	}
	n := a.N + b.N
	d := b.Mean - a.Mean
	a.Mean += d * float64(b.N) / float64(n)
	a.M2 += b.M2 + d*d*float64(a.N)*float64(b.N)/float64(n)
	a.N = n
	a.extremes(b.Min, b.ArgMin, b.Max, b.ArgMax)
}

func (a *Acc) extremes(lo float64, loAt int, hi float64, hiAt int) {
	if lo < a.Min || lo == a.Min && loAt < a.ArgMin {
		a.Min, a.ArgMin = lo, loAt
	}
	if hi > a.Max || hi == a.Max && hiAt < a.ArgMax {
		a.Max, a.ArgMax = hi, hiAt
	}
}

// Sum is the sum of the observations.
func (a *Acc) Sum() float64 { return a.Mean * float64(a.N) }

// Stdev is the population standard deviation (divided by n, as PERDAC's
// analyzer computes it).
func (a *Acc) Stdev() float64 {
	if a.N == 0 {
		return 0
	}
	return math.Sqrt(max(a.M2, 0) / float64(a.N))
}

// RSD is the relative standard deviation in percent of the mean; ok is
// false when the mean is zero.
func (a *Acc) RSD() (rsd float64, ok bool) {
	if a.N == 0 || a.Mean == 0 {
		return 0, false
	}
	return 100 * a.Stdev() / math.Abs(a.Mean), true
}
