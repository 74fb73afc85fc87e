package cli

import (
	"bytes"
	"context"
	"debug/elf"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/progen"
	"github.com/egprof/egprof/internal/testenv"
)

// liveCXXSource is the C++ program TestLiveDemangleCXX builds: templates,
// variadic packs (empty ones too), generic lambdas and lambdas in template
// arguments, inheriting constructors, and the standard library's
// std::map, std::unique_ptr, std::shared_ptr, std::function and std::tuple.
var liveCXXSource = filepath.Join("testdata", "demangle", "live", "prog.cc")

// TestLiveDemangleCXX builds a C++ program with g++ -pg, runs it, and
// checks that egprof prints the same bytes as GNU gprof on its gmon.out,
// C++ names included, for the live test's option sets and the demangling
// options, at -O0 and at -O2 -g.
func TestLiveDemangleCXX(t *testing.T) {
	gxx := testenv.Tool(t, "g++")
	gprof := testenv.Gprof(t)
	src, err := os.ReadFile(liveCXXSource)
	require.NoError(t, err)

	sets := liveOptionSets()
	for _, demangle := range []string{"--demangle", "--demangle=gnu-v3", "--no-demangle"} {
		sets = append(sets, liveOptionSet{args: []string{"-b", "-q", demangle}})
	}
	for _, build := range []progen.BuildOptions{{Opt: "-O0"}, {Opt: "-O2", Debug: true}} {
		t.Run(strings.Join(strings.Fields(build.String()), ""), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "prog.cc"), src, 0o666))
			argv := append([]string{"g++", "-std=c++17"}, build.Args(nil, "prog.cc", "prog")...)
			testenv.Run(ctx, t, gxx, dir, argv).OK(t)
			gmon, err := progen.RunForProfile(ctx, dir, filepath.Join(dir, "prog"))
			require.NoError(t, err)
			compareOptionSets(ctx, t, gprof, dir, filepath.Join(dir, "prog"), gmon, build.Debug, sets,
				fmt.Sprintf("on %s built with g++ %s", liveCXXSource, build))
		})
	}
}

// TestLiveRandomCXX generates random C++ programs (progen.GenerateCXX:
// class and function templates with all kinds of arguments, variadic
// packs, generic lambdas and lambdas in template and default arguments,
// inheriting constructors, operators, local classes, ABI tags, std::map,
// std::sort, smart pointers), builds them with g++ -pg (-O0 and -O2,
// with and without -g, by seed), runs them, and checks that egprof prints
// the same bytes as GNU gprof for the live test's option sets and every
// demangling style.
//
// EGPROF_LIVE_CXX_SEED sets the first seed (program i uses seed+i) and
// EGPROF_LIVE_CXX_N the number of programs.
func TestLiveRandomCXX(t *testing.T) {
	gxx := testenv.Tool(t, "g++")
	gprof := testenv.Gprof(t)
	base := envInt64(t, "EGPROF_LIVE_CXX_SEED", 1)
	n := envInt64(t, "EGPROF_LIVE_CXX_N", 4)
	sets := liveOptionSets()
	for _, style := range []string{"auto", "gnu-v3", "java", "gnat", "dlang", "rust", "none"} {
		sets = append(sets, liveOptionSet{args: []string{"-b", "-z", "--demangle=" + style}})
	}
	sets = append(sets, liveOptionSet{args: []string{"-b", "--no-demangle"}})
	for i := range n {
		seed := base + i
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			opts := liveBuildOptions(seed)
			opts.GCC = gxx
			repro := fmt.Sprintf("seed %d, built with g++ %s; reproduce with: EGPROF_LIVE_CXX_SEED=%d EGPROF_LIVE_CXX_N=1 go test -run 'TestLiveRandomCXX' .", seed, opts, seed)
			dir := t.TempDir()
			bin, err := progen.GenerateCXX(seed).Build(ctx, dir, opts)
			require.NoError(t, err, "generator bug (program does not compile); %s", repro)
			gmon, err := progen.RunForProfile(ctx, dir, bin)
			require.NoError(t, err, "generator bug (no usable gmon.out); %s", repro)
			compareOptionSets(ctx, t, gprof, dir, bin, gmon, opts.Debug, sets, "("+repro+")")
		})
	}
}

// compareOptionSets runs GNU gprof and egprof with each option set on bin
// and gmon (in dir) and compares their results; sets that need debug
// information are left out unless debug. what ends each failure's
// description.
func compareOptionSets(ctx context.Context, t *testing.T, gprof, dir, bin, gmon string, debug bool, sets []liveOptionSet, what string) {
	t.Helper()
	for _, set := range sets {
		if set.needDebug && !debug {
			continue
		}
		argv := append(append([]string{"gprof"}, set.args...), bin, gmon)
		want := testenv.Run(ctx, t, gprof, dir, argv)
		got := testenv.RunMain(run, argv...)
		if slices.Contains(set.args, "-c") && want.Stdout != got.Stdout {
			outside := functionsOutsideText(t, bin)
			if stdout := withoutArcsOutsideText(want.Stdout, outside); stdout == got.Stdout {
				t.Logf("gprof %s %s: GNU gprof's -c scan read memory outside its copy of .text and found calls there (see README, known differences); the rest is identical", strings.Join(set.args, " "), what)
				want.Stdout = stdout
			}
		}
		compareResults(t, fmt.Sprintf("gprof %s %s", strings.Join(set.args, " "), what), want, got)
	}
}

