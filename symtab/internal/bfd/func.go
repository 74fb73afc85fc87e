package bfd

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// funcInfo is a DW_TAG_subprogram, DW_TAG_entry_point or
// DW_TAG_inlined_subroutine of a unit (BFD's struct funcinfo).
//
// A unit keeps (unit.funcs) only its functions with a range: the others
// (declarations, abstract instances: most of a C++ unit's function DIEs)
// can never be found by an address, which is all the list is for. Its
// pages are written for the first time in a short run, so the fields are
// laid out to take 72 bytes, not 80.
type funcInfo struct {
	name      optString
	arange    aranges
	idx       int32 // position in unit.funcs, which is in DIE order
	isLinkage bool
}

// funcLookup is an entry of a unit's sorted function lookup table: the
// function is unit.funcs[idx], named by its position rather than a
// pointer to spare 8 of 32 bytes an entry.
type funcLookup struct {
	low, high uint64 // high becomes the running maximum after sorting
	idx       int32
}

// mangleStyleIsC reports whether BFD treats names of the language as
// linkage names already (mangle_style returning 0).
func mangleStyleIsC(lang uint64) bool {
	switch lang {
	case 0x0001, 0x0002, 0x0005, 0x0006, 0x0007, 0x0009, 0x000c, 0x000f, 0x0012, 0x001d,
		0x8001, 0x8765, 0x8004, 0x8006, 0x8007:
		return true
	}
	return false
}

func isFuncTag(tag uint32) bool {
	return tag == tagSubprogram || tag == tagEntryPoint || tag == tagInlinedSubroutine
}

// maybeDecode decodes the unit's line table and functions on first use
// (comp_unit_maybe_decode_line_info); later calls find them decoded, so a
// unit's DIEs are scanned at most once. It reports false for unusable
// units.
func (s *Lines) maybeDecode(u *unit) bool {
	if u.failed {
		return false
	}
	if u.table == nil {
		if !u.stmtList {
			u.failed = true
			return false
		}
		tab := s.decodeLineInfo(u)
		if tab == nil {
			u.failed = true
			return false
		}
		u.table = tab
		if u.firstChild < u.end && !s.scanUnit(u) {
			u.failed = true
			return false
		}
	}
	return true
}

// dieCursor returns a cursor at the first DIE after the unit DIE.
func (s *Lines) dieCursor(u *unit) buf {
	return s.cursor(&s.info, u.firstChild, u.end)
}

// nextDIE reads the abbreviation number of the next DIE of a unit's DIE
// tree, passing over the null entries that close lists of children and
// counting them off *nesting. It returns 0 when the unit DIE's children
// have all been read, and false when the data ends first.
func nextDIE(b *buf, nesting *int) (num uint32, ok bool) {
	for *nesting >= 0 {
		if b.atEnd() {
			return 0, false
		}
		// Abbreviation numbers of one byte, and the null entries, are
		// nearly all a unit has.
		if c := b.data[b.off]; c < 0x80 && b.err == nil {
			b.off++
			if c != 0 {
				return uint32(c), true
			}
			*nesting--
			continue
		}
		if num = uint32(b.uleb()); num != 0 {
			return num, true
		}
		*nesting--
	}
	return 0, true
}

