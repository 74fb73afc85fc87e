package demangle

import (
	"slices"
	"strings"
)

// kind says what a node of a parsed C++ name is. The set of kinds and the
// shape of each (what its left and right children hold) follow libiberty's
// component tree, because its spellings depend on that shape: lists are
// chains of list nodes, qualifiers wrap what they qualify, a template
// parameter stays a reference until printing.
type kind uint8

const (
	kName                 kind = iota // text
	kQualName                         // left::right
	kLocalName                        // left (a function) :: right (an entity in it)
	kTypedName                        // left (a name) with right (its type)
	kTemplate                         // left (a name) < right (argument list) >
	kTemplateParam                    // num: the index of T_, T0_, ...
	kFunctionParam                    // num: 0 for "this", n for {parm#n}
	kCtor                             // left: the name it is printed as; num: kind
	kDtor                             // left: the name; num: kind
	kVtable                           // special names: left is what they are for
	kVTT                              //
	kConstructionVtable               // left: base type, right: derived type
	kTypeinfo                         //
	kTypeinfoName                     //
	kTypeinfoFn                       //
	kThunk                            //
	kVirtualThunk                     //
	kCovariantThunk                   //
	kJavaClass                        //
	kGuard                            //
	kTLSInit                          //
	kTLSWrapper                       //
	kRefTemp                          // left: name, right: number
	kHiddenAlias                      //
	kSubStd                           // text: a standard substitution's expansion
	kRestrict                         // cv-qualifiers of a type: left is the type
	kVolatile                         //
	kConst                            //
	kRestrictThis                     // qualifiers of a member function
	kVolatileThis                     //
	kConstThis                        //
	kReferenceThis                    //
	kRvalueReferenceThis              //
	kTransactionSafe                  //
	kNoexcept                         // right: the condition, if any
	kThrowSpec                        // right: the type list
	kVendorTypeQual                   // left: type, right: the qualifier's name
	kPointer                          // left: the pointee
	kReference                        //
	kRvalueReference                  //
	kComplex                          //
	kImaginary                        //
	kBuiltinType                      // builtin: which
	kExtendedBuiltinType              // builtin, num: width, suffix
	kVendorType                       // left: the name
	kFunctionType                     // left: return type or nil, right: parameters
	kArrayType                        // left: dimension or nil, right: element
	kPtrmemType                       // left: class, right: member type
	kVectorType                       // left: dimension, right: element
	kArgList                          // left: one parameter, right: the rest
	kTemplateArgList                  // left: one argument, right: the rest
	kInitializerList                  // left: type or nil, right: the expressions
	kOperator                         // op
	kExtendedOperator                 // left: the name, num: operands
	kCast                             // left: the type
	kConversion                       // left: the type
	kNullary                          // left: operator
	kUnary                            // left: operator, right: operand
	kBinary                           // left: operator, right: kBinaryArgs
	kBinaryArgs                       //
	kTrinary                          // left: operator, right: kTrinaryArg1
	kTrinaryArg1                      // left: first, right: kTrinaryArg2
	kTrinaryArg2                      // left: second, right: third
	kLiteral                          // left: type, right: the value's text
	kLiteralNeg                       //
	kVendorExpr                       // left: name, right: arguments
	kJavaResource                     //
	kCompoundName                     //
	kCharacter                        // num: the byte
	kNumber                           // num
	kDecltype                         //
	kGlobalConstructors               //
	kGlobalDestructors                //
	kLambda                           // left: parameters, num: discriminator
	kDefaultArg                       // left: the entity, num: which argument
	kUnnamedType                      // num
	kTransactionClone                 //
	kNonTransactionClone              //
	kPackExpansion                    // left: the pattern
	kTaggedName                       // left: name, right: the ABI tag
	kClone                            // left: the encoding, right: the suffix
	kTparmObj                         //
	kStructuredBinding                // left: a name, right: the next binding
	kModuleName                       // left: parent module or nil, right: name
	kModulePartition                  //
	kModuleEntity                     // left: entity, right: module
	kModuleInit                       //
	kTemplateHead                     // left: the first parameter (chained by right)
	kTemplateTypeParm                 // right: next parameter of a head
	kTemplateNonTypeParm              // left: its type
	kTemplateTemplateParm             // left: its head
	kTemplatePackParm                 // left: the parameter
)

