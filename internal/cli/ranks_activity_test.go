package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/testenv"
	"github.com/egprof/egprof/ranks"
)

// rankEntry is one function's entry in gprof's call graph of a rank:
// its self time (with the bound of its rounding) and the calls it makes
// (child lines).
type rankEntry struct {
	self, err float64
	kids      []rankCall
}

// rankCall is a child line: the callee, the calls along the arc and the
// callee's calls from all its callers.
type rankCall struct {
	name         string
	count, total float64
}

// gprofGraph runs gprof -b -q on one profile and reads its call graph
// entries by function name, with the self times of gprof's flat profile
// (rankFlat: ms/call times calls, a closer figure than the call graph's
// 0.01 s).
func gprofGraph(t *testing.T, dir, prog, file string) map[string]*rankEntry {
	t.Helper()
	flat := rankFlat(t, dir, prog, file)
	out := testenv.Output(t, testenv.Gprof(t), dir, "-b", "-q", prog, file)
	parsed, err := testenv.ParseCallGraph(out)
	require.NoError(t, err, out)
	entries := map[string]*rankEntry{}
	for _, e := range parsed {
		if e.WholeCycle {
			continue
		}
		cur := &rankEntry{self: e.Self, err: 0.005}
		if f, ok := flat[e.Name]; ok {
			cur.self, cur.err = f.seconds, f.err
		}
		for _, k := range e.Callees {
			if k.HasTimes && k.HasTotal {
				cur.kids = append(cur.kids, rankCall{name: k.Name, count: float64(k.Count), total: float64(k.Total)})
			}
		}
		entries[e.Name] = cur
	}
	require.NotEmpty(t, entries, out)
	return entries
}

// activityOf is the test's own classification of the program's functions
// (the --activity options below).
func activityOf(name string) string {
	switch {
	case strings.HasPrefix(name, "exchange_"):
		return "point-to-point"
	case strings.HasPrefix(name, "reduce_"):
		return "collective"
	case strings.HasPrefix(name, "wait_"):
		return "synchronisation"
	}
	return ranks.Computation
}

// timeBound is a time worked out from gprof's figures and the bound of
// its error.
type timeBound struct{ v, err float64 }

// regionTimes recomputes, from one rank's gprof figures alone, each
// region's time by activity. With inclusive false: a computation function
// holds its self time, and what each activity function it calls hands
// up, in the share of its calls (count/total on the child line); an
// activity function hands up its self time and what the activity
// functions it calls hand to it. With inclusive true every function hands
// up its self time and everything it receives. The program has no cycles.
func regionTimes(entries map[string]*rankEntry, inclusive bool) map[string]map[string]timeBound {
	passes := func(name string) bool { return inclusive || activityOf(name) != ranks.Computation }
	var held func(name string) map[string]timeBound
	memo := map[string]map[string]timeBound{}
	held = func(name string) map[string]timeBound {
		if v, ok := memo[name]; ok {
			return v
		}
		e := entries[name]
		v := map[string]timeBound{activityOf(name): {e.self, e.err}}
		for _, k := range e.kids {
			if !passes(k.name) {
				continue
			}
			for act, x := range held(k.name) {
				r := k.count / k.total
				v[act] = timeBound{v[act].v + x.v*r, v[act].err + x.err*r}
			}
		}
		memo[name] = v
		return v
	}
	out := map[string]map[string]timeBound{}
	for name := range entries {
		if !passes(name) || inclusive {
			out[name] = held(name)
		}
	}
	return out
}

