package cli

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/testenv"
	"github.com/egprof/egprof/symtab"
)

// The tests in this file compare egprof's -A and -C (and what goes with
// them: -l, -x, -y, -m, -t, -z, -I, GPROF_PATH, basic-block records) with
// GNU gprof on programs built here with gcc -pg -g. They skip when gcc or
// gprof is missing.

// annoMain is the main source of the test program. It has tabs, two
// functions on one line, a never-called function, a static function and a
// loop whose lines the line table splits.
const annoMain = `#include <stdio.h>
static int sq(int x) { return x * x; }
int one(int a) { return a + 1; } int two(int a) { return a + 2; }
int unused_fn(int a) { return a + 1; }
extern int helper(int);
int work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += sq(i) + one(i) + two(i);
	return s;
}

int main(void)
{
	long t = 0;
	for (int k = 0; k < 300; k++)
		t += work(100) + helper(k);
	printf("%ld\n", t);
	return 0;
}
`

// annoUtil has no final newline.
const annoUtil = "#include <stdlib.h>\nstatic int inner(int x)\n{\n\treturn x / 3;\n}\nint helper(int k)\n{\n\treturn inner(k) + 1;\n}"

// annoProgram is a built test program.
type annoProgram struct {
	dir  string // where it was built and run
	prog string // absolute path of the executable
	gmon string // absolute path of its gmon.out
}

// buildAnnoProgram writes the sources into a new directory, compiles them
// with gcc -pg -g -O0 and runs the program once. With relative, the debug
// information names the sources "./main.c" and "./util.c" (as the
// testdata programs do) instead of by absolute path.
func buildAnnoProgram(t *testing.T, relative bool) annoProgram {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.c"), []byte(annoMain), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "util.c"), []byte(annoUtil), 0o644))
	args := []string{"-pg", "-g", "-O0"}
	if relative {
		args = append(args, "-fdebug-prefix-map="+dir+"=.")
	}
	args = append(args, "main.c", "util.c", "-o", "prog")
	cc := exec.Command("gcc", args...)
	cc.Dir = dir
	out, err := cc.CombinedOutput()
	require.NoError(t, err, "gcc: %s", out)
	run := exec.Command("./prog")
	run.Dir = dir
	out, err = run.CombinedOutput()
	require.NoError(t, err, "prog: %s", out)
	return annoProgram{dir: dir, prog: filepath.Join(dir, "prog"), gmon: filepath.Join(dir, "gmon.out")}
}

// compareInCwd runs GNU gprof and egprof with args in the current
// directory and requires the same stdout, stderr and exit status.
func compareInCwd(t *testing.T, gprof string, args ...string) {
	t.Helper()
	argv := append([]string{"gprof"}, args...)
	want := testenv.Run(t.Context(), t, gprof, ".", argv)
	got := testenv.RunMain(run, argv...)
	assert.Equal(t, want.Code, got.Code, "exit status of %q", args)
	assert.Equal(t, want.Stdout, got.Stdout, "stdout of %q", args)
	assert.Equal(t, want.Stderr, got.Stderr, "stderr of %q", args)
}

// TestAnnotateAgainstGprof covers -A and -C with their options on a program
// whose sources are where the debug information says.
func TestAnnotateAgainstGprof(t *testing.T) {
	testenv.Need(t, "gcc")
	gprof := testenv.Gprof(t)
	p := buildAnnoProgram(t, false)
	t.Chdir(p.dir)
	for _, opts := range [][]string{
		{"-A"}, {"-A", "-l"}, {"-A", "-x"}, {"-A", "-l", "-x"}, {"-A", "-z"}, {"-A", "-l", "-x", "-z"},
		{"-A", "-m", "0"}, {"-A", "-m", "5000"}, {"-A", "-m", "-1"}, {"-A", "-l", "-x", "-m", "250"},
		{"-A", "-t", "0"}, {"-A", "-t", "1"}, {"-A", "-t", "-3"}, {"-A", "-L"}, {"-A", "-a"},
		{"-Awork"}, {"-Jwork"}, {"-Autil.c"}, {"-Amain.c:work", "-l"}, {"-A/x"}, {"-Anosuch"},
		{"-C"}, {"-C", "-z"}, {"-C", "-l"}, {"-C", "-l", "-z"}, {"-Cwork"}, {"-Zwork"}, {"-Cwork", "-l"},
		{"-C", "-p"}, {"-i", "-p", "-q", "-C", "-A"}, {"-A", "-J"}, {"-Z"}, {"-C", "-Z"},
		{"--annotated-source=sq", "--exec-counts=sq"}, {"-A", "-C", "-l", "-x", "-z", "-t", "2"},
	} {
		compareInCwd(t, gprof, append(append([]string{"-b"}, opts...), p.prog, p.gmon)...)
	}
	// Without -b nothing changes in these sections.
	compareInCwd(t, gprof, "-A", "-C", p.prog, p.gmon, p.gmon)
}

