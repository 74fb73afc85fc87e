package bfd

import (
	"bytes"
	"compress/zlib"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"unsafe"

	"github.com/egprof/egprof/internal/mapfile"
)

// section is the content of one debug section; ok is false when the
// executable has no such section (BFD's read_section then fails). want is
// the section's standard name, name the name it was found under.
type section struct {
	data       []byte
	ok         bool
	want, name string
}

// openString returns the NUL-terminated string at off, open (see
// optString): the section is treated as if one NUL byte followed it. off
// must lie inside the section. With emptyIsAbsent an empty string is
// absent, else present.
func (s section) openString(off uint64, emptyIsAbsent bool) optString {
	return optString{s: sectionString(s.data[off:]), has: true, open: true, emptyIsAbsent: emptyIsAbsent}
}

// sectionString returns the bytes b of a debug section as a string without
// copying them. The sections are read once by Load and never written, so
// the strings stay valid for as long as anything refers to them (which
// keeps the section's memory alive; the Lines hold it anyway).
func sectionString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Load reads the debug sections of f into memory; f is not used after it
// returns. It returns nil, nil when the executable has no .debug_info: BFD
// then finds no source lines at all and prints nothing. Without .debug_line
// the state is still returned, since BFD then complains once per unit while
// Find never succeeds. The only error is a .debug_info that cannot be read
// (for example corrupt compressed data).
//
// With file (the open executable f reads), the sections stored as they
// are (not compressed) are read through one mapping of the whole file
// instead of copied: decoding reads .debug_info and .debug_line once from
// start to end, and only the names shown from .debug_str, the largest
// section of a C++ program, so mapping saves the copies and most pages (on
// lua, 0.97-0.98x the CPU of mapping only sections of 256 KB or more, in
// a mapping each, and reading the others). Should the file shrink while
// mapped, reading a lost page faults: Find then stops answering and Err
// reports it, where the process would otherwise crash.
func Load(f *elf.File, file *os.File) (*Lines, error) {
	return LoadWith(f, file, RawSymbols{})
}

// LoadWith is Load, given the symbol table the caller has read from f
// (the zero RawSymbols: none read).
func LoadWith(f *elf.File, file *os.File, syms RawSymbols) (*Lines, error) {
	if f == nil {
		return nil, nil
	}
	return load(f, file, f, syms)
}

// LoadSeparate reads the debug sections of dbg, the separate debug file
// of the executable exe (which has none), as BFD does once it has found
// that file: the DWARF comes from dbg, and so do the ELF symbols of the
// fallback lookup when dbg's sections match exe's up to .text (see
// symbolsFromDebugFile); else they are exe's, of which the caller has
// read exeSyms. file is the open dbg, to map, or nil. It returns nil, nil
// where BFD gives up on dbg: no .debug_info, or a symbol table it cannot
// read.
func LoadSeparate(exe *elf.File, exeSyms RawSymbols, dbg *elf.File, file *os.File) (*Lines, error) {
	if exe == nil || dbg == nil {
		return nil, nil
	}
	if sec := dbg.SectionByType(elf.SHT_SYMTAB); sec != nil {
		// bfd_generic_link_read_symbols must succeed on the debug file.
		if _, err := dbg.Symbols(); err != nil {
			return nil, nil
		}
	}
	if symbolsFromDebugFile(exe, dbg) {
		return load(dbg, file, dbg, RawSymbols{})
	}
	return load(dbg, file, exe, exeSyms)
}

// symbolsFromDebugFile reports whether BFD's fallback lookup reads the
// debug file's symbols and .text rather than the executable's
// (_bfd_dwarf2_stash_syms): it walks the two files' section lists side by
// side, up to the debug file's first debugging section, and takes the
// debug file's when the executable's .text comes with a section of the
// same name. The lists are BFD's: the section headers but the null one,
// the symbol table, its string table and that of the section names
// (known by its name here: debug/elf does not say which it is).
func symbolsFromDebugFile(exe, dbg *elf.File) bool {
	es, ds := bfdSections(exe), bfdSections(dbg)
	for i := 0; i < len(es) && i < len(ds); i++ {
		if isDebugging(ds[i]) {
			return false
		}
		if es[i].Name == ".text" {
			return ds[i].Name == ".text"
		}
	}
	return false
}

