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
	out, r := demangle(name, style)
	return out, r == done
}

// demangle is Demangle with the reason of a failure. Names are C strings
// in libiberty: a NUL byte ends the name, and ends the result too (a Java
// name's "__U00_" escape prints one, and gprof prints up to it).
func demangle(name string, style Style) (string, result) {
	if i := strings.IndexByte(name, 0); i >= 0 {
		name = name[:i]
	}
	out, r := demangleStyle(name, style)
	if i := strings.IndexByte(out, 0); i >= 0 {
		out = out[:i]
	}
	return out, r
}

// demangleStyle runs the style's demanglers on a name.
func demangleStyle(name string, style Style) (string, result) {
	switch style {
	case None:
		return name, done
	case Auto:
		// Legacy Rust names are C++ names too: Rust first.
		if out, r := rustName(name); r != rejected {
			return out, r
		}
		return cxxName(name, 0)
	case GNUv3:
		return cxxName(name, 0)
	case Rust:
		return rustName(name)
	case Java:
		return cxxName(name, optJava|optRetPostfix)
	case GNAT:
		return gnatName(name), done
	case DLang:
		return dName(name)
	}
	return "", rejected
}
