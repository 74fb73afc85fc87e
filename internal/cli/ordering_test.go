package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/progen"
	"github.com/egprof/egprof/internal/testenv"
	"github.com/egprof/egprof/symtab"
)

// The tests in this file compare egprof's -r (function ordering), -R
// (file ordering with a mapping file) and -S (external symbol table) with
// GNU gprof, byte for byte, on programs built here with gcc -pg and on the
// checked-in test programs. They skip when gcc or gprof is missing.

// deterministicMalloc is the environment GNU gprof runs in for -R. gprof
// marks the first line of each file in its mapping table but never clears
// the mark of the other lines, which it allocates with malloc: whether
// they count as first lines depends on what the heap held before. With the
// thread cache off and MALLOC_PERTURB_=1, glibc fills every allocation
// with 0xfe, so the marks are clear and gprof does what it means to do,
// which is what egprof does.
func deterministicMalloc() []string {
	return []string{"GLIBC_TUNABLES=glibc.malloc.tcache_count=0", "MALLOC_PERTURB_=1"}
}

// gnuTimeout bounds one GNU gprof run; some symspec combinations make its
// -r print the same chain forever.
const gnuTimeout = time.Minute

// orderingCase is one command line compared between GNU gprof and egprof.
type orderingCase struct {
	name string
	args []string // without argv[0]; file operands are absolute paths
	env  []string // extra environment for GNU gprof
}

// compareCases runs every case as a subtest.
func compareCases(t *testing.T, gprof string, cases []orderingCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			argv := append([]string{"gprof"}, c.args...)
			ctx, cancel := context.WithTimeout(t.Context(), gnuTimeout)
			defer cancel()
			want := testenv.Run(ctx, t, gprof, t.TempDir(), argv, c.env...)
			got := testenv.RunMain(run, argv...)
			compareResults(t, "gprof "+strings.Join(c.args, " "), want, got)
		})
	}
}

// srcFile is one C source of a test program.
type srcFile struct{ name, text string }

// builtProgram is a test program compiled, linked and run once.
type builtProgram struct {
	dir  string
	prog string
	gmon string
	objs []string // object files, in link order
}

// buildAndRun compiles each source to an object with gcc -pg and cflags,
// links them with ldflags into prog and runs it once in dir for gmon.out.
func buildAndRun(t *testing.T, dir string, srcs []srcFile, cflags, ldflags []string) builtProgram {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	b := builtProgram{dir: dir, prog: filepath.Join(dir, "prog"), gmon: filepath.Join(dir, "gmon.out")}
	for _, s := range srcs {
		require.NoError(t, os.WriteFile(filepath.Join(dir, s.name), []byte(s.text), 0o666))
		obj := strings.TrimSuffix(s.name, ".c") + ".o"
		args := append(append([]string{"-pg", "-O0"}, cflags...), "-c", "-o", obj, s.name)
		cc := exec.CommandContext(ctx, "gcc", args...)
		cc.Dir = dir
		out, err := cc.CombinedOutput()
		require.NoError(t, err, "gcc %q: %s", args, out)
		b.objs = append(b.objs, filepath.Join(dir, obj))
	}
	args := append(append([]string{"-pg"}, ldflags...), "-o", b.prog)
	args = append(args, b.objs...)
	cmd := exec.CommandContext(ctx, "gcc", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "gcc %q: %s", args, out)
	run := exec.CommandContext(ctx, b.prog)
	run.Dir = dir
	out, err = run.CombinedOutput()
	require.NoError(t, err, "prog: %s", out)
	return b
}

// nmOutput runs nm with args and returns its standard output.
func nmOutput(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("nm", args...).Output()
	require.NoError(t, err, "nm %q", args)
	return string(out)
}

// writeFile writes text to dir/name and returns the path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(text), 0o666))
	return p
}

