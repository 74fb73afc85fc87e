package bfd

// attr is a decoded attribute value. BFD keeps the value in a C union;
// val mirrors its integer view where that matters.
type attr struct {
	name uint32
	form uint32
	val  uint64
	str  optString
}

// readAddress reads a target address of the unit's size (read_address).
func (u *unit) readAddress(b *buf) uint64 {
	if u.addrSize > b.remaining() {
		b.fail()
		return 0
	}
	return b.uint(u.addrSize)
}

// readOffset reads a section offset of the unit's offset size.
func (u *unit) readOffset(b *buf) uint64 {
	if u.offsetSize == 4 {
		return b.u32()
	}
	return b.u64()
}

// indirectString resolves a DW_FORM_strp or DW_FORM_line_strp offset
// (read_indirect_string, read_indirect_line_string); empty strings and bad
// offsets are absent. Without wantStr only the checks are made.
func (s *Lines) indirectString(u *unit, sec *section, b *buf, wantStr bool) optString {
	if u.offsetSize > b.remaining() {
		b.fail()
		return optString{}
	}
	off := u.readOffset(b)
	if !s.readable(sec, off) || !wantStr {
		return optString{}
	}
	// BFD takes an empty string for none; that is decided when asked
	// (only the first byte is needed). An empty section is readable at
	// offset 0 and holds the empty string.
	if off >= uint64(len(sec.data)) {
		return optString{}
	}
	return sec.openString(off, true)
}

// altString resolves a DW_FORM_GNU_strp_alt offset into the alt file's
// .debug_str (read_alt_indirect_string), as indirectString does; without
// the alt file the string is absent, and nothing is said.
func (s *Lines) altString(u *unit, b *buf, wantStr bool) optString {
	if u.offsetSize > b.remaining() {
		b.fail()
		return optString{}
	}
	off := u.readOffset(b)
	alt := s.alt
	if alt == nil {
		s.altUsed = true
		return optString{}
	}
	if !alt.readable(&alt.str, off) || !wantStr || off >= uint64(len(alt.str.data)) {
		return optString{}
	}
	return alt.str.openString(off, true)
}

// indexedString resolves a DW_FORM_strx* index through
// .debug_str_offsets (read_indexed_string); an empty string is present
// here. Without wantStr only the checks are made.
func (s *Lines) indexedString(u *unit, idx uint64, wantStr bool) optString {
	if !s.readable(&s.str, 0) || !s.readable(&s.strOffsets, 0) {
		return optString{}
	}
	size := uint64(u.offsetSize)
	if idx != 0 && idx > ^uint64(0)/size {
		return optString{}
	}
	off := idx*size + u.strOffsets
	n := uint64(len(s.strOffsets.data))
	if off < u.strOffsets || off > n || n-off < size {
		return optString{}
	}
	stroff := s.uintAt(s.strOffsets.data, off, int(size))
	if stroff >= uint64(len(s.str.data)) || !wantStr {
		return optString{}
	}
	return s.str.openString(stroff, false)
}

// indexedAddress resolves a DW_FORM_addrx* index through .debug_addr
// (read_indexed_address).
func (s *Lines) indexedAddress(u *unit, idx uint64) uint64 {
	if !s.readable(&s.addr, 0) {
		return 0
	}
	size := uint64(u.addrSize)
	if idx != 0 && idx > ^uint64(0)/size {
		return 0
	}
	off := idx*size + u.addrBase
	n := uint64(len(s.addr.data))
	if off < u.addrBase || off > n || n-off < size {
		return 0
	}
	if size != 4 && size != 8 {
		return 0
	}
	return s.uintAt(s.addr.data, off, int(size))
}

// readAttrValue decodes one attribute value of the given form from b into
// a. It reports false where BFD's read_attribute_value returns NULL: at the
// end of the data (except for DW_FORM_flag_present) and for unknown forms.
func (s *Lines) readAttrValue(u *unit, form uint32, implicit uint64, b *buf, a *attr) bool {
	return s.readAttr(u, form, implicit, b, true, a)
}

// skipAttrValue is readAttrValue for a value the caller does not look at:
// the cursor moves and BFD's messages are recorded the same way, but no
// string is copied out of the section.
func (s *Lines) skipAttrValue(u *unit, form uint32, implicit uint64, b *buf) bool {
	var a attr
	return s.readAttr(u, form, implicit, b, false, &a)
}

// readAttr is readAttrValue; strings are only made when wantStr is set.
// The value is written through a rather than returned: copying the
// returned struct out was a fifth of the time of a unit's scan.
func (s *Lines) readAttr(u *unit, form uint32, implicit uint64, b *buf, wantStr bool, a *attr) bool {
	*a = attr{}
	for {
		if b.atEnd() && form != formFlagPresent {
			s.warnf("info pointer extends beyond end of attributes")
			return false
		}
		a.form = form
		switch form {
		case formFlagPresent:
			a.val = 1
		case formRefAddr:
			if u.version >= 3 {
				a.val = u.readOffset(b)
			} else {
				a.val = u.readAddress(b)
			}
		case formAddr:
			a.val = u.readAddress(b)
		case formGNURefAlt, formSecOffset:
			a.val = u.readOffset(b)
		case formBlock2:
			b.skip(b.u16())
		case formBlock4:
			b.skip(b.u32())
		case formRef1, formFlag, formData1:
			a.val = b.u8()
		case formData2, formRef2:
			a.val = b.u16()
		case formRef4, formData4:
			a.val = b.u32()
		case formData8, formRef8, formRefSig8:
			a.val = b.u64()
		case formAddrx1, formAddrx2, formAddrx3, formAddrx4, formAddrx:
			switch form {
			case formAddrx1:
				a.val = b.u8()
			case formAddrx2:
				a.val = b.u16()
			case formAddrx3:
				a.val = b.u24()
			case formAddrx4:
				a.val = b.u32()
			default:
				a.val = b.uleb()
			}
			if u.addrBase != 0 {
				a.val = s.indexedAddress(u, a.val)
			}
		case formString:
			if wantStr {
				a.str = b.cstring()
			} else {
				b.skipCString()
			}
		case formStrp:
			a.str = s.indirectString(u, &s.str, b, wantStr)
		case formLineStrp:
			a.str = s.indirectString(u, &s.lineStr, b, wantStr)
		case formGNUStrpAlt:
			a.str = s.altString(u, b, wantStr)
		case formStrx1, formStrx2, formStrx3, formStrx4, formStrx:
			var idx uint64
			switch form {
			case formStrx1:
				idx = b.u8()
			case formStrx2:
				idx = b.u16()
			case formStrx3:
				idx = b.u24()
			case formStrx4:
				idx = b.u32()
			default:
				idx = b.uleb()
			}
			if u.strOffsets != 0 {
				a.str = s.indexedString(u, idx, wantStr)
			}
			// Storing the string pointer overwrites the index in BFD's
			// union: a later re-read sees index 0.
			a.val = 0
		case formExprloc, formBlock:
			b.skip(b.uleb())
		case formBlock1:
			b.skip(b.u8())
		case formSdata:
			a.val = b.sleb()
		case formRnglistx, formLoclistx, formRefUdata, formUdata:
			a.val = b.uleb()
		case formIndirect:
			form = uint32(b.uleb())
			if form == formImplicitConst {
				implicit = b.sleb()
			}
			continue
		case formImplicitConst:
			a.form = formSdata
			a.val = implicit
		case formData16:
			b.skip(16)
		default:
			s.warnf("invalid or unhandled FORM value: %s", hexC(uint64(form)))
			return false
		}
		return true
	}
}
