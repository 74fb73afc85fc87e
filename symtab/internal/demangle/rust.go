package demangle

import (
	"strconv"
	"strings"
)

// rustRecursionLimit is libiberty's RUST_MAX_RECURSION_COUNT.
const rustRecursionLimit = 1024

// rustName demangles a Rust symbol, v0 ("_R...") or legacy ("_ZN...E"
// with a "17h<hash>" last segment, which is dropped), as libiberty's
// rust_demangle does without DMGL_VERBOSE; it rejects anything else, C++
// names included.
func rustName(name string) (string, result) {
	r := &rustDemangler{}
	switch {
	case strings.HasPrefix(name, "_R"):
		r.sym = name[2:]
	case strings.HasPrefix(name, "_ZN"):
		r.sym = name[3:]
		r.legacy = true
	default:
		return "", rejected
	}
	r.end = len(r.sym)
	if !r.legacy && !isUpper(r.at(0)) {
		return "", rejected
	}
	// Only [_0-9a-zA-Z]; a v0 name may end in a ".suffix", which is
	// ignored; a legacy one may also hold '$', '.', ':' and '@'.
	n := 0
	for ; n < len(r.sym); n++ {
		c := r.sym[n]
		if !r.legacy && c == '.' {
			break
		}
		if c == '_' || isDigit(c) || isLower(c) || isUpper(c) {
			continue
		}
		if r.legacy && (c == '$' || c == '.' || c == ':' || c == '@') {
			continue
		}
		return "", rejected
	}
	r.end = n
	if r.legacy {
		return r.legacyName()
	}
	r.path(true)
	if !r.failed && r.pos < r.end {
		// The instantiating crate: read, not printed.
		r.quiet = true
		r.path(false)
	}
	return r.result(r.pos == r.end)
}

// result is the outcome of reading the whole name; complete says whether
// it was all read.
func (r *rustDemangler) result(complete bool) (string, result) {
	switch {
	case r.tooLarge:
		return "", tooLarge
	case r.failed || !complete:
		return "", rejected
	}
	return string(r.out), done
}

// rustDemangler reads a Rust symbol (sym, without its "_R" or "_ZN") up
// to end and writes the demangled name to out.
type rustDemangler struct {
	sym    string
	end    int
	pos    int
	legacy bool

	out      []byte
	failed   bool
	tooLarge bool // failed for MaxOutput or maxSteps, where libiberty goes on
	quiet    bool // reading without printing (skipped paths)
	depth    int
	steps    int

	boundLifetimes uint64
}

func (r *rustDemangler) at(i int) byte {
	if i >= 0 && i < r.end {
		return r.sym[i]
	}
	return 0
}

func (r *rustDemangler) peek() byte { return r.at(r.pos) }

func (r *rustDemangler) eat(c byte) bool {
	if r.peek() == c {
		r.pos++
		return true
	}
	return false
}

// next consumes a byte; reading past the end fails.
func (r *rustDemangler) next() byte {
	c := r.peek()
	if c == 0 {
		r.failed = true
	} else {
		r.pos++
	}
	return c
}

func (r *rustDemangler) print(s string) {
	if r.failed || r.quiet {
		return
	}
	r.out = append(r.out, s...)
	if len(r.out) > MaxOutput {
		r.failed, r.tooLarge = true, true
	}
}

func (r *rustDemangler) printUint(x uint64) { r.print(strconv.FormatUint(x, 10)) }

// enter counts one level of nesting, failing past the limit or when the
// work done exceeds what any real symbol needs.
func (r *rustDemangler) enter() bool {
	r.depth++
	if r.steps++; r.steps > maxSteps {
		r.failed, r.tooLarge = true, true
		return false
	}
	if r.depth > rustRecursionLimit {
		r.failed = true
		return false
	}
	return true
}

