package gmon

import "encoding/binary"

// Layout constants shared by the reader and the writers.
const (
	gnuMagic      = "gmon"
	gnuVersion    = 1
	gnuHeaderSize = 20 // cookie, version, 12 spare bytes

	tagHist = 0
	tagArc  = 1
	tagBB   = 2

	dimenLen = 15

	// bsd44Version is the word after ncnt that marks a 4.4BSD header.
	bsd44Version = 0x00051879
	// bsdHertz is what gprof's hertz() returns on Linux
	// (sysconf(_SC_CLK_TCK)); old BSD files take their rate from it.
	bsdHertz = 100

	// v0BlockMin is the smallest version-0 basic-block entry: an 8-byte
	// count, an 8-byte address, two empty NUL-terminated strings and a
	// 4-byte line number.
	v0BlockMin = 8 + 8 + 1 + 1 + 4
)

// gnuHistHeaderSize is the size of a tag-0 record after its tag byte.
func gnuHistHeaderSize(ptr int) int { return 2*ptr + 4 + 4 + dimenLen + 1 }

// gnuArcSize is the size of a tag-1 record after its tag byte.
func gnuArcSize(ptr int) int { return 2*ptr + 4 }

// bsdHeaderSize is the size of an old BSD (12 or 20 bytes) or 4.4BSD
// (32 or 40 bytes) header for the given address width.
func bsdHeaderSize(ptr int, bsd44 bool) int {
	if bsd44 {
		return 2*ptr + 4 + 4 + 4 + 12
	}
	return 2*ptr + 4
}

// decoder reads fixed-width fields in the target's byte order. It keeps a
// flag rather than the binary.ByteOrder interface so that the hot loops
// make direct, inlinable calls.
type decoder struct {
	big bool
	ptr int
}

func newDecoder(t Target) decoder {
	return decoder{big: isBigEndian(t.Order), ptr: t.AddrSize}
}

func (d decoder) u32(b []byte) uint32 {
	if d.big {
		return binary.BigEndian.Uint32(b)
	}
	return binary.LittleEndian.Uint32(b)
}

func (d decoder) u64(b []byte) uint64 {
	if d.big {
		return binary.BigEndian.Uint64(b)
	}
	return binary.LittleEndian.Uint64(b)
}

// addr reads a pointer-sized value. 32-bit values are zero-extended: gprof
// sign-extends only for back ends that ask for it (MIPS), which a Target
// cannot express; x86, ARM and the rest are unsigned.
func (d decoder) addr(b []byte) uint64 {
	if d.ptr == 4 {
		return uint64(d.u32(b))
	}
	return d.u64(b)
}

// bins decodes n 16-bit counters from b, which holds at least 2*n bytes.
func (d decoder) bins(b []byte, n int) []uint16 { return d.binsInto(nil, b, n) }

// binsInto is bins decoding into dst's storage when it is large enough.
func (d decoder) binsInto(dst []uint16, b []byte, n int) []uint16 {
	out := dst[:0]
	if cap(out) >= n {
		out = out[:n]
	} else {
		out = make([]uint16, n)
	}
	b = b[:2*n]
	if d.big {
		for i := range out {
			out[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		}
	} else {
		for i := range out {
			out[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
		}
	}
	return out
}

// encoder appends fixed-width fields in the target's byte order.
type encoder struct {
	big bool
	ptr int
	buf []byte
}

func newEncoder(t Target, sizeHint int) *encoder {
	return &encoder{big: isBigEndian(t.Order), ptr: t.AddrSize, buf: make([]byte, 0, sizeHint)}
}

func (e *encoder) u8(v byte) { e.buf = append(e.buf, v) }

func (e *encoder) raw(b []byte) { e.buf = append(e.buf, b...) }

func (e *encoder) u16(v uint16) {
	if e.big {
		e.buf = binary.BigEndian.AppendUint16(e.buf, v)
	} else {
		e.buf = binary.LittleEndian.AppendUint16(e.buf, v)
	}
}

func (e *encoder) u32(v uint32) {
	if e.big {
		e.buf = binary.BigEndian.AppendUint32(e.buf, v)
	} else {
		e.buf = binary.LittleEndian.AppendUint32(e.buf, v)
	}
}

func (e *encoder) u64(v uint64) {
	if e.big {
		e.buf = binary.BigEndian.AppendUint64(e.buf, v)
	} else {
		e.buf = binary.LittleEndian.AppendUint64(e.buf, v)
	}
}

// addr writes a pointer-sized value, truncating to 32 bits on 32-bit
// targets as gprof does.
func (e *encoder) addr(v uint64) {
	if e.ptr == 4 {
		e.u32(uint32(v))
	} else {
		e.u64(v)
	}
}

// gnuHeader writes the 20-byte GNU header with the given spare bytes.
func (e *encoder) gnuHeader(version uint32, spare [12]byte) {
	e.raw([]byte(gnuMagic))
	e.u32(version)
	e.raw(spare[:])
}

// histRecord writes a tag-0 record. Counters wider than 16 bits are cut
// to their low 16 bits by the caller.
func (e *encoder) histRecord(lo, hi uint64, rate uint32, dimen [dimenLen]byte, abbrev byte, n int, bin func(i int) uint16) {
	e.u8(tagHist)
	e.addr(lo)
	e.addr(hi)
	e.u32(uint32(n))
	e.u32(rate)
	e.raw(dimen[:])
	e.u8(abbrev)
	for i := range n {
		e.u16(bin(i))
	}
}

// arcRecord writes a tag-1 record; the count is cut to 32 bits.
func (e *encoder) arcRecord(a ArcRecord) {
	e.u8(tagArc)
	e.addr(a.FromPC)
	e.addr(a.SelfPC)
	e.u32(uint32(a.Count))
}

// bbRecord writes a version-1 tag-2 record.
func (e *encoder) bbRecord(bbs []BBRecord) {
	e.u8(tagBB)
	e.u32(uint32(len(bbs)))
	for _, b := range bbs {
		e.addr(b.Addr)
		e.addr(b.Count)
	}
}

// bsdHeader writes an old BSD or 4.4BSD header for n bins.
func (e *encoder) bsdHeader(lo, hi uint64, n int, bsd44 bool, rate uint32) {
	hdr := bsdHeaderSize(e.ptr, bsd44)
	e.addr(lo)
	e.addr(hi)
	// Like gprof, the byte count wraps at 32 bits.
	e.u32(uint32(n)*2 + uint32(hdr))
	if bsd44 {
		e.u32(bsd44Version)
		e.u32(rate)
		e.raw(make([]byte, 12))
	}
}

// bsdArc writes one BSD arc: pointer-sized caller, callee and count.
func (e *encoder) bsdArc(a ArcRecord) {
	e.addr(a.FromPC)
	e.addr(a.SelfPC)
	e.addr(a.Count)
}