// bfdSections lists the sections of f that BFD makes into sections of
// its own, in header order (see symbolsFromDebugFile).
func bfdSections(f *elf.File) []*elf.Section {
	symtabStrings := -1
	if sec := f.SectionByType(elf.SHT_SYMTAB); sec != nil {
		symtabStrings = int(sec.Link)
	}
	out := make([]*elf.Section, 0, len(f.Sections))
	for i, sec := range f.Sections {
		switch {
		case i == 0, sec.Type == elf.SHT_SYMTAB, sec.Type == elf.SHT_SYMTAB_SHNDX,
			sec.Type == elf.SHT_STRTAB && (i == symtabStrings || sec.Name == ".shstrtab"):
			continue
		}
		out = append(out, sec)
	}
	return out
}

// isDebugging reports whether BFD flags a section as debugging
// information: by its name, on sections that take no memory.
func isDebugging(sec *elf.Section) bool {
	if sec.Flags&elf.SHF_ALLOC != 0 {
		return false
	}
	for _, prefix := range []string{".debug", ".gnu.debuglto_.debug_", ".gnu.linkonce.wi.", ".zdebug", ".line", ".stab"} {
		if strings.HasPrefix(sec.Name, prefix) {
			return true
		}
	}
	return sec.Name == ".gdb_index"
}

// load reads the debug sections of f (mapping them from file, when not
// nil) and prepares the ELF fallback over symFile's .text and symbols.
func load(f *elf.File, file *os.File, symFile *elf.File, syms RawSymbols) (*Lines, error) {
	s := newLines(f.ByteOrder)
	l := &loader{f: f, file: file}
	if file != nil {
		if st, err := file.Stat(); err == nil && st.Mode().IsRegular() {
			l.fileSize = st.Size()
		} else {
			l.file = nil
		}
	}
	info, err := l.readInfo()
	if err != nil {
		l.release()
		return nil, err
	}
	if !info.ok {
		l.release()
		return nil, nil
	}
	s.info = info
	s.readSections(l)
	s.loadElfSymbols(symFile, syms)
	s.altLink = altLinkName(f)
	if len(l.maps) > 0 {
		s.maps, s.mapStarts = l.maps, l.mapStarts
		runtime.AddCleanup(s, mapfile.Unmap, l.maps)
	}
	return s, nil
}

// altLinkName returns the file name f's .gnu_debugaltlink section
// records, or "" where BFD finds none (bfd_get_alt_debug_link_info): the
// section must hold at least 8 bytes, less than the file, and a build ID
// after the name's NUL; an empty name is none either.
func altLinkName(f *elf.File) string {
	sec := f.Section(".gnu_debugaltlink")
	if sec == nil || sec.Size < 8 || sec.Type == elf.SHT_NOBITS {
		return ""
	}
	data, err := sectionData(f, sec)
	if err != nil || uint64(len(data)) != sec.Size {
		return ""
	}
	name, _, found := strings.Cut(string(data), "\x00")
	if !found || len(name)+1 >= len(data) {
		return ""
	}
	return name
}

// AltLink returns the name of the alt file (dwz -m's file of debug
// information shared by several programs) that the executable's
// .gnu_debugaltlink section records, or "" without one: the name to look
// for as BFD's bfd_follow_gnu_debugaltlink does, and to give ReadAltFile.
func (s *Lines) AltLink() string {
	if s == nil {
		return ""
	}
	return s.altLink
}

// ReadAltFile reads the debug sections of f, the alt file found for the
// executable (see AltLink), for the lookups to follow the references into
// it (DW_FORM_GNU_strp_alt, DW_FORM_GNU_ref_alt) as BFD does once it has
// opened that file. f is not used after it returns; its sections are read,
// not mapped. A section of it that cannot be read counts as missing: the
// lookups needing it then fail, with BFD's messages. It must be called
// before the first lookup.
func (s *Lines) ReadAltFile(f *elf.File) {
	if s == nil || f == nil {
		return
	}
	alt := newLines(f.ByteOrder)
	l := &loader{f: f}
	alt.info = l.readSection("info")
	alt.readSections(l)
	alt.alt, alt.owner = alt, s
	s.alt = alt
}

