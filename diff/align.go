package diff

import "github.com/egprof/egprof/symtab"

// AlignByName pairs the functions of two builds by name exactly as
// Subtract aligns two different executables (raw name, statics by
// translation unit or source file, then demangled name). It returns, for each symbol of a, the index
// of the same function in b, or -1 when b has no counterpart; the pairing
// is one to one.
func AlignByName(a, b *symtab.Table) []int {
	inB := make([]int, len(a.Syms))
	pairs, _ := alignByName(a, b)
	for _, p := range pairs {
		if p.plus >= 0 {
			inB[p.plus] = p.minus
		}
	}
	return inB
}
