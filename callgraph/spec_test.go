package callgraph

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/symtab"
)

func TestSpecParsing(t *testing.T) {
	cases := []struct {
		in   string
		want specPart
	}{
		{"main", specPart{name: "main"}},
		{"b.c", specPart{file: "b.c", fileSpec: true}},
		{"b.c:4", specPart{file: "b.c", fileSpec: true, line: 4}},
		{"b.c:helper", specPart{file: "b.c", fileSpec: true, name: "helper"}},
		{":g.dotted", specPart{name: "g.dotted"}},
		{"9", specPart{line: 9}},
		{"a:b:c", specPart{file: "a:b", fileSpec: true, name: "c"}},
		{"", specPart{}},
		// gprof reads line numbers with atoi, (int) strtol in glibc: 2^32+7
		// keeps its low 32 bits, and a number past 64 bits saturates to
		// LONG_MAX, whose low 32 bits are -1.
		{"4294967303", specPart{line: 7}},
		{"b.c:99999999999999999999", specPart{file: "b.c", fileSpec: true, line: -1}},
		{"12abc", specPart{line: 12}},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, parseSpecPart(c.in), c.in)
	}
}

// Copies of the symbols a FROM/TO spec matches are made per run of
// consecutive matching symbols; every FROM copy has an arc to every TO copy.
func TestSpecArcs(t *testing.T) {
	tab, _ := synthetic(t, []string{"a", "b", "a", "c", "b"}, nil, nil)
	_, sa := ResolveSpecs(tab, []SpecUse{{Table: ExclArcs, Spec: "a/b"}})
	var got []string
	for _, a := range sa.Arcs {
		got = append(got, tab.Syms[sa.Copies[a.Parent].Sym].Name+"->"+tab.Syms[sa.Copies[a.Child].Sym].Name)
	}
	// Two runs of a (symbols 0 and 2) and two of b (1 and 4).
	assert.Equal(t, []string{"a->b", "a->b", "a->b", "a->b"}, got)
	require.Len(t, sa.Copies, 4)
	// Each side's copies are linked newest first: the second run's copy
	// points to the first's.
	var links []int
	for _, c := range sa.Copies {
		links = append(links, c.Next)
	}
	assert.Equal(t, []int{-1, 0, -1, 2}, links, "a's copies (sorted), then b's")

	_, none := ResolveSpecs(tab, []SpecUse{{Table: ExclArcs, Spec: "zz/b"}})
	assert.Empty(t, none.Arcs, "a FROM half that matches nothing adds no arc")
	_, plain := ResolveSpecs(tab, []SpecUse{{Table: ExclFlat, Spec: "a"}})
	assert.Empty(t, plain.Copies, "a spec without a slash adds no arc")
}

// hugeLineProgram has one function per line, so a line spec picks one.
const hugeLineProgram = `int f(int x) { return x + 1; }
int g(int x) { return x * 2; }
int h(int x) { return x - 3; }
int main(void) { return f(1) + g(2) + h(3) == 0; }
`

// TestHugeLineNumberAgainstGprof checks, with GNU gprof, which functions a
// -P symspec with a line number too large for an int excludes from the
// flat profile.
func TestHugeLineNumberAgainstGprof(t *testing.T) {
	for _, tool := range []string{"gcc", "gprof"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found, so gprof cannot be compared: %v", tool, err)
		}
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "prog.c"), []byte(hugeLineProgram), 0o666))
	for _, argv := range [][]string{{"gcc", "-pg", "-g", "-O0", "-o", "prog", "prog.c"}, {"./prog"}} {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%q: %s", argv, out)
	}
	tab, err := symtab.Load(filepath.Join(dir, "prog"), symtab.Options{})
	require.NoError(t, err)

	ours := []string{"f", "g", "h", "main"}
	for _, spec := range []string{
		"prog.c:4294967298",           // 2^32 + 2: line 2
		"prog.c:12884901891",          // 3 * 2^32 + 3: line 3
		"prog.c:99999999999999999999", // LONG_MAX: line -1
		"prog.c:2",
	} {
		t.Run(spec, func(t *testing.T) {
			cmd := exec.Command("gprof", "-b", "-z", "-p", "-P"+spec, "prog", "gmon.out")
			cmd.Dir = dir
			out, err := cmd.Output()
			require.NoError(t, err)
			shown := map[string]bool{}
			sc := bufio.NewScanner(strings.NewReader(string(out)))
			for sc.Scan() {
				if f := strings.Fields(sc.Text()); len(f) > 0 {
					shown[f[len(f)-1]] = true
				}
			}
			tables, _ := ResolveSpecs(tab, []SpecUse{{Table: ExclFlat, Spec: spec}})
			for i := range tab.Syms {
				s := &tab.Syms[i]
				for _, name := range ours {
					if s.Name == name {
						assert.Equal(t, shown[name], !tables[ExclFlat].Contains(s.Addr), "%s shown", name)
					}
				}
			}
		})
	}
}
