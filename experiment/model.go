package experiment

import (
	"math"
	"strconv"
	"strings"
)

// Model is a fitted scaling model of a time in the performance-model
// normal form used by Extra-P: t(p, W) = C0 + C1 · p^I · log2(p)^J · W^K,
// where the constant C0 may be left out.
type Model struct {
	C0, C1  float64
	I, J, K float64
	// Terms is the number of coefficients: 1 for the constant alone or
	// the term alone (HasConst tells which), 2 for both.
	Terms    int
	HasConst bool
	// RelErr is the root mean square of the relative residuals
	// (t_fit − t)/t over the measured points.
	RelErr float64
	Points int  // measured points the model was fitted to
	OK     bool // false when too few points had a time
}

// At evaluates the model.
func (m *Model) At(p, w float64) float64 {
	return m.C0 + m.C1*term(p, w, m.I, m.J, m.K)
}

// GrowsAt reports whether the model's time increases with p at p (for
// the work the term's factor W^K takes).
func (m *Model) GrowsAt(p float64) bool {
	if !m.OK || m.Terms == 1 && m.HasConst || m.C1 <= 0 {
		return false
	}
	if m.J == 0 {
		return m.I > 0
	}
	// d/dp p^I·log2(p)^J has the sign of I·log2(p) + J/ln 2 (p > 1).
	return m.I*math.Log2(p)+m.J/math.Ln2 > 0
}

// String writes the model, e.g. "0.012 + 3.1e-05·p^1.5·log2(p)·W".
func (m *Model) String() string {
	if !m.OK {
		return "-"
	}
	var parts []string
	if m.HasConst {
		parts = append(parts, num(m.C0))
	}
	if m.Terms == 2 || !m.HasConst {
		t := num(m.C1)
		if m.I != 0 {
			t += "·p" + power(m.I)
		}
		if m.J != 0 {
			t += "·log2(p)" + power(m.J)
		}
		if m.K != 0 {
			t += "·W" + power(m.K)
		}
		parts = append(parts, t)
	}
	return strings.Join(parts, " + ")
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }

func power(e float64) string {
	if e == 1 {
		return ""
	}
	for _, f := range []struct {
		v float64
		s string
	}{{1. / 3, "1/3"}, {2. / 3, "2/3"}, {4. / 3, "4/3"}, {-1. / 3, "-1/3"}, {-2. / 3, "-2/3"}} {
		if math.Abs(e-f.v) < 1e-12 {
			return "^(" + f.s + ")"
		}
	}
	s := strconv.FormatFloat(e, 'g', -1, 64)
	if e < 0 {
		s = "(" + s + ")"
	}
	return "^" + s
}

func term(p, w, i, j, k float64) float64 {
	v := math.Pow(p, i)
	if j != 0 {
		v *= math.Pow(math.Log2(p), j)
	}
	if k != 0 {
		v *= math.Pow(w, k)
	}
	return v
}

// The exponents tried, simplest first (ties go to the first): Extra-P's
// set for p, extended with negative ones since a time can fall as
// processes are added; for the work, the degrees a problem size usually
// enters with.
var (
	pExponents = [...]float64{0, -1, 1, -2, 2, -1. / 2, 1. / 2, 3, -3. / 2, 3. / 2, -1. / 3, 1. / 3, -2. / 3, 2. / 3,
		-1. / 4, 1. / 4, -3. / 4, 3. / 4, 4. / 3, 5. / 4, 5. / 3, 7. / 4, 5. / 2}
	logExponents = [...]float64{0, 1, 2}
	wExponents   = [...]float64{0, 1. / 2, 2. / 3, 1, 3. / 2, 2, 3}
)

// Fit chooses the model of points' times among the normal forms: the
// constant alone, a single term C1·p^I·log2(p)^J·W^K, or the constant plus
// such a term (the work's exponent K only when varyW). Coefficients are
// found by least squares on the relative residuals (so short and long
// times weigh alike) and must not be negative; the chosen form minimises
// n·ln(RSS/n) + 2·k·ln(n), a Bayesian information criterion whose penalty
// for each extra coefficient is doubled, with ties going to fewer terms
// and smaller exponents. Points with no time are left out.
func Fit(points []Point, varyW bool) Model {
	var pts []Point
	for _, pt := range points {
		if pt.T > 0 && finite(pt.T) {
			pts = append(pts, pt)
		}
	}
	n := len(pts)
	if n == 0 {
		return Model{}
	}
	best := Model{}
	bestScore := math.Inf(1)
	consider := func(m Model) {
		if !m.OK {
			return
		}
		rss := 0.0
		for _, pt := range pts {
			r := (m.At(pt.P, pt.W) - pt.T) / pt.T
			rss += r * r
		}
		m.RelErr = math.Sqrt(rss / float64(n))
		m.Points = n
		score := float64(n)*math.Log(max(rss/float64(n), 1e-18)) + 2*float64(m.Terms)*math.Log(float64(max(n, 2)))
		if score < bestScore-1e-9 {
			best, bestScore = m, score
		}
	}
	// The constant: minimise Σ(1 − c/t)².
	su, su2 := 0.0, 0.0
	for _, pt := range pts {
		su += 1 / pt.T
		su2 += 1 / (pt.T * pt.T)
	}
	consider(Model{C0: su / su2, Terms: 1, HasConst: true, OK: true})
	ws := wExponents[:1]
	if varyW {
		ws = wExponents[:]
	}
	for _, k := range ws {
		for _, i := range pExponents {
			for _, j := range logExponents {
				if i == 0 && j == 0 && k == 0 {
					continue // the constant
				}
				consider(fitTerm(pts, i, j, k, false))
				if n >= 3 {
					consider(fitTerm(pts, i, j, k, true))
				}
			}
		}
	}
	return best
}

