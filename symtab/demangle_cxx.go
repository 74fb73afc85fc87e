package symtab

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/ianlancetaylor/demangle"
)

// maxCXXNameLen is the longest name libiberty's C++ demangler accepts: it
// sizes its component table as twice the name's length and refuses names
// whose table would exceed DEMANGLE_RECURSION_LIMIT (2048) entries. gprof
// prints longer names raw.
const maxCXXNameLen = 1024

// Markers put into argument lists before printing (see libibertyArgLists).
// They never occur in symbol names; libibertyOutput replaces them.
const (
	argsBegin = "\x01" // the first element: a list starts here
	argSep    = "\x02" // an element: libiberty writes ", " before the next argument
	argsEnd   = "\x03" // the last element: the list ends here
)

// The markers as the library prints them, with the separators it puts
// between the elements of a list.
const (
	printedBegin = argsBegin + ", "
	printedSep   = ", " + argSep + ", "
	printedEnd   = ", " + argsEnd
)

// demangleCXX demangles an Itanium C++ ABI name ("_Z...", or GCC's
// "_GLOBAL_[._$][ID]_..." constructor and destructor symbols) as libiberty's
// cplus_demangle_v3 does with DMGL_PARAMS | DMGL_ANSI.
//
// The demangle library parses the name; its tree is adjusted before printing
// where libiberty's spelling differs from the library's:
//
//   - Argument lists with empty parameter packs in them (as in
//     std::_Construct<T>(T*) instantiated with no constructor arguments):
//     libiberty writes ", " before each argument after the first and takes
//     it back when the rest of the list printed nothing, but its memory of
//     the last character written stays a space, so a closing '>' then
//     follows a nested '>' without the usual space ("A<B<int>>"); empty
//     arguments before others keep their separators ("thread<F, , void>");
//     and a separator is not taken back when libiberty's 256-byte output
//     buffer was flushed after it ("pair<T&&, 0ul, >"). The lists are
//     printed with markers where the separators go, and libibertyOutput
//     replays libiberty's buffer over the result.
//
//   - Constructors and destructors of unnamed types and closures
//     ("Ut_C1", "Ul..E_D2"): libiberty names them after the last source name
//     read, the enclosing class's ("X::{unnamed type#1}::~X()"). See
//     nameUnnamedStructors.
//
//   - A function parameter of an enclosing function in an expression
//     ("fL0p_"): libiberty 2.40 reads "fL" only as a fold expression and
//     rejects the name, which gprof then prints raw.
//
//   - The address of a function in a template argument ("&f"): libiberty
//     leaves out the function's return and parameter types only when its
//     name is qualified ("&(ns::f)"); a template or unqualified name keeps
//     them ("&(R ns::f<T>(A))"). See keepAddressedSignatures.
//
//   - Inheriting constructors (CI1 <base>, CI2 <base>): libiberty names the
//     constructor after the last source name of the base class
//     ("__uniq_ptr_data<...>::__uniq_ptr_impl(...)"), not after the class.
//
//   - Unresolved names "sr<name>I<args>E..." in expressions: the library
//     adds the template's name to its substitution table, libiberty does
//     not; the later references are realigned before parsing (see
//     alignUnresolvedSubstitutions).
//
// Some shapes still differ, listed in testdata/demangle/known-differences.txt
// (on the 303,419-name corpus of scripts/demangle-corpus.sh, 642 names, 0.2%),
// most from a decision the library takes while parsing, which its tree no
// longer shows: a template parameter reached through a substitution is bound
// to the template it was read in, where libiberty binds it to the template
// being printed (lambdas in template arguments, 631 names). A printer over
// the tree cannot undo that, since the tree holds the resolved nodes; it
// would take a parser of our own (the library's substitution table and
// template binding are internal to it, and its source may not be copied).
func demangleCXX(s string) (string, bool) {
	if len(s) > maxCXXNameLen {
		return "", false
	}
	if kind, rest, ok := globalCtorDtor(s); ok {
		if rest == "" {
			return "", false
		}
		if strings.HasPrefix(rest, "_Z") {
			inner, ok := demangleCXX(rest)
			if !ok {
				return "", false
			}
			rest = inner
		}
		return kind + rest, true
	}
	if !strings.HasPrefix(s, "_Z") {
		return "", false
	}
	a, err := demangle.ToAST(alignUnresolvedSubstitutions(s))
	if err != nil {
		return "", false
	}
	if strings.Contains(s, "CI") { // the only encoding of inheriting constructors
		a = renameInheritingConstructors(a)
	}
	if strings.Contains(s, "Ut") || strings.Contains(s, "Ul") {
		a = copyAST(a, nameUnnamedStructors)
	}
	if hasLevelledFunctionParam(s, a) {
		return "", false
	}
	a = copyAST(a, keepAddressedSignatures)
	a = copyAST(a, libibertyArgLists)
	return libibertyOutput(demangle.ASTToString(a)), true
}

