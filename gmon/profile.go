package gmon

import (
	"encoding/binary"
	"iter"
	"slices"

	"github.com/egprof/egprof/internal/pairindex"
)

// Histogram is one accumulated histogram: the sum of every record read for
// the range [LowPC, HighPC).
//
// Divergence: gprof adds the 16-bit counters into a C int, which in
// practice wraps at 2^32 and is then used as unsigned. Bins here are int64,
// so the two differ only once a single bin's total passes 2^31-1, which
// takes more than 32768 files with a full bin each. A caller that wants
// gprof's exact number can use uint32(bin).
type Histogram struct {
	LowPC, HighPC uint64
	Bins          []int64

	// written marks the blocks of binsPerBlock counters that a count was
	// added to (bit b%64 of written[b/64] for block b); nil when not known,
	// for a Histogram made outside this package. See Spans.
	written []uint64
}

// binsPerBlock is how many counters one mark of Histogram.written covers:
// a page of int64 counters.
const binsPerBlock = 512

// newHistogram returns an empty histogram of n bins over [lo, hi), whose
// writes are marked.
func newHistogram(lo, hi uint64, n uint32) Histogram {
	blocks := (int(n) + binsPerBlock - 1) / binsPerBlock
	return Histogram{LowPC: lo, HighPC: hi, Bins: make([]int64, n), written: make([]uint64, (blocks+63)/64)}
}

// mark records that bin j may hold a nonzero count.
func (h *Histogram) mark(j int) {
	b := j / binsPerBlock
	h.written[b/64] |= 1 << (b % 64)
}

// Spans returns the ranges [from, to) of Bins, in increasing order,
// outside which every bin is zero: the runs of blocks this package has
// added counts to, or all of Bins for a histogram made elsewhere. A reader
// that looks only for nonzero counts reads these ranges alone: the pages
// of a large histogram that no sample reached are then never touched
// (lua's 51,936 bins take 102 pages, of which its profile writes 21).
func (h *Histogram) Spans() iter.Seq2[int, int] {
	return func(yield func(from, to int) bool) {
		if h.written == nil {
			if len(h.Bins) > 0 {
				yield(0, len(h.Bins))
			}
			return
		}
		blocks := (len(h.Bins) + binsPerBlock - 1) / binsPerBlock
		for b := 0; b < blocks; {
			if h.written[b/64]&(1<<(b%64)) == 0 {
				b++
				continue
			}
			start := b
			for b < blocks && h.written[b/64]&(1<<(b%64)) != 0 {
				b++
			}
			if !yield(start*binsPerBlock, min(b*binsPerBlock, len(h.Bins))) {
				return
			}
		}
	}
}