// base62 reads "_" (0) or "<base-62 digits>_" (their value plus one).
func (r *rustDemangler) base62() uint64 {
	if r.eat('_') {
		return 0
	}
	var x uint64
	for !r.eat('_') && !r.failed {
		c := r.next()
		x *= 62
		switch {
		case isDigit(c):
			x += uint64(c - '0')
		case isLower(c):
			x += 10 + uint64(c-'a')
		case isUpper(c):
			x += 36 + uint64(c-'A')
		default:
			r.failed = true
			return 0
		}
	}
	return x + 1
}

// optBase62 reads tag and a base62 number (plus one), or nothing (0).
func (r *rustDemangler) optBase62(tag byte) uint64 {
	if !r.eat(tag) {
		return 0
	}
	return 1 + r.base62()
}

// hexNibbles reads lower-case hex digits up to '_'; it returns how many
// and their value (the low 64 bits).
func (r *rustDemangler) hexNibbles() (int, uint64) {
	n := 0
	var v uint64
	for !r.eat('_') {
		v <<= 4
		c := r.next()
		switch {
		case isDigit(c):
			v |= uint64(c - '0')
		case 'a' <= c && c <= 'f':
			v |= uint64(c-'a') + 10
		default:
			r.failed = true
			return 0, 0
		}
		n++
	}
	return n, v
}

// rustIdent is an identifier: its ASCII part and the Punycode insertions
// that make it Unicode, if any. Either may be absent.
type rustIdent struct {
	ascii, punycode string
	hasASCII        bool
	hasPunycode     bool
}

// ident reads "[u] <length> [_] <bytes>".
func (r *rustDemangler) ident() rustIdent {
	var id rustIdent
	puny := false
	if !r.legacy {
		puny = r.eat('u')
	}
	c := r.next()
	if !isDigit(c) {
		r.failed = true
		return id
	}
	n := uint64(c - '0')
	if c != '0' {
		for isDigit(r.peek()) {
			n = n*10 + uint64(r.next()-'0') // wraps as libiberty's size_t does
		}
	}
	if !r.legacy {
		r.eat('_')
	}
	start := uint64(r.pos)
	stop := start + n
	if stop < start || stop > uint64(r.end) {
		r.failed = true
		return id
	}
	r.pos = int(stop)
	text := r.sym[start:stop]
	if puny {
		// The last '_' separates the ASCII part from the insertions.
		cut := strings.LastIndexByte(text, '_')
		if cut == len(text)-1 {
			r.failed = true
			return id
		}
		id.punycode, id.hasPunycode = text[cut+1:], true
		if cut > 0 {
			text = text[:cut]
		} else {
			text = ""
		}
	}
	id.ascii, id.hasASCII = text, text != ""
	return id
}

// printIdent prints an identifier: a legacy one with its "$..$" escapes
// decoded, a v0 one with its Punycode decoded.
func (r *rustDemangler) printIdent(id rustIdent) {
	if r.failed || r.quiet {
		return
	}
	if r.legacy {
		r.printLegacyIdent(id.ascii)
		return
	}
	if !id.hasPunycode {
		r.print(id.ascii)
		return
	}
	s, ok := decodePunycode(id.ascii, id.punycode)
	if !ok {
		r.failed = true
	}
	r.print(s)
}

// printLegacyIdent decodes a legacy identifier: "$SP$" and the like,
// "$u7e$" for other characters, ".." for "::".
func (r *rustDemangler) printLegacyIdent(s string) {
	// An underscore put before an escape to start with a letter.
	if len(s) >= 2 && s[0] == '_' && s[1] == '$' {
		s = s[1:]
	}
	for len(s) > 0 {
		var n int
		switch s[0] {
		case '$':
			c, l := legacyEscape(s)
			if c == 0 {
				r.print(s) // not an escape: the rest as it is
				return
			}
			r.print(string(c))
			n = l
		case '.':
			if len(s) >= 2 && s[1] == '.' {
				r.print("::")
				n = 2
			} else {
				r.print(".")
				n = 1
			}
		default:
			n = strings.IndexAny(s, "$.")
			if n < 0 {
				n = len(s)
			}
			r.print(s[:n])
		}
		s = s[n:]
	}
}

