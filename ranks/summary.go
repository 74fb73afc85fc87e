package ranks

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/egprof/egprof/gmon"
)

// DefaultTopK is how many of its heaviest code regions each rank keeps for
// clustering and plots.
const DefaultTopK = 32

// FixedOne is one histogram sample in the fixed-point unit times are kept
// in: a sample is split among symbols in fractions (as gprof does when a
// bin straddles two functions, and when a callee's time is handed to its
// callers in proportion to their calls), so times are stored as integer
// multiples of 2^-24 sample, which keeps every sum exact. The unit is fine
// enough that the dispersion indices of cells of a small fraction of a
// sample match those of the unrounded times to their printed digits, but
// for regions of well under a microsecond in all (with 1/65536 the
// fourth or fifth digit was off on ordinary cells). A rank's time, in 64 bits, holds centuries of
// samples at 100 Hz; the sums of squares over the ranks, in 128 bits,
// hold a million ranks of four months each in one region.
const FixedOne = 1 << 24

// toFixed converts samples to the fixed-point unit.
func toFixed(ticks float64) uint64 {
	if ticks <= 0 {
		return 0
	}
	return uint64(math.Round(ticks * FixedOne))
}

// RankInfo is what a summary keeps of one rank: its number, its label (the
// gmon file name), its total time, and its time in its heaviest regions.
// Its size is bounded: the summary's TopK regions and a few more. A rank
// recorded leanly (see CollectOptions.KeepHeaviest) holds no record of its
// own: a row of its summary's store, a few bytes per candidate region.
type RankInfo struct {
	Rank int
	// Truncated is set when the rank had more non-zero regions than it
	// holds: its time in regions not listed is unknown.
	Truncated bool
	row       int32      // the rank's row in kept
	kept      *keptStore // the store of a lean rank, else nil
	more      *rankMore  // the label, total and regions of any other rank
}

// rankMore is the part of a rank's record that a lean rank keeps in its
// store instead.
type rankMore struct {
	label string
	total uint64 // fixed-point samples, all regions
	// top holds the rank's time in its TopK heaviest regions with non-zero
	// time, and in the regions chosen or filled in as the ones shown rank
	// by rank (see Collect and FillRanks), by region index.
	top []RegionValue
	// source is the summary file the rank was read from in this run (""
	// for a rank read from its gmon file); it is not saved.
	source string
}

// Label returns the rank's label: the name of its gmon file.
func (ri *RankInfo) Label() string {
	if ri.kept != nil {
		return ri.kept.inputs.Name(int(ri.kept.input.get(int(ri.row))))
	}
	if ri.more == nil {
		return ""
	}
	return ri.more.label
}

// Total returns the rank's time in all regions, in fixed-point samples.
func (ri *RankInfo) Total() uint64 {
	if ri.kept != nil {
		return ri.kept.total.get(int(ri.row))
	}
	if ri.more == nil {
		return 0
	}
	return ri.more.total
}

// Top returns the regions the rank's record lists besides a lean rank's
// candidate regions: its TopK heaviest ones and those filled in, by region
// index.
func (ri *RankInfo) Top() []RegionValue {
	if ri.more == nil {
		return nil
	}
	return ri.more.top
}

// source is the summary the rank was read from, "" for a gmon file.
func (ri *RankInfo) source() string {
	if ri.more == nil {
		return ""
	}
	return ri.more.source
}

// origin names where the rank came from, for errors: its gmon file, and
// the summary it was read from.
func (ri *RankInfo) origin() string {
	if src := ri.source(); src != "" {
		return fmt.Sprintf("%s (in the summary %s)", ri.Label(), src)
	}
	return ri.Label()
}

// Beyond its TopK heaviest regions, a rank's record holds its time in up
// to candidateRegions regions chosen while reading (see Collect) and in up
// to MaxFilled regions filled in afterwards (FillRanks).
const (
	candidateRegions = 64
	MaxFilled        = 64
	maxExtra         = candidateRegions + MaxFilled
)

// RegionValue is one region's time on one rank.
type RegionValue struct {
	Region int32
	Value  uint64 // fixed-point samples
}