// globalCtorDtor recognises GCC's old "_GLOBAL_$I$name" constructor and
// destructor symbols, which libiberty spells "global constructors keyed to
// name". The rest of the name is demangled if it is a C++ name and kept as
// it is otherwise; libiberty rejects an empty rest.
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

// copyAST returns a with fn applied bottom-up to every node, shared
// subtrees included (each occurrence is rewritten).
func copyAST(a demangle.AST, fn func(demangle.AST) demangle.AST) demangle.AST {
	if c := a.Copy(fn, func(demangle.AST) bool { return false }); c != nil {
		return c
	}
	return a
}

// libibertyArgLists rewrites the argument lists of templates, argument
// packs (libiberty's nested template argument lists) and function types
// for libibertyOutput: [a, b, c] becomes [argsBegin, a, argSep, b, argSep,
// c, argsEnd], which the library prints as "\x01, a, \x02, b, \x02, c,
// \x03", and
// arguments that print nothing become empty names, so that the library
// does not skip them. It returns nil for nodes it leaves alone.
func libibertyArgLists(a demangle.AST) demangle.AST {
	switch a := a.(type) {
	case *demangle.Template:
		if len(a.Args) > 0 {
			return &demangle.Template{Name: a.Name, Args: markArgList(a.Args)}
		}
	case *demangle.ArgumentPack:
		if len(a.Args) > 0 {
			return &demangle.ArgumentPack{Args: markArgList(a.Args)}
		}
	case *demangle.FunctionType:
		if len(a.Args) > 0 {
			return &demangle.FunctionType{Return: a.Return, Args: markArgList(a.Args), ForLocalName: a.ForLocalName}
		}
	}
	return nil
}

// markArgList returns args with the markers libibertyArgLists describes.
func markArgList(args []demangle.AST) []demangle.AST {
	out := make([]demangle.AST, 0, 2*len(args)+1)
	out = append(out, &demangle.Name{Name: argsBegin})
	for i, a := range args {
		if i > 0 {
			out = append(out, &demangle.Name{Name: argSep})
		}
		if printsNothing(a) {
			a = &demangle.Name{Name: ""}
		}
		out = append(out, a)
	}
	return append(out, &demangle.Name{Name: argsEnd})
}

// unresolvedTemplateName matches the start of an unresolved name whose
// qualifier is made of source names ("sr<length>...").
var unresolvedTemplateName = regexp.MustCompile(`sr([0-9]+)`)

// substitutionRef matches a numbered substitution reference ("S_",
// "S<base-36 id>_").
var substitutionRef = regexp.MustCompile(`S[0-9A-Z]*_`)

