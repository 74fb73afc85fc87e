package symtab

// addrIndex answers Lookup in constant time: a bucket table over the
// symbols' address span gives, for any address, the last symbol starting
// at or before its bucket, and a short walk forward finishes the search.
// Lookups run for both ends of every arc record of every profile read, so
// this matters when many profiles are read against one executable.
type addrIndex struct {
	starts, ends []uint64
	base         uint64
	shift        uint
	first        []int32 // per bucket: the last symbol starting at or before it
}

func newAddrIndex(syms []Symbol) *addrIndex {
	n := len(syms)
	x := &addrIndex{starts: make([]uint64, n), ends: make([]uint64, n)}
	for i := range syms {
		x.starts[i], x.ends[i] = syms[i].Addr, syms[i].End
	}
	if n == 0 {
		return x
	}
	x.base = x.starts[0]
	span := x.starts[n-1] - x.base
	// About four buckets per symbol at most.
	for x.shift = 0; x.shift < 63 && span>>x.shift > uint64(4*n); x.shift++ {
	}
	nb := int(span>>x.shift) + 1
	x.first = make([]int32, nb)
	s := 0
	for b := range nb {
		lo := x.base + uint64(b)<<x.shift
		for s+1 < n && x.starts[s+1] <= lo {
			s++
		}
		x.first[b] = int32(s)
	}
	return x
}

// lookup returns the index of the symbol holding addr, or -1: the symbol
// with the greatest start not above addr, if addr is not past its end.
func (x *addrIndex) lookup(addr uint64) int {
	n := len(x.starts)
	if n == 0 || addr < x.base {
		return -1
	}
	i := n - 1
	if b := (addr - x.base) >> x.shift; b < uint64(len(x.first)) {
		i = int(x.first[b])
	}
	for i+1 < n && x.starts[i+1] <= addr {
		i++
	}
	if addr > x.ends[i] {
		return -1
	}
	return i
}

// setSyms installs a finalised symbol list and its address index.
func (t *Table) setSyms(syms []Symbol) {
	t.Syms = syms
	t.index = newAddrIndex(syms)
}
