package demangle

import "strings"

// dName demangles a D symbol ("_D...") as libiberty's dlang_demangle
// does; it rejects anything else and a D symbol it cannot read.
func dName(name string) (string, result) {
	if !strings.HasPrefix(name, "_D") {
		return "", rejected
	}
	if name == "_Dmain" {
		return "D main", done
	}
	d := &dDemangler{s: name, lastBackref: len(name)}
	var out dText
	pos := d.mangle(&out, 0)
	switch {
	case d.tooLarge:
		return "", tooLarge
	case pos < 0 || pos != len(name) || len(out.b) == 0:
		return "", rejected
	}
	return string(out.b), done
}

// noPos is a failed read (libiberty's NULL position).
const noPos = -1

// dMaxDepth bounds the nesting of D types, values and identifiers. Real
// names nest a few levels; libiberty has no bound and, on gprof's 8 MiB
// stack, crashes somewhere between 100,000 and 300,000 levels (a pointer
// to a pointer to ...). A name nested deeper than this is reported as too
// large (egprof prints it raw).
const dMaxDepth = 100_000

// dDemangler reads a D symbol. Positions are indexes into s; every read
// returns the position after what it read, or noPos.
type dDemangler struct {
	s           string
	lastBackref int // type back references must point before this
	steps       int
	depth       int  // types, values and identifiers being read, nested
	tooLarge    bool // the work, the output or the nesting grew past its bound
}

// dText is a piece of demangled output being built.
type dText struct{ b []byte }

func (t *dText) add(s string) { t.b = append(t.b, s...) }

func (t *dText) prepend(s string) {
	t.b = append([]byte(s), t.b...)
}

// truncate shortens the text to n bytes (never lengthens it).
func (t *dText) truncate(n int) {
	if n < len(t.b) {
		t.b = t.b[:max(n, 0)]
	}
}

func (d *dDemangler) at(i int) byte {
	if i >= 0 && i < len(d.s) {
		return d.s[i]
	}
	return 0
}

// from returns the text from i on.
func (d *dDemangler) from(i int) string {
	if i < 0 || i > len(d.s) {
		return ""
	}
	return d.s[i:]
}

// step counts work; it fails the whole name past the budget or when out
// has grown past MaxOutput.
func (d *dDemangler) step(out *dText) bool {
	d.steps++
	if d.steps > maxSteps || len(out.b) > MaxOutput {
		d.tooLarge = true
	}
	return !d.tooLarge
}

// enter counts a level of nesting and a step (see step); leave ends the
// level.
func (d *dDemangler) enter(out *dText) bool {
	if d.depth++; d.depth > dMaxDepth {
		d.tooLarge = true
	}
	return d.step(out)
}

func (d *dDemangler) leave() { d.depth-- }

func isAlpha(c byte) bool { return isLower(c) || isUpper(c) }

func isHexDigit(c byte) bool {
	_, ok := hexValue(c)
	return ok
}

// number reads a decimal number that fits 32 bits unsigned and is
// followed by something.
func (d *dDemangler) number(pos int) (uint64, int) {
	if pos < 0 || !isDigit(d.at(pos)) {
		return 0, noPos
	}
	var v uint64
	for ; isDigit(d.at(pos)); pos++ {
		digit := uint64(d.at(pos) - '0')
		if v > (0xffffffff-digit)/10 {
			return 0, noPos
		}
		v = v*10 + digit
	}
	if d.at(pos) == 0 {
		return 0, noPos
	}
	return v, pos
}

// hexByte reads two hex digits.
func (d *dDemangler) hexByte(pos int) (byte, int) {
	hi, ok1 := hexValue(d.at(pos))
	lo, ok2 := hexValue(d.at(pos + 1))
	if pos < 0 || !ok1 || !ok2 {
		return 0, noPos
	}
	return byte(hi<<4 | lo), pos + 2
}

func isCallConvention(c byte) bool {
	switch c {
	case 'F', 'U', 'V', 'W', 'R', 'Y':
		return true
	}
	return false
}