// readSections reads with l the debug sections other than .debug_info,
// which s already holds, and grows the lookup trie's budget with them.
func (s *Lines) readSections(l *loader) {
	s.line = l.readSection("line")
	s.abbrev = l.readSection("abbrev")
	s.str = l.readSection("str")
	s.lineStr = l.readSection("line_str")
	s.ranges = l.readSection("ranges")
	s.rnglists = l.readSection("rnglists")
	s.strOffsets = l.readSection("str_offsets")
	s.addr = l.readSection("addr")
	total := len(s.info.data) + len(s.line.data) + len(s.ranges.data) + len(s.rnglists.data) + len(s.abbrev.data)
	s.trieBudget += 16 * total
}

// loader reads an executable's debug sections, mapping them from file
// when it is set (see Load).
type loader struct {
	f         *elf.File
	file      *os.File // nil: every section is read
	fileSize  int64
	maps      [][]byte // the mapping made: the whole file, if anything
	mapStarts []int64  // the file offset each mapping starts at
	mapFailed bool     // the system refused to map the file
}

// release unmaps what the loader mapped, for a Load that returns no
// Lines.
func (l *loader) release() {
	mapfile.Unmap(l.maps)
	l.maps = nil
}

// sectionData returns a section's bytes (see the function sectionData):
// a view of the executable's mapping when Load was given the file and the
// section is stored as it is (not compressed).
func (l *loader) sectionData(sec *elf.Section) ([]byte, error) {
	if l.file != nil && sec.Type != elf.SHT_NOBITS && sec.Flags&elf.SHF_COMPRESSED == 0 &&
		!strings.HasPrefix(sec.Name, ".zdebug") && sec.Size == sec.FileSize &&
		sec.Offset <= uint64(l.fileSize) && sec.FileSize <= uint64(l.fileSize)-sec.Offset {
		if whole, ok := l.mapWhole(); ok {
			return whole[sec.Offset : sec.Offset+sec.FileSize : sec.Offset+sec.FileSize], nil
		}
	}
	return sectionData(l.f, sec)
}

// mapWhole maps the whole executable, once: one mapping serves every
// section, so the kernel maps their pages in runs (it fills in the
// neighbours of a page read) and no section costs a system call or a copy
// of its own.
func (l *loader) mapWhole() ([]byte, bool) {
	if l.mapFailed {
		return nil, false
	}
	if len(l.maps) == 0 {
		data, mapping, start, ok := mapfile.Region(l.file, 0, l.fileSize)
		if !ok {
			l.mapFailed = true
			return nil, false
		}
		l.maps = append(l.maps, mapping)
		l.mapStarts = append(l.mapStarts, start)
		return data, true
	}
	return l.maps[0], true
}

// sectionNames lists the names BFD tries for a debug section.
func sectionNames(short string) (string, string) {
	if short == "rnglists" {
		// BFD's table spells the compressed name without the final s.
		return ".debug_rnglists", ".zdebug_rnglist"
	}
	return ".debug_" + short, ".zdebug_" + short
}

// readSection returns the first section called .debug_<short>, else
// .zdebug_<short>, decompressed (read_section). A section that cannot be
// read counts as missing, as in BFD.
func (l *loader) readSection(short string) section {
	plain, z := sectionNames(short)
	for _, name := range []string{plain, z} {
		for _, sec := range l.f.Sections {
			if sec.Name == name {
				data, err := l.sectionData(sec)
				ok := err == nil && (data != nil || sec.Type != elf.SHT_NOBITS)
				return section{data: data, ok: ok, want: plain, name: name}
			}
		}
	}
	return section{want: plain, name: plain}
}