// node is one component of a parsed C++ name. Nodes reached through a
// substitution are shared, not copied: the printer tells them apart by
// identity, as libiberty does.
type node struct {
	kind   kind
	suffix byte // kExtendedBuiltinType: 'x' or 0
	// printing and counting are how many times the node is on the
	// printer's stack or has been counted; libiberty refuses to go
	// deeper than two of either.
	printing uint8
	counting uint8

	num     int // kinds that carry a number (see above)
	left    *node
	right   *node
	text    string       // kName, kSubStd
	op      *operator    // kOperator
	builtin *builtinType // kBuiltinType, kExtendedBuiltinType
}

// isFunctionQualifier reports whether k qualifies a member function (or
// a function type) rather than a type.
func isFunctionQualifier(k kind) bool {
	switch k {
	case kRestrictThis, kVolatileThis, kConstThis, kReferenceThis,
		kRvalueReferenceThis, kTransactionSafe, kNoexcept, kThrowSpec:
		return true
	}
	return false
}

// isCVQualifier reports whether k is a const, volatile or restrict
// qualifier of a type.
func isCVQualifier(k kind) bool {
	return k == kRestrict || k == kVolatile || k == kConst
}

// printStyle says how a builtin type prints a literal of itself.
type printStyle uint8

const (
	litDefault printStyle = iota // (type)value
	litInt
	litUnsigned
	litLong
	litUnsignedLong
	litLongLong
	litUnsignedLongLong
	litBool
	litFloat
	litVoid // prints as usual; marks void in parameter lists
)

// builtinType is a fundamental type: its C++ and Java spellings and how
// its literals print.
type builtinType struct {
	name     string
	javaName string
	lit      printStyle
}

// builtinByLetter holds the one-letter builtin types 'a' to 'z'; the
// letters that are not builtin types are zero values.
var builtinByLetter = [26]builtinType{
	'a' - 'a': {"signed char", "signed char", litDefault},
	'b' - 'a': {"bool", "boolean", litBool},
	'c' - 'a': {"char", "byte", litDefault},
	'd' - 'a': {"double", "double", litFloat},
	'e' - 'a': {"long double", "long double", litFloat},
	'f' - 'a': {"float", "float", litFloat},
	'g' - 'a': {"__float128", "__float128", litFloat},
	'h' - 'a': {"unsigned char", "unsigned char", litDefault},
	'i' - 'a': {"int", "int", litInt},
	'j' - 'a': {"unsigned int", "unsigned", litUnsigned},
	'l' - 'a': {"long", "long", litLong},
	'm' - 'a': {"unsigned long", "unsigned long", litUnsignedLong},
	'n' - 'a': {"__int128", "__int128", litDefault},
	'o' - 'a': {"unsigned __int128", "unsigned __int128", litDefault},
	's' - 'a': {"short", "short", litDefault},
	't' - 'a': {"unsigned short", "unsigned short", litDefault},
	'v' - 'a': {"void", "void", litVoid},
	'w' - 'a': {"wchar_t", "char", litDefault},
	'x' - 'a': {"long long", "long", litLongLong},
	'y' - 'a': {"unsigned long long", "unsigned long long", litUnsignedLongLong},
	'z' - 'a': {"...", "...", litDefault},
}

// The two-letter builtin types ("D" and a letter).
var (
	builtinDecimal32  = builtinType{"decimal32", "decimal32", litDefault}
	builtinDecimal64  = builtinType{"decimal64", "decimal64", litDefault}
	builtinDecimal128 = builtinType{"decimal128", "decimal128", litDefault}
	builtinHalf       = builtinType{"half", "half", litFloat}
	builtinChar8      = builtinType{"char8_t", "char8_t", litDefault}
	builtinChar16     = builtinType{"char16_t", "char16_t", litDefault}
	builtinChar32     = builtinType{"char32_t", "char32_t", litDefault}
	builtinNullptr    = builtinType{"decltype(nullptr)", "decltype(nullptr)", litDefault}
	builtinFloatN     = builtinType{"_Float", "_Float", litFloat}
	builtinBFloat16   = builtinType{"std::bfloat16_t", "std::bfloat16_t", litFloat}
)

