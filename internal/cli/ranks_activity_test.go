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
					assert.InDelta(t, rankDispersion(vals), idv.Value, rankDispersionBound(vals, errs)+1e-9, "ID_ij of %s in %s", act, region)
					maxErr = max(maxErr, sumErr)
					checked++
				}
			}
			t.Logf("%d cells checked; gprof's figures bound t_ij within %.4f s at most", checked, maxErr)
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
