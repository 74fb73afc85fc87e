package experiment

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/egprof/egprof/diff"
)

// Point is a measured run of a code-machine combination: P processes
// solving work W in time T. Samples is the number of histogram samples
// behind T (0 when not known): T's relative sampling noise is
// 1/sqrt(Samples).
type Point struct{ P, W, T, Samples float64 }

// Speed is the run's average unit speed W/(p·T), SCALA's equation for the
// isospeed condition.
func (pt Point) Speed() float64 { return pt.W / (pt.P * pt.T) }

// PointsAt returns the points measured with p processes, by increasing
// work.
func PointsAt(points []Point, p float64) []Point {
	var out []Point
	for _, pt := range points {
		if pt.P == p {
			out = append(out, pt)
		}
	}
	slices.SortFunc(out, func(a, b Point) int { return cmp.Compare(a.W, b.W) })
	return out
}

// procsOf lists the distinct process counts, ascending.
func procsOf(points []Point) []float64 {
	var ps []float64
	for _, pt := range points {
		if !slices.Contains(ps, pt.P) {
			ps = append(ps, pt.P)
		}
	}
	slices.Sort(ps)
	return ps
}

// ScaledWork finds the work at which the runs measured at one process
// count (by increasing work) reach average unit speed s: speed is
// interpolated against work linearly in log-log space between the two
// consecutive measured works whose speeds bracket s, the first such pair
// by increasing work. ok is false when no pair brackets s: there is no
// extrapolation.
func ScaledWork(runs []Point, s float64) (w float64, ok bool) {
	for i, r := range runs {
		if r.Speed() == s {
			return r.W, true
		}
		if i == 0 {
			continue
		}
		lo, hi := runs[i-1], r
		sl, sh := lo.Speed(), hi.Speed()
		if (s-sl)*(s-sh) > 0 || sl == sh {
			continue
		}
		f := (math.Log(s) - math.Log(sl)) / (math.Log(sh) - math.Log(sl))
		return math.Exp(math.Log(lo.W) + f*(math.Log(hi.W)-math.Log(lo.W))), true
	}
	return 0, false
}

// TimeAt interpolates the time of the runs measured at one process count
// (by increasing work) at work w, linearly in log-log space between the
// measured works around w; ok is false outside the measured range.
func TimeAt(runs []Point, w float64) (t float64, ok bool) {
	for i, r := range runs {
		if r.W == w {
			return r.T, true
		}
		if i == 0 || w < runs[i-1].W || w > r.W {
			continue
		}
		lo := runs[i-1]
		f := (math.Log(w) - math.Log(lo.W)) / (math.Log(r.W) - math.Log(lo.W))
		return math.Exp(math.Log(lo.T) + f*(math.Log(r.T)-math.Log(lo.T))), true
	}
	return 0, false
}

// Scaling is the isospeed scalability from an initial run to another
// process count.
type Scaling struct {
	From   Point   // the initial run (p, W)
	To     float64 // p'
	WPrime float64 // the work at p' with the initial run's average unit speed
	Psi    float64 // psi(p, p') = p'·W / (p·W')
	// OK is false when psi is not known: when the runs at p' do not
	// bracket the speed, or when Undefined.
	OK bool
	// Undefined reports that the unit speed measured at p' does not
	// change with the work beyond sampling noise (see SpeedIsFlat): a
	// time that scales perfectly has a speed independent of the work, so
	// no isospeed work W' exists.
	Undefined bool
}

