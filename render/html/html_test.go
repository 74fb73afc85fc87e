package html

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/testenv"
	"github.com/egprof/egprof/internal/testprof"
	"github.com/egprof/egprof/render"
	"github.com/egprof/egprof/symtab"
)

// pageData writes the page of d and returns the HTML and its data, read
// back from the page's JSON element.
func pageData(t *testing.T, d *diff.Profile, opt Options) (string, *page) {
	t.Helper()
	var b bytes.Buffer
	_, err := Write(&b, d, opt)
	require.NoError(t, err)
	doc := b.String()
	const open = `<script type="application/json" id="egprof-data">`
	i := strings.Index(doc, open)
	require.GreaterOrEqual(t, i, 0, "no data element")
	rest := doc[i+len(open):]
	j := strings.Index(rest, "</script>")
	require.GreaterOrEqual(t, j, 0)
	var p page
	require.NoError(t, json.Unmarshal([]byte(rest[:j]), &p))
	return doc, &p
}

// num parses a number the page prints.
func num(t *testing.T, v any) float64 {
	t.Helper()
	switch x := v.(type) {
	case float64:
		return x
	case string:
		f, err := strconv.ParseFloat(x, 64)
		require.NoError(t, err, "%q", x)
		return f
	}
	t.Fatalf("not a number: %#v", v)
	return 0
}

// sameName reports whether the page's label spells gprof's printed name:
// the same, or (for same-named statics) followed by its file.
func sameName(label, gprof string) bool {
	return label == gprof || strings.HasPrefix(label, gprof+" (") && strings.HasSuffix(label, ")")
}

