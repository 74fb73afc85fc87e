package symtab

import (
	"strconv"
	"strings"
)

// Naming is how a function's name is spelled in egprof's own outputs (the
// impact table, differential call graph, rank and experiment tables, graph
// files, charts, pprof), following the options that name functions in
// gprof's sections: -T and --no-demangle print raw names, -L full source
// paths, --inline-file-names adds "(file:line)" to every name.
type Naming struct {
	Demangle        bool          // demangled names (gprof's default; off with -T or --no-demangle)
	Style           DemangleStyle // --demangle=STYLE
	FullPath        bool          // -L: whole source paths instead of their last element
	InlineFileNames bool          // --inline-file-names: "name (file:line)" wherever the source is known
}

// Named is a function to spell: its raw symbol name and, when known, its
// source position (for statics without DWARF, the file of the STT_FILE
// entry it follows, with line 0).
type Named struct {
	Raw    string
	Src    SourceLoc
	HasSrc bool
	Static bool
}

// Base is the function's name without any file: raw or demangled.
func (n Naming) Base(raw string) string {
	var d Demangler
	return n.base(&d, raw)
}

// base is Base demangling with d.
func (n Naming) base(d *Demangler, raw string) string {
	if n.Demangle {
		return d.Demangle(raw, n.Style)
	}
	return raw
}

// File spells a source path: whole with -L, else its last element.
func (n Naming) File(path string) string {
	if n.FullPath {
		return path
	}
	if k := strings.LastIndexByte(path, '/'); k >= 0 {
		return path[k+1:]
	}
	return path
}

// Labels spells a set of functions shown together. Each is its base name;
// with --inline-file-names, followed by " (file:line)" where the source is
// known; otherwise a static function whose base name another function of the
// set shares is followed by " (file)", as gprof's index tells same-named
// statics apart ("swap (helper.c)").
func (n Naming) Labels(fns []Named) []string {
	labels := make([]string, len(fns))
	count := make(map[string]int, len(fns))
	var d Demangler
	for i, f := range fns {
		labels[i] = n.base(&d, f.Raw)
		count[labels[i]]++
	}
	for i, f := range fns {
		switch {
		case !f.HasSrc || f.Src.File == "":
		case n.InlineFileNames && f.Src.Line > 0:
			labels[i] += " (" + n.File(f.Src.File) + ":" + strconv.Itoa(f.Src.Line) + ")"
		case count[labels[i]] > 1 && f.Static:
			labels[i] += " (" + n.File(f.Src.File) + ")"
		}
	}
	return labels
}

// Source returns what tells symbol i apart from same-named ones: its DWARF
// source position, or for a static function without one, the file of the
// STT_FILE entry it follows.
func (t *Table) Source(i int) (SourceLoc, bool) {
	if loc, ok := t.SymbolSource(i); ok {
		return loc, true
	}
	if f := t.Syms[i].ObjFile; f != "" && t.Syms[i].IsStatic {
		return SourceLoc{File: f}, true
	}
	return SourceLoc{}, false
}
