package ranks

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"regexp"
	"slices"
	"sort"

	"github.com/egprof/egprof/gmon"
)

// The summary file format (version 1). All integers are little-endian;
// "uv" is an unsigned LEB128 varint (encoding/binary's Uvarint), "str" a
// uv length followed by that many bytes of UTF-8.
//
//	header (24 bytes):
//	  magic    8 bytes  "EGPRANKS"
//	  version  uint32   1
//	  length   uint64   payload length in bytes
//	  crc      uint32   CRC-32C (Castagnoli) of the payload
//	payload:
//	  exe str, fingerprint 32 bytes, regions-option str,
//	  activities uv, then per activity: name str, pattern str
//	  topK uv, hz uv
//	  regions uv, then per region: name str
//	  activity names uv, then per activity: name str
//	  cells uv, then per cell: region uv, activity uv
//	  ranks uv, then per rank in ascending order:
//	    rank number uv (the first absolute, the others as the gap − 1
//	    after the previous), label str, total uv, truncated uv (0/1),
//	    kept regions uv, then per kept region: region-index gap uv
//	    (absolute for the first), time uv
//	  per cell: time acc, calls acc
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
// Times are fixed-point histogram samples (FixedOne per sample).
const (
	// maxBins bounds a summed histogram read from a summary (32 Mi bins,
	// 128 MiB of text at glibc's 4 bytes per bin), so that a damaged
	// count cannot make the reader allocate without limit.
	maxBins = 1 << 25

	summaryMagic   = "EGPRANKS"
	summaryVersion = 1
	headerSize     = 24
)

// FormatError reports a summary file that cannot be read: Offset is the
// byte offset of the faulty field, or -1.
type FormatError struct {
	File   string
	Offset int64
	Msg    string
	Err    error
}

// Error formats the error as "FILE: offset 0xOFF: MESSAGE".
func (e *FormatError) Error() string {
	if e.Offset < 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s: offset %#x: %s", e.File, e.Offset, e.Msg)
}

// Unwrap returns the underlying cause.
func (e *FormatError) Unwrap() error { return e.Err }

// IsSummary reports whether data starts like a summary file.
func IsSummary(data []byte) bool { return bytes.HasPrefix(data, []byte(summaryMagic)) }

// castagnoli returns the CRC-32C table.
func castagnoli() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) }

// encoder appends varints to a buffer.
type encoder struct{ b []byte }

func (e *encoder) uv(v uint64)  { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) str(s string) { e.uv(uint64(len(s))); e.b = append(e.b, s...) }
func (e *encoder) raw(b []byte) { e.b = append(e.b, b...) }
func (e *encoder) flag(ok bool) { e.uv(b2u(ok)) }
func (e *encoder) acc(a *Acc)   { e.accFields(a) }
func (e *encoder) u128(v u128)  { e.uv(v.hi); e.uv(v.lo) }
func b2u(ok bool) uint64 {
	if ok {
		return 1
	}
	return 0
}
func (e *encoder) accFields(a *Acc) {
	e.uv(a.N)
	e.uv(a.NonZero)
	e.u128(a.sum)
	e.u128(a.sumSq)
	e.uv(a.Min)
	e.uv(uint64(a.MinRank))
	e.uv(a.Max)
	e.uv(uint64(a.MaxRank))
}

