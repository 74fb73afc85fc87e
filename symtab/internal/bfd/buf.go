package bfd

import (
	"encoding/binary"
	"errors"
)

// errShort is the error of a read that runs past the end of the readable
// region.
var errShort = errors.New("read past the end of the data")

// buf is a cursor over one region of a debug section, like debug/dwarf's
// buf. Positions are offsets into the whole section, so that references
// between DIEs and units can be followed; the region ends at end.
//
// Like BFD's readers, a buf never stops its caller: a read that does not fit
// moves the cursor to the end, records the first such error in err and
// yields zero, and so does every later read.
type buf struct {
	big  bool // the section is big-endian (else little-endian)
	data []byte
	off  int
	end  int
	err  error
}

// fail records a short read and moves the cursor to the end.
func (b *buf) fail() {
	if b.err == nil {
		b.err = errShort
	}
	b.off = b.end
}

// remaining returns the number of bytes left before the end.
func (b *buf) remaining() int { return b.end - b.off }

// atEnd reports whether nothing is left to read.
func (b *buf) atEnd() bool { return b.off >= b.end }

// uint reads an unsigned value of n bytes (1, 2, 4 or 8).
func (b *buf) uint(n int) uint64 {
	switch n {
	case 1:
		return b.u8()
	case 2:
		return b.u16()
	case 4:
		return b.u32()
	default:
		return b.u64()
	}
}

// The readers of each size are separate small functions, so that the
// compiler inlines them into the decoding loops.

// take returns the next n bytes, or nil (and a failure) when they do not
// fit.
func (b *buf) take(n int) []byte {
	if b.err != nil || b.end-b.off < n {
		b.fail()
		return nil
	}
	b.off += n
	return b.data[b.off-n : b.off]
}

func (b *buf) u8() uint64 {
	if v := b.take(1); v != nil {
		return uint64(v[0])
	}
	return 0
}

func (b *buf) u16() uint64 {
	v := b.take(2)
	switch {
	case v == nil:
		return 0
	case b.big:
		return uint64(binary.BigEndian.Uint16(v))
	}
	return uint64(binary.LittleEndian.Uint16(v))
}

func (b *buf) u32() uint64 {
	v := b.take(4)
	switch {
	case v == nil:
		return 0
	case b.big:
		return uint64(binary.BigEndian.Uint32(v))
	}
	return uint64(binary.LittleEndian.Uint32(v))
}

func (b *buf) u64() uint64 {
	v := b.take(8)
	switch {
	case v == nil:
		return 0
	case b.big:
		return binary.BigEndian.Uint64(v)
	}
	return binary.LittleEndian.Uint64(v)
}

// u24 reads a 3-byte value (DW_FORM_strx3/addrx3) one byte at a time, as
// BFD's read_3_bytes does.
func (b *buf) u24() uint64 {
	v := b.u8()<<16 | b.u8()<<8 | b.u8()
	if !b.big {
		v = (v>>16)&0xff | v&0xff00 | (v&0xff)<<16
	}
	return v
}

// leb reads a LEB128 number (read_leb128); bits beyond 64 are dropped.
func (b *buf) leb(signed bool) uint64 {
	if b.err == nil && b.off < b.end {
		// Most numbers fit in one byte.
		if c := b.data[b.off]; c&0x80 == 0 {
			b.off++
			v := uint64(c)
			if signed && c&0x40 != 0 {
				v |= ^uint64(0x7f)
			}
			return v
		}
	}
	var result uint64
	var shift uint
	var c byte
	done := false
	for b.err == nil && b.off < b.end {
		c = b.data[b.off]
		b.off++
		if shift < 64 {
			result |= uint64(c&0x7f) << shift
			shift += 7
		}
		if c&0x80 == 0 {
			done = true
			break
		}
	}
	if !done {
		b.fail()
	}
	if signed && shift < 64 && c&0x40 != 0 {
		result |= ^uint64(0) << shift
	}
	return result
}

func (b *buf) uleb() uint64 { return b.leb(false) }
func (b *buf) sleb() uint64 { return b.leb(true) }

// cstring reads an inline NUL-terminated string; an empty or unterminated
// string is absent.
func (b *buf) cstring() optString {
	if b.err != nil {
		return optString{}
	}
	start := b.off
	for i := start; i < b.end; i++ {
		if b.data[i] == 0 {
			b.off = i + 1
			if i == start {
				return optString{}
			}
			return optString{s: sectionString(b.data[start:i]), has: true}
		}
	}
	b.fail()
	return optString{}
}

// skipCString steps over an inline NUL-terminated string, as cstring does,
// without copying it.
func (b *buf) skipCString() {
	if b.err != nil {
		return
	}
	for i := b.off; i < b.end; i++ {
		if b.data[i] == 0 {
			b.off = i + 1
			return
		}
	}
	b.fail()
}

// skip steps over n bytes, or fails when they do not fit.
func (b *buf) skip(n uint64) {
	if b.err != nil || n > uint64(b.end-b.off) {
		b.fail()
		return
	}
	b.off += int(n)
}
