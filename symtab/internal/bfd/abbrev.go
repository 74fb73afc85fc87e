package bfd

// abbrevAttr is one attribute specification of an abbreviation.
type abbrevAttr struct {
	name     uint32
	form     uint32
	implicit uint64
}

// abbrev is one .debug_abbrev entry.
type abbrev struct {
	tag         uint32
	hasChildren bool
	attrs       []abbrevAttr
}

// readAbbrevs returns the abbreviation table at off, or nil when BFD cannot
// read it (read_abbrevs). Tables are shared between units by offset.
func (s *Lines) readAbbrevs(off uint64) map[uint32]*abbrev {
	if t, ok := s.abbrevCache[off]; ok {
		return t
	}
	if !s.readable(&s.abbrev, off) {
		return nil
	}
	b := s.cursor(&s.abbrev, int(off), len(s.abbrev.data))
	t := map[uint32]*abbrev{}
	num := uint32(b.uleb())
	for num != 0 {
		ab := &abbrev{tag: uint32(b.uleb())}
		ab.hasChildren = b.u8() != 0
		for {
			name := uint32(b.uleb())
			form := uint32(b.uleb())
			var implicit uint64
			if form == formImplicitConst {
				implicit = b.sleb()
			}
			if name == 0 {
				break
			}
			ab.attrs = append(ab.attrs, abbrevAttr{name: name, form: form, implicit: implicit})
		}
		t[num] = ab
		if b.atEnd() {
			break
		}
		num = uint32(b.uleb())
		if t[num] != nil {
			break
		}
	}
	s.abbrevCache[off] = t
	return t
}
