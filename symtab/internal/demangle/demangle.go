package demangle

import "strings"

// Style is one of libiberty's demangling styles (gprof's --demangle=STYLE).
type Style int

// The styles, by libiberty's names.
const (
	Auto  Style = iota // "auto": Rust first, then C++ (gprof's default)
	None               // "none": names as they are
	GNUv3              // "gnu-v3": C++ only
	Rust               // "rust": Rust only
	Java               // "java": GCJ's Java names
	GNAT               // "gnat": Ada names; others in angle brackets
	DLang              // "dlang": D names
)

// result is how demangling a name ended.
type result uint8

const (
	done     result = iota // demangled
	rejected               // not a name of the style: libiberty returns NULL
	tooLarge               // needs more output or work than egprof allows
)

// Demangle demangles a name as libiberty's cplus_demangle does under the
// style with gprof's flags (DMGL_PARAMS | DMGL_ANSI); ok is false where it
// returns NULL, and where the name needs more than MaxOutput bytes or
// egprof's bound on work (where libiberty goes on, for a long time).
func Demangle(name string, style Style) (string, bool) {
	var d Demangler
	return d.Demangle(name, style)
}

// Demangler demangles names as Demangle does, keeping its working storage
// (the C++ parser's nodes and substitutions, the printer's buffers) from
// one name to the next: demangling a program's symbols one after the
// other then allocates little more than the results, where each name
// would otherwise take a few KB of fresh memory. The zero value is ready
// to use; a Demangler must not be used by several goroutines at once.
type Demangler struct {
	sc scratch
}

// Demangle is the package's Demangle, reusing d's storage.
func (d *Demangler) Demangle(name string, style Style) (string, bool) {
	out, r := demangle(name, style, &d.sc)
	return out, r == done
}

// scratch is the storage a Demangler reuses. Nothing in it outlives the
// demangling of one name: the results are copied out of it.
type scratch struct {
	slab  []node  // the parser's nodes
	subs  []*node // the parser's substitution table
	out   []byte  // the printer's output
	stack []*node // the printer's stack of nodes
}

// demangle is Demangle with the reason of a failure, using sc's storage.
// Names are C strings in libiberty: a NUL byte ends the name, and ends the
// result too (a Java name's "__U00_" escape prints one, and gprof prints up
// to it).
func demangle(name string, style Style, sc *scratch) (string, result) {
	if i := strings.IndexByte(name, 0); i >= 0 {
		name = name[:i]
	}
	out, r := demangleStyle(name, style, sc)
	if i := strings.IndexByte(out, 0); i >= 0 {
		out = out[:i]
	}
	return out, r
}

// demangleStyle runs the style's demanglers on a name.
func demangleStyle(name string, style Style, sc *scratch) (string, result) {
	switch style {
	case None:
		return name, done
	case Auto:
		// Legacy Rust names are C++ names too: Rust first.
		if out, r := rustName(name); r != rejected {
			return out, r
		}
		return cxxName(name, 0, sc)
	case GNUv3:
		return cxxName(name, 0, sc)
	case Rust:
		return rustName(name)
	case Java:
		return cxxName(name, optJava|optRetPostfix, sc)
	case GNAT:
		return gnatName(name), done
	case DLang:
		return dName(name)
	}
	return "", rejected
}
