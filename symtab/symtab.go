// Package symtab loads the function symbols of an ELF executable the way GNU
// gprof 2.40 selects, orders and merges them, demangles their names and looks
// up their source files and lines in DWARF.
package symtab

import (
	"cmp"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/oserr"
	"github.com/egprof/egprof/symtab/internal/bfd"
)

// Symbol is one gprof symbol: a function, or a code label that gprof treats
// like one. Its range runs from Addr to End inclusive (gprof ignores ELF
// sizes: a symbol ends where the next kept symbol starts).
type Symbol struct {
	Name     string // raw (mangled) name
	Addr     uint64
	End      uint64 // last address of the symbol; may be below Addr for the last symbol
	IsFunc   bool   // STT_FUNC
	IsStatic bool   // STB_LOCAL
	// IsLine marks a line symbol of -l: a stretch of code with one source
	// line, named after its function. Src is its position.
	IsLine bool
	Src    SourceLoc
	// Mapped marks a symbol that -R's mapping renamed to its object
	// file's name.
	Mapped bool
	// ObjFile is the source file named by the STT_FILE entry this symbol
	// follows in .symtab ("" if none); it tells same-named static
	// functions apart when there is no debug information.
	ObjFile string
	// symIndex is the position in .symtab, used to find the DWARF file of
	// the symbol through the preceding STT_FILE entry.
	symIndex int
}

// Options are the command-line settings that change which symbols exist,
// and what Load reads besides them.
type Options struct {
	NoStatic           bool // -a: drop every local symbol
	IgnoreNonFunctions bool // -D: drop local symbols that are not STT_FUNC
	// MapFile is -R's function-to-file mapping: it is read once the
	// executable is known to have code, and it renames or drops the
	// symbols it names (see FunctionMap).
	MapFile string
	// ExternalSymbols is -S's nm-style symbol file, used instead of the
	// executable's symbols (see ParseExternalSymbols).
	ExternalSymbols string
	// ReadText keeps the bytes of .text for TextBytes (the static call
	// graph of -c needs them).
	ReadText bool
	// MapDebugSections maps the large debug sections from the file
	// instead of reading them (cheaper, and only the pages used count),
	// which keeps them mapped while the Table lives. A file that shrinks
	// meanwhile leaves the source positions unknown from then on, and
	// SourcesErr says so: the caller must check it once done.
	MapDebugSections bool
}

// Table is the finalised symbol table of one executable. Load reads all it
// needs from the file (symbols, DWARF line information, build ID, .text
// when asked for) and closes it: a Table holds no open file (with
// Options.MapDebugSections, mappings of its debug sections).
type Table struct {
	Path   string
	Target gmon.Target
	// Machine is the executable's ELF machine (e_machine).
	Machine elf.Machine
	Syms    []Symbol // ascending, unique addresses
	TextLow uint64   // first address of .text
	TextEnd uint64   // last address of .text

	// CodeSymbolAddrs holds the addresses of the code symbols of the
	// executable's .symtab (every symbol of an executable section except
	// sections, files, objects and TLS), in .symtab order; nil when the
	// executable has no readable symbol table.
	CodeSymbolAddrs []uint64

	// functions is the table this one was derived from by -l's line
	// symbols (nil for a table of function symbols); see Functions.
	functions *Table

	// kept lists the selected symbols in .symtab order, before aliases
	// were merged: gprof looks up their source lines in that order, and
	// BFD's answers can depend on the order of lookups.
	kept []keptSym

	// lines is the DWARF line information, nil without it; linesErr is
	// the error reading it. Tables derived from this one (-l) share it.
	lines    *bfd.Lines
	linesErr error
	// linesElsewhere: lines were read from a separate debug file, whose
	// mapping holds none of the executable's code.
	linesElsewhere bool
	// sources holds the positions of the kept function symbols, looked
	// up on first use; nil without line information. Tables derived from
	// this one share it.
	sources *sourceTable

	buildID    string
	buildIDErr error
	// textErr tells why -l cannot walk .text (its size runs past the
	// end of the file), nil when it can.
	textErr    error
	textOffset uint64 // file offset of .text, when textOffsetOK
	textOffOK  bool
	text       []byte // .text, with Options.ReadText
	// textHasCode: .text has contents in the file (see CodeBefore).
	textHasCode bool
	// index speeds up Lookup; nil for a table built by hand.
	index *addrIndex

	// Mapping is -R's mapping file, nil without -R.
	Mapping *FunctionMap
}

