package gmon

import (
	"bytes"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sumFiles adds each file to a new profile, stopping at the first error.
func sumFiles(t *testing.T, tg Target, format Format, files ...[]byte) (*Profile, error) {
	t.Helper()
	p := NewProfile(tg, format)
	for i, data := range files {
		if _, err := p.AddData(data, fileName(i)); err != nil {
			return p, err
		}
	}
	return p, nil
}

func fileName(i int) string { return string(rune('a'+i)) + ".out" }

// TestSumRules checks the table of §4 with crafted files.
func TestSumRules(t *testing.T) {
	const lo, hi = 0x400000, 0x401278
	const n = (hi - lo) / 4
	gnu := func(build func(b *tb)) []byte {
		b := newTB(le64).gnu(1)
		build(b)
		return b.bytes()
	}
	histWith := func(lo, hi uint64, n int, rate uint32, dimen string, abbrev byte, set ...int) []byte {
		return gnu(func(b *tb) { b.histN(lo, hi, uint32(n), rate, dimen, abbrev, zeroBins(n, set...)) })
	}
	base := histWith(lo, hi, n, 100, "seconds", 's', 10, 40000)
	oldBSD := newTB(le64).bsd(lo, hi, zeroBins(n, 10, 1), -1).bytes()
	bsd44 := func(rate int64) []byte { return newTB(le64).bsd(lo, hi, zeroBins(n, 10, 1), rate).bytes() }

	tests := []struct {
		name  string
		files [][]byte
		kind  ErrorKind // 0: success
		file  string    // file named in the error
		check func(t *testing.T, p *Profile)
	}{
		{"same range: bins added", [][]byte{base, base}, 0, "", func(t *testing.T, p *Profile) {
			require.Len(t, p.Hists, 1)
			assert.Equal(t, int64(80000), p.Hists[0].Bins[10]) // wider than gprof's int only past 2^31
		}},
		{"same range twice in one file", [][]byte{gnu(func(b *tb) {
			b.hist(lo, hi, zeroBins(n, 0, 1)).hist(lo, hi, zeroBins(n, 0, 2))
		})}, 0, "", func(t *testing.T, p *Profile) {
			require.Len(t, p.Hists, 1)
			assert.Equal(t, int64(3), p.Hists[0].Bins[0])
		}},
		{"range shifted by 0x100: overlapping", [][]byte{base, histWith(lo+0x100, hi+0x100, n, 100, "seconds", 's')},
			KindOverlap, "b.out", nil},
		{"disjoint range: second histogram", [][]byte{base, histWith(hi, hi+(hi-lo), n, 100, "seconds", 's', 0, 5)}, 0, "",
			func(t *testing.T, p *Profile) {
				require.Len(t, p.Hists, 2)
				assert.Equal(t, uint64(hi), p.Hists[1].LowPC)
				assert.Equal(t, int64(5), p.Hists[1].Bins[0])
			}},
		{"adjacent below is disjoint too", [][]byte{base, histWith(lo-(hi-lo), lo, n, 100, "seconds", 's')}, 0, "",
			func(t *testing.T, p *Profile) { assert.Len(t, p.Hists, 2) }},
		{"range inside an earlier one: overlapping", [][]byte{base, histWith(lo+0x40, lo+0x80, 16, 100, "seconds", 's')},
			KindOverlap, "b.out", nil},
		{"range covering two earlier ones: overlapping", [][]byte{
			histWith(0x1000, 0x1100, 64, 100, "seconds", 's'),
			histWith(0x2000, 0x2100, 64, 100, "seconds", 's'),
			histWith(0x0f00, 0x2200, 0x1300/4, 100, "seconds", 's'),
		}, KindOverlap, "c.out", nil},
		{"different dimen", [][]byte{base, histWith(lo, hi, n, 100, "cycles", 's')}, KindDimen, "b.out", nil},
		{"dimen differs only after the NUL: same", [][]byte{base, histWith(lo, hi, n, 100, "seconds\x00xyz", 's')}, 0, "",
			func(t *testing.T, p *Profile) { assert.Equal(t, "seconds", p.DimenString()) }},
		{"different abbrev", [][]byte{base, histWith(lo, hi, n, 100, "seconds", 'S')}, KindAbbrev, "b.out", nil},
		{"hist_size-1: different scales", [][]byte{base, histWith(lo, hi, n-1, 100, "seconds", 's')}, KindScale, "b.out", nil},
		{"scale checked before overlap", [][]byte{base, histWith(lo+0x100, hi+0x100, n-1, 100, "seconds", 's')}, KindScale, "b.out", nil},
		{"different rate: accepted, first kept", [][]byte{base, histWith(lo, hi, n, 1000, "seconds", 's')}, 0, "",
			func(t *testing.T, p *Profile) { assert.Equal(t, uint32(100), p.Rate) }},
		{"first dimen kept", [][]byte{histWith(lo, hi, n, 7, "cycles", 'c'), histWith(lo, hi, n, 9, "cycles", 'c')}, 0, "",
			func(t *testing.T, p *Profile) {
				assert.Equal(t, "cycles", p.DimenString())
				assert.Equal(t, byte('c'), p.Abbrev)
				assert.Equal(t, uint32(7), p.Rate)
			}},
		{"rate 0 accepted", [][]byte{histWith(lo, hi, n, 0, "seconds", 's')}, 0, "",
			func(t *testing.T, p *Profile) { assert.Equal(t, uint32(0), p.Rate) }},
		{"BSD after GNU, same histogram: bins added", [][]byte{base, oldBSD}, 0, "", func(t *testing.T, p *Profile) {
			assert.Equal(t, int64(40001), p.Hists[0].Bins[10])
		}},
		{"BSD not matching the first histogram", [][]byte{base, newTB(le64).bsd(lo, hi+4, zeroBins(n+1), -1).bytes()},
			KindIncompatible, "b.out", nil},
		{"BSD compared with the first histogram only", [][]byte{
			gnu(func(b *tb) { b.hist(lo, hi, zeroBins(n)).hist(hi, 2*hi-lo, zeroBins(n)) }),
			newTB(le64).bsd(hi, 2*hi-lo, zeroBins(n), -1).bytes(),
		}, KindIncompatible, "b.out", nil},
		{"GNU arcs only, then BSD", [][]byte{gnu(func(b *tb) { b.arc(1, 2, 3) }), oldBSD}, 0, "",
			func(t *testing.T, p *Profile) { assert.Equal(t, uint32(100), p.Rate) }},
		{"old BSD then 4.4BSD at 1000", [][]byte{oldBSD, bsd44(1000)}, KindRate, "b.out", nil},
		{"GNU then 4.4BSD at 1000", [][]byte{base, bsd44(1000)}, KindRate, "b.out", nil},
		{"GNU then 4.4BSD at 100", [][]byte{base, bsd44(100)}, 0, "", nil},
		{"4.4BSD at 1000 then GNU: rate stays 1000", [][]byte{bsd44(1000), base}, 0, "",
			func(t *testing.T, p *Profile) { assert.Equal(t, uint32(1000), p.Rate) }},
		{"BSD then GNU compares units with 'seconds'", [][]byte{oldBSD, histWith(hi, 2*hi-lo, n, 100, "cycles", 'c')},
			KindDimen, "b.out", nil},
		{"BSD then GNU with seconds", [][]byte{oldBSD, histWith(hi, 2*hi-lo, n, 100, "seconds", 's')}, 0, "",
			func(t *testing.T, p *Profile) { assert.Len(t, p.Hists, 2) }},
		{"4.4BSD rate 2^31 never matches, even itself", [][]byte{bsd44(1 << 31), bsd44(1 << 31)}, KindRate, "b.out", nil},
		{"4.4BSD rate 0 becomes 100", [][]byte{bsd44(0), bsd44(100)}, 0, "",
			func(t *testing.T, p *Profile) { assert.Equal(t, uint32(100), p.Rate) }},
		{"4.4BSD rate 0 twice", [][]byte{bsd44(0), bsd44(0)}, KindRate, "b.out", nil},
		{"GNU rate 0, then old BSD sets 100", [][]byte{histWith(lo, hi, n, 0, "seconds", 's'), oldBSD}, 0, "",
			func(t *testing.T, p *Profile) { assert.Equal(t, uint32(100), p.Rate) }},
		{"NaN first scale lets anything through", [][]byte{gnu(func(b *tb) {
			b.hist(0x10, 0x10, nil).hist(lo, hi, zeroBins(n)).hist(hi, hi+0x100, zeroBins(3))
		})}, 0, "", func(t *testing.T, p *Profile) {
			assert.True(t, math.IsNaN(p.Scale()))
			assert.Len(t, p.Hists, 3)
		}},
		{"Inf first scale accepts zero-width empty records", [][]byte{gnu(func(b *tb) {
			b.hist(lo, hi, nil).hist(0x10, 0x10, nil)
		})}, 0, "", func(t *testing.T, p *Profile) { assert.True(t, math.IsInf(p.Scale(), 1)) }},
		{"Inf first scale rejects finite ones", [][]byte{gnu(func(b *tb) {
			b.hist(lo, hi, nil).hist(hi, hi+0x100, zeroBins(3))
		})}, KindScale, "a.out", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := sumFiles(t, le64, FormatAuto, tt.files...)
			if tt.kind != 0 {
				requireFormatError(t, err, tt.file, tt.kind, -2, "")
				return
			}
			require.NoError(t, err)
			if tt.check != nil {
				tt.check(t, p)
			}
		})
	}
}

