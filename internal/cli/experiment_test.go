package cli

import (
	"bytes"
	"debug/elf"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/atomicfile"
	"github.com/egprof/egprof/internal/progen"
	"github.com/egprof/egprof/internal/testenv"
	"github.com/egprof/egprof/symtab"
)

// The end-to-end experiment: testdata/experiment/scale.c, a bulk-synchronous
// program built with mpicc -pg and run with mpirun (without MPI on the
// machine, and unless EGPROF_REQUIRE_MPI=1, a plain build whose copies
// are told their size and rank stands in). It is built -O0 and -O2 and run
// at 1, 2 and 4 processes with two sizes; each rank writes its own profile
// (GMON_OUT_PREFIX), listed in the experiment table by a glob per run.
var (
	expSizes = []int{1000, 3000} // work W = size²
	expProcs = []int{1, 2, 4}
	expBuild = []string{"O0", "O2"}
)

// experimentFixture is a built and run experiment.
type experimentFixture struct {
	dir   string
	table string
	prog  map[string]string // build -> executable
	// files[build][W][p] are the rank profiles of one run, by rank.
	files map[string]map[int]map[int][]string
}

func expWork(size int) int { return size * size }

// runExperimentPrograms builds scale.c twice and runs every rank of every
// run, a few processes at a time.
func runExperimentPrograms(t *testing.T) *experimentFixture {
	t.Helper()
	testenv.Need(t, "gcc", "gprof")
	if testing.Short() {
		t.Skip("runs 28 profiled processes")
	}
	fx := &experimentFixture{dir: t.TempDir(), prog: map[string]string{}, files: map[string]map[int]map[int][]string{}}
	src, err := filepath.Abs("testdata/experiment/scale.c")
	require.NoError(t, err)
	useMPI := testenv.Has("mpicc", "mpirun")
	if !useMPI && testenv.RequireMPI() {
		t.Fatalf("mpicc or mpirun not on PATH (%s=1)", testenv.RequireMPIVar)
	}
	for _, b := range expBuild {
		fx.prog[b] = filepath.Join(fx.dir, "prog-"+b)
		cc := []string{"gcc", "-pg", "-" + b, "-o", fx.prog[b], src}
		if useMPI {
			cc = []string{"mpicc", "-DUSE_MPI", "-pg", "-" + b, "-o", fx.prog[b], src}
		}
		out, err := exec.Command(cc[0], cc[1:]...).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	gdir := filepath.Join(fx.dir, "gmon")
	require.NoError(t, os.Mkdir(gdir, 0o777))
	type job struct {
		build         string
		size, p, rank int
	}
	var jobs []job
	for _, b := range expBuild {
		for _, s := range expSizes {
			for _, p := range expProcs {
				for r := range p {
					jobs = append(jobs, job{b, s, p, r})
				}
			}
		}
	}
	prefix := func(j job) string {
		return filepath.Join(gdir, fmt.Sprintf("%s-w%d-p%d.rank%d", j.build, expWork(j.size), j.p, j.rank))
	}
	if useMPI {
		// One mpirun per run; each rank names its profile by its rank.
		for _, j := range jobs {
			if j.rank != 0 {
				continue
			}
			run := strings.TrimSuffix(prefix(j), ".rank0")
			cmd := exec.Command("mpirun", "--allow-run-as-root", "--oversubscribe", "-np", strconv.Itoa(j.p),
				"sh", "-c", `GMON_OUT_PREFIX="$0.rank$OMPI_COMM_WORLD_RANK" exec "$@"`, run, fx.prog[j.build], strconv.Itoa(j.size))
			cmd.Dir = fx.dir
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%v: %s", cmd.Args, out)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, len(jobs))
	sem := make(chan struct{}, runtime.NumCPU())
	for i, j := range jobs {
		if useMPI {
			break
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			cmd := exec.Command(fx.prog[j.build], strconv.Itoa(j.size), strconv.Itoa(j.p), strconv.Itoa(j.rank))
			cmd.Dir = fx.dir
			cmd.Env = append(os.Environ(), "GMON_OUT_PREFIX="+prefix(j))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[i] = fmt.Errorf("%v: %v: %s", cmd.Args, err, out)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	var table strings.Builder
	table.WriteString("gmon\tbinary\tbuild\twork\tprocs\n")
	for _, j := range jobs {
		matches, err := filepath.Glob(prefix(j) + ".*")
		require.NoError(t, err)
		require.Len(t, matches, 1, "one profile per rank process")
		w := expWork(j.size)
		if fx.files[j.build] == nil {
			fx.files[j.build] = map[int]map[int][]string{}
		}
		if fx.files[j.build][w] == nil {
			fx.files[j.build][w] = map[int][]string{}
		}
		fx.files[j.build][w][j.p] = append(fx.files[j.build][w][j.p], matches[0])
		if j.rank == 0 {
			fmt.Fprintf(&table, "gmon/%s-w%d-p%d.rank*\tprog-%s\t%s\t%d\t%d\n", j.build, w, j.p, j.build, j.build, w, j.p)
		}
	}
	fx.table = filepath.Join(fx.dir, "experiment.tsv")
	require.NoError(t, os.WriteFile(fx.table, []byte(table.String()), 0o666))
	return fx
}

// tsvTables splits --format=tsv output into its tables, keyed by the name
// of their first column.
// tsvTables reads egprof's framed TSV: each table is a line
// "#table<TAB>NAME", a header and its rows; tables of one name are
// joined.
func tsvTables(t *testing.T, out string) map[string][]map[string]string {
	t.Helper()
	tables := map[string][]map[string]string{}
	for _, block := range strings.Split(strings.TrimRight(out, "\n"), "\n\n") {
		lines := strings.Split(block, "\n")
		name, ok := strings.CutPrefix(lines[0], "#table\t")
		require.True(t, ok, "a table starts with its frame: %q", lines[0])
		require.GreaterOrEqual(t, len(lines), 2, "table %s has a header", name)
		head := strings.Split(lines[1], "\t")
		rows := tables[name]
		if rows == nil {
			rows = []map[string]string{}
		}
		for _, l := range lines[2:] {
			cells := strings.Split(l, "\t")
			require.Len(t, cells, len(head), "row %q", l)
			row := map[string]string{}
			for i, h := range head {
				row[h] = cells[i]
			}
			rows = append(rows, row)
		}
		tables[name] = rows
	}
	return tables
}

func expNum(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err, s)
	return v
}

// gprofTotal is a profile's total time by GNU gprof: the cumulative
// seconds of the flat profile's last line (0 without samples).
func gprofTotal(t *testing.T, prog, gmonFile string) float64 {
	t.Helper()
	out := testenv.Output(t, testenv.Gprof(t), "", "-b", "-p", prog, gmonFile)
	total := 0.0
	for _, line := range strings.Split(out, "\n")[5:] {
		if f := strings.Fields(line); len(f) >= 3 {
			total = expNum(t, f[1])
		}
	}
	return total
}

// elfHasSymbol reports whether the executable defines name.
func elfHasSymbol(t *testing.T, prog, name string) bool {
	t.Helper()
	f, err := elf.Open(prog)
	require.NoError(t, err)
	defer f.Close()
	syms, err := f.Symbols()
	require.NoError(t, err)
	return slices.ContainsFunc(syms, func(s elf.Symbol) bool { return s.Name == name })
}

// TestExperimentEndToEnd checks egprof's experiment mode against GNU
// gprof's flat profiles of the same files. gprof prints seconds with two
// decimals (and a function's self time can be a fraction of a sample), so
// seconds agree to 0.005; calls agree exactly. The scalability arithmetic
// is then redone here, independently, on egprof's own full-precision run
// times, and must agree to 1e-9.
func TestExperimentEndToEnd(t *testing.T) {
	fx := runExperimentPrograms(t)

	t.Run("PERDAC over build", func(t *testing.T) {
		res := testenv.RunMain(run, "egprof", "--experiment="+fx.table, "--over=build", "--threshold=0", "--show-noise", "--format=tsv")
		require.Equal(t, 0, res.Code, res.Stderr)
		rows := tsvTables(t, res.Stdout)["perdac"]
		require.NotEmpty(t, rows)
		// Independently: every rank profile's flat profile, by gprof.
		type key struct {
			w, p, rank int
		}
		flat := map[string]map[key]map[string]gprofFlatRow{}
		for _, b := range expBuild {
			flat[b] = map[key]map[string]gprofFlatRow{}
			for w, byP := range fx.files[b] {
				for p, files := range byP {
					for r, f := range files {
						flat[b][key{w, p, r}] = gprofFlat(t, fx.prog[b], f)
					}
				}
			}
		}
		index := map[string]map[string]string{}
		for _, r := range rows {
			require.Equal(t, "build", r["over"])
			index[strings.Join([]string{r["function"], r["work"], r["procs"], r["rank"], r["metric"]}, "/")] = r
		}
		mixAbsent := !elfHasSymbol(t, fx.prog["O2"], "mix")
		checked := 0
		for k := range flat["O0"] {
			for _, fn := range []string{"compute_block", "exchange", "mix"} {
				o0, o2 := flat["O0"][k][fn], flat["O2"][k][fn]
				id := func(metric string) string {
					return strings.Join([]string{fn, strconv.Itoa(k.w), strconv.Itoa(k.p), strconv.Itoa(k.rank), metric}, "/")
				}
				// Self seconds: average, population stdev, min and max.
				mean := (o0.self + o2.self) / 2
				r, listed := index[id("self s")]
				if math.Abs(o0.self-o2.self) > 0.0101 {
					require.True(t, listed, "%s differs between the builds (%g, %g) but is not listed", id("self s"), o0.self, o2.self)
					lo, hi := "O0", "O2"
					if o2.self < o0.self {
						lo, hi = hi, lo
					}
					assert.Equal(t, lo, r["minloc"], id("self s"))
					assert.Equal(t, hi, r["maxloc"], id("self s"))
				}
				if listed {
					assert.InDelta(t, mean, expNum(t, r["average"]), 0.0051, id("average"))
					assert.InDelta(t, math.Abs(o0.self-o2.self)/2, expNum(t, r["stdev"]), 0.0051, id("stdev"))
					assert.InDelta(t, min(o0.self, o2.self), expNum(t, r["min"]), 0.0051, id("min"))
					assert.InDelta(t, max(o0.self, o2.self), expNum(t, r["max"]), 0.0051, id("max"))
					assert.Equal(t, "2", r["n"])
					// 100 samples a second: v seconds are 100·v samples,
					// a Poisson count of variance 100·v, so v has
					// variance v/100; the noise is the root of the
					// mean variance.
					noise := math.Sqrt((o0.self + o2.self) / 2 / 100)
					assert.InDelta(t, noise, expNum(t, r["noise"]), 0.0051, id("noise"))
					if spread := math.Abs(o0.self-o2.self) / 2; math.Abs(spread-2*noise) > 0.011 {
						assert.Equal(t, strconv.FormatBool(spread <= 2*noise), r["within_noise"], id("within_noise"))
					}
					checked++
				}
				// Calls: exact. Only mix's differ (absent from the -O2
				// build, where it is inlined).
				r, listed = index[id("calls")]
				assert.Equal(t, o0.calls != o2.calls, listed, id("calls"))
				if listed {
					assert.Equal(t, float64(o0.calls+o2.calls)/2, expNum(t, r["average"]), id("calls"))
					assert.Equal(t, float64(max(o0.calls, o2.calls)), expNum(t, r["max"]), id("calls"))
					assert.Equal(t, "100", r["re_sdev"], "one build calls it, the other does not")
					if fn == "mix" && mixAbsent {
						assert.Equal(t, "1", r["absent"], id("calls"))
						assert.Equal(t, "O2", r["absent_first"], id("calls"))
					}
					checked++
				}
			}
		}
		t.Logf("%d PERDAC values checked against gprof's flat profiles", checked)
		assert.Greater(t, checked, 20)
	})

	t.Run("SCALA and range comparison", func(t *testing.T) {
		res := testenv.RunMain(run, "egprof", "--experiment="+fx.table, "--compare-dim=build", "--format=tsv")
		require.Equal(t, 0, res.Code, res.Stderr)
		tables := tsvTables(t, res.Stdout)
		runs := tables["scala_runs"]
		require.Len(t, runs, len(expBuild)*len(expSizes)*len(expProcs), "one run per build, work and process count")
		// The time of a run is its slowest rank's total, by gprof.
		type point struct{ p, w, t float64 }
		points := map[string][]point{}
		for _, r := range runs {
			b := strings.TrimPrefix(r["combination"], "build=")
			p, w := int(expNum(t, r["procs"])), int(expNum(t, r["work"]))
			slowest := 0.0
			for _, f := range fx.files[b][w][p] {
				slowest = max(slowest, gprofTotal(t, fx.prog[b], f))
			}
			tm := expNum(t, r["time"])
			assert.InDelta(t, slowest, tm, 0.0051, "%s p=%d W=%d", b, p, w)
			points[b] = append(points[b], point{float64(p), float64(w), tm})
		}
		// Independent isospeed: the speed W/(p·T) of the initial run,
		// found at p' between the two measured works whose speeds
		// bracket it, linearly in log(W) against log(speed).
		speed := func(pt point) float64 { return pt.w / (pt.p * pt.t) }
		scaled := func(b string, q, s float64) (float64, bool) {
			var at []point
			for _, pt := range points[b] {
				if pt.p == q {
					at = append(at, pt)
				}
			}
			slices.SortFunc(at, func(x, y point) int { return int(x.w - y.w) })
			for i := range at {
				if speed(at[i]) == s {
					return at[i].w, true
				}
				if i > 0 {
					s0, s1 := speed(at[i-1]), speed(at[i])
					if (s0 < s && s < s1) || (s1 < s && s < s0) {
						u := math.Log(s/s0) / math.Log(s1/s0)
						return at[i-1].w * math.Pow(at[i].w/at[i-1].w, u), true
					}
				}
			}
			return 0, false
		}
		// flat: the two speeds measured at q agree within sampling noise
		// (t·100 samples each; for two runs the χ² statistic is
		// n₁n₂/(n₁+n₂)·ln²(s₁/s₂), against 5.09, the Wilson–Hilferty
		// quantile at two standard deviations for one degree of freedom).
		flat := func(b string, q float64) bool {
			var at []point
			for _, pt := range points[b] {
				if pt.p == q {
					at = append(at, pt)
				}
			}
			require.Len(t, at, 2)
			n1, n2 := 100*at[0].t, 100*at[1].t
			l := math.Log(speed(at[0]) / speed(at[1]))
			return n1*n2/(n1+n2)*l*l <= 5.09
		}
		psi := func(b string, from point, q float64) (float64, bool) {
			w, ok := scaled(b, q, speed(from))
			return q * from.w / (from.p * w), ok
		}
		pairs := 0
		bracketed := 0
		for _, r := range tables["scala_psi"] {
			if r["function"] != "" {
				continue
			}
			b := strings.TrimPrefix(r["combination"], "build=")
			from := point{expNum(t, r["from_p"]), expNum(t, r["from_work"]), expNum(t, r["from_time"])}
			want, ok := psi(b, from, expNum(t, r["to_p"]))
			name := fmt.Sprintf("%s psi(%g,%s) from W=%g", b, from.p, r["to_p"], from.w)
			if assert.Equal(t, flat(b, expNum(t, r["to_p"])), r["psi"] == "n/d", name) && r["psi"] == "n/d" {
				continue
			}
			if assert.Equal(t, ok, r["psi"] != "n/b", name) && ok {
				assert.InDelta(t, want, expNum(t, r["psi"]), 1e-9*want, name)
				bracketed++
			}
			pairs++
		}
		t.Logf("%d isospeed pairs, %d bracketed", pairs, bracketed)
		assert.Equal(t, len(expBuild)*6, pairs, "every run to every larger p'")

		// Range comparison from the smallest p and W.
		cmp := tables["ranges"]
		require.NotEmpty(t, cmp)
		initial := func(b string) point {
			for _, pt := range points[b] {
				if pt.p == 1 && pt.w == float64(expWork(expSizes[0])) {
					return pt
				}
			}
			t.Fatal("no initial run")
			return point{}
		}
		i0, i2 := initial("O0"), initial("O2")
		if i0.t == i2.t {
			t.Log("equal times at the initial state: no crossing point is defined")
			return
		}
		slow, fast := "O0", "O2"
		if i2.t > i0.t {
			slow, fast = fast, slow
		}
		alpha := math.Max(i0.t, i2.t) / math.Min(i0.t, i2.t)
		for _, r := range cmp {
			assert.Equal(t, slow, r["slower"])
			assert.Equal(t, fast, r["faster"])
			assert.InDelta(t, alpha, expNum(t, r["alpha"]), 1e-12)
			q := expNum(t, r["to_p"])
			phi, ok1 := psi(slow, initial(slow), q)
			ps, ok2 := psi(fast, initial(fast), q)
			assert.Equal(t, flat(slow, q), r["phi"] == "n/d", "phi at p'=%g", q)
			assert.Equal(t, flat(fast, q), r["psi"] == "n/d", "psi at p'=%g", q)
			if r["phi"] == "n/d" || r["psi"] == "n/d" {
				continue
			}
			assert.Equal(t, ok1, r["phi"] != "n/b", "phi at p'=%g", q)
			assert.Equal(t, ok2, r["psi"] != "n/b", "psi at p'=%g", q)
			if ok1 && ok2 {
				assert.Equal(t, strconv.FormatBool(phi > alpha*ps), r["crossing"], "p'=%g", q)
				assert.Equal(t, r["crossing"], r["crossing_by_time"], "Phi > alpha·Psi exactly when t(W') < T(W*), p'=%g", q)
			}
		}
	})

	t.Run("text report and plots", func(t *testing.T) {
		withChartsHelper(t)
		plots := filepath.Join(fx.dir, "plots")
		res := testenv.RunMain(run, "egprof", "--experiment="+fx.table, "--compare-dim=build", "--predict=16", "--plots="+plots)
		require.Equal(t, 0, res.Code, res.Stderr)
		out := res.Stdout
		for _, want := range []string{"Isospeed scalability (SCALA) for build=O0", "psi(p, p')", "Range comparison over build", "at p=16"} {
			assert.Contains(t, out, want)
		}
		equal := strings.Contains(out, "equal times, so no crossing point is defined")
		if !equal {
			assert.Contains(t, out, "smallest scaled crossing point: ")
		}
		svgs, _ := filepath.Glob(filepath.Join(plots, "*.svg"))
		names := make([]string, len(svgs))
		for i, f := range svgs {
			names[i] = filepath.Base(f)
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			assert.Contains(t, string(b[:min(len(b), 200)]), "<svg", f)
		}
		assert.Contains(t, names, "speed-vs-work-build_O0.svg")
		if !equal {
			pair := "O2-O0"
			if strings.Contains(out, "(O2 is faster)") {
				pair = "O0-O2"
			}
			assert.Contains(t, names, "scalability-build-"+pair+".svg")
		} else {
			assert.Regexp(t, `warning: --plots: scalability-build-O[02]-O[02]\.svg is not written: O[02] and O[02] take equal times at the initial state`, res.Stderr)
		}
		assert.True(t, slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, "time-build_O2-01-") }), "%v", names)
	})

	// With one work per process count no speed at p' can bracket
	// another's, so no psi is known: the scalability plot is not written
	// empty, and stderr says which and why; the other plots are written.
	t.Run("plots with nothing bracketed", func(t *testing.T) {
		withChartsHelper(t)
		data, err := os.ReadFile(fx.table)
		require.NoError(t, err)
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		kept := []string{lines[0]}
		for _, l := range lines[1:] {
			if strings.Split(l, "\t")[3] == strconv.Itoa(expWork(expSizes[0])) {
				kept = append(kept, l)
			}
		}
		require.Len(t, kept, 1+len(expBuild)*len(expProcs))
		one := filepath.Join(fx.dir, "one-work.tsv")
		require.NoError(t, os.WriteFile(one, []byte(strings.Join(kept, "\n")+"\n"), 0o666))
		plots := filepath.Join(fx.dir, "plots-one-work")
		res := testenv.RunMain(run, "egprof", "-b", "--experiment="+one, "--compare-dim=build", "--plots="+plots)
		require.Equal(t, 0, res.Code, res.Stderr)
		if strings.Contains(res.Stdout, "equal times, so no crossing point is defined") {
			t.Skip("the builds took equal times at the initial state: no range comparison to plot")
		}
		assert.Regexp(t, `warning: --plots: scalability-build-O[02]-O[02]\.svg is not written: no psi of O[02] or O[02] from p=1, W=1e\+06 is known at any larger p'`, res.Stderr)
		svgs, _ := filepath.Glob(filepath.Join(plots, "scalability-*.svg"))
		assert.Empty(t, svgs, "no empty scalability plot")
		for _, b := range expBuild {
			assert.FileExists(t, filepath.Join(plots, "speed-vs-work-build_"+b+".svg"))
		}
	})

	// Two combinations of the same profiles take equal times at the
	// initial state: there is no slower one and no crossing point, so the
	// scalability plot is not written, and stderr says which and why
	// (as the README's example did, silently, when -O0 and -O2 happened
	// to take 0.120 s each at p=1).
	t.Run("plots with equal initial times", func(t *testing.T) {
		withChartsHelper(t)
		data, err := os.ReadFile(fx.table)
		require.NoError(t, err)
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		kept := []string{lines[0]}
		var copies []string
		for _, l := range lines[1:] {
			if f := strings.Split(l, "\t"); f[2] == "O0" {
				kept = append(kept, l)
				f[2] = "same"
				copies = append(copies, strings.Join(f, "\t"))
			}
		}
		require.Len(t, copies, len(expSizes)*len(expProcs))
		twice := filepath.Join(fx.dir, "twice.tsv")
		require.NoError(t, os.WriteFile(twice, []byte(strings.Join(append(kept, copies...), "\n")+"\n"), 0o666))
		plots := filepath.Join(fx.dir, "plots-equal")
		res := testenv.RunMain(run, "egprof", "-b", "--experiment="+twice, "--compare-dim=build", "--plots="+plots)
		require.Equal(t, 0, res.Code, res.Stderr)
		require.Contains(t, res.Stdout, "equal times, so no crossing point is defined")
		assert.Regexp(t, `(?m)^egprof: warning: --plots: scalability-build-(O0-same|same-O0)\.svg is not written: (O0 and same|same and O0) take equal times at the initial state \(p=1, W=1e\+06: [0-9.]+ s each\), so alpha = 1, neither is the slower and no crossing point is defined$`, res.Stderr)
		svgs, _ := filepath.Glob(filepath.Join(plots, "scalability-*.svg"))
		assert.Empty(t, svgs)
		for _, b := range []string{"O0", "same"} {
			assert.FileExists(t, filepath.Join(plots, "speed-vs-work-build_"+b+".svg"))
		}
	})

	t.Run("runs quick form", func(t *testing.T) {
		files := fx.files["O0"][expWork(expSizes[1])][4]
		res := testenv.RunMain(run, append([]string{"egprof", "-b", "--runs", fx.prog["O0"]}, files...)...)
		require.Equal(t, 0, res.Code, res.Stderr)
		assert.True(t, strings.HasPrefix(res.Stdout, "Statistics over run (PERDAC)\n\n"), res.Stdout)
	})
}

// absIfBuilt skips the test when the test program prog is not built,
// and returns a function making a path absolute.
func absIfBuilt(t *testing.T, prog string) func(string) string {
	t.Helper()
	if _, err := os.Stat(prog); err != nil {
		t.Skip("test programs not built")
	}
	return func(p string) string {
		a, err := filepath.Abs(p)
		require.NoError(t, err)
		return a
	}
}

// TestExperimentErrors checks that bad experiments end with a clear error,
// a non-zero exit and nothing written.
func TestExperimentErrors(t *testing.T) {
	prog, gmon1, gmon2 := "testdata/progs/recursion/prog", "testdata/progs/recursion/gmon.out", "testdata/progs/recursion/gmon2.out"
	abs := absIfBuilt(t, prog)
	dir := t.TempDir()
	made := 0
	table := func(text string) string {
		made++
		path := filepath.Join(dir, strconv.Itoa(made), "exp.csv")
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o777))
		require.NoError(t, os.WriteFile(path, []byte(text), 0o666))
		return path
	}
	plots := filepath.Join(dir, "plots")
	good := fmt.Sprintf("gmon,binary,run\n%s,%s,a\n%s,%s,b\n", abs(gmon1), abs(prog), abs(gmon2), abs(prog))
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"missing gmon", []string{"--experiment=" + table("gmon,binary,run\nnope,"+abs(prog)+",a\n")}, "exp.csv:2: column 1 (gmon): profile " + dir + "/1/nope: no such file or directory"},
		{"no executable", []string{"--experiment=" + table("gmon,run\n"+abs(gmon1)+",a\n")}, "exp.csv:2: executable a.out: no such file or directory"},
		{"duplicate rows", []string{"--experiment=" + table(fmt.Sprintf("gmon,binary,run\n%s,%s,a\n%s,%s,a\n", abs(gmon1), abs(prog), abs(gmon2), abs(prog)))},
			"exp.csv:3: the same dimension values (run=a) as line 2"},
		{"mismatched binary", []string{"--experiment=" + table(fmt.Sprintf("gmon,binary,run\n%s,%s,a\n%s,%s,b\n", abs(gmon1), abs(prog), abs("testdata/progs/cxx/gmon.out"), abs(prog))), "--plots=" + plots},
			"exp.csv:3: column 2 (binary): "},
		{"unknown dimension", []string{"--experiment=" + table(good), "--over=library"}, `no dimension "library"`},
		{"bad threshold", []string{"--experiment=" + table(good), "--threshold=ten"}, "--threshold takes a percentage"},
		{"bad time-of-run", []string{"--experiment=" + table(good), "--time-of-run=min"}, "--time-of-run takes max, sum or mean"},
		{"bad format", []string{"--runs", prog, gmon1, gmon2, "--format=xml"}, "--format takes text, tsv or json"},
		{"no experiment", []string{"--over=run", prog, gmon1}, "--over belongs to an experiment (--experiment or --runs); it has no meaning in gprof's report"},
		{"both", []string{"--runs", "--experiment=" + table(good), prog, gmon1}, "choose one"},
		{"gmon operands", []string{"--experiment=" + table(good), prog, gmon1}, "the profiles come from the table"},
		{"runs with one file", []string{"--runs", prog, gmon1}, "at least two profiles"},
		{"runs with a missing file", []string{"--runs", prog, gmon1, "nope"}, "profile nope: no such file or directory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := testenv.RunMain(run, append([]string{"egprof"}, tc.args...)...)
			assert.Equal(t, 1, res.Code)
			assert.Empty(t, res.Stdout, "nothing is written on error")
			assert.Contains(t, res.Stderr, tc.want)
			assert.NotContains(t, res.Stderr, "panic")
			_, err := os.Stat(plots)
			assert.True(t, os.IsNotExist(err), "no plot directory on error")
		})
	}
}

