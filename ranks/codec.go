package ranks

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"sort"

	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/binfmt"
)

// The summary file format (version 2): binfmt's header (an 8-byte
// signature "EGPRANKS", a uint32 version, a uint64 payload length and the
// payload's CRC-32C, little-endian), then the payload, where "uv" is an
// unsigned LEB128 varint (binfmt's Uint) and "str" a uv length followed by
// that many bytes of UTF-8:
//
//	payload:
//	  exe str, fingerprint 32 bytes, regions-option str,
//	  activities uv, then per activity: name str, pattern str
//	  rank-time str ("self" or "inclusive")
//	  topK uv, hz uv
//	  regions uv, then per region: name str
//	  activity names uv, then per activity: name str
//	  cells uv, then per cell by region, then activity: region uv,
//	    activity uv
//	  ranks uv, then per rank in ascending order:
//	    rank number uv (the first absolute, the others as the gap − 1
//	    after the previous), label str, total uv, truncated uv (0/1),
//	    kept regions uv, then per kept region: region-index gap uv
//	    (absolute for the first), time uv
//	  per cell: time acc, calls acc, and with rank-time inclusive the
//	    inclusive time acc
//	  per region: time acc, calls acc, sketch
//	  classic uv (0: absent, 1: present), then if present:
//	    rate uv, units 15 bytes, unit letter 1 byte, flags uv (1 has
//	    histogram, 2 has arcs, 4 has basic blocks),
//	    histograms uv, then per histogram: low uv, high uv, bins uv,
//	      non-zero bins uv, then per non-zero bin: index gap uv, count uv
//	    arcs uv, then per arc: from uv, self uv, count uv
//	    blocks uv, then per block: address uv, count uv
//	acc: ranks uv, non-zero uv, sum hi uv, sum lo uv, sum of squares hi uv,
//	     lo uv, min uv, min rank uv, max uv, max rank uv
//	sketch: buckets uv, then per bucket in ascending order: key gap uv, count uv
//
// Times are fixed-point histogram samples (FixedOne per sample). Version 1
// (egprof before regions held the time of the activities they call) had
// no rank-time and one cell per function's own region and activity; its
// files are refused, as their cells cannot be split by caller. Version 2
// kept times in 1/65536ths of a sample; its files are refused too.
const (
	// maxBins bounds a summed histogram read from a summary (32 Mi bins,
	// 128 MiB of text at glibc's 4 bytes per bin), so that a damaged
	// count cannot make the reader allocate without limit.
	maxBins = 1 << 25

	summarySignature = "EGPRANKS"
	summaryVersion   = 3
)

// IsSummary reports whether data starts like a summary file.
func IsSummary(data []byte) bool { return binfmt.HasSignature(data, summarySignature) }

// writeAcc appends an accumulator.
func writeAcc(w *binfmt.Writer, a *Acc) {
	w.Uint(a.N)
	w.Uint(a.NonZero)
	w.Uint(a.sum.hi)
	w.Uint(a.sum.lo)
	w.Uint(a.sumSq.hi)
	w.Uint(a.sumSq.lo)
	w.Uint(a.Min)
	w.Uint(uint64(a.MinRank))
	w.Uint(a.Max)
	w.Uint(uint64(a.MaxRank))
}

