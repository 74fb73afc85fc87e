package ranks

import (
	"cmp"
	"math"
	"slices"
)

// Clustering is a partition of points into groups with similar vectors.
type Clustering struct {
	K int
	// Assign gives each point's group, 0..K-1, groups numbered in the
	// order of their first point: a byte each, as there are at most
	// maxClusters groups.
	Assign []uint8
	// Centroids are the groups' mean vectors.
	Centroids [][]float64
	// Silhouette is the mean silhouette width of the partition chosen
	// (0 for a single group).
	Silhouette float64
}

// Clustering parameters: the partition with the widest mean silhouette is
// kept if that width reaches minSilhouette (below it, Kaufman and
// Rousseeuw find no substantial structure), else everything is one group. Silhouettes are
// computed on at most silhouetteSample evenly spaced points.
const (
	maxClusters      = 8
	minSilhouette    = 0.25
	silhouetteSample = 1000
	maxIterations    = 100
)

// Points are the points Cluster partitions, read one at a time: they
// need not all be held as vectors.
type Points interface {
	// Len is the number of points and Dim their number of coordinates.
	Len() int
	Dim() int
	// Point writes point i's coordinates to dst (Dim of them).
	Point(i int, dst []float64)
}

// rows are points held as vectors.
type rows [][]float64

func (x rows) Len() int { return len(x) }

func (x rows) Dim() int {
	if len(x) == 0 {
		return 0
	}
	return len(x[0])
}

func (x rows) Point(i int, dst []float64) { copy(dst, x[i]) }

// Cluster partitions the points with k-means for k = 2..8 (and below the
// number of points), keeping the k whose partition has the widest mean
// silhouette, or a single group when no partition shows a substantial
// structure. It is deterministic: the starting centres are chosen by
// farthest-point traversal from the point farthest from the mean.
func Cluster(x [][]float64) Clustering { return ClusterPoints(rows(x)) }

// ClusterPoints is Cluster over points read one at a time.
func ClusterPoints(x Points) Clustering {
	n := x.Len()
	single := Clustering{K: 1, Assign: make([]uint8, n)}
	if n > 0 {
		single.Centroids = [][]float64{mean(x, nil)}
	}
	best := single
	bestScore := math.Inf(-1)
	for k := 2; k <= min(maxClusters, n-1); k++ {
		assign, cent, ok := kmeans(x, k)
		if !ok {
			break // fewer distinct points than k
		}
		s := silhouette(x, assign, k)
		if s > bestScore+1e-12 {
			bestScore = s
			best = Clustering{K: k, Assign: assign, Centroids: cent, Silhouette: s}
		}
	}
	if bestScore < minSilhouette {
		return single
	}
	return renumber(best)
}

// renumber numbers the groups in the order of their first point.
func renumber(c Clustering) Clustering {
	newID := make([]int, c.K)
	for i := range newID {
		newID[i] = -1
	}
	next := 0
	for _, a := range c.Assign {
		if newID[a] < 0 {
			newID[a] = next
			next++
		}
	}
	cent := make([][]float64, c.K)
	for old, nw := range newID {
		if nw >= 0 {
			cent[nw] = c.Centroids[old]
		}
	}
	for i, a := range c.Assign {
		c.Assign[i] = uint8(newID[a])
	}
	c.Centroids = cent[:next]
	c.K = next
	return c
}

// dist2 returns the squared Euclidean distance.
func dist2(a, b []float64) float64 {
	var s float64
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return s
}

// mean returns the mean of the points selected by keep (all when nil).
func mean(x Points, keep func(int) bool) []float64 {
	if x.Len() == 0 {
		return nil
	}
	m := make([]float64, x.Dim())
	p := make([]float64, x.Dim())
	n := 0
	for i := range x.Len() {
		if keep != nil && !keep(i) {
			continue
		}
		n++
		x.Point(i, p)
		for j, v := range p {
			m[j] += v
		}
	}
	if n > 0 {
		for j := range m {
			m[j] /= float64(n)
		}
	}
	return m
}

// point returns point i as a new vector.
func point(x Points, i int) []float64 {
	p := make([]float64, x.Dim())
	x.Point(i, p)
	return p
}

