package ranks

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/gmon"
)

// testLayout is a small hand-made layout: 5 regions, 3 activities, 7
// cells (regions 1 and 3 have two activities).
func testLayout() *Layout {
	acts := DefaultActivities()
	return &Layout{
		Config:     Config{Regions: "function", Activities: []Activity{acts[0], acts[4]}},
		Regions:    []string{"solve", "exchange", "io_write", "update", "main"},
		Activities: []string{"point-to-point", "io", Computation},
		Cells:      []Cell{{0, 2}, {1, 0}, {1, 2}, {2, 1}, {3, 2}, {3, 0}, {4, 2}},
	}
}

// rankData is one rank's per-cell times and calls.
type rankData struct {
	rank        int
	time, calls []uint64
}

// randomRanks draws n ranks with numbers from a shuffled range: times
// with zeros, ties, fractions of a sample and the odd huge value.
func randomRanks(r *rand.Rand, n, cells int) []rankData {
	nums := r.Perm(3 * n)[:n]
	out := make([]rankData, n)
	for i := range out {
		d := rankData{rank: nums[i], time: make([]uint64, cells), calls: make([]uint64, cells)}
		for c := range cells {
			switch x := r.IntN(10); {
			case x == 0:
			case x == 1:
				d.time[c] = 7 * FixedOne // ties
			case x == 2:
				d.time[c] = r.Uint64N(1 << 50)
			default:
				d.time[c] = r.Uint64N(2000 * FixedOne)
			}
			d.calls[c] = r.Uint64N(1000)
		}
		out[i] = d
	}
	return out
}

// summaryOf folds the ranks into a new summary with a summed profile of
// its own, so that merges of Classic are exercised too.
func summaryOf(t testing.TB, l *Layout, ranks []rankData, topK int) *Summary {
	t.Helper()
	s := NewSummary("prog", l, topK)
	c := &Classic{Rate: 100, Dimen: [15]byte{'s', 'e', 'c', 'o', 'n', 'd', 's'}, Abbrev: 's', HasHist: true, HasArcs: true,
		Hists: []gmon.Histogram{{LowPC: 0x1000, HighPC: 0x1010, Bins: make([]int64, 8)}}}
	for _, d := range ranks {
		require.NoError(t, s.AddRank(d.rank, fmt.Sprintf("gmon.rank%d", d.rank), 100, d.time, d.calls))
		for b := range c.Hists[0].Bins {
			c.Hists[0].Bins[b] += int64(d.time[b%len(d.time)] % 70000)
		}
		c.Arcs = append(c.Arcs, gmon.ArcRecord{FromPC: 0x1000 + uint64(d.rank%3), SelfPC: 0x1008, Count: d.calls[0]})
	}
	c.canonical()
	s.Classic = c
	require.NoError(t, s.Normalize())
	return s
}

// merged merges the summaries left to right into a copy of the first.
func merged(t testing.TB, parts ...*Summary) *Summary {
	t.Helper()
	s, err := DecodeSummary(parts[0].Encode(), "copy")
	require.NoError(t, err)
	for _, p := range parts[1:] {
		require.NoError(t, s.Merge(p))
	}
	return s
}

// Merging summaries of disjoint ranks gives, byte for byte, the summary
// of all the ranks read at once: in any order and any grouping. The ranks
// here are added with AddRank, whose records hold their TopK heaviest
// regions only; records that also hold regions chosen while reading
// (Collect's candidates) depend on what was read together, and are kept,
// not merged (see the README's Summaries section).
func TestMergeProperties(t *testing.T) {
	l := testLayout()
	for seed := range uint64(25) {
		r := rand.New(rand.NewPCG(seed, 99))
		n := 3 + r.IntN(60)
		all := randomRanks(r, n, len(l.Cells))
		topK := 1 + r.IntN(4)
		whole := summaryOf(t, l, all, topK).Encode()

		// Split into three non-empty parts.
		i, j := 1+r.IntN(n-2), 0
		j = i + 1 + r.IntN(n-i-1)
		a := summaryOf(t, l, all[:i], topK)
		b := summaryOf(t, l, all[i:j], topK)
		c := summaryOf(t, l, all[j:], topK)

		ab := merged(t, a, b)
		assert.Equal(t, merged(t, b, a).Encode(), ab.Encode(), "commutative (seed %d)", seed)
		left := merged(t, ab, c)
		right := merged(t, a, merged(t, b, c))
		assert.Equal(t, left.Encode(), right.Encode(), "associative (seed %d)", seed)
		assert.True(t, bytes.Equal(whole, left.Encode()), "merge equals the summary of the union (seed %d)", seed)
		assert.Equal(t, whole, merged(t, c, a, b).Encode(), "any order (seed %d)", seed)
	}
}

