package cli

import (
	"bufio"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/egprof/egprof/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goldenCase is one line of testdata/golden/cases.txt or of a program's
// cases.txt (format in testdata/README.md).
type goldenCase struct {
	name     string
	args     string
	readback string // -s cases: the command that reads gmon.sum back
}

func readCases(t *testing.T, file string, allowDrops bool) (cases []goldenCase, drops []string) {
	t.Helper()
	f, err := os.Open(file)
	if os.IsNotExist(err) {
		return nil, nil
	}
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "!"):
			require.True(t, allowDrops, "%s:%d: drop outside a program's cases.txt", file, n)
			drops = append(drops, line[1:])
			continue
		}
		var fields []string
		for _, f := range strings.Split(line, "\t") {
			if f != "" {
				fields = append(fields, f)
			}
		}
		require.True(t, len(fields) == 2 || len(fields) == 3, "%s:%d: malformed case", file, n)
		c := goldenCase{name: fields[0], args: fields[1]}
		if len(fields) == 3 {
			c.readback = fields[2]
		}
		cases = append(cases, c)
	}
	require.NoError(t, sc.Err())
	return cases, drops
}

// programCases is the case list the golden script ran for program dir.
func programCases(t *testing.T, global []goldenCase, dir string) []goldenCase {
	own, drops := readCases(t, filepath.Join(dir, "cases.txt"), true)
	var out []goldenCase
	for _, c := range global {
		dropped := false
		for _, pat := range drops {
			if ok, _ := path.Match(pat, c.name); ok {
				dropped = true
			}
		}
		if !dropped {
			out = append(out, c)
		}
	}
	return append(out, own...)
}

func expandCase(words, prog, gmon1, gmon2 string) []string {
	r := strings.NewReplacer("{prog}", prog, "{gmon}", gmon1, "{gmon2}", gmon2, "{sum}", "gmon.sum")
	var out []string
	for _, w := range strings.Fields(words) {
		out = append(out, r.Replace(w))
	}
	return out
}

func readGolden(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	return string(b)
}

// notBuiltYet names the golden cases (as program/case globs) whose output
// egprof does not produce yet. They are skipped by name, so every run shows
// the gap; each entry goes as soon as its feature lands.
var notBuiltYet = map[string]string{
	"*/demangle-java*": "the java demangling style",
}

func notBuilt(name string) string {
	for pat, why := range notBuiltYet {
		if ok, _ := path.Match(pat, name); ok {
			return why
		}
	}
	return ""
}

// TestGoldens compares egprof with GNU gprof's recorded output for every
// program and case in testdata (regenerate them with scripts/gen-goldens.sh).
func TestGoldens(t *testing.T) {
	global, _ := readCases(t, "testdata/golden/cases.txt", false)
	require.NotEmpty(t, global)
	root, err := os.Getwd()
	require.NoError(t, err)
	for _, dir := range testenv.Programs(t) {
		base := filepath.Base(dir)
		gdir := filepath.Join("testdata/golden", base)
		for _, c := range programCases(t, global, dir) {
			rcFile := filepath.Join(gdir, c.name+".rc")
			if _, err := os.Stat(rcFile); err != nil {
				t.Errorf("%s/%s: no golden; run scripts/gen-goldens.sh", base, c.name)
				continue
			}
			wantRC, err := strconv.Atoi(strings.TrimSpace(readGolden(t, rcFile)))
			require.NoError(t, err)
			want := readGolden(t, filepath.Join(gdir, c.name+".out"))
			t.Run(base+"/"+c.name, func(t *testing.T) {
				if why := notBuilt(base + "/" + c.name); why != "" {
					t.Skip("not built yet: " + why)
				}
				switch {
				case c.readback != "":
					checkSumCase(t, root, dir, c, wantRC, filepath.Join(root, gdir, c.name+".readback.out"))
				case strings.HasPrefix(c.name, "full"):
					args := expandCase(c.args, dir+"/prog", dir+"/gmon.out", dir+"/gmon2.out")
					got := testenv.RunMain(run, append([]string{"gprof"}, args...)...)
					assert.Equal(t, wantRC, got.Code, "exit status")
					checkFullStructure(t, got.Stdout, want, gdir, c)
				default:
					args := expandCase(c.args, dir+"/prog", dir+"/gmon.out", dir+"/gmon2.out")
					got := testenv.RunMain(run, append([]string{"gprof"}, args...)...)
					assert.Equal(t, wantRC, got.Code, "exit status; stderr: %s", got.Stderr)
					assert.Equal(t, want, got.Stdout, "gprof %s", strings.Join(args, " "))
				}
			})
		}
	}
}