// ErrorKind tells how gprof words a failure to load the executable.
type ErrorKind int

// The ways loading an executable can fail.
const (
	ErrOpen      ErrorKind = iota // the file cannot be opened
	ErrNotObject                  // not an ELF file
	ErrNoText                     // no .text section
	ErrNoSymbols                  // no usable function symbols
	ErrBadSymtab                  // the symbol table is malformed
)

// LoadError reports why an executable could not be used.
type LoadError struct {
	Kind ErrorKind
	Path string
	Err  error // underlying cause, if any
}

func (e *LoadError) Error() string {
	switch e.Kind {
	case ErrOpen:
		return fmt.Sprintf("%s: %s", e.Path, oserr.Text(e.Err))
	case ErrNotObject:
		return fmt.Sprintf("%s: not in executable format", e.Path)
	case ErrNoText:
		return fmt.Sprintf("can't find .text section in %s", e.Path)
	case ErrNoSymbols:
		return fmt.Sprintf("file `%s' has no symbols", e.Path)
	default:
		return fmt.Sprintf("%s: bad symbol table: %v", e.Path, e.Err)
	}
}

func (e *LoadError) Unwrap() error { return e.Err }

// keptSym is what the source lookups need of a selected symbol: its
// address and .symtab index.
type keptSym struct {
	addr     uint64
	symIndex int
}

// rawSym is a .symtab entry with the fields gprof's selection needs.
type rawSym struct {
	nameOff uint32
	info    byte
	shndx   uint16
	value   uint64
	index   int
}

// Load reads the executable at path and builds gprof's symbol table. It
// does all the reading the table's users need (see Table) and closes the
// file before it returns.
func Load(path string, opt Options) (*Table, error) {
	osf, err := os.Open(path)
	if err != nil {
		return nil, &LoadError{Kind: ErrOpen, Path: path, Err: err}
	}
	defer osf.Close()
	if st, err := osf.Stat(); err == nil && st.IsDir() {
		// gprof reports a directory as a missing file.
		return nil, &LoadError{Kind: ErrOpen, Path: path, Err: &os.PathError{Op: "open", Path: path, Err: errors.New("no such file or directory")}}
	}
	var fileSize int64
	if st, err := osf.Stat(); err == nil {
		fileSize = st.Size()
	}
	return load(path, osf, fileSize, opt)
}

// load builds the table of the executable whose fileSize bytes r reads;
// path names it in errors and in the table.
func load(path string, r io.ReaderAt, fileSize int64, opt Options) (*Table, error) {
	f, err := elf.NewFile(r)
	if err != nil {
		return nil, &LoadError{Kind: ErrNotObject, Path: path, Err: err}
	}
	t, st, err := build(path, f, fileSize, opt)
	if err != nil {
		return nil, err
	}
	t.readFileData(f, opt, st.raws)
	if text := textSection(f); text != nil {
		// -l looks up every address of .text: a size no file holds
		// would take hours (gprof never finishes).
		if err := checkWalkable(f, text, fileSize); err != nil {
			t.textErr = fmt.Errorf("%s: %w", path, err)
		}
	}
	if opt.ExternalSymbols == "" {
		// -S's symbols come without debug information.
		var file *os.File
		if opt.MapDebugSections {
			file, _ = r.(*os.File)
		}
		t.readSources(f, file, st.forLines(f))
		if t.lines == nil && t.linesErr == nil {
			t.readSeparateSources(f, st.forLines(f), opt)
		}
	}
	return t, nil
}

