package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/testenv"
	"github.com/egprof/egprof/ranks"
	"github.com/egprof/egprof/render/charts"
)

// rankCopies copies a test program's two profiles under per-rank names
// (gmon.rank0.100, gmon.rank1.101) into a new directory with the program.
func rankCopies(t *testing.T, prog string) (dir string, files []string) {
	t.Helper()
	dir = t.TempDir()
	src := filepath.Join("testdata/progs", prog)
	copyFile := func(from, to string) {
		data, err := os.ReadFile(from)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(to, data, 0o755))
	}
	copyFile(filepath.Join(src, "prog"), filepath.Join(dir, "prog"))
	for r, g := range []string{"gmon.out", "gmon2.out"} {
		name := "gmon.rank" + strconv.Itoa(r) + "." + strconv.Itoa(100+r)
		copyFile(filepath.Join(src, g), filepath.Join(dir, name))
		files = append(files, name)
	}
	return dir, files
}

// rankInDir runs egprof on files of dir: relative operands and the paths
// of --save-summary, --rank-plots and --diff are taken in dir.
func rankInDir(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	abs := make([]string, len(args))
	for i, a := range args {
		switch {
		case !strings.HasPrefix(a, "-") && !filepath.IsAbs(a):
			a = filepath.Join(dir, a)
		case strings.HasPrefix(a, "--save-summary="), strings.HasPrefix(a, "--rank-plots="), strings.HasPrefix(a, "--diff="):
			name, val, _ := strings.Cut(a, "=")
			if !filepath.IsAbs(val) {
				a = name + "=" + filepath.Join(dir, val)
			}
		}
		abs[i] = a
	}
	res := testenv.RunMain(run, append([]string{"egprof"}, abs...)...)
	return res.Stdout, res.Stderr, res.Code
}

// With --ranks the classic sections are GNU gprof's for the summed files,
// byte for byte, and the rank analysis follows.
func TestRanksClassicSectionsAreGprofs(t *testing.T) {
	testenv.Need(t, "gprof")
	for _, prog := range []string{"ranks", "cycles", "recursion"} {
		dir, files := rankCopies(t, prog)
		for _, opts := range [][]string{{"-b"}, {"-b", "-p"}, {"-b", "-q"}, {"-b", "-z"}, {"-b", "-pmain"}} {
			args := append(append([]string{}, opts...), append([]string{"prog"}, files...)...)
			want := testenv.Output(t, testenv.Gprof(t), dir, args...)
			got, stderr, code := rankInDir(t, dir, append([]string{"--ranks"}, args...)...)
			require.Zero(t, code, stderr)
			require.True(t, strings.HasPrefix(got, want), "%s %v: classic part differs from gprof", prog, opts)
			rest := got[len(want):]
			assert.True(t, strings.HasPrefix(rest, "\f\nMPI rank analysis: 2 ranks (0-1)"), "%s %v: %q", prog, opts, rankFirstLine(rest))
		}
		// Without -b the classic part is egprof's usual report.
		plain, _, code := rankInDir(t, dir, append([]string{"prog"}, files...)...)
		require.Zero(t, code)
		got, _, code := rankInDir(t, dir, append([]string{"--ranks", "prog"}, files...)...)
		require.Zero(t, code)
		assert.True(t, strings.HasPrefix(got, plain+"\f\nMPI rank analysis"), prog)
		assert.Contains(t, got[len(plain):], "Times are self seconds", "explanations without -b")
	}
}

func rankFirstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// -P -Q leave only the rank analysis.
func TestRanksAnalysisOnly(t *testing.T) {
	dir, files := rankCopies(t, "ranks")
	out, stderr, code := rankInDir(t, dir, append([]string{"--ranks", "-b", "-P", "-Q", "prog"}, files...)...)
	require.Zero(t, code, stderr)
	assert.True(t, strings.HasPrefix(out, "MPI rank analysis: 2 ranks (0-1)"), rankFirstLine(out))
	assert.NotContains(t, out, "Flat profile")
	assert.NotContains(t, out, "\f")
}

