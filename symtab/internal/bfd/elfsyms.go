package bfd

import (
	"bytes"
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

// RawSymbols is an executable's ELF symbol table as its caller read it:
// the contents of its first SHT_SYMTAB section (Entries) and of the string
// table that section links to (Names; the link is not 0). A caller that
// has read them passes them to LoadWith, so that they are not read and
// decoded twice.
type RawSymbols struct {
	Entries, Names []byte
}

// readRawSymbols reads f's symbol table as debug/elf's File.Symbols does:
// the first SHT_SYMTAB section, and the section it links to. It reports
// false where Symbols fails to read them (loadElfSymbols refuses, as
// Symbols does, entries that are not whole symbols).
func readRawSymbols(f *elf.File) (RawSymbols, bool) {
	sec := f.SectionByType(elf.SHT_SYMTAB)
	if sec == nil {
		return RawSymbols{}, false
	}
	entries, err := sec.Data()
	if err != nil || sec.Link == 0 || int(sec.Link) >= len(f.Sections) {
		return RawSymbols{}, false
	}
	names, err := f.Sections[sec.Link].Data()
	if err != nil {
		return RawSymbols{}, false
	}
	return RawSymbols{Entries: entries, Names: names}, true
}

// symbolName returns the NUL-terminated name at off in names, or "" when
// off is outside names or the name runs to its end (as debug/elf reads
// names).
func symbolName(names []byte, off uint32) string {
	if uint64(off) >= uint64(len(names)) {
		return ""
	}
	if n := bytes.IndexByte(names[off:], 0); n >= 0 {
		return string(names[off : int(off)+n])
	}
	return ""
}

// elfCand is a candidate of _bfd_elf_find_function while the candidates
// are sorted: its name is kept as an offset, and only the names of the
// winners are made into strings.
type elfCand struct {
	nameOff uint32
	codeOff uint64
	size    uint64
	file    optString
}

// loadElfSymbols prepares _bfd_elf_find_function over .text: for every
// offset where a candidate symbol starts, the symbol its scan would pick.
// raw is the symbol table when the caller has read it (Entries nil
// otherwise). The entries are decoded here rather than by debug/elf's
// File.Symbols, which makes a string of every name: most are never
// candidates, and of the candidates only the winners are kept.
func (s *Lines) loadElfSymbols(f *elf.File, raw RawSymbols) {
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
	if raw.Entries == nil {
		var ok bool
		if raw, ok = readRawSymbols(f); !ok {
			return
		}
	}
	entSize := 24
	if f.Class == elf.ELFCLASS32 {
		entSize = 16
	}
	if len(raw.Entries) == 0 || len(raw.Entries)%entSize != 0 {
		return // debug/elf's Symbols refuses such a table
	}
	const (
		nothingSeen = iota
		symbolSeen
		fileAfterSymbol
	)
	state := nothingSeen
	var file optString
	bo := f.ByteOrder
	n := len(raw.Entries)/entSize - 1 // the first entry is the null symbol
	cands := make([]elfCand, 0, n)
	for e := raw.Entries[entSize:]; len(e) >= entSize; e = e[entSize:] {
		nameOff := bo.Uint32(e[0:4])
		var info, other byte
		var shndx uint16
		var value, size uint64
		if entSize == 24 {
			info, other, shndx = e[4], e[5], bo.Uint16(e[6:8])
			value, size = bo.Uint64(e[8:16]), bo.Uint64(e[16:24])
		} else {
			value, size = uint64(bo.Uint32(e[4:8])), uint64(bo.Uint32(e[8:12]))
			info, other, shndx = e[12], e[13], bo.Uint16(e[14:16])
		}
		typ := elf.ST_TYPE(info)
		if typ == elf.STT_FILE {
			file = optString{s: symbolName(raw.Names, nameOff), has: true}
			if state == symbolSeen {
				state = fileAfterSymbol
			}
			continue
		}
		local := elf.ST_BIND(info) == elf.STB_LOCAL
		switch typ {
		case elf.STT_SECTION, elf.STT_OBJECT, elf.STT_TLS, elf.SymType(8), elf.SymType(9):
		default:
			if int(shndx) == textIdx {
				hiddenLabel := size == 0 && local && typ == elf.STT_NOTYPE &&
					elf.ST_VISIBILITY(other) == elf.STV_HIDDEN
				if !hiddenLabel {
					if size == 0 {
						size = 1
					}
					c := elfCand{nameOff: nameOff, codeOff: value - s.textVMA, size: size}
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
		s.elfWin = append(s.elfWin, elfSym{name: symbolName(raw.Names, win.nameOff), codeOff: win.codeOff, size: win.size, file: win.file})
		i = j
	}
}

// offsetOrder returns the positions of the candidates sorted by offset,
// keeping their order at equal offsets. When an offset (from the lowest)
// and a position fit in 64 bits together, the pairs are packed into
// numbers and the numbers sorted, several times faster than a stable sort
// of the entries.
func offsetOrder(cands []elfCand) []int {
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
