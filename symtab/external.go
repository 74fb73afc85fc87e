package symtab

import (
	"io"
	"math"
	"os"
)

// fgetsSize is the most bytes gprof's line reader returns at once: its
// buffer holds 1024 bytes and it asks fgets for one less than 1023.
const fgetsSize = 1022

// useExternalSymbols replaces the executable's symbols by those of an
// nm-style symbol file (gprof -S, --external-symbol-table). Only lines of
// type t and T count; no name filter applies, every entry is a function,
// and no debug information is used.
func (t *Table) useExternalSymbols(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &MapError{Kind: MapOpen, Path: path, Err: err}
	}
	defer f.Close()
	// gprof stops at a read error and uses what it read so far; a
	// directory therefore has no symbols.
	data, _ := io.ReadAll(f)
	syms := ParseExternalSymbols(data)
	if len(syms) == 0 {
		return nil, &LoadError{Kind: ErrNoSymbols, Path: path}
	}
	t.kept = nil // no source files or lines
	t.setSyms(finalize(syms, t.TextEnd))
	return t, nil
}

// ParseExternalSymbols reads the symbols of an nm-style file, in file
// order, as gprof does: each piece of at most 1022 bytes that fgets returns
// (a line, or part of a long one) is scanned as "ADDRESS TYPE NAME" with
// sscanf's "%s %c %s", and kept when TYPE is 't' (static) or 'T'. ADDRESS
// is read as hexadecimal, as "%lx" reads it.
//
// When ADDRESS is not a number, gprof leaves its variable unset, which in
// practice keeps the previous line's address; that is what is used here
// (0 for the first line).
func ParseExternalSymbols(data []byte) []Symbol {
	var syms []Symbol
	var addr uint64
	for len(data) > 0 {
		n := min(len(data), fgetsSize)
		for i, c := range data[:n] {
			if c == '\n' {
				n = i + 1
				break
			}
		}
		chunk := data[:n]
		data = data[n:]
		addrWord, typ, name, ok := scanSymbolLine(cString(chunk, 0))
		if !ok || (typ != 't' && typ != 'T') {
			continue
		}
		if v, ok := parseHexAddr(addrWord); ok {
			addr = v
		}
		syms = append(syms, Symbol{
			Name:     name,
			Addr:     addr,
			IsFunc:   true,
			IsStatic: typ == 't',
			symIndex: -1,
		})
	}
	return syms
}

// scanSymbolLine is sscanf(line, "%s %c %s"): a word, the next
// non-blank byte, and the word after it.
func scanSymbolLine(line string) (addr string, typ byte, name string, ok bool) {
	i := 0
	word := func() string {
		for i < len(line) && isCSpace(line[i]) {
			i++
		}
		start := i
		for i < len(line) && !isCSpace(line[i]) {
			i++
		}
		return line[start:i]
	}
	if addr = word(); addr == "" {
		return "", 0, "", false
	}
	for i < len(line) && isCSpace(line[i]) {
		i++
	}
	if i >= len(line) {
		return "", 0, "", false
	}
	typ = line[i]
	i++
	if name = word(); name == "" {
		return "", 0, "", false
	}
	return addr, typ, name, true
}

// parseHexAddr reads a number as scanf's "%lx" does: an optional sign, an
// optional 0x or 0X after a leading 0, and hexadecimal digits. A value too
// large for 64 bits reads as the largest one; a minus sign negates modulo
// 2^64. It reports false when no digit starts the word.
func parseHexAddr(s string) (uint64, bool) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	digits := 0
	if i < len(s) && s[i] == '0' {
		digits++
		i++
		if i < len(s) && (s[i] == 'x' || s[i] == 'X') {
			i++
		}
	}
	var v uint64
	overflow := false
	for ; i < len(s); i++ {
		d, ok := hexDigit(s[i])
		if !ok {
			break
		}
		digits++
		if v > math.MaxUint64>>4 {
			overflow = true
		}
		v = v<<4 | uint64(d)
	}
	switch {
	case digits == 0:
		return 0, false
	case overflow:
		return math.MaxUint64, true
	case neg:
		return -v, true
	}
	return v, true
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
