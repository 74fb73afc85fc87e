package symtab

import (
	"fmt"
	"strings"

	"github.com/ianlancetaylor/demangle"

	cxx "github.com/egprof/egprof/symtab/internal/demangle"
)

// DemangleStyle is a --demangle=STYLE setting: which of libiberty's
// demanglers gprof runs on every name.
type DemangleStyle int

// The demangling styles gprof accepts (libiberty's style names).
const (
	StyleAuto  DemangleStyle = iota // Rust first, then C++ (gprof's default)
	StyleNone                       // raw names
	StyleGNUv3                      // C++ only
	StyleRust                       // Rust only
	StyleJava                       // GCJ's Java names (spelt here as C++; see demangleCore)
	StyleGNAT                       // Ada (GNAT) names; others print as "<name>"
	StyleDLang                      // D names (left raw here; see demangleCore)
)

// ParseDemangleStyle maps a --demangle argument to a style. The names are
// libiberty's: none, auto, gnu-v3, java, gnat, dlang and rust.
func ParseDemangleStyle(s string) (DemangleStyle, error) {
	switch s {
	case "auto":
		return StyleAuto, nil
	case "none":
		return StyleNone, nil
	case "gnu-v3":
		return StyleGNUv3, nil
	case "rust":
		return StyleRust, nil
	case "java":
		return StyleJava, nil
	case "gnat":
		return StyleGNAT, nil
	case "dlang":
		return StyleDLang, nil
	}
	return StyleAuto, fmt.Errorf("unknown demangling style `%s'", s)
}

// Demangle returns a raw symbol name as gprof prints it with demangling on
// (BFD's bfd_demangle with DMGL_ANSI | DMGL_PARAMS): leading '.' and '$'
// characters are set aside, anything from the first '@' on (a symbol
// version, "@plt") is cut off and put back after the demangled name, and a
// name the style's demangler rejects is returned unchanged. ELF has no
// symbol leading character, so a leading '_' is part of the mangled name.
func Demangle(name string, style DemangleStyle) string {
	core := strings.TrimLeft(name, ".$")
	prefix := name[:len(name)-len(core)]
	suffix := ""
	if at := strings.IndexByte(core, '@'); at >= 0 {
		core, suffix = core[:at], core[at:]
	}
	out, ok := demangleCore(core, style)
	if !ok {
		return name
	}
	return prefix + out + suffix
}

// demangleCore runs libiberty's cplus_demangle for one style on a name
// without prefix or suffix; ok is false when it returns NULL.
//
// Two styles are not reproduced. java prints C++ names with Java's
// spelling ('.' for "::", no '*', "JArray<T>" as "T[]", return types
// last); GCJ is gone, so egprof demangles such names as C++. dlang
// demangles D's "_D..." names, which egprof leaves raw; every other name is
// raw under dlang in gprof too.
func demangleCore(s string, style DemangleStyle) (string, bool) {
	switch style {
	case StyleNone:
		return s, true
	case StyleAuto:
		if out, ok := demangleRust(s); ok {
			return out, true
		}
		return cxx.CXX(s)
	case StyleGNUv3:
		return cxx.CXX(s)
	case StyleJava:
		return cxx.Java(s)
	case StyleRust:
		return demangleRust(s)
	case StyleGNAT:
		return cxx.GNAT(s), true
	}
	return "", false
}

// demangleRust demangles a Rust name, v0 ("_R...") or legacy ("_ZN...E"
// ending in a "17h" hash), as libiberty's rust_demangle does; ok is false
// for anything else, C++ names included.
func demangleRust(s string) (string, bool) {
	switch {
	case strings.HasPrefix(s, "_R"):
		out, err := demangle.ToString(s)
		return out, err == nil
	case strings.HasPrefix(s, "_ZN"):
		// The library reads a legacy Rust name as C++ when it is not
		// valid Rust; the C++ reading keeps the hash, the Rust one drops it.
		out, err := demangle.ToString(s)
		if err != nil {
			return "", false
		}
		if cxx, err := demangle.ToString(s, demangle.NoRust); err == nil && cxx == out {
			return "", false
		}
		return out, true
	}
	return "", false
}
