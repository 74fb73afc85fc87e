package render

import (
	"fmt"
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

// TestAppendNumbersMatchFmt checks the integer and fixed-point formatting
// against fmt's "%*d", "%-*d" and "%*.*f" (C's printf for these), on
// values around every power of ten and random ones, in several widths.
func TestAppendNumbersMatchFmt(t *testing.T) {
	uints := []uint64{0, 1, 9, math.MaxUint64, math.MaxUint64 - 1}
	for p := uint64(1); p <= 1e19; p *= 10 {
		uints = append(uints, p-1, p, p+1)
		if p > math.MaxUint64/10 {
			break
		}
	}
	r := rand.New(rand.NewSource(2))
	for range 5000 {
		uints = append(uints, r.Uint64(), r.Uint64()>>uint(r.Intn(64)))
	}
	for _, v := range uints {
		for _, w := range []int{0, 1, 7, 8, 25} {
			if got, want := string(appendUint(nil, v, w)), fmt.Sprintf("%*d", w, v); got != want {
				t.Fatalf("appendUint(%d, %d) = %q, want %q", v, w, got, want)
			}
			if got, want := string(appendUintLeft(nil, v, w)), fmt.Sprintf("%-*d", w, v); got != want {
				t.Fatalf("appendUintLeft(%d, %d) = %q, want %q", v, w, got, want)
			}
		}
	}
	floats := []float64{0, 0.004, 0.005, 0.5, 9.995, 99.99, 1e14 + 0.25, 1e15, 1e300}
	for range 5000 {
		floats = append(floats, float64(r.Uint64()>>uint(r.Intn(64)))/100, math.Exp(r.Float64()*60-30))
	}
	for _, v := range floats {
		for prec := range 6 {
			for _, w := range []int{0, 5, 7, 11} {
				if got, want := string(appendFixed(nil, v, w, prec)), fmt.Sprintf("%*.*f", w, prec, v); got != want {
					t.Fatalf("appendFixed(%v, %d, %d) = %q, want %q", v, w, prec, got, want)
				}
			}
		}
	}
}