// backrefOffset reads a back reference's number: base 26, upper-case
// letters for the high digits and a lower-case letter for the last.
func (d *dDemangler) backrefOffset(pos int) (int, int) {
	if pos < 0 || !isAlpha(d.at(pos)) {
		return 0, noPos
	}
	var v uint64
	for ; isAlpha(d.at(pos)); pos++ {
		if v > (^uint64(0)-25)/26 {
			return 0, noPos
		}
		v *= 26
		if c := d.at(pos); isLower(c) {
			v += uint64(c - 'a')
			if int64(v) <= 0 {
				return 0, noPos
			}
			return int(v), pos + 1
		}
		v += uint64(d.at(pos) - 'A')
	}
	return 0, noPos
}

// backref reads "Q <offset>" and returns where it points and the
// position after it.
func (d *dDemangler) backref(pos int) (target, next int) {
	if pos < 0 || d.at(pos) != 'Q' {
		return noPos, noPos
	}
	off, next := d.backrefOffset(pos + 1)
	if next < 0 || off > pos {
		return noPos, noPos
	}
	return pos - off, next
}

// symbolBackref reads a back reference to an identifier.
func (d *dDemangler) symbolBackref(out *dText, pos int) int {
	target, next := d.backref(pos)
	n, at := d.number(target)
	if at < 0 || uint64(len(d.s)-at) < n {
		return noPos
	}
	if d.lname(out, at, int(n)) < 0 {
		return noPos
	}
	return next
}

// typeBackref reads a back reference to a type (a function type when
// function is set); it must point before every back reference being
// followed, so that none loops.
func (d *dDemangler) typeBackref(out *dText, pos int, function bool) int {
	if pos >= d.lastBackref {
		return noPos
	}
	saved := d.lastBackref
	d.lastBackref = pos
	target, next := d.backref(pos)
	var end int
	if function {
		end = d.functionType(out, target)
	} else {
		end = d.typ(out, target)
	}
	d.lastBackref = saved
	if end < 0 {
		return noPos
	}
	return next
}

// isSymbolName reports whether a symbol name starts at pos: a length, a
// template ("__T", "__U") or a back reference to a length.
func (d *dDemangler) isSymbolName(pos int) bool {
	c := d.at(pos)
	if isDigit(c) {
		return true
	}
	if c == '_' && d.at(pos+1) == '_' && (d.at(pos+2) == 'T' || d.at(pos+2) == 'U') {
		return true
	}
	if c != 'Q' {
		return false
	}
	off, next := d.backrefOffset(pos + 1)
	if next < 0 || off > pos {
		return false
	}
	return isDigit(d.at(pos - off))
}

// dConvention returns the spelling of a calling convention's letter, and
// whether it is one. (This and the tables below are a switch and arrays,
// not maps, which would be built at start-up.)
func dConvention(c byte) (string, bool) {
	switch c {
	case 'F':
		return "", true
	case 'U':
		return "extern(C) ", true
	case 'W':
		return "extern(Windows) ", true
	case 'V':
		return "extern(Pascal) ", true
	case 'R':
		return "extern(C++) ", true
	case 'Y':
		return "extern(Objective-C) ", true
	}
	return "", false
}

// callConvention reads a function's calling convention.
func (d *dDemangler) callConvention(out *dText, pos int) int {
	if pos < 0 {
		return noPos
	}
	s, ok := dConvention(d.at(pos))
	if !ok {
		return noPos
	}
	out.add(s)
	return pos + 1
}

// typeModifiers reads the modifiers of a "this" ("x", "y", "O", "Ng").
func (d *dDemangler) typeModifiers(out *dText, pos int) int {
	for {
		if pos < 0 || d.at(pos) == 0 {
			return noPos
		}
		switch d.at(pos) {
		case 'x':
			out.add(" const")
			return pos + 1
		case 'y':
			out.add(" immutable")
			return pos + 1
		case 'O':
			out.add(" shared")
			pos++
		case 'N':
			if d.at(pos+1) != 'g' {
				return noPos
			}
			out.add(" inout")
			pos += 2
		default:
			return pos
		}
	}
}

