package ranks

import (
	"encoding/binary"
	"slices"
)

// keptStore holds what a summary keeps of the ranks it records leanly
// (CollectOptions.KeepHeaviest unset), one row per rank: the rank's input
// (its label is the input's name, not copied), its total time and its time
// in the candidate regions. Each of these is a column of its own, held in
// the narrowest width that keeps every value exactly, so that a rank costs
// a few bytes per region rather than a record of its own.
type keptStore struct {
	inputs *Inputs // Collect's inputs, for the ranks' labels
	n      int     // rows
	input  column
	total  column
	// regions are the candidate regions (ascending) once chosen, and
	// values their columns, parallel to regions; hasRegions tells
	// whether they are chosen (there may be none).
	regions    []int32
	values     []column
	hasRegions bool
}

// add appends a row for the rank read from inputs[input] with this total
// time, its region times zero, and returns the row.
func (k *keptStore) add(input int, total uint64) int32 {
	row := k.n
	k.n++
	k.input.set(row, k.n, uint64(input))
	k.total.set(row, k.n, total)
	for j := range k.values {
		k.values[j].set(row, k.n, 0)
	}
	return int32(row)
}

// setRegions gives the store its candidate regions (once): every row
// reads zero in them until set.
func (k *keptStore) setRegions(regions []int32) {
	if k.hasRegions {
		return
	}
	k.regions, k.hasRegions = regions, true
	k.values = make([]column, len(regions))
	for j := range k.values {
		for row := range k.n {
			k.values[j].set(row, k.n, 0)
		}
	}
}

// region returns the position of region r among the store's regions.
func (k *keptStore) region(r int) (int, bool) {
	return slices.BinarySearch(k.regions, int32(r))
}

// column is a sequence of non-negative integers, in chunks of chunkLen
// values of width bytes each: the narrowest of 1, 2, 4 and 8 that holds
// every value, divided by FixedOne (shift 24) while every value is a
// whole number of samples.
type column struct {
	chunks [][]byte
	width  uint8
	shift  uint8
}

// chunkLen is the number of values in a chunk of a column: a column grows
// a chunk at a time, never copying what it holds unless it must widen.
const chunkLen = 1024

// wholeShift divides a time in whole samples by FixedOne.
const wholeShift = 24

// widthOf returns the bytes needed for x.
func widthOf(x uint64) uint8 {
	switch {
	case x < 1<<8:
		return 1
	case x < 1<<16:
		return 2
	case x < 1<<32:
		return 4
	}
	return 8
}

// roundWidth returns the narrowest width of 1, 2, 4 and 8 bytes that is
// at least w.
func roundWidth(w uint8) uint8 {
	switch {
	case w <= 1:
		return 1
	case w <= 2:
		return 2
	case w <= 4:
		return 4
	}
	return 8
}

// get returns value i.
func (c *column) get(i int) uint64 {
	b := c.chunks[i/chunkLen]
	k := i % chunkLen
	var x uint64
	switch c.width {
	case 1:
		x = uint64(b[k])
	case 2:
		x = uint64(binary.LittleEndian.Uint16(b[2*k:]))
	case 4:
		x = uint64(binary.LittleEndian.Uint32(b[4*k:]))
	default:
		x = binary.LittleEndian.Uint64(b[8*k:])
	}
	return x << c.shift
}

// set stores v as value i of a column of n values (i < n), widening the
// column if v needs it.
func (c *column) set(i, n int, v uint64) {
	if c.width == 0 {
		c.width, c.shift = 1, wholeShift
	}
	shift := c.shift
	if v&(1<<shift-1) != 0 {
		shift = 0
	}
	w := max(c.width, widthOf(v>>shift))
	if shift != c.shift {
		// Leaving whole samples, every value held grows by the shift.
		w = max(w, min(8, roundWidth(c.width+(c.shift-shift)/8)))
	}
	if w != c.width || shift != c.shift {
		c.recode(n, w, shift)
	}
	for len(c.chunks)*chunkLen < n {
		c.chunks = append(c.chunks, make([]byte, chunkLen*int(c.width)))
	}
	c.put(i, v>>c.shift)
}

// put writes x, already shifted, as value i.
func (c *column) put(i int, x uint64) {
	b := c.chunks[i/chunkLen]
	k := i % chunkLen
	switch c.width {
	case 1:
		b[k] = byte(x)
	case 2:
		binary.LittleEndian.PutUint16(b[2*k:], uint16(x))
	case 4:
		binary.LittleEndian.PutUint32(b[4*k:], uint32(x))
	default:
		binary.LittleEndian.PutUint64(b[8*k:], x)
	}
}

// recode rewrites the column's values, at most n, in the given width and
// shift.
func (c *column) recode(n int, width, shift uint8) {
	old := *c
	*c = column{width: width, shift: shift, chunks: make([][]byte, len(old.chunks))}
	for j := range c.chunks {
		c.chunks[j] = make([]byte, chunkLen*int(width))
	}
	for i := range min(n, len(old.chunks)*chunkLen) {
		c.put(i, old.get(i)>>shift)
	}
}
