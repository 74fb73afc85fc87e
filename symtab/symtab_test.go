package symtab

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// strtab builds a string table from names, returning each name's offset.
func strtab(names ...string) ([]byte, []uint32) {
	tab := []byte{0}
	var offs []uint32
	for _, n := range names {
		offs = append(offs, uint32(len(tab)))
		tab = append(tab, n...)
		tab = append(tab, 0)
	}
	return tab, offs
}

// The expectations come from GNU gprof 2.40 runs recorded in
// shared/docs/gprof-behaviour/symbols-and-flat-profile.md §1.3.
func TestLocalNameFilter(t *testing.T) {
	tab, off := strtab("foo.constprop.0", "bar", "foo.7", "baz$x", "foo.8", "qq.9", "rr", "foo.part.1")
	want := []bool{true, true, false, false, true, true, true, false}
	for i, w := range want {
		assert.Equal(t, w, localNameOK(tab, off[i]), "name %d", i)
	}
	cases := []struct {
		names []string
		keep  bool
	}{
		{[]string{"plain"}, true},
		{[]string{""}, false},
		{[]string{"a$b"}, false},
		{[]string{"f.cold"}, false},
		{[]string{"f.isra.0"}, false},
		{[]string{"f.clone.3", "next"}, true},
		{[]string{"f.1.2", "next"}, true},
		{[]string{".Llocal"}, false},
		// A trailing ".digits" makes gprof judge the next string too.
		{[]string{"isr.constprop.0", "cp.constprop.0", "crtstuff.c"}, false},
	}
	for _, c := range cases {
		tab, off := strtab(c.names...)
		assert.Equal(t, c.keep, localNameOK(tab, off[0]), "%v", c.names)
	}
}

// Survivors at one address, from the table in §1.6 of the same document.
func TestAliasPreference(t *testing.T) {
	type sym struct {
		name       string
		static, fn bool
	}
	cases := []struct {
		in   []sym
		want string
	}{
		{[]sym{{"alpha", false, true}, {"zeta", false, true}}, "alpha"},
		{[]sym{{"zz", true, true}, {"aa", true, true}}, "zz"},
		{[]sym{{"__u2", false, true}, {"_u1", false, true}, {"u0", false, true}}, "u0"},
		{[]sym{{"__w", true, true}, {"_x", true, true}}, "_x"},
		{[]sym{{"___p", true, true}, {"__q", true, true}}, "___p"},
		{[]sym{{"an", true, false}, {"bf", true, true}}, "bf"},
		{[]sym{{"smix", true, true}, {"gmix", false, false}}, "gmix"},
		{[]sym{{"gf2", false, true}, {"gnt2", false, false}}, "gf2"},
		{[]sym{{"__bss_start", false, false}, {"_edata", false, false}, {"_end", false, false}}, "_edata"},
	}
	for _, c := range cases {
		var syms []Symbol
		for _, s := range c.in {
			syms = append(syms, Symbol{Name: s.name, Addr: 0x1000, IsStatic: s.static, IsFunc: s.fn})
		}
		syms = append(syms, Symbol{Name: "next", Addr: 0x1010, IsFunc: true})
		got := finalize(syms, 0x10ff)
		if assert.Len(t, got, 2) {
			assert.Equal(t, c.want, got[0].Name)
			assert.Equal(t, uint64(0x100f), got[0].End)
			assert.Equal(t, uint64(0x10ff), got[1].End)
		}
	}
}

// Demangled spellings recorded from gprof in §2 of the same document.
func TestDemangle(t *testing.T) {
	cases := []struct{ raw, want string }{
		{"_Z1fSs", "f(std::string)"},
		{"_ZNSo3putEc", "std::ostream::put(char)"},
		{"_Z1gRSi", "g(std::istream&)"},
		{"_ZNSsC1Ev", "std::basic_string<char, std::char_traits<char>, std::allocator<char> >::basic_string()"},
		{"_ZN4core3fmt9Formatter3pad17h0123456789abcdefE", "core::fmt::Formatter::pad"},
		{"_RNvCs1234_7mycrate4main", "mycrate::main"},
		{"_Z5applyIZ4mainEUliE0_EiT_i", "int apply<main::{lambda(int)#2}>(main::{lambda(int)#2}, int)"},
		{"_ZN12_GLOBAL__N_17anon_fnEi", "(anonymous namespace)::anon_fn(int)"},
		{"_Z3foov.cold", "foo() [clone .cold]"},
		{"_ZTV1A", "vtable for A"},
		{"_ZThn8_N1B1fEv", "non-virtual thunk to B::f()"},
		{"_GLOBAL__I_foo", "global constructors keyed to foo"},
		{"_GLOBAL__sub_I_main", "_GLOBAL__sub_I_main"},
		{"_D3foo3barFZv", "_D3foo3barFZv"},
		{"_Z3bazv@GLIBC_2.2.5", "baz()@GLIBC_2.2.5"},
		{"main", "main"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, Demangle(c.raw, StyleAuto), c.raw)
	}
	assert.Equal(t, "_Z1fSs", Demangle("_Z1fSs", StyleNone))
}

func TestLookupRanges(t *testing.T) {
	tab := &Table{Syms: []Symbol{
		{Name: "a", Addr: 0x10, End: 0x1f},
		{Name: "b", Addr: 0x20, End: 0x2f},
		{Name: "data_start", Addr: 0x100, End: 0x2f}, // empty last range
	}}
	cases := []struct {
		addr uint64
		want int
	}{{0x0f, -1}, {0x10, 0}, {0x1f, 0}, {0x20, 1}, {0x2f, 1}, {0x30, -1}, {0x100, -1}, {0x200, -1}}
	for _, c := range cases {
		assert.Equal(t, c.want, tab.Lookup(c.addr), "%#x", c.addr)
	}
}