// dAttributes maps a function attribute's letter (after 'N') to its
// spelling ("" for a letter that is none).
var dAttributes = [256]string{
	'a': "pure ", 'b': "nothrow ", 'c': "ref ", 'd': "@property ", 'e': "@trusted ",
	'f': "@safe ", 'i': "@nogc ", 'j': "return ", 'l': "scope ", 'm': "@live ",
}

// attributes reads a function's attributes; "Ng", "Nh", "Nk" and "Nn"
// start its parameters instead.
func (d *dDemangler) attributes(out *dText, pos int) int {
	if pos < 0 || d.at(pos) == 0 {
		return noPos
	}
	for d.at(pos) == 'N' {
		c := d.at(pos + 1)
		if c == 'g' || c == 'h' || c == 'k' || c == 'n' {
			break
		}
		s := dAttributes[c]
		if s == "" {
			return noPos
		}
		out.add(s)
		pos += 2
	}
	return pos
}

// functionTypeNoReturn reads a function type up to its return type,
// writing the parameters to args, the convention to call and the
// attributes to attr; any of them may be nil to drop it.
func (d *dDemangler) functionTypeNoReturn(args, call, attr *dText, pos int) int {
	var dump dText
	if call == nil {
		call = &dump
	}
	if attr == nil {
		attr = &dump
	}
	pos = d.callConvention(call, pos)
	pos = d.attributes(attr, pos)
	if args != nil {
		args.add("(")
		pos = d.functionArgs(args, pos)
		args.add(")")
	} else {
		pos = d.functionArgs(&dump, pos)
	}
	return pos
}

// functionType reads a function type and writes it as "convention
// return-type(parameters) attributes".
func (d *dDemangler) functionType(out *dText, pos int) int {
	if pos < 0 || d.at(pos) == 0 {
		return noPos
	}
	var attr, args, ret dText
	pos = d.functionTypeNoReturn(&args, out, &attr, pos)
	pos = d.typ(&ret, pos)
	out.add(string(ret.b))
	out.add(string(args.b))
	out.add(" ")
	out.add(string(attr.b))
	return pos
}

// functionArgs reads parameters up to 'Z' (or a variadic 'X' or 'Y').
func (d *dDemangler) functionArgs(out *dText, pos int) int {
	for n := 0; pos >= 0 && d.at(pos) != 0; n++ {
		switch d.at(pos) {
		case 'X':
			out.add("...")
			return pos + 1
		case 'Y':
			if n != 0 {
				out.add(", ")
			}
			out.add("...")
			return pos + 1
		case 'Z':
			return pos + 1
		}
		if n > 0 {
			out.add(", ")
		}
		if d.at(pos) == 'M' {
			pos++
			out.add("scope ")
		}
		if d.at(pos) == 'N' && d.at(pos+1) == 'k' {
			pos += 2
			out.add("return ")
		}
		switch d.at(pos) {
		case 'I':
			pos++
			out.add("in ")
			if d.at(pos) == 'K' {
				pos++
				out.add("ref ")
			}
		case 'J':
			pos++
			out.add("out ")
		case 'K':
			pos++
			out.add("ref ")
		case 'L':
			pos++
			out.add("lazy ")
		}
		pos = d.typ(out, pos)
	}
	return pos
}

// dBasicTypes maps a one-letter type to its name ("" for a letter that is
// none).
var dBasicTypes = [256]string{
	'n': "typeof(null)", 'v': "void", 'g': "byte", 'h': "ubyte", 's': "short",
	't': "ushort", 'i': "int", 'k': "uint", 'l': "long", 'm': "ulong", 'f': "float",
	'd': "double", 'e': "real", 'o': "ifloat", 'p': "idouble", 'j': "ireal",
	'q': "cfloat", 'r': "cdouble", 'c': "creal", 'b': "bool", 'a': "char",
	'u': "wchar", 'w': "dchar",
}