// alignUnresolvedSubstitutions rewrites the substitution references of s so
// that the library resolves them as libiberty does. In an unresolved name
// "sr<source-name>I<args>E...", the library adds the template's name to its
// substitution table, libiberty (reading the qualifier with substitutions
// off) does not; every later reference to that entry or one after it is
// therefore one less than the library needs, and is raised by one. The
// library's table size at a point is learnt by parsing the name up to it
// followed by an out-of-range reference, which the library reports with the
// table's size; the same probe tells real references from letters inside
// source names. Other shapes of unresolved names are left as they are.
func alignUnresolvedSubstitutions(s string) string {
	if !strings.Contains(s, "sr") {
		return s
	}
	for from := 0; from < len(s); {
		m := unresolvedTemplateName.FindStringSubmatchIndex(s[from:])
		if m == nil {
			break
		}
		args := qualifierTemplateArgs(s, from+m[2])
		from += m[0] + 2
		if args < 0 {
			continue
		}
		extra, ok := librarySubstitutions(s[:args+1])
		if !ok || extra == 0 {
			continue
		}
		extra-- // the entry the library added for the name
		var b strings.Builder
		b.WriteString(s[:args+1])
		rest := s[args+1:]
		for {
			r := substitutionRef.FindStringIndex(rest)
			if r == nil {
				break
			}
			b.WriteString(rest[:r[0]])
			ref := rest[r[0]:r[1]]
			if _, ok := librarySubstitutions(b.String()); ok {
				if id := substitutionID(ref); id >= extra {
					ref = substitutionRefFor(id + 1)
				}
			}
			b.WriteString(ref)
			rest = rest[r[1]:]
		}
		b.WriteString(rest)
		s = b.String()
	}
	return s
}

// qualifierTemplateArgs reads the source names of an unresolved name's
// qualifier from i ("3std9is_signedI...") and returns the position of the
// "I" that follows the first of them with template arguments, or -1.
func qualifierTemplateArgs(s string, i int) int {
	for i < len(s) && isDecimal(s[i]) {
		j := i
		for j < len(s) && isDecimal(s[j]) {
			j++
		}
		n, err := strconv.Atoi(s[i:j])
		if err != nil || n <= 0 || j+n >= len(s) {
			return -1
		}
		i = j + n
		if s[i] == 'I' {
			return i
		}
	}
	return -1
}

// isDecimal reports whether c is a decimal digit.
func isDecimal(c byte) bool { return '0' <= c && c <= '9' }

// probeSubstitution is an out-of-range reference ("SZZZ_", entry 46656)
// appended to a prefix of a name to learn the library's table size there.
const (
	probeSubstitution   = "SZZZ_"
	probeSubstitutionID = 46656
)

// librarySubstitutions returns the number of entries in the library's
// substitution table after parsing prefix, if a substitution reference can
// stand right after prefix.
func librarySubstitutions(prefix string) (int, bool) {
	_, err := demangle.ToAST(prefix + probeSubstitution)
	if err == nil {
		return 0, false
	}
	var id, size, off int
	if _, e := fmt.Sscanf(err.Error(), "substitution index out of range (%d >= %d) at %d", &id, &size, &off); e != nil {
		return 0, false
	}
	if id != probeSubstitutionID || off != len(prefix)+1 {
		return 0, false
	}
	return size, true
}

// substitutionID returns the table entry a reference "S<seq>_" names:
// "S_" is 0, "S<n>_" (n in base 36, digits then upper-case letters) n+1.
func substitutionID(ref string) int {
	seq := ref[1 : len(ref)-1]
	if seq == "" {
		return 0
	}
	n, err := strconv.ParseInt(strings.ToLower(seq), 36, 64)
	if err != nil {
		return -1
	}
	return int(n) + 1
}

// substitutionRefFor returns the reference to table entry id.
func substitutionRefFor(id int) string {
	if id == 0 {
		return "S_"
	}
	return "S" + strings.ToUpper(strconv.FormatInt(int64(id-1), 36)) + "_"
}

// levelledFunctionParam matches the mangling of a function parameter of an
// enclosing function ("fL<level>p<index>_").
var levelledFunctionParam = regexp.MustCompile(`fL[0-9]+p[0-9]*_`)