// Encode returns the summary in the file format. A summary whose ranks
// Collect kept in a Spill is written by WriteTo, which reads them back.
func (s *Summary) Encode() []byte {
	e := &binfmt.Writer{}
	e.String(s.Exe)
	e.Raw(s.Fingerprint[:])
	e.String(s.Config.Regions)
	acts := s.Config.activities()
	e.Uint(uint64(len(acts)))
	for _, a := range acts {
		e.String(a.Name)
		e.String(a.Pattern)
	}
	e.String(orDefault(s.Config.Time, TimeSelf))
	e.Uint(uint64(s.TopK))
	e.Uint(uint64(s.HZ))
	e.Uint(uint64(len(s.Regions)))
	for _, r := range s.Regions {
		e.String(r)
	}
	e.Uint(uint64(len(s.Activities)))
	for _, a := range s.Activities {
		e.String(a)
	}
	order := s.cellOrder()
	e.Uint(uint64(len(s.Cells)))
	for _, i := range order {
		e.Uint(uint64(s.Cells[i].Region))
		e.Uint(uint64(s.Cells[i].Activity))
	}
	e.Uint(uint64(len(s.Ranks)))
	prev := -1
	for _, r := range s.Ranks {
		if prev < 0 {
			e.Uint(uint64(r.Rank))
		} else {
			e.Uint(uint64(r.Rank - prev - 1))
		}
		prev = r.Rank
		e.String(r.Label())
		e.Uint(r.Total())
		e.Bool(r.Truncated)
		held := r.entries()
		e.Uint(uint64(len(held)))
		last := int32(-1)
		for _, t := range held {
			e.Uint(uint64(t.Region - last - 1))
			last = t.Region
			e.Uint(t.Value)
		}
	}
	for _, c := range order {
		writeAcc(e, &s.CellTime[c])
		writeAcc(e, &s.CellCalls[c])
		if s.CellIncl != nil {
			writeAcc(e, &s.CellIncl[c])
		}
	}
	for r := range s.Regions {
		writeAcc(e, &s.RegionTime[r])
		writeAcc(e, &s.RegionCalls[r])
		bs := s.RegionSketch[r].buckets
		e.Uint(uint64(len(bs)))
		last := int64(-1)
		for _, b := range bs {
			e.Uint(uint64(int64(b.key) - last - 1))
			last = int64(b.key)
			e.Uint(uint64(b.count))
		}
	}
	if c := s.Classic; c == nil {
		e.Uint(0)
	} else {
		e.Uint(1)
		e.Uint(uint64(c.Rate))
		e.Raw(c.Dimen[:])
		e.Raw([]byte{c.Abbrev})
		e.Uint(b2u(c.HasHist) | b2u(c.HasArcs)<<1 | b2u(c.HasBB)<<2)
		e.Uint(uint64(len(c.Hists)))
		for _, h := range c.Hists {
			e.Uint(h.LowPC)
			e.Uint(h.HighPC)
			e.Uint(uint64(len(h.Bins)))
			nz := 0
			for _, v := range h.Bins {
				if v != 0 {
					nz++
				}
			}
			e.Uint(uint64(nz))
			last := -1
			for i, v := range h.Bins {
				if v != 0 {
					e.Uint(uint64(i - last - 1))
					e.Uint(uint64(v))
					last = i
				}
			}
		}
		e.Uint(uint64(len(c.Arcs)))
		for _, a := range c.Arcs {
			e.Uint(a.FromPC)
			e.Uint(a.SelfPC)
			e.Uint(a.Count)
		}
		e.Uint(uint64(len(c.BBs)))
		for _, b := range c.BBs {
			e.Uint(b.Addr)
			e.Uint(b.Count)
		}
	}
	return e.File(summarySignature, summaryVersion)
}

// WriteTo writes the encoded summary to w. A summed histogram larger than
// a summary may hold is refused before anything is written.
func (s *Summary) WriteTo(w io.Writer) (int64, error) {
	if err := s.unspill(); err != nil {
		return 0, err
	}
	if s.Classic != nil {
		for _, h := range s.Classic.Hists {
			if len(h.Bins) > maxBins {
				return 0, fmt.Errorf("a histogram of %d bins is more than a summary may hold (%d)", len(h.Bins), maxBins)
			}
		}
	}
	n, err := w.Write(s.Encode())
	return int64(n), err
}

// orDefault is s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// b2u is 1 for true.
func b2u(ok bool) uint64 {
	if ok {
		return 1
	}
	return 0
}

