package progen

// rng is a small deterministic pseudo-random generator (SplitMix64). The
// package uses it instead of math/rand so that a seed gives the same program
// and the same synthetic profile with every Go release.
type rng struct{ state uint64 }

// newRNG returns a generator for seed. Different streams give independent
// sequences for the same seed.
func newRNG(seed int64, stream uint64) *rng {
	r := &rng{state: uint64(seed) ^ (stream+1)*0xd1b54a32d192ed03}
	r.next()
	return r
}

// next returns the next 64 random bits.
func (r *rng) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// intn returns a number in [0, n). n must be positive.
func (r *rng) intn(n int) int {
	if n <= 0 {
		panic("progen: intn with non-positive bound")
	}
	return int(r.next() % uint64(n))
}

// between returns a number in [lo, hi]; it returns lo when hi < lo.
func (r *rng) between(lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + r.intn(hi-lo+1)
}

// between64 is between for int64 bounds.
func (r *rng) between64(lo, hi int64) int64 {
	if hi <= lo {
		return lo
	}
	return lo + int64(r.next()%uint64(hi-lo+1))
}

// float returns a number in [0, 1).
func (r *rng) float() float64 {
	return float64(r.next()>>11) / (1 << 53)
}

// chance reports true with probability p.
func (r *rng) chance(p float64) bool {
	return r.float() < p
}

// shuffle permutes the first n elements with swap.
func (r *rng) shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, r.intn(i+1))
	}
}

// pick returns a random element of s, which must not be empty.
func pick[T any](r *rng, s []T) T {
	return s[r.intn(len(s))]
}