// hasLevelledFunctionParam reports whether the name s, parsed as a, refers
// to a function parameter through "fL", which libiberty 2.40 cannot read.
func hasLevelledFunctionParam(s string, a demangle.AST) bool {
	if !levelledFunctionParam.MatchString(s) {
		return false
	}
	found := false
	a.Traverse(func(n demangle.AST) bool {
		if _, ok := n.(*demangle.FunctionParam); ok {
			found = true
		}
		return !found
	})
	return found
}

// nameUnnamedStructors gives the constructor or destructor of an unnamed
// type or a closure the name libiberty prints for it: the last source name
// before it in the qualified name. It returns nil for nodes it leaves alone.
func nameUnnamedStructors(a demangle.AST) demangle.AST {
	q, ok := a.(*demangle.Qualified)
	if !ok {
		return nil
	}
	var structor demangle.AST
	switch n := q.Name.(type) {
	case *demangle.Constructor:
		structor = n.Name
	case *demangle.Destructor:
		structor = n.Name
	default:
		return nil
	}
	if !isUnnamed(structor) {
		return nil
	}
	name := lastNamedScope(q.Scope)
	if name == nil {
		return nil
	}
	switch n := q.Name.(type) {
	case *demangle.Constructor:
		return &demangle.Qualified{Scope: q.Scope, Name: &demangle.Constructor{Name: name, Base: n.Base}, LocalName: q.LocalName}
	default:
		return &demangle.Qualified{Scope: q.Scope, Name: &demangle.Destructor{Name: name}, LocalName: q.LocalName}
	}
}

// isUnnamed reports whether a is an unnamed type or a closure type, whose
// mangling has no source name.
func isUnnamed(a demangle.AST) bool {
	switch a.(type) {
	case *demangle.UnnamedType, *demangle.Closure:
		return true
	}
	return false
}

// lastNamedScope returns the last name node of a scope that has a source
// name, skipping unnamed types and closures, or nil if there is none.
func lastNamedScope(scope demangle.AST) demangle.AST {
	for {
		q, ok := scope.(*demangle.Qualified)
		if !ok {
			if isUnnamed(scope) {
				return nil
			}
			return lastSourceName(scope)
		}
		if !isUnnamed(q.Name) {
			return lastSourceName(q.Name)
		}
		scope = q.Scope
	}
}

// keepAddressedSignatures makes the library print the whole signature of a
// function whose address is taken ("ad" applied to a function encoding)
// when libiberty does: libiberty drops the return and parameter types only
// when the function's name is a qualified name, the library whenever the
// operand is a function. The operand is wrapped in a one-element argument
// pack, which prints as its element, in parentheses after '&' as libiberty
// writes it. It returns nil for nodes it leaves alone.
func keepAddressedSignatures(a demangle.AST) demangle.AST {
	u, ok := a.(*demangle.Unary)
	if !ok {
		return nil
	}
	if op, ok := u.Op.(*demangle.Operator); !ok || op.Name != "&" || u.Suffix {
		return nil
	}
	t, ok := u.Expr.(*demangle.Typed)
	if !ok {
		return nil
	}
	if _, ok := t.Type.(*demangle.FunctionType); !ok {
		return nil
	}
	if q, ok := t.Name.(*demangle.Qualified); ok && !q.LocalName {
		return nil
	}
	return &demangle.Unary{Op: u.Op, Expr: &demangle.ArgumentPack{Args: []demangle.AST{t}}, Suffix: u.Suffix, SizeofType: u.SizeofType}
}

// libibertyBufLen is the size of libiberty's d_print_info output buffer.
const libibertyBufLen = 256

