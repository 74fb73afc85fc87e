package ranks

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// directID is the paper's index of dispersion computed the obvious way
// in floating point: standardise, subtract the mean 1/P, take the norm.
func directID(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	var d float64
	for _, x := range v {
		e := x/s - 1/float64(len(v))
		d += e * e
	}
	return math.Sqrt(d)
}

func TestAccDispersionAgainstDirect(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	tests := []struct {
		name string
		v    []uint64
	}{
		{"balanced", []uint64{5, 5, 5, 5}},
		{"one rank does all", []uint64{0, 0, 0, 12}},
		{"ramp", []uint64{1, 2, 3, 4}},
		{"two ranks", []uint64{7, 3}},
		{"single rank", []uint64{9}},
		{"large values", []uint64{1 << 40, 3 << 39, 1 << 41, 5}},
	}
	for range 20 {
		n := 1 + r.IntN(300)
		v := make([]uint64, n)
		for i := range v {
			if r.IntN(5) > 0 {
				v[i] = r.Uint64N(1 << 30)
			}
		}
		v[0]++
		tests = append(tests, struct {
			name string
			v    []uint64
		}{"random", v})
	}
	for _, tt := range tests {
		var a Acc
		f := make([]float64, len(tt.v))
		for i, x := range tt.v {
			require.NoError(t, a.Add(i, x))
			f[i] = float64(x)
		}
		id, ok := a.Dispersion()
		require.True(t, ok, tt.name)
		assert.InDelta(t, directID(f), id, 1e-9, tt.name)
		// Population standard deviation and the mean.
		var mean, sq float64
		for _, x := range f {
			mean += x
		}
		mean /= float64(len(f))
		for _, x := range f {
			sq += (x - mean) * (x - mean)
		}
		assert.InDelta(t, math.Sqrt(sq/float64(len(f))), a.Stdev(), 1e-9*math.Max(1, mean), tt.name)
		assert.InDelta(t, mean, a.Mean(), 1e-9*math.Max(1, mean), tt.name)
		assert.Equal(t, slices.Min(tt.v), a.Min, tt.name)
		assert.Equal(t, slices.Max(tt.v), a.Max, tt.name)
		assert.Equal(t, slices.Index(tt.v, a.Min), a.MinRank, tt.name)
		assert.Equal(t, slices.Index(tt.v, a.Max), a.MaxRank, tt.name)
	}
}

func TestAccBalancedIsExactlyZero(t *testing.T) {
	var a Acc
	for p := range 1000 {
		require.NoError(t, a.Add(p, 123456789))
	}
	id, ok := a.Dispersion()
	require.True(t, ok)
	assert.Equal(t, 0.0, id)
	assert.Equal(t, 0.0, a.Stdev())
}

func TestAccUndefinedAndOverflow(t *testing.T) {
	var a Acc
	require.NoError(t, a.Add(0, 0))
	require.NoError(t, a.Add(1, 0))
	_, ok := a.Dispersion()
	assert.False(t, ok, "all zero: undefined")

	// (2^64-1)^2 fills 128 bits: a second such square overflows.
	var b Acc
	require.NoError(t, b.Add(0, math.MaxUint64))
	err := b.Add(1, math.MaxUint64)
	assert.ErrorIs(t, err, errOverflow)
}

func TestSketchBuckets(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	vals := []uint64{1, 2, 255, 256, 257, 511, 512, 1000, 1 << 20, math.MaxUint64}
	for range 1000 {
		vals = append(vals, 1+r.Uint64N(1<<uint(1+r.IntN(62))))
	}
	for _, v := range vals {
		k := sketchKey(v)
		lo, hi := bucketRange(k)
		require.LessOrEqual(t, lo, v, "%d", v)
		require.GreaterOrEqual(t, hi, v, "%d", v)
		require.LessOrEqual(t, k, uint32(maxSketchKey))
		if v < 256 {
			assert.Equal(t, lo, hi, "exact below 256")
		} else {
			assert.LessOrEqual(t, float64(hi-lo+1)/float64(lo), 1.0/128+1e-12, "bucket of %d", v)
		}
		if v > 1 {
			assert.LessOrEqual(t, sketchKey(v-1), k, "keys grow with values")
		}
	}
	assert.Equal(t, uint32(maxSketchKey), sketchKey(math.MaxUint64))
}

