package diff

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/internal/testprof"
	"github.com/egprof/egprof/symtab"
)

// load builds the call graph of a testdata program and one of its runs.
func load(t *testing.T, prog, gmonFile string) *callgraph.Graph {
	t.Helper()
	dir := filepath.Join("..", "testdata", "progs", prog)
	return testprof.Graph(t, filepath.Join(dir, "prog"), filepath.Join(dir, gmonFile))
}

var programs = []string{"ranks", "cycles", "recursion", "cxx", "multifile"}

func TestDiffWithItselfKeepsZeros(t *testing.T) {
	for _, prog := range programs {
		a := load(t, prog, "gmon.out")
		d := Subtract(a, a, Options{})
		single := Single(a, Options{})
		require.Equal(t, len(single.Functions), len(d.Functions), prog)
		require.NotEmpty(t, d.Functions)
		for _, f := range d.Functions {
			assert.Zero(t, f.SelfDelta(), "%s %s", prog, f.Name)
			assert.Zero(t, f.CallsDelta(), "%s %s", prog, f.Name)
			assert.True(t, f.Plus.Present && f.Minus.Present)
		}
		for _, a := range d.Arcs {
			assert.Zero(t, a.CountDelta())
			assert.True(t, a.Plus.Present && a.Minus.Present)
		}
		// Nothing changed: no total change to take shares of, so a
		// picture keeps everything rather than nothing.
		sel := d.SelectGraph(DefaultGraphOptions())
		assert.Zero(t, sel.Total, prog)
		assert.Zero(t, sel.NodeLimit, prog)
		assert.Len(t, sel.Nodes, len(d.Functions), prog)
		assert.Len(t, sel.Arcs, len(d.Arcs), prog)
	}
}

func TestDiffIsAntisymmetric(t *testing.T) {
	for _, prog := range programs {
		a, b := load(t, prog, "gmon.out"), load(t, prog, "gmon2.out")
		ab, ba := Subtract(a, b, Options{}), Subtract(b, a, Options{})
		require.Equal(t, len(ab.Functions), len(ba.Functions), prog)
		byName := map[string]*Function{}
		for i := range ba.Functions {
			f := &ba.Functions[i]
			byName[f.Name+"\x00"+f.File] = f
		}
		for i := range ab.Functions {
			f := &ab.Functions[i]
			g := byName[f.Name+"\x00"+f.File]
			require.NotNil(t, g, f.Name)
			assert.Equal(t, f.SelfDelta(), -g.SelfDelta(), f.Name)
			assert.Equal(t, f.CallsDelta(), -g.CallsDelta(), f.Name)
			assert.Equal(t, f.Plus.HasData(), g.Minus.HasData(), f.Name)
		}
		assert.Equal(t, len(ab.Arcs), len(ba.Arcs))
	}
}

// For one executable, the '-' side plus the difference gives back the
// '+' side, function by function and arc by arc.
func TestMinusPlusDiffIsPlus(t *testing.T) {
	for _, prog := range programs {
		a, b := load(t, prog, "gmon.out"), load(t, prog, "gmon2.out")
		d := Subtract(a, b, Options{})
		require.True(t, d.SameBinary)
		for _, f := range d.Functions {
			if f.Plus.Entry < 0 {
				continue
			}
			e := &a.Entries[f.Plus.Entry]
			assert.InDelta(t, e.Ticks/float64(a.HZ), f.Minus.Self+f.SelfDelta(), 1e-12, f.Name)
			assert.Equal(t, int64(e.NCalls), int64(f.Minus.Calls)+f.CallsDelta(), f.Name)
		}
		for _, arc := range d.Arcs {
			assert.Equal(t, int64(arc.Plus.Count), int64(arc.Minus.Count)+arc.CountDelta())
		}
	}
}

// Two builds of one source are aligned by name: every function of the -O0
// build that also exists in the -O2 build is paired with it.
func TestAlignTwoBuilds(t *testing.T) {
	a, b := load(t, "recursion", "gmon.out"), load(t, "recursion-O2", "gmon.out")
	d := Subtract(a, b, Options{KeepAll: true})
	require.False(t, d.SameBinary)
	inB := map[string]bool{}
	for _, s := range b.Syms.Syms {
		inB[s.Name] = true
	}
	for _, f := range d.Functions {
		if f.Plus.Present {
			assert.Equal(t, inB[f.Name], f.Minus.Present, f.Name)
		}
	}
}