// The benchmark experiment: 200 runs of 8 ranks each of one synthetic
// 5,000-function executable (1,600 profiles).
const (
	benchExpRuns  = 200
	benchExpRanks = 8
	benchExpFuncs = 5000
	benchExpArcs  = 20000
)

// benchExperiment makes, once (cached in progen.DefaultBenchDir()), the
// benchmark's profiles: noisy copies of one synthetic base profile where a
// few functions also vary with the run and a few with the rank. It returns
// the executable and the experiment table of the first runs runs
// (dimensions run and, from the file names, rank).
func benchExperiment(b *testing.B, runs int) (binary, table string, files []string) {
	b.Helper()
	testenv.Need(b, "gcc")
	base, err := progen.SyntheticProfile(11, benchExpFuncs, benchExpArcs).Build(b.Context(), progen.DefaultBenchDir())
	require.NoError(b, err)
	dir := filepath.Join(progen.DefaultBenchDir(), fmt.Sprintf("experiment-v1-f%d-a%d-r%dx%d", benchExpFuncs, benchExpArcs, benchExpRuns, benchExpRanks))
	if _, err := os.Stat(filepath.Join(dir, "complete")); err != nil {
		require.NoError(b, writeBenchProfiles(base.Binary, base.Gmon, dir))
	}
	var t strings.Builder
	t.WriteString("gmon\trun\n")
	for r := range runs {
		fmt.Fprintf(&t, "run%03d/gmon.rank*.out\t%d\n", r, r)
		for k := range benchExpRanks {
			files = append(files, filepath.Join(dir, fmt.Sprintf("run%03d/gmon.rank%d.out", r, k)))
		}
	}
	table = filepath.Join(dir, fmt.Sprintf("runs-%d.tsv", runs))
	require.NoError(b, atomicfile.Write(table, func(w io.Writer) error { _, err := io.WriteString(w, t.String()); return err }))
	return base.Binary, table, files
}