// typ reads a type.
func (d *dDemangler) typ(out *dText, pos int) int {
	defer d.leave()
	if !d.enter(out) || pos < 0 || d.at(pos) == 0 {
		return noPos
	}
	wrap := func(before string) int {
		out.add(before)
		pos = d.typ(out, pos+1)
		out.add(")")
		return pos
	}
	switch c := d.at(pos); c {
	case 'O':
		return wrap("shared(")
	case 'x':
		return wrap("const(")
	case 'y':
		return wrap("immutable(")
	case 'N':
		pos++
		switch d.at(pos) {
		case 'g':
			return wrap("inout(")
		case 'h':
			return wrap("__vector(")
		case 'n':
			out.add("typeof(*null)")
			return pos + 1
		}
		return noPos
	case 'A':
		pos = d.typ(out, pos+1)
		out.add("[]")
		return pos
	case 'G':
		start := pos + 1
		end := start
		for isDigit(d.at(end)) {
			end++
		}
		pos = d.typ(out, end)
		out.add("[")
		out.add(d.s[start:end])
		out.add("]")
		return pos
	case 'H':
		var key dText
		pos = d.typ(&key, pos+1)
		pos = d.typ(out, pos)
		out.add("[")
		out.add(string(key.b))
		out.add("]")
		return pos
	case 'P':
		pos++
		if !isCallConvention(d.at(pos)) {
			pos = d.typ(out, pos)
			out.add("*")
			return pos
		}
		// A function pointer: no '*'.
		pos = d.functionType(out, pos)
		out.add("function")
		return pos
	case 'F', 'U', 'W', 'V', 'R', 'Y':
		pos = d.functionType(out, pos)
		out.add("function")
		return pos
	case 'C', 'S', 'E', 'T':
		return d.qualified(out, pos+1, false)
	case 'D':
		var mods dText
		pos = d.typeModifiers(&mods, pos+1)
		if pos >= 0 && d.at(pos) == 'Q' {
			pos = d.typeBackref(out, pos, true)
		} else {
			pos = d.functionType(out, pos)
		}
		out.add("delegate")
		out.add(string(mods.b))
		return pos
	case 'B':
		return d.tuple(out, pos+1)
	case 'z':
		switch d.at(pos + 1) {
		case 'i':
			out.add("cent")
			return pos + 2
		case 'k':
			out.add("ucent")
			return pos + 2
		}
		return noPos
	case 'Q':
		return d.typeBackref(out, pos, false)
	default:
		if s := dBasicTypes[c]; s != "" {
			out.add(s)
			return pos + 1
		}
		return noPos
	}
}

// identifier reads an identifier: a back reference, a template instance
// or a length and a name.
func (d *dDemangler) identifier(out *dText, pos int) int {
	defer d.leave()
	if !d.enter(out) {
		return noPos
	}
	for {
		if pos < 0 || d.at(pos) == 0 || !d.step(out) {
			return noPos
		}
		if d.at(pos) == 'Q' {
			return d.symbolBackref(out, pos)
		}
		if d.at(pos) == '_' && d.at(pos+1) == '_' && (d.at(pos+2) == 'T' || d.at(pos+2) == 'U') {
			return d.template(out, pos, -1)
		}
		n, at := d.number(pos)
		if at < 0 || n == 0 || uint64(len(d.s)-at) < n {
			return noPos
		}
		pos = at
		length := int(n)
		rest := d.from(pos)
		if length >= 5 && strings.HasPrefix(rest, "__") && (rest[2] == 'T' || rest[2] == 'U') {
			return d.template(out, pos, length)
		}
		// "__S<digits>": a made-up parent to tell same-named
		// declarations of one function apart. Skipped.
		if length >= 4 && strings.HasPrefix(rest, "__S") {
			i := 3
			for i < length && isDigit(rest[i]) {
				i++
			}
			if i == length {
				pos += length
				continue
			}
		}
		return d.lname(out, pos, length)
	}
}