// TestSketchCountsTheExtremes draws ranks' sample counts of every size and
// checks that the shares of the lowest and highest 15% of the range count
// the ranks at the minimum and at the maximum, and equal a direct count
// whenever every count is exact.
func TestSketchCountsTheExtremes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 13))
	for trial := range 2000 {
		// Counts near one another, as ranks doing the same work have:
		// the spread is at most a few of the sketch's bucket widths.
		n := 2 + rng.IntN(40)
		base := uint64(1) << rng.IntN(20)
		spread := 1 + rng.Uint64N(max(base/32, 2))
		vals := make([]uint64, n)
		var s Sketch
		for i := range vals {
			vals[i] = base + rng.Uint64N(spread+1)
			s.Add(vals[i])
		}
		lo, hi := slices.Min(vals), slices.Max(vals)
		if lo == hi {
			continue
		}
		span := float64(hi - lo)
		var low, high uint64
		for _, v := range vals {
			if float64(v) <= float64(lo)+0.15*span {
				low++
			}
			if float64(v) >= float64(hi)-0.15*span {
				high++
			}
		}
		gotLow := s.CountIn(0, float64(lo)+0.15*span, lo)
		gotHigh := s.CountIn(float64(hi)-0.15*span, math.Inf(1), hi)
		require.GreaterOrEqual(t, gotLow, uint64(1), "trial %d: %v", trial, vals)
		require.GreaterOrEqual(t, gotHigh, uint64(1), "trial %d: %v", trial, vals)
		if s.Exact() {
			require.Equal(t, low, gotLow, "trial %d: %v", trial, vals)
			require.Equal(t, high, gotHigh, "trial %d: %v", trial, vals)
		}
	}
}

func TestSketchCountsAndQuantiles(t *testing.T) {
	var s Sketch
	for _, v := range []uint64{10, 20, 20, 30, 40, 0} {
		s.Add(v)
	}
	assert.True(t, s.Exact())
	assert.Equal(t, uint64(5), s.total())
	assert.Equal(t, uint64(3), s.CountIn(0, 20, 0))
	assert.Equal(t, uint64(2), s.CountIn(25, math.Inf(1), 0))
	// With two zeros: 0 0 10 20 20 30 40; nearest rank ceil(p*7).
	q := s.Quantiles(2, 0, 0.25, 0.3, 0.5, 1)
	assert.Equal(t, []float64{0, 0, 10, 20, 40}, q)

	// Above 256 samples a bucket is 2^e wide. Two ranks at 1424 and 1436
	// samples (ScaLAPACK's dgemm_ in one run): the lowest 15% of the range
	// ends at 1425.8, below the midpoint of 1424's bucket [1424, 1431], yet
	// the rank at the minimum is in it, as the one at the maximum is in the
	// highest 15%.
	var wide Sketch
	wide.Add(1424)
	wide.Add(1436)
	assert.False(t, wide.Exact())
	assert.Equal(t, uint64(0), wide.CountIn(0, 1424+0.15*12, 0), "by midpoints alone")
	assert.Equal(t, uint64(1), wide.CountIn(0, 1424+0.15*12, 1424))
	assert.Equal(t, uint64(1), wide.CountIn(1436-0.15*12, math.Inf(1), 1436))

	var big Sketch
	big.Add(100000)
	assert.False(t, big.Exact())
	var m Sketch
	m.Merge(&s)
	m.Merge(&big)
	assert.Equal(t, uint64(6), m.total())
}