// readFileData reads what the table's users need from the executable
// besides symbols and lines: the build ID, the file offset and (with
// opt.ReadText) the bytes of .text, and the addresses of the code symbols.
func (t *Table) readFileData(f *elf.File, opt Options, raws []rawSym) {
	t.buildID, t.buildIDErr = readBuildID(f, t.Path)
	text := textSection(f)
	if text != nil && text.Addr == t.TextLow {
		t.textOffset, t.textOffOK = text.Offset, true
		// A file of debug information alone (objcopy --only-keep-debug)
		// keeps .text's header but not its code.
		t.textHasCode = text.Type != elf.SHT_NOBITS
	}
	if opt.ReadText && text != nil {
		if b, err := text.Data(); err == nil {
			t.text = b
		}
	}
	t.CodeSymbolAddrs = codeSymbolAddrs(f, raws)
}

// textSection returns the executable's code section as gprof finds it:
// .text, or $CODE$.
func textSection(f *elf.File) *elf.Section {
	if s := f.Section(".text"); s != nil {
		return s
	}
	return f.Section("$CODE$")
}

// codeSymbolAddrs returns the addresses of the code symbols of f's
// .symtab, in .symtab order, or nil when debug/elf cannot read it. raws
// are the entries readSymtab read; they are used when debug/elf would read
// the same table (the usual case), so that it is not decoded again.
func codeSymbolAddrs(f *elf.File, raws []rawSym) []uint64 {
	isCode := func(info byte, shndx elf.SectionIndex) bool {
		switch elf.ST_TYPE(info) {
		case elf.STT_SECTION, elf.STT_FILE, elf.STT_OBJECT, elf.STT_TLS:
			return false
		}
		if shndx == elf.SHN_UNDEF || shndx >= elf.SHN_LORESERVE || int(shndx) >= len(f.Sections) {
			return false
		}
		return f.Sections[shndx].Flags&elf.SHF_EXECINSTR != 0
	}
	var out []uint64
	if sec := f.SectionByType(elf.SHT_SYMTAB); raws != nil && sec != nil && sec == f.Section(".symtab") &&
		sec.Size%symEntSize(f) == 0 && uint64(len(raws)) == sec.Size/symEntSize(f)-1 {
		for _, r := range raws {
			if isCode(r.info, elf.SectionIndex(r.shndx)) {
				out = append(out, r.value)
			}
		}
		return out
	}
	syms, err := f.Symbols()
	if err != nil {
		return nil
	}
	for _, s := range syms {
		if isCode(s.Info, s.Section) {
			out = append(out, s.Value)
		}
	}
	return out
}

// symEntSize is the size of a .symtab entry of f.
func symEntSize(f *elf.File) uint64 {
	if f.Class == elf.ELFCLASS32 {
		return 16
	}
	return 24
}

// build selects gprof's symbols from f.
func build(path string, f *elf.File, fileSize int64, opt Options) (*Table, symbolTable, error) {
	t := &Table{Path: path}
	t.Target.Order = f.ByteOrder
	t.Machine = f.Machine
	t.Target.AddrSize = 8
	if f.Class == elf.ELFCLASS32 {
		t.Target.AddrSize = 4
	}
	text := textSection(f)
	if text == nil {
		return nil, symbolTable{}, &LoadError{Kind: ErrNoText, Path: path}
	}
	t.TextLow = text.Addr
	t.TextEnd = text.Addr + text.Size - 1

	// gprof reads the symbol table, then the mapping, then picks its
	// symbols.
	st, err := readSymtab(f, fileSize)
	if err != nil {
		return nil, symbolTable{}, &LoadError{Kind: ErrBadSymtab, Path: path, Err: err}
	}
	raws, strtab := st.raws, st.names
	if opt.MapFile != "" {
		m, err := ReadFunctionMap(opt.MapFile)
		if err != nil {
			return nil, symbolTable{}, err
		}
		t.Mapping = m
	}
	if opt.ExternalSymbols != "" {
		t, err := t.useExternalSymbols(opt.ExternalSymbols)
		return t, st, err
	}

	// Room for exactly the symbols kept (the mapping below only drops
	// some): growing the list by doubling copied it, and room for every
	// entry is cleared, page by page, when the memory is reused.
	kept := 0
	for _, r := range raws {
		if _, ok := classify(f, r, strtab, opt); ok {
			kept++
		}
	}
	syms := make([]Symbol, 0, kept)
	objFile := "" // the STT_FILE entry that local symbols follow
	for _, r := range raws {
		if elf.ST_TYPE(r.info) == elf.STT_FILE {
			objFile = cString(strtab, r.nameOff)
		}
		static, ok := classify(f, r, strtab, opt)
		if !ok {
			continue
		}
		name := cString(strtab, r.nameOff)
		mapped := false
		if t.Mapping != nil {
			// A mapped function survives only from the first line of
			// its file, under the file's name.
			if file, first, found := t.Mapping.Lookup(name); found {
				if !first {
					continue
				}
				name, mapped = file, true
			}
		}
		syms = append(syms, Symbol{
			Name:     name,
			Addr:     r.value,
			IsFunc:   elf.ST_TYPE(r.info) == elf.STT_FUNC,
			IsStatic: static,
			Mapped:   mapped,
			ObjFile:  objFile,
			symIndex: r.index,
		})
	}
	if len(syms) == 0 {
		return nil, symbolTable{}, &LoadError{Kind: ErrNoSymbols, Path: path}
	}
	t.kept = make([]keptSym, len(syms))
	for i, s := range syms {
		t.kept[i] = keptSym{addr: s.Addr, symIndex: s.symIndex}
	}
	t.setSyms(finalize(syms, t.TextEnd))
	return t, st, nil
}