// SpeedIsFlat reports whether the unit speeds of runs measured at one
// process count with different works agree within sampling noise, so
// that the speed cannot be said to depend on the work. A run's time
// counts n = Samples histogram samples, a Poisson count whose standard
// deviation is √n, so ln(speed) = ln(W/p) − ln(T) has variance 1/n. If
// the speed is one constant, X = Σ nᵢ·(ln sᵢ − μ)², with μ the mean of
// the log-speeds weighted by nᵢ, follows a χ² law with k − 1 degrees of
// freedom (k runs); the speeds agree when X is at most that law's
// quantile at diff.NoiseSEs standard normal deviations (97.7 %, by the
// Wilson–Hilferty approximation). For two runs that is about
// |ln s₁ − ln s₂| ≤ 2.3·√(1/n₁ + 1/n₂). It needs two runs or more,
// every run's samples known.
func SpeedIsFlat(runs []Point) bool {
	if len(runs) < 2 {
		return false
	}
	var sn, snl float64
	for _, r := range runs {
		if r.Samples <= 0 || r.T <= 0 {
			return false
		}
		sn += r.Samples
		snl += r.Samples * math.Log(r.Speed())
	}
	mu := snl / sn
	x := 0.0
	for _, r := range runs {
		d := math.Log(r.Speed()) - mu
		x += r.Samples * d * d
	}
	return x <= chiSquareQuantile(float64(len(runs)-1), diff.NoiseSEs)
}

// chiSquareQuantile approximates the quantile of the χ² law with k degrees
// of freedom at z standard normal deviations (Wilson and Hilferty, 1931).
func chiSquareQuantile(k, z float64) float64 {
	c := 2 / (9 * k)
	v := 1 - c + z*math.Sqrt(c)
	return k * v * v * v
}

// Isospeed computes psi(p, p') = p'·W / (p·W') (SCALA's equation (1)) for
// the initial run from, with W' found among the runs measured at p'.
func Isospeed(from Point, runsAt []Point, to float64) Scaling {
	sc := Scaling{From: from, To: to}
	if to == from.P {
		sc.WPrime, sc.Psi, sc.OK = from.W, 1, true
		return sc
	}
	if SpeedIsFlat(runsAt) {
		sc.Undefined = true
		return sc
	}
	w, ok := ScaledWork(runsAt, from.Speed())
	if !ok {
		return sc
	}
	sc.WPrime, sc.Psi, sc.OK = w, to*from.W/(from.P*w), true
	return sc
}

// Matrix is the isospeed scalability of every measured pair p ≤ p', in the
// layout of SCALA's Table 2: rows p, columns p', 1 on the diagonal.
type Matrix struct {
	Procs []float64 // measured process counts, ascending
	// Initial is each row's initial run: the smallest work measured at p.
	Initial []Point
	// Cells[i][j] is psi(Procs[i], Procs[j]) for j ≥ i.
	Cells [][]Scaling
}

// IsospeedMatrix computes the scalability matrix of a combination's runs
// (one point per process count and work).
func IsospeedMatrix(points []Point) Matrix {
	m := Matrix{Procs: procsOf(points)}
	for i, p := range m.Procs {
		init := PointsAt(points, p)[0]
		m.Initial = append(m.Initial, init)
		row := make([]Scaling, len(m.Procs))
		for j := i; j < len(m.Procs); j++ {
			row[j] = Isospeed(init, PointsAt(points, m.Procs[j]), m.Procs[j])
		}
		m.Cells = append(m.Cells, row)
	}
	return m
}

// AllPairs computes psi from every measured run to every larger measured
// process count.
func AllPairs(points []Point) []Scaling {
	var out []Scaling
	procs := procsOf(points)
	for _, p := range procs {
		for _, init := range PointsAt(points, p) {
			for _, q := range procs {
				if q > p {
					out = append(out, Isospeed(init, PointsAt(points, q), q))
				}
			}
		}
	}
	return out
}

// CrossStep is one p' of the range comparison.
type CrossStep struct {
	To       float64
	Phi, Psi Scaling // of the slower and of the faster combination
	// Crossing is Phi > alpha·Psi (Definition 1, inequality (2)).
	Crossing bool
	// TSlow and TFast are the execution times at the scaled works,
	// t_p'(W') and T_p'(W*), interpolated (log-log) in the times measured
	// at p'; ByTime is TSlow < TFast, the crossing found by comparing
	// execution times directly. TimesKnown is false when either scaled
	// work is unknown.
	TSlow, TFast       float64
	ByTime, TimesKnown bool
	// AtW compares the times measured at p' for the initial work W itself
	// (the plain, unscaled crossing): Fixed is the slower combination's
	// being faster there; FixedKnown is false when either combination
	// lacks that run.
	TSlowAtW, TFastAtW float64
	Fixed, FixedKnown  bool
}