// lname writes a plain identifier of n bytes; the compiler's special
// names become words ("this", "vtable for ...").
func (d *dDemangler) lname(out *dText, pos, n int) int {
	rest := d.from(pos)
	prefixed := func(what string) int {
		out.prepend(what)
		out.truncate(len(out.b) - 1) // the '.' before, or the space
		return pos + n
	}
	switch n {
	case 6:
		switch {
		case strings.HasPrefix(rest, "__ctor"):
			out.add("this")
			return pos + n
		case strings.HasPrefix(rest, "__dtor"):
			out.add("~this")
			return pos + n
		case strings.HasPrefix(rest, "__initZ"):
			return prefixed("initializer for ")
		case strings.HasPrefix(rest, "__vtblZ"):
			return prefixed("vtable for ")
		}
	case 7:
		if strings.HasPrefix(rest, "__ClassZ") {
			return prefixed("ClassInfo for ")
		}
	case 10:
		if strings.HasPrefix(rest, "__postblitMFZ") {
			out.add("this(this)")
			return pos + n + 3
		}
	case 11:
		if strings.HasPrefix(rest, "__InterfaceZ") {
			return prefixed("Interface for ")
		}
	case 12:
		if strings.HasPrefix(rest, "__ModuleInfoZ") {
			return prefixed("ModuleInfo for ")
		}
	}
	out.add(rest[:n])
	return pos + n
}

// integer writes an integer value of the type with letter t: characters
// as 'c' or '\xNN', bools as words, others with a suffix.
func (d *dDemangler) integer(out *dText, pos int, t byte) int {
	switch t {
	case 'a', 'u', 'w':
		v, next := d.number(pos)
		if next < 0 {
			return noPos
		}
		out.add("'")
		if t == 'a' && v >= 0x20 && v < 0x7f {
			out.add(string(rune(v)))
		} else {
			escape, width := `\x`, 2
			switch t {
			case 'u':
				escape, width = `\u`, 4
			case 'w':
				escape, width = `\U`, 8
			}
			out.add(escape)
			var digits []byte
			for ; v > 0; v /= 16 {
				digits = append([]byte{"0123456789abcdef"[v%16]}, digits...)
				width--
			}
			for ; width > 0; width-- {
				digits = append([]byte{'0'}, digits...)
			}
			out.add(string(digits))
		}
		out.add("'")
		return next
	case 'b':
		v, next := d.number(pos)
		if next < 0 {
			return noPos
		}
		if v != 0 {
			out.add("true")
		} else {
			out.add("false")
		}
		return next
	}
	if !isDigit(d.at(pos)) {
		return noPos
	}
	start := pos
	for isDigit(d.at(pos)) {
		pos++
	}
	out.add(d.s[start:pos])
	switch t {
	case 'h', 't', 'k':
		out.add("u")
	case 'l':
		out.add("L")
	case 'm':
		out.add("uL")
	}
	return pos
}

// real writes a floating-point value: NaN, Inf, -Inf or hex digits and
// an exponent ("0x1.8p1").
func (d *dDemangler) real(out *dText, pos int) int {
	rest := d.from(pos)
	switch {
	case strings.HasPrefix(rest, "NAN"):
		out.add("NaN")
		return pos + 3
	case strings.HasPrefix(rest, "INF"):
		out.add("Inf")
		return pos + 3
	case strings.HasPrefix(rest, "NINF"):
		out.add("-Inf")
		return pos + 4
	}
	if d.at(pos) == 'N' {
		out.add("-")
		pos++
	}
	if !isHexDigit(d.at(pos)) {
		return noPos
	}
	out.add("0x")
	out.add(d.s[pos : pos+1])
	out.add(".")
	pos++
	for isHexDigit(d.at(pos)) {
		out.add(d.s[pos : pos+1])
		pos++
	}
	if d.at(pos) != 'P' {
		return noPos
	}
	out.add("p")
	pos++
	if d.at(pos) == 'N' {
		out.add("-")
		pos++
	}
	for isDigit(d.at(pos)) {
		out.add(d.s[pos : pos+1])
		pos++
	}
	return pos
}