// Lookup returns the rank's time in region r, and whether it is known:
// a region not listed has no time, unless the record is truncated.
func (ri *RankInfo) Lookup(r int) (v uint64, known bool) {
	top := ri.Top()
	i := sort.Search(len(top), func(i int) bool { return int(top[i].Region) >= r })
	if i < len(top) && int(top[i].Region) == r {
		return top[i].Value, true
	}
	if k := ri.kept; k != nil {
		if j, ok := k.region(r); ok {
			return k.values[j].get(int(ri.row)), true
		}
	}
	return 0, !ri.Truncated
}

// Value returns the rank's time in region r, zero when not known.
func (ri *RankInfo) Value(r int) uint64 {
	v, _ := ri.Lookup(r)
	return v
}

// set records the rank's time in region r.
func (ri *RankInfo) set(r int, v uint64) {
	if k := ri.kept; k != nil {
		if j, ok := k.region(r); ok {
			k.values[j].set(int(ri.row), k.n, v)
			return
		}
	}
	if ri.more == nil {
		ri.more = &rankMore{}
	}
	top := ri.more.top
	i := sort.Search(len(top), func(i int) bool { return int(top[i].Region) >= r })
	if i < len(top) && int(top[i].Region) == r {
		top[i].Value = v
		return
	}
	ri.more.top = slices.Insert(top, i, RegionValue{int32(r), v})
}

// entries returns every region the record holds, ascending: Top's and
// the kept ones (the two never share a region).
func (ri *RankInfo) entries() []RegionValue {
	top := ri.Top()
	k := ri.kept
	if k == nil || len(k.regions) == 0 {
		return top
	}
	out := make([]RegionValue, 0, len(top)+len(k.regions))
	i, j := 0, 0
	for i < len(top) || j < len(k.regions) {
		if j == len(k.regions) || (i < len(top) && top[i].Region < k.regions[j]) {
			out = append(out, top[i])
			i++
			continue
		}
		out = append(out, RegionValue{k.regions[j], k.values[j].get(int(ri.row))})
		j++
	}
	return out
}

// Summary is the mergeable state of a rank aggregation: for each cell
// (code region, activity) and each region, accumulators of time and calls
// over the ranks; a bounded record per rank; and the summed classic
// profile. Two summaries of the same executable and configuration over
// disjoint ranks merge into the summary of the union (exactly, in any
// order).
type Summary struct {
	Exe         string   // base name of the executable
	Fingerprint [32]byte // of its symbol table
	Config      Config
	TopK        int
	HZ          uint32 // samples per second; 0 while no rank had a histogram

	Regions    []string
	Activities []string
	// Cells are the (region, activity) pairs with accumulators: each
	// function's own, and those a rank's attribution gave time (a region
	// calling the functions of an activity). Every cell's accumulators
	// cover every rank (zero where a rank had nothing there). Their order
	// does not matter; the file keeps them by region, then activity.
	Cells []Cell
	// CellTime is each cell's time as Config.Time attributes it to regions
	// without counting any sample twice (self time, and the time of the
	// activity functions a region calls); CellCalls the flat-profile calls
	// of the cell's functions; CellIncl, with TimeInclusive only, the
	// cell's inclusive time.
	CellTime, CellCalls, CellIncl []Acc
	// RegionTime is each region's time in the regions' view: the sum of
	// its cells' CellTime, or of their CellIncl with TimeInclusive.
	RegionTime, RegionCalls []Acc
	RegionSketch            []Sketch
	// Ranks is sorted by rank number once the summary is complete. It is
	// empty when Collect kept the ranks as rows of its Spill instead (see
	// P for their number).
	Ranks []RankInfo
	// Classic is the summed profile (nil when not kept).
	Classic *Classic

	cellIndex map[Cell]int // Cells' positions, made on first use
	minRank   int          // the lowest rank folded in (valid with ranks)
	// kept, when set, records ranks leanly: without their TopK heaviest
	// regions, in a store of its own (see CollectOptions.KeepHeaviest).
	kept *keptStore
	// rows, when set, is the table of a Spill that holds spilled of the
	// summary's ranks, in place of Ranks: all of them once Collect is
	// done, while it collects the ones each worker read.
	rows    *rowTable
	spilled int

	// scratch for AddRank
	regTime, regCalls []uint64
	order             []int32
	rowBuf            []byte
}