// TestSinglePageMatchesGprof checks the single page's flat profile and call
// graph against GNU gprof's report for the same program and profile (the
// goldens of testdata/golden/PROG/default.out, gprof -b).
func TestSinglePageMatchesGprof(t *testing.T) {
	root := testenv.Root(t)
	for _, dir := range testenv.Programs(t) {
		name := filepath.Base(dir)
		golden, err := os.ReadFile(filepath.Join(root, "testdata", "golden", name, "default.out"))
		if err != nil {
			continue // no golden for this program
		}
		t.Run(name, func(t *testing.T) {
			g := testprof.Graph(t, filepath.Join(dir, "prog"), filepath.Join(dir, "gmon.out"))
			d := diff.Single(g, diff.Options{})
			doc, p := pageData(t, d, Options{Naming: symtab.Naming{Demangle: true}, Plus: Side{Exe: "prog", Files: []string{"gmon.out"}}})
			// The only URL is SVG's namespace, a name rather than a place.
			outside := strings.ReplaceAll(doc, "http://www.w3.org/2000/svg", "")
			assert.False(t, strings.Contains(outside, "http://") || strings.Contains(outside, "https://") || strings.Contains(outside, "src="),
				"the page refers to something outside itself")
			assert.Equal(t, "single", p.Kind)

			flat, err := testenv.ParseFlat(string(golden))
			require.NoError(t, err)
			require.NotNil(t, p.Flat)
			require.Len(t, p.Flat.Rows, len(flat))
			for k, want := range flat {
				row := p.Flat.Rows[k]
				id := int(num(t, row[0]))
				assert.True(t, sameName(p.Names[id], want.Name), "row %d: %q against gprof's %q", k, p.Names[id], want.Name)
				assert.Equal(t, want.Percent, num(t, row[1]), "%s %% time", want.Name)
				assert.Equal(t, want.Cumulative, num(t, row[2]), "%s cumulative", want.Name)
				assert.Equal(t, want.Self, num(t, row[3]), "%s self", want.Name)
				if want.HasCalls {
					assert.Equal(t, strconv.FormatUint(want.Calls, 10), row[4], "%s calls", want.Name)
					assert.Equal(t, want.SelfPerCall, num(t, row[5]), "%s self/call", want.Name)
					assert.Equal(t, want.TotalPerCall, num(t, row[6]), "%s total/call", want.Name)
				} else {
					assert.Equal(t, "", row[4], "%s calls", want.Name)
				}
			}

			entries, err := testenv.ParseCallGraph(string(golden))
			require.NoError(t, err)
			require.NotNil(t, p.CG)
			byIndex := map[int][]any{}
			for _, e := range p.CG.Entries {
				byIndex[int(num(t, e[1]))] = e
			}
			for _, want := range entries {
				e := byIndex[want.Index]
				require.NotNil(t, e, "entry [%d]", want.Index)
				id := int(num(t, e[0]))
				flags := int(num(t, e[8]))
				assert.Equal(t, flagShown, flags&flagShown, "[%d] is printed by gprof", want.Index)
				if want.WholeCycle {
					assert.Equal(t, flagCycle, flags&flagCycle)
				} else {
					assert.True(t, sameName(p.Names[id], want.Name), "[%d] %q against %q", want.Index, p.Names[id], want.Name)
				}
				assert.Equal(t, want.Cycle, int(num(t, e[7])), "[%d] cycle", want.Index)
				assert.Equal(t, want.Percent, num(t, e[2]), "[%d] %% time", want.Index)
				assert.Equal(t, want.Self, num(t, e[3]), "[%d] self", want.Index)
				assert.Equal(t, want.Children, num(t, e[4]), "[%d] children", want.Index)
				called := ""
				if n, s := uint64(num(t, e[5])), uint64(num(t, e[6])); n+s != 0 {
					called = strconv.FormatUint(n, 10)
					if s != 0 {
						called += "+" + strconv.FormatUint(s, 10)
					}
				}
				assert.Equal(t, want.Called, called, "[%d] called", want.Index)
				if want.WholeCycle {
					continue
				}
				parents, children := e[10].([]any), e[11].([]any)
				if !want.Spontaneous {
					require.Len(t, parents, len(want.Callers), "[%d] callers", want.Index)
				}
				require.Len(t, children, len(want.Callees), "[%d] callees", want.Index)
				check := func(ln testenv.CallGraphLine, a []any, other int) {
					assert.True(t, sameName(p.Names[other], ln.Name), "[%d]: %q against %q", want.Index, p.Names[other], ln.Name)
					assert.Equal(t, ln.Count, uint64(num(t, a[2])), "[%d] %s count", want.Index, ln.Name)
					if ln.HasTimes {
						assert.Equal(t, ln.Self, num(t, a[3]), "[%d] %s self", want.Index, ln.Name)
						assert.Equal(t, ln.Children, num(t, a[4]), "[%d] %s children", want.Index, ln.Name)
					}
				}
				for k, ln := range want.Callers {
					a := p.CG.Arcs[int(num(t, parents[k]))]
					check(ln, a, int(num(t, a[0])))
				}
				for k, ln := range want.Callees {
					a := p.CG.Arcs[int(num(t, children[k]))]
					check(ln, a, int(num(t, a[1])))
				}
			}

			// The flame graph holds the profile's time: the root carries
			// every sample, and each function's self time (what its
			// frames hold beyond their callees) is its flat self time.
			require.NotNil(t, p.Flame)
			fl := p.Flame
			assert.Equal(t, -1, fl.Fn[0])
			self := map[int]int64{}
			for i := range fl.Fn {
				if i > 0 {
					self[fl.Fn[i]] += fl.Plus[i]
					assert.Less(t, int(fl.Parent[i]), i, "a frame's caller comes before it")
					if fl.Parent[i] > 0 {
						self[fl.Fn[fl.Parent[i]]] -= fl.Plus[i]
					}
				}
			}
			for k, want := range flat {
				id := int(num(t, p.Flat.Rows[k][0]))
				assert.Equal(t, render.Fixed(want.Self, 2), render.Fixed(float64(self[id])/1e9, 2), "%s: self time in the flame graph", want.Name)
			}
		})
	}
}

