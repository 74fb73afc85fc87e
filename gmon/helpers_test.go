package gmon

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The four layouts a Target can describe.
var (
	le64 = Target{Order: binary.LittleEndian, AddrSize: 8}
	le32 = Target{Order: binary.LittleEndian, AddrSize: 4}
	be64 = Target{Order: binary.BigEndian, AddrSize: 8}
	be32 = Target{Order: binary.BigEndian, AddrSize: 4}
)

// tb builds test files field by field through the plain binary.ByteOrder
// interface, independently of the package's own encoder.
type tb struct {
	o   binary.AppendByteOrder
	ptr int
	b   []byte
}

func newTB(t Target) *tb { return &tb{o: t.Order.(binary.AppendByteOrder), ptr: t.AddrSize} }

func (b *tb) u8(v byte) *tb      { b.b = append(b.b, v); return b }
func (b *tb) raw(p []byte) *tb   { b.b = append(b.b, p...); return b }
func (b *tb) str(s string) *tb   { b.b = append(b.b, s...); return b }
func (b *tb) zeros(n int) *tb    { b.b = append(b.b, make([]byte, n)...); return b }
func (b *tb) u16(v uint16) *tb   { b.b = b.o.AppendUint16(b.b, v); return b }
func (b *tb) u32(v uint32) *tb   { b.b = b.o.AppendUint32(b.b, v); return b }
func (b *tb) u64(v uint64) *tb   { b.b = b.o.AppendUint64(b.b, v); return b }
func (b *tb) bytes() []byte      { return b.b }
func (b *tb) clone() *tb         { return &tb{o: b.o, ptr: b.ptr, b: append([]byte(nil), b.b...)} }
func (b *tb) dimen(s string) *tb { return b.raw([]byte((s + strings.Repeat("\x00", 15))[:15])) }

func (b *tb) addr(v uint64) *tb {
	if b.ptr == 4 {
		return b.u32(uint32(v))
	}
	return b.u64(v)
}

// gnu writes a GNU header with zero spare bytes.
func (b *tb) gnu(version uint32) *tb { return b.str("gmon").u32(version).zeros(12) }

// hist writes a tag-0 record whose hist_size is the number of bins.
func (b *tb) hist(lo, hi uint64, bins []uint16) *tb {
	return b.histN(lo, hi, uint32(len(bins)), 100, "seconds", 's', bins)
}

// histN writes a tag-0 record with every header field given.
func (b *tb) histN(lo, hi uint64, n, rate uint32, dimen string, abbrev byte, bins []uint16) *tb {
	b.u8(0).addr(lo).addr(hi).u32(n).u32(rate).dimen(dimen).u8(abbrev)
	for _, v := range bins {
		b.u16(v)
	}
	return b
}

// arc writes a tag-1 record.
func (b *tb) arc(from, self uint64, count uint32) *tb {
	return b.u8(1).addr(from).addr(self).u32(count)
}

// bb writes a version-1 tag-2 record.
func (b *tb) bb(pairs ...BBRecord) *tb {
	b.u8(2).u32(uint32(len(pairs)))
	for _, p := range pairs {
		b.addr(p.Addr).addr(p.Count)
	}
	return b
}

// bsd writes an old BSD (rate < 0) or 4.4BSD header for the given bins.
func (b *tb) bsd(lo, hi uint64, bins []uint16, rate int64) *tb {
	hdr := 2*b.ptr + 4
	if rate >= 0 {
		hdr = 2*b.ptr + 24
	}
	b.addr(lo).addr(hi).u32(uint32(hdr + 2*len(bins)))
	if rate >= 0 {
		b.u32(0x00051879).u32(uint32(rate)).zeros(12)
	}
	for _, v := range bins {
		b.u16(v)
	}
	return b
}

// bsdArc writes a BSD arc with a pointer-sized count.
func (b *tb) bsdArc(from, self, count uint64) *tb { return b.addr(from).addr(self).addr(count) }

// hexBytes decodes hex digits, ignoring spaces and newlines, so hexdump
// lines from the documentation can be pasted in.
func hexBytes(t testing.TB, s string) []byte {
	t.Helper()
	s = strings.Join(strings.Fields(s), "")
	out, err := hex.DecodeString(s)
	require.NoError(t, err)
	return out
}

// zeroBins returns n zero bins with the given (index, value) pairs set.
func zeroBins(n int, set ...int) []uint16 {
	out := make([]uint16, n)
	for i := 0; i+1 < len(set); i += 2 {
		out[set[i]] = uint16(set[i+1])
	}
	return out
}

// requireFormatError checks that err is a *FormatError with the given
// file, kind, offset (unless wantOff < -1) and message fragment.
func requireFormatError(t *testing.T, err error, file string, kind ErrorKind, wantOff int64, fragment string) *FormatError {
	t.Helper()
	require.Error(t, err)
	var fe *FormatError
	require.True(t, errors.As(err, &fe), "error %v (%T) is not a *FormatError", err, err)
	require.Equal(t, file, fe.File, "file name in %q", err)
	require.Equal(t, kind, fe.Kind, "kind of %q", err)
	if wantOff >= -1 {
		require.Equal(t, wantOff, fe.Offset, "offset in %q", err)
	}
	require.Contains(t, err.Error(), fragment)
	require.True(t, strings.HasPrefix(err.Error(), file+": "), "message %q must start with the file name", err)
	return fe
}
