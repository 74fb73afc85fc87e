package bfd

// arange is an address range [low, high).
type arange struct{ low, high uint64 }

// aranges is BFD's list of ranges of a unit or function: a first entry
// that is empty while high is 0, and further entries inserted right after
// the first, so the list order is first, rest[n-1], ..., rest[0].
type aranges struct {
	first arange
	rest  []arange
}

// addToList merges [low, high) into the list the way arange_add does.
func (a *aranges) addToList(low, high uint64) {
	if a.first.high == 0 {
		a.first = arange{low, high}
		return
	}
	try := func(r *arange) bool {
		if low == r.high {
			r.high = high
			return true
		}
		if high == r.low {
			r.low = low
			return true
		}
		return false
	}
	if try(&a.first) {
		return
	}
	for i := len(a.rest) - 1; i >= 0; i-- {
		if try(&a.rest[i]) {
			return
		}
	}
	a.rest = append(a.rest, arange{low, high})
}

// contains reports whether any range of the list holds addr.
func (a *aranges) contains(addr uint64) bool {
	if addr >= a.first.low && addr < a.first.high {
		return true
	}
	for _, r := range a.rest {
		if addr >= r.low && addr < r.high {
			return true
		}
	}
	return false
}

// bounds returns the lowest low and highest high over the list.
func (a *aranges) bounds() (low, high uint64) {
	low, high = a.first.low, a.first.high
	for _, r := range a.rest {
		if r.low < low {
			low = r.low
		}
		if r.high > high {
			high = r.high
		}
	}
	return low, high
}

// arangeAdd records [low, high) for unit u in list a and in the trie
// (arange_add).
func (s *Lines) arangeAdd(u *unit, a *aranges, low, high uint64) {
	if low == high {
		return
	}
	s.trieAdd(u, low, high)
	a.addToList(low, high)
}

// readRangeList adds the ranges of a DW_AT_ranges list to a
// (read_rangelist); false means BFD gave up on the list.
func (s *Lines) readRangeList(u *unit, a *aranges, off uint64) bool {
	if u.version <= 4 {
		return s.readRanges(u, a, off)
	}
	return s.readRnglists(u, a, off)
}

// readRanges walks a .debug_ranges list (DWARF 2-4, read_ranges).
func (s *Lines) readRanges(u *unit, a *aranges, off uint64) bool {
	if !s.readable(&s.ranges, 0) || off > uint64(len(s.ranges.data)) {
		return false
	}
	b := s.cursor(&s.ranges, int(off), len(s.ranges.data))
	base := u.baseAddress
	for {
		if 2*u.addrSize > b.remaining() {
			return false
		}
		low := u.readAddress(&b)
		high := u.readAddress(&b)
		if low == 0 && high == 0 {
			return true
		}
		// BFD compares with an all-ones host long, so a 32-bit base
		// address selector is taken for a range.
		if low == ^uint64(0) && high != ^uint64(0) {
			base = high
		} else {
			s.arangeAdd(u, a, base+low, base+high)
		}
	}
}

// readRnglists walks a .debug_rnglists list (DWARF 5, read_rnglists).
func (s *Lines) readRnglists(u *unit, a *aranges, off uint64) bool {
	if !s.readable(&s.rnglists, 0) || off > uint64(len(s.rnglists.data)) {
		return false
	}
	b := s.cursor(&s.rnglists, int(off), len(s.rnglists.data))
	base := u.baseAddress
	for {
		if b.atEnd() {
			return false
		}
		var low, high uint64
		switch b.u8() {
		case 0: // DW_RLE_end_of_list
			return true
		case 5: // DW_RLE_base_address
			if u.addrSize > b.remaining() {
				return false
			}
			base = u.readAddress(&b)
			continue
		case 7: // DW_RLE_start_length
			if u.addrSize > b.remaining() {
				return false
			}
			low = u.readAddress(&b)
			high = low + b.uleb()
		case 4: // DW_RLE_offset_pair
			low = base + b.uleb()
			high = base + b.uleb()
		case 6: // DW_RLE_start_end
			if 2*u.addrSize > b.remaining() {
				return false
			}
			low = u.readAddress(&b)
			high = u.readAddress(&b)
		default:
			return false
		}
		s.arangeAdd(u, a, low, high)
	}
}