// Comparison is SCALA's range comparison of two code-machine combinations
// (Fig. 2): from the initial state (the smallest common p and W), the
// smallest p' at which the initially slower combination becomes faster.
type Comparison struct {
	Slower, Faster string
	Initial        Point   // p, W (T is the slower one's time)
	TFaster        float64 // the faster one's time at the initial state
	Alpha          float64 // t_p(W) / T_p(W) ≥ 1
	Equal          bool    // both take the same time: no crossing is defined
	Steps          []CrossStep
	// Crossing is the smallest scaled crossing point by scalability, 0 if
	// none up to Limit; ByTime the one found by comparing the execution
	// times at the scaled works; Fixed the smallest p' where the initially
	// slower combination is faster at the initial work itself.
	Crossing, ByTime, Fixed float64
	// Limit, TimeLimit and FixedLimit are the largest p' each criterion
	// could examine (0: none).
	Limit, TimeLimit, FixedLimit float64
}

// RangeCompare compares combinations a and b (their runs) over the process
// counts measured for both.
func RangeCompare(nameA string, a []Point, nameB string, b []Point) (Comparison, error) {
	var common []float64
	for _, p := range procsOf(a) {
		if len(PointsAt(b, p)) > 0 {
			common = append(common, p)
		}
	}
	if len(common) == 0 {
		return Comparison{}, fmt.Errorf("%s and %s have no process count in common", nameA, nameB)
	}
	p := common[0]
	var w float64
	var ta, tb Point
	found := false
	for _, ra := range PointsAt(a, p) {
		for _, rb := range PointsAt(b, p) {
			if ra.W == rb.W && !found {
				w, ta, tb, found = ra.W, ra, rb, true
			}
		}
	}
	if !found {
		return Comparison{}, fmt.Errorf("%s and %s have no work in common at p=%g, so there is no initial state to compare", nameA, nameB, p)
	}
	c := Comparison{Slower: nameA, Faster: nameB}
	slow, fast := a, b
	if ta.T < tb.T {
		c.Slower, c.Faster = nameB, nameA
		slow, fast = b, a
		ta, tb = tb, ta
	}
	c.Initial, c.TFaster = Point{P: p, W: w, T: ta.T}, tb.T
	c.Alpha = ta.T / tb.T
	c.Equal = ta.T == tb.T
	for _, q := range common[1:] {
		slowAt, fastAt := PointsAt(slow, q), PointsAt(fast, q)
		st := CrossStep{To: q, Phi: Isospeed(ta, slowAt, q), Psi: Isospeed(tb, fastAt, q)}
		if st.Phi.OK && st.Psi.OK && !c.Equal {
			st.Crossing = st.Phi.Psi > c.Alpha*st.Psi.Psi
			t1, ok1 := TimeAt(slowAt, st.Phi.WPrime)
			t2, ok2 := TimeAt(fastAt, st.Psi.WPrime)
			if ok1 && ok2 {
				st.TSlow, st.TFast, st.TimesKnown = t1, t2, true
				st.ByTime = t1 < t2
			}
		}
		r1, r2 := measuredAt(slowAt, w), measuredAt(fastAt, w)
		if r1 != nil && r2 != nil {
			st.TSlowAtW, st.TFastAtW, st.FixedKnown = r1.T, r2.T, true
			st.Fixed = r1.T < r2.T
		}
		if st.Phi.OK && st.Psi.OK && !c.Equal {
			c.Limit = q
		}
		if st.TimesKnown {
			c.TimeLimit = q
		}
		if st.FixedKnown {
			c.FixedLimit = q
		}
		if st.Crossing && c.Crossing == 0 {
			c.Crossing = q
		}
		if st.ByTime && c.ByTime == 0 {
			c.ByTime = q
		}
		if st.Fixed && c.Fixed == 0 {
			c.Fixed = q
		}
		c.Steps = append(c.Steps, st)
	}
	return c, nil
}

// measuredAt returns the run measured at work w, nil if none.
func measuredAt(runs []Point, w float64) *Point {
	for i := range runs {
		if runs[i].W == w {
			return &runs[i]
		}
	}
	return nil
}
