package demangle

import "strconv"

// MaxOutput is the longest demangled name returned; a longer one (which
// only a name built to nest substitutions or back references can produce)
// is reported as not demangled. libiberty has no such cap. The longest of
// the 600,000 real names the tests read demangles to 14,795 bytes.
const MaxOutput = 1 << 18

// maxSteps bounds a demangler's work on one name (nodes printed or
// searched, types read), for the same kind of name: one whose printing
// would take exponential time, perhaps printing nothing. Real names take
// at most 3,630.
const maxSteps = 1 << 20

// printDepthLimit is libiberty's MAX_RECURSION_COUNT: the deepest the
// printer goes.
const printDepthLimit = 1024

// flushLen is where libiberty's printer flushes its output buffer: it
// holds 255 bytes, and a separator it takes back after a flush stays.
const flushLen = 255

// printOpts are libiberty's options that change the printing.
type printOpts uint8

const (
	optJava       printOpts = 1 << iota // Java: '.', no '*', JArray<T> as T[]
	optRetPostfix                       // a function's return type after it
	optRetDrop                          // no return types
)

// tmplFrame is an entry of the stack of templates whose arguments the
// template parameters being printed refer to.
type tmplFrame struct {
	next *tmplFrame
	decl *node // a kTemplate (or a lambda's template head, or nil)
}

// modFrame is an entry of the stack of type modifiers (pointers,
// qualifiers, function and array types) waiting to be printed around the
// name or type they apply to.
type modFrame struct {
	next      *modFrame
	mod       *node
	printed   bool
	templates *tmplFrame // the templates in force where it was pushed
}

// savedScope records the templates in force when a reference to a
// template parameter was first printed, to print it the same way when a
// substitution reaches it again.
type savedScope struct {
	container *node
	templates *tmplFrame
}

// cxxPrinter prints a parsed name the way libiberty's printer does.
type cxxPrinter struct {
	out      []byte
	bufStart int // where libiberty's current buffer starts in out
	flushes  int
	last     byte // the last byte written, even if taken back

	templates *tmplFrame
	mods      *modFrame
	stack     []*node // the nodes being printed, outermost first
	depth     int
	failed    bool
	tooLarge  bool // failed for MaxOutput or maxSteps, where libiberty goes on
	steps     int

	lambdaParms int // in a lambda: 1 + its explicit template parameters
	packIndex   int // the pack element being printed, -1 for all
	current     *node

	scopes     []savedScope
	maxScopes  int
	copiesLeft int // template entries scopes may still copy
}

// ch writes one byte.
func (pr *cxxPrinter) ch(c byte) {
	if len(pr.out)-pr.bufStart == flushLen {
		pr.flush()
	}
	pr.out = append(pr.out, c)
	pr.last = c
	if len(pr.out) > MaxOutput {
		pr.overflow()
	}
}

// overflow stops the printing: the name needs more output or work than
// egprof allows.
func (pr *cxxPrinter) overflow() {
	pr.failed = true
	pr.tooLarge = true
}

// str writes s.
func (pr *cxxPrinter) str(s string) {
	if s == "" {
		return
	}
	for len(s) > 0 {
		room := flushLen - (len(pr.out) - pr.bufStart)
		if room == 0 {
			pr.flush()
			room = flushLen
		}
		n := min(room, len(s))
		pr.out = append(pr.out, s[:n]...)
		s = s[n:]
		pr.last = pr.out[len(pr.out)-1]
	}
	if len(pr.out) > MaxOutput {
		pr.overflow()
	}
}

func (pr *cxxPrinter) flush() {
	pr.bufStart = len(pr.out)
	pr.flushes++
}

func (pr *cxxPrinter) num(n int) { pr.str(strconv.Itoa(n)) }

// print prints a node, refusing (as libiberty does) a missing node, a
// node already twice on the stack (a substitution that refers to
// itself) and nesting deeper than printDepthLimit.
func (pr *cxxPrinter) print(o printOpts, n *node) {
	if pr.steps++; pr.steps > maxSteps {
		pr.overflow()
		return
	}
	if n == nil || n.printing > 1 || pr.depth > printDepthLimit {
		pr.failed = true
		return
	}
	n.printing++
	pr.depth++
	pr.stack = append(pr.stack, n)
	pr.printNode(o, n)
	pr.stack = pr.stack[:len(pr.stack)-1]
	n.printing--
	pr.depth--
}

// lookupTemplateArg returns the argument a template parameter stands for
// in the innermost template being printed.
func (pr *cxxPrinter) lookupTemplateArg(param *node) *node {
	if pr.templates == nil || pr.templates.decl == nil {
		pr.failed = true
		return nil
	}
	return indexTemplateArg(pr.templates.decl.right, param.num)
}

// indexTemplateArg returns argument i of a list (the whole list for a
// negative i), or nil.
func indexTemplateArg(args *node, i int) *node {
	if i < 0 {
		return args
	}
	a := args
	for ; a != nil; a = a.right {
		if a.kind != kTemplateArgList {
			return nil
		}
		if i <= 0 {
			break
		}
		i--
	}
	if i != 0 || a == nil {
		return nil
	}
	return a.left
}