// Profile is the sum of several data files, accumulated as gprof does when
// given more than one: histograms with identical ranges have their bins
// added, other disjoint ranges become further histograms, the first
// histogram record fixes the rate and the units, and arcs and basic-block
// counts are summed.
//
// Arcs are summed per identical raw (FromPC, SelfPC) pair and kept in the
// order each pair first appeared. gprof sums per (caller symbol, callee
// symbol) pair instead, but since several raw pairs map to one symbol pair
// and sums are associative, folding these arcs in order gives gprof's
// counts and gprof's order of first appearance, with memory bounded by the
// number of distinct pairs.
//
// The exported fields are results; treat them as read-only. Create a
// Profile with NewProfile.
type Profile struct {
	Target Target
	Format Format

	// Hists are the histograms in the order their ranges were first seen.
	Hists []Histogram
	// Rate is gprof's hz: samples per second from the first histogram
	// record (or 4.4BSD header), 100 after an old BSD file, 0 while unknown.
	Rate uint32
	// Dimen and Abbrev are the unit name (15 raw bytes) and letter of the
	// first GNU histogram record; "seconds" and 's' until one is read.
	Dimen  [dimenLen]byte
	Abbrev byte
	// HasHist, HasArcs and HasBB are gprof's "input" flags. A GNU file
	// sets HasHist for any tag-0 record (even one without bins), HasArcs
	// for any tag-1 record (even one whose addresses match no symbol) and
	// HasBB for any tag-2 record. A BSD file sets HasHist and HasArcs and,
	// as gprof does, clears HasBB, so a gmon.sum written afterwards has no
	// basic-block record.
	HasHist, HasArcs, HasBB bool
	// Arcs holds the summed arcs, first appearance first.
	Arcs []ArcRecord
	// BBs holds the basic-block counts summed per address, first
	// appearance first.
	BBs []BBRecord
	// FileVersion is the version of the last GNU file added; a BSD file
	// leaves it unchanged. It is the number gprof -i prints for the file
	// just added (so a BSD file read after a version-1 file shows 1).
	FileVersion uint32
	// Files counts the files added.
	Files int

	// checkOnly is set for the scratch profile behind Read: records are
	// parsed and checked against each other but not summed.
	checkOnly bool
	// reuse is the File whose storage the next read may reuse.
	reuse *File
	// released is set once ReleaseBins or TakeArcs has dropped sums
	// that further files would add to.
	released bool

	hist  []histInfo // every histogram, parallel to Hists when accumulating
	index map[rangeKey]int
	ov    overlapSet
	scale float64

	lastHigh uint64 // spare-byte residue, see Spare
	lastBins uint32
	hasLast  bool

	arcIndex pairindex.Index // positions in Arcs by address pair
	bbIndex  map[uint64]int

	// sawBSD is set once a BSD file has been added: the summing of a
	// later part cannot then be checked against this one (see Merge).
	sawBSD bool
}

// histInfo is what the reader needs to know about a histogram.
type histInfo struct {
	lo, hi uint64
	n      uint32
}

// rangeKey is an exact address pair: a histogram range or a raw arc.
type rangeKey struct{ a, b uint64 }

// defaultDimen returns gprof's unit name until a histogram record says
// otherwise.
func defaultDimen() [dimenLen]byte {
	return [dimenLen]byte{'s', 'e', 'c', 'o', 'n', 'd', 's'}
}

// NewProfile returns an empty profile for data files of target t, read
// with format f (gprof's -O).
func NewProfile(t Target, f Format) *Profile {
	return &Profile{
		Target: t,
		Format: f,
		Dimen:  defaultDimen(),
		Abbrev: 's',
	}
}

// AddData parses one data file held in data and adds it to the profile,
// exactly as gprof reads each file of a run: the histograms and the rate
// of the files added before decide how some records are read and which
// checks fail. name is used in errors. It returns the file as read.
//
// This is the way to read the files of a run. Read followed by Add works
// too but does the parsing twice, and Read, which reads a file as if it
// were the only one, refuses the rare crafted file that gprof accepts only
// after an earlier one (a record that repeats an earlier zero-width range
// with a different bin count).
//
// On error the profile holds every record before the faulty one, which is
// of no use except to report: gprof stops at the first bad file.
func (p *Profile) AddData(data []byte, name string) (*File, error) {
	return p.read(data, name, false)
}

// AddDataLean is AddData for a caller that needs of the File only its
// header fields, record counts and basic blocks: the File's histogram
// records have no Bins and it has no Arcs, which spares a copy of what
// the profile sums. Neither the File nor the profile refers to data once
// it returns, so data may be released (a mapped file unmapped); the File
// cannot be given to Add.
func (p *Profile) AddDataLean(data []byte, name string) (*File, error) {
	return p.read(data, name, true)
}

// Add adds a file to the profile. For a File returned by Read or ReadFile
// this parses its bytes again in the context of the files added before,
// exactly like AddData: the File's own records, read as if it were the
// only file, are not used, since in rare cases the context changes them,
// and a file can fail checks against earlier files that it passed alone.
// A File built by hand is encoded with Marshal and then read the same way.
func (p *Profile) Add(f *File) error {
	if f.lean {
		return &FormatError{File: f.Name, Offset: -1, Kind: KindOther, Msg: "cannot add a file read lean (AddDataLean): its records were not kept"}
	}
	data := f.raw
	if data == nil {
		var err error
		if data, err = Marshal(f, p.Target); err != nil {
			return &FormatError{File: f.Name, Offset: -1, Kind: KindOther, Msg: "cannot encode file: " + err.Error(), Err: err}
		}
	}
	_, err := p.read(data, f.Name, false)
	return err
}

