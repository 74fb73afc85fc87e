package gmon

import (
	"math"

	"github.com/egprof/egprof/internal/binfmt"
	"github.com/egprof/egprof/internal/pairindex"
)

// Merge adds q, the sum of the files that come right after p's, to p, so
// that p becomes the sum of all of them as if every file had been added
// to p one after the other. Processes that each sum a contiguous run of a
// job's files thus combine their parts into the sum gprof makes of all
// the files: histograms in the order their ranges were first seen, arcs
// and basic-block counts in order of first appearance, the first
// histogram's rate and units, the last GNU file's version and the last
// histogram header's residue.
//
// A file is read in the context of the files before it (the first
// histogram's units and scale, the bin counts of known ranges, the ranges
// that must not be overlapped), and q's files were read without p's.
// Merge checks that this made no difference: q's first histogram has p's
// units and exactly p's scale, each of q's ranges that p knows has p's
// bin count, and q's other ranges overlap none of p's, and neither part
// read a BSD file. When a check fails, Merge returns false and leaves p
// unchanged: gprof might have read q's files differently, or failed, so
// the caller must add q's files to p one by one itself. p and q must have
// the same Target and Format, and neither may have released its sums
// (ReleaseBins, TakeArcs).
func (p *Profile) Merge(q *Profile) bool {
	if q.Files == 0 {
		return true
	}
	if p.Target != q.Target || p.Format != q.Format || p.checkOnly || q.checkOnly || p.released || q.released {
		return false
	}
	if p.Files == 0 {
		*p = *q.clone()
		return true
	}
	if p.sawBSD || q.sawBSD {
		return false
	}
	if len(p.hist) > 0 && len(q.hist) > 0 {
		sameScale := math.Float64bits(p.scale) == math.Float64bits(q.scale) ||
			(math.IsNaN(p.scale) && math.IsNaN(q.scale))
		if p.Dimen != q.Dimen || p.Abbrev != q.Abbrev || !sameScale {
			return false
		}
	}
	for _, h := range q.hist {
		if i, ok := p.findHist(h.lo, h.hi); ok {
			if p.hist[i].n != h.n {
				return false
			}
		} else if h.lo < h.hi {
			if _, overlaps := p.ov.find(h.lo, h.hi); overlaps {
				return false
			}
		}
	}

	// q's files read after p's as they were read alone: add them up.
	if len(p.hist) == 0 && len(q.hist) > 0 {
		p.Rate, p.Dimen, p.Abbrev, p.scale = q.Rate, q.Dimen, q.Abbrev, q.scale
	}
	for k, h := range q.hist {
		i, ok := p.findHist(h.lo, h.hi)
		if !ok {
			i = p.newHist(h.lo, h.hi, h.n)
		}
		acc, qh := &p.Hists[i], &q.Hists[k]
		for from, to := range qh.Spans() {
			for j, v := range qh.Bins[from:to] {
				if v != 0 {
					acc.Bins[from+j] += v // zeros leave the pages unwritten, as in addBins
					acc.mark(from + j)
				}
			}
		}
	}
	p.HasHist = p.HasHist || q.HasHist
	p.HasArcs = p.HasArcs || q.HasArcs
	p.HasBB = p.HasBB || q.HasBB
	if p.Arcs == nil && len(q.Arcs) > 0 {
		p.reserveArcs(len(q.Arcs))
	}
	for _, a := range q.Arcs {
		p.addArc(a)
	}
	for _, b := range q.BBs {
		p.addBB(b)
	}
	p.FileVersion = q.FileVersion // every file of q is a GNU file
	p.Files += q.Files
	if q.hasLast {
		p.lastHigh, p.lastBins, p.hasLast = q.lastHigh, q.lastBins, true
	}
	return true
}

// clone returns a copy of p that shares nothing with it.
func (p *Profile) clone() *Profile {
	c := NewProfile(p.Target, p.Format)
	c.restore(p.stateOf())
	return c
}

// summingState is everything of a summing Profile that the next file's
// reading and the results depend on.
type summingState struct {
	hists                   []Histogram
	counts                  []uint32 // each histogram's bin count
	rate                    uint32
	dimen                   [dimenLen]byte
	abbrev                  byte
	scale                   float64
	hasHist, hasArcs, hasBB bool
	arcs                    []ArcRecord
	bbs                     []BBRecord
	fileVersion             uint32
	files                   int
	lastHigh                uint64
	lastBins                uint32
	hasLast, sawBSD         bool
}