// TestRankActivitiesAgainstGprof runs testdata/mpi/activities.c as four
// ranks and checks the region x activity times (the paper's Table 6) and
// their indices of dispersion (Table 7) against the same numbers worked
// out from GNU gprof's call graph of each rank (gprofGraph and
// regionTimes), in both --rank-time views, within the rounding of gprof's
// figures carried through the same arithmetic (a few milliseconds; idError
// for the indices).
func TestRankActivitiesAgainstGprof(t *testing.T) {
	testenv.Long(t)
	testenv.Need(t, "gcc", "gprof")
	dir := t.TempDir()
	src, err := filepath.Abs("testdata/mpi/activities.c")
	require.NoError(t, err)
	build := exec.Command("gcc", "-pg", "-O0", "-g", "-falign-functions=16", "-o", "activities", src)
	build.Dir = dir
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	const P = 4
	procs := make([]*exec.Cmd, P)
	for r := range P {
		procs[r] = exec.Command("./activities", strconv.Itoa(r), strconv.Itoa(P))
		procs[r].Dir = dir
		procs[r].Env = append(os.Environ(), fmt.Sprintf("GMON_OUT_PREFIX=gmon.rank%d", r))
		require.NoError(t, procs[r].Start())
	}
	for _, p := range procs {
		require.NoError(t, p.Wait())
	}
	files := make([]string, P)
	for r := range P {
		m, err := filepath.Glob(filepath.Join(dir, fmt.Sprintf("gmon.rank%d.*", r)))
		require.NoError(t, err)
		require.Len(t, m, 1)
		files[r] = filepath.Base(m[0])
	}
	graphs := make([]map[string]*rankEntry, P)
	for r := range P {
		graphs[r] = gprofGraph(t, dir, "activities", files[r])
	}
	acts := []string{"--activity=point-to-point=^exchange_", "--activity=collective=^reduce_", "--activity=synchronisation=^wait_"}
	for _, view := range []string{"self", "inclusive"} {
		t.Run(view, func(t *testing.T) {
			args := append([]string{"--ranks", "-P", "-Q", "--format=json", "--rank-time=" + view}, acts...)
			js, stderr, code := rankInDir(t, dir, append(append(args, "activities"), files...)...)
			require.Zero(t, code, stderr)
			var rep ranks.Report
			require.NoError(t, json.Unmarshal([]byte(js), &rep))
			require.Equal(t, P, rep.P)
			assert.Equal(t, view, rep.Time)

			// Expected t_ijp from gprof, per region and activity.
			perRank := make([]map[string]map[string]timeBound, P)
			for r := range P {
				perRank[r] = regionTimes(graphs[r], view == "inclusive")
			}
			got := map[string]map[string]int{} // region -> activity -> column
			for i, region := range rep.Matrix.Regions {
				got[region] = map[string]int{}
				for j, a := range rep.Matrix.Activities {
					if rep.Matrix.Seconds[i][j] > 0 {
						got[region][a] = j
					}
				}
			}
			checked, maxErr := 0, 0.0
			want := map[string]map[string]cellBound{} // region -> activity -> gprof's figures
			for region := range perRank[0] {
				for _, act := range []string{"computation", "point-to-point", "collective", "synchronisation"} {
					vals, errs := make([]float64, P), make([]float64, P)
					var sum, sumErr float64
					for r := range P {
						x := perRank[r][region][act]
						vals[r], errs[r] = x.v, x.err
						sum += x.v
						sumErr += x.err
					}
					j, ok := got[region][act]
					if sum == 0 {
						assert.False(t, ok, "%s has no %s time in gprof's graphs, egprof gives it some", region, act)
						continue
					}
					require.True(t, ok, "%s: %s missing from egprof's matrix (gprof: %.2f s)", region, act, sum)
					i := slices.Index(rep.Matrix.Regions, region)
					assert.InDelta(t, sum, rep.Matrix.Seconds[i][j], sumErr+1e-9, "t_ij of %s in %s", act, region)
					idv := rep.Matrix.ID[i][j]
					require.True(t, idv.Defined, "%s %s", region, act)
					idBound := rankDispersionBound(vals, errs)
					assert.InDelta(t, rankDispersion(vals), idv.Value, idBound+1e-9, "ID_ij of %s in %s", act, region)
					if want[region] == nil {
						want[region] = map[string]cellBound{}
					}
					want[region][act] = cellBound{sum, sumErr, rankDispersion(vals), idBound}
					maxErr = max(maxErr, sumErr)
					checked++
				}
			}
			t.Logf("%d cells checked; gprof's figures bound t_ij within %.4f s at most", checked, maxErr)
			checkRegionIndices(t, rep, want)
			if view == "self" {
				checkActivityIndices(t, rep, want)
			}
			if view == "self" {
				// step and solve hold the activities of their calls;
				// pack_buffer, called by an activity, keeps its own time;
				// the activity functions hold nothing.
				assert.Contains(t, got["step"], "point-to-point")
				assert.Contains(t, got["step"], "synchronisation")
				assert.Contains(t, got["solve"], "collective")
				assert.Equal(t, map[string]int{"computation": got["pack_buffer"]["computation"]}, got["pack_buffer"])
				assert.NotContains(t, got, "exchange_halo")
				assert.GreaterOrEqual(t, checked, 8)
			} else {
				// main holds everything.
				assert.Len(t, got["main"], 4)
				assert.GreaterOrEqual(t, checked, 14)
			}
		})
	}
}