// A summary written and read back is the same summary.
func TestSummaryRoundTrip(t *testing.T) {
	l := testLayout()
	r := rand.New(rand.NewPCG(7, 7))
	s := summaryOf(t, l, randomRanks(r, 40, len(l.Cells)), 3)
	enc := s.Encode()
	back, err := DecodeSummary(enc, "x")
	require.NoError(t, err)
	assert.Equal(t, enc, back.Encode())
	// The analysis of the copy is the analysis of the original.
	assert.Equal(t, analyze(t, s, AnalyzeOptions{}), analyze(t, back, AnalyzeOptions{}))
}

func TestMergeRejects(t *testing.T) {
	l := testLayout()
	r := rand.New(rand.NewPCG(8, 8))
	rs := randomRanks(r, 6, len(l.Cells))
	a := summaryOf(t, l, rs[:4], 2)

	dup := summaryOf(t, l, rs[3:], 2)
	err := merged(t, a).Merge(dup)
	require.Error(t, err)
	assert.Contains(t, err.Error(), fmt.Sprintf("rank %d appears twice", rs[3].rank))

	other := *l
	other.Regions = slices.Clone(l.Regions)
	other.Regions[0] = "solver"
	assert.ErrorContains(t, merged(t, a).Merge(summaryOf(t, &other, rs[4:], 2)), "other regions")

	fp := *l
	fp.Fingerprint[0] = 1
	assert.ErrorContains(t, merged(t, a).Merge(summaryOf(t, &fp, rs[4:], 2)), "another executable")

	assert.ErrorContains(t, merged(t, a).Merge(summaryOf(t, l, rs[4:], 3)), "keeps 3 regions per rank")

	fast := summaryOf(t, l, nil, 2)
	require.NoError(t, fast.AddRank(1000, "fast", 1000, make([]uint64, len(l.Cells)), make([]uint64, len(l.Cells))))
	assert.ErrorContains(t, merged(t, a).Merge(fast), "1000 Hz")
}

// Summed profiles merge like gprof sums files, and survive the trip
// through a gmon file with counts beyond the format's 16 and 32 bits.
func TestClassicAddTo(t *testing.T) {
	c := &Classic{Rate: 100, Dimen: [15]byte{'s', 'e', 'c', 'o', 'n', 'd', 's'}, Abbrev: 's', HasHist: true, HasArcs: true, HasBB: true,
		Hists: []gmon.Histogram{
			{LowPC: 0x1000, HighPC: 0x1040, Bins: []int64{0, 1, 65535, 65536, 200000, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9}},
			{LowPC: 0x2000, HighPC: 0x2040, Bins: make([]int64, 16)},
		},
		Arcs: []gmon.ArcRecord{{FromPC: 0x1004, SelfPC: 0x1010, Count: 5}, {FromPC: 0x1008, SelfPC: 0x2000, Count: 1<<33 + 7}},
		BBs:  []gmon.BBRecord{{Addr: 0x1004, Count: 2}},
	}
	c.canonical()
	p := gmon.NewProfile(gmon.Target{Order: littleEndian(), AddrSize: 8}, gmon.FormatAuto)
	_, err := c.AddTo(p, "summary")
	require.NoError(t, err)
	back := ClassicFrom(p)
	assert.Equal(t, c, back)

	// Adding it twice doubles every count.
	_, err = c.AddTo(p, "summary")
	require.NoError(t, err)
	twice := ClassicFrom(p)
	sum := ClassicFrom(p)
	sum.Hists, sum.Arcs, sum.BBs = nil, nil, nil
	require.NoError(t, sum.Merge(c))
	require.NoError(t, sum.Merge(c))
	assert.Equal(t, twice, sum)

	bad := &Classic{HasHist: true, Rate: 1000, Hists: []gmon.Histogram{{LowPC: 0x1000, HighPC: 0x1040, Bins: make([]int64, 16)}}}
	assert.ErrorContains(t, ClassicFrom(p).Merge(bad), "1000 Hz")
	overlap := &Classic{Rate: 100, Dimen: c.Dimen, Abbrev: 's', HasHist: true, Hists: []gmon.Histogram{{LowPC: 0x1020, HighPC: 0x1060, Bins: make([]int64, 16)}}}
	assert.ErrorContains(t, ClassicFrom(p).Merge(overlap), "overlap")
}