// findPack returns an argument pack that a template parameter under n
// stands for, or nil.
func (pr *cxxPrinter) findPack(n *node) *node {
	if pr.steps++; pr.steps > maxSteps {
		pr.overflow()
		return nil
	}
	if n == nil {
		return nil
	}
	switch n.kind {
	case kTemplateParam:
		if a := pr.lookupTemplateArg(n); a != nil && a.kind == kTemplateArgList {
			return a
		}
		return nil
	case kPackExpansion, kLambda, kName, kTaggedName, kOperator, kBuiltinType,
		kExtendedBuiltinType, kSubStd, kCharacter, kFunctionParam, kUnnamedType,
		kDefaultArg, kNumber:
		return nil
	case kExtendedOperator, kCtor, kDtor:
		return pr.findPack(n.left)
	}
	if a := pr.findPack(n.left); a != nil {
		return a
	}
	return pr.findPack(n.right)
}

// packLength counts the elements of an argument pack.
func packLength(n *node) int {
	count := 0
	for ; n != nil && n.kind == kTemplateArgList && n.left != nil; n = n.right {
		count++
	}
	return count
}

// argsLength counts template arguments, expanding pack expansions.
func (pr *cxxPrinter) argsLength(n *node) int {
	count := 0
	for ; n != nil && n.kind == kTemplateArgList; n = n.right {
		e := n.left
		if e == nil {
			break
		}
		if e.kind == kPackExpansion {
			count += packLength(pr.findPack(e.left))
		} else {
			count++
		}
	}
	return count
}

// subexpr prints an operand, in parentheses unless it is a plain name.
func (pr *cxxPrinter) subexpr(o printOpts, n *node) {
	if n == nil {
		pr.failed = true
		return
	}
	simple := n.kind == kName || n.kind == kQualName || n.kind == kInitializerList || n.kind == kFunctionParam
	if !simple {
		pr.ch('(')
	}
	pr.print(o, n)
	if !simple {
		pr.ch(')')
	}
}

// saveScope records the templates in force for container.
func (pr *cxxPrinter) saveScope(container *node) {
	if len(pr.scopes) >= pr.maxScopes {
		pr.failed = true
		return
	}
	var head *tmplFrame
	link := &head
	for t := pr.templates; t != nil; t = t.next {
		if pr.copiesLeft <= 0 {
			pr.failed = true
			return
		}
		pr.copiesLeft--
		c := &tmplFrame{decl: t.decl}
		*link = c
		link = &c.next
	}
	pr.scopes = append(pr.scopes, savedScope{container, head})
}

func (pr *cxxPrinter) savedScope(container *node) *savedScope {
	for i := range pr.scopes {
		if pr.scopes[i].container == container {
			return &pr.scopes[i]
		}
	}
	return nil
}

// countScopes walks the tree as libiberty does before printing, to size
// its tables of saved scopes: one per reference to a template parameter,
// and for each as many template entries as there are templates. The
// walk visits a node at most twice and goes no deeper than the limits;
// printing that needs more entries than counted fails.
func (pr *cxxPrinter) countScopes(n *node, scopes, templates *int) {
	if n == nil || n.counting > 1 || pr.depth > printDepthLimit {
		return
	}
	n.counting++
	switch n.kind {
	case kName, kTemplateParam, kFunctionParam, kSubStd, kBuiltinType,
		kExtendedBuiltinType, kOperator, kCharacter, kNumber, kUnnamedType,
		kStructuredBinding, kModuleName, kModulePartition, kModuleInit,
		kTemplateHead, kTemplateTypeParm, kTemplateNonTypeParm,
		kTemplateTemplateParm, kTemplatePackParm:
		return
	case kCtor, kDtor, kExtendedOperator, kGlobalConstructors, kGlobalDestructors,
		kModuleEntity, kLambda, kDefaultArg:
		pr.countScopes(n.left, scopes, templates)
		return
	case kTemplate:
		*templates++
	case kReference, kRvalueReference:
		if n.left.kind == kTemplateParam {
			*scopes++
		}
	case kCast, kConversion:
	default:
		if !countsBothChildren(n.kind) {
			return
		}
	}
	if pr.depth > recursionLimit {
		return
	}
	pr.depth++
	pr.countScopes(n.left, scopes, templates)
	pr.countScopes(n.right, scopes, templates)
	pr.depth--
}

// countsBothChildren reports whether the counting walk goes into both
// children of a node of kind k.
func countsBothChildren(k kind) bool {
	switch k {
	case kQualName, kLocalName, kTypedName, kVtable, kVTT, kConstructionVtable,
		kTypeinfo, kTypeinfoName, kTypeinfoFn, kThunk, kVirtualThunk,
		kCovariantThunk, kJavaClass, kGuard, kTLSInit, kTLSWrapper, kRefTemp,
		kHiddenAlias, kRestrict, kVolatile, kConst, kRestrictThis, kVolatileThis,
		kConstThis, kReferenceThis, kRvalueReferenceThis, kTransactionSafe,
		kNoexcept, kThrowSpec, kVendorTypeQual, kPointer, kComplex, kImaginary,
		kVendorType, kFunctionType, kArrayType, kPtrmemType, kVectorType,
		kArgList, kTemplateArgList, kTparmObj, kInitializerList, kCast,
		kConversion, kNullary, kUnary, kBinary, kBinaryArgs, kTrinary,
		kTrinaryArg1, kTrinaryArg2, kLiteral, kLiteralNeg, kVendorExpr,
		kJavaResource, kCompoundName, kDecltype, kTransactionClone,
		kNonTransactionClone, kPackExpansion, kTaggedName, kClone:
		return true
	}
	return false
}

