package ranks

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClusterFindsGroups(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	tests := []struct {
		name    string
		centres [][]float64
		sizes   []int
	}{
		{"two groups", [][]float64{{0, 0}, {5, 5}}, []int{30, 10}},
		{"three groups", [][]float64{{0, 0, 0}, {4, 0, 0}, {0, 4, 4}}, []int{10, 20, 15}},
		{"every fourth rank", [][]float64{{1.5, 1.5}, {-0.5, -0.5}}, []int{256, 768}},
	}
	for _, tt := range tests {
		var x [][]float64
		var want []int
		for g, c := range tt.centres {
			for range tt.sizes[g] {
				p := make([]float64, len(c))
				for j := range c {
					p[j] = c[j] + 0.1*(r.Float64()-0.5)
				}
				x = append(x, p)
				want = append(want, g)
			}
		}
		// Interleave the points so group numbers follow first appearance.
		perm := r.Perm(len(x))
		px := make([][]float64, len(x))
		pw := make([]int, len(x))
		for i, j := range perm {
			px[i], pw[i] = x[j], want[j]
		}
		cl := Cluster(px)
		require.Equal(t, len(tt.centres), cl.K, tt.name)
		// Same partition up to numbering: map found groups to true ones.
		m := map[uint8]int{}
		for i, a := range cl.Assign {
			if g, ok := m[a]; ok {
				assert.Equal(t, g, pw[i], tt.name)
			} else {
				m[a] = pw[i]
			}
		}
		assert.Equal(t, uint8(0), cl.Assign[0], "groups numbered by first point")
		assert.Greater(t, cl.Silhouette, 0.9, tt.name)
		// Deterministic.
		assert.Equal(t, cl, Cluster(px), tt.name)
	}
}

func TestClusterNoStructure(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	x := make([][]float64, 400)
	for i := range x {
		x[i] = make([]float64, 16)
		for j := range x[i] {
			x[i][j] = r.NormFloat64() * 0.05
		}
	}
	cl := Cluster(x)
	assert.Equal(t, 1, cl.K, "noise alone is one group")
	assert.Equal(t, 1, Cluster([][]float64{{1, 2}, {1, 2}, {1, 2}}).K, "identical points")
	assert.Equal(t, 1, Cluster([][]float64{{3}}).K)
	assert.Equal(t, 1, Cluster(nil).K)
}

func TestStandardize(t *testing.T) {
	z := Standardize([][]float64{{1, 5, 10}, {3, 5, 20}})
	assert.Equal(t, [][]float64{{-1, -1}, {1, 1}}, z, "the constant column is dropped")
	assert.Nil(t, Standardize(nil))
}
