package gmon

import (
	"bytes"
	"errors"
	"io"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeSum(t *testing.T, p *Profile, arcs []ArcRecord, f Format) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, WriteSum(&buf, p, arcs, f))
	return buf.Bytes()
}

// TestWriteSumDoc: summing the §1.7 file with arcs merged at function
// starts gives the 2567-byte file of §5.1.
func TestWriteSumDoc(t *testing.T) {
	p, err := sumFiles(t, le64, FormatAuto, doc17())
	require.NoError(t, err)
	merged := []ArcRecord{{0x40122e, 0x4011b6, 400}, {0x401272, 0x40122e, 200}}
	got := writeSum(t, p, merged, FormatAuto)
	require.Len(t, got, 2567)

	want := newTB(le64).str("gmon").u32(1).raw(hexBytes(t, "38 13 40 00 00 00 00 00 d0 04 00 00"))
	want.hist(0x400000, 0x401338, zeroBins(1232, 1148, 8, 1150, 13, 1151, 42))
	want.arc(0x40122e, 0x4011b6, 400).arc(0x401272, 0x40122e, 200)
	assert.Equal(t, want.bytes(), got)
}

// TestWriteSumTruncation: bins are written mod 2^16 and counts mod 2^32
// (§5.1: 40000+40000 gives 14464; 0xffffffff twice gives 4294967294).
func TestWriteSumTruncation(t *testing.T) {
	in := newTB(le64).gnu(1).hist(0x1000, 0x1100, zeroBins(64, 7, 40000)).arc(0x1010, 0x1020, 0xffffffff).bytes()
	p, err := sumFiles(t, le64, FormatAuto, in, in)
	require.NoError(t, err)
	assert.Equal(t, int64(80000), p.Hists[0].Bins[7])
	assert.Equal(t, uint64(0x1fffffffe), p.Arcs[0].Count)
	f, err := Read(writeSum(t, p, p.Arcs, FormatAuto), "gmon.sum", le64, FormatAuto)
	require.NoError(t, err)
	assert.Equal(t, uint16(14464), f.Hists[0].Bins[7])
	assert.Equal(t, uint64(4294967294), f.Arcs[0].Count)
}

// TestWriteSumRoundTrip writes and reads back profiles in every layout.
func TestWriteSumRoundTrip(t *testing.T) {
	for _, tg := range []Target{le64, le32, be64, be32} {
		t.Run(tg.String(), func(t *testing.T) {
			in := newTB(tg).gnu(0).
				histN(0x1000, 0x1100, 64, 60, "cycles\x00junk", 'c', zeroBins(64, 1, 2, 63, 65535)).
				histN(0x2000, 0x2100, 64, 99, "cycles", 'c', zeroBins(64, 0, 9)).
				arc(0x1010, 0x1020, 5).arc(0x2010, 0x1020, 6).bytes()
			in = append(in, v0BB(t, 1, "", []BBRecord{{0x1010, 77}})[20:]...)
			p, err := sumFiles(t, tg, FormatAuto, in, in)
			require.NoError(t, err)
			out := writeSum(t, p, p.Arcs, FormatMagic)
			f, err := Read(out, "gmon.sum", tg, FormatMagic)
			require.NoError(t, err)
			assert.Equal(t, uint32(1), f.Version, "always version 1")
			require.Len(t, f.Hists, 2)
			for i, h := range f.Hists {
				assert.Equal(t, p.Hists[i].LowPC, h.LowPC)
				assert.Equal(t, uint32(60), h.Rate, "first record's rate")
				assert.Equal(t, "cycles\x00junk\x00\x00\x00\x00", string(h.Dimen[:]), "all 15 raw bytes")
				for j, v := range h.Bins {
					assert.Equal(t, uint16(p.Hists[i].Bins[j]), v)
				}
			}
			assert.Equal(t, []ArcRecord{{0x1010, 0x1020, 10}, {0x2010, 0x1020, 12}}, f.Arcs)
			assert.Equal(t, []BBRecord{{0x1010, 154}}, f.BBs)
			assert.Equal(t, uint16(65534), f.Hists[0].Bins[63])
		})
	}
}

