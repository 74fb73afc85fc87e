package symtab

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDemangleStyles checks names whose spelling under gprof 2.40 was
// recorded with libiberty (scripts/demangle-oracle.c), so that the cases
// run where the oracle cannot be built.
func TestDemangleStyles(t *testing.T) {
	long := "_Z1019" + strings.Repeat("a", 1019) + "v" // 1025 bytes: over libiberty's limit
	cases := []struct {
		style DemangleStyle
		raw   string
		want  string
	}{
		// Empty parameter packs: no space between '>'s, separators kept
		// before later arguments.
		{StyleAuto, "_ZSt10_ConstructIN3geo3VecIdLi3EEEJEEvPT_DpOT0_", "void std::_Construct<geo::Vec<double, 3>>(geo::Vec<double, 3>*)"},
		{StyleAuto, "_ZNSt6threadC1IZ4mainEUlvE0_JEvEEOT_DpOT0_", "std::thread::thread<main::{lambda()#2}, , void>(main::{lambda()#2}&&)"},
		{StyleAuto, "_Z1fIJEiEvT0_", "void f<, int>(int)"},
		{StyleGNUv3, "_ZSt12__get_helperILm1ESt14default_deleteIN3geo5ShapeEEJEERT0_RSt11_Tuple_implIXT_EJS4_DpT1_EE",
			"std::default_delete<geo::Shape>& std::__get_helper<1ul, std::default_delete<geo::Shape>>(std::_Tuple_impl<1ul, std::default_delete<geo::Shape>>&)"},
		// A separator written just before libiberty's buffer flush stays.
		{StyleAuto, "_ZNSt4pairIKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESt10unique_ptrIN3geo5ShapeESt14default_deleteIS9_EEEC1IJOS5_EJLm0EEJEJEEERSt5tupleIJDpT_EERSG_IJDpT1_EESt12_Index_tupleIJXspT0_EEESP_IJXspT2_EEE",
			"std::pair<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const, std::unique_ptr<geo::Shape, std::default_delete<geo::Shape> > >::pair<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >&&, 0ul, >(std::tuple<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >&&>&, std::tuple<>&, std::_Index_tuple<0ul>, std::_Index_tuple<>)"},
		// Inheriting constructors are named after the base class.
		{StyleAuto, "_ZN3geo7DerivedCI1NS_4BaseEEi", "geo::Derived::Base(int)"},
		{StyleAuto, "_ZNSt15__uniq_ptr_dataIN3geo5ShapeESt14default_deleteIS1_ELb1ELb1EECI2St15__uniq_ptr_implIS1_S3_EEPS1_",
			"std::__uniq_ptr_data<geo::Shape, std::default_delete<geo::Shape>, true, true>::__uniq_ptr_impl(geo::Shape*)"},
		// Prefixes, suffixes, rejected names.
		{StyleAuto, ".$_Z3foov@plt", ".$foo()@plt"},
		{StyleAuto, "_GLOBAL__I_", "_GLOBAL__I_"},
		{StyleAuto, "_GLOBAL__D__Z3foov", "global destructors keyed to foo()"},
		{StyleAuto, "_Z3fooI", "_Z3fooI"},
		{StyleAuto, long, long},
		// Rust: first under auto, alone under rust.
		{StyleAuto, "_ZN4core3fmt9Formatter3pad17h0123456789abcdefE", "core::fmt::Formatter::pad"},
		{StyleGNUv3, "_ZN4core3fmt9Formatter3pad17h0123456789abcdefE", "core::fmt::Formatter::pad::h0123456789abcdef"},
		{StyleRust, "_ZN4core3fmt9Formatter3pad17h0123456789abcdefE", "core::fmt::Formatter::pad"},
		{StyleRust, "_RNvCs1234_7mycrate4main", "mycrate::main"},
		{StyleRust, "_Z3foov", "_Z3foov"},
		// GNAT: Ada names decoded, others in angle brackets.
		{StyleGNAT, "x__y__z__rXb", "x.y.z.r"},
		{StyleGNAT, "oper__Oadd", `oper."+"`},
		{StyleGNAT, "p__taskobjTKB", "p.taskobj"},
		{StyleGNAT, "p___elabb", "p'Elab_Body"},
		{StyleGNAT, "_Z3foov", "<_Z3foov>"},
		{StyleGNAT, ".$_Z3foov@plt", ".$<_Z3foov>@plt"},
		{StyleGNAT, "main", "main"},
		// Java: '.' for "::", no '*', JArray<T> as T[]; a "__U0a_" escape
		// prints a newline. C++ names are Java names to libiberty.
		{StyleJava, "_ZN4java4lang6String6concatEPS1_", "java.lang.String.concat(java.lang.String)"},
		{StyleJava, "_ZN4java3awt4geom15AffineTransform9getMatrixEP6JArrayIdE", "java.awt.geom.AffineTransform.getMatrix(double[])"},
		{StyleJava, "_ZN6__U0a_3fooEv", "\n.foo()"},
		{StyleAuto, "_ZN4java4lang6String6concatEPS1_", "java::lang::String::concat(java::lang::String*)"},
		{StyleJava, "_RNvCs1234_7mycrate4main", "_RNvCs1234_7mycrate4main"},
		// D: only under dlang.
		{StyleDLang, "_D6object9Throwable6__vtblZ", "vtable for object.Throwable"},
		{StyleDLang, "_Dmain", "D main"},
		{StyleDLang, "_D8demangle4testFiZv", "demangle.test(int)"},
		{StyleAuto, "_D8demangle4testFiZv", "_D8demangle4testFiZv"},
		{StyleDLang, "_Z3foov", "_Z3foov"},
		// Rust v0, with a const generic argument and a back reference.
		{StyleRust, "_RINvCs1234_7mycrate3fooKj2a_EB2_", "mycrate::foo::<42>"},
		{StyleAuto, "_RNvNtCs1234_7mycrate3foo3bar", "mycrate::foo::bar"},
		// none leaves every name raw.
		{StyleNone, "_Z3foov", "_Z3foov"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, Demangle(c.raw, c.style), "%v %s", c.style, c.raw)
	}
}

// TestParseDemangleStyle checks libiberty's style names and gprof's error.
func TestParseDemangleStyle(t *testing.T) {
	for name, want := range map[string]DemangleStyle{
		"auto": StyleAuto, "none": StyleNone, "gnu-v3": StyleGNUv3, "rust": StyleRust,
		"java": StyleJava, "gnat": StyleGNAT, "dlang": StyleDLang,
	} {
		got, err := ParseDemangleStyle(name)
		assert.NoError(t, err, name)
		assert.Equal(t, want, got, name)
	}
	_, err := ParseDemangleStyle("gnu")
	assert.EqualError(t, err, "unknown demangling style `gnu'")
}