// kmeans runs Lloyd's algorithm from farthest-point starting centres. ok
// is false when there are fewer than k distinct points. It keeps two
// bytes per point: its group, and while the centres are chosen, its
// nearest centre (its distance to it is computed again, not kept).
func kmeans(x Points, k int) (assign []uint8, cent [][]float64, ok bool) {
	n := x.Len()
	p := make([]float64, x.Dim())
	mu := mean(x, nil)
	first, far := 0, -1.0
	for i := range n {
		x.Point(i, p)
		if d := dist2(p, mu); d > far {
			first, far = i, d
		}
	}
	cent = [][]float64{point(x, first)}
	near := make([]uint8, n) // each point's nearest centre so far
	for len(cent) < k {
		// The point farthest from its nearest centre, the newest centre
		// included.
		pick, d := -1, 0.0
		last := len(cent) - 1
		for i := range n {
			x.Point(i, p)
			v := dist2(p, cent[near[i]])
			if last > 0 {
				if dq := dist2(p, cent[last]); dq < v {
					v, near[i] = dq, uint8(last)
				}
			}
			if v > d {
				pick, d = i, v
			}
		}
		if pick < 0 {
			return nil, nil, false
		}
		cent = append(cent, point(x, pick))
	}
	const unassigned = maxClusters // no group yet
	assign = make([]uint8, n)
	for i := range assign {
		assign[i] = unassigned
	}
	sums := make([][]float64, k)
	members := make([]int, k)
	for range maxIterations {
		changed := false
		for i := range n {
			x.Point(i, p)
			best, bd := 0, math.Inf(1)
			for c, q := range cent {
				if d := dist2(p, q); d < bd {
					best, bd = c, d
				}
			}
			if int(assign[i]) != best {
				assign[i] = uint8(best)
				changed = true
			}
		}
		if !changed {
			break
		}
		clear(members)
		for _, a := range assign {
			members[a]++
		}
		if slices.Contains(members, 0) {
			// A group is empty: restart it, then move the others, one
			// after the other, as each restart changes the groups.
			for c := range cent {
				if countIn(assign, c) == 0 {
					// Restart an empty group at the point worst served.
					worst, wd := 0, -1.0
					for i := range n {
						x.Point(i, p)
						if d := dist2(p, cent[assign[i]]); d > wd {
							worst, wd = i, d
						}
					}
					cent[c] = point(x, worst)
					assign[worst] = uint8(c)
					continue
				}
				cent[c] = mean(x, func(i int) bool { return int(assign[i]) == c })
			}
			continue
		}
		// Every group's mean in one pass, each summed in point order as
		// mean sums it.
		for c := range sums {
			sums[c] = make([]float64, x.Dim())
		}
		for i := range n {
			x.Point(i, p)
			m := sums[assign[i]]
			for j, v := range p {
				m[j] += v
			}
		}
		for c, m := range sums {
			for j := range m {
				m[j] /= float64(members[c])
			}
			cent[c] = m
		}
	}
	return assign, cent, true
}

// countIn returns how many points assign puts in group c.
func countIn(assign []uint8, c int) int {
	n := 0
	for _, a := range assign {
		if int(a) == c {
			n++
		}
	}
	return n
}

// silhouette returns the mean silhouette width of the partition over an
// evenly spaced sample of at most silhouetteSample points; a point alone
// in its group scores 0.
func silhouette(x Points, assign []uint8, k int) float64 {
	n := x.Len()
	stride := max(1, (n+silhouetteSample-1)/silhouetteSample)
	var sample []int
	var pts [][]float64
	for i := 0; i < n; i += stride {
		sample = append(sample, i)
		pts = append(pts, point(x, i))
	}
	sizes := make([]int, k)
	for _, i := range sample {
		sizes[assign[i]]++
	}
	var total float64
	sums := make([]float64, k)
	for si, i := range sample {
		clear(sums)
		for sj, j := range sample {
			if i != j {
				sums[assign[j]] += math.Sqrt(dist2(pts[si], pts[sj]))
			}
		}
		own := int(assign[i])
		if sizes[own] <= 1 {
			continue
		}
		a := sums[own] / float64(sizes[own]-1)
		b := math.Inf(1)
		for c := range k {
			if c != own && sizes[c] > 0 {
				b = min(b, sums[c]/float64(sizes[c]))
			}
		}
		if math.IsInf(b, 1) {
			continue
		}
		if m := max(a, b); m > 0 {
			total += (b - a) / m
		}
	}
	return total / float64(len(sample))
}

// groupMembers lists the points of each group, in point order.
func groupMembers(c Clustering) [][]int {
	out := make([][]int, c.K)
	for i, a := range c.Assign {
		out[a] = append(out[a], i)
	}
	for _, m := range out {
		slices.SortFunc(m, cmp.Compare[int])
	}
	return out
}

// Standardize returns the points with each coordinate turned into its
// z-score (minus the mean, over the population standard deviation), so
// that every coordinate weighs the same in distances. A coordinate with no
// spread is dropped.
func Standardize(x [][]float64) [][]float64 {
	if len(x) == 0 {
		return nil
	}
	dims := len(x[0])
	mu := mean(rows(x), nil)
	var keep []int
	var sd []float64
	for j := range dims {
		var v float64
		for _, p := range x {
			v += (p[j] - mu[j]) * (p[j] - mu[j])
		}
		if s := math.Sqrt(v / float64(len(x))); s > 0 {
			keep = append(keep, j)
			sd = append(sd, s)
		}
	}
	out := make([][]float64, len(x))
	for i, p := range x {
		out[i] = make([]float64, len(keep))
		for k, j := range keep {
			out[i][k] = (p[j] - mu[j]) / sd[k]
		}
	}
	return out
}