// Encode returns the summary in the file format.
func (s *Summary) Encode() []byte {
	e := &encoder{}
	e.str(s.Exe)
	e.raw(s.Fingerprint[:])
	e.str(s.Config.Regions)
	acts := s.Config.activities()
	e.uv(uint64(len(acts)))
	for _, a := range acts {
		e.str(a.Name)
		e.str(a.Pattern)
	}
	e.uv(uint64(s.TopK))
	e.uv(uint64(s.HZ))
	e.uv(uint64(len(s.Regions)))
	for _, r := range s.Regions {
		e.str(r)
	}
	e.uv(uint64(len(s.Activities)))
	for _, a := range s.Activities {
		e.str(a)
	}
	e.uv(uint64(len(s.Cells)))
	for _, c := range s.Cells {
		e.uv(uint64(c.Region))
		e.uv(uint64(c.Activity))
	}
	e.uv(uint64(len(s.Ranks)))
	prev := -1
	for _, r := range s.Ranks {
		if prev < 0 {
			e.uv(uint64(r.Rank))
		} else {
			e.uv(uint64(r.Rank - prev - 1))
		}
		prev = r.Rank
		e.str(r.Label)
		e.uv(r.Total)
		e.flag(r.Truncated)
		e.uv(uint64(len(r.Top)))
		last := int32(-1)
		for _, t := range r.Top {
			e.uv(uint64(t.Region - last - 1))
			last = t.Region
			e.uv(t.Value)
		}
	}
	for c := range s.Cells {
		e.acc(&s.CellTime[c])
		e.acc(&s.CellCalls[c])
	}
	for r := range s.Regions {
		e.acc(&s.RegionTime[r])
		e.acc(&s.RegionCalls[r])
		bs := s.RegionSketch[r].buckets
		e.uv(uint64(len(bs)))
		last := int64(-1)
		for _, b := range bs {
			e.uv(uint64(int64(b.key) - last - 1))
			last = int64(b.key)
			e.uv(uint64(b.count))
		}
	}
	if c := s.Classic; c == nil {
		e.uv(0)
	} else {
		e.uv(1)
		e.uv(uint64(c.Rate))
		e.raw(c.Dimen[:])
		e.raw([]byte{c.Abbrev})
		e.uv(b2u(c.HasHist) | b2u(c.HasArcs)<<1 | b2u(c.HasBB)<<2)
		e.uv(uint64(len(c.Hists)))
		for _, h := range c.Hists {
			e.uv(h.LowPC)
			e.uv(h.HighPC)
			e.uv(uint64(len(h.Bins)))
			nz := 0
			for _, v := range h.Bins {
				if v != 0 {
					nz++
				}
			}
			e.uv(uint64(nz))
			last := -1
			for i, v := range h.Bins {
				if v != 0 {
					e.uv(uint64(i - last - 1))
					e.uv(uint64(v))
					last = i
				}
			}
		}
		e.uv(uint64(len(c.Arcs)))
		for _, a := range c.Arcs {
			e.uv(a.FromPC)
			e.uv(a.SelfPC)
			e.uv(a.Count)
		}
		e.uv(uint64(len(c.BBs)))
		for _, b := range c.BBs {
			e.uv(b.Addr)
			e.uv(b.Count)
		}
	}
	out := make([]byte, headerSize, headerSize+len(e.b))
	copy(out, summaryMagic)
	binary.LittleEndian.PutUint32(out[8:], summaryVersion)
	binary.LittleEndian.PutUint64(out[12:], uint64(len(e.b)))
	binary.LittleEndian.PutUint32(out[20:], crc32.Checksum(e.b, castagnoli()))
	return append(out, e.b...)
}

// WriteTo writes the encoded summary to w. A summed histogram larger than
// a summary may hold is refused before anything is written.
func (s *Summary) WriteTo(w io.Writer) (int64, error) {
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

// decoder reads varints with bounds checks, remembering the first error.
type decoder struct {
	name string
	data []byte
	off  int
	base int // offset of data[0] in the file
	err  error
}

func (d *decoder) fail(off int, format string, args ...any) {
	if d.err == nil {
		d.err = &FormatError{File: d.name, Offset: int64(d.base + off), Msg: fmt.Sprintf(format, args...)}
	}
}

func (d *decoder) uv(what string) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.data[d.off:])
	if n <= 0 {
		if n == 0 {
			d.fail(d.off, "truncated in %s", what)
		} else {
			d.fail(d.off, "%s does not fit 64 bits", what)
		}
		return 0
	}
	d.off += n
	return v
}

// count reads a length and checks it against what could possibly follow
// (each element takes at least minBytes).
func (d *decoder) count(what string, minBytes int) int {
	at := d.off
	v := d.uv(what)
	if d.err == nil && v > uint64(len(d.data)-d.off)/uint64(max(minBytes, 1)) {
		d.fail(at, "%s %d is more than the %d bytes left can hold", what, v, len(d.data)-d.off)
		return 0
	}
	return int(v)
}

// index reads an index below n.
func (d *decoder) index(what string, n int) int {
	at := d.off
	v := d.uv(what)
	if d.err == nil && v >= uint64(n) {
		d.fail(at, "%s %d out of range (there are %d)", what, v, n)
		return 0
	}
	return int(v)
}

func (d *decoder) bytes(what string, n int) []byte {
	if d.err != nil {
		return nil
	}
	if len(d.data)-d.off < n {
		d.fail(d.off, "truncated in %s", what)
		return nil
	}
	b := d.data[d.off : d.off+n]
	d.off += n
	return b
}

func (d *decoder) str(what string) string {
	n := d.count(what+" length", 1)
	return string(d.bytes(what, n))
}

func (d *decoder) u128(what string) u128 {
	hi := d.uv(what)
	return u128{hi, d.uv(what)}
}