// From spillRanks files on, the ranks' rows go to an unlinked temporary
// file: the analysis is the one of the ranks kept in memory (as they are
// when a summary is saved, or when no temporary file can be made), and
// no file is left behind.
func TestRanksSpilled(t *testing.T) {
	dir, two := rankCopies(t, "ranks")
	files := []string{"prog"}
	for r := range spillRanks + 10 {
		name := "gmon.rank" + strconv.Itoa(r) + ".1"
		data, err := os.ReadFile(filepath.Join(dir, two[r%3%2]))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
		files = append(files, name)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	spilled, stderr, code := rankInDir(t, dir, append([]string{"--ranks", "-b", "-P", "-Q"}, files...)...)
	require.Zero(t, code, stderr)
	inMemory, stderr, code := rankInDir(t, dir, append([]string{"--ranks", "-b", "-P", "-Q", "--save-summary=all.sum"}, files...)...)
	require.Zero(t, code, stderr)
	assert.Equal(t, inMemory, spilled)
	assert.True(t, strings.HasPrefix(spilled, "MPI rank analysis: 1034 ranks (0-1033)"), rankFirstLine(spilled))
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, left, "the temporary file is unlinked")
	// Without a temporary directory the ranks stay in memory.
	t.Setenv("TMPDIR", filepath.Join(tmp, "missing"))
	noTemp, stderr, code := rankInDir(t, dir, append([]string{"--ranks", "-b", "-P", "-Q"}, files...)...)
	require.Zero(t, code, stderr)
	assert.Equal(t, inMemory, noTemp)
}

// Summaries stand for their ranks: per-rank summaries merged on the
// command line give the summary and the analysis of all the files, and
// the flat profile of the summed files.
func TestRanksSummaryWorkflow(t *testing.T) {
	testenv.Need(t, "gprof")
	dir, files := rankCopies(t, "ranks")
	run := func(args ...string) string {
		out, stderr, code := rankInDir(t, dir, args...)
		require.Zero(t, code, stderr)
		return out
	}
	run("--ranks", "-P", "-Q", "--save-summary=r0.sum", "prog", files[0])
	run("--ranks", "-P", "-Q", "--save-summary=r1.sum", "prog", files[1])
	run("--ranks", "-P", "-Q", "--save-summary=all.sum", "prog", files[0], files[1])
	run("--ranks", "-P", "-Q", "--save-summary=merged.sum", "prog", "r1.sum", "r0.sum")
	all, err := os.ReadFile(filepath.Join(dir, "all.sum"))
	require.NoError(t, err)
	merged, err := os.ReadFile(filepath.Join(dir, "merged.sum"))
	require.NoError(t, err)
	assert.Equal(t, all, merged, "merged summaries equal the summary of all files")

	fromFiles := run("--ranks", "-P", "-Q", "--format=json", "prog", files[0], files[1])
	fromSums := run("--ranks", "-P", "-Q", "--format=json", "prog", "r0.sum", "r1.sum")
	mixed := run("--ranks", "-P", "-Q", "--format=json", "prog", "r0.sum", files[1])
	assert.JSONEq(t, fromFiles, fromSums)
	assert.JSONEq(t, fromFiles, mixed)

	want := testenv.Output(t, testenv.Gprof(t), dir, "-b", "-p", "prog", files[0], files[1])
	got := run("--ranks", "-b", "-p", "prog", "merged.sum")
	assert.True(t, strings.HasPrefix(got, want), "flat profile from a summary:\n%s\nwant:\n%s", got, want)
}

