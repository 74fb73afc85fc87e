package symtab

// This file answers "which source file, line and function does this address
// belong to" exactly the way GNU gprof 2.40 learns it from BFD's DWARF reader
// (bfd_find_nearest_line on the .text section). Go's debug/dwarf gives
// different answers in several places that show up in gprof's output, so the
// DWARF is decoded here by hand, following BFD's behaviour:
//
//   - File names are built from the line table's directory and file entries
//     without any path cleaning: a relative entry becomes
//     "comp_dir/dir/name" (e.g. "./testdata/x.c" with comp_dir ".").
//   - Every line-table sequence starts with the file register at entry 0 for
//     DWARF 5 tables (entry 1 before), so code from a header that never
//     switches files is attributed to the CU's primary file.
//   - Rows are chained and de-duplicated per sequence as BFD does, sequences
//     are sorted and overlapping ones trimmed or dropped, and lookups use the
//     same two binary searches.
//   - The compilation unit asked is chosen through the same lazily built
//     structures: units are parsed one by one only when no already-read unit
//     answers, their address ranges (from the unit DIE, from the line table
//     sequences and from the function DIEs) are kept in BFD's 256-way trie,
//     and a unit's line table and functions are decoded the first time the
//     unit is consulted. The answer for an address can therefore depend on
//     earlier lookups, exactly as in BFD; callers that want gprof's output
//     must look addresses up in the order gprof does.
//   - The function name comes from the smallest DWARF function range holding
//     the address; when that function has no linkage name (or there is none)
//     BFD falls back to the ELF symbol table (_bfd_elf_find_function), with
//     its one-entry cache, and remembers the outcome in the function.
//
// Decoding never panics on malformed input: every read is bounds checked,
// errors make a unit unusable (as in BFD) and allocations are bounded by the
// sizes of the debug sections.

import (
	"bytes"
	"compress/zlib"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
)

// DWARF constants used by the decoder.
const (
	bfdFormAddr          = 0x01
	bfdFormBlock2        = 0x03
	bfdFormBlock4        = 0x04
	bfdFormData2         = 0x05
	bfdFormData4         = 0x06
	bfdFormData8         = 0x07
	bfdFormString        = 0x08
	bfdFormBlock         = 0x09
	bfdFormBlock1        = 0x0a
	bfdFormData1         = 0x0b
	bfdFormFlag          = 0x0c
	bfdFormSdata         = 0x0d
	bfdFormStrp          = 0x0e
	bfdFormUdata         = 0x0f
	bfdFormRefAddr       = 0x10
	bfdFormRef1          = 0x11
	bfdFormRef2          = 0x12
	bfdFormRef4          = 0x13
	bfdFormRef8          = 0x14
	bfdFormRefUdata      = 0x15
	bfdFormIndirect      = 0x16
	bfdFormSecOffset     = 0x17
	bfdFormExprloc       = 0x18
	bfdFormFlagPresent   = 0x19
	bfdFormStrx          = 0x1a
	bfdFormAddrx         = 0x1b
	bfdFormData16        = 0x1e
	bfdFormLineStrp      = 0x1f
	bfdFormRefSig8       = 0x20
	bfdFormImplicitConst = 0x21
	bfdFormLoclistx      = 0x22
	bfdFormRnglistx      = 0x23
	bfdFormStrx1         = 0x25
	bfdFormStrx2         = 0x26
	bfdFormStrx3         = 0x27
	bfdFormStrx4         = 0x28
	bfdFormAddrx1        = 0x29
	bfdFormAddrx2        = 0x2a
	bfdFormAddrx3        = 0x2b
	bfdFormAddrx4        = 0x2c
	bfdFormGNURefAlt     = 0x1f20
	bfdFormGNUStrpAlt    = 0x1f21

	bfdAtName            = 0x03
	bfdAtStmtList        = 0x10
	bfdAtLowPC           = 0x11
	bfdAtHighPC          = 0x12
	bfdAtLanguage        = 0x13
	bfdAtCompDir         = 0x1b
	bfdAtAbstractOrigin  = 0x31
	bfdAtDeclFile        = 0x3a
	bfdAtCallFile        = 0x58
	bfdAtSpecification   = 0x47
	bfdAtRanges          = 0x55
	bfdAtLinkageName     = 0x6e
	bfdAtStrOffsetsBase  = 0x72
	bfdAtAddrBase        = 0x73
	bfdAtMIPSLinkageName = 0x2007

	bfdTagEntryPoint        = 0x03
	bfdTagMember            = 0x0d
	bfdTagCompileUnit       = 0x11
	bfdTagInlinedSubroutine = 0x1d
	bfdTagSubprogram        = 0x2e
	bfdTagVariable          = 0x34

	bfdUTType     = 2
	bfdUTSkeleton = 4

	bfdLNCTPath     = 1
	bfdLNCTDirIndex = 2
	bfdLNCTTime     = 3
	bfdLNCTSize     = 4
	bfdLNCTMD5      = 5
)

// bfdStr is a string that may be absent, like a C char pointer that may be
// NULL. BFD distinguishes NULL from "" in several places.
type bfdStr struct {
	s  string
	ok bool
}

// bfdSection is the content of one debug section; ok is false when the
// executable has no such section (BFD's read_section then fails). want is
// the section's standard name, name the name it was found under.
type bfdSection struct {
	data       []byte
	ok         bool
	want, name string
}

// cstring returns the NUL-terminated string at off; the section is treated
// as if one NUL byte followed it.
func (s bfdSection) cstring(off uint64) string {
	if off >= uint64(len(s.data)) {
		return ""
	}
	b := s.data[off:]
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// bfdMaxMessages bounds the messages kept until takeMessages.
const bfdMaxMessages = 1 << 16

// warnf records a message as BFD's error handler prints it for gprof.
func (s *bfdLines) warnf(format string, args ...any) {
	if len(s.msgs) < bfdMaxMessages {
		s.msgs = append(s.msgs, "BFD: DWARF error: "+fmt.Sprintf(format, args...))
	}
}

// takeMessages returns the messages BFD would have printed on stderr
// ("BFD: DWARF error: ...") since the previous call, in order.
func (s *bfdLines) takeMessages() []string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.msgs
	s.msgs = nil
	return m
}

// bfdHex formats v like C's "%#x": a bare 0, else with a 0x prefix.
func bfdHex(v uint64) string {
	if v == 0 {
		return "0"
	}
	return fmt.Sprintf("%#x", v)
}