// TestStatefulRead: a record repeating an earlier range is read with the
// earlier record's bin count (checked against gprof: -i shows 2 histogram
// records and 1 arc for the combined file, and the pair of files reads
// while the second one alone does not).
func TestStatefulRead(t *testing.T) {
	first := newTB(le64).gnu(1).hist(0x1000, 0x1000, []uint16{5}).bytes()
	// Says 11 bins but carries one, then an arc.
	second := newTB(le64).gnu(1).histN(0x1000, 0x1000, 11, 100, "seconds", 's', []uint16{5}).arc(0x4011f0, 0x4011b0, 9).bytes()
	combined := append(append([]byte(nil), first...), second[20:]...)

	f, err := Read(combined, "zw.out", le64, FormatAuto)
	require.NoError(t, err)
	assert.Equal(t, 2, f.NumHistRecords)
	assert.Equal(t, 1, f.NumArcRecords)
	assert.Equal(t, uint32(11), f.Hists[1].Size)
	assert.Equal(t, []uint16{5}, f.Hists[1].Bins)
	assert.Equal(t, uint32(11), f.LastHistBins)

	_, err = Read(second, "zw2.out", le64, FormatAuto)
	requireFormatError(t, err, "zw2.out", KindTruncated, -2, "truncated")

	p := NewProfile(le64, FormatAuto)
	_, err = p.AddData(first, "zw1.out")
	require.NoError(t, err)
	f2, err := p.AddData(second, "zw2.out")
	require.NoError(t, err)
	assert.Equal(t, []ArcRecord{{0x4011f0, 0x4011b0, 9}}, f2.Arcs)
	assert.Equal(t, []int64{10}, p.Hists[0].Bins)
	// The spare bytes carry the header's bin count, 11 (checked with gprof -s).
	assert.Equal(t, [12]byte{0x00, 0x10, 0, 0, 0, 0, 0, 0, 0x0b, 0, 0, 0}, p.Spare())

	// Add of a File from Read re-reads its bytes in the profile's context.
	f1, err := Read(first, "zw1.out", le64, FormatAuto)
	require.NoError(t, err)
	p2 := NewProfile(le64, FormatAuto)
	require.NoError(t, p2.Add(f1))
	require.NoError(t, p2.Add(f1))
	assert.Equal(t, []int64{10}, p2.Hists[0].Bins)
}

