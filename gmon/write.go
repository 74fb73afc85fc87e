package gmon

import (
	"errors"
	"fmt"
	"io"
)

// WriteSum writes p in the layout of gprof's gmon.sum (gprof -s).
//
// For FormatAuto and FormatMagic that is the GNU format: the header
// (cookie, version 1 whatever the inputs were, and the spare bytes of
// Profile.Spare), then one tag-0 record per histogram in the order the
// ranges were first seen, each with the first record's rate, units (all 15
// raw bytes) and letter and with every bin cut to its low 16 bits, then
// one tag-1 record per element of arcs in the order given, counts cut to
// 32 bits, then, if p.HasBB, one tag-2 record holding p.BBs.
//
// The caller supplies arcs because gprof writes arcs merged per symbol:
// from_pc is the start of the caller's (function or line) symbol, self_pc
// the start of the callee, and the order is callers by address, each
// caller's arcs newest first. That needs the symbol table. Likewise gprof
// writes the basic blocks walked in symbol order (at most 10 per symbol,
// none outside every symbol); a caller after that exactness can write a
// shallow copy of p whose BBs field holds that list.
//
// For FormatBSD and FormatBSD44 it writes gprof's BSD layout: the 4.4BSD
// header if f is FormatBSD44 or the rate is not 100 (gprof's hertz()),
// else the old one; then the first histogram's bins only, then the arcs
// with pointer-sized counts. Basic blocks are not written. A profile
// without histograms cannot be written this way (gprof would crash).
func WriteSum(w io.Writer, p *Profile, arcs []ArcRecord, f Format) error {
	if err := p.Target.check(); err != nil {
		return fmt.Errorf("writing profile: %w", err)
	}
	var e *encoder
	switch f {
	case FormatAuto, FormatMagic:
		e = encodeGNUSum(p, arcs)
	case FormatBSD, FormatBSD44:
		if len(p.Hists) == 0 {
			return errors.New("writing profile: the BSD formats need a histogram and there is none")
		}
		e = encodeBSDSum(p, arcs, f == FormatBSD44 || p.Rate != bsdHertz)
	case FormatProf:
		return errors.New("writing profile: file format 'prof' is not supported")
	default:
		return fmt.Errorf("writing profile: unknown file format %d", int(f))
	}
	if _, err := w.Write(e.buf); err != nil {
		return fmt.Errorf("writing profile: %w", err)
	}
	return nil
}

func encodeGNUSum(p *Profile, arcs []ArcRecord) *encoder {
	ptr := p.Target.AddrSize
	size := gnuHeaderSize + len(arcs)*(1+gnuArcSize(ptr))
	for _, h := range p.Hists {
		size += 1 + gnuHistHeaderSize(ptr) + 2*len(h.Bins)
	}
	if p.HasBB {
		size += 5 + 2*ptr*len(p.BBs)
	}
	e := newEncoder(p.Target, size)
	e.gnuHeader(gnuVersion, p.Spare())
	for _, h := range p.Hists {
		bins := h.Bins
		e.histRecord(h.LowPC, h.HighPC, p.Rate, p.Dimen, p.Abbrev, len(bins),
			func(i int) uint16 { return uint16(bins[i]) })
	}
	for _, a := range arcs {
		e.arcRecord(a)
	}
	if p.HasBB {
		e.bbRecord(p.BBs)
	}
	return e
}

func encodeBSDSum(p *Profile, arcs []ArcRecord, bsd44 bool) *encoder {
	ptr := p.Target.AddrSize
	h := p.Hists[0]
	e := newEncoder(p.Target, bsdHeaderSize(ptr, bsd44)+2*len(h.Bins)+3*ptr*len(arcs))
	e.bsdHeader(h.LowPC, h.HighPC, len(h.Bins), bsd44, p.Rate)
	for _, v := range h.Bins {
		e.u16(uint16(v))
	}
	for _, a := range arcs {
		e.bsdArc(a)
	}
	return e
}

// Marshal encodes f for target t in its own format, so that reading the
// result gives f's records back: a GNU file with f.Version (histograms,
// then arcs, then all basic blocks in one tag-2 record, in the version-0
// layout if f.Version is 0), or for a BSD file the old or 4.4BSD layout
// with f's single histogram. A histogram's hist_size is the number of its
// Bins. GNU arc counts are stored in 32 bits, as the format has it.
// Marshal is meant for tests and for Profile.Add of hand-built Files.
func Marshal(f *File, t Target) ([]byte, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	if f.BSD {
		return marshalBSD(f, t)
	}
	e := newEncoder(t, 0)
	e.gnuHeader(f.Version, [12]byte{})
	for _, h := range f.Hists {
		bins := h.Bins
		e.histRecord(h.LowPC, h.HighPC, h.Rate, h.Dimen, h.Abbrev, len(bins),
			func(i int) uint16 { return bins[i] })
	}
	for _, a := range f.Arcs {
		e.arcRecord(a)
	}
	if len(f.BBs) > 0 || f.NumBBRecords > 0 {
		if f.Version == 0 {
			// Host (little-endian) order: count, empty file name, then
			// per block count, address, two empty strings, line 0.
			le := &encoder{ptr: 8, buf: e.buf}
			le.u8(tagBB)
			le.u32(uint32(len(f.BBs)))
			le.u8(0)
			for _, b := range f.BBs {
				le.u64(b.Count)
				le.u64(b.Addr)
				le.raw([]byte{0, 0})
				le.u32(0)
			}
			e.buf = le.buf
		} else {
			e.bbRecord(f.BBs)
		}
	}
	return e.buf, nil
}

func marshalBSD(f *File, t Target) ([]byte, error) {
	var h HistRecord
	switch len(f.Hists) {
	case 0:
	case 1:
		h = f.Hists[0]
	default:
		return nil, fmt.Errorf("a BSD file holds one histogram, not %d", len(f.Hists))
	}
	e := newEncoder(t, 0)
	e.bsdHeader(h.LowPC, h.HighPC, len(h.Bins), f.BSD44, f.BSDRate)
	for _, v := range h.Bins {
		e.u16(v)
	}
	for _, a := range f.Arcs {
		e.bsdArc(a)
	}
	return e.buf, nil
}