// lineSyms are the addresses the basic-block tests aim their blocks at.
type lineSyms struct {
	funcAddr uint64          // start of work
	lines    []symtab.Symbol // work's line symbols, by address
	main     []symtab.Symbol // main's line symbols
	one, two uint64          // the two functions sharing line 3
}

func findLineSyms(t *testing.T, prog string) lineSyms {
	t.Helper()
	tab, err := symtab.Load(prog, symtab.Options{})
	require.NoError(t, err)
	lt, err := tab.WithLineSymbols()
	require.NoError(t, err)
	var ls lineSyms
	for _, s := range lt.Syms {
		switch {
		case s.Name == "work" && s.IsFunc:
			ls.funcAddr = s.Addr
		case s.Name == "work" && s.IsLine:
			ls.lines = append(ls.lines, s)
		case s.Name == "main" && s.IsLine:
			ls.main = append(ls.main, s)
		case s.Name == "one":
			ls.one = s.Addr
		case s.Name == "two":
			ls.two = s.Addr
		}
	}
	require.NotZero(t, ls.funcAddr)
	require.GreaterOrEqual(t, len(ls.lines), 4)
	require.GreaterOrEqual(t, len(ls.main), 2)
	return ls
}

// biggestLineSym returns the line symbol with the widest range.
func biggestLineSym(syms []symtab.Symbol) symtab.Symbol {
	big := syms[0]
	for _, s := range syms {
		if s.End-s.Addr > big.End-big.Addr {
			big = s
		}
	}
	return big
}

// bbRecord encodes a version-1 basic-block record for a little-endian
// 64-bit target: tag 2, the block count, then (address, count) pairs.
func bbRecord(blocks ...[2]uint64) []byte {
	le := binary.LittleEndian
	b := []byte{2}
	b = le.AppendUint32(b, uint32(len(blocks)))
	for _, bl := range blocks {
		b = le.AppendUint64(b, bl[0])
		b = le.AppendUint64(b, bl[1])
	}
	return b
}

