package bfd

import (
	"math"
	"slices"
)

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

	// originSkip and originPlanKey are the plan of a DIE found through
	// an abstract origin or a specification (see originPlan).
	originSkip    []skipStep
	originPlanKey uint32
}

// skipStep is one step of a DIE plan: the attributes attrs[from:to] of
// the abbreviation. When fixed >= 0 they all have fixed sizes (fixed bytes
// together, given the unit's address and offset sizes) and none of their
// values is used; otherwise there is one attribute, whose size depends on
// the data (stepVariable) or whose value the second pass of scanUnit uses
// (stepValue).
type skipStep struct {
	fixed    int32
	from, to int32 // an abbreviation's attributes are fewer than its section's bytes
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

// usedByOrigin reports whether findAbstract uses the value of attribute
// name, in a DIE of any tag.
func usedByOrigin(name uint32) bool {
	switch name {
	case atName, atSpecification, atLinkageName, atMIPSLinkageName, atDeclFile:
		return true
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
	// While the table is read, its numbers are looked up in a reused
	// scratch table; the kept table gets copies of exactly its size, and
	// the entries and their attributes come from s.store.
	scratch := &s.abbrevScratch
	clear(scratch.dense)
	scratch.dense, scratch.sparse = scratch.dense[:0], nil
	attrs := s.attrScratch[:0]
	num := uint32(b.uleb())
	for num != 0 {
		start := b.off
		tag := uint32(b.uleb())
		hasChildren := b.u8() != 0
		attrs = attrs[:0]
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
			attrs = append(attrs, abbrevAttr{name: name, form: form, implicit: implicit})
		}
		// Compilers give every unit a table of its own, whose entries
		// mostly repeat those of the other tables: an entry read whole
		// is shared with every entry of the same bytes (the same tag,
		// children flag and attributes), with its plans. lua's 33
		// tables hold 2,619 entries, 394 of them distinct; the peak RSS
		// of zstd and gawk falls by 0.45 MB (3-4%), for the same CPU.
		entry := b.data[start:b.off]
		var ab *abbrev
		if b.err == nil {
			ab = s.abbrevByBytes[string(entry)]
		}
		if ab == nil {
			ab = s.store.newAbbrev()
			ab.tag, ab.hasChildren = tag, hasChildren
			ab.attrs = keep(&s.store.attr, attrs)
			if b.err == nil {
				s.abbrevByBytes[string(entry)] = ab
			}
		}
		scratch.set(num, ab)
		if b.atEnd() {
			break
		}
		num = uint32(b.uleb())
		if scratch.get(num) != nil {
			break
		}
	}
	s.attrScratch = attrs
	t := &abbrevTable{dense: slices.Clone(scratch.dense), sparse: scratch.sparse}
	s.abbrevCache[off] = t
	return t
}

// abbrevStore hands out abbreviations, their attributes and their plans
// from chunks that are never moved, so that many small tables do not each
// cost allocations of their own. A chunk doubles the one before, up to
// maxChunk entries.
type abbrevStore struct {
	abbrevs []abbrev
	attr    []abbrevAttr
	steps   []skipStep
}

// maxChunk bounds the entries of one chunk of an abbrevStore.
const maxChunk = 4096

// grow returns a chunk with room for n more entries than chunk has: chunk
// itself when there is room, else a new one.
func grow[T any](chunk []T, n int) []T {
	if cap(chunk)-len(chunk) >= n {
		return chunk
	}
	size := min(max(2*cap(chunk), 64), maxChunk)
	return make([]T, 0, max(size, n))
}

// newAbbrev returns a new zero abbreviation.
func (st *abbrevStore) newAbbrev() *abbrev {
	st.abbrevs = grow(st.abbrevs, 1)
	st.abbrevs = st.abbrevs[:len(st.abbrevs)+1]
	return &st.abbrevs[len(st.abbrevs)-1]
}

// keep copies a into *chunk (a new chunk when it is full) and returns the
// copy, capped at its length; nil when a is empty.
func keep[T any](chunk *[]T, a []T) []T {
	if len(a) == 0 {
		return nil
	}
	c := grow(*chunk, len(a))
	start := len(c)
	c = append(c, a...)
	*chunk = c
	return c[start:len(c):len(c)]
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

// fixedSize is u.fixedFormSize, extended to the indexed forms of fixed
// size whose values resolve without effect (see resolvesQuietly).
func (s *Lines) fixedSize(u *unit, form uint32) (int, bool) {
	n := 0
	switch form {
	case formStrx1, formAddrx1:
		n = 1
	case formStrx2, formAddrx2:
		n = 2
	case formStrx3, formAddrx3:
		n = 3
	case formStrx4, formAddrx4:
		n = 4
	default:
		return u.fixedFormSize(form)
	}
	return n, s.resolvesQuietly(form)
}

// resolvesQuietly reports whether BFD resolves a value of the indexed form
// (strx*, addrx*) without any effect: a string index when .debug_str and
// .debug_str_offsets exist, an address index when .debug_addr does
// (read_indexed_string and read_indexed_address only complain about a
// missing section; a bad index just gives no value). Whether the sections
// exist never changes, so plans made with it stay valid.
func (s *Lines) resolvesQuietly(form uint32) bool {
	switch form {
	case formStrx1, formStrx2, formStrx3, formStrx4, formStrx:
		return s.str.ok && s.strOffsets.ok
	case formAddrx1, formAddrx2, formAddrx3, formAddrx4, formAddrx:
		return s.addr.ok
	}
	return false
}

// skipPlan returns the plan for reading DIEs of ab in unit u in
// scanUnit: runs of attributes of fixed sizes whose values are not used
// merged into one step.
func (s *Lines) skipPlan(u *unit, ab *abbrev) []skipStep {
	if ab.planKey == u.planKey {
		return ab.skip
	}
	ab.skip = s.makePlan(u, ab, func(name uint32) bool { return usedAttr(ab.tag, name) })
	ab.planKey = u.planKey
	return ab.skip
}

// originPlan returns the plan for reading a DIE of ab in unit u that an
// abstract origin or a specification leads to (findAbstract), which uses
// other values than scanUnit.
func (s *Lines) originPlan(u *unit, ab *abbrev) []skipStep {
	if ab.originPlanKey == u.planKey {
		return ab.originSkip
	}
	ab.originSkip = s.makePlan(u, ab, usedByOrigin)
	ab.originPlanKey = u.planKey
	return ab.originSkip
}

// makePlan makes a plan for DIEs of ab in unit u whose values of the
// attributes used reports are read.
func (s *Lines) makePlan(u *unit, ab *abbrev, used func(name uint32) bool) []skipStep {
	plan := s.planScratch[:0]
	for j, spec := range ab.attrs {
		i := int32(j)
		if used(spec.name) {
			plan = append(plan, skipStep{fixed: stepValue, from: i, to: i + 1})
			continue
		}
		n, ok := s.fixedSize(u, spec.form)
		if !ok {
			plan = append(plan, skipStep{fixed: stepVariable, from: i, to: i + 1})
			continue
		}
		// A run stops short of 2^31 bytes (only a forged table gets
		// there).
		if k := len(plan) - 1; k >= 0 && plan[k].fixed >= 0 && plan[k].fixed < math.MaxInt32-16 {
			plan[k].fixed += int32(n)
			plan[k].to = i + 1
			continue
		}
		plan = append(plan, skipStep{fixed: int32(n), from: i, to: i + 1})
	}
	s.planScratch = plan
	return keep(&s.store.steps, plan)
}

// planKeyOf is the key of the DIE plans made for unit u, which parseUnit
// keeps in u.planKey: the sizes its forms' values depend on. A plan made
// for one unit serves every unit of the same key; the key is never 0, the
// key of an abbreviation without a plan.
func planKeyOf(u *unit) uint32 {
	return uint32(u.addrSize) | uint32(u.offsetSize)<<8 | uint32(min(u.version, 3))<<16 | 1<<24
}

// skipDIE steps over the attribute values of a DIE of ab, as reading each
// with skipAttrValue does (the same messages, the same failures), but
// passing over runs of fixed-size values at once.
func (s *Lines) skipDIE(u *unit, ab *abbrev, b *buf) bool {
	plan := ab.skip
	if ab.planKey != u.planKey {
		plan = s.skipPlan(u, ab)
	}
	for _, st := range plan {
		if !b.skipRun(st) && !s.skipStep(u, ab, st, b) {
			return false
		}
	}
	return true
}

// skipRun steps over a run of fixed-size values (a step with fixed >= 0)
// when every value of it starts before the end, so that none of BFD's
// checks can fire, and reports whether it did. It is skipStep's first
// case, small enough to be inlined: nearly every DIE the scan passes over
// is one such run.
func (b *buf) skipRun(st skipStep) bool {
	if st.fixed >= 0 && b.err == nil && int(st.fixed) < b.end-b.off {
		b.off += int(st.fixed)
		return true
	}
	return false
}

// skipStep steps over the values of one step of a plan. Its callers try
// b.skipRun first, the case of nearly every step; a run it could not pass
// (one that reaches the end of the data) is stepped over value by value
// here, with BFD's checks.
func (s *Lines) skipStep(u *unit, ab *abbrev, st skipStep, b *buf) bool {
	if st.fixed < 0 && b.err == nil && b.off < b.end {
		spec := &ab.attrs[st.from]
		switch spec.form {
		case formString:
			b.skipCString()
			return true
		case formUdata, formSdata, formRefUdata, formLoclistx, formRnglistx:
			b.uleb()
			return true
		case formStrx, formAddrx:
			if s.resolvesQuietly(spec.form) {
				b.uleb()
				return true
			}
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