// Static functions with the same name in two files are paired with the
// static of the same file in the other build, with or without debug
// information.
func TestAlignSameNamedStatics(t *testing.T) {
	a := load(t, "multifile", "gmon.out")
	b := load(t, "multifile-nopie", "gmon.out")
	d := Subtract(a, b, Options{KeepAll: true})
	require.False(t, d.SameBinary, "PIE and non-PIE builds have other addresses")
	files := map[string]int{}
	for _, f := range d.Functions {
		if f.Name != "helper" || !f.Static {
			continue
		}
		require.True(t, f.Plus.Present && f.Minus.Present, "helper of %s paired", f.File)
		pf := a.Syms.Syms[f.Plus.Entry].ObjFile
		mf := b.Syms.Syms[f.Minus.Entry].ObjFile
		assert.Equal(t, pf, mf, "helper paired across files")
		files[pf]++
	}
	assert.Len(t, files, 2, "two static helpers, one per file")
}

// TestAlignByNameKeys pairs same-named static functions of two builds by
// their translation unit first, then by their source file, and in address
// order only when neither tells them apart, reporting those guesses. The
// source file is BFD's answer for the function's address: for a static
// defined in a header, the header in one build and the including file in
// another (zstd's ZSTD_safecopyLiterals, gcc -O0 against -O2). The tables
// give each symbol its source through Src, as -l's line symbols carry
// theirs, so that no DWARF is needed.
func TestAlignByNameKeys(t *testing.T) {
	static := func(addr uint64, name, unit, src string) symtab.Symbol {
		return symtab.Symbol{Name: name, Addr: addr, IsStatic: true, ObjFile: unit, IsLine: true, Src: symtab.SourceLoc{File: src}}
	}
	global := func(addr uint64, name string) symtab.Symbol { return symtab.Symbol{Name: name, Addr: addr} }
	tests := []struct {
		name    string
		a, b    []symtab.Symbol
		want    []int // for each symbol of a, its partner in b
		guessed []int
	}{
		{"the unit tells header copies apart where the source file does not",
			[]symtab.Symbol{static(0x10, "copy", "lib/x.c", "lib/h.h"), static(0x20, "copy", "lib/y.c", "lib/h.h"), global(0x30, "main")},
			[]symtab.Symbol{static(0x10, "copy", "lib/x.c", "lib/x.c"), global(0x18, "main"), static(0x20, "copy", "lib/y.c", "lib/h.h")},
			[]int{0, 2, 1}, nil},
		{"the source file, where every unit has one name (LTO)",
			[]symtab.Symbol{static(0x10, "f", "<artificial>", "a.c"), static(0x20, "f", "<artificial>", "b.c")},
			[]symtab.Symbol{static(0x10, "f", "<artificial>", "b.c"), static(0x20, "f", "<artificial>", "src/a.c")},
			[]int{1, 0}, nil},
		{"address order when nothing tells them apart, reported",
			[]symtab.Symbol{static(0x10, "g", "u.c", "h.h"), static(0x20, "g", "u.c", "h.h"), global(0x30, "main")},
			[]symtab.Symbol{static(0x10, "g", "u.c", "h.h"), static(0x20, "g", "u.c", "h.h"), global(0x30, "main")},
			[]int{0, 1, 2}, []int{0, 1}},
		{"one side only",
			[]symtab.Symbol{global(0x10, "kept"), global(0x20, "inlined_away")},
			[]symtab.Symbol{global(0x10, "kept")},
			[]int{0, -1}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pairs, guessed := alignByName(&symtab.Table{Syms: tt.a}, &symtab.Table{Syms: tt.b})
			got := make([]int, len(tt.a))
			for _, p := range pairs {
				if p.plus >= 0 {
					got[p.plus] = p.minus
				}
			}
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.guessed, guessed)
		})
	}
}
