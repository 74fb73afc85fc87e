package ranks

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestColumn checks that a column gives back every value it was given,
// exactly, as it widens and leaves whole samples, across chunks.
func TestColumn(t *testing.T) {
	tests := []struct {
		name      string
		values    func(i int) uint64
		n         int
		width     uint8
		wholeOnly bool
	}{
		{"zeros", func(int) uint64 { return 0 }, 3, 1, true},
		{"whole samples below 256", func(i int) uint64 { return uint64(i%256) * FixedOne }, 2*chunkLen + 5, 1, true},
		{"whole samples, then more", func(i int) uint64 { return uint64(i) * 300 * FixedOne }, chunkLen + 1, 4, true},
		{"whole samples, then a fraction", func(i int) uint64 {
			if i == chunkLen {
				return 7
			}
			return uint64(i) * 1000 * FixedOne
		}, chunkLen + 1, 8, false},
		{"fractions", func(i int) uint64 { return uint64(i)*FixedOne/16 + uint64(i%7) }, chunkLen + 9, 4, false},
		{"one huge value last", func(i int) uint64 {
			if i == chunkLen {
				return 1 << 60
			}
			return uint64(i)
		}, chunkLen + 1, 8, false},
	}
	for _, tt := range tests {
		var c column
		for i := range tt.n {
			c.set(i, i+1, tt.values(i))
		}
		for i := range tt.n {
			if got := c.get(i); got != tt.values(i) {
				t.Fatalf("%s: value %d is %d, want %d", tt.name, i, got, tt.values(i))
			}
		}
		assert.Equal(t, tt.width, c.width, tt.name)
		assert.Equal(t, tt.wholeOnly, c.shift == wholeShift, tt.name)
	}
}

// TestColumnSetEarlier checks that a value set again, after later ones,
// replaces the first and leaves the others.
func TestColumnSetEarlier(t *testing.T) {
	var c column
	for i := range 10 {
		c.set(i, i+1, uint64(i)*FixedOne)
	}
	c.set(3, 10, 12345)
	for i := range 10 {
		want := uint64(i) * FixedOne
		if i == 3 {
			want = 12345
		}
		assert.Equal(t, want, c.get(i), "value %d", i)
	}
}