// printTree prints a whole parsed name; sizeHint is the length of the
// mangled name (the output is usually two to three times as long).
func printTree(o printOpts, root *node, sizeHint int, sc *scratch) (string, result) {
	pr := &cxxPrinter{}
	var scopes, templates int
	pr.countScopes(root, &scopes, &templates)
	pr.depth = 0
	pr.maxScopes = scopes
	pr.copiesLeft = scopes * templates
	pr.out, pr.stack = sc.out[:0], sc.stack[:0]
	if cap(pr.out) < 3*sizeHint {
		pr.out = make([]byte, 0, 3*sizeHint)
	}
	if pr.stack == nil {
		pr.stack = make([]*node, 0, 32)
	}
	pr.print(o, root)
	sc.out, sc.stack = pr.out, pr.stack
	switch {
	case pr.tooLarge:
		return "", tooLarge
	case pr.failed:
		return "", rejected
	}
	return string(pr.out), done
}

// printNode prints one node by its kind.
func (pr *cxxPrinter) printNode(o printOpts, n *node) {
	if pr.failed {
		return
	}
	switch n.kind {
	case kName:
		if o&optJava != 0 {
			pr.javaIdentifier(n.text)
		} else {
			pr.str(n.text)
		}
	case kTaggedName:
		pr.print(o, n.left)
		pr.str("[abi:")
		pr.print(o, n.right)
		pr.ch(']')
	case kStructuredBinding:
		pr.ch('[')
		for b := n; ; {
			pr.print(o, b.left)
			if b = b.right; b == nil {
				break
			}
			pr.str(", ")
		}
		pr.ch(']')
	case kModuleEntity:
		pr.print(o, n.left)
		pr.ch('@')
		pr.print(o, n.right)
	case kModuleName, kModulePartition:
		if n.left != nil {
			pr.print(o, n.left)
		}
		if n.kind == kModulePartition {
			pr.ch(':')
		} else if n.left != nil {
			pr.ch('.')
		}
		pr.print(o, n.right)
	case kQualName, kLocalName:
		pr.print(o, n.left)
		pr.scopeSeparator(o)
		local := n.right
		if local.kind == kDefaultArg {
			pr.defaultArg(local)
			local = local.left
		}
		pr.print(o, local)
	case kTypedName:
		pr.typedName(o, n)
	case kTemplate:
		pr.template(o, n)
	case kTemplateParam:
		pr.templateParam(o, n)
	case kTparmObj:
		pr.str("template parameter object for ")
		pr.print(o, n.left)
	case kCtor:
		pr.print(o, n.left)
	case kDtor:
		pr.ch('~')
		pr.print(o, n.left)
	case kModuleInit, kVtable, kVTT, kTypeinfo, kTypeinfoName, kTypeinfoFn,
		kThunk, kVirtualThunk, kCovariantThunk, kJavaClass, kGuard, kTLSInit,
		kTLSWrapper, kHiddenAlias, kTransactionClone, kNonTransactionClone,
		kJavaResource, kGlobalConstructors, kGlobalDestructors:
		pr.str(specialPrefix[n.kind])
		pr.print(o, n.left)
	case kConstructionVtable:
		pr.str("construction vtable for ")
		pr.print(o, n.left)
		pr.str("-in-")
		pr.print(o, n.right)
	case kRefTemp:
		pr.str("reference temporary #")
		pr.print(o, n.right)
		pr.str(" for ")
		pr.print(o, n.left)
	case kSubStd:
		pr.str(n.text)
	case kRestrict, kVolatile, kConst:
		// A qualifier already waiting (an array's element type may
		// be qualified twice) prints once.
		for m := pr.mods; m != nil; m = m.next {
			if m.printed {
				continue
			}
			if !isCVQualifier(m.mod.kind) {
				break
			}
			if m.mod.kind == n.kind {
				pr.print(o, n.left)
				return
			}
		}
		pr.modifier(o, n, nil, nil, false)
	case kReference, kRvalueReference:
		pr.reference(o, n)
	case kVendorTypeQual, kPointer, kComplex, kImaginary, kRestrictThis,
		kVolatileThis, kConstThis, kReferenceThis, kRvalueReferenceThis,
		kTransactionSafe, kNoexcept, kThrowSpec:
		pr.modifier(o, n, nil, nil, false)
	case kBuiltinType:
		if o&optJava != 0 {
			pr.str(n.builtin.javaName)
		} else {
			pr.str(n.builtin.name)
		}
	case kExtendedBuiltinType:
		pr.str(n.builtin.name)
		pr.num(n.num)
		if n.suffix != 0 {
			pr.ch(n.suffix)
		}
	case kVendorType:
		pr.print(o, n.left)
	case kFunctionType:
		pr.functionTypeNode(o, n)
	case kArrayType:
		pr.arrayTypeNode(o, n)
	case kPtrmemType, kVectorType:
		m := &modFrame{next: pr.mods, mod: n, templates: pr.templates}
		pr.mods = m
		pr.print(o, n.right)
		if !m.printed {
			pr.printMod(o, n)
		}
		pr.mods = m.next
	case kArgList, kTemplateArgList:
		pr.list(o, n)
	case kInitializerList:
		if n.left != nil {
			pr.print(o, n.left)
		}
		pr.ch('{')
		pr.print(o, n.right)
		pr.ch('}')
	case kOperator:
		pr.str("operator")
		name := n.op.name
		if isLower(name[0]) {
			pr.ch(' ') // "operator new"
		}
		if name[len(name)-1] == ' ' {
			name = name[:len(name)-1]
		}
		pr.str(name)
	case kExtendedOperator:
		pr.str("operator ")
		pr.print(o, n.left)
	case kConversion:
		pr.str("operator ")
		pr.conversion(o, n)
	case kNullary:
		pr.exprOp(o, n.left)
	case kUnary:
		pr.unary(o, n)
	case kBinary:
		pr.binary(o, n)
	case kTrinary:
		pr.trinary(o, n)
	case kLiteral, kLiteralNeg:
		pr.literal(o, n)
	case kVendorExpr:
		pr.print(o, n.left)
		pr.ch('(')
		pr.print(o, n.right)
		pr.ch(')')
	case kNumber:
		pr.num(n.num)
	case kCompoundName:
		pr.print(o, n.left)
		pr.print(o, n.right)
	case kCharacter:
		pr.ch(byte(n.num))
	case kDecltype:
		pr.str("decltype (")
		pr.print(o, n.left)
		pr.ch(')')
	case kPackExpansion:
		pr.packExpansion(o, n)
	case kFunctionParam:
		if n.num == 0 {
			pr.str("this")
		} else {
			pr.str("{parm#")
			pr.num(n.num)
			pr.ch('}')
		}
	case kLambda:
		pr.lambda(o, n)
	case kUnnamedType:
		pr.str("{unnamed type#")
		pr.num(n.num + 1)
		pr.ch('}')
	case kClone:
		pr.print(o, n.left)
		pr.str(" [clone ")
		pr.print(o, n.right)
		pr.ch(']')
	case kTemplateHead:
		pr.ch('<')
		for parm, i := n.left, 0; parm != nil; parm, i = parm.right, i+1 {
			if i > 0 {
				pr.str(", ")
			}
			pr.print(o, parm)
		}
		pr.ch('>')
	case kTemplateTypeParm:
		pr.str("typename")
	case kTemplateNonTypeParm:
		pr.print(o, n.left)
	case kTemplateTemplateParm:
		pr.str("template")
		pr.print(o, n.left)
		pr.str(" class")
	case kTemplatePackParm:
		pr.print(o, n.left)
		pr.str("...")
	default:
		// Argument holders (kBinaryArgs, ...), casts and default
		// arguments print only as part of their parent.
		pr.failed = true
	}
}