// readAcc reads an accumulator over the summary's ranks (ascending) and
// checks it against them.
func readAcc(d *binfmt.Reader, what string, ranks []RankInfo) Acc {
	at := d.Offset()
	a := Acc{N: d.Uint(what), NonZero: d.Uint(what), sum: u128{d.Uint(what), d.Uint(what)}, sumSq: u128{d.Uint(what), d.Uint(what)},
		Min: d.Uint(what), MinRank: int(d.Uint(what)), Max: d.Uint(what), MaxRank: int(d.Uint(what))}
	if d.Err() != nil {
		return a
	}
	has := func(r int) bool {
		i := sort.Search(len(ranks), func(i int) bool { return ranks[i].Rank >= r })
		return i < len(ranks) && ranks[i].Rank == r
	}
	switch {
	case a.N != uint64(len(ranks)):
		d.FailAt(at, "%s covers %d ranks, the summary has %d", what, a.N, len(ranks))
	case a.NonZero > a.N:
		d.FailAt(at, "%s: %d non-zero ranks of %d", what, a.NonZero, a.N)
	case a.N > 0 && (a.Min > a.Max || !has(a.MinRank) || !has(a.MaxRank)):
		d.FailAt(at, "%s: inconsistent extremes", what)
	case a.N > 0 && (a.sumSq.float()*(1+1e-12) < a.sum.float()*float64(a.Min) || a.sum.float() > float64(a.Max)*float64(a.N)*(1+1e-12)):
		d.FailAt(at, "%s: sums do not agree with the extremes", what)
	}
	return a
}

// DecodeSummary parses a summary file held in data; name is used in
// errors, which are *binfmt.FormatError.
func DecodeSummary(data []byte, name string) (*Summary, error) {
	return decodeSummary(data, name, nil)
}

// leanRanks tells decodeSummary, reading a job's part (DecodePart), which
// ranks are recorded leanly: those go straight into a store of the
// part's own instead of records of their own.
type leanRanks struct {
	inputOf    []uint64 // per rank: its input + 1, or 0 for a rank with a record of its own
	inputs     *Inputs
	candidates []int32
	store      *keptStore
}