// ReleaseBins drops the histograms' sample counters (Hists keep their
// ranges, with nil Bins) for a caller that has used them, so that their
// memory can be reclaimed while the profile itself is still referenced.
// The profile then accepts no further file.
func (p *Profile) ReleaseBins() {
	for i := range p.Hists {
		p.Hists[i].Bins, p.Hists[i].written = nil, nil
	}
	p.released = true
}

// TakeArcs returns the arc records and drops them, and the index that sums
// them, from the profile, so that they live only as long as the caller
// keeps them. The profile then accepts no further file.
func (p *Profile) TakeArcs() []ArcRecord {
	arcs := p.Arcs
	p.Arcs = nil
	p.arcIndex = pairindex.Index{}
	p.released = true
	return arcs
}

// Scale returns the bin width in 2-byte units of the first histogram, as
// gprof computes it: the address span halved by integer division, then
// divided by the bin count in floating point. It is +Inf or NaN for a
// first record without bins, and 0 while there is no histogram.
func (p *Profile) Scale() float64 { return p.scale }

// DimenString returns the unit name up to its first NUL.
func (p *Profile) DimenString() string { return cString(p.Dimen[:]) }

// Spare returns the 12 "spare" header bytes gprof 2.40 writes into
// gmon.sum. gprof never sets them; they hold stack residue which, in every
// case observed, is the high_pc (8 bytes) and bin count (4 bytes; a BSD
// file's raw ncnt) of the last histogram header parsed, in the byte order
// of the host gprof runs on (little-endian x86-64) whatever the target,
// or zeros if no histogram header was read.
func (p *Profile) Spare() [12]byte {
	var s [12]byte
	if p.hasLast {
		binary.LittleEndian.PutUint64(s[0:], p.lastHigh)
		binary.LittleEndian.PutUint32(s[8:], p.lastBins)
	}
	return s
}

// binScale is gprof's bin width for a histogram: integer halving of the
// span (which wraps for an inverted range), then a float division.
func binScale(lo, hi uint64, n uint32) float64 {
	return float64((hi-lo)/2) / float64(n)
}

// cString returns b up to its first NUL.
func cString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

// findHist returns the histogram with exactly this range.
func (p *Profile) findHist(lo, hi uint64) (int, bool) {
	i, ok := p.index[rangeKey{lo, hi}]
	return i, ok
}

// newHist registers a new histogram (allocating its accumulators when the
// profile sums) and returns its index.
func (p *Profile) newHist(lo, hi uint64, n uint32) int {
	if p.index == nil {
		p.index = make(map[rangeKey]int)
	}
	i := len(p.hist)
	p.hist = append(p.hist, histInfo{lo, hi, n})
	p.index[rangeKey{lo, hi}] = i
	if lo < hi {
		p.ov.add(lo, hi)
	}
	if !p.checkOnly {
		p.Hists = append(p.Hists, newHistogram(lo, hi, n))
	}
	return i
}

// addBins adds counters into histogram i. Like addEncodedBins, it writes
// only the accumulators of nonzero counts.
func (p *Profile) addBins(i int, bins []uint16) {
	if p.checkOnly {
		return
	}
	h := &p.Hists[i]
	acc := h.Bins
	n := min(len(acc), len(bins)) // equal unless a caller changed Hists
	for j, v := range bins[:n] {
		if v != 0 {
			acc[j] += int64(v)
			h.mark(j)
		}
	}
}