// NewSummary returns an empty summary for the layout, with a cell for
// each function's own region and activity.
func NewSummary(exe string, l *Layout, topK int) *Summary {
	if topK <= 0 {
		topK = DefaultTopK
	}
	nc, nr := len(l.Cells), len(l.Regions)
	s := &Summary{
		Exe:          exe,
		Fingerprint:  l.Fingerprint,
		Config:       l.Config,
		TopK:         topK,
		Regions:      l.Regions,
		Activities:   l.Activities,
		Cells:        slices.Clone(l.Cells),
		CellTime:     make([]Acc, nc),
		CellCalls:    make([]Acc, nc),
		RegionTime:   make([]Acc, nr),
		RegionCalls:  make([]Acc, nr),
		RegionSketch: make([]Sketch, nr),
	}
	if l.Config.inclusive() {
		s.CellIncl = make([]Acc, nc)
	}
	return s
}

// zeroAcc is the accumulator of n ranks whose value is zero, the lowest of
// them being rank lowest.
func zeroAcc(n int, lowest int) Acc {
	if n == 0 {
		return Acc{}
	}
	return Acc{N: uint64(n), MinRank: lowest, MaxRank: lowest}
}

// cellID returns the position of cell c, adding it (zero on every rank
// folded in so far) when it is new.
func (s *Summary) cellID(c Cell) int {
	if s.cellIndex == nil {
		s.cellIndex = make(map[Cell]int, len(s.Cells))
		for i, x := range s.Cells {
			s.cellIndex[x] = i
		}
	}
	if i, ok := s.cellIndex[c]; ok {
		return i
	}
	i := len(s.Cells)
	s.cellIndex[c] = i
	s.Cells = append(s.Cells, c)
	z := zeroAcc(s.P(), s.minRank)
	s.CellTime = append(s.CellTime, z)
	s.CellCalls = append(s.CellCalls, z)
	if s.CellIncl != nil {
		s.CellIncl = append(s.CellIncl, z)
	}
	return i
}

// cellOf returns the position of the cell of region and activity j for
// symbol i of layout l: its own cell when j is its activity (a summary
// made by NewSummary for l starts with l's cells), else the cell of the
// pair, added if new.
func (s *Summary) cellOf(l *Layout, i, region, j int) int {
	if c := int(l.SymCell[i]); l.Cells[c].Activity == j {
		return c
	}
	return s.cellID(Cell{Region: region, Activity: j})
}

// P returns the number of ranks.
func (s *Summary) P() int { return len(s.Ranks) + s.spilled }

// Seconds converts a fixed-point sample count to seconds (0 without a
// rate).
func (s *Summary) Seconds(v float64) float64 {
	if s.HZ == 0 {
		return 0
	}
	return v / FixedOne / float64(s.HZ)
}

// AddRank folds one rank in: cellTime and cellCalls hold its time
// (fixed-point samples) and calls per cell of s.Cells, hz its sampling
// rate (0 when it had no histogram). With TimeInclusive the time is both
// the rank's attributed and its inclusive time.
func (s *Summary) AddRank(rank int, label string, hz uint32, cellTime, cellCalls []uint64) error {
	return s.addRank(rank, -1, label, hz, rankCells{time: cellTime, incl: cellTime, calls: cellCalls}, nil, nil)
}

// rankCells are one rank's values per cell of a summary.
type rankCells struct {
	time, incl, calls []uint64
}

