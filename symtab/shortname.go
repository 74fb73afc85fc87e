package symtab

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// ShortName is the name a graph box or a chart shows: C++ template arguments,
// parameter lists, the return type of a template function and the const
// and reference qualifiers of a method left out ("bool
// std::vector<int>::empty() const" becomes "std::vector::empty"), as
// pprof's and gprof2dot's short names do, so that boxes stay narrow; the
// full name stays in the tooltip and in the GML file. A file or number
// egprof added after a space ("swap (a.c)", "f #2") is kept, and so are
// operator names.
func ShortName(s string) string { return shorten(s, templatesNone) }

// templateDetail is how much of a name's template arguments a box shows.
type templateDetail int

const (
	templatesNone  templateDetail = iota // "std::map::find"
	templatesFirst                       // "std::map<Edge*>::find": the first argument, its own arguments left out
	templatesAll                         // "std::map<Edge*, int, std::less<Edge*>, ...>::find"
)

// shorten is ShortName, showing as much of the template arguments as
// detail says.
func shorten(s string, detail templateDetail) string {
	stripped := stripArguments(s, detail)
	if stripped == s && !strings.Contains(s, " ") {
		return s
	}
	// egprof's suffix, then the qualifiers, then the return type.
	name, suffix := stripped, ""
	if i := strings.LastIndex(name, " #"); i > 0 && isDigits(name[i+2:]) {
		name, suffix = name[:i], name[i:]
	}
	if i := strings.LastIndex(name, " ("); i > 0 && strings.HasSuffix(name, ")") && !strings.ContainsAny(name[i+2:len(name)-1], "()") {
		name, suffix = name[:i], name[i:]+suffix
	}
	for _, q := range []string{" const", " volatile", " &&", " &"} {
		name = strings.TrimSuffix(name, q)
	}
	return dropReturnType(name) + suffix
}

// dropReturnType leaves out what comes before the name at the outermost
// level (outside brackets and template arguments): the return type a
// template function's demangled name starts with ("void std::sort" is
// "std::sort"). An operator's name may hold a space
// ("operator new", "Foo::operator int"), so the name then starts at the
// word holding "operator".
func dropReturnType(s string) string {
	end := len(s)
	if i := operatorWord(s); i >= 0 {
		end = i
	}
	depth, start := 0, 0
	for i := 0; i < end; i++ {
		switch s[i] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			depth--
		case ' ':
			if depth == 0 {
				start = i + 1
			}
		}
	}
	return s[start:]
}

// operatorWord returns where the word "operator" starts in s, or -1.
func operatorWord(s string) int {
	for i := 0; ; {
		k := strings.Index(s[i:], "operator")
		if k < 0 {
			return -1
		}
		k += i
		end := k + len("operator")
		if (k == 0 || !identChar(s[k-1])) && (end == len(s) || !identChar(s[end])) {
			return k
		}
		i = end
	}
}

func isDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// cppOperators are the symbols of C++'s overloadable operators ("()" and
// "[]" aside), the longest first among those sharing a start.
var cppOperators = []string{
	"<=>", "<<=", ">>=", "->*", "->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--",
	"+=", "-=", "*=", "/=", "%=", "^=", "&=", "|=",
	"+", "-", "*", "/", "%", "^", "&", "|", "~", "!", "=", "<", ">", ",",
}

// operatorToken is the operator symbol s starts with ("!=" in "!=<int>").
func operatorToken(s string) string {
	for _, op := range cppOperators {
		if strings.HasPrefix(s, op) {
			return op
		}
	}
	return ""
}

// BoxNames are the names the boxes of a picture show, parallel to names:
// their short names, except where two would read the same
// ("step<float>" and "step<double>" both "step"); those show the first
// of their template arguments, then all of them, and where that does not
// tell them apart either (overloads), their whole names.
func BoxNames(names []string) []string {
	boxes := make([]string, len(names))
	for i, n := range names {
		boxes[i] = ShortName(n)
	}
	for _, detail := range []templateDetail{templatesFirst, templatesAll, templatesAll + 1} {
		count := map[string]int{}
		for _, b := range boxes {
			count[b]++
		}
		for i, b := range boxes {
			if count[b] > 1 {
				if detail <= templatesAll {
					boxes[i] = shorten(names[i], detail)
				} else {
					boxes[i] = names[i]
				}
			}
		}
	}
	return boxes
}

// stripArguments leaves out parameter lists and as much of the template
// arguments as detail says.
func stripArguments(s string, detail templateDetail) string {
	var b strings.Builder
	b.Grow(len(s))
	angle, paren := 0, 0 // depths of what is being left out
	keepTemplates := detail != templatesNone
	// template writes the template arguments that start at s[i] (all of
	// them, or the first without its own arguments) and returns the index
	// of their closing '>'.
	template := func(i int) int {
		depth, end := 0, len(s)-1
		var first strings.Builder
		firstDone := false
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '<':
				depth++
			case '>':
				depth--
			case ',':
				firstDone = firstDone || depth == 1
			}
			if depth == 1 && !firstDone && j > i && s[j] != '>' && (s[j-1] != '>' || s[j] != ' ') {
				first.WriteByte(s[j])
			}
			if depth == 0 {
				end = j
				break
			}
		}
		if detail == templatesAll {
			b.WriteString(s[i : end+1])
		} else {
			b.WriteString("<" + strings.TrimSpace(first.String()) + ">")
		}
		return end
	}
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
				op := operatorToken(s[i:])
				if op == "" {
					op = s[i : i+1]
				}
				b.WriteString(op)
				i += len(op) - 1
			}
			switch {
			case keepTemplates && strings.HasPrefix(s[i+1:], " <"):
				b.WriteByte(' ')
				i = template(i + 2)
			case keepTemplates && strings.HasPrefix(s[i+1:], "<"):
				i = template(i + 1)
			case strings.HasPrefix(s[i+1:], " <"):
				i += 2
				angle = 1
			case strings.HasPrefix(s[i+1:], "<"):
				i++
				angle = 1
			}
		case c == '<' && i > 0 && identChar(s[i-1]) && keepTemplates:
			i = template(i)
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

// CutMiddle shortens s to at most n bytes by leaving out its middle,
// marked "...", at rune boundaries, so that both the start of a long name
// (its namespace and class) and its end (the function) show.
func CutMiddle(s string, n int) string {
	if len(s) <= n {
		return s
	}
	head := max((n-3)/2, 0)
	tail := max(n-3-head, 0)
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	start := len(s) - tail
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	return s[:head] + "..." + s[start:]
}

// Labels are BoxNames cut in the middle to at most n bytes (no limit when
// n is 0), still distinct: names whose cut labels would read the same keep
// their whole names cut in the middle, and where those are alike too, a
// number (" #2", " #3"...) after all but the first.
func Labels(names []string, n int) []string {
	labels := BoxNames(names)
	if n <= 0 {
		return labels
	}
	for i := range labels {
		labels[i] = CutMiddle(labels[i], n)
	}
	redo := func(fix func(i, k int) string) {
		seen := map[string][]int{}
		for i, l := range labels {
			seen[l] = append(seen[l], i)
		}
		for _, idx := range seen {
			if len(idx) < 2 {
				continue
			}
			for k, i := range idx {
				labels[i] = fix(i, k)
			}
		}
	}
	redo(func(i, _ int) string { return CutMiddle(names[i], n) })
	redo(func(i, k int) string {
		if k == 0 {
			return labels[i]
		}
		return labels[i] + " #" + strconv.Itoa(k+1)
	})
	return labels
}
