package symtab

import (
	"fmt"
	"strings"

	"github.com/egprof/egprof/symtab/internal/demangle"
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
	StyleJava                       // GCJ's Java names ("_Z...", Java's spelling)
	StyleGNAT                       // Ada (GNAT) names; others print as "<name>"
	StyleDLang                      // D names ("_D...")
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
// name the style's demangler rejects (or finds too large: see package
// symtab/internal/demangle) is returned unchanged. ELF has no symbol
// leading character, so a leading '_' is part of the mangled name. Names
// are C strings to gprof: a NUL byte ends one.
func Demangle(name string, style DemangleStyle) string {
	var d Demangler
	return d.Demangle(name, style)
}

// Demangler demangles names as Demangle does, keeping its working storage
// from one name to the next: a program's names demangled one after the
// other then cost little more memory than their results (a C++ name
// otherwise takes a few KB of fresh memory). The zero value is ready to
// use; a Demangler must not be used by several goroutines at once.
type Demangler struct {
	d demangle.Demangler
}

// Demangle is the package's Demangle, reusing d's storage.
func (d *Demangler) Demangle(name string, style DemangleStyle) string {
	if i := strings.IndexByte(name, 0); i >= 0 {
		name = name[:i]
	}
	core := strings.TrimLeft(name, ".$")
	prefix := name[:len(name)-len(core)]
	suffix := ""
	if at := strings.IndexByte(core, '@'); at >= 0 {
		core, suffix = core[:at], core[at:]
	}
	out, ok := d.core(core, style)
	if !ok {
		return name
	}
	return prefix + out + suffix
}

// libibertyStyles maps each style to the internal demangler's.
var libibertyStyles = [...]demangle.Style{
	StyleAuto:  demangle.Auto,
	StyleNone:  demangle.None,
	StyleGNUv3: demangle.GNUv3,
	StyleRust:  demangle.Rust,
	StyleJava:  demangle.Java,
	StyleGNAT:  demangle.GNAT,
	StyleDLang: demangle.DLang,
}

// core runs libiberty's cplus_demangle for one style on a name without
// prefix or suffix; ok is false when it returns NULL (see
// demangle.Demangle).
func (d *Demangler) core(s string, style DemangleStyle) (string, bool) {
	if style < 0 || int(style) >= len(libibertyStyles) {
		return "", false
	}
	return d.d.Demangle(s, libibertyStyles[style])
}
