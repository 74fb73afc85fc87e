package diff

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNoiseFollowsScaling checks the standard error of a scaled side: a
// Poisson count X of samples scaled by k has the standard deviation
// k*sqrt(X), so 100 samples at 100 Hz averaged over 4 runs (k = 1/4) give
// 0.25 * 10 / 100 = 0.025 s, against 0.1 s for the sum.
func TestNoiseFollowsScaling(t *testing.T) {
	cases := []struct {
		name          string
		plusK, minusK float64
		want          float64
	}{
		{"sums", 1, 1, math.Sqrt(100+400) / 100},
		{"means of 4 and 2 runs", 0.25, 0.5, math.Sqrt(0.25*0.25*100+0.5*0.5*400) / 100},
		{"'-' scaled to '+'", 1, 0.25, math.Sqrt(100+0.25*0.25*400) / 100},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Function{
				Plus:  Side{Samples: 100 * c.plusK, Scale: c.plusK},
				Minus: Side{Samples: 400 * c.minusK, Scale: c.minusK},
			}
			assert.InDelta(t, c.want, f.NoiseSE(100, 100), 1e-12)
		})
	}
}

func TestScaleCount(t *testing.T) {
	for _, c := range []struct {
		n    uint64
		k    float64
		want uint64
	}{{300, 1, 300}, {600, 0.5, 300}, {5, 0.5, 3}, {1, 2.75, 3}, {0, 3, 0}} {
		assert.Equal(t, c.want, scaleCount(c.n, c.k), "%d x %g", c.n, c.k)
	}
}