// hubProgram is a single-file program with leaves f0..f(n-1), each called
// from main (some several times), where the first callers1 leaves call
// hub1 and the next callers2 call hub2. With link, hub1 calls hub2; with
// mainHub, main calls hub1 too. It has more than 80 called functions, so
// that -r's first group takes (and loses) functions.
func hubProgram(n, callers1, callers2 int, link, mainHub bool) []srcFile {
	var b strings.Builder
	b.WriteString("volatile unsigned long sink;\n")
	b.WriteString("void hub2(void) { for (int i = 0; i < 40; i++) sink += i; }\n")
	if link {
		b.WriteString("void hub1(void) { sink += 3; hub2(); }\n")
	} else {
		b.WriteString("void hub1(void) { for (int i = 0; i < 30; i++) sink ^= i; }\n")
	}
	for i := range n {
		fmt.Fprintf(&b, "void f%d(void)\n{\n\tfor (int i = 0; i < %d; i++)\n\t\tsink += i * %d;\n", i, 10+i%37, i+1)
		switch {
		case i < callers1:
			b.WriteString("\thub1();\n")
		case i < callers1+callers2:
			b.WriteString("\thub2();\n")
		}
		b.WriteString("}\n")
	}
	b.WriteString("int main(void)\n{\n")
	for i := range n {
		fmt.Fprintf(&b, "\tfor (int k = 0; k < %d; k++)\n\t\tf%d();\n", 1+(i*7)%13, i)
	}
	if mainHub {
		b.WriteString("\thub1();\n")
	}
	b.WriteString("\treturn 0;\n}\n")
	return []srcFile{{"hub.c", b.String()}}
}

// multiObject is a program of n object files plus main.c and a data-only
// object. File k defines entry_k (calling entry_(k+1) and work_(k+2)),
// work_k, a never-called unused_k and the static functions helper (in
// every file) and local_k.
func multiObject(n int) []srcFile {
	var srcs []srcFile
	decl := func(b *strings.Builder) {
		b.WriteString("extern volatile unsigned long sink;\n")
		for k := range n {
			fmt.Fprintf(b, "void entry_%d(int);\nvoid work_%d(void);\n", k, k)
		}
	}
	var m strings.Builder
	m.WriteString("volatile unsigned long sink;\n")
	decl(&m)
	m.WriteString("int main(void)\n{\n\tfor (int r = 0; r < 3; r++)\n\t\tentry_0(60);\n")
	fmt.Fprintf(&m, "\tentry_%d(40);\n\twork_1();\n\treturn 0;\n}\n", n/2)
	srcs = append(srcs, srcFile{"main.c", m.String()})
	for k := range n {
		var b strings.Builder
		decl(&b)
		fmt.Fprintf(&b, "static void helper(void)\n{\n\tfor (int i = 0; i < 60; i++)\n\t\tsink += i * %d;\n}\n", k+1)
		fmt.Fprintf(&b, "static void local_%d(int n)\n{\n\tfor (int i = 0; i < n; i++)\n\t\thelper();\n}\n", k)
		fmt.Fprintf(&b, "void entry_%d(int n)\n{\n\tlocal_%d(n %% 7 + 1);\n\tfor (int i = 0; i < n; i++) {\n\t\thelper();\n", k, k)
		if k+1 < n {
			fmt.Fprintf(&b, "\t\tif (i %% 3 == 0)\n\t\t\tentry_%d(n / 2);\n", k+1)
		}
		if k+2 < n {
			fmt.Fprintf(&b, "\t\tif (i %% 5 == 0)\n\t\t\twork_%d();\n", k+2)
		}
		b.WriteString("\t}\n}\n")
		fmt.Fprintf(&b, "void work_%d(void)\n{\n\tsink += %d;\n\thelper();\n}\n", k, k)
		fmt.Fprintf(&b, "void unused_%d(void)\n{\n\tsink -= 1;\n}\n", k)
		srcs = append(srcs, srcFile{fmt.Sprintf("f%02d.c", k), b.String()})
	}
	srcs = append(srcs, srcFile{"data.c", "int table[4] = {1, 2, 3, 4};\n"})
	return srcs
}

// onlyFunctionLines keeps the lines of nm output whose type is t or T.
func onlyFunctionLines(s string) string {
	re := regexp.MustCompile(`(?m)^.* [tT] [^ ]*\n`)
	return strings.Join(re.FindAllString(s, -1), "")
}

// reverseLines reverses the order of the lines of s.
func reverseLines(s string) string {
	lines := strings.SplitAfter(strings.TrimSuffix(s, "\n"), "\n")
	for i, j := 0, len(lines)-1; i < j; i, j = i+1, j-1 {
		lines[i], lines[j] = lines[j], lines[i]
	}
	out := strings.Join(lines, "")
	if !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	return strings.Replace(out, "\n\n", "\n", 1)
}

