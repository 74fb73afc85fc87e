package demangle

import (
	"math"
	"strings"
)

// maxCXXName is the longest C++ name libiberty demangles: it sizes its
// node array at twice the name's length and refuses a name whose array
// would exceed its recursion limit (2048) entries.
const maxCXXName = 1024

// recursionLimit is libiberty's DEMANGLE_RECURSION_LIMIT: the deepest
// nesting of function types it reads, and of nodes it counts before
// printing. gprof does not lift it (it does not pass
// DMGL_NO_RECURSE_LIMIT).
const recursionLimit = 2048

// cxxParser reads an Itanium C++ ABI mangled name into a tree of nodes,
// making the same nodes, substitution entries and decisions libiberty
// makes: the number of nodes and substitutions a name may use is bounded
// as in libiberty (twice and once the name's length), and running out
// makes the name fail there as it does there.
type cxxParser struct {
	s   string
	pos int

	java bool // Java names: a '$' after an identifier is skipped

	nodes    int // nodes made so far
	maxNodes int
	slab     []node // storage for the next nodes

	subs    []*node // the substitution table, "S_" first
	maxSubs int

	lastName     *node // the last source name read: a constructor's name
	inExpression bool
	inConversion bool
	// unresolved is 1 while reading unresolved names ("sr...") with
	// the current grammar, -1 once one was read that way, 0 when
	// retrying the whole name with the old grammar.
	unresolved int8
	fnDepth    int // function types being read, nested
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

// at returns the byte at i, or 0 past the end (where libiberty sees the
// terminating NUL).
func (p *cxxParser) at(i int) byte {
	if i < len(p.s) {
		return p.s[i]
	}
	return 0
}

func (p *cxxParser) peek() byte     { return p.at(p.pos) }
func (p *cxxParser) peekNext() byte { return p.at(p.pos + 1) }
func (p *cxxParser) skip(n int)     { p.pos += n }
func (p *cxxParser) rest() string   { return p.s[min(p.pos, len(p.s)):] }
func (p *cxxParser) atEnd() bool    { return p.pos >= len(p.s) }
func (p *cxxParser) take() byte     { c := p.peek(); p.advanceIf(c); return c }
func (p *cxxParser) advanceIf(c byte) {
	if c != 0 {
		p.pos++
	}
}

// eat consumes c if it comes next.
func (p *cxxParser) eat(c byte) bool {
	if p.peek() == c {
		p.pos++
		return true
	}
	return false
}

// alloc makes a node, or returns nil once the name's share is used up.
func (p *cxxParser) alloc(k kind) *node {
	if p.nodes >= p.maxNodes {
		return nil
	}
	p.nodes++
	if len(p.slab) == cap(p.slab) {
		// The first block comes with the parser (see cxxName); later
		// ones are small.
		p.slab = make([]node, 0, min(32, p.maxNodes-p.nodes+1))
	}
	p.slab = append(p.slab, node{kind: k})
	return &p.slab[len(p.slab)-1]
}

// Which children a node made by comp must have.
const (
	needsNone = iota
	needsLeft
	needsRight
	needsBoth
	notComposite
)

// compositeNeeds says, for each kind comp may make, which children must
// be present for the node to be made (a switch rather than a table built
// at start-up, which every run of egprof would pay for).
func compositeNeeds(k kind) uint8 {
	switch k {
	case kQualName, kLocalName, kTypedName, kTaggedName, kTemplate, kConstructionVtable,
		kVendorTypeQual, kPtrmemType, kUnary, kBinary, kBinaryArgs, kTrinary, kTrinaryArg1,
		kLiteral, kLiteralNeg, kVendorExpr, kCompoundName, kVectorType, kClone, kModuleEntity:
		return needsBoth
	case kVtable, kVTT, kTypeinfo, kTypeinfoName, kTypeinfoFn, kThunk, kVirtualThunk,
		kCovariantThunk, kJavaClass, kGuard, kTLSInit, kTLSWrapper, kRefTemp, kHiddenAlias,
		kTransactionClone, kNonTransactionClone, kPointer, kReference, kRvalueReference,
		kComplex, kImaginary, kVendorType, kCast, kConversion, kJavaResource, kDecltype,
		kPackExpansion, kGlobalConstructors, kGlobalDestructors, kNullary, kTrinaryArg2,
		kTparmObj, kStructuredBinding, kModuleInit, kTemplateHead, kTemplateNonTypeParm,
		kTemplateTemplateParm, kTemplatePackParm:
		return needsLeft
	case kArrayType, kInitializerList, kModuleName, kModulePartition:
		return needsRight
	case kFunctionType, kRestrict, kVolatile, kConst, kArgList, kTemplateArgList,
		kTemplateTypeParm, kRestrictThis, kVolatileThis, kConstThis, kReferenceThis,
		kRvalueReferenceThis, kTransactionSafe, kNoexcept, kThrowSpec:
		return needsNone
	}
	return notComposite
}

// comp makes a node with two children; a missing child that the kind
// needs (a failure below) makes it fail too, without using a node.
func (p *cxxParser) comp(k kind, left, right *node) *node {
	switch compositeNeeds(k) {
	case needsBoth:
		if left == nil || right == nil {
			return nil
		}
	case needsLeft:
		if left == nil {
			return nil
		}
	case needsRight:
		if right == nil {
			return nil
		}
	case notComposite:
		return nil
	}
	n := p.alloc(k)
	if n != nil {
		n.left, n.right = left, right
	}
	return n
}

// makeName makes a name node; an empty name uses a node and fails.
func (p *cxxParser) makeName(s string) *node {
	n := p.alloc(kName)
	if n == nil || s == "" {
		return nil
	}
	n.text = s
	return n
}

// makeNum makes a node of a kind that carries only a number.
func (p *cxxParser) makeNum(k kind, num int) *node {
	n := p.alloc(k)
	if n != nil {
		n.num = num
	}
	return n
}

// makeNamed makes a constructor, destructor or extended operator node,
// which fails (having used a node) without a name.
func (p *cxxParser) makeNamed(k kind, num int, name *node) *node {
	n := p.alloc(k)
	if n == nil || name == nil {
		return nil
	}
	n.num, n.left = num, name
	return n
}

func (p *cxxParser) makeBuiltin(t *builtinType) *node {
	n := p.alloc(kBuiltinType)
	if n != nil {
		n.builtin = t
	}
	return n
}

func (p *cxxParser) makeSub(s string) *node {
	n := p.alloc(kSubStd)
	if n != nil {
		n.text = s
	}
	return n
}

// addSub appends a substitution candidate; the table holds as many
// entries as the name has bytes.
func (p *cxxParser) addSub(n *node) bool {
	if n == nil || len(p.subs) >= p.maxSubs {
		return false
	}
	p.subs = append(p.subs, n)
	return true
}

// mangledName reads "_Z <encoding>" and, at the top, clone suffixes
// (".constprop.0"). Inside a name the '_' may be missing (an old g++
// mangling bug libiberty accepts).
func (p *cxxParser) mangledName(top bool) *node {
	if !p.eat('_') && top {
		return nil
	}
	if !p.eat('Z') {
		return nil
	}
	n := p.encoding(top)
	if top {
		for p.peek() == '.' {
			c := p.peekNext()
			if !isLower(c) && c != '_' && !isDigit(c) {
				break
			}
			n = p.cloneSuffix(n)
		}
	}
	return n
}

// encoding reads a function (a name and its parameter types), a data
// name or a special name.
func (p *cxxParser) encoding(top bool) *node {
	if c := p.peek(); c == 'G' || c == 'T' {
		return p.specialName()
	}
	n := p.name(false)
	if n == nil {
		return nil
	}
	if c := p.peek(); c == 0 || c == 'E' {
		return n
	}
	ft := p.bareFunctionType(hasReturnType(n))
	if ft == nil {
		return nil
	}
	// A local name's enclosing function is printed without its return
	// type (it would read as the local entity's).
	if !top && n.kind == kLocalName && ft.kind == kFunctionType {
		ft.left = nil
	}
	return p.comp(kTypedName, n, ft)
}

// hasReturnType reports whether a function's mangling includes its
// return type: templates do, except constructors, destructors and
// conversion operators.
func hasReturnType(n *node) bool {
	for n != nil {
		switch {
		case n.kind == kLocalName:
			n = n.right
		case n.kind == kTemplate:
			return !isStructorOrConversion(n.left)
		case isFunctionQualifier(n.kind):
			n = n.left
		default:
			return false
		}
	}
	return false
}

func isStructorOrConversion(n *node) bool {
	for n != nil {
		switch n.kind {
		case kQualName, kLocalName:
			n = n.right
		case kCtor, kDtor, kConversion:
			return true
		default:
			return false
		}
	}
	return false
}

// abiTags reads "B <source-name>" tags after a name; they do not count
// as the last name read.
func (p *cxxParser) abiTags(n *node) *node {
	hold := p.lastName
	for p.peek() == 'B' {
		p.skip(1)
		tag := p.sourceName()
		n = p.comp(kTaggedName, n, tag)
	}
	p.lastName = hold
	return n
}

// name reads a <name>; substable adds it to the substitution table (as a
// class or enum type is).
func (p *cxxParser) name(substable bool) *node {
	var n *node
	fromSub := false
	switch p.peek() {
	case 'N':
		n = p.nestedName()
	case 'Z':
		n = p.localName()
	case 'U':
		n = p.unqualifiedName(nil, nil)
	default:
		var module *node
		if p.peek() == 'S' {
			if p.peekNext() == 't' {
				p.skip(2)
				n = p.makeName("std")
			}
			if p.peek() == 'S' {
				module = p.substitution(false)
				if module == nil {
					return nil
				}
				if module.kind != kModuleName && module.kind != kModulePartition {
					if n != nil {
						return nil
					}
					fromSub, n, module = true, module, nil
				}
			}
		}
		if !fromSub {
			n = p.unqualifiedName(n, module)
		}
		if p.peek() == 'I' {
			// An unscoped template name: a substitution candidate
			// of its own.
			if !fromSub && !p.addSub(n) {
				return nil
			}
			n = p.comp(kTemplate, n, p.templateArgs())
			fromSub = false
		}
	}
	if substable && !fromSub && !p.addSub(n) {
		return nil
	}
	return n
}

// nestedName reads "N [qualifiers] [ref-qualifier] <prefix> E".
func (p *cxxParser) nestedName() *node {
	if !p.eat('N') {
		return nil
	}
	if p.nextIsTypeQualifier() {
		var head *node
		slot := p.cvQualifiers(&head, true)
		if slot == nil {
			return nil
		}
		rq := p.refQualifier(nil)
		if *slot = p.prefix(true); *slot == nil {
			return nil
		}
		return p.endNestedName(head, rq)
	}
	// No qualifiers (the usual case): the same without the slot.
	rq := p.refQualifier(nil)
	ret := p.prefix(true)
	if ret == nil {
		return nil
	}
	return p.endNestedName(ret, rq)
}

// endNestedName puts a nested name's ref-qualifier rq (if any) around it
// and reads its 'E'.
func (p *cxxParser) endNestedName(ret, rq *node) *node {
	if rq != nil {
		rq.left = ret
		ret = rq
	}
	if !p.eat('E') {
		return nil
	}
	return ret
}

// prefix reads the components of a nested name up to its 'E', adding
// each prefix to the substitution table when substable.
func (p *cxxParser) prefix(substable bool) *node {
	var ret *node
	for {
		c := p.peek()
		switch {
		case c == 'D' && (p.peekNext() == 'T' || p.peekNext() == 't'):
			if ret != nil {
				return nil
			}
			ret = p.typ()
		case c == 'I':
			if ret == nil {
				return nil
			}
			args := p.templateArgs()
			if args == nil {
				return nil
			}
			ret = p.comp(kTemplate, ret, args)
		case c == 'T':
			if ret != nil {
				return nil
			}
			ret = p.templateParam()
		case c == 'M':
			// A lambda's initializer scope: already a candidate.
			p.skip(1)
			continue
		default:
			var module *node
			if c == 'S' {
				module = p.substitution(true)
				if module == nil {
					return nil
				}
				if module.kind != kModuleName && module.kind != kModulePartition {
					if ret != nil {
						return nil
					}
					ret = module
					continue
				}
			}
			ret = p.unqualifiedName(ret, module)
		}
		if ret == nil || p.peek() == 'E' {
			return ret
		}
		if substable && !p.addSub(ret) {
			return nil
		}
	}
}

// moduleName reads module names ("W <source-name>", "WP" for a
// partition) onto name.
func (p *cxxParser) moduleName(name **node) bool {
	for p.peek() == 'W' {
		p.skip(1)
		k := kModuleName
		if p.peek() == 'P' {
			k = kModulePartition
			p.skip(1)
		}
		*name = p.comp(k, *name, p.sourceName())
		if *name == nil || !p.addSub(*name) {
			return false
		}
	}
	return true
}

// unqualifiedName reads one component of a name and qualifies it with
// scope when there is one.
func (p *cxxParser) unqualifiedName(scope, module *node) *node {
	if !p.moduleName(&module) {
		return nil
	}
	var ret *node
	c := p.peek()
	switch {
	case isDigit(c):
		ret = p.sourceName()
	case isLower(c):
		was := p.inExpression
		if c == 'o' && p.peekNext() == 'n' {
			p.skip(2)
			p.inExpression = false // "cv" names a conversion operator
		}
		ret = p.operatorName()
		p.inExpression = was
		if ret != nil && ret.kind == kOperator && ret.op.code == "li" {
			ret = p.comp(kUnary, ret, p.sourceName())
		}
	case c == 'D' && p.peekNext() == 'C':
		// A structured binding: "DC <source-name>+ E".
		p.skip(2)
		var prev *node
		for {
			next := p.comp(kStructuredBinding, p.sourceName(), nil)
			if prev != nil {
				prev.right = next
			} else {
				ret = next
			}
			prev = next
			if prev == nil || p.peek() == 'E' {
				break
			}
		}
		if prev == nil {
			ret = nil
		} else {
			p.skip(1)
		}
	case c == 'C' || c == 'D':
		ret = p.ctorDtorName()
	case c == 'L':
		p.skip(1)
		ret = p.sourceName()
		if ret == nil || !p.discriminator() {
			return nil
		}
	case c == 'U':
		switch p.peekNext() {
		case 'l':
			ret = p.lambda()
		case 't':
			ret = p.unnamedType()
		default:
			return nil
		}
	default:
		return nil
	}
	if module != nil {
		ret = p.comp(kModuleEntity, ret, module)
	}
	if p.peek() == 'B' {
		ret = p.abiTags(ret)
	}
	if scope != nil {
		ret = p.comp(kQualName, scope, ret)
	}
	return ret
}

// sourceName reads "<length> <identifier>" and remembers it as the last
// name read.
func (p *cxxParser) sourceName() *node {
	n := p.number()
	if n <= 0 {
		return nil
	}
	ret := p.identifier(n)
	p.lastName = ret
	return ret
}

// number reads an optionally negative ("n") decimal number; -1 when it
// does not fit a C int.
func (p *cxxParser) number() int {
	neg := false
	if p.peek() == 'n' {
		neg = true
		p.skip(1)
	}
	v := 0
	for c := p.peek(); isDigit(c); c = p.peek() {
		d := int(c - '0')
		if v > (math.MaxInt32-d)/10 {
			return -1
		}
		v = v*10 + d
		p.skip(1)
	}
	if neg {
		return -v
	}
	return v
}

// identifier reads n bytes of a source name. GCC's names for anonymous
// namespaces ("_GLOBAL__N_1") print as "(anonymous namespace)".
func (p *cxxParser) identifier(n int) *node {
	if len(p.s)-p.pos < n {
		return nil
	}
	id := p.s[p.pos : p.pos+n]
	p.skip(n)
	if p.java && p.peek() == '$' {
		p.skip(1)
	}
	if n >= 10 && strings.HasPrefix(id, "_GLOBAL_") {
		if c := id[8]; (c == '.' || c == '_' || c == '$') && id[9] == 'N' {
			return p.makeName("(anonymous namespace)")
		}
	}
	return p.makeName(id)
}

// operatorName reads an operator: two letters, "cv <type>" (a cast or a
// conversion operator) or "v <digit> <source-name>" (a vendor's).
func (p *cxxParser) operatorName() *node {
	c1 := p.take()
	c2 := p.take()
	switch {
	case c1 == 'v' && isDigit(c2):
		return p.makeNamed(kExtendedOperator, int(c2-'0'), p.sourceName())
	case c1 == 'c' && c2 == 'v':
		was := p.inConversion
		p.inConversion = !p.inExpression
		t := p.typ()
		var n *node
		if p.inConversion {
			n = p.comp(kConversion, t, nil)
		} else {
			n = p.comp(kCast, t, nil)
		}
		p.inConversion = was
		return n
	}
	op := lookupOperator(c1, c2)
	if op == nil {
		return nil
	}
	n := p.alloc(kOperator)
	if n != nil {
		n.op = op
	}
	return n
}

// javaResource reads the name of a Java resource ("Gr").
func (p *cxxParser) javaResource() *node {
	n := p.number()
	if n <= 1 || !p.eat('_') {
		return nil
	}
	n--
	var ret *node
	for n > 0 {
		var next *node
		if p.peek() == 0 {
			return nil
		}
		if p.peek() == '$' {
			var c byte
			switch p.peekNext() {
			case 'S':
				c = '/'
			case '_':
				c = '.'
			case '$':
				c = '$'
			default:
				return nil
			}
			next = p.makeNum(kCharacter, int(c))
			p.skip(2)
			n -= 2
		} else {
			i := 0
			for i < n && p.at(p.pos+i) != 0 && p.at(p.pos+i) != '$' {
				i++
			}
			next = p.makeName(p.s[p.pos : p.pos+i])
			p.skip(i)
			n -= i
		}
		if next == nil {
			return nil
		}
		if ret == nil {
			ret = next
		} else if ret = p.comp(kCompoundName, ret, next); ret == nil {
			return nil
		}
	}
	return p.comp(kJavaResource, ret, nil)
}

// specialName reads the names of vtables, typeinfo, thunks, guard
// variables and the like ("T..." and "G...").
func (p *cxxParser) specialName() *node {
	if p.eat('T') {
		switch p.take() {
		case 'V':
			return p.comp(kVtable, p.typ(), nil)
		case 'T':
			return p.comp(kVTT, p.typ(), nil)
		case 'I':
			return p.comp(kTypeinfo, p.typ(), nil)
		case 'S':
			return p.comp(kTypeinfoName, p.typ(), nil)
		case 'h':
			if !p.callOffset('h') {
				return nil
			}
			return p.comp(kThunk, p.encoding(false), nil)
		case 'v':
			if !p.callOffset('v') {
				return nil
			}
			return p.comp(kVirtualThunk, p.encoding(false), nil)
		case 'c':
			// Two call offsets: the this-adjustment, then the result's.
			if !p.callOffset(0) {
				return nil
			}
			if !p.callOffset(0) {
				return nil
			}
			return p.comp(kCovariantThunk, p.encoding(false), nil)
		case 'C':
			derived := p.typ()
			if p.number() < 0 || !p.eat('_') {
				return nil
			}
			base := p.typ()
			return p.comp(kConstructionVtable, base, derived)
		case 'F':
			return p.comp(kTypeinfoFn, p.typ(), nil)
		case 'J':
			return p.comp(kJavaClass, p.typ(), nil)
		case 'H':
			return p.comp(kTLSInit, p.name(false), nil)
		case 'W':
			return p.comp(kTLSWrapper, p.name(false), nil)
		case 'A':
			return p.comp(kTparmObj, p.templateArg(), nil)
		}
		return nil
	}
	if p.eat('G') {
		switch p.take() {
		case 'V':
			return p.comp(kGuard, p.name(false), nil)
		case 'R':
			n := p.name(false)
			return p.comp(kRefTemp, n, p.numberNode())
		case 'A':
			return p.comp(kHiddenAlias, p.encoding(false), nil)
		case 'I':
			var module *node
			if !p.moduleName(&module) || module == nil {
				return nil
			}
			return p.comp(kModuleInit, module, nil)
		case 'T':
			if p.take() == 'n' {
				return p.comp(kNonTransactionClone, p.encoding(false), nil)
			}
			return p.comp(kTransactionClone, p.encoding(false), nil)
		case 'r':
			return p.javaResource()
		}
	}
	return nil
}

// numberNode reads a number into a node.
func (p *cxxParser) numberNode() *node {
	n := p.alloc(kNumber)
	if n != nil {
		n.num = p.number()
	}
	return n
}

// callOffset reads a thunk's offset ("h <n> _" or "v <n> _ <n> _"); c is
// its first letter when already read.
func (p *cxxParser) callOffset(c byte) bool {
	if c == 0 {
		c = p.take()
	}
	switch c {
	case 'h':
		p.number()
	case 'v':
		p.number()
		if !p.eat('_') {
			return false
		}
		p.number()
	default:
		return false
	}
	return p.eat('_')
}

// ctorDtorName reads "C1".."C5", "CI1 <base>", "CI2 <base>" or
// "D0".."D5" (not "D3"). The constructor or destructor is named after the
// last source name read: for an inheriting constructor, the base class's.
func (p *cxxParser) ctorDtorName() *node {
	switch p.peek() {
	case 'C':
		inheriting := false
		if p.peekNext() == 'I' {
			inheriting = true
			p.skip(1)
		}
		c := p.peekNext()
		if c < '1' || c > '5' {
			return nil
		}
		p.skip(2)
		if inheriting {
			p.typ()
		}
		return p.makeNamed(kCtor, int(c-'0'), p.lastName)
	case 'D':
		c := p.peekNext()
		if c != '0' && c != '1' && c != '2' && c != '4' && c != '5' {
			return nil
		}
		p.skip(2)
		return p.makeNamed(kDtor, int(c-'0'), p.lastName)
	}
	return nil
}

// nextIsTypeQualifier reports whether a qualifier comes next: r, V, K or
// Dx, Do, DO, Dw.
func (p *cxxParser) nextIsTypeQualifier() bool {
	switch p.peek() {
	case 'r', 'V', 'K':
		return true
	case 'D':
		switch p.peekNext() {
		case 'x', 'o', 'O', 'w':
			return true
		}
	}
	return false
}

// typ reads a <type>.
func (p *cxxParser) typ() *node {
	if p.nextIsTypeQualifier() {
		// All qualifiers at once: the base type and the fully
		// qualified type are candidates, partial ones are not.
		var ret *node
		slot := p.cvQualifiers(&ret, false)
		if slot == nil {
			return nil
		}
		if p.peek() == 'F' {
			// Qualifiers before a function type apply to "this":
			// the unqualified function type is no candidate.
			*slot = p.functionType()
		} else {
			*slot = p.typ()
		}
		if *slot == nil {
			return nil
		}
		if k := (*slot).kind; k == kRvalueReferenceThis || k == kReferenceThis {
			// The ref-qualifier prints after the cv-qualifiers.
			fn := (*slot).left
			(*slot).left = ret
			ret = *slot
			*slot = fn
		}
		if !p.addSub(ret) {
			return nil
		}
		return ret
	}

	canSub := true
	var ret *node
	c := p.peek()
	switch c {
	case 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'l', 'm', 'n', 'o',
		's', 't', 'v', 'w', 'x', 'y', 'z':
		ret = p.makeBuiltin(&builtinByLetter[c-'a'])
		canSub = false
		p.skip(1)
	case 'u':
		p.skip(1)
		ret = p.comp(kVendorType, p.sourceName(), nil)
	case 'F':
		ret = p.functionType()
	case 'A':
		ret = p.arrayType()
	case 'M':
		ret = p.pointerToMemberType()
	case 'T':
		ret = p.templateParam()
		if p.peek() == 'I' {
			// A template template parameter with its arguments,
			// except in a conversion operator's type, where the
			// arguments may belong to the operator's template.
			if !p.inConversion {
				if !p.addSub(ret) {
					return nil
				}
				ret = p.comp(kTemplate, ret, p.templateArgs())
			} else {
				mark := p.checkpoint()
				args := p.templateArgs()
				if p.peek() == 'I' {
					if !p.addSub(ret) {
						return nil
					}
					ret = p.comp(kTemplate, ret, args)
				} else {
					p.backtrack(mark)
				}
			}
		}
	case 'O':
		p.skip(1)
		ret = p.comp(kRvalueReference, p.typ(), nil)
	case 'P':
		p.skip(1)
		ret = p.comp(kPointer, p.typ(), nil)
	case 'R':
		p.skip(1)
		ret = p.comp(kReference, p.typ(), nil)
	case 'C':
		p.skip(1)
		ret = p.comp(kComplex, p.typ(), nil)
	case 'G':
		p.skip(1)
		ret = p.comp(kImaginary, p.typ(), nil)
	case 'U':
		p.skip(1)
		q := p.sourceName()
		if p.peek() == 'I' {
			q = p.comp(kTemplate, q, p.templateArgs())
		}
		ret = p.comp(kVendorTypeQual, p.typ(), q)
	case 'D':
		canSub = false
		p.skip(1)
		switch p.take() {
		case 'T', 't':
			ret = p.comp(kDecltype, p.expression(), nil)
			if ret != nil && p.take() != 'E' {
				ret = nil
			}
			canSub = true
		case 'p':
			ret = p.comp(kPackExpansion, p.typ(), nil)
			canSub = true
		case 'a':
			ret = p.makeName("auto")
		case 'c':
			ret = p.makeName("decltype(auto)")
		case 'f':
			ret = p.makeBuiltin(&builtinDecimal32)
		case 'd':
			ret = p.makeBuiltin(&builtinDecimal64)
		case 'e':
			ret = p.makeBuiltin(&builtinDecimal128)
		case 'h':
			ret = p.makeBuiltin(&builtinHalf)
		case 'u':
			ret = p.makeBuiltin(&builtinChar8)
		case 's':
			ret = p.makeBuiltin(&builtinChar16)
		case 'i':
			ret = p.makeBuiltin(&builtinChar32)
		case 'F':
			// _Float<N>, _Float<N>x, std::bfloat16_t.
			width := p.number()
			if p.peek() == 'b' {
				if width != 16 {
					return nil
				}
				p.skip(1)
				ret = p.makeBuiltin(&builtinBFloat16)
				break
			}
			var suffix byte
			if p.peek() == 'x' {
				suffix = 'x'
			}
			if suffix == 0 && p.peek() != '_' {
				return nil
			}
			ret = p.alloc(kExtendedBuiltinType)
			if ret != nil {
				ret.builtin, ret.num, ret.suffix = &builtinFloatN, int(int16(width)), suffix
			}
			p.skip(1)
		case 'v':
			ret = p.vectorType()
			canSub = true
		case 'n':
			ret = p.makeBuiltin(&builtinNullptr)
		default:
			return nil
		}
	default:
		return p.name(true)
	}
	if canSub && !p.addSub(ret) {
		return nil
	}
	return ret
}

// cvQualifiers reads qualifiers into a chain hanging from *slot and
// returns the slot the qualified thing goes into, or nil on failure. For
// a member function (memberFn), or when a function type follows, the
// qualifiers apply to "this".
func (p *cxxParser) cvQualifiers(slot **node, memberFn bool) **node {
	start := slot
	c := p.peek()
	for p.nextIsTypeQualifier() {
		var k kind
		var right *node
		p.skip(1)
		switch c {
		case 'r':
			k = pick(memberFn, kRestrictThis, kRestrict)
		case 'V':
			k = pick(memberFn, kVolatileThis, kVolatile)
		case 'K':
			k = pick(memberFn, kConstThis, kConst)
		default:
			switch d := p.take(); d {
			case 'x':
				k = kTransactionSafe
			case 'o', 'O':
				k = kNoexcept
				if d == 'O' {
					right = p.expression()
					if right == nil || !p.eat('E') {
						return nil
					}
				}
			case 'w':
				k = kThrowSpec
				right = p.parmList()
				if right == nil || !p.eat('E') {
					return nil
				}
			default:
				return nil
			}
		}
		*slot = p.comp(k, nil, right)
		if *slot == nil {
			return nil
		}
		slot = &(*slot).left
		c = p.peek()
	}
	if !memberFn && c == 'F' {
		for s := start; s != slot; s = &(*s).left {
			switch (*s).kind {
			case kRestrict:
				(*s).kind = kRestrictThis
			case kVolatile:
				(*s).kind = kVolatileThis
			case kConst:
				(*s).kind = kConstThis
			}
		}
	}
	return slot
}

func pick(cond bool, a, b kind) kind {
	if cond {
		return a
	}
	return b
}

// refQualifier reads a member function's "R" or "O" around sub.
func (p *cxxParser) refQualifier(sub *node) *node {
	switch p.peek() {
	case 'R':
		p.skip(1)
		return p.comp(kReferenceThis, sub, nil)
	case 'O':
		p.skip(1)
		return p.comp(kRvalueReferenceThis, sub, nil)
	}
	return sub
}

// functionType reads "F [Y] <bare-function-type> [<ref-qualifier>] E".
func (p *cxxParser) functionType() *node {
	if p.fnDepth > recursionLimit {
		return nil
	}
	p.fnDepth++
	defer func() { p.fnDepth-- }()
	if !p.eat('F') {
		return nil
	}
	p.eat('Y') // extern "C": not printed
	ret := p.bareFunctionType(true)
	ret = p.refQualifier(ret)
	if !p.eat('E') {
		return nil
	}
	return ret
}

// parmList reads parameter types up to 'E', '.' or the end; a lone
// "void" is dropped.
func (p *cxxParser) parmList() *node {
	var head *node
	slot := &head
	for {
		c := p.peek()
		if c == 0 || c == 'E' || c == '.' {
			break
		}
		if (c == 'R' || c == 'O') && p.peekNext() == 'E' {
			break // a ref-qualifier of the function
		}
		t := p.typ()
		if t == nil {
			return nil
		}
		*slot = p.comp(kArgList, t, nil)
		if *slot == nil {
			return nil
		}
		slot = &(*slot).right
	}
	if head == nil {
		return nil
	}
	if head.right == nil && head.left.kind == kBuiltinType && head.left.builtin.lit == litVoid {
		head.left = nil
	}
	return head
}

// bareFunctionType reads [J] [<return type>] <parameter types>.
func (p *cxxParser) bareFunctionType(hasReturn bool) *node {
	if p.eat('J') {
		hasReturn = true
	}
	var ret *node
	if hasReturn {
		if ret = p.typ(); ret == nil {
			return nil
		}
	}
	params := p.parmList()
	if params == nil {
		return nil
	}
	return p.comp(kFunctionType, ret, params)
}

// arrayType reads "A [<dimension>] _ <element type>".
func (p *cxxParser) arrayType() *node {
	if !p.eat('A') {
		return nil
	}
	var dim *node
	switch c := p.peek(); {
	case c == '_':
	case isDigit(c):
		start := p.pos
		for p.skip(1); isDigit(p.peek()); p.skip(1) {
		}
		if dim = p.makeName(p.s[start:p.pos]); dim == nil {
			return nil
		}
	default:
		if dim = p.expression(); dim == nil {
			return nil
		}
	}
	if !p.eat('_') {
		return nil
	}
	return p.comp(kArrayType, dim, p.typ())
}

// vectorType reads the rest of "Dv <number> _ <type>" or
// "Dv _ <expression> _ <type>".
func (p *cxxParser) vectorType() *node {
	var dim *node
	if p.eat('_') {
		dim = p.expression()
	} else {
		dim = p.numberNode()
	}
	if dim == nil || !p.eat('_') {
		return nil
	}
	return p.comp(kVectorType, dim, p.typ())
}

// pointerToMemberType reads "M <class type> <member type>".
func (p *cxxParser) pointerToMemberType() *node {
	if !p.eat('M') {
		return nil
	}
	class := p.typ()
	if class == nil {
		return nil
	}
	member := p.typ()
	if member == nil {
		return nil
	}
	return p.comp(kPtrmemType, class, member)
}

// compactNumber reads "_" (0) or "<n> _" (n+1); -1 on failure.
func (p *cxxParser) compactNumber() int {
	var n int
	switch p.peek() {
	case '_':
		n = 0
	case 'n':
		return -1
	default:
		n = p.number() + 1
		if n > math.MaxInt32 {
			return -1 // a C int wraps negative here
		}
	}
	if n < 0 || !p.eat('_') {
		return -1
	}
	return n
}

// templateParam reads "T_" or "T <n> _".
func (p *cxxParser) templateParam() *node {
	if !p.eat('T') {
		return nil
	}
	n := p.compactNumber()
	if n < 0 {
		return nil
	}
	return p.makeNum(kTemplateParam, n)
}

// templateArgs reads "I <template-arg>* E" (or "J", a pack).
func (p *cxxParser) templateArgs() *node {
	if c := p.peek(); c != 'I' && c != 'J' {
		return nil
	}
	p.skip(1)
	return p.templateArgList()
}

// templateArgList reads template arguments up to 'E'. They do not count
// as the last name read (a constructor after them is named after the
// template).
func (p *cxxParser) templateArgList() *node {
	hold := p.lastName
	if p.eat('E') {
		return p.comp(kTemplateArgList, nil, nil) // an empty pack
	}
	var head *node
	slot := &head
	for {
		a := p.templateArg()
		if a == nil {
			return nil
		}
		*slot = p.comp(kTemplateArgList, a, nil)
		if *slot == nil {
			return nil
		}
		slot = &(*slot).right
		if p.eat('E') {
			break
		}
	}
	p.lastName = hold
	return head
}

// templateArg reads a type, "X <expression> E", a literal or a pack.
func (p *cxxParser) templateArg() *node {
	switch p.peek() {
	case 'X':
		p.skip(1)
		n := p.expression()
		if !p.eat('E') {
			return nil
		}
		return n
	case 'L':
		return p.exprPrimary()
	case 'I', 'J':
		return p.templateArgs()
	}
	return p.typ()
}

// exprList reads expressions up to term.
func (p *cxxParser) exprList(term byte) *node {
	if p.eat(term) {
		return p.comp(kArgList, nil, nil)
	}
	var head *node
	slot := &head
	for {
		e := p.expression()
		if e == nil {
			return nil
		}
		*slot = p.comp(kArgList, e, nil)
		if *slot == nil {
			return nil
		}
		slot = &(*slot).right
		if p.eat(term) {
			return head
		}
	}
}

// unresolvedName reads the rest of "sr ...". The current grammar
// ("sr <qualifiers> E <name>") and the old one ("sr <type> <name>")
// overlap; the first attempt reads the current one and marks that it
// did, and the whole name is read again with the old one if it fails.
func (p *cxxParser) unresolvedName() *node {
	p.skip(2)
	var scope *node
	if c := p.peek(); p.unresolved != 0 && (isDigit(c) || isLower(c) || c == 'C' || c == 'U' || c == 'L') {
		p.unresolved = -1
		scope = p.prefix(false)
		p.eat('E')
	} else {
		scope = p.typ()
	}
	n := p.unqualifiedName(scope, nil)
	if p.peek() == 'I' {
		n = p.comp(kTemplate, n, p.templateArgs())
	}
	return n
}

// expression reads an <expression>.
func (p *cxxParser) expression() *node {
	was := p.inExpression
	p.inExpression = true
	n := p.expression1()
	p.inExpression = was
	return n
}

func (p *cxxParser) expression1() *node {
	c, c2 := p.peek(), p.peekNext()
	switch {
	case c == 'L':
		return p.exprPrimary()
	case c == 'T':
		return p.templateParam()
	case c == 's' && c2 == 'r':
		return p.unresolvedName()
	case c == 's' && c2 == 'p':
		p.skip(2)
		return p.comp(kPackExpansion, p.expression1(), nil)
	case c == 'f' && c2 == 'p':
		// A function parameter in a trailing return type.
		p.skip(2)
		idx := 0
		if !p.eat('T') {
			idx = p.compactNumber()
			if idx == math.MaxInt32 || idx == -1 {
				return nil
			}
			idx++
		}
		return p.makeNum(kFunctionParam, idx)
	case isDigit(c) || (c == 'o' && c2 == 'n'):
		// A dependent name called in the expression.
		if c == 'o' {
			p.skip(2)
		}
		n := p.unqualifiedName(nil, nil)
		if n == nil {
			return nil
		}
		if p.peek() == 'I' {
			return p.comp(kTemplate, n, p.templateArgs())
		}
		return n
	case (c == 'i' || c == 't') && c2 == 'l':
		// A braced initializer list, with a type for "tl".
		var t *node
		p.skip(2)
		if c == 't' {
			t = p.typ()
		}
		if p.peek() == 0 || p.peekNext() == 0 {
			return nil
		}
		return p.comp(kInitializerList, t, p.exprList('E'))
	case c == 'u':
		// A vendor's expression.
		p.skip(1)
		name := p.sourceName()
		args := p.templateArgList()
		return p.comp(kVendorExpr, name, args)
	}
	return p.operatorExpression()
}

// operatorExpression reads an operator and its operands.
func (p *cxxParser) operatorExpression() *node {
	op := p.operatorName()
	if op == nil {
		return nil
	}
	code := ""
	var arity int
	switch op.kind {
	case kOperator:
		code = op.op.code
		if code == "st" {
			return p.comp(kUnary, op, p.typ())
		}
		arity = op.op.arity
	case kExtendedOperator:
		arity = op.num
	case kCast:
		arity = 1
	default:
		return nil
	}
	switch arity {
	case 0:
		return p.comp(kNullary, op, nil)
	case 1:
		suffix := false
		if code == "pp" || code == "mm" {
			suffix = !p.eat('_') // "pp_" is the prefix form
		}
		var operand *node
		switch {
		case op.kind == kCast && p.eat('_'):
			operand = p.exprList('E')
		case code == "sP":
			operand = p.templateArgList()
		default:
			operand = p.expression1()
		}
		if suffix {
			operand = p.comp(kBinaryArgs, operand, operand)
		}
		return p.comp(kUnary, op, operand)
	case 2:
		if code == "" {
			return nil
		}
		var left, right *node
		switch {
		case op.op.isNewCast():
			left = p.typ()
		case code[0] == 'f':
			left = p.operatorName() // a fold expression's operator
		case code == "di":
			left = p.unqualifiedName(nil, nil)
		default:
			left = p.expression1()
		}
		switch code {
		case "cl":
			right = p.exprList('E')
		case "dt", "pt":
			if c, c2 := p.peek(), p.peekNext(); (c == 'g' && c2 == 's') || (c == 's' && c2 == 'r') {
				right = p.expression1()
			} else {
				right = p.unqualifiedName(nil, nil)
				if p.peek() == 'I' {
					right = p.comp(kTemplate, right, p.templateArgs())
				}
			}
		default:
			right = p.expression1()
		}
		return p.comp(kBinary, op, p.comp(kBinaryArgs, left, right))
	case 3:
		if code == "" {
			return nil
		}
		var first, second, third *node
		switch {
		case code == "qu" || code == "dX":
			first = p.expression1()
			second = p.expression1()
			third = p.expression1()
			if third == nil {
				return nil
			}
		case code[0] == 'f':
			first = p.operatorName()
			second = p.expression1()
			third = p.expression1()
			if third == nil {
				return nil
			}
		case code == "nw" || code == "na":
			first = p.exprList('_')
			second = p.typ()
			switch {
			case p.eat('E'):
			case p.peek() == 'p' && p.peekNext() == 'i':
				p.skip(2)
				third = p.exprList('E')
			case p.peek() == 'i' && p.peekNext() == 'l':
				third = p.expression1()
			default:
				return nil
			}
		default:
			return nil
		}
		return p.comp(kTrinary, op, p.comp(kTrinaryArg1, first, p.comp(kTrinaryArg2, second, third)))
	}
	return nil
}

// exprPrimary reads "L <type> <value> E" or "L <mangled-name> E".
func (p *cxxParser) exprPrimary() *node {
	if !p.eat('L') {
		return nil
	}
	var ret *node
	if c := p.peek(); c == '_' || c == 'Z' {
		ret = p.mangledName(false)
	} else {
		t := p.typ()
		if t == nil {
			return nil
		}
		if t.kind == kBuiltinType && t.builtin == &builtinNullptr && p.eat('E') {
			return t
		}
		k := kLiteral
		if p.eat('n') {
			k = kLiteralNeg
		}
		start := p.pos
		for p.peek() != 'E' {
			if p.peek() == 0 {
				return nil
			}
			p.skip(1)
		}
		ret = p.comp(k, t, p.makeName(p.s[start:p.pos]))
	}
	if !p.eat('E') {
		return nil
	}
	return ret
}

// localName reads "Z <function> E <entity> [<discriminator>]", "... E s"
// (a string literal) and "... E d [<n>] _ <entity>" (a default argument).
func (p *cxxParser) localName() *node {
	if !p.eat('Z') {
		return nil
	}
	fn := p.encoding(false)
	if fn == nil || !p.eat('E') {
		return nil
	}
	var name *node
	if p.eat('s') {
		if !p.discriminator() {
			return nil
		}
		name = p.makeName("string literal")
	} else {
		arg := -1
		if p.eat('d') {
			if arg = p.compactNumber(); arg < 0 {
				return nil
			}
		}
		name = p.name(false)
		if name != nil && name.kind != kLambda && name.kind != kUnnamedType {
			if !p.discriminator() {
				return nil
			}
		}
		if arg >= 0 {
			d := p.alloc(kDefaultArg)
			if d != nil {
				d.num, d.left = arg, name
			}
			name = d
		}
	}
	// The enclosing function's return type is not printed.
	if fn.kind == kTypedName && fn.right.kind == kFunctionType {
		fn.right.left = nil
	}
	return p.comp(kLocalName, fn, name)
}

// discriminator reads and drops "_ <n>" or "__ <n> _".
func (p *cxxParser) discriminator() bool {
	if !p.eat('_') {
		return true
	}
	unders := 1
	if p.eat('_') {
		unders++
	}
	d := p.number()
	if d < 0 {
		return false
	}
	if unders > 1 && d >= 10 {
		return p.eat('_')
	}
	return true
}

// templateParm reads one parameter of a template head (a lambda's
// explicit template parameters): Ty, Tn <type>, Tt <head> E, Tp <parm>.
func (p *cxxParser) templateParm(bad *bool) *node {
	if p.peek() != 'T' {
		return nil
	}
	var op *node
	var k kind
	switch p.peekNext() {
	case 'p':
		p.skip(2)
		k = kTemplatePackParm
		if op = p.templateParm(bad); op == nil {
			*bad = true
			return nil
		}
	case 'y':
		p.skip(2)
		k = kTemplateTypeParm
	case 'n':
		p.skip(2)
		k = kTemplateNonTypeParm
		if op = p.typ(); op == nil {
			*bad = true
			return nil
		}
	case 't':
		p.skip(2)
		k = kTemplateTemplateParm
		if op = p.templateHead(bad); op == nil || !p.eat('E') {
			*bad = true
			return nil
		}
	default:
		return nil
	}
	return p.comp(k, op, nil)
}

// templateHead reads template parameters while they come.
func (p *cxxParser) templateHead(bad *bool) *node {
	var head *node
	slot := &head
	for {
		op := p.templateParm(bad)
		if op == nil {
			break
		}
		*slot = op
		slot = &op.right
	}
	if head != nil {
		head = p.comp(kTemplateHead, head, nil)
	}
	return head
}

// lambda reads "Ul [<template-head>] <parameters> E [<n>] _".
func (p *cxxParser) lambda() *node {
	if !p.eat('U') || !p.eat('l') {
		return nil
	}
	bad := false
	head := p.templateHead(&bad)
	if bad {
		return nil
	}
	params := p.parmList()
	if params == nil {
		return nil
	}
	if head != nil {
		head.right = params
		params = head
	}
	if !p.eat('E') {
		return nil
	}
	num := p.compactNumber()
	if num < 0 {
		return nil
	}
	n := p.alloc(kLambda)
	if n != nil {
		n.left, n.num = params, num
	}
	return n
}

// unnamedType reads "Ut [<n>] _", a substitution candidate.
func (p *cxxParser) unnamedType() *node {
	if !p.eat('U') || !p.eat('t') {
		return nil
	}
	num := p.compactNumber()
	if num < 0 {
		return nil
	}
	n := p.makeNum(kUnnamedType, num)
	if !p.addSub(n) {
		return nil
	}
	return n
}

// cloneSuffix reads ".<letters>" and ".<digits>" parts of a clone's name.
func (p *cxxParser) cloneSuffix(enc *node) *node {
	start := p.pos
	end := start
	isWord := func(c byte) bool { return isLower(c) || isDigit(c) || c == '_' }
	if p.at(end) == '.' && isWord(p.at(end+1)) {
		for end += 2; isWord(p.at(end)); end++ {
		}
	}
	for p.at(end) == '.' && isDigit(p.at(end+1)) {
		for end += 2; isDigit(p.at(end)); end++ {
		}
	}
	p.pos = end
	return p.comp(kClone, enc, p.makeName(p.s[start:end]))
}

// substitution reads "S_", "S <seq-id> _" (an earlier candidate) or
// "S <letter>" (a standard abbreviation). Before a constructor or
// destructor (prefix, and 'C' or 'D' next) an abbreviation takes its
// full spelling, and it names the constructor.
func (p *cxxParser) substitution(prefix bool) *node {
	if !p.eat('S') {
		return nil
	}
	c := p.take()
	if c == '_' || isDigit(c) || isUpper(c) {
		var id uint32
		if c != '_' {
			for {
				var next uint32
				switch {
				case isDigit(c):
					next = id*36 + uint32(c-'0')
				case isUpper(c):
					next = id*36 + uint32(c-'A') + 10
				default:
					return nil
				}
				if next < id {
					return nil
				}
				id = next
				if c = p.take(); c == '_' {
					break
				}
			}
			id++
		}
		if uint64(id) >= uint64(len(p.subs)) {
			return nil
		}
		return p.subs[id]
	}
	full := prefix && (p.peek() == 'C' || p.peek() == 'D')
	for i := range standardSubs {
		sub := &standardSubs[i]
		if c != sub.code {
			continue
		}
		if sub.lastName != "" {
			p.lastName = p.makeSub(sub.lastName)
		}
		s := sub.short
		if full {
			s = sub.full
		}
		n := p.makeSub(s)
		if p.peek() == 'B' {
			// With ABI tags the abbreviation becomes a candidate.
			n = p.abiTags(n)
			if !p.addSub(n) {
				return nil
			}
		}
		return n
	}
	return nil
}

// parserMark is a point to return to after a trial parse.
type parserMark struct{ pos, nodes, subs int }

func (p *cxxParser) checkpoint() parserMark { return parserMark{p.pos, p.nodes, len(p.subs)} }

func (p *cxxParser) backtrack(m parserMark) {
	p.pos, p.nodes, p.subs = m.pos, m.nodes, p.subs[:m.subs]
}