// TestBasicBlocksAgainstGprof appends hand-made basic-block records to a
// real profile and compares -l -C and -l -A (and the warning without -l).
func TestBasicBlocksAgainstGprof(t *testing.T) {
	testenv.Need(t, "gcc")
	gprof := testenv.Gprof(t)
	p := buildAnnoProgram(t, false)
	t.Chdir(p.dir)
	ls := findLineSyms(t, p.prog)
	base, err := os.ReadFile(p.gmon)
	require.NoError(t, err)

	// The largest line symbol of work gets more than 10 blocks.
	big := biggestLineSym(ls.lines)
	require.GreaterOrEqual(t, big.End-big.Addr, uint64(12))
	var many [][2]uint64
	for k := uint64(0); k < 12; k++ {
		many = append(many, [2]uint64{big.Addr + k, 2})
	}
	l1, l2, l3 := ls.lines[1], ls.lines[2], ls.lines[3]
	data := append([]byte(nil), base...)
	data = append(data, bbRecord(
		[2]uint64{ls.funcAddr, 9},     // a function entry: count and block
		[2]uint64{l1.Addr, 5},         // a line's first byte
		[2]uint64{l2.Addr + 1, 100},   // starts inside the line (-x repeats)
		[2]uint64{l2.Addr + 2, 100},   // same count: -x compresses it
		[2]uint64{l2.Addr + 3, 3},     // a third block on that line
		[2]uint64{ls.one, 44},         // first of two functions on a line
		[2]uint64{ls.two, 55},         // second one: lost, as in gprof
		[2]uint64{0x10, 5},            // outside every symbol
		[2]uint64{ls.main[0].Addr, 0}, // zero counts (shown with -z)
		[2]uint64{ls.main[1].Addr, 0},
	)...)
	data = append(data, bbRecord(many...)...)
	data = append(data, bbRecord(
		[2]uint64{l1.Addr, 1}, // summed with the first record's
		[2]uint64{l3.Addr, 42},
		[2]uint64{ls.main[1].Addr + 1, 42},
	)...)
	data = append(data, bbRecord()...) // an empty record
	bb := filepath.Join(p.dir, "bb.out")
	require.NoError(t, os.WriteFile(bb, data, 0o644))

	for _, opts := range [][]string{
		{"-l", "-C"}, {"-l", "-C", "-z"}, {"-l", "-Cwork"}, {"-l", "-Zwork", "-z"},
		{"-l", "-A"}, {"-l", "-A", "-x"}, {"-l", "-A", "-z"}, {"-l", "-A", "-x", "-z", "-m", "3"},
		{"-l", "-A", "-x", "-m", "0", "-t", "2"}, {"-l", "-i", "-C", "-A"},
		{"-A"}, {"-C"}, {"-p"}, {"-i"},
	} {
		compareInCwd(t, gprof, append(append([]string{"-b"}, opts...), p.prog, bb, bb)...)
	}

	// A version-0 file: its basic-block record has the old layout (host
	// order, with strings and a line number per block).
	v0 := append([]byte(nil), base...)
	binary.LittleEndian.PutUint32(v0[4:], 0)
	le := binary.LittleEndian
	rec := []byte{2}
	rec = le.AppendUint32(rec, 2)
	rec = append(rec, "work.c\x00"...)
	for _, bl := range [][2]uint64{{l1.Addr, 77}, {l3.Addr, 78}} {
		rec = le.AppendUint64(rec, bl[1])
		rec = le.AppendUint64(rec, bl[0])
		rec = append(rec, "work\x00main.c\x00"...)
		rec = le.AppendUint32(rec, 9)
	}
	v0 = append(v0, rec...)
	v0File := filepath.Join(p.dir, "v0.out")
	require.NoError(t, os.WriteFile(v0File, v0, 0o644))
	compareInCwd(t, gprof, "-b", "-l", "-C", "-A", "-x", p.prog, v0File)
	compareInCwd(t, gprof, "-b", "-C", p.prog, v0File)
}

// TestSumKeepsBasicBlocks checks that gmon.sum carries the blocks as gprof
// writes them (per symbol, at most 10 each), and reads back the same.
func TestSumKeepsBasicBlocks(t *testing.T) {
	testenv.Need(t, "gcc")
	gprof := testenv.Gprof(t)
	p := buildAnnoProgram(t, false)
	ls := findLineSyms(t, p.prog)
	base, err := os.ReadFile(p.gmon)
	require.NoError(t, err)
	// Blocks in reverse address order, then 12 in one line symbol.
	var many [][2]uint64
	for k := 3; k >= 0; k-- {
		many = append(many, [2]uint64{ls.lines[k].Addr, uint64(k + 1)})
	}
	big := biggestLineSym(ls.lines)
	require.GreaterOrEqual(t, big.End-big.Addr, uint64(12))
	for k := uint64(1); k <= 12; k++ {
		many = append(many, [2]uint64{big.Addr + k, 10 * k})
	}
	data := append(append([]byte(nil), base...), bbRecord(many...)...)
	bb := filepath.Join(p.dir, "bb.out")
	require.NoError(t, os.WriteFile(bb, data, 0o644))

	gnuDir, egDir := t.TempDir(), t.TempDir()
	want := testenv.Run(t.Context(), t, gprof, gnuDir, []string{"gprof", "-s", p.prog, bb, bb})
	require.Equal(t, 0, want.Code, want.Stderr)
	t.Chdir(egDir)
	got := testenv.RunMain(run, "gprof", "-s", p.prog, bb, bb)
	require.Equal(t, 0, got.Code, got.Stderr)
	gnuSum, err := os.ReadFile(filepath.Join(gnuDir, "gmon.sum"))
	require.NoError(t, err)
	egSum, err := os.ReadFile(filepath.Join(egDir, "gmon.sum"))
	require.NoError(t, err)
	// The 12 spare header bytes hold gprof's stack residue.
	require.Greater(t, len(gnuSum), 20)
	assert.Equal(t, gnuSum[:8], egSum[:8], "gmon.sum header")
	assert.Equal(t, gnuSum[20:], egSum[20:], "gmon.sum records")
	compareInCwd(t, gprof, "-b", "-l", "-C", "-z", p.prog, "gmon.sum")
}

