package symtab

import (
	"fmt"
	"strings"

	"github.com/ianlancetaylor/demangle"
)

// DemangleStyle is a --demangle=STYLE setting.
type DemangleStyle int

// The demangling styles gprof accepts.
const (
	StyleAuto  DemangleStyle = iota // Rust first, then C++ (gprof's default)
	StyleNone                       // raw names
	StyleGNUv3                      // C++ only
	StyleRust                       // Rust only
	StyleJava                       // accepted; demangled as C++ (see ParseDemangleStyle)
	StyleGNAT                       // accepted; demangled as C++
	StyleDLang                      // accepted; names are left as they are
)

// ParseDemangleStyle maps a --demangle argument to a style. The java, gnat
// and dlang styles of libiberty are accepted for compatibility, but egprof
// does not reproduce their spelling; it demangles C++ names as usual.
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

// Demangle returns the printable form of a raw symbol name as gprof prints
// it: leading dots are kept aside, anything from the first '@' on (symbol
// versions) is put back after the demangled name, and a name that does not
// demangle is returned unchanged. The spelling is c++filt's without
// DMGL_VERBOSE (so std::string, not std::basic_string<...>).
func Demangle(name string, style DemangleStyle) string {
	if style == StyleNone || style == StyleDLang {
		return name
	}
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

func demangleCore(s string, style DemangleStyle) (string, bool) {
	if kind, rest, ok := globalCtorDtor(s); ok && style != StyleRust {
		if inner, ok := demangleCore(rest, style); ok {
			rest = inner
		}
		return kind + rest, true
	}
	var opts []demangle.Option
	switch style {
	case StyleRust:
		if !strings.HasPrefix(s, "_R") && !strings.HasPrefix(s, "_ZN") {
			return "", false
		}
	case StyleGNUv3, StyleJava, StyleGNAT:
		opts = append(opts, demangle.NoRust)
	}
	out, err := demangle.ToString(s, opts...)
	if err != nil {
		return "", false
	}
	return out, true
}

// globalCtorDtor recognises GCC's old "_GLOBAL_$I$name" constructor and
// destructor symbols, which libiberty spells "global constructors keyed to
// name". The demangle library keeps the "_I_" in the name, so this form is
// handled here.
func globalCtorDtor(s string) (kind, rest string, ok bool) {
	if len(s) < 11 || !strings.HasPrefix(s, "_GLOBAL_") || !strings.ContainsRune("._$", rune(s[8])) || s[10] != '_' {
		return "", "", false
	}
	switch s[9] {
	case 'I':
		return "global constructors keyed to ", s[11:], true
	case 'D':
		return "global destructors keyed to ", s[11:], true
	}
	return "", "", false
}