func (d *decoder) acc(what string, ranks []RankInfo) Acc {
	at := d.off
	a := Acc{N: d.uv(what), NonZero: d.uv(what), sum: d.u128(what), sumSq: d.u128(what),
		Min: d.uv(what), MinRank: int(d.uv(what)), Max: d.uv(what), MaxRank: int(d.uv(what))}
	if d.err != nil {
		return a
	}
	has := func(r int) bool {
		i := sort.Search(len(ranks), func(i int) bool { return ranks[i].Rank >= r })
		return i < len(ranks) && ranks[i].Rank == r
	}
	switch {
	case a.N != uint64(len(ranks)):
		d.fail(at, "%s covers %d ranks, the summary has %d", what, a.N, len(ranks))
	case a.NonZero > a.N:
		d.fail(at, "%s: %d non-zero ranks of %d", what, a.NonZero, a.N)
	case a.N > 0 && (a.Min > a.Max || !has(a.MinRank) || !has(a.MaxRank)):
		d.fail(at, "%s: inconsistent extremes", what)
	case a.N > 0 && (a.sumSq.float() < a.sum.float()*float64(a.Min) || a.sum.float() > float64(a.Max)*float64(a.N)*(1+1e-12)):
		d.fail(at, "%s: sums do not agree with the extremes", what)
	}
	return a
}

// DecodeSummary parses a summary file held in data; name is used in
// errors.
func DecodeSummary(data []byte, name string) (*Summary, error) {
	ferr := func(off int64, format string, args ...any) error {
		return &FormatError{File: name, Offset: off, Msg: fmt.Sprintf(format, args...)}
	}
	if !IsSummary(data) {
		return nil, ferr(0, "not an egprof rank summary (no %q signature)", summaryMagic)
	}
	if len(data) < headerSize {
		return nil, ferr(int64(len(data)), "truncated summary header: %d bytes, need %d", len(data), headerSize)
	}
	if v := binary.LittleEndian.Uint32(data[8:]); v != summaryVersion {
		return nil, ferr(8, "summary format version %d; this egprof reads version %d", v, summaryVersion)
	}
	n := binary.LittleEndian.Uint64(data[12:])
	if n != uint64(len(data)-headerSize) {
		return nil, ferr(12, "header says %d bytes of data, the file has %d (truncated or extended)", n, len(data)-headerSize)
	}
	payload := data[headerSize:]
	if crc := crc32.Checksum(payload, castagnoli()); crc != binary.LittleEndian.Uint32(data[20:]) {
		return nil, ferr(20, "checksum mismatch: the file is corrupt")
	}
	d := &decoder{name: name, data: payload, base: headerSize}
	s := &Summary{}
	s.Exe = d.str("executable name")
	copy(s.Fingerprint[:], d.bytes("fingerprint", 32))
	s.Config.Regions = d.str("regions option")
	if _, err := s.Config.regionsRE(); err != nil && d.err == nil {
		d.fail(d.off, "%v", err)
	}
	na := d.count("activity definitions", 2)
	if na > MaxActivities {
		d.fail(d.off, "%d activity definitions, more than %d", na, MaxActivities)
	}
	for range na {
		at := d.off
		nm, pat := d.str("activity name"), d.str("activity pattern")
		if d.err != nil {
			break
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			d.fail(at, "activity %s: %v", nm, err)
			break
		}
		s.Config.Activities = append(s.Config.Activities, Activity{Name: nm, Pattern: pat, re: re})
	}
	s.TopK = int(d.uv("regions kept per rank"))
	if hz := d.uv("sampling rate"); hz > 1<<32-1 {
		d.fail(d.off, "sampling rate %d out of range", hz)
	} else {
		s.HZ = uint32(hz)
	}
	nr := d.count("regions", 1)
	s.Regions = make([]string, 0, nr)
	for range nr {
		s.Regions = append(s.Regions, d.str("region name"))
	}
	at := d.off
	nact := d.count("activities", 1)
	for range nact {
		s.Activities = append(s.Activities, d.str("activity name"))
	}
	if d.err == nil {
		var want []string
		for _, a := range s.Config.Activities {
			want = append(want, a.Name)
		}
		if !slices.Contains(want, Computation) {
			want = append(want, Computation)
		}
		if !slices.Equal(want, s.Activities) {
			d.fail(at, "activity names do not match their definitions")
		}
	}
	nc := d.count("cells", 2)
	s.Cells = make([]Cell, nc)
	for i := range s.Cells {
		s.Cells[i] = Cell{Region: d.index("cell region", nr), Activity: d.index("cell activity", nact)}
	}
	np := d.count("ranks", 5)
	s.Ranks = make([]RankInfo, np)
	prev := -1
	for i := range s.Ranks {
		at := d.off
		v := d.uv("rank number")
		r := int(v)
		if prev >= 0 {
			r = prev + 1 + int(v)
		}
		if v > 1<<40 || r < 0 {
			d.fail(at, "rank number out of range")
			break
		}
		prev = r
		ri := RankInfo{Rank: r, Label: d.str("rank label"), Total: d.uv("rank total")}
		ri.Truncated = d.uv("truncation flag") != 0
		nt := d.count("kept regions", 2)
		if nt > s.TopK+maxExtra {
			d.fail(d.off, "rank %d keeps %d regions, more than %d", r, nt, s.TopK+maxExtra)
		}
		last := -1
		for range nt {
			at := d.off
			g := d.uv("region gap")
			idx := uint64(last+1) + g
			if d.err == nil && (g >= uint64(nr) || idx >= uint64(nr)) {
				d.fail(at, "kept region out of range")
			}
			last = int(idx)
			ri.Top = append(ri.Top, RegionValue{Region: int32(idx), Value: d.uv("kept time")})
		}
		s.Ranks[i] = ri
		if d.err != nil {
			break
		}
	}
	s.CellTime, s.CellCalls = make([]Acc, nc), make([]Acc, nc)
	for c := range nc {
		s.CellTime[c] = d.acc("time accumulator", s.Ranks)
		s.CellCalls[c] = d.acc("calls accumulator", s.Ranks)
	}
	s.RegionTime, s.RegionCalls, s.RegionSketch = make([]Acc, nr), make([]Acc, nr), make([]Sketch, nr)
	for r := range nr {
		s.RegionTime[r] = d.acc("region time accumulator", s.Ranks)
		s.RegionCalls[r] = d.acc("region calls accumulator", s.Ranks)
		at := d.off
		nk := d.count("sketch buckets", 2)
		last := int64(-1)
		var total uint64
		for range nk {
			k := last + 1 + int64(d.uv("sketch key"))
			c := d.uv("sketch count")
			if d.err != nil {
				break
			}
			if k > maxSketchKey || c == 0 || c > 1<<32-1 {
				d.fail(at, "bad sketch bucket")
				break
			}
			last = k
			s.RegionSketch[r].buckets = append(s.RegionSketch[r].buckets, bucket{uint32(k), uint32(c)})
			total += c
		}
		if d.err == nil && total != s.RegionTime[r].NonZero {
			d.fail(at, "region %s: sketch holds %d ranks, the accumulator %d", s.Regions[r], total, s.RegionTime[r].NonZero)
		}
	}
	if d.uv("classic flag") != 0 && d.err == nil {
		s.Classic = d.classic()
	}
	if d.err == nil && d.off != len(d.data) {
		d.fail(d.off, "%d unexpected bytes after the summary", len(d.data)-d.off)
	}
	if d.err != nil {
		return nil, d.err
	}
	if err := s.validate(); err != nil {
		return nil, &FormatError{File: name, Offset: -1, Msg: err.Error(), Err: err}
	}
	return s, nil
}

