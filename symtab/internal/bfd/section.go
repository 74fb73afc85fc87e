package bfd

import (
	"bytes"
	"compress/zlib"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"unsafe"
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
func Load(f *elf.File) (*Lines, error) {
	if f == nil {
		return nil, nil
	}
	s := newLines(f.ByteOrder)
	info, err := readInfo(f)
	if err != nil {
		return nil, err
	}
	if !info.ok {
		return nil, nil
	}
	s.info = info
	s.line = readSection(f, "line")
	s.abbrev = readSection(f, "abbrev")
	s.str = readSection(f, "str")
	s.lineStr = readSection(f, "line_str")
	s.ranges = readSection(f, "ranges")
	s.rnglists = readSection(f, "rnglists")
	s.strOffsets = readSection(f, "str_offsets")
	s.addr = readSection(f, "addr")
	total := len(s.info.data) + len(s.line.data) + len(s.ranges.data) + len(s.rnglists.data) + len(s.abbrev.data)
	s.trieBudget += 16 * total
	s.loadElfSymbols(f)
	return s, nil
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
func readSection(f *elf.File, short string) section {
	plain, z := sectionNames(short)
	for _, name := range []string{plain, z} {
		for _, sec := range f.Sections {
			if sec.Name == name {
				data, err := sectionData(f, sec)
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
func readInfo(f *elf.File) (section, error) {
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
	var out []byte
	for i := first; i < len(f.Sections); i++ {
		sec := f.Sections[i]
		if i != first {
			if !hasContents(sec) {
				continue
			}
			if sec.Name != ".debug_info" && sec.Name != ".zdebug_info" && !strings.HasPrefix(sec.Name, ".gnu.linkonce.wi.") {
				continue
			}
		}
		data, err := sectionData(f, sec)
		if err != nil {
			return section{}, err
		}
		if i == first {
			out = data
		} else {
			out = append(out[:len(out):len(out)], data...)
		}
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