// legacyEscape decodes the escape at the start of s ("$SP$", "$C$",
// "$u20$"); it returns 0 if there is none.
func legacyEscape(s string) (byte, int) {
	if len(s) < 3 || s[0] != '$' {
		return 0, 0
	}
	e := s[1:]
	var c byte
	n := 0
	if e[0] == 'C' {
		c, n = ',', 1
	} else if len(e) > 2 {
		n = 2
		switch e[:2] {
		case "SP":
			c = '@'
		case "BP":
			c = '*'
		case "RF":
			c = '&'
		case "LT":
			c = '<'
		case "GT":
			c = '>'
		case "LP":
			c = '('
		case "RP":
			c = ')'
		default:
			if e[0] == 'u' && len(e) > 3 {
				n = 3
				hi, ok1 := lowerHex(e[1])
				lo, ok2 := lowerHex(e[2])
				if !ok1 || !ok2 || hi > 7 {
					return 0, 0
				}
				c = byte(hi<<4 | lo)
				if c < 0x20 {
					return 0, 0
				}
			}
		}
	}
	if c == 0 || len(e) <= n || e[n] != '$' {
		return 0, 0
	}
	return c, 2 + n
}

func lowerHex(c byte) (int, bool) {
	switch {
	case isDigit(c):
		return int(c - '0'), true
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10, true
	}
	return 0, false
}

// decodePunycode inserts the code points the Punycode deltas encode into
// the ASCII part. ok is false for a bad digit; running out of digits in
// the middle of a delta gives "" with ok true (libiberty then prints
// nothing for the identifier).
func decodePunycode(ascii, puny string) (string, bool) {
	const (
		base = 36
		tMin = 1
		tMax = 26
		skew = 38
	)
	// Code points as groups of four bytes, zero bytes dropped at the end.
	out := make([][4]byte, len(ascii), len(ascii)+len(puny))
	for i := range ascii {
		out[i] = [4]byte{0, 0, 0, ascii[i]}
	}
	var (
		damp  uint64 = 700
		bias  uint64 = 72
		i     uint64
		c     uint32 = 0x80
		pos          = 0
		count        = uint64(len(ascii))
	)
	for pos < len(puny) {
		var delta, w, k uint64 = 0, 1, 0
		for {
			k += base
			t := uint64(0)
			if k >= bias {
				t = k - bias
			}
			t = max(min(t, tMax), tMin)
			if pos >= len(puny) {
				return "", true
			}
			d := puny[pos]
			pos++
			switch {
			case isLower(d):
				d -= 'a'
			case isDigit(d):
				d = 26 + (d - '0')
			default:
				return "", false
			}
			delta += uint64(d) * w
			w *= base - t
			if uint64(d) < t {
				break
			}
		}
		count++
		i += delta
		c += uint32(i / count)
		i %= count
		var g [4]byte
		if c >= 0x10000 {
			g[0] = byte(0xf0 | c>>18)
		}
		if c >= 0x800 {
			if c < 0x10000 {
				g[1] = byte(0xe0 | (c>>12)&0x3f)
			} else {
				g[1] = byte(0x80 | (c>>12)&0x3f)
			}
		}
		if c < 0x800 {
			g[2] = byte(0xc0 | (c>>6)&0x3f)
		} else {
			g[2] = byte(0x80 | (c>>6)&0x3f)
		}
		g[3] = byte(0x80 | c&0x3f)
		out = append(out, [4]byte{})
		copy(out[i+1:], out[i:])
		out[i] = g
		if pos == len(puny) {
			break
		}
		i++
		delta /= damp
		damp = 2
		delta += delta / count
		k = 0
		for delta > ((base-tMin)*tMax)/2 {
			delta /= base - tMin
			k += base
		}
		bias = k + ((base-tMin+1)*delta)/(delta+skew)
	}
	b := make([]byte, 0, 4*len(out))
	for _, g := range out {
		for _, x := range g {
			if x != 0 {
				b = append(b, x)
			}
		}
	}
	return string(b), true
}