// readable reports whether BFD can read sec at offset off (read_section),
// recording its message when it cannot.
func (s *bfdLines) readable(sec *bfdSection, off uint64) bool {
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

// bfdAbbrevAttr is one attribute specification of an abbreviation.
type bfdAbbrevAttr struct {
	name     uint32
	form     uint32
	implicit uint64
}

// bfdAbbrev is one .debug_abbrev entry.
type bfdAbbrev struct {
	tag         uint32
	hasChildren bool
	attrs       []bfdAbbrevAttr
}

// bfdAttr is a decoded attribute value. BFD keeps the value in a C union;
// val mirrors its integer view where that matters.
type bfdAttr struct {
	name uint32
	form uint32
	val  uint64
	str  bfdStr
}

// bfdArange is an address range [low, high).
type bfdArange struct{ low, high uint64 }

// bfdAranges is BFD's list of ranges of a unit or function: a first entry
// that is empty while high is 0, and further entries inserted right after
// the first, so the list order is first, rest[n-1], ..., rest[0].
type bfdAranges struct {
	first bfdArange
	rest  []bfdArange
}

// addToList merges [low, high) into the list the way arange_add does.
func (a *bfdAranges) addToList(low, high uint64) {
	if a.first.high == 0 {
		a.first = bfdArange{low, high}
		return
	}
	try := func(r *bfdArange) bool {
		if low == r.high {
			r.high = high
			return true
		}
		if high == r.low {
			r.low = low
			return true
		}
		return false
	}
	if try(&a.first) {
		return
	}
	for i := len(a.rest) - 1; i >= 0; i-- {
		if try(&a.rest[i]) {
			return
		}
	}
	a.rest = append(a.rest, bfdArange{low, high})
}

// contains reports whether any range of the list holds addr.
func (a *bfdAranges) contains(addr uint64) bool {
	if addr >= a.first.low && addr < a.first.high {
		return true
	}
	for _, r := range a.rest {
		if addr >= r.low && addr < r.high {
			return true
		}
	}
	return false
}

// bounds returns the lowest low and highest high over the list.
func (a *bfdAranges) bounds() (low, high uint64) {
	low, high = a.first.low, a.first.high
	for _, r := range a.rest {
		if r.low < low {
			low = r.low
		}
		if r.high > high {
			high = r.high
		}
	}
	return low, high
}

// bfdFunc is a DW_TAG_subprogram, DW_TAG_entry_point or
// DW_TAG_inlined_subroutine of a unit.
type bfdFunc struct {
	idx       int // position in DIE order
	name      bfdStr
	isLinkage bool
	arange    bfdAranges
}

// bfdFuncLookup is an entry of a unit's sorted function lookup table.
type bfdFuncLookup struct {
	fn        *bfdFunc
	low, high uint64 // high becomes the running maximum after sorting
	idx       int
}

// bfdUnit is one compilation unit of .debug_info.
type bfdUnit struct {
	start, end  int // offset of the unit's length field; end of the unit
	firstChild  int // offset of the first DIE after the unit DIE
	version     int
	addrSize    int
	offsetSize  int
	abbrevs     map[uint32]*bfdAbbrev
	stmtList    bool
	lineOffset  uint64
	compDir     bfdStr
	lang        uint64
	baseAddress uint64
	strOffsets  uint64
	addrBase    uint64
	arange      bfdAranges
	failed      bool // BFD's unit->error
	table       *bfdLineTable
	funcs       []*bfdFunc
	lookup      []bfdFuncLookup
	mark        bool
}

// bfdRow is one line-table row.
type bfdRow struct {
	addr    uint64
	file    int32 // index into bfdLineTable.names, -1 for none
	line    uint32
	opIndex uint8
	end     bool
}

// bfdSeq is a sorted, trimmed sequence of rows; its range is
// [low, rows[len-1].addr).
type bfdSeq struct {
	low  uint64
	rows []bfdRow
}

// bfdLineTable is a decoded line table. nfiles and use0 are kept to
// judge file numbers of DIEs (BFD builds their names, which may fail).
type bfdLineTable struct {
	names  []string
	seqs   []bfdSeq
	nfiles int
	use0   bool
}

// checkFile records BFD's message for a DW_AT_decl_file or DW_AT_call_file
// naming a file the line table does not have.
func (s *bfdLines) checkFile(tab *bfdLineTable, n uint64) {
	f := uint32(n)
	if !tab.use0 {
		if f == 0 {
			return
		}
		f--
	}
	if uint64(f) >= uint64(tab.nfiles) {
		s.warnf("mangled line number section (bad file number)")
	}
}

// bfdTrieRange is a unit's address range stored in a trie leaf.
type bfdTrieRange struct {
	unit      *bfdUnit
	low, high uint64
}

// bfdTrie is a node of BFD's address trie: a leaf (room > 0) holding
// ranges, or an interior node with 256 children keyed by the next address
// byte.
type bfdTrie struct {
	room     int
	ranges   []bfdTrieRange
	children []*bfdTrie
}

const bfdTrieLeafSize = 16

// bfdElfSym is an ELF symbol that _bfd_elf_find_function may return.
type bfdElfSym struct {
	name    string
	codeOff uint64 // value relative to .text
	size    uint64 // never 0
	file    bfdStr // the STT_FILE name BFD would attach
}

// bfdLines is the executable's line information as BFD 2.40 reports it.
// It holds BFD's lazily evolving state; find serialises access.
type bfdLines struct {
	mu    sync.Mutex
	order binary.ByteOrder

	info, abbrev, line, str, lineStr   bfdSection
	ranges, rnglists, strOffsets, addr bfdSection

	infoPos     int        // next unit to parse
	units       []*bfdUnit // parsed units in section order
	abbrevCache map[uint64]map[uint32]*bfdAbbrev
	lineTable0  *bfdLineTable // table of the first unit with stmt_list 0
	trie        *bfdTrie
	trieBudget  int

	// Messages BFD prints on stderr, in order, not yet taken.
	msgs             []string
	prevFailedAbbrev uint32

	// ELF symbol fallback (_bfd_elf_find_function).
	hasText   bool
	textVMA   uint64
	elfOffs   []uint64    // distinct candidate offsets, ascending
	elfWin    []bfdElfSym // the winning symbol at each offset
	cacheOK   bool
	cacheSym  bfdElfSym
	cacheSize uint64
}

// newBFDLines returns an empty state for data in the given byte order.
func newBFDLines(order binary.ByteOrder) *bfdLines {
	s := &bfdLines{
		order:            order,
		abbrevCache:      map[uint64]map[uint32]*bfdAbbrev{},
		trie:             &bfdTrie{room: bfdTrieLeafSize},
		trieBudget:       1 << 20,
		prevFailedAbbrev: ^uint32(0),
	}
	for sec, short := range map[*bfdSection]string{&s.line: "line", &s.abbrev: "abbrev", &s.str: "str",
		&s.lineStr: "line_str", &s.ranges: "ranges", &s.rnglists: "rnglists", &s.strOffsets: "str_offsets",
		&s.addr: "addr"} {
		sec.want, _ = bfdSectionNames(short)
		sec.name = sec.want
	}
	return s
}

// loadBFDLines reads the debug sections of f. It returns nil, nil when the
// executable has no .debug_info: BFD then finds no source lines at all and
// prints nothing. Without .debug_line the state is still returned, since
// BFD then complains once per unit (see takeMessages) while find never
// succeeds. The only error is a .debug_info that cannot be read (for
// example corrupt compressed data).
func loadBFDLines(f *elf.File) (*bfdLines, error) {
	if f == nil {
		return nil, nil
	}
	s := newBFDLines(f.ByteOrder)
	info, err := bfdReadInfo(f)
	if err != nil {
		return nil, err
	}
	if !info.ok {
		return nil, nil
	}
	s.info = info
	s.line = bfdReadSection(f, "line")
	s.abbrev = bfdReadSection(f, "abbrev")
	s.str = bfdReadSection(f, "str")
	s.lineStr = bfdReadSection(f, "line_str")
	s.ranges = bfdReadSection(f, "ranges")
	s.rnglists = bfdReadSection(f, "rnglists")
	s.strOffsets = bfdReadSection(f, "str_offsets")
	s.addr = bfdReadSection(f, "addr")
	total := len(s.info.data) + len(s.line.data) + len(s.ranges.data) + len(s.rnglists.data) + len(s.abbrev.data)
	s.trieBudget += 16 * total
	s.loadElfSymbols(f)
	return s, nil
}

// bfdSectionNames lists the names BFD tries for a debug section.
func bfdSectionNames(short string) (string, string) {
	if short == "rnglists" {
		// BFD's table spells the compressed name without the final s.
		return ".debug_rnglists", ".zdebug_rnglist"
	}
	return ".debug_" + short, ".zdebug_" + short
}

// bfdReadSection returns the first section called .debug_<short>, else
// .zdebug_<short>, decompressed. A section that cannot be read counts as
// missing, as in BFD.
func bfdReadSection(f *elf.File, short string) bfdSection {
	plain, z := bfdSectionNames(short)
	for _, name := range []string{plain, z} {
		for _, sec := range f.Sections {
			if sec.Name == name {
				data, err := bfdSectionData(f, sec)
				ok := err == nil && (data != nil || sec.Type != elf.SHT_NOBITS)
				return bfdSection{data: data, ok: ok, want: plain, name: name}
			}
		}
	}
	return bfdSection{want: plain, name: plain}
}

// bfdReadInfo gathers .debug_info as BFD's find_debug_info does: the first
// .debug_info, .zdebug_info or .gnu.linkonce.wi.* section with contents,
// followed by every later section of those kinds, concatenated.
func bfdReadInfo(f *elf.File) (bfdSection, error) {
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
		return bfdSection{}, nil
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
		data, err := bfdSectionData(f, sec)
		if err != nil {
			return bfdSection{}, err
		}
		if i == first {
			out = data
		} else {
			out = append(out[:len(out):len(out)], data...)
		}
	}
	return bfdSection{data: out, ok: true}, nil
}

// bfdMaxSection bounds the size of one decompressed section, bfdMaxNobits
// that of a section without contents read as zeros.
const (
	bfdMaxSection = 1 << 31
	bfdMaxNobits  = 1 << 24
)

// bfdSectionData returns a section's bytes, decompressing SHF_COMPRESSED and
// GNU .zdebug sections. Sections without file contents read as zeros, as BFD
// reads them.
func bfdSectionData(f *elf.File, sec *elf.Section) ([]byte, error) {
	if sec.Type == elf.SHT_NOBITS {
		// Callers treat an over-large section without contents as missing.
		if sec.Size > bfdMaxNobits {
			return nil, nil
		}
		return make([]byte, sec.Size), nil
	}
	if sec.Flags&elf.SHF_COMPRESSED != 0 && sec.Size > bfdMaxSection {
		return nil, fmt.Errorf("section %s: implausible size %d", sec.Name, sec.Size)
	}
	data, err := sec.Data()
	if err != nil {
		return nil, fmt.Errorf("reading section %s: %w", sec.Name, err)
	}
	if strings.HasPrefix(sec.Name, ".zdebug") && len(data) >= 12 && string(data[:4]) == "ZLIB" {
		size := binary.BigEndian.Uint64(data[4:12])
		if size > bfdMaxSection {
			return nil, fmt.Errorf("section %s: implausible size %d", sec.Name, size)
		}
		zr, err := zlib.NewReader(bytes.NewReader(data[12:]))
		if err != nil {
			return nil, fmt.Errorf("decompressing section %s: %w", sec.Name, err)
		}
		var buf bytes.Buffer
		if _, err := io.Copy(&buf, io.LimitReader(zr, int64(size))); err != nil {
			return nil, fmt.Errorf("decompressing section %s: %w", sec.Name, err)
		}
		if uint64(buf.Len()) != size {
			return nil, fmt.Errorf("decompressing section %s: %w", sec.Name, io.ErrUnexpectedEOF)
		}
		return buf.Bytes(), nil
	}
	return data, nil
}

// ---------------------------------------------------------------------------
// Primitive readers. Each takes the buffer, a cursor and the end of the
// readable region. Like BFD's readers they never fail: reading past the end
// moves the cursor to the end and yields zero.

func (s *bfdLines) readN(b []byte, p *int, end, n int) uint64 {
	if end-*p < n {
		*p = end
		return 0
	}
	v := b[*p : *p+n]
	*p += n
	switch n {
	case 1:
		return uint64(v[0])
	case 2:
		return uint64(s.order.Uint16(v))
	case 4:
		return uint64(s.order.Uint32(v))
	default:
		return s.order.Uint64(v)
	}
}

