package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runArgs runs egprof in-process with args and returns stdout, stderr and
// the exit status.
func runArgs(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e strings.Builder
	code = run(append([]string{"egprof"}, args...), strings.NewReader(""), &o, &e)
	return o.String(), e.String(), code
}

const (
	demoProg  = "testdata/demo/prog"
	demoGmon  = "testdata/demo/gmon.out"
	demoGmon2 = "testdata/demo/gmon2.out"
)

// TestEgprofOptionMistakes gives egprof's own options outside their modes
// or with bad values: each is one line on stderr naming the option, exit
// status 1, and nothing on stdout.
func TestEgprofOptionMistakes(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"impact without diff", []string{"--impact", demoProg, demoGmon}, "--impact belongs to a differential profile (--diff)"},
		{"noise without diff", []string{"--noise=off", demoProg, demoGmon}, "--noise belongs to a differential profile"},
		{"diff-exe without diff", []string{"--diff-exe=" + demoProg, demoProg, demoGmon}, "--diff-exe belongs to a differential profile"},
		{"graph-top without graph file", []string{"--graph-top=5", demoProg, demoGmon}, "--graph-top chooses what graph files keep"},
		{"format in gprof's report", []string{"--format=tsv", demoProg, demoGmon}, "--format belongs to a differential profile (--diff), the rank analysis (--ranks) or an experiment"},
		{"format in diff mode", []string{"--format=json", "--diff=" + demoGmon2, demoProg, demoGmon}, "--format=json applies to the impact table of a differential profile: give --impact as well"},
		{"experiment option with ranks", []string{"--ranks", "--over=rank", demoProg, demoGmon}, "--over belongs to an experiment"},
		{"rank option in an experiment", []string{"--runs", "--rank-top=3", demoProg, demoGmon, demoGmon2}, "--rank-top asks for the rank analysis (--ranks), which does not combine with an experiment"},
		{"diff with ranks", []string{"--ranks", "--diff=" + demoGmon2, demoProg, demoGmon}, "--diff asks for a differential profile (--diff), which does not combine with the rank analysis"},
		{"experiment and runs", []string{"--runs", "--experiment=x.tsv", demoProg}, "--experiment and --runs are two ways"},
		{"bad gate", []string{"--fail-if-slower=x", "--diff=" + demoGmon2, demoProg, demoGmon}, `--fail-if-slower takes PCT or PCT,FUNC_PCT`},
		{"gate without diff", []string{"--fail-if-slower=5", demoProg, demoGmon}, "--fail-if-slower belongs to a differential profile"},
		{"bad noise", []string{"--noise=maybe", "--diff=" + demoGmon2, demoProg, demoGmon}, `--noise takes on or off, not "maybe"`},
		{"bad graph-top", []string{"--graph-top=-1", "--gml=x.gml", demoProg, demoGmon}, `--graph-top takes a number of functions (0 for all), not "-1"`},
		{"node-thres without graph file", []string{"--node-thres=1", demoProg, demoGmon}, "--node-thres chooses what graph files keep"},
		{"edge-thres without graph file", []string{"--edge-thres=1", "--diff=" + demoGmon2, demoProg, demoGmon}, "--edge-thres chooses what graph files keep"},
		{"bad node-thres", []string{"--node-thres=half", "--gml=x.gml", demoProg, demoGmon}, `--node-thres takes a percentage from 0 to 100, not "half"`},
		{"node-thres above 100", []string{"--node-thres=101", "--gml=x.gml", demoProg, demoGmon}, `--node-thres takes a percentage from 0 to 100, not "101"`},
		{"negative edge-thres", []string{"--edge-thres=-0.1", "--gml=x.gml", demoProg, demoGmon}, `--edge-thres takes a percentage from 0 to 100, not "-0.1"`},
		{"bad format", []string{"--format=xml", "--ranks", demoProg, demoGmon}, `--format takes text, tsv or json, not "xml"`},
		{"bad rank-top", []string{"--rank-top=0", demoProg, demoGmon}, `--rank-top takes a positive number of regions, not "0"`},
		{"missing argument", []string{demoProg, demoGmon, "--diff"}, "--diff needs an argument: --diff=GMON"},
		{"argument not taken", []string{"--impact=yes", demoProg, demoGmon}, "--impact takes no argument"},
		{"ambiguous abbreviation", []string{"--rank-p=x", demoProg, demoGmon}, "--rank-p is ambiguous: it could be --rank-pattern, --rank-plots"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := runArgs(t, c.args...)
			assert.Equal(t, 1, code)
			assert.Empty(t, stdout)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
			assert.True(t, strings.HasPrefix(stderr, "egprof: "), stderr)
			assert.Contains(t, stderr, c.want)
		})
	}
}