// libibertyOutput turns the library's output of a marked tree (see
// libibertyArgLists) into libiberty's: it replays the text through a model
// of libiberty's printer, which collects output in a 256-byte buffer
// flushed when full (and before a separator that would not fit), writes
// ", " before each argument after the first, takes that separator back
// when nothing was written after it up to the end of the list and no flush
// happened meanwhile, and puts a space between a '>' and the '>' that
// closes a template argument list.
func libibertyOutput(marked string) string {
	if !strings.Contains(marked, argsBegin) {
		return marked
	}
	type sepMark struct{ len, flushes int }
	var (
		done    strings.Builder // flushed text
		buf     []byte          // the unflushed buffer
		flushes int
		last    byte        // the last byte written, even if taken back
		lists   [][]sepMark // per open list, its separators
	)
	flush := func() {
		done.Write(buf)
		buf = buf[:0]
		flushes++
	}
	write := func(c byte) {
		if len(buf) == libibertyBufLen-1 {
			flush()
		}
		buf = append(buf, c)
		last = c
	}
	for i := 0; i < len(marked); {
		rest := marked[i:]
		switch {
		case strings.HasPrefix(rest, printedBegin):
			i += len(printedBegin)
			lists = append(lists, nil)
		case strings.HasPrefix(rest, printedSep) && len(lists) > 0:
			i += len(printedSep)
			if len(buf) >= libibertyBufLen-2 {
				flush()
			}
			write(',')
			write(' ')
			top := len(lists) - 1
			lists[top] = append(lists[top], sepMark{len(buf), flushes})
		case strings.HasPrefix(rest, printedEnd) && len(lists) > 0:
			i += len(printedEnd)
			seps := lists[len(lists)-1]
			lists = lists[:len(lists)-1]
			for j := len(seps) - 1; j >= 0; j-- {
				if seps[j].flushes == flushes && seps[j].len == len(buf) {
					buf = buf[:len(buf)-2]
				}
			}
			if i < len(marked) && marked[i] == '>' && last == '>' {
				write(' ')
			}
		default:
			write(marked[i])
			i++
		}
	}
	done.Write(buf)
	return done.String()
}

// printsNothing reports whether a prints as the empty string: an empty
// argument pack, or the expansion of one.
func printsNothing(a demangle.AST) bool {
	switch a := a.(type) {
	case *demangle.ArgumentPack:
		for _, e := range a.Args {
			if !printsNothing(e) {
				return false
			}
		}
		return true
	case *demangle.ExprList:
		return len(a.Exprs) == 0
	case *demangle.PackExpansion:
		return a.Pack != nil && printsNothing(a.Base)
	}
	return false
}

// renameInheritingConstructors gives each inheriting constructor the name
// libiberty prints for it: the last source name read while parsing the
// base class (template arguments and ABI tags do not count). When that name
// is a substitution of one seen earlier, libiberty's last name is still the
// class's own, which is what the library prints.
func renameInheritingConstructors(a demangle.AST) demangle.AST {
	var order []demangle.AST
	first := map[demangle.AST]int{}
	hasBase := false
	a.Traverse(func(n demangle.AST) bool {
		if _, seen := first[n]; !seen {
			first[n] = len(order)
		}
		order = append(order, n)
		if c, ok := n.(*demangle.Constructor); ok && c.Base != nil {
			hasBase = true
		}
		return true
	})
	if !hasBase {
		return a
	}
	return copyAST(a, func(n demangle.AST) demangle.AST {
		c, ok := n.(*demangle.Constructor)
		if !ok || c.Base == nil {
			return nil
		}
		name := lastSourceName(c.Base)
		if name == nil || first[name] < first[c] {
			return &demangle.Constructor{Name: c.Name}
		}
		return &demangle.Constructor{Name: name}
	})
}

// lastSourceName returns the innermost, last name node of a class type, or
// nil for types of another shape.
func lastSourceName(a demangle.AST) demangle.AST {
	switch a := a.(type) {
	case *demangle.Name:
		return a
	case *demangle.Qualified:
		return lastSourceName(a.Name)
	case *demangle.Template:
		return lastSourceName(a.Name)
	case *demangle.TaggedName:
		return lastSourceName(a.Name)
	}
	return nil
}
