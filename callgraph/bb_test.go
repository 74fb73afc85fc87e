package callgraph

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/symtab"
)

// lineTable is a -l style table: function f at 0x1000 (file a.c line 3)
// with line symbols at 0x1010 (line 4), 0x1020 (line 4 again), 0x1030
// (line 6); function g at 0x1040 (b.c line 1); h at 0x1050 without debug
// information. Function symbols have no source here (there is no ELF
// file behind the table), so only the line symbols have one.
func lineTable() *symtab.Table {
	tab := &symtab.Table{Target: gmon.Target{Order: binary.LittleEndian, AddrSize: 8}, TextLow: 0x1000, TextEnd: 0x105f}
	add := func(name string, addr uint64, fn bool, file string, line int) {
		s := symtab.Symbol{Name: name, Addr: addr, IsFunc: fn}
		if file != "" {
			s.IsLine, s.Src = true, symtab.SourceLoc{File: file, Line: line}
		}
		tab.Syms = append(tab.Syms, s)
	}
	add("f", 0x1000, true, "", 0)
	add("f", 0x1010, false, "dir/a.c", 4)
	add("f", 0x1020, false, "dir/a.c", 4)
	add("f", 0x1030, false, "dir/a.c", 6)
	add("g", 0x1040, false, "b.c", 1)
	add("h", 0x1050, true, "", 0)
	for i := range tab.Syms {
		if i+1 < len(tab.Syms) {
			tab.Syms[i].End = tab.Syms[i+1].Addr - 1
		} else {
			tab.Syms[i].End = tab.TextEnd
		}
	}
	return tab
}

func TestAttachBlocks(t *testing.T) {
	tab := lineTable()
	var bbs []gmon.BBRecord
	// Twelve distinct blocks in the first line symbol: two are dropped.
	for k := uint64(0); k < 12; k++ {
		bbs = append(bbs, gmon.BBRecord{Addr: 0x1010 + k, Count: k + 1})
	}
	bbs = append(bbs,
		gmon.BBRecord{Addr: 0x1030, Count: 7},
		gmon.BBRecord{Addr: 0x1001, Count: 3},
		gmon.BBRecord{Addr: 0x0fff, Count: 9}, // below the text: dropped
	)
	b := AttachBlocks(tab, bbs)
	got := b.Of(1)
	require.Len(t, got, MaxBlocks)
	assert.Equal(t, Block{0x1010, 1}, got[0])
	assert.Equal(t, Block{0x1019, 10}, got[9])
	assert.Equal(t, []Block{{0x1030, 7}}, b.Of(3))
	assert.Equal(t, []Block{{0x1001, 3}}, b.Of(0))
	assert.Empty(t, b.Of(2))

	recs := b.Records()
	require.Len(t, recs, 12)
	assert.Equal(t, gmon.BBRecord{Addr: 0x1001, Count: 3}, recs[0], "symbols in address order")
	assert.Equal(t, gmon.BBRecord{Addr: 0x1030, Count: 7}, recs[11])

	var none *Blocks
	assert.Nil(t, none.Of(0))
	assert.Nil(t, none.Records())
}

func TestAttachBlocksSumsAndZeroAddress(t *testing.T) {
	tab := &symtab.Table{Syms: []symtab.Symbol{{Name: "z", Addr: 0, End: 0xff, IsFunc: true}}, TextEnd: 0xff}
	b := AttachBlocks(tab, []gmon.BBRecord{{Addr: 0, Count: 5}, {Addr: 0x10, Count: 1}, {Addr: 0x10, Count: 2}})
	// gprof's free-slot marker is address 0: the block at 0x10 takes the
	// slot of the block at 0 over, counts included.
	assert.Equal(t, []Block{{0x10, 8}}, b.Of(0))
	b = AttachBlocks(tab, []gmon.BBRecord{{Addr: 0x10, Count: 1}, {Addr: 0, Count: 5}})
	assert.Equal(t, []Block{{0x10, 1}}, b.Of(0), "listings stop at a block at address 0")
}

func TestSourceFiles(t *testing.T) {
	tab := lineTable()
	g := Build(tab, nil, Options{})
	g.Entries[1].NCalls = 5 // line symbols never get calls from arcs; set some to see the sums
	g.Entries[2].NCalls = 7
	g.Entries[4].NCalls = 0
	blocks := AttachBlocks(tab, []gmon.BBRecord{{Addr: 0x1011, Count: 100}, {Addr: 0x1021, Count: 9}})

	files := g.SourceFiles([]string{"b.c", "nosuch.c", "dir/a.c"}, blocks)
	require.Len(t, files, 2, "files without symbols are left out")
	b, a := files[0], files[1]
	assert.Equal(t, "b.c", b.Name)
	assert.Equal(t, "dir/a.c", a.Name)
	assert.Zero(t, b.Calls)
	require.Len(t, a.Lines, 6)
	assert.Nil(t, a.Lines[0])
	l4 := a.Lines[3]
	require.NotNil(t, l4)
	assert.Equal(t, 4, l4.Line)
	assert.Equal(t, 1, l4.Sym)
	assert.Equal(t, uint64(12), l4.Calls, "calls of both symbols on line 4")
	assert.Zero(t, l4.Addr, "a merged line loses its address, as in gprof")
	assert.Equal(t, []Block{{0x1011, 100}}, l4.Blocks, "only the first symbol's blocks")
	assert.Equal(t, uint64(0x1030), a.Lines[5].Addr)
	assert.Equal(t, uint64(12), a.Calls)

	top := a.TopLines(10)
	require.Len(t, top, 1, "lines without calls are not in the table")
	assert.Equal(t, 4, top[0].Line)

	// -J on the first line symbol of line 4.
	g = Build(tab, nil, Options{Specs: []SpecUse{{Table: ExclAnno, Spec: "a.c:4"}}})
	files = g.SourceFiles([]string{"dir/a.c"}, nil)
	require.Len(t, files, 1)
	assert.Nil(t, files[0].Lines[3], "both line-4 symbols excluded")
	assert.NotNil(t, files[0].Lines[5])
}

func TestTopLinesOrder(t *testing.T) {
	f := &SourceFile{Lines: []*SourceLine{
		{Line: 1, Calls: 5}, nil, {Line: 3, Calls: 9}, {Line: 4, Calls: 5}, {Line: 5}, {Line: 6, Calls: 9},
	}}
	var got []int
	for _, l := range f.TopLines(4) {
		got = append(got, l.Line)
	}
	assert.Equal(t, []int{3, 6, 1, 4}, got, "more calls first, then lower line")
	assert.Len(t, f.TopLines(0), 0)
	assert.Len(t, f.TopLines(100), 4)
}

func TestSelections(t *testing.T) {
	tab := lineTable()
	g := Build(tab, nil, Options{Specs: []SpecUse{{Table: InclExec, Spec: "g"}, {Table: ExclAnno, Spec: "h"}}})
	for i := range tab.Syms {
		assert.Equal(t, tab.Syms[i].Name == "g", g.ExecCountSelected(i), "exec %d", i)
		assert.Equal(t, tab.Syms[i].Name != "h", g.AnnotationSelected(i), "anno %d", i)
	}
}