func (s *bfdLines) read1(b []byte, p *int, end int) uint64 { return s.readN(b, p, end, 1) }

// read3 reads a 3-byte value (DW_FORM_strx3/addrx3) one byte at a time.
func (s *bfdLines) read3(b []byte, p *int, end int) uint64 {
	v := s.read1(b, p, end)<<16 | s.read1(b, p, end)<<8 | s.read1(b, p, end)
	if s.order == binary.LittleEndian {
		v = (v>>16)&0xff | v&0xff00 | (v&0xff)<<16
	}
	return v
}

// leb reads a LEB128 number; bits beyond 64 are dropped.
func bfdLEB(b []byte, p *int, end int, signed bool) uint64 {
	var result uint64
	var shift uint
	var c byte
	for *p < end {
		c = b[*p]
		*p++
		if shift < 64 {
			result |= uint64(c&0x7f) << shift
			shift += 7
		}
		if c&0x80 == 0 {
			break
		}
	}
	if signed && shift < 64 && c&0x40 != 0 {
		result |= ^uint64(0) << shift
	}
	return result
}

func bfdULEB(b []byte, p *int, end int) uint64 { return bfdLEB(b, p, end, false) }

// bfdCString reads an inline NUL-terminated string; an empty or
// unterminated string is absent.
func bfdCString(b []byte, p *int, end int) bfdStr {
	start := *p
	for i := start; i < end; i++ {
		if b[i] == 0 {
			*p = i + 1
			if i == start {
				return bfdStr{}
			}
			return bfdStr{s: string(b[start:i]), ok: true}
		}
	}
	if *p < end {
		*p = end
	}
	return bfdStr{}
}

// readAddress reads a target address of the unit's size.
func (s *bfdLines) readAddress(u *bfdUnit, b []byte, p *int, end int) uint64 {
	if u.addrSize > end-*p {
		*p = end
		return 0
	}
	return s.readN(b, p, end, u.addrSize)
}

// readOffset reads a section offset of the unit's offset size.
func (s *bfdLines) readOffset(u *bfdUnit, b []byte, p *int, end int) uint64 {
	if u.offsetSize == 4 {
		return s.readN(b, p, end, 4)
	}
	return s.readN(b, p, end, 8)
}

// indirectString resolves a DW_FORM_strp or DW_FORM_line_strp offset;
// empty strings and bad offsets are absent.
func (s *bfdLines) indirectString(u *bfdUnit, sec *bfdSection, b []byte, p *int, end int) bfdStr {
	if u.offsetSize > end-*p {
		*p = end
		return bfdStr{}
	}
	off := s.readOffset(u, b, p, end)
	if !s.readable(sec, off) {
		return bfdStr{}
	}
	str := sec.cstring(off)
	if str == "" {
		return bfdStr{}
	}
	return bfdStr{s: str, ok: true}
}

// indexedString resolves a DW_FORM_strx* index through
// .debug_str_offsets; an empty string is present here.
func (s *bfdLines) indexedString(u *bfdUnit, idx uint64) bfdStr {
	if !s.readable(&s.str, 0) || !s.readable(&s.strOffsets, 0) {
		return bfdStr{}
	}
	size := uint64(u.offsetSize)
	if idx != 0 && idx > ^uint64(0)/size {
		return bfdStr{}
	}
	off := idx*size + u.strOffsets
	n := uint64(len(s.strOffsets.data))
	if off < u.strOffsets || off > n || n-off < size {
		return bfdStr{}
	}
	p := int(off)
	stroff := s.readN(s.strOffsets.data, &p, len(s.strOffsets.data), int(size))
	if stroff >= uint64(len(s.str.data)) {
		return bfdStr{}
	}
	return bfdStr{s: s.str.cstring(stroff), ok: true}
}

// indexedAddress resolves a DW_FORM_addrx* index through .debug_addr.
func (s *bfdLines) indexedAddress(u *bfdUnit, idx uint64) uint64 {
	if !s.readable(&s.addr, 0) {
		return 0
	}
	size := uint64(u.addrSize)
	if idx != 0 && idx > ^uint64(0)/size {
		return 0
	}
	off := idx*size + u.addrBase
	n := uint64(len(s.addr.data))
	if off < u.addrBase || off > n || n-off < size {
		return 0
	}
	if size != 4 && size != 8 {
		return 0
	}
	p := int(off)
	return s.readN(s.addr.data, &p, len(s.addr.data), int(size))
}

func bfdIsStrForm(form uint32) bool {
	switch form {
	case bfdFormString, bfdFormStrp, bfdFormStrx, bfdFormStrx1, bfdFormStrx2,
		bfdFormStrx3, bfdFormStrx4, bfdFormLineStrp, bfdFormGNUStrpAlt:
		return true
	}
	return false
}

func bfdIsIntForm(form uint32) bool {
	switch form {
	case bfdFormAddr, bfdFormData2, bfdFormData4, bfdFormData8, bfdFormData1,
		bfdFormFlag, bfdFormSdata, bfdFormUdata, bfdFormRefAddr, bfdFormRef1,
		bfdFormRef2, bfdFormRef4, bfdFormRef8, bfdFormRefUdata, bfdFormSecOffset,
		bfdFormFlagPresent, bfdFormRefSig8, bfdFormAddrx, bfdFormImplicitConst,
		bfdFormAddrx1, bfdFormAddrx2, bfdFormAddrx3, bfdFormAddrx4, bfdFormGNURefAlt:
		return true
	}
	return false
}

func bfdIsStrxForm(form uint32) bool {
	return form == bfdFormStrx || (form >= bfdFormStrx1 && form <= bfdFormStrx4)
}

func bfdIsAddrxForm(form uint32) bool {
	return form == bfdFormAddrx || (form >= bfdFormAddrx1 && form <= bfdFormAddrx4)
}

// readAttrValue decodes one attribute value of the given form from b. It
// reports false where BFD's read_attribute_value returns NULL: at the end of
// the data (except for DW_FORM_flag_present) and for unknown forms.
func (s *bfdLines) readAttrValue(u *bfdUnit, form uint32, implicit uint64, b []byte, p *int, end int) (bfdAttr, bool) {
	var a bfdAttr
	for {
		if *p >= end && form != bfdFormFlagPresent {
			s.warnf("info pointer extends beyond end of attributes")
			return a, false
		}
		a.form = form
		switch form {
		case bfdFormFlagPresent:
			a.val = 1
		case bfdFormRefAddr:
			if u.version >= 3 {
				a.val = s.readOffset(u, b, p, end)
			} else {
				a.val = s.readAddress(u, b, p, end)
			}
		case bfdFormAddr:
			a.val = s.readAddress(u, b, p, end)
		case bfdFormGNURefAlt, bfdFormSecOffset:
			a.val = s.readOffset(u, b, p, end)
		case bfdFormBlock2:
			n := s.readN(b, p, end, 2)
			bfdSkipBlock(p, end, n)
		case bfdFormBlock4:
			n := s.readN(b, p, end, 4)
			bfdSkipBlock(p, end, n)
		case bfdFormRef1, bfdFormFlag, bfdFormData1:
			a.val = s.read1(b, p, end)
		case bfdFormData2, bfdFormRef2:
			a.val = s.readN(b, p, end, 2)
		case bfdFormRef4, bfdFormData4:
			a.val = s.readN(b, p, end, 4)
		case bfdFormData8, bfdFormRef8, bfdFormRefSig8:
			a.val = s.readN(b, p, end, 8)
		case bfdFormAddrx1, bfdFormAddrx2, bfdFormAddrx3, bfdFormAddrx4, bfdFormAddrx:
			switch form {
			case bfdFormAddrx1:
				a.val = s.read1(b, p, end)
			case bfdFormAddrx2:
				a.val = s.readN(b, p, end, 2)
			case bfdFormAddrx3:
				a.val = s.read3(b, p, end)
			case bfdFormAddrx4:
				a.val = s.readN(b, p, end, 4)
			default:
				a.val = bfdULEB(b, p, end)
			}
			if u.addrBase != 0 {
				a.val = s.indexedAddress(u, a.val)
			}
		case bfdFormString:
			a.str = bfdCString(b, p, end)
		case bfdFormStrp:
			a.str = s.indirectString(u, &s.str, b, p, end)
		case bfdFormLineStrp:
			a.str = s.indirectString(u, &s.lineStr, b, p, end)
		case bfdFormGNUStrpAlt:
			// The string lives in a .gnu_debugaltlink file, which is not
			// consulted; BFD yields NULL when that file is missing.
			if u.offsetSize > end-*p {
				*p = end
			} else {
				s.readOffset(u, b, p, end)
			}
		case bfdFormStrx1, bfdFormStrx2, bfdFormStrx3, bfdFormStrx4, bfdFormStrx:
			var idx uint64
			switch form {
			case bfdFormStrx1:
				idx = s.read1(b, p, end)
			case bfdFormStrx2:
				idx = s.readN(b, p, end, 2)
			case bfdFormStrx3:
				idx = s.read3(b, p, end)
			case bfdFormStrx4:
				idx = s.readN(b, p, end, 4)
			default:
				idx = bfdULEB(b, p, end)
			}
			if u.strOffsets != 0 {
				a.str = s.indexedString(u, idx)
			}
			// Storing the string pointer overwrites the index in BFD's
			// union: a later re-read sees index 0.
			a.val = 0
		case bfdFormExprloc, bfdFormBlock:
			n := bfdULEB(b, p, end)
			bfdSkipBlock(p, end, n)
		case bfdFormBlock1:
			n := s.read1(b, p, end)
			bfdSkipBlock(p, end, n)
		case bfdFormSdata:
			a.val = bfdLEB(b, p, end, true)
		case bfdFormRnglistx, bfdFormLoclistx, bfdFormRefUdata, bfdFormUdata:
			a.val = bfdULEB(b, p, end)
		case bfdFormIndirect:
			form = uint32(bfdULEB(b, p, end))
			if form == bfdFormImplicitConst {
				implicit = bfdLEB(b, p, end, true)
			}
			continue
		case bfdFormImplicitConst:
			a.form = bfdFormSdata
			a.val = implicit
		case bfdFormData16:
			bfdSkipBlock(p, end, 16)
		default:
			s.warnf("invalid or unhandled FORM value: %s", bfdHex(uint64(form)))
			return a, false
		}
		return a, true
	}
}