// stateOf returns p's summing state (sharing p's slices).
func (p *Profile) stateOf() summingState {
	counts := make([]uint32, len(p.hist))
	for i, h := range p.hist {
		counts[i] = h.n
	}
	return summingState{
		hists: p.Hists, counts: counts, rate: p.Rate, dimen: p.Dimen, abbrev: p.Abbrev, scale: p.scale,
		hasHist: p.HasHist, hasArcs: p.HasArcs, hasBB: p.HasBB, arcs: p.Arcs, bbs: p.BBs,
		fileVersion: p.FileVersion, files: p.Files, lastHigh: p.lastHigh, lastBins: p.lastBins,
		hasLast: p.hasLast, sawBSD: p.sawBSD,
	}
}

// restore sets an empty summing profile to state s, copying its data.
func (p *Profile) restore(s summingState) {
	for i, h := range s.hists {
		k := p.newHist(h.LowPC, h.HighPC, s.counts[i])
		acc := &p.Hists[k]
		for j, v := range h.Bins[:min(len(h.Bins), len(acc.Bins))] {
			if v != 0 {
				acc.Bins[j] = v
				acc.mark(j)
			}
		}
	}
	p.Rate, p.Dimen, p.Abbrev, p.scale = s.rate, s.dimen, s.abbrev, s.scale
	p.HasHist, p.HasArcs, p.HasBB = s.hasHist, s.hasArcs, s.hasBB
	p.Arcs = nil
	if len(s.arcs) > 0 {
		p.reserveArcs(len(s.arcs))
	}
	for _, a := range s.arcs {
		p.addArc(a)
	}
	for _, b := range s.bbs {
		p.addBB(b)
	}
	p.FileVersion, p.Files = s.fileVersion, s.files
	p.lastHigh, p.lastBins, p.hasLast, p.sawBSD = s.lastHigh, s.lastBins, s.hasLast, s.sawBSD
}

// stateSignature and stateVersion identify an encoded summing state.
const (
	stateSignature = "EGPGMSUM"
	stateVersion   = 1
)

// EncodeState returns p's summing state as bytes, for DecodeState in
// another process of the same job: the summed histograms, arcs and
// basic-block counts, and what the reading of later files and the results
// depend on. It is a transport between egprof processes of one build, not
// a file format to keep.
func (p *Profile) EncodeState() []byte {
	s := p.stateOf()
	var w binfmt.Writer
	w.Uint(uint64(len(s.hists)))
	for i, h := range s.hists {
		w.Uint(h.LowPC)
		w.Uint(h.HighPC)
		w.Uint(uint64(s.counts[i]))
		for _, b := range h.Bins {
			w.Int(b)
		}
	}
	w.Uint(uint64(s.rate))
	w.Raw(s.dimen[:])
	w.Uint(uint64(s.abbrev))
	w.Float(s.scale)
	w.Bool(s.hasHist)
	w.Bool(s.hasArcs)
	w.Bool(s.hasBB)
	w.Uint(uint64(len(s.arcs)))
	for _, a := range s.arcs {
		w.Uint(a.FromPC)
		w.Uint(a.SelfPC)
		w.Uint(a.Count)
	}
	w.Uint(uint64(len(s.bbs)))
	for _, b := range s.bbs {
		w.Uint(b.Addr)
		w.Uint(b.Count)
	}
	w.Uint(uint64(s.fileVersion))
	w.Uint(uint64(s.files))
	w.Uint(s.lastHigh)
	w.Uint(uint64(s.lastBins))
	w.Bool(s.hasLast)
	w.Bool(s.sawBSD)
	return w.File(stateSignature, stateVersion)
}