// stringValue writes a string literal: its type letter, length, '_' and
// hex-coded bytes.
func (d *dDemangler) stringValue(out *dText, pos int) int {
	t := d.at(pos)
	n, next := d.number(pos + 1)
	if next < 0 || d.at(next) != '_' {
		return noPos
	}
	pos = next + 1
	out.add(`"`)
	for ; n > 0; n-- {
		if !d.step(out) {
			return noPos
		}
		v, next := d.hexByte(pos)
		if next < 0 {
			return noPos
		}
		switch v {
		case ' ':
			out.add(" ")
		case '\t':
			out.add(`\t`)
		case '\n':
			out.add(`\n`)
		case '\r':
			out.add(`\r`)
		case '\f':
			out.add(`\f`)
		case '\v':
			out.add(`\v`)
		default:
			if v > ' ' && v < 0x7f {
				out.add(string(rune(v)))
			} else {
				out.add(`\x`)
				out.add(d.s[pos : pos+2])
			}
		}
		pos = next
	}
	out.add(`"`)
	if t != 'a' {
		out.add(string(rune(t)))
	}
	return pos
}

// values writes count values separated by sep, each one a pair (key,
// value) when pairs is set.
func (d *dDemangler) values(out *dText, pos int, open, close string, pairs bool) int {
	count, pos := d.number(pos)
	if pos < 0 {
		return noPos
	}
	out.add(open)
	for ; count > 0; count-- {
		if pos = d.value(out, pos, "", 0); pos < 0 {
			return noPos
		}
		if pairs {
			out.add(":")
			if pos = d.value(out, pos, "", 0); pos < 0 {
				return noPos
			}
		}
		if count != 1 {
			out.add(", ")
		}
	}
	out.add(close)
	return pos
}

// value reads a template value argument; name is its type's name (for
// struct literals), t its type's letter.
func (d *dDemangler) value(out *dText, pos int, name string, t byte) int {
	defer d.leave()
	if !d.enter(out) || pos < 0 || d.at(pos) == 0 {
		return noPos
	}
	switch c := d.at(pos); {
	case c == 'n':
		out.add("null")
		return pos + 1
	case c == 'N':
		out.add("-")
		return d.integer(out, pos+1, t)
	case c == 'i':
		return d.integer(out, pos+1, t)
	case isDigit(c):
		return d.integer(out, pos, t)
	case c == 'e':
		return d.real(out, pos+1)
	case c == 'c':
		pos = d.real(out, pos+1)
		out.add("+")
		if pos < 0 || d.at(pos) != 'c' {
			return noPos
		}
		pos = d.real(out, pos+1)
		out.add("i")
		return pos
	case c == 'a' || c == 'w' || c == 'd':
		return d.stringValue(out, pos)
	case c == 'A':
		if t == 'H' {
			return d.values(out, pos+1, "[", "]", true)
		}
		return d.values(out, pos+1, "[", "]", false)
	case c == 'S':
		return d.values(out, pos+1, name+"(", ")", false)
	case c == 'f':
		// A function literal's symbol.
		pos++
		if !strings.HasPrefix(d.from(pos), "_D") || !d.isSymbolName(pos+2) {
			return noPos
		}
		return d.mangle(out, pos)
	}
	return noPos
}

// mangle reads "_D <qualified name> <type>" (or "... Z"), dropping the
// type.
func (d *dDemangler) mangle(out *dText, pos int) int {
	pos = d.qualified(out, pos+2, true)
	if pos < 0 {
		return noPos
	}
	if d.at(pos) == 'Z' {
		return pos + 1
	}
	var t dText
	return d.typ(&t, pos)
}

// qualified reads a qualified name: symbol names, each perhaps followed
// by a function's parameters (of a nested function) and, for member
// functions, the modifiers of "this", written after the name when
// suffixMods is set.
func (d *dDemangler) qualified(out *dText, pos int, suffixMods bool) int {
	n := 0
	for {
		if d.at(pos) == '0' {
			// Anonymous symbols are skipped.
			for d.at(pos) == '0' {
				pos++
			}
		} else {
			if n > 0 {
				out.add(".")
			}
			n++
			pos = d.identifier(out, pos)
			if pos >= 0 && (d.at(pos) == 'M' || isCallConvention(d.at(pos))) {
				start, saved := pos, len(out.b)
				var mods dText
				if d.at(pos) == 'M' {
					pos = d.typeModifiers(&mods, pos+1)
				}
				pos = d.functionTypeNoReturn(out, nil, nil, pos)
				if suffixMods {
					out.add(string(mods.b))
				}
				if pos < 0 || d.at(pos) == 0 {
					// Not a nested function after all.
					pos = start
					out.truncate(saved)
				}
			}
		}
		if pos < 0 || !d.isSymbolName(pos) {
			return pos
		}
	}
}