// TestDiffPageMatchesImpactTable checks the differential page's impact
// table against egprof's printed impact table for the same profiles.
func TestDiffPageMatchesImpactTable(t *testing.T) {
	for _, name := range []string{"recursion", "cycles", "demo"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(testenv.Root(t), "testdata", "progs", name)
			if name == "demo" {
				dir = filepath.Join(testenv.Root(t), "testdata", "demo")
			}
			exe := filepath.Join(dir, "prog")
			plus := testprof.Graph(t, exe, filepath.Join(dir, "gmon.out"))
			minus := testprof.Graph(t, exe, filepath.Join(dir, "gmon2.out"))
			d := diff.Subtract(plus, minus, diff.Options{})
			var text bytes.Buffer
			dt := render.NewDiffText(&text, d, render.DiffOptions{TextOptions: render.TextOptions{Brief: true, Demangle: true}})
			dt.Impact()
			require.NoError(t, dt.Flush())
			sel := d.SelectGraph(diff.DefaultGraphOptions())
			_, p := pageData(t, d, Options{Naming: symtab.Naming{Demangle: true}, ImpactRows: dt.ImpactRows(), WithinNoise: dt.WithinNoise, Graph: &sel})
			assert.Equal(t, "diff", p.Kind)
			var lines []string
			for _, l := range strings.Split(text.String(), "\n")[4:] {
				if l != "" {
					lines = append(lines, l)
				}
			}
			require.Len(t, p.Impact.Rows, len(lines))
			for k, l := range lines {
				r := p.Impact.Rows[k]
				f := strings.Fields(l)
				noise := f[len(f)-1] == "~"
				if noise {
					f = f[:len(f)-1]
				}
				got := []string{r[1].(string), r[2].(string), r[3].(string), r[4].(string), r[5].(string), r[6].(string), r[7].(string), r[8].(string)}
				assert.Equal(t, f[:8], got, "row %d", k)
				assert.Equal(t, strings.Join(f[8:], " "), p.Names[int(num(t, r[0]))], "row %d", k)
				assert.Equal(t, noise, num(t, r[9]) == 1, "row %d noise", k)
			}
			// The differential flame graph's root holds each side's time.
			assert.Equal(t, render.Fixed(d.PlusTotal(), 2), render.Fixed(float64(p.Flame.Plus[0])/1e9, 2))
			assert.Equal(t, render.Fixed(d.MinusTotal(), 2), render.Fixed(float64(p.Flame.Minus[0])/1e9, 2))
			assert.Len(t, p.Flame.Noise, len(p.Flame.Fn))
			require.NotNil(t, p.Graph)
			assert.Len(t, p.Graph.Nodes, len(sel.Nodes))
		})
	}
}

// TestHeaderTotalMatchesGprof: the header's total of each side is the
// total of GNU gprof's report for the same files, where its flat profile's
// cumulative column ends and its call graph's "of N seconds", as the
// flame graph's root is. It is not the count of the histogram's samples:
// gprof credits each function overlap/scale of a bin's count, the bin's
// edges truncated to whole 2-byte units, and with cycles' scale of 1.9975
// the credits sum to 35.04 s per 35.00 s of samples. A hundred copies of a
// profile make the difference show at two decimals (the synthetic
// profile's 77997.67 s against 77997.93 s is the same).
func TestHeaderTotalMatchesGprof(t *testing.T) {
	gprof := testenv.Gprof(t)
	dir := filepath.Join(testenv.Root(t), "testdata", "progs", "cycles")
	exe := filepath.Join(dir, "prog")
	granularity := regexp.MustCompile(`(?m)^granularity: .* of ([0-9.]+) seconds$`)
	// copies returns n copies of dir's profile file and gprof's total
	// for them, checked to be the same in both of its places.
	copies := func(file string, n int) ([]string, string) {
		files := slices.Repeat([]string{filepath.Join(dir, file)}, n)
		out := testenv.Output(t, gprof, "", append([]string{"-b", exe}, files...)...)
		flat, err := testenv.ParseFlat(out)
		require.NoError(t, err)
		require.NotEmpty(t, flat)
		m := granularity.FindStringSubmatch(out)
		require.NotNil(t, m, "gprof's call graph has no granularity line")
		cum := render.Fixed(flat[len(flat)-1].Cumulative, 2)
		require.Equal(t, m[1], cum, "gprof's two totals")
		return files, cum
	}
	plusFiles, plusTotal := copies("gmon.out", 100)
	minusFiles, minusTotal := copies("gmon2.out", 100)
	require.Equal(t, []string{"35.04", "63.08"}, []string{plusTotal, minusTotal}, "gprof's totals")

	plus := testprof.Graph(t, exe, plusFiles...)
	_, p := pageData(t, diff.Single(plus, diff.Options{}), Options{Plus: Side{Exe: "prog", Files: plusFiles}})
	require.Len(t, p.Sides, 1)
	assert.Equal(t, plusTotal, p.Sides[0].Seconds, "single page's header")
	assert.Equal(t, plusTotal, render.Fixed(float64(p.Flame.Plus[0])/1e9, 2), "single page's flame graph")

	minus := testprof.Graph(t, exe, minusFiles...)
	_, p = pageData(t, diff.Subtract(plus, minus, diff.Options{}), Options{})
	require.Len(t, p.Sides, 2)
	assert.Equal(t, plusTotal, p.Sides[0].Seconds, "diff page's '+' header")
	assert.Equal(t, minusTotal, p.Sides[1].Seconds, "diff page's '-' header")
}

