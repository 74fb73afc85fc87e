package gmon

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAddDataLean checks that a lean read sums exactly what AddData sums,
// for GNU and BSD files, and leaves the File only its counts.
func TestAddDataLean(t *testing.T) {
	const lo, hi = 0x400000, 0x400100
	gnu := newTB(le64).gnu(1).
		hist(lo, hi, zeroBins(64, 3, 7)).
		arc(0x400010, 0x400080, 5).arc(0x400020, 0x400080, 2).arc(0x400010, 0x400080, 1).
		bb(BBRecord{Addr: 0x400010, Count: 9}).bytes()
	bsd := newTB(le64).bsd(lo, hi, zeroBins(64, 1, 2), -1).
		bsdArc(0x400010, 0x400080, 4).bsdArc(0x400030, 0x400090, 6).bytes()
	// Counts whose two bytes differ and the largest count, in both byte
	// orders: the lean read sums them from the file's bytes.
	wide := zeroBins(64, 0, 0xffff, 5, 0x1234, 63, 0x8001)
	gnuBE := newTB(be32).gnu(1).hist(lo, hi, wide).arc(0x400010, 0x400080, 1).bytes()
	bsdBE := newTB(be64).bsd(lo, hi, wide, -1).bytes()
	tests := []struct {
		name                          string
		target                        Target
		data                          []byte
		wantHists, wantArcs, wantBBRs int
	}{
		{"GNU", le64, gnu, 1, 3, 1},
		{"BSD", le64, bsd, 1, 2, 0},
		{"GNU big-endian", be32, gnuBE, 1, 1, 0},
		{"BSD big-endian", be64, bsdBE, 1, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			full := NewProfile(tt.target, FormatAuto)
			ff, err := full.AddData(tt.data, "full")
			require.NoError(t, err)
			lean := NewProfile(tt.target, FormatAuto)
			lf, err := lean.AddDataLean(tt.data, "lean")
			require.NoError(t, err)
			// A second file sums into the first's accumulators.
			_, err = full.AddData(tt.data, "full2")
			require.NoError(t, err)
			_, err = lean.AddDataLean(tt.data, "lean2")
			require.NoError(t, err)

			assert.Equal(t, full.Hists, lean.Hists)
			if tt.target.Order != le64.Order {
				for i, v := range wide {
					assert.Equal(t, 2*int64(v), lean.Hists[0].Bins[i], "bin %d", i)
				}
			}
			assert.Equal(t, full.Arcs, lean.Arcs)
			assert.Equal(t, full.BBs, lean.BBs)
			assert.Equal(t, [3]bool{full.HasHist, full.HasArcs, full.HasBB}, [3]bool{lean.HasHist, lean.HasArcs, lean.HasBB})

			assert.Equal(t, tt.wantHists, lf.NumHistRecords)
			assert.Equal(t, tt.wantArcs, lf.NumArcRecords)
			assert.Equal(t, tt.wantBBRs, lf.NumBBRecords)
			assert.Equal(t, ff.BBs, lf.BBs)
			assert.Empty(t, lf.Arcs)
			require.Len(t, lf.Hists, len(ff.Hists))
			for i := range lf.Hists {
				assert.Nil(t, lf.Hists[i].Bins)
				assert.Equal(t, ff.Hists[i].LowPC, lf.Hists[i].LowPC)
				assert.Equal(t, ff.Hists[i].Size, lf.Hists[i].Size)
			}
		})
	}
}

// TestLeanFileKeepsNoBytes checks that a lean read leaves nothing that
// refers to the bytes it parsed, so that the caller may release them (the
// command unmaps the file): overwriting them changes neither the profile
// nor the File, a lean File cannot be added again (its records are gone),
// and a file without a histogram is still reported with its size.
func TestLeanFileKeepsNoBytes(t *testing.T) {
	const lo, hi = 0x400000, 0x400100
	data := newTB(le64).gnu(1).hist(lo, hi, zeroBins(64, 3, 7)).arc(0x400010, 0x400080, 5).bytes()
	p := NewProfile(le64, FormatAuto)
	f, err := p.AddDataLean(data, "lean")
	require.NoError(t, err)
	hists, arcs := p.Hists[0].Bins[3], p.Arcs
	for i := range data {
		data[i] = 0xff
	}
	assert.Equal(t, int64(7), hists)
	assert.Equal(t, int64(7), p.Hists[0].Bins[3])
	assert.Equal(t, arcs, p.Arcs)
	assert.Equal(t, 1, f.NumArcRecords)

	err = NewProfile(le64, FormatAuto).Add(f)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "read lean")

	arcsOnly := newTB(le64).gnu(1).arc(0x400010, 0x400080, 5).bytes()
	f, err = NewProfile(le64, FormatAuto).AddDataLean(arcsOnly, "arcs")
	require.NoError(t, err)
	err = f.RequireHistogram()
	require.Error(t, err)
	assert.Contains(t, err.Error(), fmt.Sprintf("in its %d bytes", len(arcsOnly)))
}

// TestRelease checks that released sums are gone, that the histogram
// ranges stay, and that the profile then refuses further files.
func TestRelease(t *testing.T) {
	const lo, hi = 0x400000, 0x400100
	data := newTB(le64).gnu(1).hist(lo, hi, zeroBins(64, 3)).arc(0x400010, 0x400080, 5).bytes()
	p := NewProfile(le64, FormatAuto)
	_, err := p.AddData(data, "a.out")
	require.NoError(t, err)

	p.ReleaseBins()
	require.Len(t, p.Hists, 1)
	assert.Nil(t, p.Hists[0].Bins)
	assert.Equal(t, [2]uint64{lo, hi}, [2]uint64{p.Hists[0].LowPC, p.Hists[0].HighPC})

	arcs := p.TakeArcs()
	assert.Equal(t, []ArcRecord{{FromPC: 0x400010, SelfPC: 0x400080, Count: 5}}, arcs)
	assert.Nil(t, p.Arcs)

	_, err = p.AddData(data, "b.out")
	requireFormatError(t, err, "b.out", KindOther, -1, "released")
}