// addEncodedBins adds the n counters encoded in b (as d reads them) into
// histogram i, without decoding them into a slice first. Only the
// accumulators of nonzero counts are written: most bins of a profile are
// zero, and the pages of a large histogram that nothing writes are never
// given to the process (the accumulators of sqlite3's 935 KB of code take
// 2 MB, of which a profile writes a few pages).
func (p *Profile) addEncodedBins(i int, d decoder, b []byte, n int) {
	if p.checkOnly {
		return
	}
	h := &p.Hists[i]
	acc := h.Bins
	n = min(len(acc), n) // equal unless a caller changed Hists
	b = b[:2*n]
	hi, lo := 1, 0 // the bytes of a little-endian counter
	if d.big {
		hi, lo = 0, 1
	}
	for j := 0; j < n; j++ {
		if v := uint16(b[2*j+hi])<<8 | uint16(b[2*j+lo]); v != 0 {
			acc[j] += int64(v)
			h.mark(j)
		}
	}
}

// reserveArcs prepares the arc table of an empty profile for about n
// arcs; n is bounded by the size of the input.
func (p *Profile) reserveArcs(n int) {
	if !p.checkOnly && p.Arcs == nil {
		p.Arcs = make([]ArcRecord, 0, n)
		pairindex.Reset(&p.arcIndex, p.Arcs, arcKey, n)
	}
}

// addArc sums one arc.
func (p *Profile) addArc(a ArcRecord) {
	if p.checkOnly {
		return
	}
	if i := pairindex.Find(&p.arcIndex, p.Arcs, arcKey, a.FromPC, a.SelfPC); i >= 0 {
		p.Arcs[i].Count += a.Count
		return
	}
	p.Arcs = append(p.Arcs, a)
	pairindex.Insert(&p.arcIndex, p.Arcs, arcKey, len(p.Arcs)-1)
}

// arcKey is the key pair arcs are indexed by.
func arcKey(a *ArcRecord) (uint64, uint64) { return a.FromPC, a.SelfPC }

// addBB sums one basic-block count.
func (p *Profile) addBB(b BBRecord) {
	if p.checkOnly {
		return
	}
	if p.bbIndex == nil {
		p.bbIndex = make(map[uint64]int)
	}
	if i, ok := p.bbIndex[b.Addr]; ok {
		p.BBs[i].Count += b.Count
		return
	}
	p.bbIndex[b.Addr] = len(p.BBs)
	p.BBs = append(p.BBs, b)
}

// overlapSet holds the non-empty histogram ranges, which are pairwise
// disjoint, and answers "does [lo, hi) meet any of them" quickly even for
// files with many thousands of histogram records. Ranges live in a sorted
// slice plus a short unsorted tail that is merged in once it grows past
// about the square root of the sorted part.
type overlapSet struct {
	sorted  []histInfo // ordered by lo (and so by hi)
	pending []histInfo
}

func (s *overlapSet) add(lo, hi uint64) {
	s.pending = append(s.pending, histInfo{lo: lo, hi: hi})
	if len(s.pending) > 8 && len(s.pending)*len(s.pending) > len(s.sorted) {
		slices.SortFunc(s.pending, func(a, b histInfo) int {
			if a.lo < b.lo {
				return -1
			}
			if a.lo > b.lo {
				return 1
			}
			return 0
		})
		merged := make([]histInfo, 0, len(s.sorted)+len(s.pending))
		i, j := 0, 0
		for i < len(s.sorted) && j < len(s.pending) {
			if s.sorted[i].lo < s.pending[j].lo {
				merged = append(merged, s.sorted[i])
				i++
			} else {
				merged = append(merged, s.pending[j])
				j++
			}
		}
		merged = append(merged, s.sorted[i:]...)
		merged = append(merged, s.pending[j:]...)
		s.sorted, s.pending = merged, s.pending[:0]
	}
}

// find returns a stored range that shares at least one address with the
// non-empty range [lo, hi).
func (s *overlapSet) find(lo, hi uint64) (histInfo, bool) {
	// The first stored range ending above lo is the only sorted candidate.
	i, _ := slices.BinarySearchFunc(s.sorted, lo, func(r histInfo, lo uint64) int {
		if r.hi <= lo {
			return -1
		}
		return 1
	})
	if i < len(s.sorted) && s.sorted[i].lo < hi {
		return s.sorted[i], true
	}
	for _, r := range s.pending {
		if max(r.lo, lo) < min(r.hi, hi) {
			return r, true
		}
	}
	return histInfo{}, false
}
