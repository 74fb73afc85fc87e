package render

import (
	"math"
	"math/rand"
	"strconv"
	"testing"
)

// TestAppendDecimalMatchesStrconv checks appendDecimal's fast path against
// strconv's correctly rounded formatting (what glibc's printf prints), on
// exact ties, negative zero, large values and random values.
func TestAppendDecimalMatchesStrconv(t *testing.T) {
	values := []float64{
		0, math.Copysign(0, -1), 0.005, 0.015, 0.045, 0.125, 0.375, 1.005, 2.5,
		99.995, 1e15, 1e20, 123456789.125, math.MaxFloat64, math.SmallestNonzeroFloat64,
	}
	r := rand.New(rand.NewSource(1))
	for range 20000 {
		values = append(values,
			r.Float64()*100,
			float64(r.Intn(100000))/1000,
			math.Exp(r.Float64()*80-40),
			float64(r.Intn(2000))*0.005,
		)
	}
	for _, v := range values {
		for _, x := range []float64{v, -v} {
			for prec := range 6 {
				want := strconv.FormatFloat(x, 'f', prec, 64)
				if got := string(appendDecimal(nil, x, prec)); got != want {
					t.Fatalf("appendDecimal(%v, %d) = %q, want %q", x, prec, got, want)
				}
			}
		}
	}
}