// addRank is AddRank that also records the rank's time in the regions of
// keep (ascending; zero times included, so they are known), and when full
// is not nil, appends the rank's non-zero time of every region to it. A
// lean summary records the rank as a row of its store, the rank's label
// being the name of the input numbered input; keep are then the store's
// regions, unless full is set (the regions are not chosen yet).
func (s *Summary) addRank(rank, input int, label string, hz uint32, v rankCells, keep []int32, full *[]RegionValue) error {
	nc := len(s.Cells)
	if len(v.time) < nc || len(v.calls) < nc || (s.CellIncl != nil && len(v.incl) < nc) {
		return fmt.Errorf("rank %d: %d and %d values for %d cells", rank, len(v.time), len(v.calls), nc)
	}
	if err := s.mergeRate(hz, label); err != nil {
		return err
	}
	nr := len(s.Regions)
	if s.regTime == nil {
		s.regTime = make([]uint64, nr)
		s.regCalls = make([]uint64, nr)
	}
	clear(s.regTime)
	clear(s.regCalls)
	view := v.time
	if s.CellIncl != nil {
		view = v.incl
	}
	for c, cell := range s.Cells {
		s.regTime[cell.Region] += view[c]
		s.regCalls[cell.Region] += v.calls[c]
		if err := s.CellTime[c].Add(rank, v.time[c]); err != nil {
			return err
		}
		if err := s.CellCalls[c].Add(rank, v.calls[c]); err != nil {
			return err
		}
		if s.CellIncl != nil {
			if err := s.CellIncl[c].Add(rank, v.incl[c]); err != nil {
				return err
			}
		}
	}
	if s.P() == 0 || rank < s.minRank {
		s.minRank = rank
	}
	info := RankInfo{Rank: rank}
	var total uint64
	s.order = s.order[:0]
	for r := range nr {
		v := s.regTime[r]
		if err := s.RegionTime[r].Add(rank, v); err != nil {
			return err
		}
		if err := s.RegionCalls[r].Add(rank, s.regCalls[r]); err != nil {
			return err
		}
		if v != 0 {
			s.RegionSketch[r].Add(sketchValue(v))
			total += v
			s.order = append(s.order, int32(r))
			if full != nil {
				*full = append(*full, RegionValue{int32(r), v})
			}
		}
	}
	if k := s.kept; k != nil {
		// Only the regions of keep: the others are unknown if non-zero.
		inKeep := 0
		for _, r := range keep {
			if s.regTime[r] != 0 {
				inKeep++
			}
		}
		info.Truncated = len(s.order) > inKeep
		if t := s.rows; t != nil {
			// A row of the Spill: now, or for a rank read before the
			// candidates are chosen, once they are (candidates.apply).
			s.spilled++
			if full != nil {
				return nil
			}
			return t.writeRank(&s.rowBuf, rank, input, total, info.Truncated, func(r int32) uint64 { return s.regTime[r] })
		}
		info.kept, info.row = k, k.add(input, total)
		if full == nil {
			k.setRegions(keep)
			for j, r := range keep {
				k.values[j].set(int(info.row), k.n, s.regTime[r])
			}
		}
		s.Ranks = append(s.Ranks, info)
		return nil
	} else if len(s.order) > s.TopK {
		info.Truncated = true
		slices.SortFunc(s.order, func(a, b int32) int {
			if c := cmp.Compare(s.regTime[b], s.regTime[a]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		s.order = s.order[:s.TopK]
		slices.Sort(s.order)
	}
	info.more = &rankMore{label: label, total: total, top: make([]RegionValue, 0, len(s.order)+len(keep))}
	for i, j := 0, 0; i < len(s.order) || j < len(keep); {
		var r int32
		switch {
		case j == len(keep) || (i < len(s.order) && s.order[i] < keep[j]):
			r = s.order[i]
			i++
		case i == len(s.order) || keep[j] < s.order[i]:
			r = keep[j]
			j++
		default:
			r = s.order[i]
			i, j = i+1, j+1
		}
		info.more.top = append(info.more.top, RegionValue{r, s.regTime[r]})
	}
	s.Ranks = append(s.Ranks, info)
	return nil
}

// mergeRate checks that a rate agrees with the summary's.
func (s *Summary) mergeRate(hz uint32, what string) error {
	switch {
	case hz == 0:
	case s.HZ == 0:
		s.HZ = hz
	case s.HZ != hz:
		return fmt.Errorf("%s: sampled at %d Hz, but the profiles before were sampled at %d Hz", what, hz, s.HZ)
	}
	return nil
}

// Compatible returns an error saying why o cannot be merged into s, or
// nil.
func (s *Summary) Compatible(o *Summary) error {
	switch {
	case s.Fingerprint != o.Fingerprint:
		return fmt.Errorf("made for another executable (%s, a different symbol table) than %s", o.Exe, s.Exe)
	case !s.Config.Equal(o.Config):
		return fmt.Errorf("made with other options (%s) than %s", o.Config, s.Config)
	case s.TopK != o.TopK:
		return fmt.Errorf("keeps %d regions per rank, not %d", o.TopK, s.TopK)
	case !slices.Equal(s.Regions, o.Regions) || !slices.Equal(s.Activities, o.Activities):
		return fmt.Errorf("groups the functions into other regions or activities")
	}
	return nil
}

// Merge folds o (over ranks disjoint from s's) into s. The result is the
// same whatever the order of merges: a cell one side lacks counts as zero
// on that side's ranks.
func (s *Summary) Merge(o *Summary) error {
	if err := s.Compatible(o); err != nil {
		return err
	}
	if s.rows == nil || s.rows != o.rows {
		// Ranks in a Spill are merged in memory, unless both sides'
		// are rows of one table (Collect's workers).
		if err := s.unspill(); err != nil {
			return err
		}
		if err := o.unspill(); err != nil {
			return err
		}
	}
	if uint64(s.P())+uint64(o.P()) > 1<<32-1 {
		return fmt.Errorf("more than %d ranks", uint64(1<<32-1))
	}
	if err := s.mergeRate(o.HZ, "summary"); err != nil {
		return err
	}
	if (s.CellIncl == nil) != (o.CellIncl == nil) {
		return fmt.Errorf("one summary has inclusive times and the other not")
	}
	had := len(s.Cells)
	inO := make([]bool, had)
	for oc, c := range o.Cells {
		id := s.cellID(c)
		if id < had {
			inO[id] = true
		}
		if err := s.CellTime[id].Merge(&o.CellTime[oc]); err != nil {
			return err
		}
		if err := s.CellCalls[id].Merge(&o.CellCalls[oc]); err != nil {
			return err
		}
		if s.CellIncl != nil {
			if err := s.CellIncl[id].Merge(&o.CellIncl[oc]); err != nil {
				return err
			}
		}
	}
	oz := zeroAcc(o.P(), o.minRank)
	for id := range had {
		if inO[id] {
			continue
		}
		// Zeros cannot overflow a sum.
		_ = s.CellTime[id].Merge(&oz)
		_ = s.CellCalls[id].Merge(&oz)
		if s.CellIncl != nil {
			_ = s.CellIncl[id].Merge(&oz)
		}
	}
	for r := range s.Regions {
		if err := s.RegionTime[r].Merge(&o.RegionTime[r]); err != nil {
			return err
		}
		if err := s.RegionCalls[r].Merge(&o.RegionCalls[r]); err != nil {
			return err
		}
		s.RegionSketch[r].Merge(&o.RegionSketch[r])
	}
	if o.P() > 0 && (s.P() == 0 || o.minRank < s.minRank) {
		s.minRank = o.minRank
	}
	s.Ranks = append(s.Ranks, o.Ranks...)
	s.spilled += o.spilled
	switch {
	case s.Classic == nil || o.Classic == nil:
		s.Classic = nil
	default:
		if err := s.Classic.Merge(o.Classic); err != nil {
			return err
		}
	}
	return s.Normalize()
}

// cellOrder returns the positions of the cells by region, then activity.
func (s *Summary) cellOrder() []int {
	idx := make([]int, len(s.Cells))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return compareCells(s.Cells[a], s.Cells[b]) })
	return idx
}

// DuplicateRankError reports a rank number that two inputs both hold; the
// two are named by their gmon files and, for ranks read from summaries,
// by the summary.
type DuplicateRankError struct {
	Rank          int
	First, Second string
}

// Error says which rank and where it came from.
func (e *DuplicateRankError) Error() string {
	return fmt.Sprintf("rank %d appears twice: %s and %s", e.Rank, e.First, e.Second)
}

// Normalize sorts the ranks by number and rejects a rank that appears
// twice.
func (s *Summary) Normalize() error {
	slices.SortStableFunc(s.Ranks, func(a, b RankInfo) int { return cmp.Compare(a.Rank, b.Rank) })
	for i := 1; i < len(s.Ranks); i++ {
		if s.Ranks[i].Rank == s.Ranks[i-1].Rank {
			a, b := s.Ranks[i-1].origin(), s.Ranks[i].origin()
			if s.Ranks[i-1].source() != "" && s.Ranks[i].source() == "" {
				a, b = b, a
			}
			return &DuplicateRankError{Rank: s.Ranks[i].Rank, First: a, Second: b}
		}
	}
	return nil
}

// Classic is the summed profile as gprof would sum the ranks' files: the
// histograms (bins added), the arcs (counts added per caller and callee
// address) and the basic-block counts. Kept in a canonical order (ranges,
// arcs and blocks by address), so merges do not depend on their order.
type Classic struct {
	Rate                    uint32
	Dimen                   [15]byte
	Abbrev                  byte
	HasHist, HasArcs, HasBB bool
	Hists                   []gmon.Histogram
	Arcs                    []gmon.ArcRecord
	BBs                     []gmon.BBRecord
}

// ClassicFrom copies a summed profile.
func ClassicFrom(p *gmon.Profile) *Classic {
	c := &Classic{Rate: p.Rate, Dimen: p.Dimen, Abbrev: p.Abbrev, HasHist: p.HasHist, HasArcs: p.HasArcs, HasBB: p.HasBB}
	for _, h := range p.Hists {
		c.Hists = append(c.Hists, gmon.Histogram{LowPC: h.LowPC, HighPC: h.HighPC, Bins: slices.Clone(h.Bins)})
	}
	c.Arcs = slices.Clone(p.Arcs)
	c.BBs = slices.Clone(p.BBs)
	c.canonical()
	return c
}

// canonical sorts and folds the lists.
func (c *Classic) canonical() {
	slices.SortStableFunc(c.Hists, func(a, b gmon.Histogram) int {
		return cmp.Or(cmp.Compare(a.LowPC, b.LowPC), cmp.Compare(a.HighPC, b.HighPC))
	})
	slices.SortStableFunc(c.Arcs, func(a, b gmon.ArcRecord) int {
		return cmp.Or(cmp.Compare(a.FromPC, b.FromPC), cmp.Compare(a.SelfPC, b.SelfPC))
	})
	c.Arcs = foldSorted(c.Arcs, func(a, b *gmon.ArcRecord) bool { return a.FromPC == b.FromPC && a.SelfPC == b.SelfPC },
		func(a, b *gmon.ArcRecord) { a.Count += b.Count })
	slices.SortStableFunc(c.BBs, func(a, b gmon.BBRecord) int { return cmp.Compare(a.Addr, b.Addr) })
	c.BBs = foldSorted(c.BBs, func(a, b *gmon.BBRecord) bool { return a.Addr == b.Addr },
		func(a, b *gmon.BBRecord) { a.Count += b.Count })
}

// foldSorted merges neighbours that same says are one, with add.
func foldSorted[T any](s []T, same func(a, b *T) bool, add func(a, b *T)) []T {
	out := s[:0]
	for i := range s {
		if n := len(out); n > 0 && same(&out[n-1], &s[i]) {
			add(&out[n-1], &s[i])
			continue
		}
		out = append(out, s[i])
	}
	return out
}

// Merge adds o to c. Histograms with the same range add their bins; the
// first profile's rate and units must match the other's.
func (c *Classic) Merge(o *Classic) error {
	if c.HasHist && o.HasHist {
		if c.Rate != o.Rate && c.Rate != 0 && o.Rate != 0 {
			return fmt.Errorf("summed profiles sampled at %d Hz and %d Hz", c.Rate, o.Rate)
		}
		if !bytes.Equal(trimNUL(c.Dimen[:]), trimNUL(o.Dimen[:])) || c.Abbrev != o.Abbrev {
			return fmt.Errorf("summed profiles measure in different units (%q and %q)", trimNUL(c.Dimen[:]), trimNUL(o.Dimen[:]))
		}
	}
	if !c.HasHist && o.HasHist {
		c.Rate, c.Dimen, c.Abbrev = o.Rate, o.Dimen, o.Abbrev
	}
	for _, h := range o.Hists {
		found := false
		for i := range c.Hists {
			mine := &c.Hists[i]
			if mine.LowPC == h.LowPC && mine.HighPC == h.HighPC {
				if len(mine.Bins) != len(h.Bins) {
					return fmt.Errorf("histograms of [%#x, %#x) have %d and %d bins", h.LowPC, h.HighPC, len(mine.Bins), len(h.Bins))
				}
				for b, v := range h.Bins {
					mine.Bins[b] += v
				}
				found = true
				break
			}
			if mine.LowPC < h.HighPC && h.LowPC < mine.HighPC {
				return fmt.Errorf("histogram ranges [%#x, %#x) and [%#x, %#x) overlap", mine.LowPC, mine.HighPC, h.LowPC, h.HighPC)
			}
		}
		if !found {
			c.Hists = append(c.Hists, gmon.Histogram{LowPC: h.LowPC, HighPC: h.HighPC, Bins: slices.Clone(h.Bins)})
		}
	}
	c.Arcs = append(c.Arcs, o.Arcs...)
	c.BBs = append(c.BBs, o.BBs...)
	c.HasHist = c.HasHist || o.HasHist
	c.HasArcs = c.HasArcs || o.HasArcs
	c.HasBB = c.HasBB || o.HasBB
	c.canonical()
	return nil
}

// trimNUL returns b up to its first NUL.
func trimNUL(b []byte) []byte {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return b[:i]
	}
	return b
}