func TestRanksErrors(t *testing.T) {
	dir, files := rankCopies(t, "ranks")
	_, _, code := rankInDir(t, dir, "--ranks", "-P", "-Q", "--save-summary=good.sum", "prog", files[0])
	require.Zero(t, code)
	good, err := os.ReadFile(filepath.Join(dir, "good.sum"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "cut.sum"), good[:len(good)/2], 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "gmon.rank0.999"), nil, 0o644))
	require.NoError(t, os.Symlink(files[0], filepath.Join(dir, "link.rank7")))
	demo, err := filepath.Abs("testdata/demo")
	require.NoError(t, err)
	_, _, code = rankInDir(t, dir, "--ranks", "-P", "-Q", "--save-summary=demo.sum", filepath.Join(demo, "prog"), filepath.Join(demo, "gmon.out"))
	require.Zero(t, code)

	tests := []struct {
		name string
		args []string
		msg  string
	}{
		{"duplicate rank", []string{"prog", files[0], "gmon.rank0.999"}, "rank 0 given twice: " + filepath.Join(dir, "gmon.rank0.100") + " and " + filepath.Join(dir, "gmon.rank0.999")},
		{"truncated summary", []string{"prog", "cut.sum"}, "cut.sum: offset 0xc: the header says"},
		{"empty gmon file", []string{"prog", files[1], "gmon.rank0.999"}, "gmon.rank0.999: offset 0x0: file too short"},
		{"missing file", []string{"prog", files[0], "gmon.rank5.1"}, "gmon.rank5.1: No such file or directory"},
		{"foreign summary", []string{"prog", files[1], "demo.sum"}, "demo.sum: made for another executable"},
		{"rank pattern", []string{"--rank-pattern=node(\\d+)", "prog", files[0]}, "does not match --rank-pattern"},
		{"bad activity", []string{"--activity=comm", "prog", files[0]}, "want NAME=REGEX"},
		{"bad regions", []string{"--regions=(", "prog", files[0]}, "--regions"},
		{"bad top", []string{"--rank-top=0", "prog", files[0]}, "--rank-top takes a positive number"},
		{"bad format", []string{"--format=xml", "prog", files[0]}, "--format takes text, tsv or json"},
		{"with diff", []string{"--diff=" + files[1], "prog", files[0]}, "does not combine with the rank analysis"},
		{"plots into a file", []string{"--rank-plots=good.sum", "prog", files[0]}, "--rank-plots"},
		{"bad rank time", []string{"--rank-time=children", "prog", files[0]}, `--rank-time takes self or inclusive, not "children"`},
		{"inclusive file regions", []string{"--rank-time=inclusive", "--regions=file", "prog", files[0]}, "--rank-time=inclusive needs one region per function, not --regions=file"},
		{"bad criterion", []string{"--rank-criterion=p0", "prog", files[0]}, `--rank-criterion: "p0" is not a percentile`},
		{"bad threshold", []string{"--rank-criterion=most", "prog", files[0]}, `--rank-criterion takes max, pN (a percentile) or a threshold of the scaled index, not "most"`},
		// Overlapping inputs name both.
		{"same file twice", []string{"prog", files[0], files[0]}, filepath.Join(dir, files[0]) + " is given twice"},
		{"a file and a link to it", []string{"prog", files[0], "link.rank7"}, filepath.Join(dir, files[0]) + " and " + filepath.Join(dir, "link.rank7") + " are the same file"},
		{"a summary and a file it holds", []string{"prog", "good.sum", files[0]}, "rank 0 appears twice: " + filepath.Join(dir, files[0]) + " and " + filepath.Join(dir, files[0]) + " (in the summary " + filepath.Join(dir, "good.sum") + ")"},
		{"a summary twice", []string{"prog", "good.sum", "good.sum"}, filepath.Join(dir, "good.sum") + " is given twice"},
	}
	for _, tt := range tests {
		out, stderr, code := rankInDir(t, dir, append([]string{"--ranks", "-P", "-Q"}, tt.args...)...)
		assert.Equal(t, 1, code, tt.name)
		assert.Contains(t, stderr, tt.msg, tt.name)
		if tt.name != "plots into a file" {
			assert.Empty(t, out, tt.name)
		}
	}
}

// A summary given where a profile data file is read says what it is and
// how to read it.
func TestSummaryWithoutRanks(t *testing.T) {
	dir, files := rankCopies(t, "ranks")
	_, stderr, code := rankInDir(t, dir, "--ranks", "-P", "-Q", "--save-summary=r.sum", "prog", files[0])
	require.Zero(t, code, stderr)
	sum := filepath.Join(dir, "r.sum")
	for _, args := range [][]string{
		{"-b", "prog", "r.sum"},
		{"-b", "-p", "prog", files[1], "r.sum"},
		{"-s", "prog", "r.sum"},
	} {
		out, stderr, code := rankInDir(t, dir, args...)
		assert.Equal(t, 1, code, "%v", args)
		assert.Empty(t, out)
		assert.Equal(t, "egprof: "+sum+" is an egprof rank summary (written by --ranks --save-summary), not a profile data file: add --ranks to read it\n", stderr, "%v", args)
	}
}