// TestGprofOptionMistakesStayGprofs checks that a mistake in one of gprof's
// own options, or an unknown option, still gets gprof's exact message,
// usage text and exit status.
func TestGprofOptionMistakesStayGprofs(t *testing.T) {
	gprof, err := exec.LookPath("gprof")
	if err != nil {
		t.Skip("GNU gprof is not installed: nothing to compare with")
	}
	for _, args := range [][]string{
		{"--bogus", demoProg, demoGmon},
		{"-w"},
		{"--flat-profile", "--no-such", demoProg},
		{"-O", "nonsense", demoProg, demoGmon},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			cmd := exec.Command(gprof, args...)
			var o, e strings.Builder
			cmd.Stdout, cmd.Stderr = &o, &e
			err := cmd.Run()
			wantCode := 0
			if ee, ok := err.(*exec.ExitError); ok {
				wantCode = ee.ExitCode()
			}
			stdout, stderr, code := func() (string, string, int) {
				var o, e strings.Builder
				code := run(append([]string{gprof}, args...), strings.NewReader(""), &o, &e)
				return o.String(), e.String(), code
			}()
			assert.Equal(t, wantCode, code)
			assert.Equal(t, o.String(), stdout)
			assert.Equal(t, e.String(), stderr)
		})
	}
}

// TestHelpShowsMetavars checks --help: real metavars for egprof's options
// and no line wider than 100 columns.
func TestHelpShowsMetavars(t *testing.T) {
	stdout, _, code := runArgs(t, "--help")
	require.Equal(t, 0, code)
	for _, want := range []string{"--diff=GMON", "--plots=DIR", "--graph-top=N", "--noise=on|off", "--impact "} {
		assert.Contains(t, stdout, want)
	}
	assert.NotContains(t, stdout, "=ARG")
	for _, line := range strings.Split(stdout, "\n") {
		assert.LessOrEqual(t, len(line), 100, "%q", line)
	}
	for _, o := range optionTable() {
		if o.egprof() {
			assert.Contains(t, stdout, "--"+o.name, "--help omits --%s", o.name)
			assert.NotEmpty(t, o.help, "--%s has no help", o.name)
			assert.NotZero(t, o.modes, "--%s belongs to no mode", o.name)
		}
	}
}

// TestTraditionalNamesInEveryMode checks that -T prints raw names in the
// differential profile as it does in gprof's flat profile.
func TestTraditionalNamesInEveryMode(t *testing.T) {
	prog, gmon, gmon2 := "testdata/progs/cxx/prog", "testdata/progs/cxx/gmon.out", "testdata/progs/cxx/gmon2.out"
	const raw, demangled = "_ZSt4sqrtf", "std::sqrt(float)"
	for _, args := range [][]string{
		{"-b", "-T", "-p", prog, gmon},
		{"-b", "-T", "-p", prog, gmon, "--diff=" + gmon2},
		{"-b", "-T", "-P", "--impact", prog, gmon, "--diff=" + gmon2},
	} {
		stdout, stderr, code := runArgs(t, args...)
		require.Equal(t, 0, code, stderr)
		assert.Contains(t, stdout, raw, "%v", args)
		assert.NotContains(t, stdout, demangled, "%v", args)
	}
	stdout, _, _ := runArgs(t, "-b", "-P", "--impact", prog, gmon, "--diff="+gmon2)
	assert.Contains(t, stdout, demangled)
}

