package binfmt

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRoundTrip writes one value of each kind and reads them back; the
// header's bytes are checked against their definition.
func TestRoundTrip(t *testing.T) {
	w := &Writer{}
	w.Uint(300)
	w.Int(-2)
	w.Float(math.Pi)
	w.String("héllo")
	w.Bool(true)
	data := w.File("EGPTESTS", 7)
	assert.Equal(t, "EGPTESTS", string(data[:8]))
	assert.Equal(t, []byte{7, 0, 0, 0}, data[8:12], "version, little-endian")
	// 300 is two varint bytes (0xac 0x02), −2 zigzags to 3, a float is
	// 8 bytes, the string 1 + 6 bytes, the flag 1: 19 bytes.
	assert.Equal(t, []byte{19, 0, 0, 0, 0, 0, 0, 0}, data[12:20])
	assert.Equal(t, []byte{0xac, 0x02, 0x03}, data[24:27])

	r, err := Open(data, "f", "EGPTESTS", 7, "a test file")
	require.NoError(t, err)
	assert.Equal(t, uint64(300), r.Uint("a"))
	assert.Equal(t, int64(-2), r.Int("b"))
	assert.Equal(t, math.Pi, r.Float("c"))
	assert.Equal(t, "héllo", r.String("d"))
	assert.True(t, r.Bool("e"))
	assert.NoError(t, r.Finish())
	assert.Zero(t, r.Uint("past the end"))
	assert.ErrorContains(t, r.Err(), "f: offset 0x2b: truncated or too large in past the end")
}

// TestOpenRefuses checks each header problem.
func TestOpenRefuses(t *testing.T) {
	w := &Writer{}
	w.Uint(5)
	data := w.File("EGPTESTS", 1)
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"signature", append([]byte("EGPOTHER"), data[8:]...), `f: offset 0x0: not a test file (no "EGPTESTS" signature)`},
		{"version", w.File("EGPTESTS", 2), "f: offset 0x8: format version 2; this egprof reads version 1"},
		{"length", data[:len(data)-1], "f: offset 0xc: the header says 1 bytes of data, the file has 0"},
		{"checksum", append(append([]byte{}, data[:24]...), 6), "f: offset 0x14: checksum mismatch"},
	} {
		_, err := Open(tc.data, "f", "EGPTESTS", 1, "a test file")
		assert.ErrorContains(t, err, tc.want, tc.name)
	}
	r, err := Open(data, "f", "EGPTESTS", 1, "a test file")
	require.NoError(t, err)
	assert.Zero(t, r.Count("items", 2), "5 items of 2 bytes cannot follow in 0 bytes")
	assert.ErrorContains(t, r.Err(), "items 5 is more than the 0 bytes left can hold")
}

// TestFailAtAndBytes checks raw bytes, an error placed at an earlier
// field's offset, and an error that has no offset.
func TestFailAtAndBytes(t *testing.T) {
	w := &Writer{}
	w.Raw([]byte("abc"))
	w.Uint(9)
	r, err := Open(w.File("EGPTESTS", 1), "f", "EGPTESTS", 1, "a test file")
	require.NoError(t, err)
	assert.Equal(t, []byte("abc"), r.Bytes("name", 3))
	at := r.Offset()
	assert.Equal(t, HeaderSize+3, at)
	assert.Equal(t, uint64(9), r.Uint("count"))
	r.FailAt(at, "count %d is too large", 9)
	r.Fail("a later problem is not kept")
	assert.EqualError(t, r.Err(), "f: offset 0x1b: count 9 is too large")
	assert.Nil(t, r.Bytes("more", 1), "nothing is read after a problem")
	assert.EqualError(t, &FormatError{File: "f", Offset: -1, Msg: "ranks out of order"}, "f: ranks out of order")

	r, err = Open(w.File("EGPTESTS", 1), "f", "EGPTESTS", 1, "a test file")
	require.NoError(t, err)
	assert.Nil(t, r.Bytes("name", 5))
	assert.EqualError(t, r.Err(), "f: offset 0x18: truncated in name")
}