// fitTerm fits C1·x (and C0 when withConst) with x = p^i·log2(p)^j·W^k by
// least squares on the relative residuals.
func fitTerm(pts []Point, i, j, k float64, withConst bool) Model {
	// Residual r = (c0 + c1·x − t)/t = c0·u + c1·v − 1 with u = 1/t, v = x/t.
	var suu, suv, svv, su, sv float64
	nonzero := 0
	for _, pt := range pts {
		x := term(pt.P, pt.W, i, j, k)
		if !finite(x) {
			return Model{}
		}
		if x != 0 {
			nonzero++
		}
		u, v := 1/pt.T, x/pt.T
		suu += u * u
		suv += u * v
		svv += v * v
		su += u
		sv += v
	}
	if nonzero == 0 || svv == 0 {
		return Model{}
	}
	m := Model{I: i, J: j, K: k, OK: true}
	if !withConst {
		m.C1, m.Terms = sv/svv, 1
	} else {
		det := suu*svv - suv*suv
		if det <= 1e-12*suu*svv {
			return Model{} // the term is (nearly) a constant
		}
		m.C0 = (su*svv - sv*suv) / det
		m.C1 = (suu*sv - suv*su) / det
		m.Terms, m.HasConst = 2, true
	}
	if m.C0 < 0 || m.C1 <= 0 || !finite(m.C0) || !finite(m.C1) {
		return Model{}
	}
	return m
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Isospeed predicts psi(p, p') of SCALA's equation (1) from the model
// alone: the initial run's speed is W/(p·t(p, W)) and the scaled work W'
// solves W'/(p'·t(p', W')) = W/(p·t(p, W)), so that psi = p'·W/(p·W').
// With no work term (K = 0) the speed is proportional to the work and
// W' = W·p'·t(p')/(p·t(p)); otherwise W' is a root found on a geometric
// grid from W/10⁶ to W·10⁶ (200 points per decade) refined by bisection.
//
// Which root: ln of the speed, ln W − ln p − ln(C0 + c·W^K), is concave in
// ln W, its slope 1 − K·c·W^K/t falling from 1 to 1 − K. When K > 1 and
// C0 > 0 the speed therefore rises with the work while the constant
// dominates, peaks, then falls, and a speed below the peak is reached at
// two works. W' is the one on the initial run's side of the peak: where
// the speed rises with the work if it rises at (p, W), else where it
// falls. That is the root that follows W continuously from p' = p, where
// it is W itself (psi(p, p) = 1); the other lies where the fitted
// constant dominates, far from the measured works (TestIsospeedRootSide).
// ok is false when the model is not fitted or the speed is never reached
// on that side.
func (m *Model) Isospeed(p, w, to float64) Scaling {
	t0 := m.At(p, w)
	sc := Scaling{From: Point{P: p, W: w, T: t0}, To: to}
	if !m.OK || !(t0 > 0) {
		return sc
	}
	target := w / (p * t0)
	speedGap := func(x float64) float64 {
		t := m.At(to, x)
		if !(t > 0) {
			return math.NaN()
		}
		return math.Log(x/(to*t)) - math.Log(target)
	}
	var wp float64
	switch {
	case to == p:
		wp = w
	case m.K == 0 || m.Terms == 1 && m.HasConst:
		wp = target * to * m.At(to, w)
	default:
		const perDecade, decades = 200, 6
		// The sign the speed gap takes below the root on the initial
		// run's side of the peak: negative where the speed rises.
		below := -1.0
		if m.C1*m.K*term(p, w, m.I, m.J, m.K) > t0 {
			below = 1
		}
		lo := w * math.Pow(10, -decades)
		step := math.Pow(10, 1.0/perDecade)
		prev := speedGap(lo)
		found := false
		for k := 1; k <= 2*decades*perDecade && !found; k++ {
			hi := lo * step
			cur := speedGap(hi)
			switch {
			case prev*below <= 0:
				// not coming from the side this root is approached from
			case cur == 0:
				wp, found = hi, true
			case prev*cur < 0:
				a, b := lo, hi
				for range 100 {
					mid := math.Sqrt(a * b)
					if speedGap(mid)*prev > 0 {
						a = mid
					} else {
						b = mid
					}
				}
				wp, found = math.Sqrt(a*b), true
			}
			lo, prev = hi, cur
		}
		if !found {
			return sc
		}
	}
	if !(wp > 0) || !finite(wp) {
		return sc
	}
	sc.WPrime, sc.Psi, sc.OK = wp, to*w/(p*wp), true
	return sc
}

// PsiError is the error of a predicted psi against the measured one in
// percent of the measured, as SCALA's Table 2 prints it.
func PsiError(predicted, measured float64) float64 {
	return 100 * math.Abs(predicted-measured) / measured
}