// printLifetime prints a lifetime: 0 is '_, n a binder's lifetime by
// depth ('a, 'b, ..., '_26, ...).
func (r *rustDemangler) printLifetime(lt uint64) {
	r.print("'")
	if lt == 0 {
		r.print("_")
		return
	}
	depth := r.boundLifetimes - lt
	if depth < 26 {
		r.print(string(rune('a' + depth)))
	} else {
		r.print("_")
		r.printUint(depth)
	}
}

// binder reads "G <n>" and prints "for<'a, 'b> ".
func (r *rustDemangler) binder() {
	if r.failed {
		return
	}
	n := r.optBase62('G')
	if n == 0 {
		return
	}
	if r.quiet || r.failed {
		r.boundLifetimes += n
		return
	}
	r.print("for<")
	for i := uint64(0); i < n && !r.failed; i++ {
		if i > 0 {
			r.print(", ")
		}
		r.boundLifetimes++
		r.printLifetime(1)
	}
	r.print("> ")
}

// path reads and prints a v0 path; inValue puts "::" before generic
// arguments (a path in value position).
func (r *rustDemangler) path(inValue bool) {
	if r.failed {
		return
	}
	defer func() { r.depth-- }()
	if !r.enter() {
		return
	}
	switch tag := r.next(); tag {
	case 'C':
		r.optBase62('s')
		r.printIdent(r.ident())
	case 'N':
		ns := r.next()
		if !isLower(ns) && !isUpper(ns) {
			r.failed = true
			return
		}
		r.path(inValue)
		dis := r.optBase62('s')
		id := r.ident()
		named := id.hasASCII || id.hasPunycode
		if isUpper(ns) {
			// Closures, shims and other special namespaces.
			r.print("::{")
			switch ns {
			case 'C':
				r.print("closure")
			case 'S':
				r.print("shim")
			default:
				r.print(string(ns))
			}
			if named {
				r.print(":")
				r.printIdent(id)
			}
			r.print("#")
			r.printUint(dis)
			r.print("}")
		} else if named {
			r.print("::")
			r.printIdent(id)
		}
	case 'M', 'X', 'Y':
		if tag != 'Y' {
			// An impl's own path is not printed.
			r.optBase62('s')
			was := r.quiet
			r.quiet = true
			r.path(inValue)
			r.quiet = was
		}
		r.print("<")
		r.typ()
		if tag != 'M' {
			r.print(" as ")
			r.path(false)
		}
		r.print(">")
	case 'I':
		r.path(inValue)
		if inValue {
			r.print("::")
		}
		r.print("<")
		r.genericArgs()
		r.print(">")
	case 'B':
		r.backref(func() { r.path(inValue) })
	default:
		r.failed = true
	}
}

// backref reads a back reference and, unless printing is off, reads
// what it points to there.
func (r *rustDemangler) backref(read func()) {
	at := r.base62()
	if r.quiet {
		return
	}
	old := r.pos
	r.pos = clampPos(at, r.end)
	read()
	r.pos = old
}

// clampPos turns a back reference into a position; one past the end
// reads as the end.
func clampPos(at uint64, end int) int {
	if at > uint64(end) {
		return end + 1
	}
	return int(at)
}

// genericArgs reads generic arguments up to 'E', printing them with ", "
// between them.
func (r *rustDemangler) genericArgs() {
	for i := 0; !r.failed && !r.eat('E'); i++ {
		if i > 0 {
			r.print(", ")
		}
		r.genericArg()
	}
}

// genericArg reads a lifetime ("L"), a constant ("K") or a type.
func (r *rustDemangler) genericArg() {
	switch {
	case r.eat('L'):
		r.printLifetime(r.base62())
	case r.eat('K'):
		r.constant()
	default:
		r.typ()
	}
}

