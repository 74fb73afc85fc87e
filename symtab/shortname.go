package symtab

import "strings"

// ShortName is the name a graph box or a chart shows: C++ template arguments and
// parameter lists left out ("std::vector<int>::push_back(int const&)"
// becomes "std::vector::push_back"), as pprof's and gprof2dot's short
// names do, so that boxes stay narrow; the full name stays in the tooltip
// and in the GML file. A file or number egprof added after a space
// ("swap (a.c)", "f #2") is kept, and so are operator names.
func ShortName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	angle, paren := 0, 0 // depths of what is being left out
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case angle > 0:
			switch c {
			case '<':
				angle++
			case '>':
				angle--
			}
		case paren > 0:
			switch c {
			case '(':
				paren++
			case ')':
				paren--
			}
		case strings.HasSuffix(b.String(), "operator") && (operatorChar(c) || c == '(' || c == '['):
			// The operator's own characters: "operator<<", "operator()",
			// then perhaps its template arguments after a space.
			switch {
			case strings.HasPrefix(s[i:], "()"), strings.HasPrefix(s[i:], "[]"):
				b.WriteString(s[i : i+2])
				i++
			default:
				for ; i < len(s) && operatorChar(s[i]); i++ {
					b.WriteByte(s[i])
				}
				i--
			}
			if strings.HasPrefix(s[i+1:], " <") {
				i += 2
				angle = 1
			}
		case c == '<' && i > 0 && identChar(s[i-1]):
			angle = 1
		case c == '(' && i > 0 && (identChar(s[i-1]) || operatorChar(s[i-1]) || s[i-1] == ')' || s[i-1] == ']'):
			paren = 1
		default:
			b.WriteByte(c)
		}
	}
	if angle > 0 || paren > 0 {
		return s // unbalanced: not a name this knows how to shorten
	}
	return b.String()
}

// identChar reports whether c can end an identifier.
func identChar(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// operatorChar reports whether c can be part of a C++ operator's symbol
// after the word operator ("()" and "[]" are taken whole).
func operatorChar(c byte) bool {
	return strings.IndexByte("<>=!+-*/%^&|~,", c) >= 0
}