// TestFunctionOrderingAgainstGprof compares -r on programs with more than
// 80 called functions (where gprof's first group takes functions and loses
// the last one), on synthetic profiles with thousands of arcs, on random
// programs and on the checked-in test programs, with symspecs whose
// FROM/TO arcs take part in the placement.
func TestFunctionOrderingAgainstGprof(t *testing.T) {
	testenv.Need(t, "gcc")
	gprof := testenv.Gprof(t)

	hubs := []struct {
		name                  string
		n, callers1, callers2 int
		link, mainHub         bool
	}{
		{name: "two-hubs", n: 200, callers1: 67, callers2: 29},
		{name: "linked-hubs", n: 200, callers1: 67, callers2: 29, link: true},
		{name: "main-calls-hub", n: 170, callers1: 90, callers2: 40, mainHub: true},
		{name: "one-hub", n: 100, callers1: 100},
		{name: "few-callers", n: 250, callers1: 5, callers2: 5, link: true},
	}
	for _, h := range hubs {
		t.Run(h.name, func(t *testing.T) {
			t.Parallel()
			b := buildAndRun(t, t.TempDir(), hubProgram(h.n, h.callers1, h.callers2, h.link, h.mainHub), []string{"-fno-inline"}, nil)
			var cases []orderingCase
			for _, args := range [][]string{
				{"-r"},
				{"-b", "-r", "-z"},
				{"-r", "-k", "main/"},
				{"-r", "-k", "f1/hub1"},
				{"-r", "-k", "/hub2"},
				{"-r", "-q", "hub1/hub2", "-Q", "f3/"},
				{"-r", "-c"},
				{"-r", "-a"},
				{"-b", "-p", "-r"},
			} {
				cases = append(cases, orderingCase{name: strings.Join(args, " "), args: append(args, b.prog, b.gmon)})
			}
			cases = append(cases, orderingCase{name: "two profiles", args: []string{"-r", b.prog, b.gmon, b.gmon}})
			compareCases(t, gprof, cases)
		})
	}

	for _, s := range []progen.Synthetic{
		progen.SyntheticProfile(7, 400, 2500),
		progen.SyntheticProfile(8, 1500, 9000),
		progen.SyntheticProfile(9, 900, 300),
	} {
		t.Run(fmt.Sprintf("synthetic-%d-%d-%d", s.Seed, s.Funcs, s.Arcs), func(t *testing.T) {
			t.Parallel()
			files, err := s.Build(t.Context(), t.TempDir())
			require.NoError(t, err)
			tab, err := symtab.Load(files.Binary, symtab.Options{})
			require.NoError(t, err)
			pick := func(k int) string { return tab.Syms[k*len(tab.Syms)/7].Name }
			var cases []orderingCase
			for _, args := range [][]string{
				{"-r"},
				{"-r", "-k", pick(2) + "/" + pick(3)},
				{"-r", "-E", pick(4) + "/"},
				{"-r", "-n", pick(1), "-a"},
			} {
				cases = append(cases, orderingCase{name: strings.Join(args, " "), args: append(args, files.Binary, files.Gmon)})
			}
			compareCases(t, gprof, cases)
		})
	}

	for _, seed := range []int64{11, 12, 13, 14} {
		t.Run(fmt.Sprintf("progen-%d", seed), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			dir := t.TempDir()
			prog, err := progen.Generate(seed, progen.DefaultConfig())
			require.NoError(t, err)
			bin, err := prog.Build(ctx, dir, liveBuildOptions(seed))
			require.NoError(t, err)
			gmon, err := progen.RunForProfile(ctx, dir, bin)
			require.NoError(t, err)
			compareCases(t, gprof, []orderingCase{
				{name: "-r", args: []string{"-r", bin, gmon}},
				{name: "-r -k main/", args: []string{"-r", "-k", "main/", bin, gmon}},
			})
		})
	}

	t.Run("testdata", func(t *testing.T) {
		root, err := os.Getwd()
		require.NoError(t, err)
		for _, dir := range testenv.Programs(t) {
			t.Run(filepath.Base(dir), func(t *testing.T) {
				t.Parallel()
				prog := filepath.Join(root, dir, "prog")
				gmon := filepath.Join(root, dir, "gmon.out")
				gmon2 := filepath.Join(root, dir, "gmon2.out")
				var cases []orderingCase
				for _, args := range [][]string{
					{"-r", "-k", "main/"},
					{"-r", "-k", "/main"},
					{"-r", "-q", "main/"},
					{"-r", "-p", "main/", "-P", "/main"},
					{"-r", "-k", "main/", "-k", "main/"},
					{"-r", "-c"},
					{"-r", "-a"},
					{"-r", "-D", "-z"},
					{"-r", "-l"},
				} {
					cases = append(cases, orderingCase{name: strings.Join(args, " "), args: append(args, prog, gmon, gmon2)})
				}
				compareCases(t, gprof, cases)
			})
		}
	})
}

