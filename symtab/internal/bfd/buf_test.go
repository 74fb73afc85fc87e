package bfd

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestBufReads checks each reader on hand-assembled bytes, including the
// sticky error: after the first short read every read yields zero and the
// cursor stays at the end.
func TestBufReads(t *testing.T) {
	cases := []struct {
		name    string
		order   binary.ByteOrder
		data    []byte
		read    func(b *buf) []uint64
		want    []uint64
		wantOff int
		wantErr bool
	}{
		{"u16 little", binary.LittleEndian, []byte{0x34, 0x12}, func(b *buf) []uint64 { return []uint64{b.u16()} }, []uint64{0x1234}, 2, false},
		{"u32 big", binary.BigEndian, []byte{1, 2, 3, 4}, func(b *buf) []uint64 { return []uint64{b.u32()} }, []uint64{0x01020304}, 4, false},
		{"u24 little", binary.LittleEndian, []byte{0x56, 0x34, 0x12}, func(b *buf) []uint64 { return []uint64{b.u24()} }, []uint64{0x123456}, 3, false},
		{"u24 big", binary.BigEndian, []byte{0x12, 0x34, 0x56}, func(b *buf) []uint64 { return []uint64{b.u24()} }, []uint64{0x123456}, 3, false},
		// 624485 = 0xe5 0x8e 0x26 (the DWARF standard's example).
		{"uleb", binary.LittleEndian, []byte{0xe5, 0x8e, 0x26, 0x7f}, func(b *buf) []uint64 { return []uint64{b.uleb(), b.sleb()} }, []uint64{624485, ^uint64(0)}, 4, false},
		{"sleb -128", binary.LittleEndian, []byte{0x80, 0x7f}, func(b *buf) []uint64 { return []uint64{b.sleb()} }, []uint64{^uint64(127)}, 2, false},
		{"unterminated leb", binary.LittleEndian, []byte{0x81, 0x81}, func(b *buf) []uint64 { return []uint64{b.uleb(), b.u8()} }, []uint64{0x81, 0}, 2, true},
		{"short u32 then u8", binary.LittleEndian, []byte{1, 2, 3}, func(b *buf) []uint64 { return []uint64{b.u32(), b.u8()} }, []uint64{0, 0}, 3, true},
		{"u8 after short skip", binary.LittleEndian, []byte{1, 2, 3}, func(b *buf) []uint64 { b.skip(4); return []uint64{b.u8()} }, []uint64{0}, 3, true},
		{"skip to the end", binary.LittleEndian, []byte{1, 2, 3}, func(b *buf) []uint64 { b.skip(3); return nil }, nil, 3, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := makeBuf(tc.order, tc.data, 0, len(tc.data))
			assert.Equal(t, tc.want, tc.read(&b))
			assert.Equal(t, tc.wantOff, b.off)
			assert.Equal(t, tc.wantErr, b.err != nil)
		})
	}
}

// TestBufCString checks inline strings: an empty one and an unterminated
// one are absent, as BFD's read_string makes them NULL.
func TestBufCString(t *testing.T) {
	data := []byte("ab\x00\x00cd")
	b := makeBuf(binary.LittleEndian, data, 0, len(data))
	assert.Equal(t, optString{s: "ab", has: true}, b.cstring())
	assert.Equal(t, optString{}, b.cstring())
	assert.Equal(t, 4, b.off)
	assert.Equal(t, optString{}, b.cstring())
	assert.Equal(t, len(data), b.off)
	assert.Error(t, b.err)
}

// TestBufRegion checks that reads stop at the region's end, not the
// data's.
func TestBufRegion(t *testing.T) {
	data := []byte{1, 2, 3, 4, 5, 6}
	b := makeBuf(binary.BigEndian, data, 2, 4)
	assert.Equal(t, uint64(0x0304), b.u16())
	assert.True(t, b.atEnd())
	assert.Equal(t, uint64(0), b.u8())
	assert.Equal(t, 4, b.off)
}

// makeBuf returns a cursor at off over data[:end] (Lines.cursor's, for a
// byte order given here).
func makeBuf(order binary.ByteOrder, data []byte, off, end int) buf {
	return buf{big: order == binary.BigEndian, data: data, off: off, end: end}
}