// cellBound is a region's time in an activity summed over the ranks and
// its index of dispersion, as worked out from gprof's figures, each with
// the bound of its error.
type cellBound struct{ t, tErr, id, idErr float64 }

// weighted averages the indices of cells weighted by their times, with
// the bound of its error: the indices' errors weighted, plus what the
// weights' errors can move (each index is at most 1, and the weights move
// by at most twice the times' error over their total).
func weighted(cells []cellBound) (v, bound float64) {
	var total, totalErr float64
	for _, c := range cells {
		total += c.t
		totalErr += c.tErr
	}
	for _, c := range cells {
		v += c.t / total * c.id
		bound += c.t / total * c.idErr
	}
	return v, bound + 2*totalErr/(total-totalErr)
}

// checkRegionIndices holds each region's ID_C (the paper's ID_C_i, over
// all the activities the region performs) and SID_C to the same indices
// computed from gprof's figures.
func checkRegionIndices(t *testing.T, rep ranks.Report, want map[string]map[string]cellBound) {
	t.Helper()
	total := rep.TotalSeconds
	checked := 0
	for _, row := range rep.Regions {
		acts, ok := want[row.Name]
		if !ok {
			continue
		}
		var cells []cellBound
		var ti, tiErr float64
		for _, c := range acts {
			cells = append(cells, c)
			ti += c.t
			tiErr += c.tErr
		}
		idc, bound := weighted(cells)
		require.True(t, row.ID.Defined, row.Name)
		assert.InDelta(t, idc, row.ID.Value, bound+1e-9, "ID_C of %s", row.Name)
		assert.InDelta(t, ti, row.Seconds, tiErr+1e-9, "t_i of %s", row.Name)
		// SID_C = t_i/T·ID_C; T is the profile's total, which every view
		// shares (regions may overlap in the inclusive view).
		assert.InDelta(t, ti/total*idc, row.SID.Value, (tiErr/total)+bound*ti/total+1e-9, "SID_C of %s", row.Name)
		checked++
	}
	assert.GreaterOrEqual(t, checked, 4)
}

// checkActivityIndices holds each activity's time, ID_A (the ID_ij
// weighted by the regions' time in the activity) and its heaviest and
// lightest region to those worked out from gprof's figures (a region is
// only asserted heaviest or lightest when gprof's rounding cannot swap
// it with another).
func checkActivityIndices(t *testing.T, rep ranks.Report, want map[string]map[string]cellBound) {
	t.Helper()
	var total, totalErr float64 // every sample once: the profile's total
	for _, acts := range want {
		for _, c := range acts {
			total += c.t
			totalErr += c.tErr
		}
	}
	assert.InDelta(t, total, rep.TotalSeconds, totalErr+1e-9, "the total time, which SID_C and SID_A divide by")
	for _, a := range rep.Activities {
		var cells []cellBound
		var regions []string
		var tj, tjErr float64
		for region, acts := range want {
			if c, ok := acts[a.Name]; ok {
				cells = append(cells, c)
				regions = append(regions, region)
				tj += c.t
				tjErr += c.tErr
			}
		}
		require.NotEmpty(t, cells, a.Name)
		assert.InDelta(t, tj, a.Seconds, tjErr+1e-9, "T_j of %s", a.Name)
		ida, bound := weighted(cells)
		assert.InDelta(t, ida, a.ID.Value, bound+1e-9, "ID_A of %s", a.Name)
		heavy, light := 0, 0
		for k, c := range cells {
			if c.t > cells[heavy].t {
				heavy = k
			}
			if c.t < cells[light].t {
				light = k
			}
		}
		clear := func(k int, sign float64) bool {
			for m, c := range cells {
				if m != k && sign*(cells[k].t-c.t) <= cells[k].tErr+c.tErr {
					return false
				}
			}
			return true
		}
		if clear(heavy, 1) {
			assert.Equal(t, regions[heavy], a.Heaviest, "heaviest region of %s", a.Name)
		}
		if clear(light, -1) {
			assert.Equal(t, regions[light], a.Lightest, "lightest region of %s", a.Name)
		}
	}
}