// symbolTable is the executable's .symtab as readSymtab read it: its
// entries decoded (raws, index 0 excluded), the section's bytes (entries)
// and those of its string table (names, section link).
type symbolTable struct {
	raws           []rawSym
	entries, names []byte
	link           uint32
}

// forLines returns the table for bfd.LoadWith when it is the one
// debug/elf's Symbols would read (the first SHT_SYMTAB section, with a
// string table linked other than by 0), so that the line information's
// symbols need not be read again; otherwise the zero RawSymbols.
func (st symbolTable) forLines(f *elf.File) bfd.RawSymbols {
	if st.entries == nil || st.link == 0 || f.SectionByType(elf.SHT_SYMTAB) != f.Section(".symtab") {
		return bfd.RawSymbols{}
	}
	return bfd.RawSymbols{Entries: st.entries, Names: st.names}
}

// readSymtab returns the .symtab entries and the bytes of their string
// table (see symbolTable). debug/elf's Symbols does not expose st_name offsets,
// which gprof's name filter needs (it can read past a name's NUL into the
// next string), so the entries are decoded here.
//
// A corrupt table is refused with an error naming the section, its file
// offset and the field at fault: a table or string table past the end of
// the file, a string table whose last byte is not a NUL, or a name offset
// past the string table's end (BFD reads such tables but names every
// symbol "(null)" or leaves them out).
func readSymtab(f *elf.File, fileSize int64) (symbolTable, error) {
	sec := f.Section(".symtab")
	if sec == nil || sec.Type != elf.SHT_SYMTAB {
		return symbolTable{}, nil
	}
	if err := checkInFile(f, sec, fileSize); err != nil {
		return symbolTable{}, err
	}
	data, err := sec.Data()
	if err != nil {
		return symbolTable{}, fmt.Errorf("reading .symtab: %w", err)
	}
	if int(sec.Link) >= len(f.Sections) {
		return symbolTable{}, fmt.Errorf(".symtab (file offset 0x%x): sh_link %d is not a section (there are %d)", sec.Offset, sec.Link, len(f.Sections))
	}
	strSec := f.Sections[sec.Link]
	if err := checkInFile(f, strSec, fileSize); err != nil {
		return symbolTable{}, err
	}
	strtab, err := strSec.Data()
	if err != nil {
		return symbolTable{}, fmt.Errorf("reading symbol string table: %w", err)
	}
	if len(strtab) == 0 || strtab[len(strtab)-1] != 0 {
		return symbolTable{}, fmt.Errorf("%s (section %d, file offset 0x%x, sh_size %d): the string table does not end with a NUL",
			strSec.Name, sec.Link, strSec.Offset, strSec.Size)
	}
	order := f.ByteOrder
	entSize := 24
	if f.Class == elf.ELFCLASS32 {
		entSize = 16
	}
	n := len(data) / entSize
	raws := make([]rawSym, 0, n)
	for i := 1; i < n; i++ {
		e := data[i*entSize : (i+1)*entSize]
		var r rawSym
		r.index = i
		r.nameOff = order.Uint32(e[0:4])
		if entSize == 24 {
			r.info = e[4]
			r.shndx = order.Uint16(e[6:8])
			r.value = order.Uint64(e[8:16])
		} else {
			r.value = uint64(order.Uint32(e[4:8]))
			r.info = e[12]
			r.shndx = order.Uint16(e[14:16])
		}
		if int64(r.nameOff) >= int64(len(strtab)) {
			return symbolTable{}, fmt.Errorf("symbol %d (file offset 0x%x): st_name 0x%x is past the end of %s (%d bytes)",
				i, sec.Offset+uint64(i*entSize), r.nameOff, strSec.Name, len(strtab))
		}
		raws = append(raws, r)
	}
	return symbolTable{raws: raws, entries: data, names: strtab, link: sec.Link}, nil
}