// scanUnit collects the functions of a unit in two passes over its DIEs
// (scan_unit_for_symbols): the first finds them, the second reads their
// names and ranges. BFD finds a function of the second pass by its DIE
// offset; both passes walk the same DIEs, so the n-th function DIE of the
// second pass is the n-th function found by the first.
//
// The second pass only reads the DIEs of functions, variables and
// members; it steps over the others as the first pass did. When stepping
// over them recorded no message in the first pass, it has no effect at
// all the second time, and the second pass goes straight from one DIE it
// reads to the next, at the offsets the first pass noted.
func (s *Lines) scanUnit(u *unit) bool {
	warned := s.warned
	// The DIEs the second pass reads. The list's memory is handed from
	// unit to unit; a unit scanned while this one is (through an abstract
	// origin in it) makes a list of its own.
	read := takeList(&s.dieList)
	defer giveList(&s.dieList, read)

	b := s.dieCursor(u)
	for nesting := 0; ; {
		num, ok := nextDIE(&b, &nesting)
		if !ok {
			return false
		}
		if num == 0 {
			break
		}
		ab := u.abbrevs.get(num)
		if ab == nil {
			// BFD reports a missing abbreviation only when it differs
			// from the previous one reported (in either file).
			if r := s.root(); num != r.prevFailedAbbrev {
				s.warnf("could not find abbrev number %d", num)
				r.prevFailedAbbrev = num
			}
			return false
		}
		at := dieAt{rel: uint32(b.off - u.firstChild), num: num}
		switch {
		case isFuncTag(ab.tag):
			read.push(at)
		case ab.tag == tagVariable || ab.tag == tagMember:
			// Read here instead of stepped over, which has the same
			// effects: the second pass reads it again only if that
			// has some.
			needed, ok := s.varNeedsReading(u, ab, &b)
			if !ok {
				return false
			}
			if needed {
				read.push(at)
			}
			if ab.hasChildren {
				nesting++
			}
			continue
		}
		if !s.skipDIE(u, ab, &b) {
			return false
		}
		if ab.hasChildren {
			nesting++
		}
	}
	// The second pass reads each function into fn, and keeps it only if
	// it has a range. The unit's list of them grows by chunks: it is
	// never copied.
	var fn funcInfo
	keep := func() {
		if low, high := fn.arange.bounds(); high > low {
			fn.idx = int32(u.funcs.n)
			u.funcs.push(fn)
		}
	}

	if s.warned == warned && u.end-u.firstChild <= math.MaxUint32 {
		// One cursor serves every DIE read, moved to each in turn:
		// making a cursor for each cost a copy of the cursor, and then
		// a comparison of byte orders (lua -b: 0.99x the CPU without
		// them).
		b := s.dieCursor(u)
		for _, part := range read.parts() {
			for _, d := range part {
				ab := u.abbrevs.get(d.num)
				b.off, b.err = u.firstChild+int(d.rel), nil
				if !isFuncTag(ab.tag) {
					if !s.readDIE(u, ab, &b, nil) {
						return false
					}
					continue
				}
				fn = funcInfo{}
				if !s.readDIE(u, ab, &b, &fn) {
					return false
				}
				keep()
			}
		}
		s.buildFuncLookup(u)
		return true
	}

	b = s.dieCursor(u)
	for nesting := 0; ; {
		num, ok := nextDIE(&b, &nesting)
		if !ok {
			return false
		}
		if num == 0 {
			break
		}
		ab := u.abbrevs.get(num)
		if ab == nil {
			return false
		}
		isFunc := isFuncTag(ab.tag)
		if !isFunc && ab.tag != tagVariable && ab.tag != tagMember {
			// Nothing of other DIEs is used.
			if !s.skipDIE(u, ab, &b) {
				return false
			}
			if ab.hasChildren {
				nesting++
			}
			continue
		}
		if isFunc {
			fn = funcInfo{}
			if !s.readDIE(u, ab, &b, &fn) {
				return false
			}
			keep()
		} else if !s.readDIE(u, ab, &b, nil) {
			return false
		}
		if ab.hasChildren {
			nesting++
		}
	}
	s.buildFuncLookup(u)
	return true
}

// takeList takes the list kept in *kept, emptied, or a new one when there
// is none: a scan nested in another (through an abstract origin) finds
// none and makes its own.
func takeList[T any](kept **chunkList[T]) *chunkList[T] {
	l := *kept
	*kept = nil
	if l == nil {
		return new(chunkList[T])
	}
	l.reset()
	return l
}

