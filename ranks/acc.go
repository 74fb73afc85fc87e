package ranks

import (
	"math"
	"math/big"
	"math/bits"
	"slices"
	"sort"
)

// constError is an error that can be a constant.
type constError string

// Error returns the message.
func (e constError) Error() string { return string(e) }

// errOverflow is returned when a sum no longer fits the accumulators; it
// takes far more samples or calls than any real job produces.
const errOverflow = constError("accumulator overflow: the sums of the profiles exceed 128 bits")

// u128 is an unsigned 128-bit integer. Sums and sums of squares are kept
// exactly in it, so that merging summaries is exact and the order in which
// ranks are folded in never changes a digit.
type u128 struct{ hi, lo uint64 }

// add returns a+b and whether the sum overflowed.
func (a u128) add(b u128) (u128, bool) {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, c2 := bits.Add64(a.hi, b.hi, c)
	return u128{hi, lo}, c2 != 0
}

// square returns v*v.
func square(v uint64) u128 {
	hi, lo := bits.Mul64(v, v)
	return u128{hi, lo}
}

// big returns a as a big.Int.
func (a u128) big() *big.Int {
	x := new(big.Int).SetUint64(a.hi)
	x.Lsh(x, 64)
	return x.Or(x, new(big.Int).SetUint64(a.lo))
}

// float returns a rounded to a float64.
func (a u128) float() float64 {
	return float64(a.hi)*(1<<64) + float64(a.lo)
}

// isZero reports whether a is zero.
func (a u128) isZero() bool { return a.hi == 0 && a.lo == 0 }

// Acc accumulates one non-negative integer quantity (time in fixed-point
// samples, or calls) over a set of ranks: how many ranks, how many of them
// non-zero, the exact sum and sum of squares, and the extremes with the
// lowest rank that reaches each. Every rank of a summary is folded into
// every Acc, zero or not, so the extremes count ranks that never ran the
// code. Its size does not depend on the number of ranks.
type Acc struct {
	N       uint64 // ranks folded in
	NonZero uint64 // ranks whose value is not zero
	sum     u128
	sumSq   u128
	Min     uint64
	MinRank int // lowest rank with the value Min
	Max     uint64
	MaxRank int // lowest rank with the value Max
}

// Add folds in the value v of rank r.
func (a *Acc) Add(r int, v uint64) error {
	var o1, o2 bool
	a.sum, o1 = a.sum.add(u128{0, v})
	a.sumSq, o2 = a.sumSq.add(square(v))
	if o1 || o2 {
		return errOverflow
	}
	if v != 0 {
		a.NonZero++
	}
	if a.N == 0 || v < a.Min || (v == a.Min && r < a.MinRank) {
		a.Min, a.MinRank = v, r
	}
	if a.N == 0 || v > a.Max || (v == a.Max && r < a.MaxRank) {
		a.Max, a.MaxRank = v, r
	}
	a.N++
	return nil
}

// Merge folds in another accumulator over a disjoint set of ranks. The
// result does not depend on the order of merges.
func (a *Acc) Merge(b *Acc) error {
	if b.N == 0 {
		return nil
	}
	if a.N == 0 {
		*a = *b
		return nil
	}
	var o1, o2 bool
	a.sum, o1 = a.sum.add(b.sum)
	a.sumSq, o2 = a.sumSq.add(b.sumSq)
	if o1 || o2 {
		return errOverflow
	}
	a.NonZero += b.NonZero
	if b.Min < a.Min || (b.Min == a.Min && b.MinRank < a.MinRank) {
		a.Min, a.MinRank = b.Min, b.MinRank
	}
	if b.Max > a.Max || (b.Max == a.Max && b.MaxRank < a.MaxRank) {
		a.Max, a.MaxRank = b.Max, b.MaxRank
	}
	a.N += b.N
	return nil
}

// Sum returns the sum of the values, rounded to a float64.
func (a *Acc) Sum() float64 { return a.sum.float() }

// Mean returns the mean value per rank (0 with no rank).
func (a *Acc) Mean() float64 {
	if a.N == 0 {
		return 0
	}
	return a.sum.float() / float64(a.N)
}

// spread returns N·Σv² − (Σv)², exactly: N² times the population variance.
// It is never negative (Cauchy–Schwarz).
func (a *Acc) spread() *big.Int {
	n := new(big.Int).SetUint64(a.N)
	s := a.sum.big()
	d := new(big.Int).Mul(n, a.sumSq.big())
	return d.Sub(d, s.Mul(s, s))
}

// Stdev returns the population standard deviation of the values.
func (a *Acc) Stdev() float64 {
	if a.N == 0 {
		return 0
	}
	return sqrtRatio(a.spread(), new(big.Int).Mul(new(big.Int).SetUint64(a.N), new(big.Int).SetUint64(a.N)))
}

// Dispersion returns the paper's index of dispersion of the values over
// the N ranks: the Euclidean distance between the standardised values
// v_p/Σv and their mean 1/N,
//
//	ID = sqrt(Σ_p (v_p/Σv − 1/N)²) = sqrt((N·Σv² − (Σv)²) / (N·(Σv)²)),
//
// computed from exact integers. It is undefined (ok false) when every
// value is zero.
func (a *Acc) Dispersion() (id float64, ok bool) {
	if a.N == 0 || a.sum.isZero() {
		return 0, false
	}
	s := a.sum.big()
	den := new(big.Int).Mul(s, s)
	den.Mul(den, new(big.Int).SetUint64(a.N))
	return sqrtRatio(a.spread(), den), true
}