func littleEndian() binary.ByteOrder { return binary.LittleEndian }

// attributedRank is one rank with values in the layout's cells and in
// cells of other (region, activity) pairs that only some ranks have, as
// the attribution of activity time to calling regions makes them.
type attributedRank struct {
	rankData
	extra map[Cell][2]uint64 // attributed and inclusive time
}

// addAttributed folds a rank in, adding the cells it brings.
func addAttributed(t testing.TB, s *Summary, d attributedRank) {
	t.Helper()
	for c := range d.extra {
		s.cellID(c)
	}
	n := len(s.Cells)
	v := rankCells{time: make([]uint64, n), incl: make([]uint64, n), calls: make([]uint64, n)}
	copy(v.time, d.time)
	copy(v.incl, d.time)
	copy(v.calls, d.calls)
	for c, x := range d.extra {
		i := s.cellID(c)
		v.time[i], v.incl[i] = x[0], x[0]+x[1]
	}
	require.NoError(t, s.addRank(d.rank, -1, fmt.Sprintf("gmon.rank%d", d.rank), 100, v, nil, nil))
}

// Cells that only some ranks bring merge exactly too: a summary lacking a
// cell counts its ranks as zero there, whatever the order of merges, with
// attributed and with inclusive times.
func TestMergeAttributedCells(t *testing.T) {
	pool := []Cell{{0, 0}, {0, 1}, {2, 2}, {4, 0}, {4, 1}, {3, 1}}
	for _, time := range []string{TimeSelf, TimeInclusive} {
		l := testLayout()
		l.Config.Time = time
		for seed := range uint64(15) {
			r := rand.New(rand.NewPCG(seed, 77))
			n := 4 + r.IntN(30)
			var all []attributedRank
			for _, d := range randomRanks(r, n, len(l.Cells)) {
				a := attributedRank{rankData: d, extra: map[Cell][2]uint64{}}
				for _, c := range pool {
					if r.IntN(3) == 0 {
						a.extra[c] = [2]uint64{r.Uint64N(500 * FixedOne), r.Uint64N(500 * FixedOne)}
					}
				}
				all = append(all, a)
			}
			build := func(ranks []attributedRank) *Summary {
				s := NewSummary("prog", l, 3)
				for _, d := range ranks {
					addAttributed(t, s, d)
				}
				require.NoError(t, s.Normalize())
				return s
			}
			whole := build(all).Encode()
			i := 1 + r.IntN(n-2)
			j := i + 1 + r.IntN(n-i-1)
			a, b, c := build(all[:i]), build(all[i:j]), build(all[j:])
			assert.Equal(t, whole, merged(t, a, b, c).Encode(), "%s, seed %d", time, seed)
			assert.Equal(t, whole, merged(t, c, b, a).Encode(), "%s, seed %d: another order", time, seed)
			assert.Equal(t, whole, merged(t, b, merged(t, c, a)).Encode(), "%s, seed %d: another grouping", time, seed)
			back, err := DecodeSummary(whole, "w")
			require.NoError(t, err)
			require.Equal(t, time == TimeInclusive, back.CellIncl != nil)
			assert.Equal(t, whole, back.Encode())
		}
	}
}