// checkInFile reports a section whose contents (sh_offset, sh_size) run
// past the end of the file, naming the section, its offset and size.
func checkInFile(f *elf.File, sec *elf.Section, fileSize int64) error {
	if sec.Type == elf.SHT_NOBITS || fileSize <= 0 {
		return nil
	}
	if sec.Offset > uint64(fileSize) || sec.Size > uint64(fileSize)-sec.Offset {
		return fmt.Errorf("%s (section %d): sh_offset 0x%x + sh_size 0x%x runs past the end of the file (%d bytes)",
			sec.Name, sectionIndex(f, sec), sec.Offset, sec.Size, fileSize)
	}
	return nil
}

// checkWalkable reports whether -l may walk every address of the code
// section sec: its bytes must lie in the file (checkInFile), and a section
// without contents (SHT_NOBITS, as in a file of debug information only)
// must not be larger than the file either, the bound a section with
// contents has.
func checkWalkable(f *elf.File, sec *elf.Section, fileSize int64) error {
	if sec.Type != elf.SHT_NOBITS {
		return checkInFile(f, sec, fileSize)
	}
	if fileSize > 0 && sec.Size > uint64(fileSize) {
		return fmt.Errorf("%s (section %d): a section without contents (SHT_NOBITS) whose sh_size 0x%x is larger than the file (%d bytes)",
			sec.Name, sectionIndex(f, sec), sec.Size, fileSize)
	}
	return nil
}

// sectionIndex returns the index of sec among f's sections.
func sectionIndex(f *elf.File, sec *elf.Section) int {
	for i, s := range f.Sections {
		if s == sec {
			return i
		}
	}
	return 0
}

func cString(tab []byte, off uint32) string {
	if int(off) >= len(tab) {
		return ""
	}
	s := tab[off:]
	for i, c := range s {
		if c == 0 {
			return string(s[:i])
		}
	}
	return string(s)
}

// classify applies gprof's symbol selection (nm class T, W or t, then the
// filters for local names). It reports whether the symbol is kept and
// whether gprof treats it as static.
func classify(f *elf.File, r rawSym, strtab []byte, opt Options) (static, keep bool) {
	typ := elf.ST_TYPE(r.info)
	bind := elf.ST_BIND(r.info)
	if typ == elf.STT_FILE || typ == elf.STT_SECTION {
		return false, false // debugging symbols
	}
	switch elf.SectionIndex(r.shndx) {
	case elf.SHN_UNDEF, elf.SHN_ABS, elf.SHN_COMMON:
		return false, false
	}
	if int(r.shndx) >= len(f.Sections) {
		return false, false
	}
	if opt.NoStatic && bind == elf.STB_LOCAL {
		return false, false
	}
	if typ == elf.STT_GNU_IFUNC {
		return false, false
	}
	sec := f.Sections[r.shndx]
	if bind == elf.STB_WEAK {
		// Weak non-objects count as global text wherever they live.
		return false, typ != elf.STT_OBJECT
	}
	if bind != elf.STB_GLOBAL && bind != elf.STB_LOCAL {
		return false, false // STB_GNU_UNIQUE and the rest
	}
	if sec.Flags&elf.SHF_EXECINSTR == 0 || peSectionClass(sec.Name) {
		return false, false
	}
	if bind == elf.STB_GLOBAL {
		return false, true
	}
	if !localNameOK(strtab, r.nameOff) {
		return true, false
	}
	name := cString(strtab, r.nameOff)
	if strings.HasPrefix(name, "__gnu_compiled") || strings.HasPrefix(name, "___gnu_compiled") {
		return true, false
	}
	if opt.IgnoreNonFunctions && typ != elf.STT_FUNC {
		return true, false
	}
	return true, true
}