// TestForeignProfile pairs a profile with an executable that did not write
// it (the -O2 build's profile and the -O0 executable): a warning in gprof's
// report, whose output stays gprof's; an error in every other mode.
func TestForeignProfile(t *testing.T) {
	prog, foreign := "testdata/progs/recursion/prog", "testdata/progs/recursion-O2/gmon.out"
	own, other := "testdata/progs/recursion/gmon.out", "testdata/progs/recursion-O2/prog"

	stdout, stderr, code := runArgs(t, "-b", "-p", prog, foreign)
	assert.Equal(t, 0, code)
	assert.NotEmpty(t, stdout)
	assert.Contains(t, stderr, "egprof: warning: "+foreign+" does not belong to "+prog)
	if gprof, err := exec.LookPath("gprof"); err == nil {
		want, err := exec.Command(gprof, "-b", "-p", prog, foreign).Output()
		require.NoError(t, err)
		assert.Equal(t, string(want), stdout, "the report stays gprof's")
	}

	errorCases := []struct {
		name string
		args []string
		want string
	}{
		{"diff without --diff-exe", []string{"-b", prog, own, "--diff=" + foreign},
			"--diff profile " + foreign + " does not belong to " + prog},
		{"diff, '+' side foreign", []string{"-b", prog, foreign, "--diff=" + own}, foreign + " does not belong to " + prog},
		{"ranks", []string{"-b", "--ranks", prog, foreign}, "does not belong to " + prog},
		{"ranks, analysis only", []string{"-b", "-P", "-Q", "--ranks", prog, own, foreign}, foreign + " does not belong to " + prog},
	}
	for _, c := range errorCases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := runArgs(t, c.args...)
			assert.Equal(t, 1, code)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, c.want)
		})
	}
	_, stderr, _ = runArgs(t, "-b", prog, own, "--diff="+foreign)
	assert.Contains(t, stderr, "--diff-exe=B.OUT")

	// With the right executable the same pair is fine.
	_, stderr, code = runArgs(t, "-b", prog, own, "--diff="+foreign, "--diff-exe="+other)
	assert.Equal(t, 0, code, stderr)

	// The C++ program's -O0 and -O2 builds, both ways.
	const o0, o2 = "testdata/progs/cxx/", "testdata/progs/cxx-O2/"
	for _, pair := range [][2]string{{o0, o2}, {o2, o0}} {
		stdout, stderr, code := runArgs(t, "-b", pair[0]+"prog", pair[0]+"gmon.out", "--diff="+pair[1]+"gmon.out")
		assert.Equal(t, 1, code, pair[0])
		assert.Empty(t, stdout)
		assert.Contains(t, stderr, "--diff profile "+pair[1]+"gmon.out does not belong to "+pair[0]+"prog")
		assert.Contains(t, stderr, "--diff-exe=B.OUT")
		_, stderr, code = runArgs(t, "-b", pair[0]+"prog", pair[0]+"gmon.out", "--diff="+pair[1]+"gmon.out", "--diff-exe="+pair[1]+"prog")
		assert.Equal(t, 0, code, stderr)
	}
}

// TestDiffWarnsOnGuessedPairs compares two builds whose same-named statics
// neither their translation unit nor their source file tells apart: the
// multifile builds with b.c's STT_FILE entry renamed a.c and their debug
// information stripped (by objcopy). They are paired in address order, and
// egprof names them; with the builds intact it says nothing.
func TestDiffWarnsOnGuessedPairs(t *testing.T) {
	objcopy, err := exec.LookPath("objcopy")
	if err != nil {
		t.Skip("objcopy (binutils) is not installed")
	}
	const a, b = "testdata/progs/multifile/", "testdata/progs/multifile-nopie/"
	dir := t.TempDir()
	pa, pb := filepath.Join(dir, "a.prog"), filepath.Join(dir, "b.prog")
	for src, dst := range map[string]string{a + "prog": pa, b + "prog": pb} {
		out, err := exec.Command(objcopy, "-g", "--redefine-sym", "b.c=a.c", src, dst).CombinedOutput()
		require.NoError(t, err, string(out))
	}
	_, stderr, code := runArgs(t, "-b", "--diff="+b+"gmon.out", "--diff-exe="+pb, pa, a+"gmon.out")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "egprof: warning: 4 functions of the two builds share their name with others that neither their translation unit "+
		"nor their source file tells apart; they were paired in address order: scale, helper, scale, helper\n", stderr)

	_, stderr, code = runArgs(t, "-b", "--diff="+b+"gmon.out", "--diff-exe="+b+"prog", a+"prog", a+"gmon.out")
	require.Equal(t, 0, code, stderr)
	assert.Empty(t, stderr)
}

// TestProfileWithoutHistogram gives, among good profiles, a gmon file cut
// short after its 20-byte header. gprof's report sums it without a word,
// and so does egprof's; every comparison refuses it, naming it, where its
// time would have counted as zero: a rank, a run, a file of either side of
// a difference (before, a '-' side of it alone printed -nan, a '+' side
// nothing, and a rank or a run counted as idle).
func TestProfileWithoutHistogram(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(demoGmon)
	require.NoError(t, err)
	cut := filepath.Join(dir, "gmon.rank1")
	require.NoError(t, os.WriteFile(cut, data[:20], 0o644))
	good := filepath.Join(dir, "gmon.rank0")
	require.NoError(t, os.WriteFile(good, data, 0o644))

	stdout, stderr, code := runArgs(t, "-b", demoProg, good, cut)
	assert.Equal(t, 0, code, stderr)
	if gprof, err := exec.LookPath("gprof"); err == nil {
		want, err := exec.Command(gprof, "-b", demoProg, good, cut).Output()
		require.NoError(t, err)
		assert.Equal(t, string(want), stdout, "the summed report stays gprof's")
	}

	const why = ": no histogram record in its 20 bytes (cut short after its header?), so its time would count as zero"
	for _, args := range [][]string{
		{"--ranks", "-b", demoProg, good, cut},
		{"--ranks", "-b", "-P", "-Q", demoProg, cut, good},
		{"--runs", "-b", demoProg, good, cut},
		{"-b", "--diff=" + cut, demoProg, good},
		{"-b", "--diff=" + good, demoProg, cut},
		{"-b", "--diff=" + good, "--diff=" + cut, "--diff-scale=mean", demoProg, good},
		{"-b", "--diff=" + good, demoProg, good, cut},
	} {
		stdout, stderr, code := runArgs(t, args...)
		assert.Equal(t, 1, code, "%v", args)
		assert.Empty(t, stdout, "%v", args)
		assert.Equal(t, "egprof: "+cut+why+"\n", stderr, "%v", args)
	}
}

