package bfd

import (
	"encoding/binary"
	"fmt"
	"sync"
)

// optString is a string that may be absent, like a C char pointer that may
// be NULL. BFD distinguishes NULL from "" in several places.
type optString struct {
	s  string
	ok bool
}

// Lines is an executable's line information as BFD 2.40 reports it. It
// holds BFD's lazily evolving state in memory (no file stays open); Find
// serialises access to it.
type Lines struct {
	mu    sync.Mutex
	order binary.ByteOrder

	info, abbrev, line, str, lineStr   section
	ranges, rnglists, strOffsets, addr section

	infoPos     int     // next unit to parse
	units       []*unit // parsed units in section order
	abbrevCache map[uint64]*abbrevTable
	store       abbrevStore
	// Scratch space reused from one abbreviation table to the next.
	abbrevScratch abbrevTable
	attrScratch   []abbrevAttr
	planScratch   []skipStep
	lineTable0    *lineTable // table of the first unit with stmt_list 0
	trie          *trieNode
	nodeBuf       []lineNode // rows of the line table being decoded
	dieBuf        []dieAt    // scanUnit's list of DIEs, kept for the next unit
	trieBudget    int

	// Messages BFD prints on stderr, in order, not yet taken. gprof
	// prints them; they are kept for the comparisons with it.
	msgs             []string
	prevFailedAbbrev uint32
	// warned counts the messages recorded (kept or not, taken or not).
	warned int

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
		abbrevCache:      map[uint64]*abbrevTable{},
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

// maxMessages bounds the messages kept.
const maxMessages = 1 << 16

// warnf records a message as BFD's error handler prints it for gprof.
func (s *Lines) warnf(format string, args ...any) {
	s.warned++
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

// cursor returns a cursor at off over sec's data up to end.
func (s *Lines) cursor(sec *section, off, end int) buf {
	return makeBuf(s.order, sec.data, off, end)
}