// tuple reads "B <count> <type>*".
func (d *dDemangler) tuple(out *dText, pos int) int {
	count, pos := d.number(pos)
	if pos < 0 {
		return noPos
	}
	out.add("Tuple!(")
	for ; count > 0; count-- {
		if pos = d.typ(out, pos); pos < 0 {
			return noPos
		}
		if count != 1 {
			out.add(", ")
		}
	}
	out.add(")")
	return pos
}

// templateSymbolParam reads a template's symbol argument. Old compilers
// encoded the symbol's length before it, and a symbol may itself start
// with a digit: every split of the digits is tried, shortest length
// first, then the digits as part of the symbol.
func (d *dDemangler) templateSymbolParam(out *dText, pos int) int {
	if strings.HasPrefix(d.from(pos), "_D") && d.isSymbolName(pos+2) {
		return d.mangle(out, pos)
	}
	if d.at(pos) == 'Q' {
		return d.qualified(out, pos, false)
	}
	n, numEnd := d.number(pos)
	if numEnd < 0 || n == 0 {
		return noPos
	}
	size := int64(n)
	saved := len(out.b)
	for end, last := numEnd, false; !last; end-- {
		if !d.step(out) {
			return noPos
		}
		at := end
		if size == 0 {
			size, end, last = int64(n), numEnd, true
		}
		got := noPos
		if d.isSymbolName(at) {
			got = d.qualified(out, at, false)
		} else if strings.HasPrefix(d.from(at), "_D") && d.isSymbolName(at+2) {
			got = d.mangle(out, at)
		}
		if got >= 0 && (last || int64(got-end) == size) {
			return got
		}
		size /= 10
		out.truncate(saved)
	}
	return noPos
}

// templateArgs reads template arguments up to 'Z'.
func (d *dDemangler) templateArgs(out *dText, pos int) int {
	for n := 0; pos >= 0 && d.at(pos) != 0; n++ {
		if d.at(pos) == 'Z' {
			return pos + 1
		}
		if n > 0 {
			out.add(", ")
		}
		if d.at(pos) == 'H' {
			pos++ // a specialised template's argument
		}
		switch d.at(pos) {
		case 'S':
			pos = d.templateSymbolParam(out, pos+1)
		case 'T':
			pos = d.typ(out, pos+1)
		case 'V':
			pos++
			t := d.at(pos)
			if t == 'Q' {
				target, next := d.backref(pos)
				if next < 0 {
					return noPos
				}
				t = d.at(target)
			}
			var name dText
			pos = d.typ(&name, pos)
			pos = d.value(out, pos, string(name.b), t)
		case 'X':
			n, at := d.number(pos + 1)
			if at < 0 || uint64(len(d.s)-at) < n {
				return noPos
			}
			out.add(d.s[at : at+int(n)])
			pos = at + int(n)
		default:
			return noPos
		}
	}
	return pos
}

// template reads "__T <name> <args> Z" (or "__U"), which must be length
// bytes long when the length is known (not -1).
func (d *dDemangler) template(out *dText, pos, length int) int {
	start := pos
	if !d.isSymbolName(pos+3) || d.at(pos+3) == '0' {
		return noPos
	}
	pos = d.identifier(out, pos+3)
	var args dText
	pos = d.templateArgs(&args, pos)
	out.add("!(")
	out.add(string(args.b))
	out.add(")")
	if length >= 0 && pos >= 0 && pos-start != length {
		return noPos
	}
	return pos
}