// specialPrefix is what the special names print before what they are
// for (an array: a map would be built at start-up).
var specialPrefix = [256]string{
	kModuleInit:          "initializer for module ",
	kVtable:              "vtable for ",
	kVTT:                 "VTT for ",
	kTypeinfo:            "typeinfo for ",
	kTypeinfoName:        "typeinfo name for ",
	kTypeinfoFn:          "typeinfo fn for ",
	kThunk:               "non-virtual thunk to ",
	kVirtualThunk:        "virtual thunk to ",
	kCovariantThunk:      "covariant return thunk to ",
	kJavaClass:           "java Class for ",
	kGuard:               "guard variable for ",
	kTLSInit:             "TLS init function for ",
	kTLSWrapper:          "TLS wrapper function for ",
	kHiddenAlias:         "hidden alias for ",
	kTransactionClone:    "transaction clone for ",
	kNonTransactionClone: "non-transaction clone for ",
	kJavaResource:        "java resource ",
	kGlobalConstructors:  "global constructors keyed to ",
	kGlobalDestructors:   "global destructors keyed to ",
}

func (pr *cxxPrinter) scopeSeparator(o printOpts) {
	if o&optJava != 0 {
		pr.ch('.')
	} else {
		pr.str("::")
	}
}

func (pr *cxxPrinter) defaultArg(d *node) {
	pr.str("{default arg#")
	pr.num(d.num + 1)
	pr.str("}::")
}

// typedName prints a function's name inside its type: the name (and the
// qualifiers of "this", which follow the parameters) go on the modifier
// stack, and the function type prints them where they belong.
func (pr *cxxPrinter) typedName(o printOpts, n *node) {
	hold := pr.mods
	pr.mods = nil
	var frames [4]modFrame
	i := 0
	name := n.left
	for name != nil {
		if i >= len(frames) {
			pr.failed = true
			return
		}
		frames[i] = modFrame{next: pr.mods, mod: name, templates: pr.templates}
		pr.mods = &frames[i]
		i++
		if !isFunctionQualifier(name.kind) {
			break
		}
		name = name.left
	}
	if name == nil {
		pr.failed = true
		return
	}
	// A class local to a function may carry the function's qualifiers
	// on its right side.
	if name.kind == kLocalName {
		name = name.right
		if name.kind == kDefaultArg {
			name = name.left
		}
		for name != nil && isFunctionQualifier(name.kind) {
			if i >= len(frames) {
				pr.failed = true
				return
			}
			frames[i] = frames[i-1]
			frames[i].next = &frames[i-1]
			pr.mods = &frames[i]
			frames[i-1] = modFrame{mod: name, templates: pr.templates, next: frames[i-1].next}
			i++
			name = name.left
		}
		if name == nil {
			pr.failed = true
			return
		}
	}
	var tf tmplFrame
	if name.kind == kTemplate {
		tf = tmplFrame{next: pr.templates, decl: name}
		pr.templates = &tf
	}
	pr.print(o, n.right)
	if name.kind == kTemplate {
		pr.templates = tf.next
	}
	for i > 0 {
		i--
		if !frames[i].printed {
			pr.ch(' ')
			pr.printMod(o, frames[i].mod)
		}
	}
	pr.mods = hold
}

// template prints "name<args>", keeping '<' and '>' apart from their
// neighbours.
func (pr *cxxPrinter) template(o printOpts, n *node) {
	holdCurrent := pr.current
	pr.current = n
	holdMods := pr.mods
	pr.mods = nil
	name := n.left
	if o&optJava != 0 && name.kind == kName && name.text == "JArray" {
		pr.print(o, n.right)
		pr.str("[]")
	} else {
		pr.print(o, name)
		pr.angleArgs(o, n.right)
	}
	pr.mods = holdMods
	pr.current = holdCurrent
}

