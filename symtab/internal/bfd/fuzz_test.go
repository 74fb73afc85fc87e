package bfd

import (
	"debug/elf"
	"testing"
)

// FuzzLines feeds corrupt debug sections straight to the DWARF reader,
// seeded with the sections of a tiny executable
// (testdata/fuzz/tiny/build.sh), and looks up every address around its
// .text: decoding must never panic or run away, and lines stay within
// BFD's 32 bits.
func FuzzLines(f *testing.F) {
	ef, err := elf.Open("../../../testdata/fuzz/tiny/prog")
	if err != nil {
		f.Fatal(err)
	}
	seed, err := Load(ef, nil)
	text := ef.Section(".text")
	ef.Close()
	if err != nil || seed == nil || text == nil {
		f.Fatalf("seed executable without DWARF or .text: %v", err)
	}
	f.Add(seed.info.data, seed.abbrev.data, seed.line.data, seed.str.data, seed.lineStr.data)
	f.Add(seed.info.data, seed.abbrev.data, seed.line.data, []byte(nil), []byte(nil))
	lo, hi := text.Addr-16, text.Addr+text.Size+16
	f.Fuzz(func(t *testing.T, info, abbrev, line, str, lineStr []byte) {
		s := newLines(seed.order)
		s.info = section{data: info, ok: true, want: ".debug_info", name: ".debug_info"}
		for sec, data := range map[*section][]byte{&s.abbrev: abbrev, &s.line: line, &s.str: str, &s.lineStr: lineStr} {
			sec.data, sec.ok = data, data != nil
		}
		s.trieBudget += 16 * (len(info) + len(line) + len(abbrev))
		for addr := lo; addr < hi; addr++ {
			// A line program may step below line 1: BFD keeps lines in a
			// 32-bit unsigned integer that wraps, and gprof prints it as
			// a signed one (so -12, not 4294967284).
			if _, _, line, ok := s.Find(addr); ok && line != int(int32(line)) {
				t.Fatalf("line %d at 0x%x is outside BFD's 32 bits", line, addr)
			}
		}
	})
}

// FuzzAltLines feeds corrupt sections of dwz -m's shared file to the
// lookups of the program naming it (testdata/dwz/build.sh), seeded with
// the real file's sections: following the references into it must never
// panic or run away, whatever it holds.
func FuzzAltLines(f *testing.F) {
	ef, err := elf.Open("../../../testdata/dwz/prog")
	if err != nil {
		f.Fatal(err)
	}
	text := ef.Section(".text")
	ef.Close()
	af, err := elf.Open("../../../testdata/dwz/common.debug")
	if err != nil {
		f.Fatal(err)
	}
	l := &loader{f: af}
	info, abbrev, line, str := l.readSection("info"), l.readSection("abbrev"), l.readSection("line"), l.readSection("str")
	af.Close()
	if text == nil || !info.ok {
		f.Fatal("seed files without .text or .debug_info")
	}
	f.Add(info.data, abbrev.data, line.data, str.data)
	f.Add(info.data, abbrev.data, []byte(nil), []byte(nil))
	lo, hi := text.Addr, text.Addr+text.Size
	f.Fuzz(func(t *testing.T, info, abbrev, line, str []byte) {
		ef, err := elf.Open("../../../testdata/dwz/prog")
		if err != nil {
			t.Fatal(err)
		}
		defer ef.Close()
		s, err := Load(ef, nil)
		if err != nil || s == nil {
			t.Fatalf("seed program without DWARF: %v", err)
		}
		alt := newLines(s.order)
		alt.info = section{data: info, ok: info != nil, want: ".debug_info", name: ".debug_info"}
		for sec, data := range map[*section][]byte{&alt.abbrev: abbrev, &alt.line: line, &alt.str: str} {
			sec.data, sec.ok = data, data != nil
		}
		alt.trieBudget += 16 * (len(info) + len(line) + len(abbrev))
		alt.alt, alt.owner = alt, s
		s.alt = alt
		for addr := lo; addr < hi; addr++ {
			s.Find(addr)
		}
		if s.UnreadAltFile() != "" {
			t.Fatal("an alt file given is reported unread")
		}
	})
}
