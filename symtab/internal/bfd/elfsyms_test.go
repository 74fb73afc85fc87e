package bfd

import (
	"bytes"
	"debug/elf"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// referenceElfCandidates is what loadElfSymbols kept before it decoded
// the symbol table itself: the same scan over debug/elf's File.Symbols.
func referenceElfCandidates(f *elf.File) (offs []uint64, win []elfSym, hasText bool) {
	textIdx := -1
	var textVMA uint64
	for i, sec := range f.Sections {
		if sec.Name == ".text" {
			textIdx, textVMA = i, sec.Addr
			break
		}
	}
	if textIdx < 0 {
		return nil, nil, false
	}
	syms, err := f.Symbols()
	if err != nil {
		return nil, nil, true
	}
	seenSymbol, fileAfterSymbol := false, false
	var file optString
	var cands []elfSym
	for _, sym := range syms {
		typ := elf.ST_TYPE(sym.Info)
		if typ == elf.STT_FILE {
			file = optString{s: sym.Name, has: true}
			fileAfterSymbol = fileAfterSymbol || seenSymbol
			continue
		}
		seenSymbol = true
		local := elf.ST_BIND(sym.Info) == elf.STB_LOCAL
		switch typ {
		case elf.STT_SECTION, elf.STT_OBJECT, elf.STT_TLS, elf.SymType(8), elf.SymType(9):
			continue
		}
		if int(sym.Section) != textIdx {
			continue
		}
		if sym.Size == 0 && local && typ == elf.STT_NOTYPE && elf.ST_VISIBILITY(sym.Other) == elf.STV_HIDDEN {
			continue
		}
		c := elfSym{name: sym.Name, codeOff: sym.Value - textVMA, size: max(sym.Size, 1)}
		if file.ok() && (local || !fileAfterSymbol) {
			c.file = file
		}
		cands = append(cands, c)
	}
	// For each distinct offset, ascending: the first of the largest size
	// among the candidates there, in table order.
	for len(cands) > 0 {
		best := -1
		for i, c := range cands {
			if best < 0 || c.codeOff < cands[best].codeOff ||
				c.codeOff == cands[best].codeOff && c.size > cands[best].size {
				best = i
			}
		}
		w := cands[best]
		offs, win = append(offs, w.codeOff), append(win, w)
		rest := cands[:0:0]
		for _, c := range cands {
			if c.codeOff != w.codeOff {
				rest = append(rest, c)
			}
		}
		cands = rest
	}
	return offs, win, true
}

// symtabAsCaller reads the symbol table as package symtab does before it
// hands it to LoadWith: .symtab and the section it links to, when .symtab
// is the first SHT_SYMTAB section and the link is not 0.
func symtabAsCaller(f *elf.File) RawSymbols {
	sec := f.Section(".symtab")
	if sec == nil || sec.Type != elf.SHT_SYMTAB || sec != f.SectionByType(elf.SHT_SYMTAB) ||
		sec.Link == 0 || int(sec.Link) >= len(f.Sections) {
		return RawSymbols{}
	}
	entries, err := sec.Data()
	if err != nil {
		return RawSymbols{}
	}
	names, err := f.Sections[sec.Link].Data()
	if err != nil {
		return RawSymbols{}
	}
	return RawSymbols{Entries: entries, Names: names}
}

// checkElfCandidates compares loadElfSymbols, reading the table itself and
// given it as package symtab reads it, with the scan over debug/elf.
func checkElfCandidates(t *testing.T, f *elf.File) {
	offs, win, hasText := referenceElfCandidates(f)
	for _, raw := range []RawSymbols{{}, symtabAsCaller(f)} {
		s := newLines(f.ByteOrder)
		s.loadElfSymbols(f, raw)
		require.Equal(t, hasText, s.hasText)
		require.Equal(t, len(offs), len(s.elfOffs))
		if len(offs) > 0 {
			require.Equal(t, offs, s.elfOffs)
			require.Equal(t, win, s.elfWin)
		}
	}
}

// executableSeeds are small executables of the repository: 64-bit,
// 32-bit (cycles-m32), C++ and big-endian (s390x).
var executableSeeds = []string{
	"../../../testdata/fuzz/tiny/prog",
	"../../../testdata/progs/cycles-m32/prog",
	"../../../testdata/progs/cxx/prog",
	"../../../testdata/progs/s390x/prog",
}

// TestElfCandidates checks loadElfSymbols against the scan over
// debug/elf's symbols on the repository's executables.
func TestElfCandidates(t *testing.T) {
	for _, p := range executableSeeds {
		t.Run(p, func(t *testing.T) {
			f, err := elf.Open(p)
			require.NoError(t, err)
			defer f.Close()
			s := newLines(f.ByteOrder)
			s.loadElfSymbols(f, RawSymbols{})
			require.NotEmpty(t, s.elfWin, "a seed without candidates tests little")
			checkElfCandidates(t, f)
		})
	}
}

// FuzzElfCandidates corrupts executables: loadElfSymbols must agree with
// the scan over debug/elf's symbols whatever the table holds.
func FuzzElfCandidates(f *testing.F) {
	for _, p := range executableSeeds {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ef, err := elf.NewFile(bytes.NewReader(data))
		if err != nil {
			return
		}
		checkElfCandidates(t, ef)
	})
}