// TestFileOrderingAgainstGprof compares -R on a program of many object
// files with mapping files made by nm -A in several ways, and the
// mapping-file errors.
func TestFileOrderingAgainstGprof(t *testing.T) {
	testenv.Need(t, "gcc")
	gprof := testenv.Gprof(t)
	builds := []struct {
		name            string
		cflags, ldflags []string
	}{
		{name: "pie"},
		{name: "no-pie", cflags: []string{"-fno-pie"}, ldflags: []string{"-no-pie"}},
	}
	for _, bd := range builds {
		t.Run(bd.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			b := buildAndRun(t, dir, multiObject(9), bd.cflags, bd.ldflags)
			objs := b.objs
			rev := make([]string, len(objs))
			for i, o := range objs {
				rev[len(objs)-1-i] = o
			}
			nmA := func(flags ...string) string { return nmOutput(t, append(append([]string{"-A"}, flags...), objs...)...) }
			maps := map[string]string{
				"nm-A":                          nmA(),
				"nm-A-p":                        nmA("-p"),
				"nm-A-n":                        nmA("-n"),
				"nm-A-defined":                  nmA("--defined-only"),
				"nm-A-extern":                   nmA("-g"),
				"nm-A-p-functions":              onlyFunctionLines(nmA("-p", "--defined-only")),
				"nm-A-n-functions-rev":          onlyFunctionLines(nmOutput(t, append([]string{"-A", "-n"}, rev...)...)),
				"nm-A-functions-lines-reversed": reverseLines(onlyFunctionLines(nmA("-p"))),
			}
			var cases []orderingCase
			for name, text := range maps {
				m := writeFile(t, dir, name+".map", text)
				for _, args := range [][]string{
					{"-b", "-R", m},
					{"-b", "-p", "-q", "-R", m},
					{"-b", "-R", m, "-k", "main/"},
					{"-R", m, "-c", "-z", "-b", "-p"},
				} {
					cases = append(cases, orderingCase{
						name: name + " " + strings.Join(args[1:], " "),
						args: append(args, b.prog, b.gmon),
						env:  deterministicMalloc(),
					})
				}
			}
			compareCases(t, gprof, cases)
		})
	}

	t.Run("map-files", func(t *testing.T) {
		dir := t.TempDir()
		b := buildAndRun(t, dir, multiObject(3), nil, nil)
		long := strings.Repeat("z", 1500)
		maps := []struct{ name, text string }{
			{"no-colon", "f00.o:0 T entry_0\nnocolon\n"},
			{"leading-colon", ":0 T entry_0\n"},
			{"no-symbols-line", "No symbols in data.o.\nf00.o:0 T entry_0\nf01.o:0 T entry_1\n"},
			{"no-symbols-colon", "No symbols in data.o: none\nf00.o:0 T entry_0\n"},
			{"blank-lines-and-blanks", "f01.o:0 T entry_1\n\n\n   f00.o:0 T entry_0\n\t\nf02.o:0 T work_2"},
			{"crlf", "f00.o:0 T entry_0\r\nf01.o:0 T entry_1\r\n"},
			{"long-line", "f00.o:0 T " + long + "\nf01.o:0 T entry_1\n"},
			{"long-line-continued", "f00.o:0 T " + long[:1018] + "f01.o:0 T entry_1\nf02.o:0 T entry_2\n"},
			{"only-no-symbols", "No symbols in data.o.\n"},
			{"repeated-file", "f00.o:0 T entry_0\nf01.o:0 T entry_1\nf00.o:0 T work_0\nf00.o:0 T helper\n"},
			{"duplicate-functions", "f02.o:0 t helper\nf00.o:0 t helper\nf01.o:0 t helper\nf01.o:0 T entry_1\n"},
			{"files-without-symbols", "zz.o:0 D table\naa.o:0 D x\nf01.o:0 T entry_1\naa.o:0 B y\n"},
		}
		var cases []orderingCase
		for _, m := range maps {
			p := writeFile(t, dir, m.name+".map", m.text)
			cases = append(cases,
				orderingCase{name: m.name, args: []string{"-b", "-R", p, b.prog, b.gmon}, env: deterministicMalloc()},
				orderingCase{name: m.name + " flat", args: []string{"-b", "-p", "-R", p, b.prog, b.gmon}, env: deterministicMalloc()})
		}
		good := writeFile(t, dir, "good.map", "f00.o:0 T entry_0\n")
		cases = append(cases,
			orderingCase{name: "missing map", args: []string{"-b", "-R", filepath.Join(dir, "nonexistent"), b.prog, b.gmon}},
			orderingCase{name: "missing image first", args: []string{"-b", "-R", filepath.Join(dir, "nonexistent"), filepath.Join(dir, "noprog"), b.gmon}},
			orderingCase{name: "long option", args: []string{"-b", "--file-ordering=" + good, b.prog, b.gmon}, env: deterministicMalloc()},
			orderingCase{name: "with -r", args: []string{"-r", "-R", good, b.prog, b.gmon}},
			orderingCase{name: "missing profile", args: []string{"-b", "-R", good, b.prog, filepath.Join(dir, "nogmon")}, env: deterministicMalloc()},
		)
		compareCases(t, gprof, cases)
	})

	// gprof crashes on these; egprof explains.
	t.Run("gprof-crashes", func(t *testing.T) {
		dir := t.TempDir()
		b := buildAndRun(t, dir, multiObject(2), nil, nil)
		for _, m := range []struct{ name, text, want string }{
			{"empty", "", "mapping file %s is empty"},
			{"no-space", "f00.o:entry_0\n", "unable to parse mapping file %s: line 1 has no space before a function name"},
		} {
			p := writeFile(t, dir, m.name+".map", m.text)
			got := testenv.RunMain(run, "gprof", "-b", "-R", p, b.prog, b.gmon)
			assert.Equal(t, 1, got.Code)
			assert.Equal(t, "gprof: "+fmt.Sprintf(m.want, p)+"\n", got.Stderr)
			assert.Empty(t, got.Stdout)
		}
		got := testenv.RunMain(run, "gprof", "-b", "-R", dir, b.prog, b.gmon)
		assert.Equal(t, 1, got.Code, "gprof never finishes reading a directory")
		assert.Contains(t, got.Stderr, "could not read mapping file "+dir)
	})
}