// rustBasicTypes maps a one-letter type to its name.
var rustBasicTypes = [256]string{
	'b': "bool", 'c': "char", 'e': "str", 'u': "()", 'a': "i8", 's': "i16",
	'l': "i32", 'x': "i64", 'n': "i128", 'i': "isize", 'h': "u8", 't': "u16",
	'm': "u32", 'y': "u64", 'o': "u128", 'j': "usize", 'f': "f32", 'd': "f64",
	'z': "!", 'p': "_", 'v': "...",
}

// typ reads and prints a v0 type.
func (r *rustDemangler) typ() {
	if r.failed {
		return
	}
	tag := r.next()
	if basic := rustBasicTypes[tag]; basic != "" {
		r.print(basic)
		return
	}
	if !r.enter() {
		r.depth--
		return
	}
	switch tag {
	case 'R', 'Q':
		r.print("&")
		if r.eat('L') {
			if lt := r.base62(); lt != 0 {
				r.printLifetime(lt)
				r.print(" ")
			}
		}
		if tag != 'R' {
			r.print("mut ")
		}
		r.typ()
	case 'P', 'O':
		if tag == 'P' {
			r.print("*const ")
		} else {
			r.print("*mut ")
		}
		r.typ()
	case 'A', 'S':
		r.print("[")
		r.typ()
		if tag == 'A' {
			r.print("; ")
			r.constant()
		}
		r.print("]")
	case 'T':
		r.print("(")
		i := 0
		for ; !r.failed && !r.eat('E'); i++ {
			if i > 0 {
				r.print(", ")
			}
			r.typ()
		}
		if i == 1 {
			r.print(",")
		}
		r.print(")")
	case 'F':
		r.fnType()
	case 'D':
		r.print("dyn ")
		old := r.boundLifetimes
		r.binder()
		for i := 0; !r.failed && !r.eat('E'); i++ {
			if i > 0 {
				r.print(" + ")
			}
			r.dynTrait()
		}
		r.boundLifetimes = old
		if !r.eat('L') {
			// libiberty returns here without leaving the level.
			r.failed = true
			return
		}
		if lt := r.base62(); lt != 0 {
			r.print(" + ")
			r.printLifetime(lt)
		}
	case 'B':
		r.backref(r.typ)
	default:
		// A path: read the tag again there.
		r.pos--
		r.path(false)
	}
	r.depth--
}

// fnType reads the rest of a function pointer type.
func (r *rustDemangler) fnType() {
	old := r.boundLifetimes
	defer func() { r.boundLifetimes = old }()
	r.binder()
	if r.eat('U') {
		r.print("unsafe ")
	}
	if r.eat('K') {
		var abi string
		if r.eat('C') {
			abi = "C"
		} else {
			id := r.ident()
			if !id.hasASCII || id.hasPunycode {
				r.failed = true
				return
			}
			abi = id.ascii
		}
		r.print("extern \"")
		// '-' was mangled as '_'. libiberty's loop resumes one byte
		// after each '_' it replaces, so a '_' right after one stays.
		for i := 0; i < len(abi); i++ {
			if abi[i] == '_' {
				r.print(abi[:i])
				r.print("-")
				abi = abi[i+1:]
				i = 0
			}
		}
		r.print(abi)
		r.print("\" ")
	}
	r.print("fn(")
	for i := 0; !r.failed && !r.eat('E'); i++ {
		if i > 0 {
			r.print(", ")
		}
		r.typ()
	}
	r.print(")")
	if !r.eat('u') {
		r.print(" -> ")
		r.typ()
	}
}

// openGenerics reads a trait's path in a trait object, leaving its
// generic arguments open ("Trait<T") for associated type bindings; it
// reports whether it did.
func (r *rustDemangler) openGenerics() bool {
	open := false
	if r.failed {
		return false
	}
	defer func() { r.depth-- }()
	if !r.enter() {
		return false
	}
	switch {
	case r.eat('B'):
		r.backref(func() { open = r.openGenerics() })
	case r.eat('I'):
		r.path(false)
		r.print("<")
		open = true
		r.genericArgs()
	default:
		r.path(false)
	}
	return open
}

