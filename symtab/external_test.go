package symtab

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The expected values were checked against glibc's sscanf("%lx").
func TestParseHexAddr(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"0000000000001139", 0x1139, true},
		{"0X10", 0x10, true},
		{"0x", 0, true},
		{"-0x", 0, true},
		{"0xx", 0, true},
		{"0x1g", 1, true},
		{"00x5", 0, true},
		{"+a", 0xa, true},
		{"-5", math.MaxUint64 - 4, true},
		{"fffffffffffffffffff", math.MaxUint64, true},
		{"x", 0, false},
		{"-", 0, false},
		{"+x", 0, false},
		{"-x1", 0, false},
		{"U", 0, false},
		{"", 0, false},
	}
	for _, tc := range tests {
		got, ok := parseHexAddr(tc.in)
		assert.Equal(t, tc.ok, ok, tc.in)
		if ok {
			assert.Equal(t, tc.want, got, tc.in)
		}
	}
}

func TestParseExternalSymbols(t *testing.T) {
	type sym struct {
		name   string
		addr   uint64
		static bool
	}
	long := strings.Repeat("n", 1100)
	tests := []struct {
		name string
		text string
		want []sym
	}{
		{
			name: "nm output: only t and T lines, no name filter",
			text: "0000000000001000 T _init\n                 U printf@GLIBC_2.2.5\n" +
				"0000000000004010 B sink\n0000000000001139 t burn.part.0\n0000000000001150 T he$avy\n" +
				"                 w __gmon_start__\n",
			want: []sym{{"_init", 0x1000, false}, {"burn.part.0", 0x1139, true}, {"he$avy", 0x1150, false}},
		},
		{
			name: "an undefined name starting with t is read from its second letter",
			text: "1000 T a\n                 U time@GLIBC_2.2.5\n",
			// "U" is no number: the previous address stays.
			want: []sym{{"a", 0x1000, false}, {"ime@GLIBC_2.2.5", 0x1000, true}},
		},
		{
			name: "blanks anywhere, the type is the next non-blank byte",
			text: "  0x20\t\tT   f  extra words\n30 tg h\n",
			want: []sym{{"f", 0x20, false}, {"g", 0x30, true}},
		},
		{
			name: "too few fields",
			text: "1000 T\n1000\n\n",
		},
		{
			name: "a long line is read in pieces of 1022 bytes",
			text: "1000 T " + long[:1015] + "2000 T tail\n",
			want: []sym{{long[:1015], 0x1000, false}, {"tail", 0x2000, false}},
		},
		{
			name: "a NUL byte ends the piece",
			text: "1000 T f\x00\n2000 T g\n",
			want: []sym{{"f", 0x1000, false}, {"g", 0x2000, false}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []sym
			for _, s := range ParseExternalSymbols([]byte(tc.text)) {
				assert.True(t, s.IsFunc, "every entry is a function")
				got = append(got, sym{s.Name, s.Addr, s.IsStatic})
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
