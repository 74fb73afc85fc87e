package bfd

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestChunkList fills a list, empties it and fills it again: it holds the
// elements pushed, in order, in chunks of the sizes promised, and keeps
// its chunks when emptied.
func TestChunkList(t *testing.T) {
	tests := []struct {
		name        string
		first, then int // elements pushed before and after reset
		chunks      int // chunks allocated in the end
	}{
		{"empty", 0, 0, 0},
		{"one", 1, 0, 1},
		{"first chunk full", firstChunkLen, 0, 1},
		{"one past the first chunk", firstChunkLen + 1, 0, 2},
		// 32+64+...+4096 = 8160 in the first eight chunks, then 4096 each.
		{"past the largest chunk size", 8160 + 4096 + 1, 0, 10},
		// 32+64+...+2048 = 4064 in the first seven chunks.
		{"reused, shorter", 5000, 40, 8},
		{"reused, longer", 40, 5000, 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var l chunkList[int]
			fill := func(n int) {
				for i := range n {
					l.push(i * 3)
				}
				require.Equal(t, n, l.n)
				seen := 0
				for i, v := range l.all() {
					if i != seen || *v != i*3 || l.at(i) != v {
						t.Fatalf("element %d (the %dth seen) is %d at %p, want %d at %p", i, seen, *v, v, i*3, l.at(i))
					}
					seen++
				}
				require.Equal(t, n, seen, "elements seen")
				size := firstChunkLen
				for k, c := range l.parts() {
					if k < len(l.parts())-1 {
						assert.Equal(t, size, len(c), "chunk %d is full", k)
					}
					assert.Equal(t, size, cap(c), "chunk %d's size", k)
					size = min(2*size, maxChunkLen)
				}
			}
			fill(tc.first)
			if tc.then > 0 {
				l.reset()
				assert.Zero(t, l.n)
				for range l.all() {
					t.Fatal("an emptied list yields an element")
				}
				fill(tc.then)
			}
			assert.Equal(t, tc.chunks, len(l.chunks), "chunks allocated")
		})
	}
}