func TestArcAndBBSumming(t *testing.T) {
	a := newTB(le64).gnu(1).
		arc(0x30, 0x10, 1).arc(0x20, 0x10, 0xffffffff).arc(0x30, 0x10, 4).
		bb(BBRecord{0x100, 1}, BBRecord{0x200, 2}).bytes()
	b := newTB(le64).gnu(1).
		arc(0x40, 0x10, 7).arc(0x20, 0x10, 0xffffffff).
		bb(BBRecord{0x200, 3}, BBRecord{0x50, 1}).bytes()
	p, err := sumFiles(t, le64, FormatAuto, a, b)
	require.NoError(t, err)
	assert.Equal(t, []ArcRecord{
		{0x30, 0x10, 5},
		{0x20, 0x10, 8589934590}, // 64-bit sum, as gprof's unsigned long
		{0x40, 0x10, 7},
	}, p.Arcs)
	assert.Equal(t, []BBRecord{{0x100, 1}, {0x200, 5}, {0x50, 1}}, p.BBs)
	assert.True(t, p.HasBB)

	// A BSD file clears the basic-block flag, as gprof's assignment does.
	bsd := newTB(le64).bsd(0x1000, 0x1100, zeroBins(64), -1).bsdArc(0x30, 0x10, 1<<40).bytes()
	p, err = sumFiles(t, le64, FormatAuto, a, bsd)
	require.NoError(t, err)
	assert.False(t, p.HasBB)
	assert.Equal(t, uint64(5+1<<40), p.Arcs[0].Count) // BSD counts are pointer-sized
}

