package bfd

import (
	"cmp"
	"debug/elf"
	"math/bits"
	"slices"
	"sort"
)

// elfSym is an ELF symbol that _bfd_elf_find_function may return.
type elfSym struct {
	name    string
	codeOff uint64    // value relative to .text
	size    uint64    // never 0
	file    optString // the STT_FILE name BFD would attach
}

// loadElfSymbols prepares _bfd_elf_find_function over .text: for every
// offset where a candidate symbol starts, the symbol its scan would pick.
func (s *Lines) loadElfSymbols(f *elf.File) {
	textIdx := -1
	for i, sec := range f.Sections {
		if sec.Name == ".text" {
			textIdx = i
			s.textVMA = sec.Addr
			break
		}
	}
	if textIdx < 0 {
		return
	}
	s.hasText = true
	syms, err := f.Symbols()
	if err != nil {
		return
	}
	const (
		nothingSeen = iota
		symbolSeen
		fileAfterSymbol
	)
	state := nothingSeen
	var file optString
	cands := make([]elfSym, 0, len(syms))
	for _, sym := range syms {
		typ := elf.ST_TYPE(sym.Info)
		if typ == elf.STT_FILE {
			file = optString{s: sym.Name, has: true}
			if state == symbolSeen {
				state = fileAfterSymbol
			}
			continue
		}
		local := elf.ST_BIND(sym.Info) == elf.STB_LOCAL
		switch typ {
		case elf.STT_SECTION, elf.STT_OBJECT, elf.STT_TLS, elf.SymType(8), elf.SymType(9):
		default:
			if int(sym.Section) == textIdx {
				size := sym.Size
				hiddenLabel := size == 0 && local && typ == elf.STT_NOTYPE &&
					elf.ST_VISIBILITY(sym.Other) == elf.STV_HIDDEN
				if !hiddenLabel {
					if size == 0 {
						size = 1
					}
					c := elfSym{name: sym.Name, codeOff: sym.Value - s.textVMA, size: size}
					if file.ok() && (local || state != fileAfterSymbol) {
						c.file = file
					}
					cands = append(cands, c)
				}
			}
		}
		if state == nothingSeen {
			state = symbolSeen
		}
	}
	// The scan keeps the highest start not above the offset; at equal
	// starts the first of the largest size.
	order := offsetOrder(cands)
	s.elfOffs = make([]uint64, 0, len(cands))
	s.elfWin = make([]elfSym, 0, len(cands))
	for i := 0; i < len(order); {
		win := &cands[order[i]]
		j := i + 1
		for ; j < len(order) && cands[order[j]].codeOff == win.codeOff; j++ {
			if c := &cands[order[j]]; c.size > win.size {
				win = c
			}
		}
		s.elfOffs = append(s.elfOffs, win.codeOff)
		s.elfWin = append(s.elfWin, *win)
		i = j
	}
}

// offsetOrder returns the positions of the candidates sorted by offset,
// keeping their order at equal offsets. When an offset (from the lowest)
// and a position fit in 64 bits together, the pairs are packed into
// numbers and the numbers sorted, several times faster than a stable sort
// of the entries.
func offsetOrder(cands []elfSym) []int {
	order := make([]int, len(cands))
	if len(cands) == 0 {
		return order
	}
	lowest, highest := cands[0].codeOff, cands[0].codeOff
	for i := range cands {
		lowest, highest = min(lowest, cands[i].codeOff), max(highest, cands[i].codeOff)
	}
	posBits := bits.Len(uint(len(cands)))
	if bits.Len64(highest-lowest)+posBits > 64 {
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cands[a].codeOff, cands[b].codeOff) })
		return order
	}
	keys := make([]uint64, len(cands))
	for i := range cands {
		keys[i] = (cands[i].codeOff-lowest)<<posBits | uint64(i)
	}
	slices.Sort(keys)
	mask := uint64(1)<<posBits - 1
	for i, k := range keys {
		order[i] = int(k & mask)
	}
	return order
}

// elfFunction is _bfd_elf_find_function for .text offset off, including
// its one-entry cache.
func (s *Lines) elfFunction(off uint64) (elfSym, bool) {
	if !s.hasText {
		return elfSym{}, false
	}
	if s.cacheOK && off >= s.cacheSym.codeOff && off < s.cacheSym.codeOff+s.cacheSize {
		return s.cacheSym, true
	}
	i := sort.Search(len(s.elfOffs), func(i int) bool { return s.elfOffs[i] > off }) - 1
	if i < 0 {
		s.cacheOK = false
		return elfSym{}, false
	}
	s.cacheOK = true
	s.cacheSym = s.elfWin[i]
	s.cacheSize = s.elfWin[i].size
	return s.cacheSym, true
}
