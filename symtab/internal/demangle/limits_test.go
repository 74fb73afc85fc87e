package demangle

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// subRef returns the C++ reference to substitution entry i ("S_",
// "S0_", ..., base 36).
func subRef(i int) string {
	if i == 0 {
		return "S_"
	}
	return "S" + formatBase(i-1, 36) + "_"
}

// formatBase writes n in base b (at most 36) with digits 0-9 then A-Z.
func formatBase(n, b int) string {
	const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	if n == 0 {
		return "0"
	}
	var s []byte
	for ; n > 0; n /= b {
		s = append([]byte{digits[n%b]}, s...)
	}
	return string(s)
}

// exponentialCXX returns "void f<A<int, int>, B<A.., A..>, ...>()" with n
// template arguments, each the template of the one before twice: its
// demangling doubles with every argument.
func exponentialCXX(n int) string {
	// f is entry 0, A 1, A<int, int> 2; then each argument adds its
	// template name and itself.
	parts := []string{"1AIiiE"}
	last, next := 2, 3
	for k := 1; k < n; k++ {
		name := strings.Repeat(string(rune('A'+k%26)), 1+k/26)
		parts = append(parts, fmt.Sprintf("%d%sI%s%sE", len(name), name, subRef(last), subRef(last)))
		last, next = next+1, next+2
	}
	return "_Z1fI" + strings.Join(parts, "") + "Evv"
}

// base62Ref returns a Rust v0 back reference to position p.
func base62Ref(p int) string {
	if p == 0 {
		return "B_"
	}
	const digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	var s []byte
	for n := p - 1; ; n /= 62 {
		s = append([]byte{digits[n%62]}, s...)
		if n < 62 {
			break
		}
	}
	return "B" + string(s) + "_"
}

// exponentialRust returns a v0 name "a::f::<(), ((), ()), ...>" whose
// generic arguments are each a pair of back references to the one before.
func exponentialRust(n int) string {
	sym := "INvC1a1f"
	args := []string{"u"}
	pos := []int{len(sym)}
	for k := 1; k < n; k++ {
		p := pos[k-1] + len(args[k-1])
		args = append(args, "T"+base62Ref(pos[k-1])+base62Ref(pos[k-1])+"E")
		pos = append(pos, p)
	}
	return "_R" + sym + strings.Join(args, "") + "E"
}

// TestLimits checks names at and beyond the bounds on demangling: the
// results within them are libiberty's (recorded with
// scripts/demangle-oracle.c, or obvious from the name), those beyond are
// refused as libiberty refuses them or, where libiberty has no bound and
// spends exponential time or overflows its stack, reported as too large.
func TestLimits(t *testing.T) {
	// "_Z<n><n x's>v" is 1024 bytes long for n = 1017.
	function := func(n int) string { return "_Z" + fmt.Sprint(n) + strings.Repeat("x", n) + "v" }
	cases := []struct {
		what  string
		name  string
		style Style
		want  string
		r     result
	}{
		{"C++ at 1024 bytes", function(1017), GNUv3, strings.Repeat("x", 1017) + "()", done},
		{"C++ at 1025 bytes", function(1018), GNUv3, "", rejected},
		{"C++ pointers 500 deep", "_Z1f" + strings.Repeat("P", 500) + "v", GNUv3, "f(void" + strings.Repeat("*", 500) + ")", done},
		{"C++ 10 doubling arguments", exponentialCXX(10), GNUv3, "", done},
		{"C++ 40 doubling arguments", exponentialCXX(40), GNUv3, "", tooLarge},
		{"Rust paths 2000 deep", "_R" + strings.Repeat("Nv", 2000) + "C1a" + strings.Repeat("1b", 2000), Rust, "", rejected},
		{"Rust back reference to itself", "_RB_", Rust, "", rejected},
		{"Rust 40 doubling arguments", exponentialRust(40), Rust, "", tooLarge},
		{"D pointers 50,000 deep", "_D1a" + strings.Repeat("P", 50_000) + "i", DLang, "a", done},
		{"D pointers 200,000 deep", "_D1a" + strings.Repeat("P", 200_000) + "i", DLang, "", tooLarge},
	}
	for _, c := range cases {
		got, r := demangle(c.name, c.style, new(scratch))
		assert.Equal(t, c.r, r, c.what)
		if c.want != "" {
			assert.Equal(t, c.want, got, c.what)
		}
		assert.LessOrEqual(t, len(got), MaxOutput, c.what)
	}
	// The doubling names: each argument prints twice the one before.
	out, _ := demangle(exponentialCXX(10), GNUv3, new(scratch))
	assert.Equal(t, 1<<9, strings.Count(strings.SplitN(out, "J<", 2)[1], "A<int, int>"), "the 10th argument holds A<int, int> 2^9 times")
	out, _ = demangle(exponentialRust(8), Rust, new(scratch))
	assert.True(t, strings.HasPrefix(out, "a::f::<(), ((), ()), (((), ()), ((), ())), "), out)
}
