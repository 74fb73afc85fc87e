package cli

import (
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/testenv"
)

// gprofEntry is one entry of GNU gprof's call graph, with the names on
// its parent and child lines.
type gprofEntry struct {
	self, children   float64
	callers, callees []string
}

// gprofCallGraph runs GNU gprof -b -q --no-demangle (with extra options)
// and reads its entries by name; cycles as a whole are left out.
func gprofCallGraph(t *testing.T, prog, gmon string, extra ...string) map[string]*gprofEntry {
	t.Helper()
	args := append(append([]string{"-b", "-q", "--no-demangle"}, extra...), prog, gmon)
	out := testenv.Output(t, testenv.Gprof(t), "", args...)
	parsed, err := testenv.ParseCallGraph(out)
	require.NoError(t, err, out)
	names := func(lines []testenv.CallGraphLine) []string {
		var n []string
		for _, l := range lines {
			n = append(n, l.Name)
		}
		return n
	}
	entries := map[string]*gprofEntry{}
	for _, e := range parsed {
		if !e.WholeCycle {
			entries[e.Name] = &gprofEntry{e.Self, e.Children, names(e.Callers), names(e.Callees)}
		}
	}
	require.NotEmpty(t, entries, out)
	return entries
}

// gmlGraph is what a GML file of egprof holds, read with a small reader of
// its own: nodes by raw symbol with their attributes, and edges.
type gmlGraph struct {
	nodes map[string]map[string]string // symbol -> attribute -> value
	edges [][2]string                  // symbols
	paths int                          // edges that stand for elided paths
}

func readGML(t *testing.T, path string) gmlGraph {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	g := gmlGraph{nodes: map[string]map[string]string{}}
	byID := map[string]string{}
	var block map[string]string
	kind := ""
	for _, line := range strings.Split(string(data), "\n") {
		switch line {
		case "  node [", "  edge [":
			kind, block = strings.TrimSpace(strings.TrimSuffix(line, " [")), map[string]string{}
			continue
		case "  ]":
			switch kind {
			case "node":
				sym := strings.Trim(block["symbol"], `"`)
				g.nodes[sym] = block
				byID[block["id"]] = sym
			case "edge":
				g.edges = append(g.edges, [2]string{byID[block["source"]], byID[block["target"]]})
				if block["elided"] == "1" {
					g.paths++
				}
			}
			kind = ""
			continue
		}
		if kind != "" && strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, "     ") {
			k, v, _ := strings.Cut(strings.TrimSpace(line), " ")
			block[k] = v
		}
	}
	return g
}

// graphGML runs egprof with a GML file and reads it.
func graphGML(t *testing.T, args ...string) gmlGraph {
	t.Helper()
	path := filepath.Join(t.TempDir(), "g.gml")
	_, stderr, code := runArgs(t, append([]string{"-b", "-P", "-Q", "--gml=" + path}, args...)...)
	require.Equal(t, 0, code, stderr)
	return readGML(t, path)
}