// writeBenchProfiles writes the benchmark's profiles into a new folder and
// moves it into place when complete.
func writeBenchProfiles(binary, baseGmon, dir string) error {
	tab, err := symtab.Load(binary, symtab.Options{})
	if err != nil {
		return err
	}
	f, err := gmon.ReadFile(baseGmon, tab.Target, gmon.FormatAuto)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	rng := rand.New(rand.NewPCG(3, 5))
	// 2 % of the functions run longer in every fifth run, 2 % on rank 0.
	kind := make([]int, len(tab.Syms))
	for i := range kind {
		switch x := rng.Float64(); {
		case x < 0.02:
			kind[i] = 1
		case x < 0.04:
			kind[i] = 2
		}
	}
	factor := func(pc uint64, run, rank int) float64 {
		i := tab.Lookup(pc)
		switch {
		case i < 0:
		case kind[i] == 1 && run%5 == 0, kind[i] == 2 && rank == 0:
			return 3
		}
		return 1
	}
	for run := range benchExpRuns {
		if err := os.Mkdir(filepath.Join(tmp, fmt.Sprintf("run%03d", run)), 0o777); err != nil {
			return err
		}
		for rank := range benchExpRanks {
			out := &gmon.File{Version: f.Version}
			for _, h := range f.Hists {
				nh := h
				nh.Bins = make([]uint16, len(h.Bins))
				width := float64(h.HighPC-h.LowPC) / float64(max(len(h.Bins), 1))
				for k, v := range h.Bins {
					if v != 0 {
						x := float64(v) * factor(h.LowPC+uint64(width*float64(k)), run, rank) * (0.8 + 0.4*rng.Float64())
						nh.Bins[k] = uint16(min(math.Round(x), math.MaxUint16))
					}
				}
				out.Hists = append(out.Hists, nh)
			}
			for _, a := range f.Arcs {
				a.Count = uint64(math.Round(float64(a.Count) * factor(a.SelfPC, run, rank)))
				out.Arcs = append(out.Arcs, a)
			}
			data, err := gmon.Marshal(out, tab.Target)
			if err != nil {
				return err
			}
			name := filepath.Join(tmp, fmt.Sprintf("run%03d/gmon.rank%d.out", run, rank))
			if err := os.WriteFile(name, data, 0o666); err != nil {
				return err
			}
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, "complete"), nil, 0o666); err != nil {
		return err
	}
	_ = os.RemoveAll(dir) // an incomplete leftover
	return os.Rename(tmp, dir)
}