// TestDataFilesShareArgv checks that the data files at the end of the
// command line are not copied (a job's can name tens of thousands), and
// that those elsewhere still are the operands in order.
func TestDataFilesShareArgv(t *testing.T) {
	tests := []struct {
		name   string
		argv   []string
		files  []string
		shared bool // the files are argv's own words
	}{
		{"at the end", []string{"egprof", "--ranks", "-b", "prog", "f1", "f2", "f3"}, []string{"f1", "f2", "f3"}, true},
		{"after --", []string{"egprof", "-b", "--", "prog", "f1", "f2"}, []string{"f1", "f2"}, true},
		{"an option among them", []string{"egprof", "prog", "f1", "-b", "f2"}, []string{"f1", "f2"}, false},
		{"an option after them", []string{"egprof", "prog", "f1", "f2", "-p"}, []string{"f1", "f2"}, false},
		{"none", []string{"egprof", "-b", "prog"}, []string{"gmon.out"}, false},
	}
	for _, tt := range tests {
		var out, errw strings.Builder
		c, stop := parseCommandLine(tt.argv, func(string) (string, bool) { return "", false }, &out, &errw)
		require.Nil(t, stop, tt.name+": "+errw.String())
		assert.Equal(t, tt.files, c.gmonFiles, tt.name)
		last := &tt.argv[len(tt.argv)-1]
		assert.Equal(t, tt.shared, &c.gmonFiles[len(c.gmonFiles)-1] == last, tt.name)

		files, err := profileFiles(c.gmonFiles, nil, nil)
		require.NoError(t, err, tt.name)
		assert.Same(t, &c.gmonFiles[0], &files[0], "%s: files without patterns are not copied", tt.name)
	}
}

// TestDebugOptionIsNoted checks -d in all its spellings: egprof prints the
// note of a gprof built without debugging (gprof.c's text) on stdout,
// before the report, and the report is the one printed without -d.
func TestDebugOptionIsNoted(t *testing.T) {
	const note = "egprof: debugging not supported; -d ignored\n"
	want, _, code := runArgs(t, "-b", "-p", demoProg, demoGmon)
	require.Zero(t, code)
	require.NotEmpty(t, want)
	for _, debug := range []string{"-d", "-d1", "-d6", "--debug", "--debug=3"} {
		t.Run(debug, func(t *testing.T) {
			stdout, stderr, code := runArgs(t, "-b", debug, "-p", demoProg, demoGmon)
			assert.Zero(t, code)
			assert.Empty(t, stderr)
			assert.Equal(t, note+want, stdout)
		})
	}
}

// writeCounter counts the writes made on it, empty ones included.
type writeCounter struct {
	calls int
	text  strings.Builder
}

func (w *writeCounter) Write(p []byte) (int, error) {
	w.calls++
	return w.text.Write(p)
}

func (w *writeCounter) String() string { return w.text.String() }

// TestNoEmptyWrites checks that a command line with nothing to say on a
// stream makes no write to it: an empty write is still a system call.
func TestNoEmptyWrites(t *testing.T) {
	tests := []struct {
		name                  string
		args                  []string
		stdoutCalls, errCalls int
	}{
		{"report", []string{"-b", "-p", demoProg, demoGmon}, 1, 0},
		{"version", []string{"--version"}, 1, 0},
		{"bad option", []string{"--no-such-option", demoProg, demoGmon}, 0, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var o, e writeCounter
			run(append([]string{"egprof"}, tc.args...), strings.NewReader(""), &o, &e)
			assert.Equal(t, tc.stdoutCalls, o.calls, "writes to stdout (%q)", o.String())
			assert.Equal(t, tc.errCalls, e.calls, "writes to stderr (%q)", e.String())
		})
	}
}