// operator is an operator's mangling, its spelling and its number of
// operands (3 for the few that take three, or a list).
type operator struct {
	code  string
	name  string
	arity int
}

// operators are the operators by their two-letter code, in byte order of
// the codes (lookupOperator searches them). Static data: nothing is built
// at start-up, which every run of egprof would pay for, C++ or not.
var operators = [...]operator{
	{"aN", "&=", 2}, {"aS", "=", 2}, {"aa", "&&", 2}, {"ad", "&", 1},
	{"an", "&", 2}, {"at", "alignof ", 1}, {"aw", "co_await ", 1},
	{"az", "alignof ", 1}, {"cc", "const_cast", 2}, {"cl", "()", 2},
	{"cm", ",", 2}, {"co", "~", 1}, {"dV", "/=", 2}, {"dX", "[...]=", 3},
	{"da", "delete[] ", 1}, {"dc", "dynamic_cast", 2}, {"de", "*", 1},
	{"di", "=", 2}, {"dl", "delete ", 1}, {"ds", ".*", 2}, {"dt", ".", 2},
	{"dv", "/", 2}, {"dx", "]=", 2}, {"eO", "^=", 2}, {"eo", "^", 2},
	{"eq", "==", 2}, {"fL", "...", 3}, {"fR", "...", 3}, {"fl", "...", 2},
	{"fr", "...", 2}, {"ge", ">=", 2}, {"gs", "::", 1}, {"gt", ">", 2},
	{"ix", "[]", 2}, {"lS", "<<=", 2}, {"le", "<=", 2},
	{"li", "operator\"\" ", 1}, {"ls", "<<", 2}, {"lt", "<", 2},
	{"mI", "-=", 2}, {"mL", "*=", 2}, {"mi", "-", 2}, {"ml", "*", 2},
	{"mm", "--", 1}, {"na", "new[]", 3}, {"ne", "!=", 2}, {"ng", "-", 1},
	{"nt", "!", 1}, {"nw", "new", 3}, {"oR", "|=", 2}, {"oo", "||", 2},
	{"or", "|", 2}, {"pL", "+=", 2}, {"pl", "+", 2}, {"pm", "->*", 2},
	{"pp", "++", 1}, {"ps", "+", 1}, {"pt", "->", 2}, {"qu", "?", 3},
	{"rM", "%=", 2}, {"rS", ">>=", 2}, {"rc", "reinterpret_cast", 2},
	{"rm", "%", 2}, {"rs", ">>", 2}, {"sP", "sizeof...", 1},
	{"sZ", "sizeof...", 1}, {"sc", "static_cast", 2}, {"ss", "<=>", 2},
	{"st", "sizeof ", 1}, {"sz", "sizeof ", 1}, {"tr", "throw", 0},
	{"tw", "throw ", 1},
}

// lookupOperator returns the operator whose code is c1 c2, or nil.
func lookupOperator(c1, c2 byte) *operator {
	code := string([]byte{c1, c2})
	i, found := slices.BinarySearchFunc(operators[:], code, func(op operator, code string) int {
		return strings.Compare(op.code, code)
	})
	if !found {
		return nil
	}
	return &operators[i]
}

// isNewCast reports whether op is one of C++'s named casts.
func (op *operator) isNewCast() bool {
	return op.code == "cc" || op.code == "dc" || op.code == "sc" || op.code == "rc"
}

// standardSub is one of the "S<letter>" abbreviations: its short
// spelling, its full spelling (used before a constructor or destructor)
// and the name a constructor or destructor after it takes.
type standardSub struct {
	code     byte
	short    string
	full     string
	lastName string
}

var standardSubs = []standardSub{
	{'t', "std", "std", ""},
	{'a', "std::allocator", "std::allocator", "allocator"},
	{'b', "std::basic_string", "std::basic_string", "basic_string"},
	{'s', "std::string", "std::basic_string<char, std::char_traits<char>, std::allocator<char> >", "basic_string"},
	{'i', "std::istream", "std::basic_istream<char, std::char_traits<char> >", "basic_istream"},
	{'o', "std::ostream", "std::basic_ostream<char, std::char_traits<char> >", "basic_ostream"},
	{'d', "std::iostream", "std::basic_iostream<char, std::char_traits<char> >", "basic_iostream"},
}