// The machine-readable formats carry every table, with undefined values
// as the token n/d (TSV) or null (JSON).
func TestRanksFormats(t *testing.T) {
	dir, files := rankCopies(t, "ranks")
	tsv, stderr, code := rankInDir(t, dir, append([]string{"--ranks", "-P", "-Q", "--format=tsv", "prog"}, files...)...)
	require.Zero(t, code, stderr)
	tables := map[string][][]string{}
	var cur string
	sc := bufio.NewScanner(strings.NewReader(tsv))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#table\t"):
			cur = strings.TrimPrefix(line, "#table\t")
		case line == "":
			cur = ""
		default:
			require.NotEmpty(t, cur, "line outside a table: %q", line)
			tables[cur] = append(tables[cur], strings.Split(line, "\t"))
		}
	}
	for _, name := range []string{"summary", "activities", "regions", "matrix", "rank_clusters", "region_clusters"} {
		rows, ok := tables[name]
		require.True(t, ok, name)
		for _, r := range rows[1:] {
			assert.Len(t, r, len(rows[0]), "%s: %v", name, r)
		}
	}
	assert.Equal(t, "local_norm", tables["regions"][1][0], "most costly imbalance first")
	assert.Contains(t, tsv, "\tn/d\t", "an undefined index is the token n/d")
	assert.NotContains(t, tsv, "undefined")
	nan := regexp.MustCompile(`(?i)(^|\t)[+-]?(nan|inf)(\t|$)`)
	for _, line := range strings.Split(tsv, "\n") {
		assert.False(t, nan.MatchString(line), "%q", line)
	}

	js, _, code := rankInDir(t, dir, append([]string{"--ranks", "-P", "-Q", "--format=json", "prog"}, files...)...)
	require.Zero(t, code)
	var rep map[string]any
	require.NoError(t, json.Unmarshal([]byte(js), &rep))
	assert.EqualValues(t, 2, rep["ranks"])
	regions := rep["regions"].([]any)
	last := regions[len(regions)-1].(map[string]any)
	assert.Nil(t, last["sid_c"], "undefined is null")
	assert.NotContains(t, js, "NaN")
}

// --rank-plots writes the four charts as SVG.
func TestRanksPlots(t *testing.T) {
	withChartsHelper(t)
	dir, files := rankCopies(t, "ranks")
	_, stderr, code := rankInDir(t, dir, append([]string{"--ranks", "-P", "-Q", "--rank-plots=plots", "prog"}, files...)...)
	require.Zero(t, code, stderr)
	for _, name := range []string{charts.RankTimesPlot, charts.HeatMapPlot, charts.BoxPlot, charts.SpreadPlot} {
		data, err := os.ReadFile(filepath.Join(dir, "plots", name))
		require.NoError(t, err, name)
		assert.NoError(t, xml.Unmarshal(data, new(struct{})), "%s is well-formed XML", name)
		assert.Contains(t, string(data), "local_norm", name)
	}
}

func TestProgressBar(t *testing.T) {
	var buf bytes.Buffer
	p := newProgressBar(&buf)
	p.start = time.Now().Add(-time.Hour)
	p.update(1, 2)
	p.finish()
	assert.Empty(t, buf.String(), "silent when stderr is not a terminal")

	for _, tt := range []struct{ done, total, width int }{{0, 10, 60}, {5, 10, 60}, {10, 10, 60}, {512, 1024, 120}, {3, 1024, 20}} {
		got := progressLine(tt.done, tt.total, 1500*time.Millisecond, tt.width)
		assert.True(t, strings.HasPrefix(got, "reading profiles "), got)
		assert.True(t, strings.HasSuffix(got, " "+strconv.Itoa(tt.done)+"/"+strconv.Itoa(tt.total)+" "+
			strconv.Itoa(100*tt.done/tt.total)+"% 1s") || strings.HasSuffix(got, "% 1s"), got)
		assert.Contains(t, got, strconv.Itoa(tt.done)+"/"+strconv.Itoa(tt.total))
		open, close := strings.Index(got, "["), strings.Index(got, "]")
		if tt.width < 40 {
			assert.Equal(t, -1, open, "no room for a bar: %q", got)
			continue
		}
		assert.Len(t, got, tt.width-1, "fills the line but its last column")
		bar := got[open+1 : close]
		assert.Equal(t, len(bar)*tt.done/tt.total, strings.Count(bar, "#"), got)
		assert.Equal(t, len(bar), strings.Count(bar, "#")+strings.Count(bar, "."), got)
	}
}

// rankFlatRow is one function of GNU gprof's flat profile of one rank.
type rankFlatRow struct {
	seconds float64 // self seconds, from ms/call x calls when there are calls
	err     float64 // the rounding bound of seconds
	calls   uint64
}

