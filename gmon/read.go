package gmon

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
)

// Read parses one data file held in data, as gprof reads the first (or
// only) file of a run: t gives the address width and byte order, f the -O
// format, name is used in errors. Every error is a *FormatError naming the
// file and the byte offset at fault.
//
// To sum several files use Profile.AddData (or Profile.Add): a later file
// is read in the context of the earlier ones. The File keeps a reference
// to data for Profile.Add, so data should not change afterwards.
func Read(data []byte, name string, t Target, f Format) (*File, error) {
	p := NewProfile(t, f)
	p.checkOnly = true
	return p.read(data, name, false)
}

// ReadReusing is Read that reuses the storage of old, a File an earlier
// Read returned and that is no longer used (nil for none): the returned
// File may share its histogram bins and arcs, and old must not be used
// again. It saves the allocations of reading many files one after the
// other.
func ReadReusing(old *File, data []byte, name string, t Target, f Format) (*File, error) {
	p := NewProfile(t, f)
	p.checkOnly = true
	p.reuse = old
	return p.read(data, name, false)
}

// AddDataLeanReusing is AddDataLean that also reuses the storage of old,
// a File an earlier read returned and that is no longer used (nil for
// none), and keeps the storage of the bins it decodes for the next read.
func (p *Profile) AddDataLeanReusing(old *File, data []byte, name string) (*File, error) {
	p.reuse = old
	return p.read(data, name, true)
}

// AddDataReusing is AddData that reuses the storage of old, a File an
// earlier read returned and that is no longer used (nil for none), as
// ReadReusing does.
func (p *Profile) AddDataReusing(old *File, data []byte, name string) (*File, error) {
	p.reuse = old
	return p.AddData(data, name)
}

// ReadFile reads the named file from disk and parses it with Read. The
// caller deals with "-" (standard input) itself: read it with io.ReadAll
// and call Read.
func ReadFile(name string, t Target, f Format) (*File, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return Read(data, name, t, f)
}

// ReadFileInto reads the named file into *buf, growing it as needed, and
// returns the bytes read, valid until the next call with buf: reading
// many files one after the other, it allocates only for the largest.
func ReadFileInto(name string, buf *[]byte) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadInto(f, buf)
}

// ReadInto reads f to its end into *buf as ReadFileInto does.
func ReadInto(f *os.File, buf *[]byte) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := int(fi.Size())
	if fi.Mode().IsRegular() && size >= 0 {
		if cap(*buf) < size+1 {
			*buf = make([]byte, size+1, size+size/4+1)
		}
		b := (*buf)[:cap(*buf)]
		n, err := io.ReadFull(f, b)
		switch {
		case err == io.ErrUnexpectedEOF || err == io.EOF:
			return b[:n], nil
		case err != nil:
			return nil, err
		}
		// The file grew while being read: read the rest.
		rest, err := io.ReadAll(f)
		if err != nil {
			return nil, err
		}
		*buf = append(b, rest...)
		return *buf, nil
	}
	return io.ReadAll(f)
}

// read parses data into a File and, for an accumulating profile, adds it.
func (p *Profile) read(data []byte, name string, lean bool) (*File, error) {
	old := p.reuse
	p.reuse = nil
	if err := p.Target.check(); err != nil {
		return nil, &FormatError{File: name, Offset: -1, Kind: KindTarget, Msg: err.Error(), Err: err}
	}
	if p.released {
		return nil, ferr(name, -1, KindOther, nil, "the profile's sums were released: no file can be added")
	}
	switch p.Format {
	case FormatAuto, FormatMagic, FormatBSD, FormatBSD44:
	case FormatProf:
		return nil, ferr(name, -1, KindUnsupported, nil, "file format 'prof' is not supported")
	default:
		return nil, ferr(name, -1, KindUnsupported, nil, "unknown file format %d", int(p.Format))
	}
	// gprof first reads a whole GNU header, whatever the format.
	if len(data) < gnuHeaderSize {
		return nil, ferr(name, 0, KindTooShort, io.ErrUnexpectedEOF,
			"file too short to be a gmon file: %d bytes, a header needs %d", len(data), gnuHeaderSize)
	}
	magic := string(data[:4]) == gnuMagic
	if p.Format == FormatMagic && !magic {
		return nil, ferr(name, 0, KindBadMagic, nil, "bad magic cookie %q, want %q (format %v)", data[:4], gnuMagic, p.Format)
	}
	r := reader{p: p, d: newDecoder(p.Target), data: data, name: name, f: &File{Name: name, size: len(data), lean: lean}, lean: lean}
	if old != nil {
		// The storage of a File no longer used: its bins are reused in
		// order, its arc slice when it is large enough.
		r.oldHists, r.oldArcs = old.Hists, old.Arcs[:0]
		*old = File{}
	}
	var err error
	if !lean {
		r.f.raw = data
	}
	if p.Format == FormatMagic || (p.Format == FormatAuto && magic) {
		err = r.gnu()
	} else {
		err = r.bsd()
	}
	if err != nil {
		return nil, err
	}
	p.Files++
	return r.f, nil
}