// templateParam prints the argument a template parameter stands for,
// looked up in the innermost template being printed; inside a lambda,
// its parameter's name ("auto:1", "$T0").
func (pr *cxxPrinter) templateParam(o printOpts, n *node) {
	switch {
	case pr.lambdaParms > n.num+1:
		if pr.templates == nil || pr.templates.decl == nil {
			pr.failed = true
			return
		}
		a := pr.templates.decl.left
		for c := n.num; a != nil && c > 0; c-- {
			a = a.right
		}
		if a != nil && a.kind == kTemplatePackParm {
			a = a.left
		}
		if a == nil {
			pr.failed = true
			return
		}
		pr.lambdaParmName(a.kind, n.num)
	case pr.lambdaParms != 0:
		pr.str("auto:")
		pr.num(n.num + 1)
	default:
		a := pr.lookupTemplateArg(n)
		if a != nil && a.kind == kTemplateArgList {
			a = indexTemplateArg(a, pr.packIndex)
		}
		if a == nil {
			pr.failed = true
			return
		}
		// The argument may itself refer to an outer template's
		// parameters.
		hold := pr.templates
		pr.templates = hold.next
		pr.print(o, a)
		pr.templates = hold
	}
}

func (pr *cxxPrinter) lambdaParmName(k kind, index int) {
	switch k {
	case kTemplateTypeParm:
		pr.str("$T")
	case kTemplateNonTypeParm:
		pr.str("$N")
	case kTemplateTemplateParm:
		pr.str("$TT")
	default:
		pr.failed = true
	}
	pr.num(index)
}

// reference prints a reference, collapsing references to references
// ("&" and "&&" make "&"). A reference to a template parameter that a
// substitution reaches again prints with the templates that were in force
// when it was first printed.
func (pr *cxxPrinter) reference(o printOpts, n *node) {
	sub := n.left
	var inner *node
	var savedTemplates *tmplFrame
	restore := false
	if pr.lambdaParms == 0 && sub.kind == kTemplateParam {
		if scope := pr.savedScope(sub); scope == nil {
			pr.saveScope(sub)
			if pr.failed {
				return
			}
		} else {
			// Unless printing inside sub or n itself, use the
			// templates of the first time.
			found := false
			top := len(pr.stack) - 1
			for i := top; i >= 0; i-- {
				if pr.stack[i] == sub || (pr.stack[i] == n && i != top) {
					found = true
					break
				}
			}
			if !found {
				savedTemplates = pr.templates
				pr.templates = scope.templates
				restore = true
			}
		}
		a := pr.lookupTemplateArg(sub)
		if a != nil && a.kind == kTemplateArgList {
			a = indexTemplateArg(a, pr.packIndex)
		}
		if a == nil {
			if restore {
				pr.templates = savedTemplates
			}
			pr.failed = true
			return
		}
		sub = a
	}
	if sub.kind == kReference || sub.kind == n.kind {
		n = sub
	} else if sub.kind == kRvalueReference {
		inner = sub.left
	}
	pr.modifier(o, n, inner, savedTemplates, restore)
}

// modifier prints what n modifies with n on the modifier stack, then n
// itself if what it modifies did not print it. inner, if set, replaces
// n's operand; the templates are restored afterwards when restore is set.
func (pr *cxxPrinter) modifier(o printOpts, n, inner *node, savedTemplates *tmplFrame, restore bool) {
	m := &modFrame{next: pr.mods, mod: n, templates: pr.templates}
	pr.mods = m
	if inner == nil {
		inner = n.left
	}
	pr.print(o, inner)
	if !m.printed {
		pr.printMod(o, n)
	}
	pr.mods = m.next
	if restore {
		pr.templates = savedTemplates
	}
}

// functionTypeNode prints a function type: the return type, then the
// modifiers waiting for it (the name, "(*)"), then the parameters.
func (pr *cxxPrinter) functionTypeNode(o printOpts, n *node) {
	plain := o &^ (optRetPostfix | optRetDrop)
	if o&optRetPostfix != 0 {
		pr.functionType(plain, n, pr.mods)
	}
	switch {
	case n.left != nil && o&optRetPostfix != 0:
		pr.print(plain, n.left)
	case n.left != nil && o&optRetDrop == 0:
		m := &modFrame{next: pr.mods, mod: n, templates: pr.templates}
		pr.mods = m
		pr.print(plain, n.left)
		pr.mods = m.next
		if m.printed {
			return
		}
		pr.ch(' ')
	}
	if o&optRetPostfix == 0 {
		pr.functionType(plain, n, pr.mods)
	}
}

// arrayTypeNode prints an array type; qualifiers of the array apply to
// its elements.
func (pr *cxxPrinter) arrayTypeNode(o printOpts, n *node) {
	hold := pr.mods
	var frames [4]modFrame
	frames[0] = modFrame{next: hold, mod: n, templates: pr.templates}
	pr.mods = &frames[0]
	i := 1
	for m := hold; m != nil && isCVQualifier(m.mod.kind); m = m.next {
		if m.printed {
			continue
		}
		if i >= len(frames) {
			pr.failed = true
			return
		}
		frames[i] = *m
		frames[i].next = pr.mods
		pr.mods = &frames[i]
		m.printed = true
		i++
	}
	pr.print(o, n.right)
	pr.mods = hold
	if frames[0].printed {
		return
	}
	for i > 1 {
		i--
		pr.printMod(o, frames[i].mod)
	}
	pr.arrayType(o, n, pr.mods)
}