// DecodeState returns the summing profile encoded by EncodeState, for
// data files of target t read with format f. name is used in errors. The
// histogram ranges must be those a reading could have made (distinct,
// non-empty ones pairwise disjoint), and every count must fit its field.
func DecodeState(data []byte, name string, t Target, f Format) (*Profile, error) {
	if err := t.check(); err != nil {
		return nil, &FormatError{File: name, Offset: -1, Kind: KindTarget, Msg: err.Error(), Err: err}
	}
	r, err := binfmt.Open(data, name, stateSignature, stateVersion, "an egprof summing state")
	if err != nil {
		return nil, err
	}
	var s summingState
	u32 := func(what string) uint32 {
		v := r.Uint(what)
		if r.Err() == nil && v > math.MaxUint32 {
			r.Fail("%s %d does not fit 32 bits", what, v)
		}
		return uint32(v)
	}
	// A histogram takes at least 3 bytes, a bin 1, an arc 3, a block 2.
	n := r.Count("histogram count", 3)
	type rng struct{ lo, hi uint64 }
	seen := map[rng]bool{}
	var ov overlapSet
	for range n {
		lo, hi := r.Uint("histogram low pc"), r.Uint("histogram high pc")
		count := u32("bin count")
		if r.Err() == nil && uint64(count) > uint64(len(data)-r.Offset()) {
			r.Fail("bin count %d is more than the data can hold", count)
		}
		nb := int(count)
		if r.Err() != nil {
			return nil, r.Err()
		}
		if r.Err() == nil && seen[rng{lo, hi}] {
			r.Fail("histogram range [%#x, %#x) twice", lo, hi)
		}
		if r.Err() == nil && lo < hi {
			if _, bad := ov.find(lo, hi); bad {
				r.Fail("histogram range [%#x, %#x) overlaps an earlier one", lo, hi)
			}
			ov.add(lo, hi)
		}
		seen[rng{lo, hi}] = true
		bins := make([]int64, nb)
		for j := range bins {
			bins[j] = r.Int("bin")
		}
		if r.Err() != nil {
			return nil, r.Err()
		}
		s.hists = append(s.hists, Histogram{LowPC: lo, HighPC: hi, Bins: bins})
		s.counts = append(s.counts, uint32(count))
	}
	s.rate = u32("rate")
	copy(s.dimen[:], r.Bytes("unit name", dimenLen))
	abbrev := r.Uint("unit letter")
	if r.Err() == nil && abbrev > math.MaxUint8 {
		r.Fail("unit letter %d is not a byte", abbrev)
	}
	s.abbrev = byte(abbrev)
	s.scale = r.Float("scale")
	s.hasHist, s.hasArcs, s.hasBB = r.Bool("histogram flag"), r.Bool("arc flag"), r.Bool("block flag")
	na := r.Count("arc count", 3)
	s.arcs = make([]ArcRecord, 0, na)
	arcs := pairindex.Index{}
	pairindex.Reset(&arcs, s.arcs, arcKey, na)
	for range na {
		a := ArcRecord{FromPC: r.Uint("arc from pc"), SelfPC: r.Uint("arc self pc"), Count: r.Uint("arc count")}
		if r.Err() == nil && pairindex.Find(&arcs, s.arcs, arcKey, a.FromPC, a.SelfPC) >= 0 {
			r.Fail("arc %#x -> %#x twice", a.FromPC, a.SelfPC)
		}
		if r.Err() != nil {
			return nil, r.Err()
		}
		s.arcs = append(s.arcs, a)
		pairindex.Insert(&arcs, s.arcs, arcKey, len(s.arcs)-1)
	}
	nbb := r.Count("block count", 2)
	blocks := make(map[uint64]bool, nbb)
	for range nbb {
		b := BBRecord{Addr: r.Uint("block address"), Count: r.Uint("block count")}
		if r.Err() == nil && blocks[b.Addr] {
			r.Fail("block %#x twice", b.Addr)
		}
		if r.Err() != nil {
			return nil, r.Err()
		}
		blocks[b.Addr] = true
		s.bbs = append(s.bbs, b)
	}
	s.fileVersion = u32("file version")
	files := r.Uint("file count")
	if r.Err() == nil && files > math.MaxInt32 {
		r.Fail("file count %d", files)
	}
	s.files = int(files)
	s.lastHigh = r.Uint("last histogram's high pc")
	s.lastBins = u32("last histogram's bin count")
	s.hasLast, s.sawBSD = r.Bool("residue flag"), r.Bool("BSD flag")
	if err := r.Finish(); err != nil {
		return nil, err
	}
	p := NewProfile(t, f)
	p.restore(s)
	return p, nil
}
