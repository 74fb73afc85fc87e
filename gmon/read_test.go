package gmon

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseFormat(t *testing.T) {
	tests := []struct {
		arg     string
		want    Format
		wantErr bool
	}{
		{"a", FormatAuto, false},
		{"auto", FormatAuto, false},
		{"m", FormatMagic, false},
		{"magic", FormatMagic, false},
		{"b", FormatBSD, false},
		{"bogus", FormatBSD, false}, // only the first character counts
		{"bsd", FormatBSD, false},
		{"4", FormatBSD44, false},
		{"4.4bsd", FormatBSD44, false},
		{"p", FormatProf, false},
		{"prof", FormatProf, false},
		{"x", 0, true},
		{"A", 0, true}, // case matters
		{"", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			got, err := ParseFormat(tt.arg)
			if tt.wantErr {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "unknown file format")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// doc17 builds the §1.7 file (x86-64, -no-pie) field by field.
func doc17() []byte {
	b := newTB(le64).gnu(1)
	b.hist(0x400000, 0x401338, zeroBins(1232, 1148, 8, 1150, 13, 1151, 42))
	b.arc(0x401240, 0x4011c4, 200)
	b.arc(0x401260, 0x4011c4, 200)
	b.arc(0x4012b0, 0x40123c, 200)
	return b.bytes()
}

// doc17m32 builds the 32-bit file of §1.7; only the one arc shown in the
// documentation is included.
func doc17m32() []byte {
	b := newTB(le32).gnu(1)
	b.hist(0x08048000, 0x08049388, make([]uint16, 1250))
	b.arc(0x8049258, 0x80491ee, 200)
	return b.bytes()
}

func TestReadDocHexdump64(t *testing.T) {
	data := doc17()
	require.Len(t, data, 2588) // 20 + 1 + 40 + 2*1232 + 3*21

	// The xxd lines of §1.7, byte for byte.
	assert.Equal(t, hexBytes(t, `
		676d 6f6e 0100 0000 0000 0000 0000 0000
		0000 0000 0000 0040 0000 0000 0038 1340
		0000 0000 00d0 0400 0064 0000 0073 6563
		6f6e 6473 0000 0000 0000 0000 7300 0000`), data[:0x40])
	assert.Equal(t, hexBytes(t, "0800 0000 0d00 2a00"), data[0x935:0x93d])
	assert.Equal(t, hexBytes(t, "01 4012400000000000 c411400000000000 c8000000"), data[0x9dd:0x9f2])
	assert.Equal(t, hexBytes(t, "01 6012400000000000 c411400000000000 c8000000"), data[0x9f2:0xa07])
	assert.Equal(t, hexBytes(t, "01 b012400000000000 3c12400000000000 c8000000"), data[0xa07:])

	f, err := Read(data, "gmon.out", le64, FormatAuto)
	require.NoError(t, err)
	assert.Equal(t, "gmon.out", f.Name)
	assert.Equal(t, uint32(1), f.Version)
	assert.False(t, f.BSD)
	require.Len(t, f.Hists, 1)
	h := f.Hists[0]
	assert.Equal(t, uint64(0x400000), h.LowPC)
	assert.Equal(t, uint64(0x401338), h.HighPC)
	assert.Equal(t, uint32(100), h.Rate)
	assert.Equal(t, "seconds", cString(h.Dimen[:]))
	assert.Equal(t, byte('s'), h.Abbrev)
	assert.Equal(t, uint32(1232), h.Size)
	require.Len(t, h.Bins, 1232)
	assert.Equal(t, []uint16{8, 0, 13, 42}, h.Bins[1148:1152])
	assert.Equal(t, []ArcRecord{
		{0x401240, 0x4011c4, 200},
		{0x401260, 0x4011c4, 200},
		{0x4012b0, 0x40123c, 200},
	}, f.Arcs)
	assert.Equal(t, 1, f.NumHistRecords)
	assert.Equal(t, 3, f.NumArcRecords)
	assert.Equal(t, 0, f.NumBBRecords)
	assert.True(t, f.HasHistHeader)
	assert.Equal(t, uint64(0x401338), f.LastHistHigh)
	assert.Equal(t, uint32(1232), f.LastHistBins)
}

func TestReadDocHexdump32(t *testing.T) {
	data := doc17m32()
	// The xxd lines of the 32-bit example.
	assert.Equal(t, hexBytes(t, `
		676d 6f6e 0100 0000 0000 0000 0000 0000
		0000 0000 0000 8004 0888 9304 08e2 0400
		0064 0000 0073 6563 6f6e 6473 0000 0000
		0000 0000 7300`), data[:0x36])
	assert.Equal(t, hexBytes(t, "01 58920408 ee910408 c8000000"), data[0x9f9:])

	f, err := Read(data, "m32.out", le32, FormatAuto)
	require.NoError(t, err)
	require.Len(t, f.Hists, 1)
	assert.Equal(t, uint64(0x08048000), f.Hists[0].LowPC)
	assert.Equal(t, uint64(0x08049388), f.Hists[0].HighPC)
	assert.Len(t, f.Hists[0].Bins, 1250)
	assert.Equal(t, []ArcRecord{{0x8049258, 0x80491ee, 200}}, f.Arcs)
}

// TestReadDocBSD reads the crafted BSD examples of §2 in all four layouts.
func TestReadDocBSD(t *testing.T) {
	bins := zeroBins(1232, 1140, 10)
	for _, tg := range []Target{le64, le32, be64, be32} {
		for _, rate := range []int64{-1, 1000} {
			name := tg.String()
			if rate >= 0 {
				name += "/4.4BSD"
			}
			t.Run(name, func(t *testing.T) {
				b := newTB(tg).bsd(0x400000, 0x401338, bins, rate)
				b.bsdArc(0x401240, 0x4011c4, 7).bsdArc(0x4012b0, 0x40123c, 3)
				data := b.bytes()
				if tg == le64 && rate < 0 {
					// The xxd lines of §2.
					assert.Equal(t, hexBytes(t, "0000 4000 0000 0000 3813 4000 0000 0000 b409 0000"), data[:0x14])
					assert.Equal(t, hexBytes(t, "0a00"), data[0x8fc:0x8fe])
					assert.Equal(t, hexBytes(t, `
						4012 4000 0000 0000 c411 4000 0000 0000
						0700 0000 0000 0000 b012 4000 0000 0000
						3c12 4000 0000 0000 0300 0000 0000 0000`), data[0x9b4:])
				}
				if tg == le64 && rate >= 0 {
					assert.Equal(t, hexBytes(t, "c809 0000 7918 0500 e803 0000"), data[16:28])
				}
				for _, format := range []Format{FormatAuto, FormatBSD} {
					f, err := Read(data, "b.out", tg, format)
					require.NoError(t, err)
					assert.True(t, f.BSD)
					assert.Equal(t, rate >= 0, f.BSD44)
					assert.Equal(t, uint32(0), f.Version)
					require.Len(t, f.Hists, 1)
					assert.Equal(t, uint64(0x400000), f.Hists[0].LowPC)
					assert.Equal(t, uint64(0x401338), f.Hists[0].HighPC)
					assert.Equal(t, bins, f.Hists[0].Bins)
					assert.Equal(t, []ArcRecord{{0x401240, 0x4011c4, 7}, {0x4012b0, 0x40123c, 3}}, f.Arcs)
					assert.Equal(t, 1, f.NumHistRecords)
					assert.Equal(t, 2, f.NumArcRecords)
					assert.Equal(t, 0, f.IgnoredTail)
				}
				p := NewProfile(tg, FormatAuto)
				_, err := p.AddData(data, "b.out")
				require.NoError(t, err)
				if rate >= 0 {
					assert.Equal(t, uint32(1000), p.Rate)
				} else {
					assert.Equal(t, uint32(100), p.Rate) // hertz()
				}
				assert.True(t, p.HasHist)
				assert.True(t, p.HasArcs)
			})
		}
	}
}

// TestReadLayouts reads the same content in the four target layouts.
func TestReadLayouts(t *testing.T) {
	for _, tg := range []Target{le64, le32, be64, be32} {
		t.Run(tg.String(), func(t *testing.T) {
			b := newTB(tg).gnu(1)
			b.histN(0x10000000, 0x10000100, 64, 1000, "cycles", 'c', zeroBins(64, 3, 0x1234, 63, 0xffff))
			b.arc(0x10000044, 0x10000010, 0xfffffffe)
			b.bb(BBRecord{0x10000044, 10}, BBRecord{0x10000050, 1})
			f, err := Read(b.bytes(), "g.out", tg, FormatAuto)
			require.NoError(t, err)
			require.Len(t, f.Hists, 1)
			h := f.Hists[0]
			assert.Equal(t, uint32(1000), h.Rate)
			assert.Equal(t, "cycles", cString(h.Dimen[:]))
			assert.Equal(t, byte('c'), h.Abbrev)
			assert.Equal(t, uint16(0x1234), h.Bins[3])
			assert.Equal(t, uint16(0xffff), h.Bins[63])
			assert.Equal(t, []ArcRecord{{0x10000044, 0x10000010, 0xfffffffe}}, f.Arcs)
			// For big-endian targets gprof misreads the block count (it swaps
			// it twice); we read it in target order.
			assert.Equal(t, []BBRecord{{0x10000044, 10}, {0x10000050, 1}}, f.BBs)
			assert.Equal(t, 1, f.NumBBRecords)
		})
	}
	// A little-endian file given with a big-endian target fails on the
	// version, as gprof's "unsupported version 16777216".
	le := newTB(le64).gnu(1).bytes()
	_, err := Read(le, "g.out", be64, FormatAuto)
	requireFormatError(t, err, "g.out", KindBadVersion, 4, "unsupported version 16777216")
}

func TestReadOddButValid(t *testing.T) {
	histFirst := newTB(le64).gnu(1).hist(0x1000, 0x1100, zeroBins(64, 5, 7)).arc(0x1010, 0x1020, 3).bytes()
	arcsFirst := newTB(le64).gnu(1).arc(0x1010, 0x1020, 3).hist(0x1000, 0x1100, zeroBins(64, 5, 7)).bytes()

	tests := []struct {
		name   string
		data   []byte
		target Target
		check  func(t *testing.T, f *File)
	}{
		{"header only", newTB(le64).gnu(1).bytes(), le64, func(t *testing.T, f *File) {
			assert.Empty(t, f.Hists)
			assert.Empty(t, f.Arcs)
			assert.False(t, f.HasHistHeader)
		}},
		{"spare bytes ignored", newTB(le64).str("gmon").u32(1).raw(hexBytes(t, "ffffffffffffffffffffffff")).bytes(), le64,
			func(t *testing.T, f *File) { assert.Equal(t, uint32(1), f.Version) }},
		{"version 0 with histogram", newTB(le64).gnu(0).hist(0x1000, 0x1100, zeroBins(64, 1, 2)).bytes(), le64,
			func(t *testing.T, f *File) {
				assert.Equal(t, uint32(0), f.Version)
				require.Len(t, f.Hists, 1)
				assert.Equal(t, uint16(2), f.Hists[0].Bins[1])
			}},
		{"arcs before histogram", arcsFirst, le64, func(t *testing.T, f *File) {
			assert.Len(t, f.Hists, 1)
			assert.Len(t, f.Arcs, 1)
		}},
		{"hist_size 0", newTB(le64).gnu(1).hist(0x1000, 0x1100, nil).arc(1, 2, 3).bytes(), le64,
			func(t *testing.T, f *File) {
				require.Len(t, f.Hists, 1)
				assert.Empty(t, f.Hists[0].Bins)
				assert.Equal(t, 1, f.NumHistRecords)
			}},
		{"zero-width range", newTB(le64).gnu(1).hist(0x1000, 0x1000, []uint16{1, 2}).bytes(), le64,
			func(t *testing.T, f *File) { assert.Equal(t, []uint16{1, 2}, f.Hists[0].Bins) }},
		{"inverted range (GNU)", newTB(le64).gnu(1).hist(0x2000, 0x1000, []uint16{1, 2}).bytes(), le64,
			func(t *testing.T, f *File) { assert.Equal(t, uint64(0x2000), f.Hists[0].LowPC) }},
		{"repeated records", newTB(le64).gnu(1).hist(0x1000, 0x1100, zeroBins(64, 0, 1)).
			hist(0x1000, 0x1100, zeroBins(64, 0, 2)).hist(0x2000, 0x2100, zeroBins(64)).bytes(), le64,
			func(t *testing.T, f *File) {
				assert.Len(t, f.Hists, 3)
				assert.Equal(t, 3, f.NumHistRecords)
			}},
		{"high addresses 32-bit are not sign-extended", newTB(le32).gnu(1).hist(0xc0000000, 0xc0000100, zeroBins(64)).
			arc(0xc0000010, 0xfffffff0, 1).bytes(), le32,
			func(t *testing.T, f *File) {
				assert.Equal(t, uint64(0xc0000000), f.Hists[0].LowPC)
				assert.Equal(t, uint64(0xfffffff0), f.Arcs[0].SelfPC)
			}},
		{"basic blocks, empty record", newTB(le64).gnu(1).bb().bytes(), le64, func(t *testing.T, f *File) {
			assert.Equal(t, 1, f.NumBBRecords)
			assert.Empty(t, f.BBs)
		}},
		{"basic blocks, version 0 layout", v0BB(t, 2, "file.c", []BBRecord{{0x4011b0, 3}, {0x4011c0, 4}}), le64,
			func(t *testing.T, f *File) {
				assert.Equal(t, []BBRecord{{0x4011b0, 3}, {0x4011c0, 4}}, f.BBs)
			}},
		{"basic blocks, version 0 layout, big-endian target read in host order", v0BB(t, 1, "", []BBRecord{{0x10, 7}}), be64,
			func(t *testing.T, f *File) { assert.Equal(t, []BBRecord{{0x10, 7}}, f.BBs) }},
		{"basic blocks, version 0, no blocks and the name runs to EOF", newTB(le64).gnu(0).u8(2).u32(0).str("abc").bytes(), le64,
			func(t *testing.T, f *File) { assert.Equal(t, 1, f.NumBBRecords) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Read(tt.data, "x.out", tt.target, FormatAuto)
			require.NoError(t, err)
			tt.check(t, f)
		})
	}

	// Order does not matter for the result.
	p1, p2 := NewProfile(le64, FormatAuto), NewProfile(le64, FormatAuto)
	_, err := p1.AddData(histFirst, "a")
	require.NoError(t, err)
	_, err = p2.AddData(arcsFirst, "b")
	require.NoError(t, err)
	assert.Equal(t, p1.Hists, p2.Hists)
	assert.Equal(t, p1.Arcs, p2.Arcs)
}

// v0BB builds a version-0 file with one basic-block record in the old
// host-order (little-endian) layout.
func v0BB(t testing.TB, n uint32, file string, blocks []BBRecord) []byte {
	t.Helper()
	b := newTB(le64).gnu(0)
	le := &tb{o: binary.LittleEndian, ptr: 8, b: b.b}
	le.u8(2).u32(n).str(file).u8(0)
	for i, bl := range blocks {
		le.u64(bl.Count).u64(bl.Addr).str("f.c").u8(0).str("fn").u8(0).u32(uint32(10 + i))
	}
	return le.b
}

// TestReadBSDDetails covers the BSD detection and sizing rules of §2.
func TestReadBSDDetails(t *testing.T) {
	lo, hi := uint64(0x400000), uint64(0x401278)
	t.Run("trailing partial arc ignored", func(t *testing.T) {
		b := newTB(le64).bsd(lo, hi, zeroBins(4), -1).bsdArc(0x401200, 0x4011b0, 7).raw([]byte{1, 2, 3, 4, 5})
		f, err := Read(b.bytes(), "b", le64, FormatAuto)
		require.NoError(t, err)
		assert.Len(t, f.Arcs, 1)
		assert.Equal(t, 5, f.IgnoredTail)
	})
	t.Run("odd ncnt: arcs start after the last whole bin", func(t *testing.T) {
		b := newTB(le64).addr(lo).addr(hi).u32(20+3).u16(5).bsdArc(0x401200, 0x4011b0, 7)
		f, err := Read(b.bytes(), "b", le64, FormatAuto)
		require.NoError(t, err)
		assert.Equal(t, []uint16{5}, f.Hists[0].Bins)
		assert.Equal(t, []ArcRecord{{0x401200, 0x4011b0, 7}}, f.Arcs)
		assert.Equal(t, uint32(23), f.LastHistBins) // raw ncnt
	})
	t.Run("no bins: no histogram record counted, but a histogram exists", func(t *testing.T) {
		b := newTB(le64).bsd(lo, hi, nil, -1).bsdArc(0x401200, 0x4011b0, 7)
		p := NewProfile(le64, FormatAuto)
		f, err := p.AddData(b.bytes(), "b")
		require.NoError(t, err)
		assert.Equal(t, 0, f.NumHistRecords)
		assert.Len(t, f.Hists, 1)
		assert.True(t, p.HasHist)
		require.Len(t, p.Hists, 1)
		assert.Empty(t, p.Hists[0].Bins)
	})
	t.Run("old BSD 64-bit needs 24 bytes", func(t *testing.T) {
		_, err := Read(newTB(le64).addr(lo).addr(hi).u32(20).bytes(), "b20", le64, FormatAuto)
		requireFormatError(t, err, "b20", KindTooShort, 0, "too short")
		f, err := Read(newTB(le64).addr(lo).addr(hi).u32(20).u32(0).bytes(), "b24", le64, FormatAuto)
		require.NoError(t, err)
		assert.Equal(t, 4, f.IgnoredTail)
	})
	t.Run("4.4BSD 64-bit header cut after the rate, no bins", func(t *testing.T) {
		// gprof seeks past the end of the file and finds nothing more.
		b := newTB(le64).addr(lo).addr(hi).u32(40).u32(0x51879).u32(100)
		f, err := Read(b.bytes(), "s44", le64, FormatAuto)
		require.NoError(t, err)
		assert.True(t, f.BSD44)
		assert.Empty(t, f.Arcs)
	})
	t.Run("4.4BSD header without the rate", func(t *testing.T) {
		b := newTB(le64).addr(lo).addr(hi).u32(40).u32(0x51879)
		_, err := Read(b.bytes(), "s", le64, FormatAuto)
		requireFormatError(t, err, "s", KindTooShort, 0, "4.4BSD header")
	})
	t.Run("-O 4 on 4.4BSD", func(t *testing.T) {
		f, err := Read(newTB(le32).bsd(lo, hi, zeroBins(3), 60).bytes(), "b", le32, FormatBSD44)
		require.NoError(t, err)
		assert.Equal(t, uint32(60), f.BSDRate)
	})
}

// TestReadErrors covers the bad-input rows of §6 (and §1-§2) that concern
// the reader: each gives a *FormatError with file name, offset and a clear
// message, never a panic or a large allocation.
func TestReadErrors(t *testing.T) {
	gnuHdr := newTB(le64).gnu(1)
	histHdr := func(n uint32) *tb {
		return gnuHdr.clone().histN(0x400000, 0x401338, n, 100, "seconds", 's', nil)
	}
	tests := []struct {
		name   string
		data   []byte
		target Target
		format Format
		kind   ErrorKind
		off    int64
		msg    string
	}{
		{"empty file", nil, le64, FormatAuto, KindTooShort, 0, "too short to be a gmon file: 0 bytes"},
		{"gmon alone", []byte("gmon"), le64, FormatAuto, KindTooShort, 0, "too short"},
		{"19 bytes of header", gnuHdr.bytes()[:19], le64, FormatAuto, KindTooShort, 0, "19 bytes"},
		{"version 2", newTB(le64).gnu(2).bytes(), le64, FormatAuto, KindBadVersion, 4, "unsupported version 2"},
		{"version 0xffffffff", newTB(le64).gnu(0xffffffff).bytes(), le64, FormatAuto, KindBadVersion, 4, "unsupported version 4294967295"},
		{"bad tag 3", gnuHdr.clone().u8(3).bytes(), le64, FormatAuto, KindBadTag, 20, "bad record tag 3 (file corrupted?)"},
		{"bad tag 255 after an arc", gnuHdr.clone().arc(1, 2, 3).u8(255).bytes(), le64, FormatAuto, KindBadTag, 41, "bad record tag 255"},
		{"tag then EOF", gnuHdr.clone().u8(0).bytes(), le64, FormatAuto, KindTruncated, 21, "histogram record header truncated: needs 40 bytes, only 0 remain"},
		{"truncated histogram header", histHdr(0).bytes()[:50], le64, FormatAuto, KindTruncated, 21, "histogram record header truncated"},
		{"truncated arc", gnuHdr.clone().arc(1, 2, 3).bytes()[:30], le64, FormatAuto, KindTruncated, 21, "arc record truncated: needs 20 bytes, only 9 remain"},
		{"truncated BB header", gnuHdr.clone().u8(2).u16(0).bytes(), le64, FormatAuto, KindTruncated, 21, "basic-block record header truncated"},
		{"truncated bins", histHdr(4).u16(1).u16(2).bytes(), le64, FormatAuto, KindTruncated, 0x3d, "histogram record claims 4 bins (8 bytes) but only 4 bytes remain"},
		{"hist_size 0xffffffff", histHdr(0xffffffff).zeros(12).bytes(), le64, FormatAuto, KindTruncated, 0x3d,
			"histogram record claims 4294967295 bins (8589934590 bytes) but only 12 bytes remain"},
		{"hist_size 2^28, data missing", histHdr(1 << 28).bytes(), le64, FormatAuto, KindTruncated, 0x3d, "claims 268435456 bins"},
		{"truncated BB body", gnuHdr.clone().u8(2).u32(2).u64(1).u64(2).u64(3).bytes(), le64, FormatAuto, KindTruncated, 25,
			"basic-block record claims 2 blocks (32 bytes) but only 24 bytes remain"},
		{"BB count 0xffffffff", gnuHdr.clone().u8(2).u32(0xffffffff).bytes(), le64, FormatAuto, KindTruncated, 25, "claims 4294967295 blocks"},
		{"version 0 BB count too large", newTB(le64).gnu(0).u8(2).u32(1000).u8(0).zeros(30).bytes(), le64, FormatAuto, KindTruncated, 26, "claims 1000 blocks"},
		{"version 0 BB block cut", v0BB(t, 1, "f", []BBRecord{{1, 2}})[:50], le64, FormatAuto, KindTruncated, 27, "version-0 basic block 0 truncated: no line number"},
		{"BSD ncnt below header size", newTB(le64).addr(0x1000).addr(0x2000).u32(4).u32(0).bytes(), le64, FormatAuto, KindNotGmon, 16,
			"does not appear to be in gmon.out format: ncnt 4 does not cover the 20-byte header"},
		{"BSD ncnt above 2^31", newTB(le64).addr(0x1000).addr(0x2000).u32(0x80000014).u32(0).bytes(), le64, FormatAuto, KindNotGmon, 16, "ncnt 2147483668"},
		{"BSD inverted range", newTB(le64).bsd(0x2000, 0x1000, zeroBins(2), -1).bytes(), le64, FormatAuto, KindNotGmon, 0,
			"low_pc 0x2000 is above high_pc 0x1000"},
		{"BSD truncated bins", newTB(le64).bsd(0x1000, 0x2000, zeroBins(8), -1).bytes()[:30], le64, FormatAuto, KindTruncated, 20,
			"BSD header claims 8 bins (ncnt 36) but only 10 bytes remain"},
		{"random text file", []byte(strings.Repeat("This is not a profile, just some text.\n", 4)), le64, FormatAuto, KindTruncated, 20,
			"BSD header claims"},
		{"-O m on BSD", newTB(le64).bsd(0x1000, 0x2000, zeroBins(2), -1).bytes(), le64, FormatMagic, KindBadMagic, 0, "bad magic cookie"},
		{"-O 4 on GNU", doc17(), le64, FormatBSD44, KindBadMagic, 20, "not a 4.4BSD file"},
		{"-O 4 on old BSD", newTB(le64).bsd(0x1000, 0x2000, zeroBins(2), -1).bytes(), le64, FormatBSD44, KindBadMagic, 20, "not a 4.4BSD file"},
		{"-O b on GNU", doc17(), le64, FormatBSD, KindNotGmon, 16, "ncnt 0 does not cover"},
		{"-O p", doc17(), le64, FormatProf, KindUnsupported, -1, "file format 'prof' is not supported"},
		{"unknown format value", doc17(), le64, Format(9), KindUnsupported, -1, "unknown file format 9"},
		{"64-bit file with a 32-bit target", doc17(), le32, FormatAuto, KindTruncated, -2, "histogram record claims"},
		{"32-bit file with a 64-bit target", doc17m32(), le64, FormatAuto, KindTruncated, -2, "histogram record claims"},
		{"bad target size", doc17(), Target{Order: binary.LittleEndian, AddrSize: 2}, FormatAuto, KindTarget, -1, "address size 2"},
		{"no byte order", doc17(), Target{AddrSize: 8}, FormatAuto, KindTarget, -1, "no byte order"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Read(tt.data, "bad.out", tt.target, tt.format)
			assert.Nil(t, f)
			fe := requireFormatError(t, err, "bad.out", tt.kind, tt.off, tt.msg)
			if tt.kind == KindTruncated || tt.kind == KindTooShort {
				assert.True(t, errors.Is(err, io.ErrUnexpectedEOF))
			}
			// The same through a profile.
			_, err2 := NewProfile(tt.target, tt.format).AddData(tt.data, "bad.out")
			require.Error(t, err2)
			var fe2 *FormatError
			require.True(t, errors.As(err2, &fe2))
			assert.Equal(t, fe.Msg, fe2.Msg)
		})
	}
}

// TestReadNoHugeAllocation checks that claims of billions of bins or
// blocks are refused before anything of that size is allocated.
func TestReadNoHugeAllocation(t *testing.T) {
	inputs := map[string][]byte{
		"hist":  newTB(le64).gnu(1).histN(0, 1<<40, 0xffffffff, 100, "seconds", 's', nil).zeros(64).bytes(),
		"bsd":   newTB(le64).addr(0).addr(1 << 40).u32(0x7ffffff0).u32(0).zeros(64).bytes(),
		"bb":    newTB(le64).gnu(1).u8(2).u32(0xffffffff).zeros(64).bytes(),
		"bb-v0": newTB(le64).gnu(0).u8(2).u32(0xffffffff).u8(0).zeros(64).bytes(),
	}
	for name, data := range inputs {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			for range 10 {
				_, err := Read(data, name, le64, FormatAuto)
				require.Error(t, err)
				_, err = NewProfile(le64, FormatAuto).AddData(data, name)
				require.Error(t, err)
			}
			runtime.ReadMemStats(&after)
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "bytes allocated")
		})
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gmon.out")
	require.NoError(t, os.WriteFile(path, doc17(), 0o644))
	f, err := ReadFile(path, le64, FormatAuto)
	require.NoError(t, err)
	assert.Len(t, f.Arcs, 3)

	_, err = ReadFile(filepath.Join(dir, "missing"), le64, FormatAuto)
	require.Error(t, err)
	assert.True(t, errors.Is(err, os.ErrNotExist))
	assert.Contains(t, err.Error(), "missing")
}

// TestRequireHistogram: only a GNU file can lack a histogram record (a BSD
// file always has one, even without bins); one that does is refused with
// its name and size, whatever else it holds.
func TestRequireHistogram(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		ok   bool
	}{
		{"header only", newTB(le64).gnu(1).bytes(), false},
		{"arcs only", newTB(le64).gnu(1).arc(0x1010, 0x1020, 3).bytes(), false},
		{"histogram without samples", newTB(le64).gnu(1).hist(0x1000, 0x1100, zeroBins(64, 0, 0)).bytes(), true},
		{"histogram after arcs", newTB(le64).gnu(1).arc(0x1010, 0x1020, 3).hist(0x1000, 0x1100, zeroBins(64, 5, 7)).bytes(), true},
		{"BSD without bins", newTB(le64).bsd(0x1000, 0x1000, nil, 0).bytes(), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Read(tt.data, "g.out", le64, FormatAuto)
			require.NoError(t, err)
			err = f.RequireHistogram()
			if tt.ok {
				assert.NoError(t, err)
				return
			}
			requireFormatError(t, err, "g.out", KindNoHistogram, -1,
				fmt.Sprintf("no histogram record in its %d bytes", len(tt.data)))
		})
	}
}