// rankFlat runs GNU gprof -b -p on one rank's file. Self seconds are
// printed to 0.01 s; the self ms/call column, times the calls, gives them
// to 0.005 ms per call.
func rankFlat(t *testing.T, dir, prog, file string) map[string]rankFlatRow {
	t.Helper()
	out := testenv.Output(t, testenv.Gprof(t), dir, "-b", "-p", "--no-demangle", prog, file)
	parsed, err := testenv.ParseFlat(out)
	require.NoError(t, err, out)
	rows := map[string]rankFlatRow{}
	for _, r := range parsed {
		row := rankFlatRow{seconds: r.Self, err: 0.005}
		if r.HasCalls {
			row.calls = r.Calls
			row.seconds = r.SelfPerCall * float64(r.Calls) / 1000
			row.err = 0.005 * float64(r.Calls) / 1000
		}
		rows[r.Name] = row
	}
	return rows
}

// rankDispersion is the paper's ID_ij, computed directly.
func rankDispersion(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	var d float64
	for _, x := range v {
		e := x/s - 1/float64(len(v))
		d += e * e
	}
	return math.Sqrt(d)
}

// rankDispersionBound is how far the dispersion of values each within
// errs[p] of v[p] can lie from that of v: the index is the Euclidean
// distance of the shares from the equal share, so it moves at most by the
// norm of the shares' change, and a share v/S moves at most by
// (e + (v/S)·Σe)/(S − Σe). Without a bound (the errors could make every
// value zero) it is +Inf.
func rankDispersionBound(v, errs []float64) float64 {
	var s, se float64
	for p := range v {
		s += v[p]
		se += errs[p]
	}
	if s <= se {
		return math.Inf(1)
	}
	var d float64
	for p := range v {
		x := (errs[p] + v[p]/s*se) / (s - se)
		d += x * x
	}
	return math.Sqrt(d)
}