// bfdSkipBlock steps over a block of n bytes, or to the end when it does
// not fit.
func bfdSkipBlock(p *int, end int, n uint64) {
	if n > uint64(end-*p) {
		*p = end
		return
	}
	*p += int(n)
}

// ---------------------------------------------------------------------------
// Abbreviations and units.

// readAbbrevs returns the abbreviation table at off, or nil when BFD cannot
// read it. Tables are shared between units by offset.
func (s *bfdLines) readAbbrevs(off uint64) map[uint32]*bfdAbbrev {
	if t, ok := s.abbrevCache[off]; ok {
		return t
	}
	if !s.readable(&s.abbrev, off) {
		return nil
	}
	b := s.abbrev.data
	end := len(b)
	p := int(off)
	t := map[uint32]*bfdAbbrev{}
	num := uint32(bfdULEB(b, &p, end))
	for num != 0 {
		ab := &bfdAbbrev{tag: uint32(bfdULEB(b, &p, end))}
		ab.hasChildren = s.read1(b, &p, end) != 0
		for {
			name := uint32(bfdULEB(b, &p, end))
			form := uint32(bfdULEB(b, &p, end))
			var implicit uint64
			if form == bfdFormImplicitConst {
				implicit = bfdLEB(b, &p, end, true)
			}
			if name == 0 {
				break
			}
			ab.attrs = append(ab.attrs, bfdAbbrevAttr{name: name, form: form, implicit: implicit})
		}
		t[num] = ab
		if p >= end {
			break
		}
		num = uint32(bfdULEB(b, &p, end))
		if t[num] != nil {
			break
		}
	}
	s.abbrevCache[off] = t
	return t
}

// nextUnit parses the next unit of .debug_info (stash_comp_unit). A unit
// that cannot be parsed ends the reading of the section for good.
func (s *bfdLines) nextUnit() *bfdUnit {
	b := s.info.data
	end := len(b)
	if s.infoPos >= end {
		return nil
	}
	start := s.infoPos
	p := start
	length := s.readN(b, &p, end, 4)
	offsetSize := 4
	if length == 0xffffffff {
		offsetSize = 8
		length = s.readN(b, &p, end, 8)
	} else if length == 0 {
		offsetSize = 8
		length = s.readN(b, &p, end, 4)
	}
	if length != 0 && length <= uint64(end-p) {
		if u := s.parseUnit(p, int(length), start, offsetSize); u != nil {
			s.units = append(s.units, u)
			s.infoPos = p + int(length)
			return u
		}
	}
	s.infoPos = end
	return nil
}

// parseUnit reads a unit header and its unit DIE (parse_comp_unit). The
// unit's DIE ranges are added to the trie as they are read.
func (s *bfdLines) parseUnit(p, length, start, offsetSize int) *bfdUnit {
	b := s.info.data
	end := p + length
	version := int(s.readN(b, &p, end, 2))
	if version < 2 || version > 5 {
		// Version 0 is taken for padding and passed over silently.
		if version != 0 {
			s.warnf("found dwarf version '%d', this reader only handles version 2, 3, 4 and 5 information", version)
		}
		return nil
	}
	unitType := uint64(1)
	addrSize := uint64(0xffffffff)
	if version >= 5 {
		unitType = s.read1(b, &p, end)
		addrSize = s.read1(b, &p, end)
	}
	var abbrevOff uint64
	if offsetSize == 4 {
		abbrevOff = s.readN(b, &p, end, 4)
	} else {
		abbrevOff = s.readN(b, &p, end, 8)
	}
	if version < 5 {
		addrSize = s.read1(b, &p, end)
	}
	switch unitType {
	case bfdUTType:
		p += 8 + offsetSize
	case bfdUTSkeleton:
		p += 8
	}
	if addrSize > 8 {
		s.warnf("found address size '%d', this reader can not handle sizes greater than '8'", uint32(addrSize))
		return nil
	}
	if addrSize != 2 && addrSize != 4 && addrSize != 8 {
		s.warnf("found address size '%d', this reader can only handle address sizes '2', '4' and '8'", addrSize)
		return nil
	}
	abbrevs := s.readAbbrevs(abbrevOff)
	if abbrevs == nil {
		return nil
	}
	num := uint32(bfdULEB(b, &p, end))
	if num == 0 {
		return nil
	}
	ab := abbrevs[num]
	if ab == nil {
		s.warnf("could not find abbrev number %d", num)
		return nil
	}
	u := &bfdUnit{
		start:      start,
		end:        end,
		version:    version,
		addrSize:   int(addrSize),
		offsetSize: offsetSize,
		abbrevs:    abbrevs,
	}
	compUnit := ab.tag == bfdTagCompileUnit
	var lowPC, highPC uint64
	highRel := false
	var deferred []bfdAttr
	for _, spec := range ab.attrs {
		a, ok := s.readAttrValue(u, spec.form, spec.implicit, b, &p, end)
		if !ok {
			u.failed = true
			return nil
		}
		a.name = spec.name
		// String and address indexes met before their base attribute are
		// resolved once the whole DIE has been read.
		if (u.strOffsets == 0 && bfdIsStrxForm(a.form)) || (u.addrBase == 0 && bfdIsAddrxForm(a.form)) {
			deferred = append(deferred, a)
			continue
		}
		switch a.name {
		case bfdAtStmtList:
			if bfdIsIntForm(a.form) {
				u.stmtList = true
				u.lineOffset = a.val
			}
		case bfdAtLowPC:
			if bfdIsIntForm(a.form) {
				lowPC = a.val
				if compUnit {
					u.baseAddress = lowPC
				}
			}
		case bfdAtHighPC:
			if bfdIsIntForm(a.form) {
				highPC = a.val
				highRel = a.form != bfdFormAddr
			}
		case bfdAtRanges:
			if bfdIsIntForm(a.form) && !s.readRangeList(u, &u.arange, a.val) {
				u.failed = true
				return nil
			}
		case bfdAtCompDir:
			if !bfdIsStrForm(a.form) {
				s.warnf("DW_AT_comp_dir attribute encountered with a non-string form")
			}
			u.compDir = bfdCompDir(a)
		case bfdAtLanguage:
			if bfdIsIntForm(a.form) {
				u.lang = a.val
			}
		case bfdAtAddrBase:
			u.addrBase = a.val
		case bfdAtStrOffsetsBase:
			u.strOffsets = a.val
		}
	}
	for _, a := range deferred {
		if bfdIsStrxForm(a.form) {
			a.str = s.indexedString(u, a.val)
		}
		if bfdIsAddrxForm(a.form) {
			a.val = s.indexedAddress(u, a.val)
		}
		switch a.name {
		case bfdAtStmtList:
			u.stmtList = true
			u.lineOffset = a.val
		case bfdAtLowPC:
			lowPC = a.val
			if compUnit {
				u.baseAddress = lowPC
			}
		case bfdAtHighPC:
			highPC = a.val
			highRel = a.form != bfdFormAddr
		case bfdAtRanges:
			// A failure here is ignored by BFD.
			s.readRangeList(u, &u.arange, a.val)
		case bfdAtCompDir:
			if !bfdIsStrForm(a.form) {
				s.warnf("DW_AT_comp_dir attribute encountered with a non-string form")
			}
			u.compDir = bfdCompDir(a)
		case bfdAtLanguage:
			u.lang = a.val
		}
	}
	if highRel {
		highPC += lowPC
	}
	if highPC != 0 {
		s.arangeAdd(u, &u.arange, lowPC, highPC)
	}
	u.firstChild = p
	return u
}

// bfdCompDir returns the compilation directory of a DW_AT_comp_dir
// attribute, dropping an IRIX "host.:" prefix as BFD does.
func bfdCompDir(a bfdAttr) bfdStr {
	if !bfdIsStrForm(a.form) || !a.str.ok {
		return bfdStr{}
	}
	d := a.str.s
	if i := strings.IndexByte(d, ':'); i > 0 && d[i-1] == '.' && i+1 < len(d) && d[i+1] == '/' {
		d = d[i+1:]
	}
	return bfdStr{s: d, ok: true}
}

// unitAt returns the parsed unit whose bytes hold offset off.
func (s *bfdLines) unitAt(off int) *bfdUnit {
	i := sort.Search(len(s.units), func(i int) bool { return s.units[i].end > off })
	if i < len(s.units) && s.units[i].start <= off {
		return s.units[i]
	}
	return nil
}

// ---------------------------------------------------------------------------
// Address ranges and the trie.

