package bfd

import (
	"encoding/binary"
	"fmt"
	"strings"
	"sync"
)

// optString is a string that may be absent, like a C char pointer that may
// be NULL. BFD distinguishes NULL from "" in several places.
//
// A string from a string section (.debug_str, .debug_line_str) is kept
// open: s runs from the string's start to the end of the section, and the
// string ends at the first NUL byte in s, if any. Reading the string's
// bytes is left to the answers (text): a program's names are read from
// all over a large section (a C++ program's .debug_str runs to tens of
// megabytes, its mangled names to hundreds of bytes), and most are never
// shown. A string BFD takes for absent when empty is also left to be
// decided (emptyIsAbsent), by its first byte, when asked (ok).
type optString struct {
	s             string
	has           bool // present (for a string that is not emptyIsAbsent)
	open          bool // s runs to the end of its section (see above)
	emptyIsAbsent bool // open and present unless empty; s is not empty
	closedCopy    bool // made by closed: decided, cut and copied
}

// ok reports whether the string is present.
func (o optString) ok() bool {
	if o.emptyIsAbsent {
		return o.s[0] != 0
	}
	return o.has
}

// text returns the string (empty when absent).
func (o optString) text() string {
	if o.open {
		if i := strings.IndexByte(o.s, 0); i >= 0 {
			return o.s[:i]
		}
	}
	return o.s
}

// closed returns o decided and with its end found, for a string that is
// read often. Its bytes are copied: a string an answer returns must not
// refer to a mapped section, which a shrinking file could take away.
func (o optString) closed() optString {
	switch {
	case o.closedCopy:
		return o
	case !o.ok():
		return optString{closedCopy: true}
	}
	return optString{s: strings.Clone(o.text()), has: true, closedCopy: true}
}

// Lines is an executable's line information as BFD 2.40 reports it. It
// holds BFD's lazily evolving state in memory (no file stays open, though
// large sections may stay mapped); Find serialises access to it.
type Lines struct {
	mu    sync.Mutex
	order binary.ByteOrder
	big   bool // order is big-endian (see uintAt)

	info, abbrev, line, str, lineStr   section
	ranges, rnglists, strOffsets, addr section

	// maps are the mappings some sections live in (see Load); fault is
	// set once reading one of them failed, after which Find answers
	// nothing.
	maps      [][]byte
	mapStarts []int64 // the file offset each of maps starts at
	fault     error

	infoPos     int     // next unit to parse
	units       []*unit // parsed units in section order
	abbrevCache map[uint64]*abbrevTable
	// abbrevByBytes shares abbreviations between tables: the entry read
	// whole from the bytes that encode it (after its number).
	abbrevByBytes map[string]*abbrev
	store         abbrevStore
	// Scratch space reused from one abbreviation table to the next.
	abbrevScratch abbrevTable
	attrScratch   []abbrevAttr
	planScratch   []skipStep
	lineTable0    *lineTable // table of the first unit with stmt_list 0
	trie          *trieNode
	nodeBuf       []lineNode        // rows of the line table being decoded
	dieList       *chunkList[dieAt] // scanUnit's list of DIEs, kept for the next unit
	trieBudget    int
	trieHint      trieHint // see trieAdd

	// Messages BFD prints on stderr, in order, not yet taken. gprof
	// prints them; they are kept for the comparisons with it.
	msgs             []string
	prevFailedAbbrev uint32
	// warned counts the messages recorded (kept or not, taken or not).
	warned int
	// altLink names the file of the DWARF's .gnu_debugaltlink section (dwz
	// -m's shared file); altUsed is set once a lookup met a reference into
	// it while that file was not read.
	altLink string
	altUsed bool
	// alt is the state of that file once it is read (BFD's stash->alt),
	// nil while it is not; the alt file's own state has alt set to itself
	// (its units' alt forms point into it too) and owner to the
	// executable's state, which records the messages of both.
	alt   *Lines
	owner *Lines

	// ELF symbol fallback (_bfd_elf_find_function).
	hasText   bool
	textVMA   uint64
	elfOffs   []uint64 // distinct candidate offsets, ascending
	elfWin    []elfSym // the winning symbol at each offset
	cacheOK   bool
	cacheSym  elfSym
	cacheSize uint64
}