// measureCommand runs a command and returns its wall time, its processor time
// (user and system) and its peak resident set.
func measureCommand(b *testing.B, dir string, name string, args ...string) (wall, cpu time.Duration, peakMB float64) {
	b.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	start := time.Now()
	require.NoError(b, cmd.Run(), "%s: %s", name, stderr.String())
	wall = time.Since(start)
	cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return wall, cpu, peakKB(cmd.ProcessState) / 1024
}

// BenchmarkExperimentOverRun measures egprof --over=run on 50 and 200 runs
// of 8 ranks of a 5,000-function executable (400 and 1,600 profiles) as a
// separate process: wall time (ns/op), processor time (egprof-cpu-s) and
// peak resident memory (egprof-MB), next to GNU gprof -s summing the same
// files (gprof-s, gprof-cpu-s, gprof-MB). The statistics' memory does not
// grow with the runs.
func BenchmarkExperimentOverRun(b *testing.B) {
	testenv.Need(b, "gprof")
	exe := testenv.EgprofBinary(b)
	for _, runs := range []int{50, benchExpRuns} {
		b.Run(fmt.Sprintf("runs=%d", runs), func(b *testing.B) {
			binary, table, files := benchExperiment(b, runs)
			work := b.TempDir()
			var peak float64
			var cpu time.Duration
			for b.Loop() {
				_, c, mb := measureCommand(b, work, exe, "-b", "--experiment="+table, "--over=run", binary)
				peak, cpu = max(peak, mb), cpu+c
			}
			b.ReportMetric(cpu.Seconds()/float64(b.N), "egprof-cpu-s")
			b.ReportMetric(peak, "egprof-MB")
			gw, gc, gmb := measureCommand(b, work, "gprof", append([]string{"-s", binary}, files...)...)
			b.ReportMetric(gw.Seconds(), "gprof-s")
			b.ReportMetric(gc.Seconds(), "gprof-cpu-s")
			b.ReportMetric(gmb, "gprof-MB")
		})
	}
}

