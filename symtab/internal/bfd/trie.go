package bfd

// trieRange is a unit's address range stored in a trie leaf.
type trieRange struct {
	unit      *unit
	low, high uint64
}

// trieNode is a node of BFD's address trie: a leaf (room > 0) holding
// ranges, or an interior node with 256 children keyed by the next address
// byte.
type trieNode struct {
	room     int
	ranges   []trieRange
	children []*trieNode
}

// trieLeafSize is the room of a new leaf (TRIE_LEAF_SIZE).
const trieLeafSize = 16

// rangesTouch reports whether [low1, high1) and [low2, high2) overlap or
// touch (ranges_overlap).
func rangesTouch(low1, high1, low2, high2 uint64) bool {
	if low1 == low2 || high1 == high2 {
		return true
	}
	if low1 > low2 {
		// Order the ranges by low; only the lower one's high matters.
		low1, low2 = low2, low1
		high1 = high2
	}
	return low2 <= high1
}

// trieHint is the leaf where a range was last merged into one of the same
// unit, and the addresses its bucket covers (hi inclusive). It is dropped
// whenever the trie's shape changes.
type trieHint struct {
	leaf   *trieNode
	lo, hi uint64
}

// trieAdd stores a unit's range in the trie (insert_arange_in_trie from
// the root). Most ranges added are a unit's functions, inside a range of
// the unit already stored: a range that lies inside the bucket of the leaf
// of the last merge is merged there directly, when it can be, which is
// what the walk from the root would do (the walk passes through interior
// nodes without changing them and reaches that leaf alone).
func (s *Lines) trieAdd(u *unit, low, high uint64) {
	if h := &s.trieHint; h.leaf != nil && s.trieBudget > 0 && low < high && low >= h.lo && high-1 <= h.hi {
		for i := range h.leaf.ranges {
			r := &h.leaf.ranges[i]
			if r.unit == u && rangesTouch(low, high, r.low, r.high) {
				r.low, r.high = min(r.low, low), max(r.high, high)
				return
			}
		}
	}
	s.trie = s.trieInsert(s.trie, 0, 0, u, low, high)
}

// trieInsert stores a unit's range in the trie node t covering addresses
// from triePC with bits leading bits fixed, and returns the node that
// replaces t: a full leaf becomes an interior node or grows at the bottom
// (insert_arange_in_trie).
func (s *Lines) trieInsert(t *trieNode, triePC uint64, bits uint, u *unit, low, high uint64) *trieNode {
	if s.trieBudget <= 0 {
		return t
	}
	full := false
	if t.room > 0 {
		for i := range t.ranges {
			r := &t.ranges[i]
			if r.unit == u && rangesTouch(low, high, r.low, r.high) {
				if low < r.low {
					r.low = low
				}
				if high > r.high {
					r.high = high
				}
				s.trieHint = trieHint{leaf: t, lo: triePC, hi: triePC + (^uint64(0) >> bits)}
				return t
			}
		}
		full = len(t.ranges) == t.room
	}
	if full {
		s.trieHint = trieHint{} // the leaf is replaced
	}
	if full && bits < 64 {
		old := t
		t = &trieNode{children: make([]*trieNode, 256)}
		s.trieBudget -= 256
		full = false
		for _, r := range old.ranges {
			s.trieInsert(t, triePC, bits, r.unit, r.low, r.high)
		}
	}
	if full {
		grown := &trieNode{room: t.room * 2, ranges: make([]trieRange, len(t.ranges), t.room*2)}
		copy(grown.ranges, t.ranges)
		s.trieBudget -= len(t.ranges)
		t = grown
	}
	if t.room > 0 {
		t.ranges = append(t.ranges, trieRange{unit: u, low: low, high: high})
		s.trieBudget--
		return t
	}
	clampLow, clampHigh := low, high
	if bits > 0 {
		bucketHigh := triePC + (^uint64(0) >> bits)
		if clampLow < triePC {
			clampLow = triePC
		}
		if clampHigh > bucketHigh {
			clampHigh = bucketHigh
		}
	}
	shift := 64 - bits - 8
	from := int((clampLow >> shift) & 0xff)
	to := int(((clampHigh - 1) >> shift) & 0xff)
	for ch := from; ch <= to; ch++ {
		child := t.children[ch]
		if child == nil {
			child = &trieNode{room: trieLeafSize}
		}
		child = s.trieInsert(child, triePC+uint64(ch)<<shift, bits+8, u, low, high)
		t.children[ch] = child
	}
	return t
}

// leaf returns the trie leaf that covers addr, or nil.
func (s *Lines) leaf(addr uint64) *trieNode {
	t := s.trie
	bits := 56
	for t != nil && t.room == 0 && bits >= 0 {
		t = t.children[(addr>>uint(bits))&0xff]
		bits -= 8
	}
	if t != nil && t.room > 0 {
		return t
	}
	return nil
}