// arangeAdd records [low, high) for unit u in list a and in the trie.
func (s *bfdLines) arangeAdd(u *bfdUnit, a *bfdAranges, low, high uint64) {
	if low == high {
		return
	}
	s.trie = s.trieInsert(s.trie, 0, 0, u, low, high)
	a.addToList(low, high)
}

// bfdRangesTouch reports whether [low1, high1) and [low2, high2) overlap or
// touch.
func bfdRangesTouch(low1, high1, low2, high2 uint64) bool {
	if low1 == low2 || high1 == high2 {
		return true
	}
	if low1 > low2 {
		// Order the ranges by low; only the lower one's high matters.
		low1, low2 = low2, low1
		high1 = high2
	}
	return low2 <= high1
}

// trieInsert stores a unit's range in the trie node t covering addresses
// from triePC with bits leading bits fixed, and returns the node that
// replaces t (a full leaf becomes an interior node or grows at the bottom).
func (s *bfdLines) trieInsert(t *bfdTrie, triePC uint64, bits uint, u *bfdUnit, low, high uint64) *bfdTrie {
	if s.trieBudget <= 0 {
		return t
	}
	full := false
	if t.room > 0 {
		for i := range t.ranges {
			r := &t.ranges[i]
			if r.unit == u && bfdRangesTouch(low, high, r.low, r.high) {
				if low < r.low {
					r.low = low
				}
				if high > r.high {
					r.high = high
				}
				return t
			}
		}
		full = len(t.ranges) == t.room
	}
	if full && bits < 64 {
		old := t
		t = &bfdTrie{children: make([]*bfdTrie, 256)}
		s.trieBudget -= 256
		full = false
		for _, r := range old.ranges {
			s.trieInsert(t, triePC, bits, r.unit, r.low, r.high)
		}
	}
	if full {
		grown := &bfdTrie{room: t.room * 2, ranges: make([]bfdTrieRange, len(t.ranges), t.room*2)}
		copy(grown.ranges, t.ranges)
		s.trieBudget -= len(t.ranges)
		t = grown
	}
	if t.room > 0 {
		t.ranges = append(t.ranges, bfdTrieRange{unit: u, low: low, high: high})
		s.trieBudget--
		return t
	}
	clampLow, clampHigh := low, high
	if bits > 0 {
		bucketHigh := triePC + (^uint64(0) >> bits)
		if clampLow < triePC {
			clampLow = triePC
		}
		if clampHigh > bucketHigh {
			clampHigh = bucketHigh
		}
	}
	shift := 64 - bits - 8
	from := int((clampLow >> shift) & 0xff)
	to := int(((clampHigh - 1) >> shift) & 0xff)
	for ch := from; ch <= to; ch++ {
		child := t.children[ch]
		if child == nil {
			child = &bfdTrie{room: bfdTrieLeafSize}
		}
		child = s.trieInsert(child, triePC+uint64(ch)<<shift, bits+8, u, low, high)
		t.children[ch] = child
	}
	return t
}

// readRangeList adds the ranges of a DW_AT_ranges list to a; false means
// BFD gave up on the list.
func (s *bfdLines) readRangeList(u *bfdUnit, a *bfdAranges, off uint64) bool {
	if u.version <= 4 {
		return s.readRanges(u, a, off)
	}
	return s.readRnglists(u, a, off)
}

// readRanges walks a .debug_ranges list (DWARF 2-4).
func (s *bfdLines) readRanges(u *bfdUnit, a *bfdAranges, off uint64) bool {
	if !s.readable(&s.ranges, 0) || off > uint64(len(s.ranges.data)) {
		return false
	}
	b := s.ranges.data
	end := len(b)
	p := int(off)
	base := u.baseAddress
	for {
		if 2*u.addrSize > end-p {
			return false
		}
		low := s.readAddress(u, b, &p, end)
		high := s.readAddress(u, b, &p, end)
		if low == 0 && high == 0 {
			return true
		}
		// BFD compares with an all-ones host long, so a 32-bit base
		// address selector is taken for a range.
		if low == ^uint64(0) && high != ^uint64(0) {
			base = high
		} else {
			s.arangeAdd(u, a, base+low, base+high)
		}
	}
}

// readRnglists walks a .debug_rnglists list (DWARF 5).
func (s *bfdLines) readRnglists(u *bfdUnit, a *bfdAranges, off uint64) bool {
	if !s.readable(&s.rnglists, 0) || off > uint64(len(s.rnglists.data)) {
		return false
	}
	b := s.rnglists.data
	end := len(b)
	p := int(off)
	base := u.baseAddress
	for {
		if p >= end {
			return false
		}
		var low, high uint64
		switch s.read1(b, &p, end) {
		case 0: // DW_RLE_end_of_list
			return true
		case 5: // DW_RLE_base_address
			if u.addrSize > end-p {
				return false
			}
			base = s.readAddress(u, b, &p, end)
			continue
		case 7: // DW_RLE_start_length
			if u.addrSize > end-p {
				return false
			}
			low = s.readAddress(u, b, &p, end)
			high = low + bfdULEB(b, &p, end)
		case 4: // DW_RLE_offset_pair
			low = base + bfdULEB(b, &p, end)
			high = base + bfdULEB(b, &p, end)
		case 6: // DW_RLE_start_end
			if 2*u.addrSize > end-p {
				return false
			}
			low = s.readAddress(u, b, &p, end)
			high = s.readAddress(u, b, &p, end)
		default:
			return false
		}
		s.arangeAdd(u, a, low, high)
	}
}

// ---------------------------------------------------------------------------
// Line tables.

// bfdFileEntry is a file of a line table's header.
type bfdFileEntry struct {
	name bfdStr
	dir  uint32
}

// bfdLineNode is a row while a table is being built; rows of a sequence
// are chained from the highest address down through prev.
type bfdLineNode struct {
	bfdRow
	prev int32
}

// bfdBuildSeq is a sequence while the table is being built.
type bfdBuildSeq struct {
	low  uint64
	last int32
}

// bfdTableBuilder accumulates a line table the way BFD's add_line_info
// does.
type bfdTableBuilder struct {
	s       *bfdLines // for messages; may be nil
	compDir bfdStr
	use0    bool // DWARF 5: directory and file entry 0 are real
	dirs    []bfdStr
	files   []bfdFileEntry
	names   []string
	nameIdx map[string]int32
	nodes   []bfdLineNode
	seqs    []bfdBuildSeq
	lclHead int32
}

// concat builds the name of file entry n (concat_filename) and returns its
// index in the table's name list.
func (t *bfdTableBuilder) concat(n uint32) int32 {
	return t.intern(t.fileName(n))
}

func (t *bfdTableBuilder) fileName(n uint32) string {
	const unknown = "<unknown>"
	if !t.use0 {
		if n == 0 {
			return unknown
		}
		n--
	}
	if uint64(n) >= uint64(len(t.files)) {
		if t.s != nil {
			t.s.warnf("mangled line number section (bad file number)")
		}
		return unknown
	}
	fe := t.files[n]
	if !fe.name.ok {
		return unknown
	}
	name := fe.name.s
	if strings.HasPrefix(name, "/") {
		return name
	}
	dir := fe.dir
	if !t.use0 {
		dir-- // entry 0 wraps to a value past every directory
	}
	var sub, base bfdStr
	if uint64(dir) < uint64(len(t.dirs)) {
		sub = t.dirs[dir]
	}
	if !sub.ok || !strings.HasPrefix(sub.s, "/") {
		base = t.compDir
	}
	if !base.ok {
		base, sub = sub, bfdStr{}
	}
	if !base.ok {
		return name
	}
	if sub.ok {
		return base.s + "/" + sub.s + "/" + name
	}
	return base.s + "/" + name
}

func (t *bfdTableBuilder) intern(name string) int32 {
	if name == "" {
		return -1
	}
	if i, ok := t.nameIdx[name]; ok {
		return i
	}
	i := int32(len(t.names))
	t.names = append(t.names, name)
	t.nameIdx[name] = i
	return i
}

// sortsAfter reports whether row a belongs above row b in a sequence.
func (t *bfdTableBuilder) sortsAfter(a, b int32) bool {
	x, y := &t.nodes[a], &t.nodes[b]
	return x.addr > y.addr || (x.addr == y.addr && x.opIndex > y.opIndex)
}

// add appends a row to the current sequence, keeping the chain sorted and
// replacing a previous row with the same address, op_index and
// end_sequence flag (add_line_info).
func (t *bfdTableBuilder) add(row bfdRow) {
	info := int32(len(t.nodes))
	t.nodes = append(t.nodes, bfdLineNode{bfdRow: row, prev: -1})
	n := t.nodes
	var seq *bfdBuildSeq
	if len(t.seqs) > 0 {
		seq = &t.seqs[len(t.seqs)-1]
	}
	switch {
	case seq != nil && n[seq.last].addr == row.addr && n[seq.last].opIndex == row.opIndex && n[seq.last].end == row.end:
		if t.lclHead == seq.last {
			t.lclHead = info
		}
		n[info].prev = n[seq.last].prev
		seq.last = info
	case seq == nil || n[seq.last].end:
		t.seqs = append(t.seqs, bfdBuildSeq{low: row.addr, last: info})
		t.lclHead = info
	case row.end || t.sortsAfter(info, seq.last):
		n[info].prev = seq.last
		seq.last = info
		if t.lclHead < 0 {
			t.lclHead = info
		}
	case t.lclHead >= 0 && !t.sortsAfter(info, t.lclHead) &&
		(n[t.lclHead].prev < 0 || t.sortsAfter(info, n[t.lclHead].prev)):
		n[info].prev = n[t.lclHead].prev
		n[t.lclHead].prev = info
	default:
		li2 := seq.last
		li1 := n[li2].prev
		for li1 >= 0 {
			if !t.sortsAfter(info, li2) && t.sortsAfter(info, li1) {
				break
			}
			li2 = li1
			li1 = n[li1].prev
		}
		t.lclHead = li2
		n[info].prev = n[li2].prev
		n[li2].prev = info
		if row.addr < seq.low {
			seq.low = row.addr
		}
	}
}