// TestFlameBound checks that the flame graph keeps at most MaxFlameNodes
// frames, the heaviest, as a tree, and says what it left out.
func TestFlameBound(t *testing.T) {
	dir := filepath.Join(testenv.Root(t), "testdata", "progs", "cycles")
	g := testprof.Graph(t, filepath.Join(dir, "prog"), filepath.Join(dir, "gmon.out"))
	d := diff.Single(g, diff.Options{})
	_, all := pageData(t, d, Options{})
	for _, limit := range []int{1, 2, 5, len(all.Flame.Fn) - 1, len(all.Flame.Fn), len(all.Flame.Fn) + 10} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			_, p := pageData(t, d, Options{MaxFlameNodes: limit})
			fl := p.Flame
			assert.Equal(t, min(limit, len(all.Flame.Fn)), len(fl.Fn))
			assert.Equal(t, len(all.Flame.Fn)-len(fl.Fn), fl.Left)
			for i := 1; i < len(fl.Fn); i++ {
				assert.Less(t, int(fl.Parent[i]), i)
				assert.LessOrEqual(t, fl.Plus[i], fl.Plus[fl.Parent[i]])
			}
			assert.Equal(t, all.Flame.Plus[0], fl.Plus[0], "the root keeps the whole time")
		})
	}
}

// TestBadInput checks that a missing profile is an error, not a panic, and
// that a profile without arcs or histogram still makes a page.
func TestBadInput(t *testing.T) {
	_, err := Write(&bytes.Buffer{}, nil, Options{})
	assert.Error(t, err)
	_, err = Write(&bytes.Buffer{}, &diff.Profile{}, Options{})
	assert.Error(t, err)

	dir := filepath.Join(testenv.Root(t), "testdata", "progs", "cycles")
	tab, prof := testprof.Load(t, filepath.Join(dir, "prog"))
	g := callgraphBuild(tab, prof)
	_, p := pageData(t, diff.Single(g, diff.Options{}), Options{})
	assert.Nil(t, p.Flat)
	assert.Nil(t, p.CG)
	assert.Equal(t, []int{-1}, p.Flame.Fn)
}

// TestCommandLine checks the quoting of the command line in the header,
// and how a long one is cut.
func TestCommandLine(t *testing.T) {
	for _, c := range []struct {
		argv []string
		want string
	}{
		{[]string{"egprof", "-b", "prog", "gmon.out"}, "egprof -b prog gmon.out"},
		{[]string{"egprof", "--diff=a b", "it's"}, `egprof '--diff=a b' 'it'\''s'`},
		{[]string{"egprof", ""}, "egprof ''"},
		{append([]string{"egprof", "--ranks", "prog"}, strings.Fields(strings.Repeat("g ", 100))...),
			"egprof --ranks prog g g g g g g g g g g g ... (88 more) ... g"},
	} {
		assert.Equal(t, c.want, commandLine(c.argv))
	}
	for _, c := range []struct {
		n    int
		want []string
	}{
		{0, []string{}}, {3, []string{"f0", "f1", "f2"}}, {6, []string{"f0", "f1", "f2", "f3", "f4", "f5"}},
		{7, []string{"f0", "f1", "f2", "f3", "f4", "f6"}}, {4096, []string{"f0", "f1", "f2", "f3", "f4", "f4095"}},
	} {
		var files []string
		for i := range c.n {
			files = append(files, fmt.Sprintf("f%d", i))
		}
		assert.Equal(t, c.want, shortList(files, sideFilesShown), "%d files", c.n)
	}
}

// callgraphBuild builds a call graph with gprof's default options.
func callgraphBuild(tab *symtab.Table, prof *gmon.Profile) *callgraph.Graph {
	return callgraph.Build(tab, prof, callgraph.Options{})
}

// TestSourceLines checks how the Source tab splits -A's lines into count
// and text: lines as testdata/golden/multifile/annotate.out prints them
// (gprof -b -A), a count cut at 16 columns, -m's "#####", and lines too
// short to hold a count (not from egprof, but no reason to fail).
func TestSourceLines(t *testing.T) {
	for _, c := range []struct {
		line, count, text string
	}{
		{"        4500 -> {", "4500", "{"},
		{"                \tlong s = 0;", "", "\tlong s = 0;"},
		{"                ", "", ""},
		{"           1 -> {", "1", "{"},
		{"1,2,3,4,5,6,7,8,9,10", "1,2,3,4,5,6,7,8,", "9,10"},
		{"       ##### -> x", "#####", "x"},
		{"short", "short", ""},
		{"", "", ""},
	} {
		t.Run(c.line, func(t *testing.T) {
			got := sources([]render.AnnotatedFile{{Name: "a.c", Lines: []string{c.line}, Trailer: "\nExecution Summary:\n"}})
			require.Len(t, got, 1)
			assert.Equal(t, [][]string{{c.count, c.text, ""}}, got[0].Lines)
			assert.Equal(t, "a.c", got[0].Name)
		})
	}
}

