package symtab

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNamingLabels(t *testing.T) {
	swapA := Named{Raw: "swap", Src: SourceLoc{File: "./src/a.c", Line: 10}, HasSrc: true, Static: true}
	swapB := Named{Raw: "swap", Src: SourceLoc{File: "./src/b.c", Line: 20}, HasSrc: true, Static: true}
	mainF := Named{Raw: "main", Src: SourceLoc{File: "./src/main.c", Line: 3}, HasSrc: true}
	cxx := Named{Raw: "_ZSt4sqrtf"}
	cases := []struct {
		name   string
		naming Naming
		fns    []Named
		want   []string
	}{
		{"statics told apart", Naming{Demangle: true}, []Named{swapA, swapB, mainF}, []string{"swap (a.c)", "swap (b.c)", "main"}},
		{"a lone static keeps its name", Naming{Demangle: true}, []Named{swapA, mainF}, []string{"swap", "main"}},
		{"-L: full paths", Naming{FullPath: true}, []Named{swapA, swapB}, []string{"swap (./src/a.c)", "swap (./src/b.c)"}},
		{"--inline-file-names", Naming{InlineFileNames: true}, []Named{swapA, mainF}, []string{"swap (a.c:10)", "main (main.c:3)"}},
		{"demangled", Naming{Demangle: true}, []Named{cxx}, []string{"std::sqrt(float)"}},
		{"-T or --no-demangle: raw", Naming{}, []Named{cxx}, []string{"_ZSt4sqrtf"}},
		{"STT_FILE only", Naming{}, []Named{{Raw: "swap", Src: SourceLoc{File: "a.c"}, HasSrc: true, Static: true}, swapB},
			[]string{"swap (a.c)", "swap (b.c)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, c.naming.Labels(c.fns))
		})
	}
}
