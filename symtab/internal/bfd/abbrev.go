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

	// skip is the plan for stepping over a DIE of this abbreviation
	// without looking at its values, made for units of planKey (see
	// skipPlan); nil until first needed.
	skip    []skipStep
	planKey uint32
}

// skipStep is one step of a DIE plan: the attributes attrs[from:to] of
// the abbreviation. When fixed >= 0 they all have fixed sizes (fixed bytes
// together, given the unit's address and offset sizes) and none of their
// values is used; otherwise there is one attribute, whose size depends on
// the data (stepVariable) or whose value the second pass of scanUnit uses
// (stepValue).
type skipStep struct {
	fixed    int
	from, to int
}

// The kinds of single-attribute steps.
const (
	stepVariable = -1
	stepValue    = -2
)

// usedAttr reports whether scanUnit's second pass uses the value of
// attribute name in a DIE with tag.
func usedAttr(tag, name uint32) bool {
	if isFuncTag(tag) {
		switch name {
		case atCallFile, atDeclFile, atAbstractOrigin, atSpecification, atName,
			atLinkageName, atMIPSLinkageName, atLowPC, atHighPC, atRanges:
			return true
		}
		return false
	}
	if tag == tagVariable || tag == tagMember {
		return name == atSpecification || name == atDeclFile
	}
	return false
}

// abbrevTable is one abbreviation table: entries by number, in a slice
// for the small dense numbers compilers use, in a map beyond.
type abbrevTable struct {
	dense  []*abbrev
	sparse map[uint32]*abbrev
}

// maxDenseAbbrev bounds the numbers kept in abbrevTable.dense.
const maxDenseAbbrev = 1 << 14

// get returns abbreviation num, or nil.
func (t *abbrevTable) get(num uint32) *abbrev {
	if num < uint32(len(t.dense)) {
		return t.dense[num]
	}
	return t.sparse[num]
}

// set stores abbreviation num.
func (t *abbrevTable) set(num uint32, ab *abbrev) {
	if num < maxDenseAbbrev {
		for uint32(len(t.dense)) <= num {
			t.dense = append(t.dense, nil)
		}
		t.dense[num] = ab
		return
	}
	if t.sparse == nil {
		t.sparse = map[uint32]*abbrev{}
	}
	t.sparse[num] = ab
}

// readAbbrevs returns the abbreviation table at off, or nil when BFD cannot
// read it (read_abbrevs). Tables are shared between units by offset.
func (s *Lines) readAbbrevs(off uint64) *abbrevTable {
	if t, ok := s.abbrevCache[off]; ok {
		return t
	}
	if !s.readable(&s.abbrev, off) {
		return nil
	}
	b := s.cursor(&s.abbrev, int(off), len(s.abbrev.data))
	t := &abbrevTable{}
	// The attributes of all entries share one array; each entry's are
	// cut out of it once it is complete (the array may move before).
	var all []abbrevAttr
	var made []*abbrev
	var starts []int
	num := uint32(b.uleb())
	for num != 0 {
		ab := &abbrev{tag: uint32(b.uleb())}
		ab.hasChildren = b.u8() != 0
		starts = append(starts, len(all))
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
			all = append(all, abbrevAttr{name: name, form: form, implicit: implicit})
		}
		made = append(made, ab)
		t.set(num, ab)
		if b.atEnd() {
			break
		}
		num = uint32(b.uleb())
		if t.get(num) != nil {
			break
		}
	}
	for i, ab := range made {
		end := len(all)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		if starts[i] < end {
			ab.attrs = all[starts[i]:end:end]
		}
	}
	s.abbrevCache[off] = t
	return t
}

// fixedFormSize returns the size of a value of form in unit u when it
// does not depend on the data, and false otherwise. Reading such a value
// has no effect besides moving the cursor (no section is consulted).
func (u *unit) fixedFormSize(form uint32) (int, bool) {
	switch form {
	case formFlagPresent, formImplicitConst:
		return 0, true
	case formRef1, formFlag, formData1:
		return 1, true
	case formData2, formRef2:
		return 2, true
	case formRef4, formData4:
		return 4, true
	case formData8, formRef8, formRefSig8:
		return 8, true
	case formData16:
		return 16, true
	case formAddr:
		return u.addrSize, true
	case formRefAddr:
		if u.version >= 3 {
			return u.offsetSize, true
		}
		return u.addrSize, true
	case formGNURefAlt, formSecOffset:
		return u.offsetSize, true
	}
	return 0, false
}

// skipPlan returns the plan for reading DIEs of ab in unit u: runs of
// attributes of fixed sizes whose values are not used merged into one step.
func (u *unit) skipPlan(ab *abbrev) []skipStep {
	key := uint32(u.addrSize) | uint32(u.offsetSize)<<8 | uint32(min(u.version, 3))<<16 | 1<<24
	if ab.planKey == key {
		return ab.skip
	}
	plan := make([]skipStep, 0, len(ab.attrs))
	for i, spec := range ab.attrs {
		if usedAttr(ab.tag, spec.name) {
			plan = append(plan, skipStep{fixed: stepValue, from: i, to: i + 1})
			continue
		}
		n, ok := u.fixedFormSize(spec.form)
		if !ok {
			plan = append(plan, skipStep{fixed: stepVariable, from: i, to: i + 1})
			continue
		}
		if k := len(plan) - 1; k >= 0 && plan[k].fixed >= 0 {
			plan[k].fixed += n
			plan[k].to = i + 1
			continue
		}
		plan = append(plan, skipStep{fixed: n, from: i, to: i + 1})
	}
	ab.skip, ab.planKey = plan, key
	return plan
}

// skipDIE steps over the attribute values of a DIE of ab, as reading each
// with skipAttrValue does (the same messages, the same failures), but
// passing over runs of fixed-size values at once.
func (s *Lines) skipDIE(u *unit, ab *abbrev, b *buf) bool {
	for _, st := range u.skipPlan(ab) {
		if !s.skipStep(u, ab, st, b) {
			return false
		}
	}
	return true
}

// skipStep steps over the values of one step of a plan.
func (s *Lines) skipStep(u *unit, ab *abbrev, st skipStep, b *buf) bool {
	if st.fixed >= 0 {
		// Every value of the run starts before the end, so none of
		// BFD's checks can fire: step over them together.
		if b.err == nil && st.fixed < b.end-b.off {
			b.off += st.fixed
			return true
		}
	} else if b.err == nil && b.off < b.end {
		spec := &ab.attrs[st.from]
		switch spec.form {
		case formString:
			b.skipCString()
			return true
		case formUdata, formSdata, formRefUdata, formLoclistx, formRnglistx:
			b.uleb()
			return true
		case formExprloc, formBlock:
			b.skip(b.uleb())
			return true
		case formBlock1:
			b.skip(b.u8())
			return true
		case formStrp, formLineStrp:
			sec := &s.str
			if spec.form == formLineStrp {
				sec = &s.lineStr
			}
			if u.offsetSize <= b.remaining() {
				off := u.readOffset(b)
				if !sec.ok || (off != 0 && off >= uint64(len(sec.data))) {
					s.readable(sec, off) // its message
				}
				return true
			}
		}
	}
	for i := st.from; i < st.to; i++ {
		spec := &ab.attrs[i]
		if !s.skipAttrValue(u, spec.form, spec.implicit, b) {
			return false
		}
	}
	return true
}