// list prints a list with ", " between its elements; a separator before
// elements that print nothing (empty packs) is taken back, unless the
// output buffer was flushed since it was written.
func (pr *cxxPrinter) list(o printOpts, n *node) {
	if n.left != nil {
		pr.print(o, n.left)
	}
	if n.right == nil {
		return
	}
	if len(pr.out)-pr.bufStart >= flushLen-1 {
		pr.flush()
	}
	pr.str(", ")
	mark, flushes := len(pr.out), pr.flushes
	pr.print(o, n.right)
	if pr.flushes == flushes && len(pr.out) == mark {
		pr.out = pr.out[:mark-2]
	}
}

// unary prints a unary operator and its operand.
func (pr *cxxPrinter) unary(o printOpts, n *node) {
	op, operand := n.left, n.right
	code := ""
	if op.kind == kOperator {
		code = op.op.code
		// The address of a qualified function prints without its
		// parameter types.
		if code == "ad" && operand.kind == kTypedName && operand.left.kind == kQualName &&
			operand.right.kind == kFunctionType {
			operand = operand.left
		}
		if operand.kind == kBinaryArgs {
			// The postfix form of ++ and --.
			pr.subexpr(o, operand.left)
			pr.exprOp(o, op)
			return
		}
	}
	switch code {
	case "sZ":
		pr.num(packLength(pr.findPack(operand)))
		return
	case "sP":
		pr.num(pr.argsLength(operand))
		return
	}
	if op.kind != kCast {
		pr.exprOp(o, op)
	} else {
		pr.ch('(')
		pr.print(o, op.left)
		pr.ch(')')
	}
	switch code {
	case "gs":
		pr.print(o, operand)
	case "st":
		pr.ch('(')
		pr.print(o, operand)
		pr.ch(')')
	default:
		pr.subexpr(o, operand)
	}
}

// binary prints a binary operator's expression.
func (pr *cxxPrinter) binary(o printOpts, n *node) {
	if n.right.kind != kBinaryArgs {
		pr.failed = true
		return
	}
	op, args := n.left, n.right
	if op.kind == kOperator && op.op.isNewCast() {
		pr.exprOp(o, op)
		pr.ch('<')
		pr.print(o, args.left)
		pr.str(">(")
		pr.print(o, args.right)
		pr.ch(')')
		return
	}
	if pr.foldExpression(o, n) || pr.designatedInit(o, n) {
		return
	}
	// An expression with '>' gets extra parentheses, not to end a
	// template argument list.
	gt := op.kind == kOperator && op.op.name == ">"
	if gt {
		pr.ch('(')
	}
	code := op.op.code
	if code == "cl" && args.left.kind == kTypedName {
		// A function called in an expression: no parameter types.
		fn := args.left
		if fn.right.kind != kFunctionType {
			pr.failed = true
		}
		pr.subexpr(o, fn.left)
	} else {
		pr.subexpr(o, args.left)
	}
	if code == "ix" {
		pr.ch('[')
		pr.print(o, args.right)
		pr.ch(']')
	} else {
		if code != "cl" {
			pr.exprOp(o, op)
		}
		pr.subexpr(o, args.right)
	}
	if gt {
		pr.ch(')')
	}
}

// trinary prints "?:" and new-expressions.
func (pr *cxxPrinter) trinary(o printOpts, n *node) {
	if n.right.kind != kTrinaryArg1 || n.right.right.kind != kTrinaryArg2 {
		pr.failed = true
		return
	}
	if pr.foldExpression(o, n) || pr.designatedInit(o, n) {
		return
	}
	op := n.left
	first, second, third := n.right.left, n.right.right.left, n.right.right.right
	if op.op.code == "qu" {
		pr.subexpr(o, first)
		pr.exprOp(o, op)
		pr.subexpr(o, second)
		pr.str(" : ")
		pr.subexpr(o, third)
		return
	}
	pr.str("new ")
	if first.left != nil {
		pr.subexpr(o, first)
		pr.ch(' ')
	}
	pr.print(o, second)
	if third != nil {
		pr.subexpr(o, third)
	}
}

// foldExpression prints a fold expression ("(... + x)") and reports
// whether n was one.
func (pr *cxxPrinter) foldExpression(o printOpts, n *node) bool {
	code := n.left.op.code
	if code[0] != 'f' {
		return false
	}
	ops := n.right
	operator, op1 := ops.left, ops.right
	var op2 *node
	if op1.kind == kTrinaryArg2 {
		op1, op2 = op1.left, op1.right
	}
	save := pr.packIndex
	pr.packIndex = -1 // the whole pack
	switch code[1] {
	case 'l':
		pr.str("(...")
		pr.exprOp(o, operator)
		pr.subexpr(o, op1)
		pr.ch(')')
	case 'r':
		pr.ch('(')
		pr.subexpr(o, op1)
		pr.exprOp(o, operator)
		pr.str("...)")
	case 'L', 'R':
		pr.ch('(')
		pr.subexpr(o, op1)
		pr.exprOp(o, operator)
		pr.str("...")
		pr.exprOp(o, operator)
		pr.subexpr(o, op2)
		pr.ch(')')
	}
	pr.packIndex = save
	return true
}