// TestAnnotateSourceSearch moves the sources away from where the debug
// information puts them and checks the search through -I and GPROF_PATH,
// and the messages for sources that cannot be opened.
func TestAnnotateSourceSearch(t *testing.T) {
	testenv.Need(t, "gcc")
	gprof := testenv.Gprof(t)
	t.Run("relative", func(t *testing.T) {
		p := buildAnnoProgram(t, true)
		work := t.TempDir()
		t.Chdir(work)
		for _, d := range []string{"d0", "d1", "d2", "sub/d3"} {
			require.NoError(t, os.MkdirAll(d, 0o755))
		}
		src, err := os.ReadFile(filepath.Join(p.dir, "main.c"))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile("d1/main.c", src, 0o644))
		require.NoError(t, os.WriteFile("d2/main.c", append([]byte("/* d2 */\n"), src...), 0o644))
		require.NoError(t, os.WriteFile("d0/main.c", append([]byte("/* d0 */\n"), src...), 0o644))
		require.NoError(t, os.WriteFile("d0/util.c", []byte(annoUtil), 0o644))
		// "./main.c" relative to a search directory.
		require.NoError(t, os.WriteFile("sub/d3/main.c", append([]byte("/* d3 */\n"), src...), 0o644))

		run := func(args ...string) {
			t.Helper()
			compareInCwd(t, gprof, append(append([]string{"-b"}, args...), p.prog, p.gmon)...)
		}
		run("-A")                         // neither file found
		run("-A", "-I", "d1")             // main.c from d1, util.c missing
		run("-A", "-I", "d2", "-I", "d1") // first directory wins
		run("-A", "-Id1:d2")              // a colon-separated list
		run("-A", "-I", "nosuch:sub/d3:d1")
		run("-A", "-I", "::") // empty entries mean "/"
		t.Setenv("GPROF_PATH", "d0")
		run("-A")                         // GPROF_PATH alone
		run("-A", "-I", "d2")             // -I before GPROF_PATH
		run("-C", "-A", "-Z", "-I", "d1") // -C deselected again
		t.Setenv("GPROF_PATH", "")
		run("-A")
		// A directory where the file should be opens but reads as empty.
		require.NoError(t, os.MkdirAll("d4/main.c", 0o755))
		run("-A", "-I", "d4")
		// A file where a directory should be.
		require.NoError(t, os.WriteFile("f5", nil, 0o644))
		run("-A", "-I", "f5")
	})
	t.Run("absolute", func(t *testing.T) {
		p := buildAnnoProgram(t, false)
		moved := t.TempDir()
		require.NoError(t, os.Rename(filepath.Join(p.dir, "main.c"), filepath.Join(moved, "main.c")))
		t.Chdir(t.TempDir())
		compareInCwd(t, gprof, "-b", "-A", p.prog, p.gmon)
		compareInCwd(t, gprof, "-b", "-A", "-I", moved, p.prog, p.gmon)
		compareInCwd(t, gprof, "-b", "-A", "-L", "-I", "/nonexistent:"+moved, p.prog, p.gmon)
	})
}