// decodeSummary is DecodeSummary, with a part's lean ranks when lean is
// set (the ranks of a part were read from their gmon files in this run).
func decodeSummary(data []byte, name string, lean *leanRanks) (*Summary, error) {
	if IsSummary(data) && len(data) >= 12 {
		switch binary.LittleEndian.Uint32(data[8:]) {
		case 1:
			return nil, &binfmt.FormatError{File: name, Offset: 8, Msg: "a rank summary of format version 1, made by an egprof whose regions did not " +
				"hold the time of the activities they call: make it again from the gmon files"}
		case 2:
			return nil, &binfmt.FormatError{File: name, Offset: 8, Msg: "a rank summary of format version 2, made by an egprof that kept times " +
				"in 1/65536ths of a sample: make it again from the gmon files"}
		}
	}
	d, err := binfmt.Open(data, name, summarySignature, summaryVersion, "an egprof rank summary")
	if err != nil {
		return nil, err
	}
	s := &Summary{}
	s.Exe = d.String("executable name")
	copy(s.Fingerprint[:], d.Bytes("fingerprint", 32))
	at := d.Offset()
	s.Config.Regions = d.String("regions option")
	if _, err := s.Config.regionsRE(); err != nil {
		d.FailAt(at, "%v", err)
	}
	at = d.Offset()
	na := d.Count("activity definitions", 2)
	if na > MaxActivities {
		d.FailAt(at, "%d activity definitions, more than %d", na, MaxActivities)
	}
	for range na {
		at := d.Offset()
		nm, pat := d.String("activity name"), d.String("activity pattern")
		if d.Err() != nil {
			break
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			d.FailAt(at, "activity %s: %v", nm, err)
			break
		}
		s.Config.Activities = append(s.Config.Activities, Activity{Name: nm, Pattern: pat, re: re})
	}
	at = d.Offset()
	s.Config.Time = d.String("rank time")
	if err := CheckTime(s.Config.Time); err != nil && d.Err() == nil {
		d.FailAt(at, "%v", err)
	}
	s.TopK = int(d.Uint("regions kept per rank"))
	at = d.Offset()
	if hz := d.Uint("sampling rate"); hz > 1<<32-1 {
		d.FailAt(at, "sampling rate %d out of range", hz)
	} else {
		s.HZ = uint32(hz)
	}
	nr := d.Count("regions", 1)
	s.Regions = make([]string, 0, nr)
	for range nr {
		s.Regions = append(s.Regions, d.String("region name"))
	}
	at = d.Offset()
	nact := d.Count("activities", 1)
	for range nact {
		s.Activities = append(s.Activities, d.String("activity name"))
	}
	if d.Err() == nil {
		var want []string
		for _, a := range s.Config.Activities {
			want = append(want, a.Name)
		}
		if !slices.Contains(want, Computation) {
			want = append(want, Computation)
		}
		if !slices.Equal(want, s.Activities) {
			d.FailAt(at, "activity names do not match their definitions")
		}
	}
	nc := d.Count("cells", 2)
	s.Cells = make([]Cell, nc)
	for i := range s.Cells {
		at := d.Offset()
		s.Cells[i] = Cell{Region: d.Index("cell region", nr), Activity: d.Index("cell activity", nact)}
		if i > 0 && d.Err() == nil && compareCells(s.Cells[i-1], s.Cells[i]) >= 0 {
			d.FailAt(at, "cells out of order")
		}
	}
	np := d.Count("ranks", 5)
	s.Ranks = make([]RankInfo, np)
	prev := -1
	for i := range s.Ranks {
		at := d.Offset()
		v := d.Uint("rank number")
		r := int(v)
		if prev >= 0 {
			r = prev + 1 + int(v)
		}
		if v > 1<<40 || r < 0 {
			d.FailAt(at, "rank number out of range")
			break
		}
		prev = r
		label, total := d.String("rank label"), d.Uint("rank total")
		ri := RankInfo{Rank: r, Truncated: d.Uint("truncation flag") != 0}
		var put func(region int32, v uint64)
		switch {
		case lean != nil && i < len(lean.inputOf) && lean.inputOf[i] > 0:
			input := lean.inputOf[i] - 1
			if input >= uint64(lean.inputs.Len()) || lean.inputs.Name(int(input)) != label || lean.inputs.Rank(int(input)) != r {
				d.FailAt(at, "rank %d is not input %d's", r, input)
				break
			}
			if lean.store == nil {
				lean.store = &keptStore{inputs: lean.inputs}
				lean.store.setRegions(lean.candidates)
			}
			k := lean.store
			ri.kept, ri.row = k, k.add(int(input), total)
			put = func(region int32, v uint64) {
				j, ok := k.region(int(region))
				if !ok {
					d.FailAt(at, "rank %d holds region %d, not a candidate", r, region)
					return
				}
				k.values[j].set(int(ri.row), k.n, v)
			}
		default:
			source := name
			if lean != nil {
				source = "" // read from its gmon file in this run
			}
			ri.more = &rankMore{label: label, total: total, source: source}
			put = func(region int32, v uint64) {
				ri.more.top = append(ri.more.top, RegionValue{Region: region, Value: v})
			}
		}
		at = d.Offset()
		nt := d.Count("kept regions", 2)
		if nt > s.TopK+maxExtra {
			d.FailAt(at, "rank %d keeps %d regions, more than %d", r, nt, s.TopK+maxExtra)
		}
		last := -1
		for range nt {
			if d.Err() != nil {
				break
			}
			at := d.Offset()
			g := d.Uint("region gap")
			idx := uint64(last+1) + g
			if d.Err() == nil && (g >= uint64(nr) || idx >= uint64(nr)) {
				d.FailAt(at, "kept region out of range")
			}
			last = int(idx)
			v := d.Uint("kept time")
			if d.Err() == nil {
				put(int32(idx), v)
			}
		}
		s.Ranks[i] = ri
		if d.Err() != nil {
			break
		}
	}
	if len(s.Ranks) > 0 {
		s.minRank = s.Ranks[0].Rank
	}
	s.CellTime, s.CellCalls = make([]Acc, nc), make([]Acc, nc)
	if s.Config.inclusive() {
		s.CellIncl = make([]Acc, nc)
	}
	for c := range nc {
		s.CellTime[c] = readAcc(d, "time accumulator", s.Ranks)
		s.CellCalls[c] = readAcc(d, "calls accumulator", s.Ranks)
		if s.CellIncl != nil {
			s.CellIncl[c] = readAcc(d, "inclusive time accumulator", s.Ranks)
		}
	}
	s.RegionTime, s.RegionCalls, s.RegionSketch = make([]Acc, nr), make([]Acc, nr), make([]Sketch, nr)
	for r := range nr {
		s.RegionTime[r] = readAcc(d, "region time accumulator", s.Ranks)
		s.RegionCalls[r] = readAcc(d, "region calls accumulator", s.Ranks)
		at := d.Offset()
		nk := d.Count("sketch buckets", 2)
		last := int64(-1)
		var total uint64
		for range nk {
			k := last + 1 + int64(d.Uint("sketch key"))
			c := d.Uint("sketch count")
			if d.Err() != nil {
				break
			}
			if k > maxSketchKey || c == 0 || c > 1<<32-1 {
				d.FailAt(at, "bad sketch bucket")
				break
			}
			last = k
			s.RegionSketch[r].buckets = append(s.RegionSketch[r].buckets, bucket{uint32(k), uint32(c)})
			total += c
		}
		if d.Err() == nil && total != s.RegionTime[r].NonZero {
			d.FailAt(at, "region %s: sketch holds %d ranks, the accumulator %d", s.Regions[r], total, s.RegionTime[r].NonZero)
		}
	}
	if d.Uint("classic flag") != 0 && d.Err() == nil {
		s.Classic = readClassic(d)
	}
	if err := d.Finish(); err != nil {
		return nil, err
	}
	if err := s.validate(); err != nil {
		return nil, &binfmt.FormatError{File: name, Offset: -1, Msg: err.Error()}
	}
	return s, nil
}

