package bfd

import (
	"cmp"
	"debug/elf"
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
	slices.SortStableFunc(cands, func(a, b elfSym) int { return cmp.Compare(a.codeOff, b.codeOff) })
	s.elfOffs = make([]uint64, 0, len(cands))
	s.elfWin = make([]elfSym, 0, len(cands))
	for i := 0; i < len(cands); {
		j := i
		win := cands[i]
		for ; j < len(cands) && cands[j].codeOff == cands[i].codeOff; j++ {
			if cands[j].size > win.size {
				win = cands[j]
			}
		}
		s.elfOffs = append(s.elfOffs, win.codeOff)
		s.elfWin = append(s.elfWin, win)
		i = j
	}
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
