package symtab

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// FunctionMap is the function-to-object-file mapping of gprof's -R
// (--file-ordering). It is read from lines of the form "FILE:...NAME", as
// "nm -A *.o" prints them: FILE is the text before the first colon and NAME
// the last space-separated word of the line.
//
// The mapping changes the symbol table: a symbol whose name the mapping
// knows is kept only when the line that names it is the first line of its
// file's group, and it is then renamed to the file name; every other mapped
// symbol is dropped, so its samples and calls fall to the symbol before it.
type FunctionMap struct {
	// entries are sorted by function name, ties in file order, the way
	// gprof sorts its table before searching it.
	entries []mapEntry
}

// mapEntry is one line of a mapping file.
type mapEntry struct {
	function string
	file     string
	// first marks the line that starts a run of lines naming the same
	// file.
	first bool
}

// MapErrorKind tells why a mapping file cannot be used.
type MapErrorKind int

// The ways a mapping (or external symbol) file can be unusable.
const (
	// MapOpen: the file cannot be opened (gprof's wording).
	MapOpen MapErrorKind = iota
	// MapParse: a line has no colon, starts with one, or ends at its file
	// name (gprof's wording).
	MapParse
	// MapEmpty: the file is empty. gprof crashes on such a file.
	MapEmpty
	// MapNoFunction: a line has nothing after its file name that gprof
	// could take as a function name. gprof crashes on such a line.
	MapNoFunction
	// MapRead: the file opened but could not be read (a directory, say).
	// gprof never finishes reading such a file.
	MapRead
)

// MapError reports a -R mapping file (or, for MapOpen, a -S symbol file)
// that cannot be used. The messages of MapOpen and MapParse are gprof's.
type MapError struct {
	Kind MapErrorKind
	Path string
	Line int   // 1-based line of the problem, for MapNoFunction
	Err  error // the underlying cause, if any
}

func (e *MapError) Error() string {
	switch e.Kind {
	case MapOpen:
		return fmt.Sprintf("could not open %s.", e.Path)
	case MapParse:
		return fmt.Sprintf("unable to parse mapping file %s.", e.Path)
	case MapEmpty:
		return fmt.Sprintf("mapping file %s is empty", e.Path)
	case MapNoFunction:
		return fmt.Sprintf("unable to parse mapping file %s: line %d has no space before a function name", e.Path, e.Line)
	default:
		return fmt.Sprintf("could not read mapping file %s: %v", e.Path, e.Err)
	}
}

func (e *MapError) Unwrap() error { return e.Err }

// ReadFunctionMap reads a -R mapping file.
func ReadFunctionMap(path string) (*FunctionMap, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &MapError{Kind: MapOpen, Path: path, Err: err}
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, &MapError{Kind: MapRead, Path: path, Err: fmt.Errorf("reading: %w", err)}
	}
	return ParseFunctionMap(data, path)
}

// errMapSyntax is the cause inside a MapParse error.
var errMapSyntax = errors.New("mapping line without a colon-separated function")

// ParseFunctionMap parses the contents of a mapping file; path is used in
// error messages only.
//
// gprof reads the file with two fscanf conversions per line, "%1023[^\n:]"
// and "%1023[^\n]\n", and the reader below follows those conversions
// character by character: a field stops after 1023 bytes (the rest of the
// line is then read as a further entry), the trailing "\n" skips every kind
// of white space including blank lines and leading blanks of the next line,
// a line whose file part starts with "No symbols in " is skipped without
// reading its rest, and strings end at a NUL byte.
func ParseFunctionMap(data []byte, path string) (*FunctionMap, error) {
	if len(data) == 0 {
		return nil, &MapError{Kind: MapEmpty, Path: path}
	}
	sc := fieldScanner{data: data}
	var (
		entries    []mapEntry
		field      []byte // the conversion buffer, kept when a conversion fails at end of input
		noFuncLine int
	)
	for !sc.eof {
		start := sc.pos
		if sc.scanUntil("\n:", &field) == 0 {
			return nil, &MapError{Kind: MapParse, Path: path, Err: errMapSyntax}
		}
		file := cString(field, 0)
		if len(file) >= 14 && file[:14] == "No symbols in " {
			sc.skipSpace()
			continue
		}
		if sc.scanUntil("\n", &field) == 0 {
			return nil, &MapError{Kind: MapParse, Path: path, Err: errMapSyntax}
		}
		sc.skipSpace()
		rest := cString(field, 0)
		sp := strings.LastIndexByte(rest, ' ')
		if sp < 0 {
			if noFuncLine == 0 {
				noFuncLine = 1 + bytes.Count(data[:start], []byte{'\n'})
			}
			continue
		}
		entries = append(entries, mapEntry{function: rest[sp+1:], file: file})
	}
	if noFuncLine != 0 {
		return nil, &MapError{Kind: MapNoFunction, Path: path, Line: noFuncLine}
	}
	for i := range entries {
		entries[i].first = i == 0 || entries[i].file != entries[i-1].file
	}
	sort.SliceStable(entries, func(a, b int) bool { return entries[a].function < entries[b].function })
	return &FunctionMap{entries: entries}, nil
}

// Lookup finds a function in the mapping the way glibc's bsearch does over
// gprof's sorted table: when several lines name the function, the one the
// binary search meets first is the answer. It returns that line's file,
// whether the line starts its file's group, and whether the name was found.
func (m *FunctionMap) Lookup(name string) (file string, first, found bool) {
	lo, hi := 0, len(m.entries)
	for lo < hi {
		mid := (lo + hi) / 2
		e := &m.entries[mid]
		switch {
		case name < e.function:
			hi = mid
		case name > e.function:
			lo = mid + 1
		default:
			return e.file, e.first, true
		}
	}
	return "", false, false
}

// FileNames returns the file name of every mapping line, sorted by name
// (duplicates included).
func (m *FunctionMap) FileNames() []string {
	names := make([]string, len(m.entries))
	for i, e := range m.entries {
		names[i] = e.file
	}
	sort.Strings(names)
	return names
}

// Len is the number of mapping lines (lines about files without symbols
// excluded).
func (m *FunctionMap) Len() int { return len(m.entries) }

// fieldScanner reads a byte slice the way glibc's fscanf reads a stream,
// for the few directives gprof's readers use. eof is the stream's
// end-of-file indicator: it is set by the first attempt to read past the
// end, not by reaching the end.
type fieldScanner struct {
	data []byte
	pos  int
	eof  bool
}

// scanUntil is the conversion "%1023[^stop]". It returns 1 and sets *field
// when at least one byte was read, 0 when the next byte is a stop byte, and
// -1 at end of input (leaving *field as it was).
func (s *fieldScanner) scanUntil(stop string, field *[]byte) int {
	if s.pos >= len(s.data) {
		s.eof = true
		return -1
	}
	start := s.pos
	for s.pos-start < 1023 {
		if s.pos >= len(s.data) {
			s.eof = true
			break
		}
		if strings.IndexByte(stop, s.data[s.pos]) >= 0 {
			break
		}
		s.pos++
	}
	if s.pos == start {
		return 0
	}
	*field = s.data[start:s.pos]
	return 1
}

// skipSpace is a white-space directive: it consumes every white-space byte
// and peeks at the byte after them.
func (s *fieldScanner) skipSpace() {
	for s.pos < len(s.data) && isCSpace(s.data[s.pos]) {
		s.pos++
	}
	if s.pos >= len(s.data) {
		s.eof = true
	}
}

// isCSpace is C's isspace for the bytes gprof's readers see.
func isCSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		return true
	}
	return false
}