// steadySource is a program that does the same work on every run: six
// functions of decreasing weight, about 1.5 s in all.
const steadySource = `#include <stdio.h>
volatile double sink;
#define WORK(name, n) __attribute__((noinline)) void name(void) { for (long i = 0; i < (n); i++) sink += 1.0; }
WORK(f1, 1000000) WORK(f2, 300000) WORK(f3, 100000) WORK(f4, 30000) WORK(f5, 10000) WORK(f6, 3000)
int main(void)
{
	for (int s = 0; s < 200; s++) {
		f1(); f2(); f3(); f4(); f5(); f6();
	}
	printf("%g\n", sink);
	return 0;
}
`

// TestExperimentSteadyRuns runs one program five times, unchanged, and
// checks that PERDAC's report does not present sampling noise as
// variation. For every function's self seconds, from GNU gprof's flat
// profile of each run, a row is listed by default exactly when its
// population standard deviation is above 10 % of the average and above
// twice the Poisson noise, the root of the mean of v/100 (v seconds are
// 100·v samples at 100 Hz, a count whose variance is 100·v); calls do
// not change, so no calls row is listed. With --show-noise every row
// above the threshold is listed, the noisy ones marked ~.
func TestExperimentSteadyRuns(t *testing.T) {
	testenv.Need(t, "gcc", "gprof")
	if testing.Short() {
		t.Skip("runs a 1.5 s program five times")
	}
	dir := t.TempDir()
	src, prog := filepath.Join(dir, "steady.c"), filepath.Join(dir, "steady")
	require.NoError(t, os.WriteFile(src, []byte(steadySource), 0o666))
	out, err := exec.Command("gcc", "-pg", "-O0", "-o", prog, src).CombinedOutput()
	require.NoError(t, err, "%s", out)
	var files []string
	for i := range 5 {
		cmd := exec.Command(prog)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), fmt.Sprintf("GMON_OUT_PREFIX=%s/run%d", dir, i+1))
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		m, err := filepath.Glob(fmt.Sprintf("%s/run%d.*", dir, i+1))
		require.NoError(t, err)
		require.Len(t, m, 1)
		files = append(files, m[0])
	}
	self := map[string][]float64{}
	for _, f := range files {
		for name, row := range gprofFlat(t, prog, f) {
			self[name] = append(self[name], row.self)
		}
	}
	wantListed, wantNoisy := map[string]bool{}, 0
	for name, vs := range self {
		if len(vs) < len(files) {
			continue // a function without samples in some run: not checked
		}
		mean, ss := 0.0, 0.0
		for _, v := range vs {
			mean += v / float64(len(vs))
		}
		for _, v := range vs {
			ss += (v - mean) * (v - mean)
		}
		stdev := math.Sqrt(ss / float64(len(vs)))
		if mean == 0 || !(100*stdev/mean > 10) {
			continue
		}
		if stdev > 2*math.Sqrt(mean/100) {
			wantListed[name] = true
		} else {
			wantNoisy++
		}
	}

	report := func(args ...string) []map[string]string {
		res := testenv.RunMain(run, append(append([]string{"egprof", "--runs", "--format=tsv"}, args...), append([]string{prog}, files...)...)...)
		require.Equal(t, 0, res.Code, res.Stderr)
		return tsvTables(t, res.Stdout)["perdac"]
	}
	byDefault := report()
	listed := map[string]bool{}
	for _, r := range byDefault {
		assert.NotEqual(t, "calls", r["metric"], "calls do not change between identical runs")
		assert.Equal(t, "false", r["within_noise"])
		if r["metric"] == "self s" {
			listed[r["function"]] = true
		}
	}
	for name := range self {
		if len(self[name]) == len(files) {
			assert.Equal(t, wantListed[name], listed[name], "self s of %s: %v", name, self[name])
		}
	}
	all := report("--show-noise")
	noisy := 0
	for _, r := range all {
		if r["within_noise"] == "true" {
			noisy++
		}
	}
	assert.Equal(t, len(all)-len(byDefault), noisy, "--show-noise adds exactly the rows within noise")
	t.Logf("five identical runs: %d rows listed, %d within sampling noise left out (%d of them self s)", len(byDefault), noisy, wantNoisy)
	assert.Positive(t, noisy, "the small functions' times vary by more than 10 %, by noise alone")

	text := testenv.RunMain(run, append([]string{"egprof", "-b", "--runs", "--show-noise", prog}, files...)...)
	require.Equal(t, 0, text.Code, text.Stderr)
	if noisy > 0 {
		assert.Contains(t, text.Stdout, "~\n", "rows within noise are marked")
	}
}

