package demangle

import "strings"

// cxxName demangles an Itanium C++ ABI name ("_Z...", or GCC's
// "_GLOBAL_[._$][ID]_..." constructor and destructor keys) as libiberty's
// cplus_demangle_v3 does with DMGL_PARAMS | DMGL_ANSI, gprof's flags, or,
// with optJava|optRetPostfix, as its java_demangle_v3 does: the C++
// grammar printed with '.' for "::", no '*', JArray<T> as T[] and return
// types after the parameters.
func cxxName(s string, o printOpts, sc *scratch) (string, result) {
	const (
		mangled = iota
		globalCtors
		globalDtors
	)
	form := mangled
	switch {
	case strings.HasPrefix(s, "_Z"):
	case len(s) >= 11 && strings.HasPrefix(s, "_GLOBAL_") && strings.IndexByte("._$", s[8]) >= 0 &&
		(s[9] == 'I' || s[9] == 'D') && s[10] == '_':
		form = globalCtors
		if s[9] == 'D' {
			form = globalDtors
		}
	default:
		return "", rejected
	}
	if len(s) > maxCXXName {
		return "", rejected
	}
	unresolved := int8(1)
	for {
		// A retry's parser reuses the first attempt's storage: nothing
		// of that attempt is kept.
		p := &cxxParser{
			s:          s,
			java:       o&optJava != 0,
			maxNodes:   2 * len(s),
			maxSubs:    len(s),
			subs:       sc.subs[:0],
			unresolved: unresolved,
		}
		// Real names use about a node for every four bytes: the first
		// block of nodes is sized for that, and kept for the next names
		// (a name that needs more takes further blocks of its own).
		if cap(sc.slab) < len(s)/4+8 {
			sc.slab = make([]node, 0, len(s)/4+8)
		}
		p.slab = sc.slab[:0]
		if cap(p.subs) < len(s)/8+4 {
			p.subs = make([]*node, 0, len(s)/8+4)
		}
		var root *node
		switch form {
		case mangled:
			root = p.mangledName(true)
		default:
			// The rest is a C++ name if it starts with "_Z", a plain
			// name otherwise; anything after a C++ name is ignored.
			p.pos = 11
			var inner *node
			if p.peek() == '_' && p.peekNext() == 'Z' {
				p.skip(2)
				inner = p.encoding(false)
			} else {
				inner = p.makeName(p.rest())
			}
			k := kGlobalConstructors
			if form == globalDtors {
				k = kGlobalDestructors
			}
			root = p.comp(k, inner, nil)
			p.pos = len(s)
		}
		if !p.atEnd() {
			root = nil
		}
		if root == nil && p.unresolved == -1 {
			// Read it again with the old unresolved-name grammar.
			unresolved = 0
			continue
		}
		if root == nil {
			return "", rejected
		}
		sc.subs = p.subs
		return printTree(o, root, len(s), sc)
	}
}