// isDesignatedInit reports whether n is ".name = x", "[i] = x" or
// "[i ... j] = x".
func isDesignatedInit(n *node) bool {
	if n == nil || (n.kind != kBinary && n.kind != kTrinary) {
		return false
	}
	code := n.left.op.code
	return code[0] == 'd' && (code[1] == 'i' || code[1] == 'x' || code[1] == 'X')
}

// designatedInit prints a designated initializer and reports whether n
// was one.
func (pr *cxxPrinter) designatedInit(o printOpts, n *node) bool {
	if !isDesignatedInit(n) {
		return false
	}
	code := n.left.op.code
	op1, op2 := n.right.left, n.right.right
	if code[1] == 'i' {
		pr.ch('.')
	} else {
		pr.ch('[')
	}
	pr.print(o, op1)
	if code[1] == 'X' {
		pr.str(" ... ")
		pr.print(o, op2.left)
		op2 = op2.right
	}
	if code[1] != 'i' {
		pr.ch(']')
	}
	if isDesignatedInit(op2) {
		pr.print(o, op2) // chained designators
	} else {
		pr.ch('=')
		pr.subexpr(o, op2)
	}
	return true
}

// literal prints a literal: integers and bools plainly, others as
// "(type)value", floating point values in brackets.
func (pr *cxxPrinter) literal(o printOpts, n *node) {
	style := litDefault
	value := n.right
	if n.left.kind == kBuiltinType {
		style = n.left.builtin.lit
		switch style {
		case litInt, litUnsigned, litLong, litUnsignedLong, litLongLong, litUnsignedLongLong:
			if value.kind == kName {
				if n.kind == kLiteralNeg {
					pr.ch('-')
				}
				pr.print(o, value)
				pr.str(integerSuffix[style])
				return
			}
		case litBool:
			if value.kind == kName && len(value.text) == 1 && n.kind == kLiteral {
				switch value.text[0] {
				case '0':
					pr.str("false")
					return
				case '1':
					pr.str("true")
					return
				}
			}
		}
	}
	pr.ch('(')
	pr.print(o, n.left)
	pr.ch(')')
	if n.kind == kLiteralNeg {
		pr.ch('-')
	}
	if style == litFloat {
		pr.ch('[')
	}
	pr.print(o, value)
	if style == litFloat {
		pr.ch(']')
	}
}

// integerSuffix is the suffix of an integer literal's style.
var integerSuffix = [256]string{
	litUnsigned: "u", litLong: "l", litUnsignedLong: "ul",
	litLongLong: "ll", litUnsignedLongLong: "ull",
}

// packExpansion prints each element of the pack a pattern expands, or
// the pattern and "..." when no template argument pack is involved.
func (pr *cxxPrinter) packExpansion(o printOpts, n *node) {
	var pack *node
	if pr.lambdaParms == 0 {
		pack = pr.findPack(n.left)
	}
	if pack == nil {
		pr.subexpr(o, n.left)
		pr.str("...")
		return
	}
	count := packLength(pack)
	for i := 0; i < count; i++ {
		if i > 0 {
			pr.str(", ")
		}
		pr.packIndex = i
		pr.print(o, n.left)
	}
}

// lambda prints "{lambda<head>(params)#n}".
func (pr *cxxPrinter) lambda(o printOpts, n *node) {
	pr.str("{lambda")
	params := n.left
	saved := pr.lambdaParms
	pr.lambdaParms = 0
	tf := &tmplFrame{next: pr.templates}
	pr.templates = tf
	if params != nil && params.kind == kTemplateHead {
		tf.decl = params
		pr.ch('<')
		// After a pack parameter the walk goes on from the pack's
		// operand, as libiberty's does.
		for parm := params.left; parm != nil; parm = parm.right {
			if pr.lambdaParms > 0 {
				pr.str(", ")
			}
			pr.lambdaParms++
			pr.print(o, parm)
			pr.ch(' ')
			if parm.kind == kTemplatePackParm {
				parm = parm.left
			}
			pr.lambdaParmName(parm.kind, pr.lambdaParms-1)
		}
		pr.ch('>')
		params = params.right
	}
	pr.lambdaParms++
	pr.ch('(')
	pr.print(o, params)
	pr.lambdaParms = saved
	pr.templates = tf.next
	pr.str(")#")
	pr.num(n.num + 1)
	pr.ch('}')
}

// javaIdentifier prints a Java name, decoding "__U<hex>_" escapes of
// characters below 256.
func (pr *cxxPrinter) javaIdentifier(s string) {
	for i := 0; i < len(s); i++ {
		if len(s)-i > 3 && s[i] == '_' && s[i+1] == '_' && s[i+2] == 'U' {
			var c uint64
			j := i + 3
			for ; j < len(s); j++ {
				d, ok := hexValue(s[j])
				if !ok {
					break
				}
				c = c*16 + uint64(d)
			}
			if j < len(s) && s[j] == '_' && c < 256 {
				pr.ch(byte(c))
				i = j
				continue
			}
		}
		pr.ch(s[i])
	}
}

func hexValue(c byte) (int, bool) {
	switch {
	case isDigit(c):
		return int(c - '0'), true
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10, true
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10, true
	}
	return 0, false
}