// TestExternalSymbolsAgainstGprof compares -S with symbol files made by
// nm and by hand, and its errors.
func TestExternalSymbolsAgainstGprof(t *testing.T) {
	testenv.Need(t, "gcc")
	gprof := testenv.Gprof(t)
	dir := t.TempDir()
	b := buildAndRun(t, dir, multiObject(5), []string{"-g"}, nil)

	nmProg := nmOutput(t, b.prog)
	// An undefined name starting with t or T would be read with an unset
	// address in gprof; the program must not have one.
	require.NotRegexp(t, `(?m)^ +[Uw] [tT]`, nmProg)
	defined := nmOutput(t, "--defined-only", "-n", b.prog)
	addrOf := func(name string) string {
		m := regexp.MustCompile(`(?m)^([0-9a-f]+) [tT] ` + regexp.QuoteMeta(name) + `$`).FindStringSubmatch(defined)
		require.NotNil(t, m, "no %s in nm output", name)
		return m[1]
	}
	files := []struct{ name, text string }{
		{"nm", nmProg},
		{"nm-n-defined", defined},
		{"nm-p", nmOutput(t, "-p", b.prog)},
		{"statics-only", regexp.MustCompile(`(?m)^.* T .*\n`).ReplaceAllString(onlyFunctionLines(defined), "")},
		// The sparse files end with _fini, past the histogram: when a bin
		// reaches the last symbol, gprof reads one entry past its symbol
		// table (undefined behaviour that made these cases flaky).
		{"aliases", fmt.Sprintf("%s t burn\n%s T burn_alias\n%s T main\n%s t entry_1\n%s T _fini\n", addrOf("entry_0"), addrOf("entry_0"), addrOf("main"), addrOf("entry_1"), addrOf("_fini"))},
		{"prefixes-and-blanks", fmt.Sprintf("\n  0x%s\tT\tmain\n+%s   t   entry_0 trailing words\n0X%s T work_1\n%s T _fini\n", addrOf("main"), addrOf("entry_0"), addrOf("work_1"), addrOf("_fini"))},
		{"reversed", reverseLines(onlyFunctionLines(defined))},
		{"names-unfiltered", fmt.Sprintf("%s t burn.part.0\n%s t he$avy\n%s T .Llocal\n%s T _fini\n", addrOf("main"), addrOf("entry_0"), addrOf("entry_1"), addrOf("_fini"))},
	}
	var cases []orderingCase
	for _, f := range files {
		p := writeFile(t, dir, f.name+".syms", f.text)
		for _, args := range [][]string{
			{"-b", "-S", p},
			{"-b", "-p", "-z", "-S", p},
			{"-b", "-q", "-z", "-S", p},
			{"-b", "-l", "-p", "-S", p},
			{"-b", "-r", "-S", p},
			{"-b", "-c", "-q", "-S", p},
			{"-b", "-a", "-D", "-p", "-S", p},
			{"-b", "--external-symbol-table=" + p, "-p"},
		} {
			name := f.name + " " + strings.ReplaceAll(strings.Join(args, " "), p, "FILE")
			cases = append(cases, orderingCase{name: name, args: append(args, b.prog, b.gmon)})
		}
	}
	mapFile := writeFile(t, dir, "objs.map", nmOutput(t, append([]string{"-A", "-p", "--defined-only"}, b.objs...)...))
	noText := writeFile(t, dir, "notext.syms", "0000000000004010 B sink\n0000000000001000 D data\n")
	sized := writeFile(t, dir, "sized.syms", nmOutput(t, "-S", "--defined-only", b.prog))
	defSyms := filepath.Join(dir, "nm-n-defined.syms")
	cases = append(cases,
		orderingCase{name: "with -R", args: []string{"-b", "-R", mapFile, "-S", defSyms, b.prog, b.gmon}, env: deterministicMalloc()},
		// Not -S, but this program has debug information: -R with line
		// symbols and source-file suffixes.
		orderingCase{name: "-R with -l", args: []string{"-b", "-l", "-p", "-q", "-R", mapFile, b.prog, b.gmon}, env: deterministicMalloc()},
		orderingCase{name: "-R with -z -q", args: []string{"-b", "-z", "-q", "-R", mapFile, b.prog, b.gmon}, env: deterministicMalloc()},
		orderingCase{name: "-R with --inline-file-names", args: []string{"-b", "-p", "--inline-file-names", "-R", mapFile, b.prog, b.gmon}, env: deterministicMalloc()},
		orderingCase{name: "missing file", args: []string{"-b", "-S", filepath.Join(dir, "nonexistent"), b.prog, b.gmon}},
		orderingCase{name: "missing image first", args: []string{"-b", "-S", filepath.Join(dir, "nonexistent"), filepath.Join(dir, "noprog"), b.gmon}},
		orderingCase{name: "no t or T lines", args: []string{"-b", "-S", noText, b.prog, b.gmon}},
		orderingCase{name: "nm -S output has no types where gprof looks", args: []string{"-b", "-S", sized, b.prog, b.gmon}},
		orderingCase{name: "a directory", args: []string{"-b", "-S", dir, b.prog, b.gmon}},
		orderingCase{name: "map error first", args: []string{"-b", "-R", filepath.Join(dir, "nonexistent"), "-S", defSyms, b.prog, b.gmon}},
	)
	compareCases(t, gprof, cases)
}