func TestWriteSumBSD(t *testing.T) {
	bins := zeroBins(8, 2, 3)
	tests := []struct {
		name   string
		target Target
		in     []byte
		format Format
		want   []byte
	}{
		{"old BSD stays old", le64, newTB(le64).bsd(0x1000, 0x1010, bins, -1).bsdArc(1, 2, 1<<40).bytes(), FormatBSD,
			newTB(le64).bsd(0x1000, 0x1010, bins, -1).bsdArc(1, 2, 1<<40).bytes()},
		{"rate 1000 needs 4.4BSD", le32, newTB(le32).bsd(0x1000, 0x1010, bins, 1000).bsdArc(1, 2, 3).bytes(), FormatBSD,
			newTB(le32).bsd(0x1000, 0x1010, bins, 1000).bsdArc(1, 2, 3).bytes()},
		{"-O 4 forces 4.4BSD", be64, newTB(be64).bsd(0x1000, 0x1010, bins, -1).bytes(), FormatBSD44,
			newTB(be64).bsd(0x1000, 0x1010, bins, 100).bytes()},
		{"4.4BSD at 100 written old", be32, newTB(be32).bsd(0x1000, 0x1010, bins, 100).bytes(), FormatBSD,
			newTB(be32).bsd(0x1000, 0x1010, bins, -1).bytes()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The profile is read as BSD; -O 4 would refuse the old header.
			p, err := sumFiles(t, tt.target, FormatBSD, tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, writeSum(t, p, p.Arcs, tt.format))
		})
	}
	// Only the first histogram is written; none at all is an error.
	p, err := sumFiles(t, le64, FormatAuto, newTB(le64).gnu(1).hist(0, 16, bins).hist(16, 32, bins).bytes())
	require.NoError(t, err)
	assert.Equal(t, newTB(le64).bsd(0, 16, bins, -1).bytes(), writeSum(t, p, nil, FormatBSD))
	require.Error(t, WriteSum(io.Discard, NewProfile(le64, FormatBSD), nil, FormatBSD))
	require.Error(t, WriteSum(io.Discard, NewProfile(le64, FormatBSD), nil, FormatProf))
}

func TestWriteSumEmptyAndBB(t *testing.T) {
	p := NewProfile(le64, FormatAuto)
	assert.Equal(t, newTB(le64).gnu(1).bytes(), writeSum(t, p, nil, FormatAuto))

	// An empty BB record is written back because the flag is set.
	p, err := sumFiles(t, le64, FormatAuto, newTB(le64).gnu(1).bb().bytes())
	require.NoError(t, err)
	assert.Equal(t, newTB(le64).gnu(1).bb().bytes(), writeSum(t, p, nil, FormatAuto))
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

func TestWriteSumWriterError(t *testing.T) {
	err := WriteSum(failWriter{}, NewProfile(le64, FormatAuto), nil, FormatAuto)
	require.Error(t, err)
	assert.True(t, errors.Is(err, syscall.ENOSPC))
}

func TestMarshalRoundTrip(t *testing.T) {
	files := map[string]*File{
		"gnu v1": {Version: 1, Hists: []HistRecord{{LowPC: 8, HighPC: 24, Rate: 5, Dimen: defaultDimen(), Abbrev: 's', Size: 4, Bins: []uint16{1, 2, 3, 4}}},
			Arcs: []ArcRecord{{1, 2, 3}}, BBs: []BBRecord{{4, 5}}, NumHistRecords: 1, NumArcRecords: 1, NumBBRecords: 1},
		"gnu v0": {Version: 0, BBs: []BBRecord{{4, 5}, {6, 7}}, NumBBRecords: 1},
		"bsd": {BSD: true, Hists: []HistRecord{{LowPC: 8, HighPC: 24, Size: 2, Bins: []uint16{1, 2}}},
			Arcs: []ArcRecord{{1, 2, 3}}, NumHistRecords: 1, NumArcRecords: 1},
		"4.4bsd": {BSD: true, BSD44: true, BSDRate: 1000, Hists: []HistRecord{{LowPC: 8, HighPC: 24, Rate: 1000, Size: 2, Bins: []uint16{1, 2}}},
			Arcs: []ArcRecord{{1, 2, 3}}, NumHistRecords: 1, NumArcRecords: 1},
	}
	for name, f := range files {
		for _, tg := range []Target{le64, be32} {
			t.Run(name+"/"+tg.String(), func(t *testing.T) {
				data, err := Marshal(f, tg)
				require.NoError(t, err)
				g, err := Read(data, "m", tg, FormatAuto)
				require.NoError(t, err)
				g.raw, g.size, g.Name = nil, 0, ""
				g.LastHistHigh, g.LastHistBins, g.HasHistHeader, g.BSDRate = 0, 0, false, f.BSDRate
				assert.Equal(t, f, g)
			})
		}
	}
	_, err := Marshal(&File{BSD: true, Hists: make([]HistRecord, 2)}, le64)
	require.Error(t, err)
}