// TestLineNames checks the Lines tab: the flat profile's rows under the
// names given, in place of the Flat profile tab, each followed by the
// annotated file its line is in and the line (-1 and 0 when none is);
// names or places missing for some entries leave them blank rather than
// fail.
func TestLineNames(t *testing.T) {
	dir := filepath.Join(testenv.Root(t), "testdata", "progs", "cycles")
	g := testprof.Graph(t, filepath.Join(dir, "prog"), filepath.Join(dir, "gmon.out"))
	d := diff.Single(g, diff.Options{})
	_, plain := pageData(t, d, Options{})
	require.NotNil(t, plain.Flat)
	require.Nil(t, plain.Lines)
	all := make([]string, len(g.Entries))
	locs := make([]symtab.SourceLoc, len(g.Entries))
	for i := range all {
		all[i] = fmt.Sprintf("line %d", i)
		locs[i] = symtab.SourceLoc{File: []string{"a.c", "b.c", "elsewhere.c"}[i%3], Line: i + 1}
	}
	sources := []render.AnnotatedFile{{Name: "b.c"}, {Name: "a.c"}}
	for _, c := range []struct {
		name    string
		names   []string
		locs    []symtab.SourceLoc
		sources []render.AnnotatedFile
	}{
		{"named, in files", all, locs, sources},
		{"named, no sources", all, locs, nil},
		{"nothing", []string{}, nil, sources},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, p := pageData(t, d, Options{LineNames: c.names, LineLocs: c.locs, Sources: c.sources})
			assert.Nil(t, p.Flat)
			require.NotNil(t, p.Lines)
			require.Len(t, p.Lines.Rows, len(plain.Flat.Rows))
			for k, r := range p.Lines.Rows {
				id := int(num(t, plain.Flat.Rows[k][0]))
				name, file, line := "", -1.0, 0.0
				if id < len(c.names) {
					name = c.names[id]
				}
				if id < len(c.locs) && c.sources != nil {
					file = map[string]float64{"a.c": 1, "b.c": 0, "elsewhere.c": -1}[c.locs[id].File]
					if file >= 0 {
						line = float64(id + 1)
					}
				}
				want := append(append([]any{name}, plain.Flat.Rows[k][1:]...), file, line)
				assert.Equal(t, want, r)
			}
		})
	}
}

// TestLineSeconds checks the seconds the Source tab puts on a line with -l:
// the self seconds of the Lines rows at it as they print them, joined in
// their order; none for 0.00, for rows in no file, or for a line or file
// that is not there (bad input, not from egprof).
func TestLineSeconds(t *testing.T) {
	row := func(self string, file, line int) []any {
		return []any{"f", "1.00", "1.00", self, "", "", "", file, line}
	}
	for _, c := range []struct {
		name string
		rows [][]any
		want []string // the seconds of lines 1 to 3 of file 0
	}{
		{"one", [][]any{row("0.13", 0, 2)}, []string{"", "0.13", ""}},
		{"two at a line", [][]any{row("0.13", 0, 2), row("0.01", 0, 2)}, []string{"", "0.13+0.01", ""}},
		{"0.00 left out", [][]any{row("0.00", 0, 1), row("0.05", 0, 3)}, []string{"", "", "0.05"}},
		{"other file", [][]any{row("0.13", 1, 2)}, []string{"", "", ""}},
		{"in no file", [][]any{row("0.13", -1, 0)}, []string{"", "", ""}},
		{"no such line or file", [][]any{row("0.13", 0, 4), row("0.13", 0, 0), row("0.13", 2, 1), {"short"}}, []string{"", "", ""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := sources([]render.AnnotatedFile{{Name: "a.c", Lines: []string{"", "", ""}}, {Name: "b.c", Lines: []string{"", ""}}})
			lineSeconds(files, &flatJSON{Rows: c.rows})
			var got []string
			for _, l := range files[0].Lines {
				got = append(got, l[2])
			}
			assert.Equal(t, c.want, got)
		})
	}
}