// TestExperimentRankSummary lists a rank summary in the gmon column: it
// stands for the summed profile of its ranks, as GNU gprof sums their
// files. PERDAC over two rows, the summary of ranks 0 and 1 and rank 0's
// own profile, must find each function's self seconds of `gprof prog
// gmon.out gmon2.out` and of `gprof prog gmon.out` as its extremes. The
// table has no procs or work column, so the report says that SCALA was
// skipped and which options name the columns.
func TestExperimentRankSummary(t *testing.T) {
	testenv.Need(t, "gprof")
	prog, g0, g1 := "testdata/progs/ranks/prog", "testdata/progs/ranks/gmon.out", "testdata/progs/ranks/gmon2.out"
	abs := absIfBuilt(t, prog)
	dir := t.TempDir()
	sum := filepath.Join(dir, "all.sum")
	res := testenv.RunMain(run, "egprof", "--ranks", "-P", "-Q", "--save-summary="+sum, prog, g0, g1)
	require.Equal(t, 0, res.Code, res.Stderr)
	table := filepath.Join(dir, "exp.tsv")
	require.NoError(t, os.WriteFile(table, []byte(fmt.Sprintf("gmon\tbinary\tscope\n%s\t%s\tsummed\n%s\t%s\trank0\n", sum, abs(prog), abs(g0), abs(prog))), 0o666))

	res = testenv.RunMain(run, "egprof", "--experiment="+table, "--threshold=0", "--show-noise", "--format=tsv")
	require.Equal(t, 0, res.Code, res.Stderr)
	rows := tsvTables(t, res.Stdout)["perdac"]
	summed, rank0 := gprofFlat(t, prog, g0, g1), gprofFlat(t, prog, g0)
	checked := 0
	for _, r := range rows {
		if r["metric"] != "self s" {
			continue
		}
		s, ok := summed[r["function"]]
		require.True(t, ok, r["function"])
		o := rank0[r["function"]]
		assert.InDelta(t, min(s.self, o.self), expNum(t, r["min"]), 0.0051, r["function"])
		assert.InDelta(t, max(s.self, o.self), expNum(t, r["max"]), 0.0051, r["function"])
		checked++
	}
	assert.Positive(t, checked)

	res = testenv.RunMain(run, "egprof", "-b", "--experiment="+table)
	require.Equal(t, 0, res.Code, res.Stderr)
	assert.Contains(t, res.Stdout, `SCALA's scalability analysis was skipped: the table has no "procs" column (--procs-dim names it) and no "work" column (--work-dim names it).`)

	res = testenv.RunMain(run, "egprof", "--experiment="+sum)
	assert.Equal(t, 1, res.Code)
	assert.Contains(t, res.Stderr, sum+" is a rank summary, not an experiment table or summary: list it in a table's gmon column")
}