func TestFlags(t *testing.T) {
	tests := []struct {
		name                 string
		data                 []byte
		hist, arcs, bb       bool
		numHist, numArc, nBB int
	}{
		{"header only", newTB(le64).gnu(1).bytes(), false, false, false, 0, 0, 0},
		{"empty histogram", newTB(le64).gnu(1).hist(1, 2, nil).bytes(), true, false, false, 1, 0, 0},
		{"arc", newTB(le64).gnu(1).arc(1, 2, 0).bytes(), false, true, false, 0, 1, 0},
		{"empty BB record", newTB(le64).gnu(1).bb().bytes(), false, false, true, 0, 0, 1},
		{"BSD without bins or arcs", newTB(le64).bsd(1, 2, nil, -1).u32(0).bytes(), true, true, false, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewProfile(le64, FormatAuto)
			f, err := p.AddData(tt.data, "x")
			require.NoError(t, err)
			assert.Equal(t, tt.hist, p.HasHist, "HasHist")
			assert.Equal(t, tt.arcs, p.HasArcs, "HasArcs")
			assert.Equal(t, tt.bb, p.HasBB, "HasBB")
			assert.Equal(t, tt.numHist, f.NumHistRecords)
			assert.Equal(t, tt.numArc, f.NumArcRecords)
			assert.Equal(t, tt.nBB, f.NumBBRecords)
		})
	}
}

// TestFileVersion: gprof -i shows the version of the last GNU file for a
// BSD file (checked with gprof: a v1 file then a BSD file shows 1).
func TestFileVersion(t *testing.T) {
	bsd := newTB(le64).bsd(0x1000, 0x1100, zeroBins(64), -1).bytes()
	for _, v := range []uint32{0, 1} {
		p := NewProfile(le64, FormatAuto)
		_, err := p.AddData(newTB(le64).gnu(v).bytes(), "g")
		require.NoError(t, err)
		f, err := p.AddData(bsd, "b")
		require.NoError(t, err)
		assert.Equal(t, uint32(0), f.Version)
		assert.Equal(t, v, p.FileVersion)
	}
}

func TestScale(t *testing.T) {
	p := NewProfile(le64, FormatAuto)
	assert.Equal(t, 0.0, p.Scale())
	assert.Equal(t, "seconds", p.DimenString())
	assert.Equal(t, byte('s'), p.Abbrev)
	_, err := p.AddData(doc17(), "gmon.out")
	require.NoError(t, err)
	// (0x1338/2) / 1232 = 2460/1232, integer halving first.
	assert.Equal(t, 2460.0/1232.0, p.Scale())
	// An odd span: the halving truncates.
	q := NewProfile(le64, FormatAuto)
	_, err = q.AddData(newTB(le64).gnu(1).hist(0, 7, zeroBins(2)).bytes(), "odd")
	require.NoError(t, err)
	assert.Equal(t, 1.5, q.Scale())
}