// reader holds the state of one parse.
type reader struct {
	p    *Profile
	d    decoder
	data []byte
	name string
	f    *File
	// oldHists and oldArcs are storage to reuse (see ReadReusing).
	oldHists []HistRecord
	oldArcs  []ArcRecord
	// lean leaves the File without copies of the records the profile
	// sums: no bins in its histogram records, no arcs.
	lean bool
	// reserved tells whether the profile's arc table was sized for this
	// file.
	reserved bool
}

func (r *reader) errf(off int, kind ErrorKind, cause error, format string, args ...any) error {
	return ferr(r.name, off, kind, cause, format, args...)
}

// truncated reports a record or field that runs past the end of the file.
func (r *reader) truncated(off int, what string, need int) error {
	return r.errf(off, KindTruncated, io.ErrUnexpectedEOF,
		"%s truncated: needs %d bytes, only %d remain", what, need, len(r.data)-off)
}

// gnu parses a file in the GNU tagged format.
func (r *reader) gnu() error {
	version := r.d.u32(r.data[4:])
	if version != gnuVersion && version != 0 {
		// gprof prints the version with %d, so large values show as
		// negative numbers there.
		return r.errf(4, KindBadVersion, nil, "unsupported version %d (want 1, or 0 for the old layout)", version)
	}
	r.f.Version = version
	r.p.FileVersion = version
	off := gnuHeaderSize
	for off < len(r.data) {
		var err error
		switch tag := r.data[off]; tag {
		case tagHist:
			off, err = r.hist(off)
		case tagArc:
			off, err = r.arc(off)
		case tagBB:
			off, err = r.bb(off)
		default:
			err = r.errf(off, KindBadTag, nil, "bad record tag %d (file corrupted?)", tag)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// hist parses a tag-0 record starting at start and returns the offset
// after it.
func (r *reader) hist(start int) (int, error) {
	p, d := r.p, r.d
	off := start + 1
	hsz := gnuHistHeaderSize(d.ptr)
	if len(r.data)-off < hsz {
		return 0, r.truncated(off, "histogram record header", hsz)
	}
	b := r.data[off:]
	lo := d.addr(b)
	hi := d.addr(b[d.ptr:])
	n := d.u32(b[2*d.ptr:])
	rate := d.u32(b[2*d.ptr+4:])
	var dimen [dimenLen]byte
	copy(dimen[:], b[2*d.ptr+8:])
	abbrev := b[2*d.ptr+8+dimenLen]
	off += hsz
	r.f.LastHistHigh, r.f.LastHistBins, r.f.HasHistHeader = hi, n, true

	// The checks, in gprof's order. Only the first record's rate, units
	// and scale count; a later record's rate is not checked at all.
	scale := binScale(lo, hi, n)
	first := len(p.hist) == 0
	if !first {
		if from, to := p.DimenString(), cString(dimen[:]); from != to {
			return 0, r.errf(start, KindDimen, nil,
				"dimension unit changed between histogram records: from '%s' to '%s'", from, to)
		}
		if abbrev != p.Abbrev {
			return 0, r.errf(start, KindAbbrev, nil,
				"dimension abbreviation changed between histogram records: from '%c' to '%c'", p.Abbrev, abbrev)
		}
		// NaN (a zero-width first record without bins, or such a record
		// now) compares false and passes, as in gprof.
		if math.Abs(p.scale-scale) > 0.000001 {
			return 0, r.errf(start, KindScale, nil,
				"different scales in histogram records: %d bins for [%#x, %#x) give a bin width of %g, the first histogram's is %g",
				n, lo, hi, scale, p.scale)
		}
	}
	idx, found := p.findHist(lo, hi)
	nb := n
	if found {
		// gprof reads as many bins as the earlier record for this range
		// had, whatever this record's header says.
		nb = p.hist[idx].n
	} else if lo < hi {
		if o, ok := p.ov.find(lo, hi); ok {
			return 0, r.errf(start, KindOverlap, nil,
				"overlapping histogram records: [%#x, %#x) overlaps the earlier [%#x, %#x)", lo, hi, o.lo, o.hi)
		}
	}
	// Divergence: gprof allocates and zeroes 4 bytes per claimed bin
	// before reading any (16 GiB for 0xffffffff bins) and then reports
	// the end of file; we check the length first.
	if need := 2 * uint64(nb); need > uint64(len(r.data)-off) {
		extra := ""
		if nb != n {
			extra = fmt.Sprintf(" (the bin count of the earlier record for [%#x, %#x); this header says %d)", lo, hi, n)
		}
		return 0, r.errf(off, KindTruncated, io.ErrUnexpectedEOF,
			"histogram record claims %d bins (%d bytes)%s but only %d bytes remain", nb, need, extra, len(r.data)-off)
	}
	var bins []uint16
	if !r.lean {
		var reuse []uint16
		if k := len(r.f.Hists); k < len(r.oldHists) {
			reuse = r.oldHists[k].Bins
		}
		bins = d.binsInto(reuse, r.data[off:], int(nb))
	}
	enc := r.data[off:]
	off += 2 * int(nb)

	if first {
		p.Rate, p.Dimen, p.Abbrev, p.scale = rate, dimen, abbrev, scale
	}
	if !found {
		idx = p.newHist(lo, hi, n)
	}
	if r.lean {
		// The File keeps no bins: they are summed from the file's bytes.
		p.addEncodedBins(idx, d, enc, int(nb))
	} else {
		p.addBins(idx, bins)
		if r.f.Hists == nil && cap(r.oldHists) > 0 {
			r.f.Hists = r.oldHists[:0]
		}
	}
	p.HasHist = true
	p.lastHigh, p.lastBins, p.hasLast = hi, n, true
	r.f.NumHistRecords++
	r.f.Hists = append(r.f.Hists, HistRecord{
		LowPC: lo, HighPC: hi, Rate: rate, Dimen: dimen, Abbrev: abbrev, Size: n, Bins: bins,
	})
	return off, nil
}

// arc parses a tag-1 record.
func (r *reader) arc(start int) (int, error) {
	d := r.d
	off := start + 1
	sz := gnuArcSize(d.ptr)
	if len(r.data)-off < sz {
		return 0, r.truncated(off, "arc record", sz)
	}
	if !r.reserved {
		// Arcs usually fill the rest of the file: make room for as many
		// as the remaining bytes could hold, which is at most about twice
		// their size in memory.
		r.reserved = true
		room := (len(r.data) - start) / (1 + sz)
		switch {
		case r.lean:
		case cap(r.oldArcs) >= room:
			r.f.Arcs = r.oldArcs[:0]
		default:
			r.f.Arcs = make([]ArcRecord, 0, room)
		}
		r.p.reserveArcs(room)
	}
	b := r.data[off : off+sz]
	a := ArcRecord{FromPC: d.addr(b), SelfPC: d.addr(b[d.ptr:]), Count: uint64(d.u32(b[2*d.ptr:]))}
	r.p.addArc(a)
	r.p.HasArcs = true
	if !r.lean {
		r.f.Arcs = append(r.f.Arcs, a)
	}
	r.f.NumArcRecords++
	return off + sz, nil
}

// bb parses a tag-2 record.
func (r *reader) bb(start int) (int, error) {
	d := r.d
	off := start + 1
	if len(r.data)-off < 4 {
		return 0, r.truncated(off, "basic-block record header", 4)
	}
	var err error
	if r.f.Version == 0 {
		off, err = r.bbV0(off)
	} else {
		off, err = r.bbV1(off, d.u32(r.data[off:]))
	}
	if err != nil {
		return 0, err
	}
	r.p.HasBB = true
	r.f.NumBBRecords++
	return off, nil
}

// bbV1 reads the body of a version-1 basic-block record: the count, then
// pointer-sized (address, count) pairs in target order.
//
// Divergence: gprof byte-swaps the block count a second time after reading
// it in target order, so on a little-endian host it reads big-endian
// targets' counts wrongly (1 becomes 16777216) and runs off the record. We
// read the count once, in target order; little-endian files are read the
// same either way.
func (r *reader) bbV1(off int, n uint32) (int, error) {
	d := r.d
	off += 4
	pair := 2 * d.ptr
	// Divergence: gprof reads pair by pair and stops with a stale errno
	// text when the data ends; we check the whole length first.
	if need := uint64(n) * uint64(pair); need > uint64(len(r.data)-off) {
		return 0, r.errf(off, KindTruncated, io.ErrUnexpectedEOF,
			"basic-block record claims %d blocks (%d bytes) but only %d bytes remain", n, need, len(r.data)-off)
	}
	r.f.BBs = slices.Grow(r.f.BBs, int(n))
	for range n {
		bb := BBRecord{Addr: d.addr(r.data[off:]), Count: d.addr(r.data[off+d.ptr:])}
		off += pair
		r.p.addBB(bb)
		r.f.BBs = append(r.f.BBs, bb)
	}
	return off, nil
}

// bbV0 reads the body of a version-0 basic-block record, a layout written
// in the host's own byte order that gprof still understands: a 4-byte
// count, a NUL-terminated string, then per block an 8-byte count, an
// 8-byte address, two NUL-terminated strings and a 4-byte line number.
// gprof reads these as its host (little-endian x86-64) lays them out,
// whatever the target; so do we. (Its double swap of the block count
// turns into exactly that host-order read for any target.)
func (r *reader) bbV0(off int) (int, error) {
	n := binary.LittleEndian.Uint32(r.data[off:])
	off += 4
	// A missing terminator just means the string runs to the end of file.
	if i := bytes.IndexByte(r.data[off:], 0); i >= 0 {
		off += i + 1
	} else {
		off = len(r.data)
	}
	if need := uint64(n) * v0BlockMin; need > uint64(len(r.data)-off) {
		return 0, r.errf(off, KindTruncated, io.ErrUnexpectedEOF,
			"version-0 basic-block record claims %d blocks (at least %d bytes) but only %d bytes remain",
			n, need, len(r.data)-off)
	}
	r.f.BBs = slices.Grow(r.f.BBs, int(n))
	for b := range n {
		blockStart := off
		if len(r.data)-off < 16 {
			return 0, r.errf(blockStart, KindTruncated, io.ErrUnexpectedEOF, "version-0 basic block %d truncated", b)
		}
		count := binary.LittleEndian.Uint64(r.data[off:])
		addr := binary.LittleEndian.Uint64(r.data[off+8:])
		off += 16
		for range 2 {
			i := bytes.IndexByte(r.data[off:], 0)
			if i < 0 {
				return 0, r.errf(blockStart, KindTruncated, io.ErrUnexpectedEOF,
					"version-0 basic block %d truncated: unterminated string", b)
			}
			off += i + 1
		}
		if len(r.data)-off < 4 {
			return 0, r.errf(blockStart, KindTruncated, io.ErrUnexpectedEOF,
				"version-0 basic block %d truncated: no line number", b)
		}
		off += 4
		bb := BBRecord{Addr: addr, Count: count}
		r.p.addBB(bb)
		r.f.BBs = append(r.f.BBs, bb)
	}
	return off, nil
}

// bsd parses an old BSD or 4.4BSD file: a header, 16-bit bins, then
// untagged arcs with pointer-sized counts up to the end of the file.
func (r *reader) bsd() error {
	p, d, data := r.p, r.d, r.data
	ptr := d.ptr
	// gprof reads low_pc, high_pc, ncnt and the following word before it
	// decides between the two layouts.
	if need := 2*ptr + 8; len(data) < need {
		return r.errf(0, KindTooShort, io.ErrUnexpectedEOF,
			"file too short to be a gmon file: %d bytes, a BSD header needs %d", len(data), need)
	}
	lo := d.addr(data)
	hi := d.addr(data[ptr:])
	ncnt := d.u32(data[2*ptr:])
	version := d.u32(data[2*ptr+4:])
	bsd44 := version == bsd44Version
	var rate uint32
	if bsd44 {
		if need := 2*ptr + 12; len(data) < need {
			return r.errf(0, KindTooShort, io.ErrUnexpectedEOF,
				"file too short to be a gmon file: %d bytes, a 4.4BSD header needs at least %d", len(data), need)
		}
		rate = d.u32(data[2*ptr+8:])
		// gprof compares its long hz with the rate cast to int, so a rate
		// of 2^31 or more never matches, not even itself.
		if len(p.hist) > 0 && int64(p.Rate) != int64(int32(rate)) {
			return r.errf(2*ptr+8, KindRate, nil,
				"profiling rate incompatible with first gmon file: %d, the first file's is %d", rate, p.Rate)
		}
	} else if p.Format == FormatBSD44 {
		return r.errf(2*ptr+4, KindBadMagic, nil,
			"bad magic cookie: not a 4.4BSD file (version word %#x, want %#x)", version, bsd44Version)
	}
	hdr := bsdHeaderSize(ptr, bsd44)
	r.f.BSD, r.f.BSD44, r.f.BSDRate = true, bsd44, rate
	r.f.LastHistHigh, r.f.LastHistBins, r.f.HasHistHeader = hi, ncnt, true

	// gprof keeps ncnt minus the header in an int and halves it as an
	// unsigned 64-bit value, then stores the result in 32 bits. Only the
	// compatibility check below sees the odd values this gives for a
	// negative size; the sanity check rejects them anyway.
	sampBytes := int32(ncnt - uint32(hdr))
	nbins := uint32(uint64(int64(sampBytes)) / 2)
	first := len(p.hist) == 0
	if !first {
		h := p.hist[0]
		if lo != h.lo || hi != h.hi || nbins != h.n {
			return r.errf(0, KindIncompatible, nil,
				"incompatible with first gmon file: [%#x, %#x) with %d bins, the first histogram is [%#x, %#x) with %d",
				lo, hi, nbins, h.lo, h.hi, h.n)
		}
	}
	// Divergence: gprof makes these two checks only after allocating and
	// zeroing 4 bytes per bin, up to 16 GiB.
	if sampBytes < 0 {
		return r.errf(2*ptr, KindNotGmon, nil,
			"file does not appear to be in gmon.out format: ncnt %d does not cover the %d-byte header", ncnt, hdr)
	}
	if lo > hi {
		return r.errf(0, KindNotGmon, nil,
			"file does not appear to be in gmon.out format: low_pc %#x is above high_pc %#x", lo, hi)
	}
	// The bins follow the header; a header longer than the file is not
	// an error in itself (gprof seeks past the end), only missing bins are.
	off := min(hdr, len(data))
	if need := 2 * uint64(nbins); need > uint64(len(data)-off) {
		return r.errf(hdr, KindTruncated, io.ErrUnexpectedEOF,
			"BSD header claims %d bins (ncnt %d) but only %d bytes remain", nbins, ncnt, len(data)-off)
	}
	var bins []uint16
	if !r.lean {
		bins = d.bins(data[off:], int(nbins))
	}
	enc := data[off:]
	// Arcs start right after the last whole bin, even when ncnt is odd.
	off += 2 * int(nbins)

	arcSize := 3 * ptr
	narcs := (len(data) - off) / arcSize
	if !r.lean {
		r.f.Arcs = make([]ArcRecord, 0, narcs)
	}
	p.reserveArcs(narcs)
	for range narcs {
		b := data[off : off+arcSize]
		a := ArcRecord{FromPC: d.addr(b), SelfPC: d.addr(b[ptr:]), Count: d.addr(b[2*ptr:])}
		off += arcSize
		p.addArc(a)
		if !r.lean {
			r.f.Arcs = append(r.f.Arcs, a)
		}
	}
	r.f.IgnoredTail = len(data) - off
	r.f.NumArcRecords = narcs

	idx := 0
	if first {
		if bsd44 {
			p.Rate = rate
		}
		p.scale = binScale(lo, hi, nbins)
		idx = p.newHist(lo, hi, nbins)
	}
	if r.lean {
		p.addEncodedBins(idx, d, enc, int(nbins))
	} else {
		p.addBins(idx, bins)
	}
	if nbins != 0 {
		r.f.NumHistRecords = 1
	}
	r.f.Hists = []HistRecord{{LowPC: lo, HighPC: hi, Rate: rate, Size: nbins, Bins: bins}}
	// gprof sets its input flags outright here, which clears the
	// basic-block flag of earlier GNU files.
	p.HasHist, p.HasArcs, p.HasBB = true, true, false
	p.sawBSD = true
	p.lastHigh, p.lastBins, p.hasLast = hi, ncnt, true
	if p.Rate == 0 {
		p.Rate = bsdHertz
	}
	return nil
}