// printModList prints the modifiers from mods on that have not been
// printed; suffix selects the qualifiers of "this", which follow the
// parameter list.
func (pr *cxxPrinter) printModList(o printOpts, mods *modFrame, suffix bool) {
	for ; mods != nil && !pr.failed; mods = mods.next {
		if mods.printed || (!suffix && isFunctionQualifier(mods.mod.kind)) {
			continue
		}
		mods.printed = true
		hold := pr.templates
		pr.templates = mods.templates
		switch mods.mod.kind {
		case kFunctionType:
			pr.functionType(o, mods.mod, mods.next)
			pr.templates = hold
			return
		case kArrayType:
			pr.arrayType(o, mods.mod, mods.next)
			pr.templates = hold
			return
		case kLocalName:
			// A function-local class: print its function without
			// the modifiers, then the class.
			holdMods := pr.mods
			pr.mods = nil
			pr.print(o, mods.mod.left)
			pr.mods = holdMods
			pr.scopeSeparator(o)
			local := mods.mod.right
			if local.kind == kDefaultArg {
				pr.defaultArg(local)
				local = local.left
			}
			for local != nil && isFunctionQualifier(local.kind) {
				local = local.left
			}
			pr.print(o, local)
			pr.templates = hold
			return
		}
		pr.printMod(o, mods.mod)
		pr.templates = hold
	}
}

// printMod prints one modifier.
func (pr *cxxPrinter) printMod(o printOpts, m *node) {
	switch m.kind {
	case kRestrict, kRestrictThis:
		pr.str(" restrict")
	case kVolatile, kVolatileThis:
		pr.str(" volatile")
	case kConst, kConstThis:
		pr.str(" const")
	case kTransactionSafe:
		pr.str(" transaction_safe")
	case kNoexcept, kThrowSpec:
		if m.kind == kNoexcept {
			pr.str(" noexcept")
		} else {
			pr.str(" throw")
		}
		if m.right != nil {
			pr.ch('(')
			pr.print(o, m.right)
			pr.ch(')')
		}
	case kVendorTypeQual:
		pr.ch(' ')
		pr.print(o, m.right)
	case kPointer:
		if o&optJava == 0 {
			pr.ch('*')
		}
	case kReferenceThis:
		pr.str(" &")
	case kReference:
		pr.ch('&')
	case kRvalueReferenceThis:
		pr.str(" &&")
	case kRvalueReference:
		pr.str("&&")
	case kComplex:
		pr.str(" _Complex")
	case kImaginary:
		pr.str(" _Imaginary")
	case kPtrmemType:
		if pr.last != '(' {
			pr.ch(' ')
		}
		pr.print(o, m.left)
		pr.str("::*")
	case kTypedName:
		pr.print(o, m.left)
	case kVectorType:
		pr.str(" __vector(")
		pr.print(o, m.left)
		pr.ch(')')
	default:
		pr.print(o, m)
	}
}

// functionType prints a function type's modifiers and parameters (the
// return type is printed before): "(*name)(int) const".
func (pr *cxxPrinter) functionType(o printOpts, n *node, mods *modFrame) {
	needParen, needSpace := false, false
	for m := mods; m != nil && !m.printed; m = m.next {
		switch m.mod.kind {
		case kPointer, kReference, kRvalueReference:
			needParen = true
		case kRestrict, kVolatile, kConst, kVendorTypeQual, kComplex, kImaginary, kPtrmemType:
			needSpace, needParen = true, true
		}
		if needParen {
			break
		}
	}
	if needParen {
		if !needSpace && pr.last != '(' && pr.last != '*' {
			needSpace = true
		}
		if needSpace && pr.last != ' ' {
			pr.ch(' ')
		}
		pr.ch('(')
	}
	hold := pr.mods
	pr.mods = nil
	pr.printModList(o, mods, false)
	if needParen {
		pr.ch(')')
	}
	pr.ch('(')
	if n.right != nil {
		pr.print(o, n.right)
	}
	pr.ch(')')
	pr.printModList(o, mods, true)
	pr.mods = hold
}

// arrayType prints an array type's modifiers and dimension.
func (pr *cxxPrinter) arrayType(o printOpts, n *node, mods *modFrame) {
	needSpace := true
	if mods != nil {
		needParen := false
		for m := mods; m != nil; m = m.next {
			if !m.printed {
				if m.mod.kind == kArrayType {
					needSpace = false
				} else {
					needParen, needSpace = true, true
				}
				break
			}
		}
		if needParen {
			pr.str(" (")
		}
		pr.printModList(o, mods, false)
		if needParen {
			pr.ch(')')
		}
	}
	if needSpace {
		pr.ch(' ')
	}
	pr.ch('[')
	if n.left != nil {
		pr.print(o, n.left)
	}
	pr.ch(']')
}

// exprOp prints an operator in an expression.
func (pr *cxxPrinter) exprOp(o printOpts, n *node) {
	if n.kind == kOperator {
		pr.str(n.op.name)
	} else {
		pr.print(o, n)
	}
}

// conversion prints a conversion operator's type, with the enclosing
// template's parameters in scope.
func (pr *cxxPrinter) conversion(o printOpts, n *node) {
	var tf tmplFrame
	pushed := pr.current != nil
	if pushed {
		tf = tmplFrame{next: pr.templates, decl: pr.current}
		pr.templates = &tf
	}
	t := n.left
	if t.kind != kTemplate {
		pr.print(o, t)
		if pushed {
			pr.templates = tf.next
		}
		return
	}
	pr.print(o, t.left)
	if pushed {
		pr.templates = tf.next
	}
	pr.angleArgs(o, t.right)
}

// angleArgs prints a template argument list in angle brackets, with a
// space between two '<' or two '>'.
func (pr *cxxPrinter) angleArgs(o printOpts, args *node) {
	if pr.last == '<' {
		pr.ch(' ')
	}
	pr.ch('<')
	pr.print(o, args)
	if pr.last == '>' {
		pr.ch(' ')
	}
	pr.ch('>')
}