// peSectionClass reports the section names BFD classifies by name before
// looking at flags (MSVC sections); symbols in them are never text.
func peSectionClass(name string) bool {
	for _, p := range []string{".drectve", ".edata", ".idata", ".pdata"} {
		if strings.HasPrefix(name, p) {
			rest := name[len(p):]
			if rest == "" || strings.ContainsRune(".$0123456789", rune(rest[0])) {
				return true
			}
		}
	}
	return false
}

// localNameOK is gprof's filter for static text names, run over the raw
// string table: no '$', and every '.' must be followed by digits (after an
// optional ".clone." or ".constprop." token). A name whose last component is
// ".digits" (or a bare '.') makes gprof's scanner step over the terminating
// NUL and judge the next string too; that is reproduced, because it decides
// whether clones such as "f.constprop.0" survive. The table is treated as if
// one more NUL followed it, as BFD arranges.
func localNameOK(tab []byte, off uint32) bool {
	at := func(i int) byte {
		if i >= len(tab) {
			return 0
		}
		return tab[i]
	}
	i := int(off)
	if at(i) == 0 {
		return false
	}
	for ; at(i) != 0; i++ {
		if at(i) == '$' {
			return false
		}
		for at(i) == '.' {
			digitSeen := false
			if hasTokenAt(tab, i, ".clone.") {
				i += len(".clone.") - 1
			} else if hasTokenAt(tab, i, ".constprop.") {
				i += len(".constprop.") - 1
			}
			for i++; at(i) != 0; i++ {
				if digitSeen && at(i) == '.' {
					break
				}
				if at(i) >= '0' && at(i) <= '9' {
					digitSeen = true
				} else {
					return false
				}
			}
		}
	}
	return true
}

// hasTokenAt reports whether tok starts at tab[i] and the NUL-terminated
// string there is longer than tok.
func hasTokenAt(tab []byte, i int, tok string) bool {
	end := i
	for end < len(tab) && tab[end] != 0 {
		end++
	}
	return end-i > len(tok) && string(tab[i:i+len(tok)]) == tok
}

// finalize sorts the symbols by address, keeps one symbol per address by
// gprof's preference rules and sets the end address of every symbol whose
// end is not known yet to the next symbol's address minus one (the last
// one's to the end of .text). A symbol that already has an end keeps it,
// and is dropped if that leaves its range empty: this matters when -l
// rebuilds the table, where function symbols overlap the line symbols
// inside them and data_start disappears.
func finalize(syms []Symbol, textEnd uint64) []Symbol {
	sortByAddr(syms)
	out := syms[:0]
	for i := range syms {
		s := syms[i]
		if len(out) > 0 && out[len(out)-1].Addr == s.Addr {
			if Prefer(&s, &out[len(out)-1]) {
				out[len(out)-1] = s
			}
			continue
		}
		if len(out) > 0 && !out[len(out)-1].hasEnd() {
			out[len(out)-1].End = s.Addr - 1
		}
		if s.hasEnd() && s.Addr > s.End {
			continue
		}
		out = append(out, s)
	}
	if len(out) > 0 && !out[len(out)-1].hasEnd() {
		out[len(out)-1].End = textEnd
	}
	return out
}

// hasEnd reports whether the symbol's end was set by an earlier
// finalisation (gprof uses 0 for "not set"; line symbols never have one).
func (s *Symbol) hasEnd() bool { return !s.IsLine && s.End != 0 }