// sqrtRatio returns sqrt(num/den) for num ≥ 0, den > 0.
func sqrtRatio(num, den *big.Int) float64 {
	if num.Sign() <= 0 {
		return 0
	}
	q := new(big.Float).SetPrec(128).SetInt(num)
	q.Quo(q, new(big.Float).SetPrec(128).SetInt(den))
	q.Sqrt(q)
	f, _ := q.Float64()
	return f
}

// Sketch is a mergeable histogram of the non-zero per-rank values of a
// region, in whole samples: values below 256 are kept exactly, larger
// ones in buckets of 8 significant bits, at most 0.8 % of the value wide,
// which is finer than the sampling noise of any count below 16,384
// samples. Its size grows with the spread of the values, not with the
// number of ranks. Zero values are not stored: they are N − NonZero of the
// accompanying Acc.
type Sketch struct {
	buckets []bucket // ascending keys
}

// bucket is one sketch bucket and how many ranks fell in it.
type bucket struct {
	key, count uint32
}

// sketchBits is the number of significant bits a bucket keeps.
const sketchBits = 8

// sketchKey returns the bucket of v > 0.
func sketchKey(v uint64) uint32 {
	const exact = 1 << sketchBits
	if v < exact {
		return uint32(v)
	}
	e := bits.Len64(v) - sketchBits // ≥ 1
	m := v >> e                     // exact/2 .. exact-1
	return exact + uint32(e-1)*(exact/2) + uint32(m-exact/2)
}

// bucketRange returns the smallest and largest value of bucket k.
func bucketRange(k uint32) (lo, hi uint64) {
	const exact = 1 << sketchBits
	if k < exact {
		return uint64(k), uint64(k)
	}
	e := int((k-exact)/(exact/2)) + 1
	m := uint64((k-exact)%(exact/2) + exact/2)
	lo = m << e
	return lo, lo + (1 << e) - 1
}

// maxSketchKey is the largest valid key (of the largest uint64).
const maxSketchKey = (1 << sketchBits) + (64-sketchBits-1)*(1<<(sketchBits-1)) + (1<<(sketchBits-1) - 1)

// sketchValue converts a fixed-point time to the whole samples a sketch
// holds: rounded, and at least 1 for a non-zero time.
func sketchValue(fixed uint64) uint64 {
	if fixed == 0 {
		return 0
	}
	return max(1, (fixed+FixedOne/2)/FixedOne)
}

// Add counts one rank with the value v (zero is ignored).
func (s *Sketch) Add(v uint64) {
	if v == 0 {
		return
	}
	s.addKey(sketchKey(v), 1)
}

// addKey adds n ranks to bucket k.
func (s *Sketch) addKey(k, n uint32) {
	i := sort.Search(len(s.buckets), func(i int) bool { return s.buckets[i].key >= k })
	if i < len(s.buckets) && s.buckets[i].key == k {
		s.buckets[i].count += n
		return
	}
	s.buckets = slices.Insert(s.buckets, i, bucket{k, n})
}

// Merge adds the counts of another sketch.
func (s *Sketch) Merge(o *Sketch) {
	if len(o.buckets) == 0 {
		return
	}
	out := make([]bucket, 0, len(s.buckets)+len(o.buckets))
	a, b := s.buckets, o.buckets
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || (len(a) > 0 && a[0].key < b[0].key):
			out = append(out, a[0])
			a = a[1:]
		case len(a) == 0 || b[0].key < a[0].key:
			out = append(out, b[0])
			b = b[1:]
		default:
			out = append(out, bucket{a[0].key, a[0].count + b[0].count})
			a, b = a[1:], b[1:]
		}
	}
	s.buckets = out
}

// Exact reports whether every value in the sketch is known exactly.
func (s *Sketch) Exact() bool {
	return len(s.buckets) == 0 || s.buckets[len(s.buckets)-1].key < 1<<sketchBits
}

// total returns the number of ranks in the sketch.
func (s *Sketch) total() uint64 {
	var n uint64
	for _, b := range s.buckets {
		n += uint64(b.count)
	}
	return n
}

// CountIn returns how many of the stored values lie in [lo, hi]. A bucket
// that straddles a bound counts by its midpoint, except the bucket of
// inside, a value known to be stored and to lie in [lo, hi] (the smallest
// or the largest value, for the shares of the lowest and highest part of
// the range): it always counts, so that a rank known to be in the range
// is never left out of it. An inside of 0 names no bucket.
func (s *Sketch) CountIn(lo, hi float64, inside uint64) uint64 {
	var n uint64
	keep := uint32(0)
	if inside > 0 {
		keep = sketchKey(inside)
	}
	for _, b := range s.buckets {
		blo, bhi := bucketRange(b.key)
		mid := (float64(blo) + float64(bhi)) / 2
		if (mid >= lo && mid <= hi) || b.key == keep {
			n += uint64(b.count)
		}
	}
	return n
}

// Quantiles returns the values at the given probabilities (0..1) among
// zeros zero values and the sketch's values, each a bucket midpoint.
func (s *Sketch) Quantiles(zeros uint64, probs ...float64) []float64 {
	total := zeros + s.total()
	out := make([]float64, len(probs))
	if total == 0 {
		return out
	}
	for i, p := range probs {
		// The value of rank order ceil(p·total) (1-based), at least 1.
		want := max(uint64(math.Ceil(p*float64(total))), 1)
		if want <= zeros {
			continue
		}
		seen := zeros
		for _, b := range s.buckets {
			seen += uint64(b.count)
			if seen >= want {
				lo, hi := bucketRange(b.key)
				out[i] = (float64(lo) + float64(hi)) / 2
				break
			}
		}
	}
	return out
}