// giveList keeps l in *kept for the next scan, unless the list there has
// more chunks.
func giveList[T any](kept **chunkList[T], l *chunkList[T]) {
	if *kept == nil || len(l.chunks) > len((*kept).chunks) {
		*kept = l
	}
}

// varNeedsReading steps over the attributes of a variable or member DIE
// of ab as skipDIE does (reading a value is what stepping over it does),
// and reports whether reading the DIE in scanUnit's second pass has an
// effect: a specification to follow, or a file number the line table
// does not have (BFD's message). false as second result is skipDIE's.
func (s *Lines) varNeedsReading(u *unit, ab *abbrev, b *buf) (needed, ok bool) {
	var a attr
	for _, st := range s.skipPlan(u, ab) {
		if st.fixed != stepValue {
			if !b.skipRun(st) && !s.skipStep(u, ab, st, b) {
				return false, false
			}
			continue
		}
		spec := &ab.attrs[st.from]
		// The forms compilers give a file number, read as readAttr
		// would; any other form, or the end of the data, goes through
		// readAttr.
		switch {
		case b.err == nil && b.off < b.end && spec.form == formImplicitConst:
			a = attr{form: formSdata, val: spec.implicit}
		case b.err == nil && b.off < b.end && spec.form == formData1:
			a = attr{form: formData1, val: uint64(b.data[b.off])}
			b.off++
		default:
			if !s.readAttr(u, spec.form, spec.implicit, b, false, &a) {
				return false, false
			}
		}
		switch {
		case spec.name == atSpecification && isIntForm(a.form) && a.val != 0:
			needed = true
		case spec.name == atDeclFile && isIntForm(a.form) && !fileNumberOK(u.table, a.val):
			needed = true
		}
	}
	return needed, true
}

// dieAt is a DIE of a unit: the offset of its attributes from the unit's
// first child DIE, and its abbreviation number.
type dieAt struct {
	rel, num uint32
}

// readDIE reads the attributes of a DIE of the second pass of scanUnit:
// into fn for a function, for their side effects only for a variable or
// member (fn nil).
func (s *Lines) readDIE(u *unit, ab *abbrev, b *buf, fn *funcInfo) bool {
	var lowPC, highPC uint64
	highRel := false
	var a attr
	for _, st := range s.skipPlan(u, ab) {
		if st.fixed != stepValue {
			if !b.skipRun(st) && !s.skipStep(u, ab, st, b) {
				return false
			}
			continue
		}
		spec := &ab.attrs[st.from]
		// Only a function's names are used.
		if !s.readAttr(u, spec.form, spec.implicit, b, fn != nil, &a) {
			return false
		}
		a.name = spec.name
		if fn != nil {
			switch a.name {
			case atCallFile, atDeclFile:
				if isIntForm(a.form) {
					s.checkFile(u.table, a.val)
				}
			case atAbstractOrigin, atSpecification:
				if isIntForm(a.form) && !s.findAbstract(u, a, 0, &fn.name, &fn.isLinkage) {
					return false
				}
			case atName:
				if !fn.name.ok() && isStrForm(a.form) {
					fn.name = a.str
					if mangleStyleIsC(u.lang) {
						fn.isLinkage = true
					}
				}
			case atLinkageName, atMIPSLinkageName:
				if isStrForm(a.form) {
					fn.name = a.str
					fn.isLinkage = true
				}
			case atLowPC:
				if isIntForm(a.form) {
					lowPC = a.val
				}
			case atHighPC:
				if isIntForm(a.form) {
					highPC = a.val
					highRel = a.form != formAddr
				}
			case atRanges:
				if isIntForm(a.form) && !s.readRangeList(u, &fn.arange, a.val) {
					return false
				}
			}
			continue
		}
		switch {
		case a.name == atSpecification && isIntForm(a.form) && a.val != 0:
			// Only the side effects matter (other units may get
			// decoded); BFD goes on after a failure.
			var name optString
			var linkage bool
			if !s.findAbstract(u, a, 0, &name, &linkage) {
				s.warnf("could not find variable specification at offset 0x%x", a.val)
			}
		case a.name == atDeclFile && isIntForm(a.form):
			s.checkFile(u.table, a.val)
		}
	}
	if highRel {
		highPC += lowPC
	}
	if fn != nil && highPC != 0 {
		s.arangeAdd(u, &fn.arange, lowPC, highPC)
	}
	return true
}