// TestAnnotateSeparateFiles compares the files -y writes in the current
// directory, and the messages when one cannot be written.
func TestAnnotateSeparateFiles(t *testing.T) {
	testenv.Need(t, "gcc")
	gprof := testenv.Gprof(t)
	p := buildAnnoProgram(t, true)
	cases := []struct {
		name  string
		setup func(t *testing.T) // run in each of the two directories
		args  []string
	}{
		{"plain", nil, []string{"-b", "-A", "-y", "-I", "{src}"}},
		{"missing-sources", nil, []string{"-b", "-A", "-y", "-C"}},
		{"one-missing", nil, []string{"-b", "-A", "-y", "-I", "{src}/nosuch:{src}/main.c"}},
		{"with-sections", nil, []string{"-b", "-p", "-C", "-A", "-y", "-l", "-x", "-I", "{src}"}},
		{"no-brief", nil, []string{"-i", "-A", "-y", "-z", "-I", "{src}"}},
		{"truncates", func(t *testing.T) {
			require.NoError(t, os.WriteFile("main.c-ann", bytes.Repeat([]byte("old text\n"), 500), 0o600))
		}, []string{"-b", "-A", "-y", "-I", "{src}"}},
		{"directory-in-the-way", func(t *testing.T) {
			require.NoError(t, os.Mkdir("util.c-ann", 0o755))
		}, []string{"-b", "-A", "-y", "-I", "{src}"}},
		// gprof's fopen writes through a link and keeps the file's mode.
		{"through-a-link", func(t *testing.T) {
			require.NoError(t, os.WriteFile("elsewhere", []byte("old text\n"), 0o600))
			require.NoError(t, os.Chmod("elsewhere", 0o600))
			require.NoError(t, os.Symlink("elsewhere", "main.c-ann"))
		}, []string{"-b", "-A", "-y", "-I", "{src}"}},
		{"dangling-link", func(t *testing.T) {
			require.NoError(t, os.Symlink("made", "main.c-ann"))
		}, []string{"-b", "-A", "-y", "-I", "{src}"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"gprof"}
			for _, a := range c.args {
				args = append(args, strings.ReplaceAll(a, "{src}", p.dir))
			}
			args = append(args, p.prog, p.gmon)
			gnuDir, egDir := t.TempDir(), t.TempDir()
			t.Chdir(gnuDir)
			if c.setup != nil {
				c.setup(t)
			}
			want := testenv.Run(t.Context(), t, gprof, gnuDir, args)
			t.Chdir(egDir)
			if c.setup != nil {
				c.setup(t)
			}
			got := testenv.RunMain(run, args...)
			assert.Equal(t, want.Code, got.Code)
			assert.Equal(t, want.Stdout, got.Stdout)
			assert.Equal(t, want.Stderr, got.Stderr)
			assert.Equal(t, readDir(t, gnuDir), readDir(t, egDir), "files written")
		})
	}
}

// readDir returns the regular files of dir with their contents, and the
// names of its directories; a symbolic link shows as its target and the
// file it names.
func readDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	out := map[string]string{}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	for _, n := range names {
		link := ""
		if dest, err := os.Readlink(filepath.Join(dir, n)); err == nil {
			link = "link to " + dest + "\x00"
		}
		fi, err := os.Stat(filepath.Join(dir, n))
		require.NoError(t, err)
		if fi.IsDir() {
			out[n] = "<dir>"
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, n))
		require.NoError(t, err)
		out[n] = link + string(b) + "\x00mode " + fi.Mode().Perm().String()
	}
	return out
}

// TestAnnotateFileOrder builds objects whose .symtab order differs from
// their address order (statics come first, a header is inlined at -O2) and
// checks the order of the annotated files.
func TestAnnotateFileOrder(t *testing.T) {
	testenv.Need(t, "gcc")
	gprof := testenv.Gprof(t)
	dir := t.TempDir()
	files := map[string]string{
		"h.h": "static inline __attribute__((always_inline)) int addsq(int x)\n{\n\tint y = x * x;\n\treturn y + x;\n}\n",
		"z.c": "int zed(int a)\n{\n\treturn a ^ 5;\n}\n",
		"b.c": "#include \"h.h\"\nstatic int bhelp(int v) { return addsq(v) - 1; }\nint bee(int v)\n{\n\treturn bhelp(v) + addsq(v + 1);\n}\n",
		"main.c": "#include <stdio.h>\n#include \"h.h\"\nint bee(int);\nint zed(int);\nint main(int argc, char **argv)\n{\n" +
			"\tlong s = 0;\n\tfor (int i = 0; i < 20000 + argc; i++)\n\t\ts += bee(i) + addsq(i) + zed(i);\n\tprintf(\"%ld\\n\", s);\n\treturn 0;\n}\n",
	}
	for n, s := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, n), []byte(s), 0o644))
	}
	t.Chdir(dir)
	for _, opt := range []string{"-O0", "-O2"} {
		cc := exec.Command("gcc", "-pg", "-g", opt, "main.c", "z.c", "b.c", "-o", "prog")
		out, err := cc.CombinedOutput()
		require.NoError(t, err, "gcc: %s", out)
		out, err = exec.Command("./prog").CombinedOutput()
		require.NoError(t, err, "prog: %s", out)
		for _, opts := range [][]string{{"-A"}, {"-A", "-z"}, {"-A", "-l", "-z"}, {"-A", "-a", "-z"}, {"-C", "-l", "-z"}} {
			compareInCwd(t, gprof, append(append([]string{"-b"}, opts...), "prog", "gmon.out")...)
		}
		compareInCwd(t, gprof, "-b", "-A", "-l", "-x", "prog", "gmon.out", "gmon.out")
	}
}