// TestSpare checks the spare header bytes of §5.2 and those observed with
// gprof for summed files (see the oracle test for the live comparison).
func TestSpare(t *testing.T) {
	const lo, hi = 0x400000, 0x401278
	h := newTB(le64).gnu(1).hist(lo, hi, zeroBins(1182)).bytes()
	arcs := newTB(le64).gnu(1).arc(0x401200, 0x4011b0, 5).bytes()
	bsd := newTB(le64).bsd(lo, hi, zeroBins(1182), -1).bytes()
	bsdNoBins := newTB(le64).bsd(lo, hi, nil, -1).bsdArc(1, 2, 3).bytes()
	bbOnly := newTB(le64).gnu(1).bb(BBRecord{1, 2}).bytes()

	tests := []struct {
		name   string
		target Target
		files  [][]byte
		want   string
	}{
		{"non-PIE (§5.2)", le64, [][]byte{doc17()}, "38 13 40 00 00 00 00 00 d0 04 00 00"},
		{"two records, last wins (§5.2)", le64, [][]byte{newTB(le64).gnu(1).hist(0x400000, 0x401338, zeroBins(1232)).
			hist(0x600000, 0x601338, zeroBins(1232)).bytes()}, "38 13 60 00 00 00 00 00 d0 04 00 00"},
		{"old BSD: raw ncnt (§5.2)", le64, [][]byte{newTB(le64).bsd(0x400000, 0x401338, zeroBins(1232), -1).bytes()},
			"38 13 40 00 00 00 00 00 b4 09 00 00"},
		{"i386 (§5.2)", le32, [][]byte{doc17m32()}, "88 93 04 08 00 00 00 00 e2 04 00 00"},
		{"big-endian ELF64: host order (§5.2)", be64, [][]byte{newTB(be64).gnu(1).hist(0x10000000, 0x10000100, zeroBins(64)).bytes()},
			"00 01 00 10 00 00 00 00 40 00 00 00"},
		{"arcs only (§5.2)", le64, [][]byte{arcs}, "00 00 00 00 00 00 00 00 00 00 00 00"},
		{"header only (§5.2)", le64, [][]byte{newTB(le64).gnu(1).bytes()}, "00 00 00 00 00 00 00 00 00 00 00 00"},
		// The remaining rows were observed with gprof -s.
		{"hist then arcs-only file", le64, [][]byte{h, arcs}, "78 12 40 00 00 00 00 00 9e 04 00 00"},
		{"arcs-only then hist", le64, [][]byte{arcs, h}, "78 12 40 00 00 00 00 00 9e 04 00 00"},
		{"BSD then arcs-only", le64, [][]byte{bsd, arcs}, "78 12 40 00 00 00 00 00 50 09 00 00"},
		{"GNU then BSD", le64, [][]byte{h, bsd}, "78 12 40 00 00 00 00 00 50 09 00 00"},
		{"BSD then GNU", le64, [][]byte{bsd, h}, "78 12 40 00 00 00 00 00 9e 04 00 00"},
		{"BSD without bins", le64, [][]byte{bsdNoBins}, "78 12 40 00 00 00 00 00 14 00 00 00"},
		{"hist then BB-only", le64, [][]byte{h, bbOnly}, "78 12 40 00 00 00 00 00 9e 04 00 00"},
		{"BB only", le64, [][]byte{bbOnly}, "00 00 00 00 00 00 00 00 00 00 00 00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := sumFiles(t, tt.target, FormatAuto, tt.files...)
			require.NoError(t, err)
			s := p.Spare()
			assert.Equal(t, hexBytes(t, tt.want), s[:])
			var buf bytes.Buffer
			require.NoError(t, WriteSum(&buf, p, p.Arcs, FormatAuto))
			assert.Equal(t, hexBytes(t, tt.want), buf.Bytes()[8:20])
		})
	}
}

// TestAddHandBuilt: a File built by hand is added like its encoding.
func TestAddHandBuilt(t *testing.T) {
	f := &File{
		Name:    "hand",
		Version: 1,
		Hists:   []HistRecord{{LowPC: 0x1000, HighPC: 0x1100, Rate: 100, Dimen: defaultDimen(), Abbrev: 's', Bins: zeroBins(64, 3, 9)}},
		Arcs:    []ArcRecord{{0x1010, 0x1040, 6}},
		BBs:     []BBRecord{{0x1010, 2}},
	}
	p := NewProfile(le32, FormatAuto)
	require.NoError(t, p.Add(f))
	require.NoError(t, p.Add(f))
	assert.Equal(t, int64(18), p.Hists[0].Bins[3])
	assert.Equal(t, []ArcRecord{{0x1010, 0x1040, 12}}, p.Arcs)
	assert.Equal(t, []BBRecord{{0x1010, 4}}, p.BBs)
	assert.Equal(t, 2, p.Files)

	bad := &File{Name: "hand2", Version: 1, Hists: []HistRecord{{LowPC: 0x1000, HighPC: 0x1100, Dimen: defaultDimen(), Abbrev: 'x', Bins: zeroBins(64)}}}
	requireFormatError(t, p.Add(bad), "hand2", KindAbbrev, 20, "abbreviation")

	twoBSD := &File{Name: "hand3", BSD: true, Hists: make([]HistRecord, 2)}
	requireFormatError(t, p.Add(twoBSD), "hand3", KindOther, -1, "cannot encode file")
}