// readClassic reads the summed profile.
func readClassic(d *binfmt.Reader) *Classic {
	c := &Classic{}
	at := d.Offset()
	if r := d.Uint("classic rate"); r > 1<<32-1 {
		d.FailAt(at, "rate out of range")
	} else {
		c.Rate = uint32(r)
	}
	copy(c.Dimen[:], d.Bytes("units", 15))
	if b := d.Bytes("unit letter", 1); b != nil {
		c.Abbrev = b[0]
	}
	flags := d.Uint("classic flags")
	c.HasHist, c.HasArcs, c.HasBB = flags&1 != 0, flags&2 != 0, flags&4 != 0
	nh := d.Count("histograms", 4)
	for range nh {
		at := d.Offset()
		h := gmon.Histogram{LowPC: d.Uint("histogram low"), HighPC: d.Uint("histogram high")}
		nb := d.Uint("bins")
		if d.Err() == nil && nb > maxBins {
			d.FailAt(at, "histogram of [%#x, %#x) with %d bins, more than the %d a summary may hold", h.LowPC, h.HighPC, nb, maxBins)
		}
		if d.Err() != nil {
			return nil
		}
		h.Bins = make([]int64, nb)
		nz := d.Count("non-zero bins", 2)
		last := -1
		for range nz {
			at := d.Offset()
			g := d.Uint("bin gap")
			v := d.Uint("bin count")
			i := uint64(last+1) + g
			if d.Err() == nil && (g >= nb || i >= nb || v == 0 || v > 1<<62) {
				d.FailAt(at, "bad histogram bin")
			}
			if d.Err() != nil {
				return nil
			}
			h.Bins[i] = int64(v)
			last = int(i)
		}
		c.Hists = append(c.Hists, h)
	}
	na := d.Count("arcs", 3)
	c.Arcs = make([]gmon.ArcRecord, 0, na)
	for range na {
		c.Arcs = append(c.Arcs, gmon.ArcRecord{FromPC: d.Uint("arc from"), SelfPC: d.Uint("arc self"), Count: d.Uint("arc count")})
	}
	nb := d.Count("basic blocks", 2)
	c.BBs = make([]gmon.BBRecord, 0, nb)
	for range nb {
		c.BBs = append(c.BBs, gmon.BBRecord{Addr: d.Uint("block address"), Count: d.Uint("block count")})
	}
	return c
}

// validate checks what the decoder cannot check field by field.
func (s *Summary) validate() error {
	for i := 1; i < len(s.Ranks); i++ {
		if s.Ranks[i].Rank <= s.Ranks[i-1].Rank {
			return fmt.Errorf("ranks out of order")
		}
	}
	if s.TopK <= 0 {
		return fmt.Errorf("keeps %d regions per rank", s.TopK)
	}
	return nil
}

// ReadSummary reads and validates a summary file.
func ReadSummary(path string) (*Summary, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return DecodeSummary(data, path)
}