// classic reads the summed profile.
func (d *decoder) classic() *Classic {
	c := &Classic{}
	if r := d.uv("classic rate"); r > 1<<32-1 {
		d.fail(d.off, "rate out of range")
	} else {
		c.Rate = uint32(r)
	}
	copy(c.Dimen[:], d.bytes("units", 15))
	if b := d.bytes("unit letter", 1); b != nil {
		c.Abbrev = b[0]
	}
	flags := d.uv("classic flags")
	c.HasHist, c.HasArcs, c.HasBB = flags&1 != 0, flags&2 != 0, flags&4 != 0
	nh := d.count("histograms", 4)
	for range nh {
		at := d.off
		h := gmon.Histogram{LowPC: d.uv("histogram low"), HighPC: d.uv("histogram high")}
		nb := d.uv("bins")
		if d.err == nil && nb > 1<<32-1 {
			d.fail(at, "histogram with %d bins", nb)
		}
		if d.err == nil && nb > maxBins {
			d.fail(at, "histogram of [%#x, %#x) with %d bins, more than the %d a summary may hold", h.LowPC, h.HighPC, nb, maxBins)
		}
		if d.err != nil {
			return nil
		}
		h.Bins = make([]int64, nb)
		nz := d.count("non-zero bins", 2)
		last := -1
		for range nz {
			at := d.off
			g := d.uv("bin gap")
			v := d.uv("bin count")
			i := uint64(last+1) + g
			if d.err == nil && (g >= nb || i >= nb || v == 0 || v > 1<<62) {
				d.fail(at, "bad histogram bin")
			}
			if d.err != nil {
				return nil
			}
			h.Bins[i] = int64(v)
			last = int(i)
		}
		c.Hists = append(c.Hists, h)
	}
	na := d.count("arcs", 3)
	c.Arcs = make([]gmon.ArcRecord, 0, na)
	for range na {
		c.Arcs = append(c.Arcs, gmon.ArcRecord{FromPC: d.uv("arc from"), SelfPC: d.uv("arc self"), Count: d.uv("arc count")})
	}
	nb := d.count("basic blocks", 2)
	c.BBs = make([]gmon.BBRecord, 0, nb)
	for range nb {
		c.BBs = append(c.BBs, gmon.BBRecord{Addr: d.uv("block address"), Count: d.uv("block count")})
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