// dynTrait reads one trait of a trait object with its bindings.
func (r *rustDemangler) dynTrait() {
	if r.failed {
		return
	}
	open := r.openGenerics()
	for r.eat('p') {
		if open {
			r.print(", ")
		} else {
			r.print("<")
		}
		open = true
		r.printIdent(r.ident())
		r.print(" = ")
		r.typ()
	}
	if open {
		r.print(">")
	}
}

// constant reads and prints a const generic argument.
func (r *rustDemangler) constant() {
	if r.failed {
		return
	}
	defer func() { r.depth-- }()
	if !r.enter() {
		return
	}
	if r.eat('B') {
		r.backref(r.constant)
		return
	}
	switch r.next() {
	case 'p':
		r.print("_")
	case 'h', 't', 'm', 'y', 'o', 'j':
		r.constUint()
	case 'a', 's', 'l', 'x', 'n', 'i':
		if r.eat('n') {
			r.print("-")
		}
		r.constUint()
	case 'b':
		n, v := r.hexNibbles()
		switch {
		case n != 1:
			r.failed = true
		case v == 0:
			r.print("false")
		case v == 1:
			r.print("true")
		default:
			r.failed = true
		}
	case 'c':
		r.constChar()
	default:
		r.failed = true
	}
}

// constUint prints an unsigned constant; one too long for 64 bits prints
// as hex digits, taken (as libiberty takes them) from one byte after the
// first digit to the '_' that ends them.
func (r *rustDemangler) constUint() {
	if r.failed {
		return
	}
	n, v := r.hexNibbles()
	switch {
	case n > 16:
		r.print("0x")
		r.print(r.sym[r.pos-n : r.pos])
	case n > 0:
		r.printUint(v)
	default:
		r.failed = true
	}
}

// constChar prints a char constant as Rust's debug output does, roughly.
func (r *rustDemangler) constChar() {
	n, v := r.hexNibbles()
	if n == 0 || n > 8 {
		r.failed = true
		return
	}
	r.print("'")
	switch {
	case v == '\t':
		r.print(`\t`)
	case v == '\r':
		r.print(`\r`)
	case v == '\n':
		r.print(`\n`)
	case v > ' ' && v < '~':
		r.print(string(rune(v)))
	default:
		r.print(`\u{`)
		r.print(strconv.FormatUint(v, 16))
		r.print("}")
	}
	r.print("'")
}

// legacyName demangles a legacy symbol: length-prefixed segments up to
// an 'E' (after which a ".suffix" may follow), the last a hash.
func (r *rustDemangler) legacyName() (string, result) {
	end := r.end
	afterDot := true
	for end > 0 && !(afterDot && r.sym[end-1] == 'E') {
		afterDot = r.sym[end-1] == '.'
		end--
	}
	if end == 0 || r.sym[end-1] != 'E' {
		return "", rejected
	}
	end--
	r.end = end
	if !(end > 19 && r.sym[end-19:end-16] == "17h") {
		return "", rejected
	}
	var last rustIdent
	for {
		last = r.ident()
		if r.failed || !last.hasASCII {
			return "", rejected
		}
		if r.pos >= r.end {
			break
		}
	}
	if !isLegacyHash(last.ascii) {
		return "", rejected
	}
	// Print again without the hash.
	r.pos = 0
	r.end -= 19
	for {
		if r.pos > 0 {
			r.print("::")
		}
		r.printIdent(r.ident())
		if r.pos >= r.end {
			break
		}
	}
	return r.result(true)
}

// isLegacyHash reports whether s is "h" and 16 lower-case hex digits, at
// least 5 of them distinct.
func isLegacyHash(s string) bool {
	if len(s) != 17 || s[0] != 'h' {
		return false
	}
	var seen uint16
	for i := 1; i < 17; i++ {
		d, ok := lowerHex(s[i])
		if !ok {
			return false
		}
		seen |= 1 << d
	}
	distinct := 0
	for ; seen != 0; seen >>= 1 {
		distinct += int(seen & 1)
	}
	return distinct >= 5
}