// checkPruned checks the functions a pruned differential graph keeps
// against GNU gprof's numbers of the two sides (at 100 Hz, two decimals):
// every function whose self or inclusive time changed by at least 0.5 %
// of the sum of the |self deltas|, beyond two standard errors of noise, is
// drawn, and every drawn function but the roots that connect them passes.
// Self seconds are whole samples, so gprof prints them exactly; inclusive
// seconds hold shares of samples, rounded: a function whose inclusive
// change is within a hundredth of a second of a limit is not judged.
func checkPruned(t *testing.T, g gmlGraph, plus, minus map[string]*gprofEntry) {
	t.Helper()
	names := map[string]bool{}
	total := 0.0
	for n, e := range plus {
		names[n] = true
		total += math.Abs(e.self - selfOf(minus, n))
	}
	for n, e := range minus {
		if !names[n] {
			names[n] = true
			total += e.self
		}
	}
	limit := 0.005 * total
	const selfSlack, inclSlack = 1e-9, 0.0101
	var kept, left int // functions judged either way
	defer func() { t.Logf("%d drawn and %d left out as GNU gprof's numbers say, of %d", kept, left, len(names)) }()
	for n := range names {
		p, m := plus[n], minus[n]
		dSelf, dIncl := selfOf(plus, n)-selfOf(minus, n), inclOf(p)-inclOf(m)
		seSelf := math.Sqrt((selfOf(plus, n) + selfOf(minus, n)) / 100)
		seIncl := math.Sqrt((inclOf(p) + inclOf(m)) / 100)
		// The noise of an inclusive change: its rounding moves the
		// standard error by at most sqrt(0.01/100) = 0.01 s.
		clearly := math.Abs(dSelf) > limit+selfSlack && math.Abs(dSelf) > 2*seSelf+selfSlack ||
			math.Abs(dIncl) > limit+inclSlack && math.Abs(dIncl) > 2*seIncl+3*inclSlack
		clearlyNot := (math.Abs(dSelf) < limit-selfSlack || math.Abs(dSelf) < 2*seSelf-selfSlack || dSelf == 0) &&
			(math.Abs(dIncl) < limit-inclSlack || math.Abs(dIncl) < 2*seIncl-3*inclSlack || dIncl == 0)
		node, drawn := g.nodes[n]
		switch {
		case clearly:
			assert.True(t, drawn, "%s changed by %.2f s self, %.2f s inclusive (limit %.3f s) but is not drawn", n, dSelf, dIncl, limit)
			kept++
		case clearlyNot && drawn:
			assert.Equal(t, "1", node["connector"], "%s changed by %.2f s self, %.2f s inclusive (limit %.3f s) but is drawn", n, dSelf, dIncl, limit)
		case clearlyNot:
			left++
		}
	}
}

func selfOf(m map[string]*gprofEntry, n string) float64 {
	if e, ok := m[n]; ok {
		return e.self
	}
	return 0
}

func inclOf(e *gprofEntry) float64 {
	if e == nil {
		return 0
	}
	return e.self + e.children
}

// TestGraphPruningOnRealPairs draws the differential call graphs of real
// pairs (-O0 against -O2 of a C++ and a C program, two workloads of one
// executable) with the default thresholds and checks the functions drawn
// against GNU gprof's numbers of each side.
func TestGraphPruningOnRealPairs(t *testing.T) {
	testenv.Need(t, "gprof")
	d := "testdata/progs/"
	pairs := []struct{ name, plusProg, plusGmon, minusProg, minusGmon string }{
		{"C++ -O0 against -O2", d + "cxx/prog", d + "cxx/gmon.out", d + "cxx-O2/prog", d + "cxx-O2/gmon.out"},
		{"C -O0 against -O2", d + "recursion/prog", d + "recursion/gmon.out", d + "recursion-O2/prog", d + "recursion-O2/gmon.out"},
		{"C++ two workloads", d + "cxx/prog", d + "cxx/gmon.out", d + "cxx/prog", d + "cxx/gmon2.out"},
		{"C two workloads", d + "cycles/prog", d + "cycles/gmon.out", d + "cycles/prog", d + "cycles/gmon2.out"},
	}
	for _, pr := range pairs {
		t.Run(pr.name, func(t *testing.T) {
			checkPairGraph(t, pr.plusProg, pr.plusGmon, pr.minusProg, pr.minusGmon)
		})
	}
}

// checkPairGraph draws the pruned differential graph of a pair and checks
// it (see checkPruned); minusProg may be plusProg.
func checkPairGraph(t *testing.T, plusProg, plusGmon, minusProg, minusGmon string) {
	t.Helper()
	args := []string{plusProg, plusGmon, "--diff=" + minusGmon}
	if minusProg != plusProg {
		args = append(args, "--diff-exe="+minusProg)
	}
	g := graphGML(t, args...)
	plus, minus := gprofCallGraph(t, plusProg, plusGmon), gprofCallGraph(t, minusProg, minusGmon)
	checkPruned(t, g, plus, minus)
	// Everything drawn joins drawn functions.
	for _, e := range g.edges {
		assert.NotEmpty(t, e[0])
		assert.NotEmpty(t, e[1])
	}
}