// finish sorts the sequences, drops nested ones and trims overlapping ones
// (sort_line_sequences), and flattens each kept sequence into an array.
func (t *bfdTableBuilder) finish() *bfdLineTable {
	type sortSeq struct {
		low  uint64
		last int32
		idx  int
	}
	k := len(t.seqs)
	arr := make([]sortSeq, k)
	for i := range arr {
		// BFD's list is newest first; the position breaks ties.
		s := t.seqs[k-1-i]
		arr[i] = sortSeq{low: s.low, last: s.last, idx: i}
	}
	n := t.nodes
	sort.Slice(arr, func(i, j int) bool {
		a, b := &arr[i], &arr[j]
		if a.low != b.low {
			return a.low < b.low
		}
		la, lb := &n[a.last], &n[b.last]
		if la.addr != lb.addr {
			return la.addr > lb.addr
		}
		if la.opIndex != lb.opIndex {
			return la.opIndex > lb.opIndex
		}
		return a.idx < b.idx
	})
	kept := arr[:0]
	if k > 0 {
		kept = arr[:1]
		lastHigh := n[arr[0].last].addr
		for i := 1; i < k; i++ {
			cur := arr[i]
			if cur.low < lastHigh {
				if n[cur.last].addr <= lastHigh {
					continue // nested
				}
				cur.low = lastHigh
			}
			lastHigh = n[cur.last].addr
			kept = append(kept, cur)
		}
	}
	tab := &bfdLineTable{names: t.names, seqs: make([]bfdSeq, len(kept)), nfiles: len(t.files), use0: t.use0}
	for i, ks := range kept {
		count := 0
		for e := ks.last; e >= 0; e = n[e].prev {
			count++
		}
		rows := make([]bfdRow, count)
		for e := ks.last; e >= 0; e = n[e].prev {
			count--
			rows[count] = n[e].bfdRow
		}
		tab.seqs[i] = bfdSeq{low: ks.low, rows: rows}
	}
	return tab
}

// lookup finds the row holding addr with BFD's two binary searches; end of
// sequence rows and the last row of a sequence never match.
func (tab *bfdLineTable) lookup(addr uint64) (file int32, line uint32, ok bool) {
	var seq *bfdSeq
	low, high := 0, len(tab.seqs)
	for low < high {
		mid := (low + high) / 2
		seq = &tab.seqs[mid]
		if addr < seq.low {
			high = mid
		} else if addr >= seq.rows[len(seq.rows)-1].addr {
			low = mid + 1
		} else {
			break
		}
	}
	if seq == nil || addr < seq.low || addr >= seq.rows[len(seq.rows)-1].addr {
		return -1, 0, false
	}
	rows := seq.rows
	var info *bfdRow
	mid := 0
	low, high = 0, len(rows)
	for low < high {
		mid = (low + high) / 2
		info = &rows[mid]
		if addr < info.addr {
			high = mid
		} else if mid+1 < len(rows) && addr >= rows[mid+1].addr {
			low = mid + 1
		} else {
			break
		}
	}
	if info != nil && mid+1 < len(rows) && addr >= info.addr && addr < rows[mid+1].addr && !info.end {
		return info.file, info.line, true
	}
	return -1, 0, false
}

// decodeLineInfo decodes the line table of unit u (decode_line_info). The
// range of every completed sequence is added to the unit as it is met.
func (s *bfdLines) decodeLineInfo(u *bfdUnit) *bfdLineTable {
	if u.lineOffset == 0 && s.lineTable0 != nil {
		return s.lineTable0
	}
	if !s.readable(&s.line, u.lineOffset) {
		return nil
	}
	if len(s.line.data) < 16 {
		s.warnf("line info section is too small (%d)", len(s.line.data))
		return nil
	}
	b := s.line.data
	p := int(u.lineOffset)
	end := len(b)
	total := s.readN(b, &p, end, 4)
	offsetSize := 4
	if total == 0xffffffff {
		total = s.readN(b, &p, end, 8)
		offsetSize = 8
	} else if total == 0 && u.addrSize == 8 {
		total = s.readN(b, &p, end, 4)
		offsetSize = 8
	}
	if total > uint64(end-p) {
		s.warnf("line info data is bigger (%s) than the space remaining in the section (%s)", bfdHex(total), bfdHex(uint64(end-p)))
		return nil
	}
	end = p + int(total)
	version := s.readN(b, &p, end, 2)
	if version < 2 || version > 5 {
		s.warnf("unhandled .debug_line version %d", version)
		return nil
	}
	need := offsetSize + 5
	if version >= 5 {
		need = offsetSize + 8
	} else if version >= 4 {
		need = offsetSize + 6
	}
	if p+need >= end {
		s.warnf("ran out of room reading prologue")
		return nil
	}
	if version >= 5 {
		s.read1(b, &p, end) // address size
		if seg := s.read1(b, &p, end); seg != 0 {
			s.warnf("line info unsupported segment selector size %d", seg)
			return nil
		}
	}
	s.readN(b, &p, end, offsetSize) // header length
	minInsn := int(s.read1(b, &p, end))
	maxOps := 1
	if version >= 4 {
		maxOps = int(s.read1(b, &p, end))
	}
	if maxOps == 0 {
		s.warnf("invalid maximum operations per instruction")
		return nil
	}
	s.read1(b, &p, end) // default_is_stmt
	lineBase := int32(int8(s.read1(b, &p, end)))
	lineRange := int(s.read1(b, &p, end))
	opcodeBase := int(s.read1(b, &p, end))
	if p+opcodeBase-1 >= end {
		s.warnf("ran out of room reading opcodes")
		return nil
	}
	lengths := make([]int, max(opcodeBase, 1))
	lengths[0] = 1
	for i := 1; i < opcodeBase; i++ {
		lengths[i] = int(s.read1(b, &p, end))
	}

	t := &bfdTableBuilder{s: s, compDir: u.compDir, nameIdx: map[string]int32{}, lclHead: -1}
	if version >= 5 {
		if !s.readEntryFormats(u, b, &p, end, func(name bfdStr, dir uint32) { t.dirs = append(t.dirs, name) }) {
			return nil
		}
		if !s.readEntryFormats(u, b, &p, end, func(name bfdStr, dir uint32) {
			t.files = append(t.files, bfdFileEntry{name: name, dir: dir})
		}) {
			return nil
		}
		t.use0 = true
	} else {
		for {
			d := bfdCString(b, &p, end)
			if !d.ok {
				break
			}
			t.dirs = append(t.dirs, d)
		}
		for {
			f := bfdCString(b, &p, end)
			if !f.ok {
				break
			}
			dir := uint32(bfdULEB(b, &p, end))
			bfdULEB(b, &p, end)
			bfdULEB(b, &p, end)
			t.files = append(t.files, bfdFileEntry{name: f, dir: dir})
		}
	}

	for p < end {
		var address uint64
		var opIndex int
		file := int32(-1)
		line := uint32(1)
		endSeq := false
		lowPC, highPC := ^uint64(0), uint64(0)
		if len(t.files) > 0 {
			if t.use0 {
				file = t.concat(0)
			} else {
				file = t.concat(1)
			}
		}
		emit := func(end bool) {
			t.add(bfdRow{addr: address, file: file, line: line, opIndex: uint8(opIndex), end: end})
			if address < lowPC {
				lowPC = address
			}
			if address > highPC {
				highPC = address
			}
		}
		for !endSeq && p < end {
			op := int(s.read1(b, &p, end))
			if op >= opcodeBase {
				adj := op - opcodeBase
				if lineRange == 0 {
					return nil
				}
				if maxOps == 1 {
					address += uint64(adj / lineRange * minInsn)
				} else {
					address += uint64((opIndex + adj/lineRange) / maxOps * minInsn)
					opIndex = (opIndex + adj/lineRange) % maxOps
				}
				line += uint32(lineBase + int32(adj%lineRange))
				emit(false)
				continue
			}
			switch op {
			case 0: // extended opcode
				exLen := uint32(bfdULEB(b, &p, end))
				switch s.read1(b, &p, end) {
				case 1: // DW_LNE_end_sequence
					endSeq = true
					emit(true)
					s.arangeAdd(u, &u.arange, lowPC, highPC)
				case 2: // DW_LNE_set_address
					address = s.readAddress(u, b, &p, end)
					opIndex = 0
				case 3: // DW_LNE_define_file
					name := bfdCString(b, &p, end)
					dir := uint32(bfdULEB(b, &p, end))
					bfdULEB(b, &p, end)
					bfdULEB(b, &p, end)
					t.files = append(t.files, bfdFileEntry{name: name, dir: dir})
				case 4: // DW_LNE_set_discriminator
					bfdULEB(b, &p, end)
				case 0x80: // DW_LNE_HP_source_file_correlation
					skip := uint64(exLen - 1)
					if skip >= uint64(end-p) {
						p = end
					} else {
						p += int(skip)
					}
				default:
					s.warnf("mangled line number section")
					return nil
				}
			case 1: // DW_LNS_copy
				emit(false)
			case 2: // DW_LNS_advance_pc
				adv := bfdULEB(b, &p, end)
				if maxOps == 1 {
					address += uint64(minInsn) * adv
				} else {
					// BFD assigns rather than adds here.
					address = (uint64(opIndex) + adv) / uint64(maxOps) * uint64(minInsn)
					opIndex = int((uint64(opIndex) + adv) % uint64(maxOps))
				}
			case 3: // DW_LNS_advance_line
				line += uint32(bfdLEB(b, &p, end, true))
			case 4: // DW_LNS_set_file
				file = t.concat(uint32(bfdULEB(b, &p, end)))
			case 5: // DW_LNS_set_column
				bfdULEB(b, &p, end)
			case 6, 7: // DW_LNS_negate_stmt, DW_LNS_set_basic_block
			case 8: // DW_LNS_const_add_pc
				if lineRange == 0 {
					return nil
				}
				adj := (255 - opcodeBase) / lineRange
				if maxOps == 1 {
					address += uint64(minInsn * adj)
				} else {
					address += uint64(minInsn) * uint64((opIndex+adj)/maxOps)
					opIndex = (opIndex + adj) % maxOps
				}
			case 9: // DW_LNS_fixed_advance_pc
				address += s.readN(b, &p, end, 2)
				opIndex = 0
			default:
				for i := 0; i < lengths[op]; i++ {
					bfdULEB(b, &p, end)
				}
			}
		}
	}
	tab := t.finish()
	if u.lineOffset == 0 {
		s.lineTable0 = tab
	}
	return tab
}