// readInfo gathers .debug_info as BFD's find_debug_info does: the first
// .debug_info, .zdebug_info or .gnu.linkonce.wi.* section with contents,
// followed by every later section of those kinds, concatenated.
func (l *loader) readInfo() (section, error) {
	f := l.f
	hasContents := func(s *elf.Section) bool { return s.Type != elf.SHT_NOBITS }
	first := -1
	for _, want := range []string{".debug_info", ".zdebug_info"} {
		for i, sec := range f.Sections {
			if sec.Name == want {
				if hasContents(sec) {
					first = i
				}
				break
			}
		}
		if first >= 0 {
			break
		}
	}
	if first < 0 {
		for i, sec := range f.Sections {
			if hasContents(sec) && strings.HasPrefix(sec.Name, ".gnu.linkonce.wi.") {
				first = i
				break
			}
		}
	}
	if first < 0 {
		return section{}, nil
	}
	parts := []*elf.Section{f.Sections[first]}
	for _, sec := range f.Sections[first+1:] {
		if hasContents(sec) && (sec.Name == ".debug_info" || sec.Name == ".zdebug_info" || strings.HasPrefix(sec.Name, ".gnu.linkonce.wi.")) {
			parts = append(parts, sec)
		}
	}
	if len(parts) == 1 {
		data, err := l.sectionData(parts[0])
		if err != nil {
			return section{}, err
		}
		return section{data: data, ok: true}, nil
	}
	// Parts to join are read, never mapped: copying from a mapping here
	// would read it outside Find's guard (see Lines.Err).
	var out []byte
	for _, sec := range parts {
		data, err := sectionData(f, sec)
		if err != nil {
			return section{}, err
		}
		out = append(out, data...)
	}
	return section{data: out, ok: true}, nil
}

// maxSection bounds the size of one decompressed section, maxNobits that
// of a section without contents read as zeros.
const (
	maxSection = 1 << 31
	maxNobits  = 1 << 24
)

// sectionData returns a section's bytes, decompressing SHF_COMPRESSED and
// GNU .zdebug sections. Sections without file contents read as zeros, as BFD
// reads them.
func sectionData(f *elf.File, sec *elf.Section) ([]byte, error) {
	if sec.Type == elf.SHT_NOBITS {
		// Callers treat an over-large section without contents as missing.
		if sec.Size > maxNobits {
			return nil, nil
		}
		return make([]byte, sec.Size), nil
	}
	if sec.Flags&elf.SHF_COMPRESSED != 0 && sec.Size > maxSection {
		return nil, fmt.Errorf("section %s: implausible size %d", sec.Name, sec.Size)
	}
	if sec.Flags&elf.SHF_COMPRESSED == 0 && sec.FileSize > 0 {
		// A section that claims to run past the end of the file is
		// refused before anything is allocated for it (reading it would
		// allocate up to the claimed size before finding the end).
		var last [1]byte
		if _, err := sec.ReadAt(last[:], int64(sec.FileSize-1)); err != nil {
			return nil, fmt.Errorf("reading section %s: %w", sec.Name, io.ErrUnexpectedEOF)
		}
	}
	data, err := sec.Data()
	if err != nil {
		return nil, fmt.Errorf("reading section %s: %w", sec.Name, err)
	}
	if strings.HasPrefix(sec.Name, ".zdebug") && len(data) >= 12 && string(data[:4]) == "ZLIB" {
		size := binary.BigEndian.Uint64(data[4:12])
		if size > maxSection {
			return nil, fmt.Errorf("section %s: implausible size %d", sec.Name, size)
		}
		zr, err := zlib.NewReader(bytes.NewReader(data[12:]))
		if err != nil {
			return nil, fmt.Errorf("decompressing section %s: %w", sec.Name, err)
		}
		var out bytes.Buffer
		if _, err := io.Copy(&out, io.LimitReader(zr, int64(size))); err != nil {
			return nil, fmt.Errorf("decompressing section %s: %w", sec.Name, err)
		}
		if uint64(out.Len()) != size {
			return nil, fmt.Errorf("decompressing section %s: %w", sec.Name, io.ErrUnexpectedEOF)
		}
		return out.Bytes(), nil
	}
	return data, nil
}