// The MPI integration test: a small MPI program with a deliberate
// imbalance, built with mpicc -pg and run on 4 ranks with one gmon file
// per rank. egprof's indices must equal those computed from GNU gprof's
// flat profile of each rank, the imbalanced function must come first, the
// pprof export's samples per rank label must hold each rank's self times,
// and the classic sections must be gprof's for the summed files. Needs Open
// MPI; set EGPROF_REQUIRE_MPI=1 to fail instead of skipping without it.
func TestMPIRanks(t *testing.T) {
	testenv.Need(t, "mpicc", "mpirun", "gprof")
	dir := t.TempDir()
	script, err := filepath.Abs("testdata/mpi/run.sh")
	require.NoError(t, err)
	cmd := exec.Command("sh", script, dir, "4")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	files, err := filepath.Glob(filepath.Join(dir, "gmon.rank*"))
	require.NoError(t, err)
	require.Len(t, files, 4, "%s", out)
	for i := range files {
		files[i] = filepath.Base(files[i])
	}
	// The shell's order puts gmon.rank10 before gmon.rank2; ranks come
	// from the names, not the order.
	byRank := map[int]string{}
	re := regexp.MustCompile(`^gmon\.rank(\d+)\.\d+$`)
	for _, f := range files {
		m := re.FindStringSubmatch(f)
		require.NotNil(t, m, f)
		r, _ := strconv.Atoi(m[1])
		byRank[r] = f
	}

	// egprof's analysis.
	js, stderr, code := rankInDir(t, dir, append([]string{"--ranks", "-P", "-Q", "--format=json", "imbalance"}, files...)...)
	require.Zero(t, code, stderr)
	var rep ranks.Report
	require.NoError(t, json.Unmarshal([]byte(js), &rep))
	require.Equal(t, 4, rep.P)
	assert.Equal(t, "0-3", rep.RankList)

	// The same from GNU gprof's flat profile of each rank.
	flat := make([]map[string]rankFlatRow, 4)
	for r := range 4 {
		flat[r] = rankFlat(t, dir, "imbalance", byRank[r])
	}
	var total, totalErr float64
	for r := range 4 {
		for _, row := range flat[r] {
			total += row.seconds
			totalErr += row.err
		}
	}
	for _, name := range []string{"imbalanced_work", "balanced_work", "report_on_rank0"} {
		var row *ranks.RegionRow
		for i := range rep.Regions {
			if rep.Regions[i].Name == name {
				row = &rep.Regions[i]
			}
		}
		require.NotNil(t, row, name)
		v := make([]float64, 4)
		errs := make([]float64, 4)
		calls := make([]float64, 4)
		var sum float64
		for r := range 4 {
			f := flat[r][name] // zero for a rank that never ran it
			v[r], errs[r], calls[r] = f.seconds, f.err, float64(f.calls)
			sum += f.seconds
		}
		var sumErr float64
		for _, e := range errs {
			sumErr += e
		}
		// The rounding of gprof's columns bounds the differences.
		id := rankDispersion(v)
		bound := rankDispersionBound(v, errs) + 1e-9
		share := sum / total
		shareErr := sumErr/total + sum*totalErr/(total*total)
		assert.InDelta(t, id, row.ID.Value, bound, "%s: ID_C", name)
		assert.InDelta(t, share*id, row.SID.Value, share*bound+id*shareErr+1e-9, "%s: SID_C", name)
		assert.InDelta(t, rankDispersion(calls), row.CallsID.Value, 1e-12, "%s: ID of the calls", name)
		assert.InDelta(t, sum, row.Seconds, sumErr+1e-9, "%s: seconds", name)
	}
	assert.Equal(t, "imbalanced_work", rep.Regions[0].Name, "the imbalanced function has the largest SID_C")
	for _, row := range rep.Regions {
		if row.Name == "report_on_rank0" {
			assert.Equal(t, 3, row.ZeroRanks, "ranks that never ran it count as zero")
			assert.InDelta(t, math.Sqrt(0.75), row.ID.Value, 1e-12, "one rank does it all")
		}
	}

	// pprof: each sample carries its rank, and each rank's self time of
	// a function is gprof's for that rank's file.
	pb := filepath.Join(dir, "ranks.pb.gz")
	_, stderr, code = rankInDir(t, dir, append([]string{"--ranks", "-P", "-Q", "--pprof=" + pb, "imbalance"}, files...)...)
	require.Zero(t, code, stderr)
	f, err := os.Open(pb)
	require.NoError(t, err)
	defer f.Close()
	prof, err := profile.Parse(f)
	require.NoError(t, err)
	self := map[int64]map[string]float64{}
	for _, s := range prof.Sample {
		require.Len(t, s.NumLabel["rank"], 1, "every sample carries one rank")
		r := s.NumLabel["rank"][0]
		if self[r] == nil {
			self[r] = map[string]float64{}
		}
		self[r][s.Location[0].Line[0].Function.Name] += float64(s.Value[1]) / 1e9
	}
	for r := range 4 {
		for _, name := range []string{"imbalanced_work", "balanced_work"} {
			assert.InDelta(t, flat[r][name].seconds, self[int64(r)][name], flat[r][name].err+1e-9, "rank %d %s", r, name)
		}
	}

	// The classic sections are gprof's for the summed files.
	want := testenv.Output(t, testenv.Gprof(t), dir, append([]string{"-b", "imbalance"}, files...)...)
	got, stderr, code := rankInDir(t, dir, append([]string{"--ranks", "-b", "imbalance"}, files...)...)
	require.Zero(t, code, stderr)
	assert.True(t, strings.HasPrefix(got, want), "classic sections differ from gprof -b on the summed files")
	assert.Contains(t, got[len(want):], "imbalanced_work")
}

// The text report's tables are aligned: every row of a table is as wide
// as its header up to the name column.
func TestRanksTextAligned(t *testing.T) {
	dir, files := rankCopies(t, "cycles")
	out, stderr, code := rankInDir(t, dir, append([]string{"--ranks", "-b", "-P", "-Q", "prog"}, files...)...)
	require.Zero(t, code, stderr)
	blocks := strings.Split(out, "\n\n")
	checked := 0
	for _, b := range blocks {
		lines := strings.Split(strings.TrimRight(b, "\n"), "\n")
		if len(lines) > 2 && strings.HasSuffix(lines[1], "name") {
			lines = lines[1:] // a line of group titles above the header
		}
		if len(lines) < 2 || !strings.HasSuffix(lines[0], "name") {
			continue
		}
		col := strings.LastIndex(lines[0], "name")
		for _, l := range lines[1:] {
			require.GreaterOrEqual(t, len(l), col, "%q", l)
			assert.Equal(t, byte(' '), l[col-1], "%q", l)
		}
		checked++
	}
	assert.GreaterOrEqual(t, checked, 3)
	_ = io.Discard
}