// readEntryFormats reads a DWARF 5 directory or file name table and calls
// add for every entry (read_formatted_entries). Only the forms BFD stores
// are used: names from DW_FORM_string, line_strp and strx*, directory
// indexes from DW_FORM_data1-8 and udata.
func (s *bfdLines) readEntryFormats(u *bfdUnit, b []byte, p *int, end int, add func(name bfdStr, dir uint32)) bool {
	formatCount := int(s.read1(b, p, end))
	formats := *p
	for i := 0; i < formatCount; i++ {
		bfdULEB(b, p, end)
		bfdULEB(b, p, end)
	}
	count := bfdULEB(b, p, end)
	if formatCount == 0 && count != 0 {
		s.warnf("zero format count")
		return false
	}
	if count > uint64(end-*p) {
		s.warnf("data count (%x) larger than buffer size", count)
		return false
	}
	for n := uint64(0); n < count; n++ {
		fp := formats
		var name bfdStr
		var dir uint32
		for i := 0; i < formatCount; i++ {
			content := bfdULEB(b, &fp, end)
			switch content {
			case bfdLNCTPath, bfdLNCTDirIndex, bfdLNCTTime, bfdLNCTSize, bfdLNCTMD5:
			default:
				s.warnf("unknown format content type %d", content)
				return false
			}
			form := uint32(bfdULEB(b, &fp, end))
			a, ok := s.readAttrValue(u, form, 0, b, p, end)
			if !ok {
				return false
			}
			switch form {
			case bfdFormString, bfdFormLineStrp, bfdFormStrx, bfdFormStrx1, bfdFormStrx2, bfdFormStrx3, bfdFormStrx4:
				if content == bfdLNCTPath {
					name = a.str
				}
			case bfdFormData1, bfdFormData2, bfdFormData4, bfdFormData8, bfdFormUdata:
				if content == bfdLNCTDirIndex {
					dir = uint32(a.val)
				}
			}
		}
		add(name, dir)
	}
	return true
}

// ---------------------------------------------------------------------------
// Functions.

// bfdMangleStyleIsC reports whether BFD treats names of the language as
// linkage names already (mangle_style returning 0).
func bfdMangleStyleIsC(lang uint64) bool {
	switch lang {
	case 0x0001, 0x0002, 0x0005, 0x0006, 0x0007, 0x0009, 0x000c, 0x000f, 0x0012, 0x001d,
		0x8001, 0x8765, 0x8004, 0x8006, 0x8007:
		return true
	}
	return false
}

func bfdIsFuncTag(tag uint32) bool {
	return tag == bfdTagSubprogram || tag == bfdTagEntryPoint || tag == bfdTagInlinedSubroutine
}

// maybeDecode decodes the unit's line table and functions on first use
// (comp_unit_maybe_decode_line_info). It reports false for unusable units.
func (s *bfdLines) maybeDecode(u *bfdUnit) bool {
	if u.failed {
		return false
	}
	if u.table == nil {
		if !u.stmtList {
			u.failed = true
			return false
		}
		tab := s.decodeLineInfo(u)
		if tab == nil {
			u.failed = true
			return false
		}
		u.table = tab
		if u.firstChild < u.end && !s.scanUnit(u) {
			u.failed = true
			return false
		}
	}
	return true
}

// scanUnit collects the functions of a unit in two passes over its DIEs
// (scan_unit_for_symbols): the first finds them, the second reads their
// names and ranges.
func (s *bfdLines) scanUnit(u *bfdUnit) bool {
	b := s.info.data
	end := u.end
	var funcs []*bfdFunc
	byOffset := map[uint64]*bfdFunc{}

	p := u.firstChild
	for nesting := 0; nesting >= 0; {
		if p >= end {
			return false
		}
		off := uint64(p - u.start)
		num := uint32(bfdULEB(b, &p, end))
		if num == 0 {
			nesting--
			continue
		}
		ab := u.abbrevs[num]
		if ab == nil {
			// BFD reports a missing abbreviation only when it differs
			// from the previous one reported.
			if num != s.prevFailedAbbrev {
				s.warnf("could not find abbrev number %d", num)
				s.prevFailedAbbrev = num
			}
			return false
		}
		if bfdIsFuncTag(ab.tag) {
			fn := &bfdFunc{idx: len(funcs)}
			funcs = append(funcs, fn)
			byOffset[off] = fn
		}
		for _, spec := range ab.attrs {
			if _, ok := s.readAttrValue(u, spec.form, spec.implicit, b, &p, end); !ok {
				return false
			}
		}
		if ab.hasChildren {
			nesting++
		}
	}
	// The functions belong to the unit from here on, even if the second
	// pass fails (the unit is then unusable anyway).
	u.funcs = funcs

	p = u.firstChild
	for nesting := 0; nesting >= 0; {
		if p >= end {
			return false
		}
		off := uint64(p - u.start)
		num := uint32(bfdULEB(b, &p, end))
		if num == 0 {
			nesting--
			continue
		}
		ab := u.abbrevs[num]
		if ab == nil {
			return false
		}
		var fn *bfdFunc
		isVar := false
		if bfdIsFuncTag(ab.tag) {
			fn = byOffset[off]
		} else if ab.tag == bfdTagVariable || ab.tag == bfdTagMember {
			isVar = true
		}
		var lowPC, highPC uint64
		highRel := false
		for _, spec := range ab.attrs {
			a, ok := s.readAttrValue(u, spec.form, spec.implicit, b, &p, end)
			if !ok {
				return false
			}
			a.name = spec.name
			if fn != nil {
				switch a.name {
				case bfdAtCallFile, bfdAtDeclFile:
					if bfdIsIntForm(a.form) {
						s.checkFile(u.table, a.val)
					}
				case bfdAtAbstractOrigin, bfdAtSpecification:
					if bfdIsIntForm(a.form) && !s.findAbstract(u, a, 0, &fn.name, &fn.isLinkage) {
						return false
					}
				case bfdAtName:
					if !fn.name.ok && bfdIsStrForm(a.form) {
						fn.name = a.str
						if bfdMangleStyleIsC(u.lang) {
							fn.isLinkage = true
						}
					}
				case bfdAtLinkageName, bfdAtMIPSLinkageName:
					if bfdIsStrForm(a.form) {
						fn.name = a.str
						fn.isLinkage = true
					}
				case bfdAtLowPC:
					if bfdIsIntForm(a.form) {
						lowPC = a.val
					}
				case bfdAtHighPC:
					if bfdIsIntForm(a.form) {
						highPC = a.val
						highRel = a.form != bfdFormAddr
					}
				case bfdAtRanges:
					if bfdIsIntForm(a.form) && !s.readRangeList(u, &fn.arange, a.val) {
						return false
					}
				}
			} else if isVar {
				switch {
				case a.name == bfdAtSpecification && bfdIsIntForm(a.form) && a.val != 0:
					// Only the side effects matter (other units may get
					// decoded); BFD goes on after a failure.
					var name bfdStr
					var linkage bool
					if !s.findAbstract(u, a, 0, &name, &linkage) {
						s.warnf("could not find variable specification at offset 0x%x", a.val)
					}
				case a.name == bfdAtDeclFile && bfdIsIntForm(a.form):
					s.checkFile(u.table, a.val)
				}
			}
		}
		if ab.hasChildren {
			nesting++
		}
		if highRel {
			highPC += lowPC
		}
		if fn != nil && highPC != 0 {
			s.arangeAdd(u, &fn.arange, lowPC, highPC)
		}
	}
	s.buildFuncLookup(u)
	return true
}