// TestGraphPruningSingle checks a single profile's graph: the functions
// whose inclusive time (GNU gprof's self + children) is at least 0.5 % of
// the total are drawn, and no other but the roots that connect them.
func TestGraphPruningSingle(t *testing.T) {
	testenv.Need(t, "gprof")
	for _, prog := range []string{"cxx", "recursion", "cycles", "callbacks"} {
		t.Run(prog, func(t *testing.T) {
			exe, gmon := "testdata/progs/"+prog+"/prog", "testdata/progs/"+prog+"/gmon.out"
			g := graphGML(t, exe, gmon)
			entries := gprofCallGraph(t, exe, gmon)
			total := 0.0
			for _, e := range entries {
				total += e.self
			}
			limit := 0.005 * total
			for n, e := range entries {
				incl := e.self + e.children
				node, drawn := g.nodes[n]
				switch {
				case incl > limit+0.0101:
					assert.True(t, drawn, "%s: %.2f s inclusive, limit %.3f s", n, incl, limit)
				case incl < limit-0.0101 && drawn:
					assert.Equal(t, "1", node["connector"], "%s: %.2f s inclusive, limit %.3f s", n, incl, limit)
				}
			}
		})
	}
}

// reach returns the names reachable from start along next (start
// included).
func reach(start []string, next func(string) []string) map[string]bool {
	seen := map[string]bool{}
	queue := append([]string(nil), start...)
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if seen[n] {
			continue
		}
		seen[n] = true
		queue = append(queue, next(n)...)
	}
	return seen
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestGraphFocusAndSymspecs checks --focus against the callers and callees
// GNU gprof's call graph lists, and -q/-Q against the entries gprof's call
// graph prints with the same symspec (all thresholds off, so that the
// restriction alone decides).
func TestGraphFocusAndSymspecs(t *testing.T) {
	testenv.Need(t, "gprof")
	const exe, gmon = "testdata/progs/recursion/prog", "testdata/progs/recursion/gmon.out"
	all := []string{"--node-thres=0", "--edge-thres=0", exe, gmon}
	entries := gprofCallGraph(t, exe, gmon)
	for _, focus := range []string{"hanoi", "is_odd", "main"} {
		t.Run("--focus="+focus, func(t *testing.T) {
			up := reach([]string{focus}, func(n string) []string { return entries[n].callers })
			down := reach([]string{focus}, func(n string) []string { return entries[n].callees })
			want := map[string]bool{}
			for n := range up {
				want[n] = true
			}
			for n := range down {
				want[n] = true
			}
			delete(want, "<spontaneous>")
			g := graphGML(t, append([]string{"--focus=" + focus}, all...)...)
			assert.Equal(t, sortedKeys(want), sortedKeys(g.nodes))
		})
	}
	for _, spec := range []string{"-Qfib", "-qhanoi", "-Qis_even"} {
		t.Run(spec, func(t *testing.T) {
			want := gprofCallGraph(t, exe, gmon, spec)
			g := graphGML(t, append([]string{spec}, all...)...)
			assert.Equal(t, sortedKeys(want), sortedKeys(g.nodes))
		})
	}
	// C++: a demangled name, with or without its parameters.
	const cxx, cxxGmon = "testdata/progs/cxx/prog", "testdata/progs/cxx/gmon.out"
	for _, focus := range []string{"stats::Histogram::add", "stats::Histogram::add(double)", "_ZN5stats9Histogram3addEd"} {
		g := graphGML(t, "--focus="+focus, cxx, cxxGmon)
		assert.Contains(t, g.nodes, "_ZN5stats9Histogram3addEd", focus)
		assert.Contains(t, g.nodes, "main", focus)
	}
	_, stderr, code := runArgs(t, "-b", "--focus=no_such_function", "--gml=/dev/null", exe, gmon)
	assert.Equal(t, 1, code)
	assert.Equal(t, "egprof: --focus=no_such_function matches no function of the profile\n", stderr)
	_, stderr, code = runArgs(t, "-b", "--focus=main", exe, gmon)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "--focus chooses what graph files keep")
}