// functionsOutsideText returns the names of bin's function symbols that
// lie outside its .text section (_init in .init, _fini in .fini).
func functionsOutsideText(t *testing.T, bin string) map[string]bool {
	t.Helper()
	f, err := elf.Open(bin)
	require.NoError(t, err)
	defer f.Close()
	text := f.Section(".text")
	require.NotNil(t, text, "%s has no .text", bin)
	syms, err := f.Symbols()
	require.NoError(t, err)
	outside := map[string]bool{}
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Value != 0 && (s.Value < text.Addr || s.Value >= text.Addr+text.Size) {
			outside[s.Name] = true
		}
	}
	return outside
}

// withoutArcsOutsideText removes from gprof -c's call graph the count-0
// arcs that touch a function outside .text: parent lines naming such a
// function and the count-0 child lines of its own entry. GNU gprof scans a
// function's bytes at core_text_space + pc - .text's address, so for a
// function below .text it reads the heap before its copy of .text, and now
// and then a stray 0xe8 byte there "calls" a function (undefined behaviour
// that varies from run to run); egprof scans .text only.
func withoutArcsOutsideText(out string, outside map[string]bool) string {
	staticArc := regexp.MustCompile(`^\s+0\.00\s+0\.00\s+0/\d+\s+(.*) \[\d+\]$`)
	primary := regexp.MustCompile(`^\[\d+\]`)
	var b strings.Builder
	inOutside := false
	for _, line := range strings.SplitAfter(out, "\n") {
		body := strings.TrimSuffix(line, "\n")
		switch {
		case strings.HasPrefix(body, "-----"):
			inOutside = false
		case primary.MatchString(body):
			inOutside = false
			for name := range outside {
				if strings.HasSuffix(strings.TrimSpace(body[:strings.LastIndex(body, " [")]), " "+name) {
					inOutside = true
				}
			}
		default:
			if m := staticArc.FindStringSubmatch(body); m != nil && (outside[m[1]] || inOutside) {
				continue
			}
		}
		b.WriteString(line)
	}
	return b.String()
}

// BenchmarkLargeCXX times `-b prog gmon.out` on a large generated C++
// program (progen.GenerateCXXSized with 300 blocks: about 7,900 C++
// functions, 6,000 of them in the report, most names the standard
// library's templates), where demangling is a large part of the work. The
// program is built with g++ -pg -O0 -g first, which takes a minute or
// two.
func BenchmarkLargeCXX(b *testing.B) {
	gxx := testenv.Tool(b, "g++")
	dir := b.TempDir()
	bin, err := progen.GenerateCXXSized(1, 300).Build(b.Context(), dir, progen.BuildOptions{GCC: gxx, Opt: "-O0", Debug: true})
	require.NoError(b, err)
	gmon, err := progen.RunForProfile(b.Context(), dir, bin)
	require.NoError(b, err)
	argv := []string{"gprof", "-b", bin, gmon}
	var stderr bytes.Buffer
	require.Zero(b, run(argv, strings.NewReader(""), io.Discard, &stderr), "%q failed: %s", argv, stderr.String())
	b.ReportAllocs()
	for b.Loop() {
		run(argv, strings.NewReader(""), io.Discard, io.Discard)
	}
}

// TestWithoutArcsOutsideText holds the live tests' allowance for gprof's
// -c scan outside .text to the lines it may remove, on the case seen in
// TestLiveRandomCXX (seed 1002).
func TestWithoutArcsOutsideText(t *testing.T) {
	entry := func(parents ...string) string {
		return strings.Join(parents, "") +
			"[339]    0.0    0.00    0.00       1         f(int) [339]\n" +
			"                0.00    0.00       1/4           g() [127]\n" +
			"-----------------------------------------------\n"
	}
	caller := "                0.00    0.00       1/1           h() [329]\n"
	stray := "                0.00    0.00       0/1           _init [420]\n"
	initEntry := "[420]    0.0    0.00    0.00                 _init [420]\n" +
		"                0.00    0.00       0/1           f(int) [339]\n" +
		"-----------------------------------------------\n"
	initEntryClean := "[420]    0.0    0.00    0.00                 _init [420]\n" +
		"-----------------------------------------------\n"
	outside := map[string]bool{"_init": true, "_fini": true}
	for _, tc := range []struct{ name, in, want string }{
		{"stray parent line", entry(stray, caller), entry(caller)},
		{"stray child line in _init's entry", initEntry + entry(stray, caller), initEntryClean + entry(caller)},
		{"a counted arc from _init stays", entry("                0.00    0.00       1/1           _init [420]\n"), entry("                0.00    0.00       1/1           _init [420]\n")},
		{"count-0 arcs between other functions stay", entry("                0.00    0.00       0/1           k() [12]\n"), entry("                0.00    0.00       0/1           k() [12]\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, withoutArcsOutsideText(tc.in, outside))
		})
	}
}