// AddTo adds the summed profile to p as if it were one more gmon file
// named name, and returns that file. A bin or an arc count too large for
// the gmon format's 16 or 32 bits is spread over several records, which
// the reader adds up again.
func (c *Classic) AddTo(p *gmon.Profile, name string) (*gmon.File, error) {
	f := &gmon.File{Name: name, Version: 1}
	if c.HasHist {
		if len(c.Hists) == 0 {
			// A histogram record without bins keeps HasHist and the units.
			f.Hists = append(f.Hists, gmon.HistRecord{Rate: c.Rate, Dimen: c.Dimen, Abbrev: c.Abbrev})
		}
		for _, h := range c.Hists {
			rest := slices.Clone(h.Bins)
			for first := true; ; first = false {
				rec := gmon.HistRecord{LowPC: h.LowPC, HighPC: h.HighPC, Rate: c.Rate, Dimen: c.Dimen, Abbrev: c.Abbrev,
					Size: uint32(len(rest)), Bins: make([]uint16, len(rest))}
				more := false
				for b, v := range rest {
					if v < 0 {
						return nil, fmt.Errorf("%s: negative histogram bin", name)
					}
					take := min(v, math.MaxUint16)
					rec.Bins[b] = uint16(take)
					rest[b] -= take
					more = more || rest[b] > 0
				}
				if first || slices.ContainsFunc(rec.Bins, func(v uint16) bool { return v != 0 }) {
					f.Hists = append(f.Hists, rec)
				}
				if !more {
					break
				}
			}
		}
	}
	for _, a := range c.Arcs {
		for n := a.Count; ; {
			take := min(n, math.MaxUint32)
			f.Arcs = append(f.Arcs, gmon.ArcRecord{FromPC: a.FromPC, SelfPC: a.SelfPC, Count: take})
			n -= take
			if n == 0 {
				break
			}
		}
	}
	f.BBs = c.BBs
	data, err := gmon.Marshal(f, p.Target)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p.AddData(data, name)
}
