package bfd

import (
	"sort"
	"strings"
)

// unit is one compilation unit of .debug_info (BFD's struct comp_unit).
type unit struct {
	start, end  int // offset of the unit's length field; end of the unit
	firstChild  int // offset of the first DIE after the unit DIE
	version     int
	addrSize    int
	offsetSize  int
	planKey     uint32 // the unit's key of DIE plans (see skipPlan)
	abbrevs     *abbrevTable
	stmtList    bool
	lineOffset  uint64
	compDir     optString
	lang        uint64
	baseAddress uint64
	strOffsets  uint64
	addrBase    uint64
	arange      aranges
	failed      bool // BFD's unit->error
	table       *lineTable
	funcs       chunkList[funcInfo] // those with a range, in DIE order
	lookup      []funcLookup
	mark        bool
}

// nextUnit parses the next unit of .debug_info (stash_comp_unit). A unit
// that cannot be parsed ends the reading of the section for good.
func (s *Lines) nextUnit() *unit {
	end := len(s.info.data)
	if s.infoPos >= end {
		return nil
	}
	start := s.infoPos
	b := s.cursor(&s.info, start, end)
	length := b.u32()
	offsetSize := 4
	if length == 0xffffffff {
		offsetSize = 8
		length = b.u64()
	} else if length == 0 {
		offsetSize = 8
		length = b.u32()
	}
	if length != 0 && length <= uint64(b.remaining()) {
		if u := s.parseUnit(b.off, int(length), start, offsetSize); u != nil {
			s.units = append(s.units, u)
			s.infoPos = b.off + int(length)
			return u
		}
	}
	s.infoPos = end
	return nil
}

// parseUnit reads a unit header and its unit DIE (parse_comp_unit). The
// unit's DIE ranges are added to the trie as they are read.
func (s *Lines) parseUnit(off, length, start, offsetSize int) *unit {
	b := s.cursor(&s.info, off, off+length)
	version := int(b.u16())
	if version < 2 || version > 5 {
		// Version 0 is taken for padding and passed over silently.
		if version != 0 {
			s.warnf("found dwarf version '%d', this reader only handles version 2, 3, 4 and 5 information", version)
		}
		return nil
	}
	unitType := uint64(1)
	addrSize := uint64(0xffffffff)
	if version >= 5 {
		unitType = b.u8()
		addrSize = b.u8()
	}
	var abbrevOff uint64
	if offsetSize == 4 {
		abbrevOff = b.u32()
	} else {
		abbrevOff = b.u64()
	}
	if version < 5 {
		addrSize = b.u8()
	}
	switch unitType {
	case utType:
		b.skip(uint64(8 + offsetSize))
	case utSkeleton:
		b.skip(8)
	}
	if addrSize > 8 {
		s.warnf("found address size '%d', this reader can not handle sizes greater than '8'", uint32(addrSize))
		return nil
	}
	if addrSize != 2 && addrSize != 4 && addrSize != 8 {
		s.warnf("found address size '%d', this reader can only handle address sizes '2', '4' and '8'", addrSize)
		return nil
	}
	abbrevs := s.readAbbrevs(abbrevOff)
	if abbrevs == nil {
		return nil
	}
	num := uint32(b.uleb())
	if num == 0 {
		return nil
	}
	ab := abbrevs.get(num)
	if ab == nil {
		s.warnf("could not find abbrev number %d", num)
		return nil
	}
	u := &unit{
		start:      start,
		end:        b.end,
		version:    version,
		addrSize:   int(addrSize),
		offsetSize: offsetSize,
		abbrevs:    abbrevs,
	}
	u.planKey = planKeyOf(u)
	compUnit := ab.tag == tagCompileUnit
	var lowPC, highPC uint64
	highRel := false
	var deferred []attr
	var a attr
	for _, spec := range ab.attrs {
		if !s.readAttrValue(u, spec.form, spec.implicit, &b, &a) {
			u.failed = true
			return nil
		}
		a.name = spec.name
		// String and address indexes met before their base attribute are
		// resolved once the whole DIE has been read.
		if (u.strOffsets == 0 && isStrxForm(a.form)) || (u.addrBase == 0 && isAddrxForm(a.form)) {
			deferred = append(deferred, a)
			continue
		}
		switch a.name {
		case atStmtList:
			if isIntForm(a.form) {
				u.stmtList = true
				u.lineOffset = a.val
			}
		case atLowPC:
			if isIntForm(a.form) {
				lowPC = a.val
				if compUnit {
					u.baseAddress = lowPC
				}
			}
		case atHighPC:
			if isIntForm(a.form) {
				highPC = a.val
				highRel = a.form != formAddr
			}
		case atRanges:
			if isIntForm(a.form) && !s.readRangeList(u, &u.arange, a.val) {
				u.failed = true
				return nil
			}
		case atCompDir:
			if !isStrForm(a.form) {
				s.warnf("DW_AT_comp_dir attribute encountered with a non-string form")
			}
			u.compDir = compDirOf(a)
		case atLanguage:
			if isIntForm(a.form) {
				u.lang = a.val
			}
		case atAddrBase:
			u.addrBase = a.val
		case atStrOffsetsBase:
			u.strOffsets = a.val
		}
	}
	for _, a := range deferred {
		if isStrxForm(a.form) {
			a.str = s.indexedString(u, a.val, true)
		}
		if isAddrxForm(a.form) {
			a.val = s.indexedAddress(u, a.val)
		}
		switch a.name {
		case atStmtList:
			u.stmtList = true
			u.lineOffset = a.val
		case atLowPC:
			lowPC = a.val
			if compUnit {
				u.baseAddress = lowPC
			}
		case atHighPC:
			highPC = a.val
			highRel = a.form != formAddr
		case atRanges:
			// A failure here is ignored by BFD.
			s.readRangeList(u, &u.arange, a.val)
		case atCompDir:
			if !isStrForm(a.form) {
				s.warnf("DW_AT_comp_dir attribute encountered with a non-string form")
			}
			u.compDir = compDirOf(a)
		case atLanguage:
			u.lang = a.val
		}
	}
	if highRel {
		highPC += lowPC
	}
	if highPC != 0 {
		s.arangeAdd(u, &u.arange, lowPC, highPC)
	}
	u.firstChild = b.off
	return u
}

// compDirOf returns the compilation directory of a DW_AT_comp_dir
// attribute, dropping an IRIX "host.:" prefix as BFD does.
func compDirOf(a attr) optString {
	if !isStrForm(a.form) || !a.str.ok() {
		return optString{}
	}
	d := a.str.text()
	if i := strings.IndexByte(d, ':'); i > 0 && d[i-1] == '.' && i+1 < len(d) && d[i+1] == '/' {
		d = d[i+1:]
	}
	return optString{s: d, has: true}
}

// unitAt returns the parsed unit whose bytes hold offset off.
func (s *Lines) unitAt(off int) *unit {
	i := sort.Search(len(s.units), func(i int) bool { return s.units[i].end > off })
	if i < len(s.units) && s.units[i].start <= off {
		return s.units[i]
	}
	return nil
}

// unitHolding returns the unit whose bytes hold offset off of
// .debug_info: one of the units parsed so far, else the first of those
// parsed next that holds it (parsing them on the way, as BFD's search
// for a referenced DIE does), or nil when none does.
func (s *Lines) unitHolding(off int) *unit {
	if u := s.unitAt(off); u != nil {
		return u
	}
	for {
		u := s.nextUnit()
		if u == nil || off >= u.start && off < u.end {
			return u
		}
	}
}