// TestExperimentSaveSummary saves the experiment summaries of two halves
// of an experiment and merges them: the report is the one of the whole
// table, whose self seconds are GNU gprof's for each profile. Two tables
// given together merge the same way.
func TestExperimentSaveSummary(t *testing.T) {
	testenv.Need(t, "gprof")
	prog, g1, g2 := "testdata/progs/recursion/prog", "testdata/progs/recursion/gmon.out", "testdata/progs/recursion/gmon2.out"
	abs := absIfBuilt(t, prog)
	dir := t.TempDir()
	write := func(name string, rows ...string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte("gmon\tbinary\trun\n"+strings.Join(rows, "\n")+"\n"), 0o666))
		return path
	}
	rowA, rowB := abs(g1)+"\t"+abs(prog)+"\ta", abs(g2)+"\t"+abs(prog)+"\tb"
	whole, partA, partB := write("whole.tsv", rowA, rowB), write("a.tsv", rowA), write("b.tsv", rowB)
	egprof := func(extra ...string) string {
		t.Helper()
		res := testenv.RunMain(run, append([]string{"egprof", "--threshold=0", "--show-noise"}, extra...)...)
		require.Equal(t, 0, res.Code, res.Stderr)
		return res.Stdout
	}
	// The text report compares whole (its three decimals hide the last
	// bits, in which merged accumulators may differ from one pass).
	want := egprof("-b", "--experiment="+whole)
	sumA, sumB := filepath.Join(dir, "a.sum"), filepath.Join(dir, "b.sum")
	egprof("--experiment="+partA, "--save-summary="+sumA)
	egprof("--experiment="+partB, "--save-summary="+sumB)
	assert.Equal(t, want, egprof("-b", "--experiment="+sumA, "--experiment="+sumB), "the merged summaries report as the whole table")
	assert.Equal(t, want, egprof("-b", "--experiment="+partA, "--experiment="+partB), "two tables merge the same way")
	got := egprof("--format=tsv", "--experiment="+sumA, "--experiment="+sumB)

	flat1, flat2 := gprofFlat(t, prog, g1), gprofFlat(t, prog, g2)
	checked := 0
	for _, r := range tsvTables(t, got)["perdac"] {
		if r["metric"] == "self s" {
			a, b := flat1[r["function"]].self, flat2[r["function"]].self
			assert.InDelta(t, min(a, b), expNum(t, r["min"]), 0.0051, r["function"])
			assert.InDelta(t, max(a, b), expNum(t, r["max"]), 0.0051, r["function"])
			checked++
		}
	}
	assert.Positive(t, checked)

	res := testenv.RunMain(run, "egprof", "--experiment="+sumA, "--experiment=testdata/experiment/ranks.tsv")
	assert.Equal(t, 1, res.Code)
	assert.Contains(t, res.Stderr, "cannot be merged with "+sumA)
}