// sortByAddr orders symbols as gprof does before merging aliases:
// ascending address, functions first, then globals first, otherwise in
// their current order.
func sortByAddr(syms []Symbol) {
	if slices.IsSortedFunc(syms, func(a, b Symbol) int { return addrCmp(&a, &b) }) {
		return
	}
	// Sort compact keys rather than the symbols themselves, then move
	// each symbol once. A key holds the address, then the rank AddrOrder
	// gives the kind (functions first, then globals first), then the
	// position: all keys differ, so an unstable sort of them orders the
	// symbols as a stable sort by AddrOrder would.
	type sortKey struct{ addr, rest uint64 }
	keys := make([]sortKey, len(syms))
	for i := range syms {
		s := &syms[i]
		rank := uint64(0)
		if !s.IsFunc {
			rank = 2
		}
		if s.IsStatic {
			rank++
		}
		keys[i] = sortKey{s.Addr, rank<<32 | uint64(i)}
	}
	slices.SortFunc(keys, func(a, b sortKey) int {
		if c := cmp.Compare(a.addr, b.addr); c != 0 {
			return c
		}
		return cmp.Compare(a.rest, b.rest)
	})
	// Position i takes the symbol at the position in keys[i]'s low bits:
	// follow each cycle of that permutation, moving every symbol once,
	// in place (a sorted copy would be one more array of symbols).
	const moved = 1 << 63
	for i := range keys {
		if keys[i].rest&moved != 0 {
			continue
		}
		first := syms[i]
		j := i
		for {
			from := int(uint32(keys[j].rest))
			keys[j].rest |= moved
			if from == i {
				syms[j] = first
				break
			}
			syms[j] = syms[from]
			j = from
		}
	}
}

// addrCmp is AddrOrder as a three-way comparison.
func addrCmp(a, b *Symbol) int {
	if AddrOrder(a, b) {
		return -1
	}
	if AddrOrder(b, a) {
		return 1
	}
	return 0
}

// AddrOrder is gprof's order of symbols before it merges aliases:
// ascending address, then functions first, then globals first.
func AddrOrder(a, b *Symbol) bool {
	if a.Addr != b.Addr {
		return a.Addr < b.Addr
	}
	if a.IsFunc != b.IsFunc {
		return a.IsFunc
	}
	return !a.IsStatic && b.IsStatic
}

// Prefer reports whether newcomer replaces the symbol kept so far at the
// same address: global over static, then function over non-function, then
// a name without a leading underscore (or with one underscore rather than
// two).
func Prefer(newcomer, kept *Symbol) bool {
	if !newcomer.IsStatic && kept.IsStatic {
		return true
	}
	if newcomer.IsStatic != kept.IsStatic {
		return false
	}
	if newcomer.IsFunc && !kept.IsFunc {
		return true
	}
	if newcomer.IsFunc != kept.IsFunc {
		return false
	}
	n, k := newcomer.Name, kept.Name
	nu := len(n) > 0 && n[0] == '_'
	ku := len(k) > 0 && k[0] == '_'
	if !nu && ku {
		return true
	}
	return nu && ku && len(n) > 1 && n[1] != '_' && len(k) > 1 && k[1] == '_'
}

// Lookup returns the index of the symbol whose range holds addr, or -1. It
// follows gprof's binary search, which matters only for the last symbol,
// whose range may be empty.
func (t *Table) Lookup(addr uint64) int {
	if t.index != nil && len(t.index.starts) == len(t.Syms) {
		return t.index.lookup(addr)
	}
	// The same search as LookupRanges, written out.
	syms := t.Syms
	lo, hi := 0, len(syms)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if syms[mid].Addr <= addr {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	i := lo - 1
	if i < 0 || addr > syms[i].End {
		return -1
	}
	return i
}

// LookupRanges is gprof's lookup over n address-sorted ranges given by at:
// the range with the greatest start not above addr, if addr is not past its
// end.
func LookupRanges(n int, at func(int) (lo, hi uint64), addr uint64) int {
	if n == 0 {
		return -1
	}
	i := sort.Search(n, func(i int) bool { lo, _ := at(i); return lo > addr }) - 1
	if i < 0 {
		return -1
	}
	_, hi := at(i)
	if addr > hi {
		return -1
	}
	return i
}

// TextBytes returns the contents of .text when Load was asked to read them
// (Options.ReadText), else nil.
func (t *Table) TextBytes() []byte {
	return t.text
}