// findAbstract follows DW_AT_abstract_origin or DW_AT_specification to the
// referenced DIE and takes its name (find_abstract_instance): a linkage name
// always wins, a plain name only fills an empty one.
func (s *Lines) findAbstract(u *unit, a attr, depth int, name *optString, linkage *bool) bool {
	if depth == 100 {
		s.warnf("abstract instance recursion detected")
		return false
	}
	ref := a.val
	var off int
	switch a.form {
	case formRefAddr:
		if ref == 0 {
			return true
		}
		if ref >= uint64(len(s.info.data)) {
			s.warnf("invalid abstract instance DIE ref")
			return false
		}
		off = int(ref)
		if off < u.start || off >= u.end {
			var tu *unit
			if s.owner == nil {
				tu = s.unitHolding(off)
			} else if tu = s.unitAt(off); tu == nil {
				// From a unit of the alt file BFD still reads on
				// through the executable's units, none of which can
				// hold the DIE.
				for s.owner.nextUnit() != nil {
				}
			}
			if tu == nil {
				s.warnf("unable to locate abstract instance DIE ref %d", ref)
				return false
			}
			u = tu
		}
	case formGNURefAlt:
		// The DIE is in the alt file (read_alt_indirect_ref): found in
		// its units read so far, else in the next ones read. The rest
		// is read with the alt file's state.
		alt := s.alt
		if alt == nil {
			s.altUsed = true
			s.warnf("unable to read alt ref %d", ref)
			return false
		}
		if !alt.readable(&alt.info, ref) {
			s.warnf("unable to read alt ref %d", ref)
			return false
		}
		off = int(ref)
		tu := alt.unitHolding(off)
		if tu == nil {
			s.warnf("unable to locate abstract instance DIE ref %d", ref)
			return false
		}
		s, u = alt, tu
	default:
		if ref == 0 || ref >= uint64(u.end-u.start) {
			s.warnf("invalid abstract instance DIE ref")
			return false
		}
		off = u.start + int(ref)
	}
	b := s.cursor(&s.info, off, u.end)
	num := uint32(b.uleb())
	if num == 0 {
		return true
	}
	ab := u.abbrevs.get(num)
	if ab == nil {
		s.warnf("could not find abbrev number %d", num)
		return false
	}
	// The values findAbstract does not use are stepped over as skipDIE
	// does, which has the same effects as reading them.
	var v attr
	for _, st := range s.originPlan(u, ab) {
		if st.fixed != stepValue {
			if !b.skipRun(st) && !s.skipStep(u, ab, st, &b) {
				break
			}
			continue
		}
		spec := &ab.attrs[st.from]
		if !s.readAttrValue(u, spec.form, spec.implicit, &b, &v) {
			break
		}
		switch spec.name {
		case atName:
			if !name.ok() && isStrForm(v.form) {
				*name = v.str
				if mangleStyleIsC(u.lang) {
					*linkage = true
				}
			}
		case atSpecification:
			if isIntForm(v.form) && !s.findAbstract(u, v, depth+1, name, linkage) {
				return false
			}
		case atLinkageName, atMIPSLinkageName:
			if isStrForm(v.form) {
				*name = v.str
				*linkage = true
			}
		case atDeclFile:
			if !s.maybeDecode(u) {
				return false
			}
			if isIntForm(v.form) {
				s.checkFile(u.table, v.val)
			}
		}
	}
	return true
}