// newLines returns an empty state for data in the given byte order.
func newLines(order binary.ByteOrder) *Lines {
	s := &Lines{
		order:            order,
		big:              order == binary.BigEndian,
		abbrevCache:      map[uint64]*abbrevTable{},
		abbrevByBytes:    map[string]*abbrev{},
		trie:             &trieNode{room: trieLeafSize},
		trieBudget:       1 << 20,
		prevFailedAbbrev: ^uint32(0),
	}
	for sec, short := range map[*section]string{&s.line: "line", &s.abbrev: "abbrev", &s.str: "str",
		&s.lineStr: "line_str", &s.ranges: "ranges", &s.rnglists: "rnglists", &s.strOffsets: "str_offsets",
		&s.addr: "addr"} {
		sec.want, _ = sectionNames(short)
		sec.name = sec.want
	}
	return s
}

// UnreadAltFile returns the name of the .gnu_debugaltlink file (dwz -m's
// file of debug information shared by several programs) when the lookups
// made so far needed it but it was not read (see ReadAltFile), or "": the
// names and source files held there are missing from the answers, as they
// are from BFD's when it does not find the file.
func (s *Lines) UnreadAltFile() string {
	if s == nil || !s.altUsed {
		return ""
	}
	if s.altLink == "" {
		return ".gnu_debugaltlink"
	}
	return s.altLink
}

// root returns the executable's state: s, or the state that owns s when
// s is the alt file's.
func (s *Lines) root() *Lines {
	if s.owner != nil {
		return s.owner
	}
	return s
}

// maxMessages bounds the messages kept.
const maxMessages = 1 << 16

// warnf records a message as BFD's error handler prints it for gprof.
// The alt file's messages are recorded by the executable's state.
func (s *Lines) warnf(format string, args ...any) {
	s.warned++
	if s.owner != nil {
		s.owner.warnf(format, args...)
		return
	}
	if len(s.msgs) < maxMessages {
		s.msgs = append(s.msgs, "BFD: DWARF error: "+fmt.Sprintf(format, args...))
	}
}

// hexC formats v like C's "%#x": a bare 0, else with a 0x prefix.
func hexC(v uint64) string {
	if v == 0 {
		return "0"
	}
	return fmt.Sprintf("%#x", v)
}

// readable reports whether BFD can read sec at offset off (read_section),
// recording its message when it cannot.
func (s *Lines) readable(sec *section, off uint64) bool {
	if !sec.ok {
		s.warnf("can't find %s section.", sec.want)
		return false
	}
	if off != 0 && off >= uint64(len(sec.data)) {
		s.warnf("offset (%d) greater than or equal to %s size (%d)", off, sec.name, len(sec.data))
		return false
	}
	return true
}

// uintAt reads the unsigned value of size bytes (4 or 8) at off in data,
// which holds it, without making a cursor for one value (which cost a
// comparison of byte orders and a copy of the cursor until 2763a9c): the
// strings of DWARF 5 units built by clang are each read through an
// index, and that was most of the time of the lookup (ninja built by
// clang -O2: 8% of the CPU).
func (s *Lines) uintAt(data []byte, off uint64, size int) uint64 {
	switch {
	case size == 4 && s.big:
		return uint64(binary.BigEndian.Uint32(data[off:]))
	case size == 4:
		return uint64(binary.LittleEndian.Uint32(data[off:]))
	case s.big:
		return binary.BigEndian.Uint64(data[off:])
	}
	return binary.LittleEndian.Uint64(data[off:])
}

// cursor returns a cursor at off over sec's data up to end.
func (s *Lines) cursor(sec *section, off, end int) buf {
	return buf{big: s.big, data: sec.data, off: off, end: end}
}