// findAbstract follows DW_AT_abstract_origin or DW_AT_specification to the
// referenced DIE and takes its name (find_abstract_instance): a linkage name
// always wins, a plain name only fills an empty one.
func (s *bfdLines) findAbstract(u *bfdUnit, a bfdAttr, depth int, name *bfdStr, linkage *bool) bool {
	if depth == 100 {
		s.warnf("abstract instance recursion detected")
		return false
	}
	ref := a.val
	var p, end int
	switch a.form {
	case bfdFormRefAddr:
		if ref == 0 {
			return true
		}
		if ref >= uint64(len(s.info.data)) {
			s.warnf("invalid abstract instance DIE ref")
			return false
		}
		p = int(ref)
		if p < u.start || p >= u.end {
			tu := s.unitAt(p)
			for tu == nil {
				nu := s.nextUnit()
				if nu == nil {
					break
				}
				if p >= nu.start && p < nu.end {
					tu = nu
				}
			}
			if tu == nil {
				s.warnf("unable to locate abstract instance DIE ref %d", ref)
				return false
			}
			u = tu
		}
		end = u.end
	case bfdFormGNURefAlt:
		// References into a .gnu_debugaltlink file cannot be followed.
		s.warnf("unable to read alt ref %d", ref)
		return false
	default:
		if ref == 0 || ref >= uint64(u.end-u.start) {
			s.warnf("invalid abstract instance DIE ref")
			return false
		}
		p = u.start + int(ref)
		end = u.end
	}
	b := s.info.data
	num := uint32(bfdULEB(b, &p, end))
	if num == 0 {
		return true
	}
	ab := u.abbrevs[num]
	if ab == nil {
		s.warnf("could not find abbrev number %d", num)
		return false
	}
	for _, spec := range ab.attrs {
		v, ok := s.readAttrValue(u, spec.form, spec.implicit, b, &p, end)
		if !ok {
			break
		}
		switch spec.name {
		case bfdAtName:
			if !name.ok && bfdIsStrForm(v.form) {
				*name = v.str
				if bfdMangleStyleIsC(u.lang) {
					*linkage = true
				}
			}
		case bfdAtSpecification:
			if bfdIsIntForm(v.form) && !s.findAbstract(u, v, depth+1, name, linkage) {
				return false
			}
		case bfdAtLinkageName, bfdAtMIPSLinkageName:
			if bfdIsStrForm(v.form) {
				*name = v.str
				*linkage = true
			}
		case bfdAtDeclFile:
			if !s.maybeDecode(u) {
				return false
			}
			if bfdIsIntForm(v.form) {
				s.checkFile(u.table, v.val)
			}
		}
	}
	return true
}

// buildFuncLookup builds the unit's function table sorted by address with
// running maximum end addresses (build_lookup_funcinfo_table).
func (s *bfdLines) buildFuncLookup(u *bfdUnit) {
	if len(u.funcs) == 0 {
		return
	}
	tab := make([]bfdFuncLookup, len(u.funcs))
	for i, fn := range u.funcs {
		low, high := fn.arange.bounds()
		tab[i] = bfdFuncLookup{fn: fn, low: low, high: high, idx: i}
	}
	sort.Slice(tab, func(i, j int) bool {
		a, b := &tab[i], &tab[j]
		if a.low != b.low {
			return a.low < b.low
		}
		if a.high != b.high {
			return a.high < b.high
		}
		return a.idx < b.idx
	})
	high := tab[0].high
	for i := 1; i < len(tab); i++ {
		if tab[i].high > high {
			high = tab[i].high
		} else {
			tab[i].high = high
		}
	}
	u.lookup = tab
}

// lookupFunc returns the function with the smallest range holding addr
// (lookup_address_in_function_table); among equal sizes the later DIE
// wins, which is how BFD's allocation order usually breaks the tie.
func (u *bfdUnit) lookupFunc(addr uint64) *bfdFunc {
	tab := u.lookup
	n := len(tab)
	if n == 0 || tab[n-1].high < addr {
		return nil
	}
	low, high, first := 0, n, n
	for low < high {
		mid := (low + high) / 2
		e := &tab[mid]
		if addr < e.low {
			high = mid
		} else if addr >= e.high {
			low = mid + 1
		} else {
			high = mid
			first = mid
		}
	}
	var best *bfdFunc
	bestLen := ^uint64(0)
	consider := func(fn *bfdFunc, r bfdArange) {
		if addr < r.low || addr >= r.high {
			return
		}
		l := r.high - r.low
		if l < bestLen || (l == bestLen && (best == nil || fn.idx > best.idx)) {
			best = fn
			bestLen = l
		}
	}
	for ; first < n; first++ {
		if addr < tab[first].low {
			break
		}
		fn := tab[first].fn
		consider(fn, fn.arange.first)
		for i := len(fn.arange.rest) - 1; i >= 0; i-- {
			consider(fn, fn.arange.rest[i])
		}
	}
	return best
}

// ---------------------------------------------------------------------------
// ELF symbol fallback.

// loadElfSymbols prepares _bfd_elf_find_function over .text: for every
// offset where a candidate symbol starts, the symbol its scan would pick.
func (s *bfdLines) loadElfSymbols(f *elf.File) {
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
	var file bfdStr
	var cands []bfdElfSym
	for _, sym := range syms {
		typ := elf.ST_TYPE(sym.Info)
		if typ == elf.STT_FILE {
			file = bfdStr{s: sym.Name, ok: true}
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
					c := bfdElfSym{name: sym.Name, codeOff: sym.Value - s.textVMA, size: size}
					if file.ok && (local || state != fileAfterSymbol) {
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
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].codeOff < cands[j].codeOff })
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
func (s *bfdLines) elfFunction(off uint64) (bfdElfSym, bool) {
	if !s.hasText {
		return bfdElfSym{}, false
	}
	if s.cacheOK && off >= s.cacheSym.codeOff && off < s.cacheSym.codeOff+s.cacheSize {
		return s.cacheSym, true
	}
	i := sort.Search(len(s.elfOffs), func(i int) bool { return s.elfOffs[i] > off }) - 1
	if i < 0 {
		s.cacheOK = false
		return bfdElfSym{}, false
	}
	s.cacheOK = true
	s.cacheSym = s.elfWin[i]
	s.cacheSize = s.elfWin[i].size
	return s.cacheSym, true
}

// ---------------------------------------------------------------------------
// Lookup.

// bfdResult is what bfd_find_nearest_line reports; found is its return
// value.
type bfdResult struct {
	file     bfdStr
	function bfdStr
	line     uint32
	found    bool
}

// unitFindNearest asks one unit about addr (comp_unit_find_nearest_line).
func (s *bfdLines) unitFindNearest(u *bfdUnit, addr uint64, file *bfdStr, fn **bfdFunc, line *uint32) bool {
	if !s.maybeDecode(u) {
		return false
	}
	*fn = u.lookupFunc(addr)
	idx, l, ok := u.table.lookup(addr)
	if ok {
		*line = l
		if idx >= 0 {
			*file = bfdStr{s: u.table.names[idx], ok: true}
		} else {
			*file = bfdStr{}
		}
	} else {
		*file = bfdStr{}
	}
	return ok || *fn != nil
}

// lookup runs _bfd_dwarf2_find_nearest_line for addr in .text.
func (s *bfdLines) lookup(addr uint64) bfdResult {
	var res bfdResult
	var fn *bfdFunc
	found := false

	t := s.trie
	bits := 56
	for t != nil && t.room == 0 && bits >= 0 {
		t = t.children[(addr>>uint(bits))&0xff]
		bits -= 8
	}
	if t != nil && t.room > 0 {
		leaf := t
		for _, r := range leaf.ranges {
			r.unit.mark = false
		}
		// Decoding a unit may add ranges to this very leaf; they are
		// visited too, as in BFD.
		for i := 0; i < len(leaf.ranges); i++ {
			r := leaf.ranges[i]
			if r.unit.mark || addr < r.low || addr >= r.high {
				continue
			}
			r.unit.mark = true
			if s.unitFindNearest(r.unit, addr, &res.file, &fn, &res.line) {
				found = true
				break
			}
		}
	}
	// BFD's list of units without ranges never gets an entry, so units
	// without ranges are only tried right after being parsed.
	for !found {
		u := s.nextUnit()
		if u == nil {
			break
		}
		if (u.arange.first.high == 0 || (!u.failed && u.arange.contains(addr))) &&
			s.unitFindNearest(u, addr, &res.file, &fn, &res.line) {
			found = true
		}
	}

	if fn != nil && fn.isLinkage {
		res.function = fn.name
	} else {
		off := addr - s.textVMA
		sym, ok := s.elfFunction(off)
		if ok {
			res.function = bfdStr{s: sym.name, ok: true}
			if !res.file.ok {
				res.file = sym.file
			}
			// Only a symbol is known: BFD still reports success.
			found = true
		}
		if fn != nil {
			if !ok {
				res.function = fn.name
			} else if sym.codeOff+s.textVMA == fn.arange.first.low {
				fn.name = res.function
			}
			fn.isLinkage = true
		}
	}
	res.found = found
	return res
}

// find returns what bfd_find_nearest_line + gprof's get_src_info would give
// for addr: the file name, the function name and the line, with ok false
// when gprof would reject the answer (no file, no function or line 0).
// Like BFD, the answer may depend on the addresses looked up before.
func (s *bfdLines) find(addr uint64) (file string, function string, line int, ok bool) {
	if s == nil {
		return "", "", 0, false
	}
	s.mu.Lock()
	r := s.lookup(addr)
	s.mu.Unlock()
	l := int(int32(r.line))
	return r.file.s, r.function.s, l, r.file.ok && r.function.ok && l != 0
}