// buildFuncLookup builds the unit's function table sorted by address with
// running maximum end addresses (build_lookup_funcinfo_table). The unit
// holds only functions with a range (see scanUnit).
func (s *Lines) buildFuncLookup(u *unit) {
	if u.funcs.n == 0 {
		return
	}
	lowest, highest := ^uint64(0), uint64(0)
	for _, fn := range u.funcs.all() {
		low, high := fn.arange.bounds()
		lowest, highest = min(lowest, low), max(highest, high)
	}
	tab := sortedFuncs(&u.funcs, lowest, highest)
	high := tab[0].high
	for i := 1; i < len(tab); i++ {
		if tab[i].high > high {
			high = tab[i].high
		} else {
			tab[i].high = high
		}
	}
	u.lookup = tab
}

// sortedFuncs returns the functions of funcs, all with a range, sorted by
// start, then end, then position; lowest and highest bound their ranges.
//
// The order is total, so any sort gives it. When the three fit in 64 bits
// (start and end as offsets from lowest), they are packed into one number
// each and the numbers sorted: a unit of an optimised program has tens of
// thousands of inlined calls, and sorting the numbers takes a fraction of
// the time a comparison function on the entries takes.
func sortedFuncs(funcs *chunkList[funcInfo], lowest, highest uint64) []funcLookup {
	n := funcs.n
	tab := make([]funcLookup, 0, n)
	addrBits := bits.Len64(highest - lowest)
	posBits := bits.Len(uint(n))
	if 2*addrBits+posBits > 64 {
		for i, fn := range funcs.all() {
			low, high := fn.arange.bounds()
			tab = append(tab, funcLookup{low: low, high: high, idx: int32(i)})
		}
		slices.SortFunc(tab, compareFuncLookup)
		return tab
	}
	keys := make([]uint64, 0, n)
	for i, fn := range funcs.all() {
		low, high := fn.arange.bounds()
		keys = append(keys, (low-lowest)<<(addrBits+posBits)|(high-lowest)<<posBits|uint64(i))
	}
	slices.Sort(keys)
	posMask, addrMask := uint64(1)<<posBits-1, uint64(1)<<addrBits-1
	for _, k := range keys {
		low := k>>(addrBits+posBits) + lowest
		high := (k>>posBits)&addrMask + lowest
		tab = append(tab, funcLookup{low: low, high: high, idx: int32(k & posMask)})
	}
	return tab
}

// compareFuncLookup orders entries of a function table by start, then
// end, then position.
func compareFuncLookup(a, b funcLookup) int {
	if a.low != b.low {
		return cmp.Compare(a.low, b.low)
	}
	if a.high != b.high {
		return cmp.Compare(a.high, b.high)
	}
	return cmp.Compare(a.idx, b.idx)
}

// lookupFunc returns the function with the smallest range holding addr
// (lookup_address_in_function_table); among equal sizes the later DIE
// wins, which is how BFD's allocation order usually breaks the tie.
func (u *unit) lookupFunc(addr uint64) *funcInfo {
	tab := u.lookup
	n := len(tab)
	if n == 0 || tab[n-1].high < addr {
		return nil
	}
	low, high, first := 0, n, n
	for low < high {
		mid := (low + high) / 2
		e := &tab[mid]
		if addr < e.low {
			high = mid
		} else if addr >= e.high {
			low = mid + 1
		} else {
			high = mid
			first = mid
		}
	}
	var best *funcInfo
	bestLen := ^uint64(0)
	consider := func(fn *funcInfo, r arange) {
		if addr < r.low || addr >= r.high {
			return
		}
		l := r.high - r.low
		if l < bestLen || (l == bestLen && (best == nil || fn.idx > best.idx)) {
			best = fn
			bestLen = l
		}
	}
	for ; first < n; first++ {
		if addr < tab[first].low {
			break
		}
		fn := u.funcs.at(int(tab[first].idx))
		consider(fn, fn.arange.first)
		for i := len(fn.arange.rest) - 1; i >= 0; i-- {
			consider(fn, fn.arange.rest[i])
		}
	}
	return best
}
