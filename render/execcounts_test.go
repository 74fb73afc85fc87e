package render

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/symtab"

	"github.com/egprof/egprof/internal/testenv"
)

func TestExecCounts(t *testing.T) {
	tab := &symtab.Table{
		Target:  gmon.Target{Order: binary.LittleEndian, AddrSize: 8},
		TextLow: 0x1000, TextEnd: 0x104f,
	}
	add := func(name string, addr uint64, file string, line int) {
		s := symtab.Symbol{Name: name, Addr: addr, IsFunc: file == ""}
		if file != "" {
			s.IsLine, s.Src = true, symtab.SourceLoc{File: file, Line: line}
		}
		tab.Syms = append(tab.Syms, s)
	}
	add("_init", 0x1000, "", 0)
	add("work", 0x1010, "./b.c", 7)
	add("_Z3fooi", 0x1020, "./a.c", 9)
	add("work", 0x1030, "./b.c", 3)
	add("_fini", 0x1040, "", 0)
	for i := range tab.Syms {
		tab.Syms[i].End = tab.Syms[i].Addr + 0xf
	}
	g := callgraph.Build(tab, nil, callgraph.Options{})
	g.Entries[1].NCalls = 1
	g.Entries[2].NCalls = 20
	blocks := callgraph.AttachBlocks(tab, []gmon.BBRecord{{Addr: 0x1034, Count: 100}, {Addr: 0x1032, Count: 0}, {Addr: 0x1041, Count: 2}})

	var out bytes.Buffer
	text := NewText(&out, g, TextOptions{})
	text.ExecCounts(blocks)
	require.NoError(t, text.Flush())
	assert.Equal(t, ""+
		"./a.c:9: (_Z3fooi:0x1020) 20 executions\n"+
		"./b.c:3: (work:0x1034) 100 executions\n"+
		"./b.c:7: (work:0x1010) 1 executions\n"+
		"<unknown>:0: (_fini:0x1041) 2 executions\n", out.String())

	out.Reset()
	text = NewText(&out, g, TextOptions{ShowZeros: true})
	text.MarkPrinted()
	text.ExecCounts(blocks)
	require.NoError(t, text.Flush())
	assert.Equal(t, "\f\n"+
		"<unknown>:0: (_init:0x1000) 0 executions\n"+
		"./a.c:9: (_Z3fooi:0x1020) 20 executions\n"+
		"./b.c:3: (work:0x1030) 0 executions\n"+
		"./b.c:3: (work:0x1034) 100 executions\n"+
		"./b.c:3: (work:0x1032) 0 executions\n"+
		"./b.c:7: (work:0x1010) 1 executions\n"+
		"<unknown>:0: (_fini:0x1040) 0 executions\n"+
		"<unknown>:0: (_fini:0x1041) 2 executions\n", out.String())
}

// sortItem is one element of the sort oracle: a file (empty for none), a
// line and an address, compared as gprof compares -C rows.
type sortItem struct {
	file       string
	line, addr int
}

func cmpSortItems(l, r sortItem) int {
	if l.file != "" && r.file != "" {
		if c := strings.Compare(l.file, r.file); c != 0 {
			return c
		}
		if l.line != r.line {
			return l.line - r.line
		}
	}
	return l.addr - r.addr
}

// qsortOracle is a C program that sorts the items given on its standard
// input with glibc's qsort and the same (inconsistent) comparison.
const qsortOracle = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
struct item { char file[8]; int line, addr, id; };
static int cmp(const void *a, const void *b) {
	const struct item *l = a, *r = b;
	if (l->file[0] && r->file[0]) {
		int c = strcmp(l->file, r->file);
		if (c) return c;
		if (l->line != r->line) return l->line - r->line;
	}
	return l->addr < r->addr ? -1 : l->addr > r->addr;
}
static int pcmp(const void *a, const void *b) {
	return cmp(*(const struct item *const *)a, *(const struct item *const *)b);
}
int main(void) {
	int n;
	while (scanf("%d", &n) == 1) {
		struct item *v = calloc(n, sizeof *v);
		for (int i = 0; i < n; i++) {
			scanf("%7s %d %d", v[i].file, &v[i].line, &v[i].addr);
			if (strcmp(v[i].file, "-") == 0) v[i].file[0] = 0;
			v[i].id = i;
		}
		/* Sort pointers, as gprof does, so that glibc uses its merge sort on 8-byte elements. */
		struct item **p = calloc(n, sizeof *p);
		for (int i = 0; i < n; i++) p[i] = &v[i];
		qsort(p, n, sizeof *p, pcmp);
		for (int i = 0; i < n; i++) printf("%d ", p[i]->id);
		printf("\n");
		free(p);
		free(v);
	}
	return 0;
}
`

// TestGlibcSortMatchesQsort checks glibcSort against glibc's qsort on
// random inputs where the comparison is inconsistent (rows with and
// without a file mixed), the case in which the algorithm shows.
func TestGlibcSortMatchesQsort(t *testing.T) {
	testenv.Need(t, "gcc")
	dir := t.TempDir()
	src := filepath.Join(dir, "oracle.c")
	require.NoError(t, os.WriteFile(src, []byte(qsortOracle), 0o644))
	bin := filepath.Join(dir, "oracle")
	out, err := exec.Command("gcc", "-O1", "-o", bin, src).CombinedOutput()
	require.NoError(t, err, "gcc: %s", out)

	rng := rand.New(rand.NewPCG(1, 2))
	files := []string{"-", "a.c", "b.c", "c.c"}
	var input strings.Builder
	var sets [][]sortItem
	for range 300 {
		n := 1 + rng.IntN(40)
		items := make([]sortItem, n)
		fmt.Fprintf(&input, "%d\n", n)
		for i := range items {
			f := files[rng.IntN(len(files))]
			items[i] = sortItem{file: f, line: rng.IntN(5), addr: rng.IntN(50)}
			fmt.Fprintf(&input, "%s %d %d\n", f, items[i].line, items[i].addr)
			if f == "-" {
				items[i].file = ""
			}
		}
		sets = append(sets, items)
	}
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(input.String())
	res, err := cmd.Output()
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(res)), "\n")
	require.Len(t, lines, len(sets))
	for k, items := range sets {
		type tagged struct {
			sortItem
			id int
		}
		v := make([]tagged, len(items))
		for i, it := range items {
			v[i] = tagged{it, i}
		}
		glibcSort(v, func(l, r tagged) int { return cmpSortItems(l.sortItem, r.sortItem) })
		var got []string
		for _, x := range v {
			got = append(got, strconv.Itoa(x.id))
		}
		require.Equal(t, strings.Fields(lines[k]), got, "set %d: %v", k, items)
	}
}