// checkSumCase runs an -s case in a scratch directory and reads the
// gmon.sum egprof wrote back with GNU gprof (which must print what it
// printed for its own gmon.sum) and with egprof.
func checkSumCase(t *testing.T, root, dir string, c goldenCase, wantRC int, readbackGolden string) {
	abs := func(f string) string { return filepath.Join(root, dir, f) }
	t.Chdir(t.TempDir())
	sum := testenv.RunMain(run, append([]string{"gprof"}, expandCase(c.args, abs("prog"), abs("gmon.out"), abs("gmon2.out"))...)...)
	require.Equal(t, wantRC, sum.Code, "exit status; stderr: %s", sum.Stderr)
	if wantRC != 0 {
		return
	}
	want := readGolden(t, readbackGolden)
	rb := expandCase(c.readback, abs("prog"), abs("gmon.out"), abs("gmon2.out"))
	got := testenv.RunMain(run, append([]string{"gprof"}, rb...)...)
	require.Equal(t, 0, got.Code)
	assert.Equal(t, want, got.Stdout, "egprof reading egprof's gmon.sum")
	if !testenv.Has("gprof") {
		t.Log("gprof not on PATH; skipping its reading of egprof's gmon.sum")
		return
	}
	assert.Equal(t, want, testenv.Output(t, testenv.Gprof(t), "", rb...), "GNU gprof reading egprof's gmon.sum")
}

// checkFullStructure checks a report with explanations: without them it
// must be the brief report byte for byte (except the call graph title,
// which -b shortens), and its form feeds must split it into as many parts
// as GNU gprof's, so scripts that cut reports at form feeds keep working.
func checkFullStructure(t *testing.T, got, want, gdir string, c goldenCase) {
	briefName := map[string]string{"full": "default", "full-flat": "flat", "full-traditional": "traditional"}[c.name]
	require.NotEmpty(t, briefName, "no brief twin known for %s", c.name)
	brief := readGolden(t, filepath.Join(gdir, briefName+".out"))
	stripped := got
	for _, blurb := range []string{flatBlurbForTest(), callGraphBlurbForTest(), callGraphBSDBlurbForTest()} {
		stripped = strings.ReplaceAll(stripped, blurb, "")
	}
	stripped = strings.Replace(stripped, "\t\t     Call graph (explanation follows)\n", "\t\t\tCall graph\n", 1)
	stripped = strings.Replace(stripped, "\n\n\nflat profile:\n", "", 1)
	assert.Equal(t, brief, stripped, "report without explanations")
	assert.Equal(t, strings.Count(want, "\f\n"), strings.Count(got, "\f\n"), "form-feed lines")
	assert.Equal(t, sectionHeads(want), sectionHeads(got), "section headings")
}

// sectionHeads lists the first line after every form-feed line.
func sectionHeads(s string) []string {
	var heads []string
	parts := strings.Split(s, "\f\n")
	for _, p := range parts[1:] {
		first, _, _ := strings.Cut(p, "\n")
		if strings.HasPrefix(first, "\t\t") || strings.HasPrefix(first, "Index") || strings.HasPrefix(first, "Flat") {
			heads = append(heads, strings.TrimSpace(strings.Split(first, "(")[0]))
		}
	}
	return heads
}
