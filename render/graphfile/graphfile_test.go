package graphfile

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/internal/testprof"
	"github.com/egprof/egprof/symtab"

	"github.com/egprof/egprof/internal/testenv"
)

// graphLoad builds the call graph of a test program's profile.
func graphLoad(t *testing.T, dir, gmonName string) *callgraph.Graph {
	t.Helper()
	return testprof.Graph(t, filepath.Join(dir, "prog"), filepath.Join(dir, gmonName))
}

// graphCase is one picture the tests draw.
type graphCase struct {
	name string
	p    *diff.Profile
	opt  Options
}

// graphPrograms lists the directories of the test programs with two runs.
func graphPrograms(t *testing.T) []string {
	t.Helper()
	var dirs []string
	for _, d := range testenv.Programs(t) {
		if _, err := os.Stat(filepath.Join(d, "gmon2.out")); err == nil {
			dirs = append(dirs, d)
		}
	}
	require.Greater(t, len(dirs), 5, "test programs missing")
	return dirs
}

// graphCases are the real profiles drawn: each program's first run alone,
// its two runs subtracted (whole and pruned to 5 functions), and pairs of
// builds of one source subtracted.
func graphCases(t *testing.T) []graphCase {
	t.Helper()
	var cases []graphCase
	for _, dir := range graphPrograms(t) {
		name := filepath.Base(dir)
		g1, g2 := graphLoad(t, dir, "gmon.out"), graphLoad(t, dir, "gmon2.out")
		d := diff.Subtract(g1, g2, diff.Options{})
		cases = append(cases,
			graphCase{name + "/single", diff.Single(g1, diff.Options{}), Options{Naming: symtab.Naming{Demangle: true}, PlusName: "gmon.out"}},
			graphCase{name + "/diff", d, Options{Naming: symtab.Naming{Demangle: true}, PlusName: "gmon.out", MinusName: "gmon2.out"}},
			graphCase{name + "/diff-top5", d, Options{Naming: symtab.Naming{Demangle: true}, Select: diff.GraphOptions{Top: 5}}},
			graphCase{name + "/diff-raw-nonoise", d, Options{Select: diff.GraphOptions{NoiseOff: true}}},
		)
	}
	for _, pair := range [][2]string{{"cxx", "cxx-O2"}, {"recursion", "recursion-O2"}, {"multifile", "multifile-nopie"}} {
		a := graphLoad(t, "../../testdata/progs/"+pair[0], "gmon.out")
		b := graphLoad(t, "../../testdata/progs/"+pair[1], "gmon.out")
		cases = append(cases, graphCase{pair[0] + "-vs-" + pair[1], diff.Subtract(a, b, diff.Options{}), Options{Naming: symtab.Naming{Demangle: true}}})
	}
	return cases
}

// graphSynthetic is a differential profile of n functions and m random
// arcs, the size of the large benchmark.
func graphSynthetic(n, m int) *diff.Profile {
	r := rand.New(rand.NewPCG(7, 11))
	p := &diff.Profile{Plus: &callgraph.Graph{HZ: 100}, Minus: &callgraph.Graph{HZ: 100}}
	for i := range n {
		side := func() diff.Side {
			s := float64(r.IntN(400))
			return diff.Side{Present: true, Entry: i, Samples: s, Self: s / 100, PropSelf: s / 100,
				Children: float64(r.IntN(1000)) / 100, Calls: uint64(r.IntN(1000))}
		}
		p.Functions = append(p.Functions, diff.Function{Name: fmt.Sprintf("fn_%d", i), Plus: side(), Minus: side()})
	}
	for range m {
		p.Arcs = append(p.Arcs, diff.Arc{Parent: r.IntN(n), Child: r.IntN(n),
			Plus:  diff.ArcSide{Present: true, Count: uint64(r.IntN(100))},
			Minus: diff.ArcSide{Present: true, Count: uint64(r.IntN(100))}})
	}
	return p
}

var (
	dotNodeLine = regexp.MustCompile(`(?m)^  n(\d+) \[(.*)\];$`)
	dotEdgeLine = regexp.MustCompile(`(?m)^  n(\d+) -> n(\d+) \[(.*)\];$`)
	gmlNodeLine = regexp.MustCompile(`(?m)^  node \[$`)
	gmlEdgeLine = regexp.MustCompile(`(?m)^  edge \[$`)
)

// expectedEdges returns the kept arcs and elided paths as (caller, callee)
// display names.
func expectedEdges(p *diff.Profile, sel diff.GraphSelection, names []string) [][2]string {
	var es [][2]string
	for _, ai := range sel.Arcs {
		es = append(es, [2]string{names[p.Arcs[ai].Parent], names[p.Arcs[ai].Child]})
	}
	for _, path := range sel.Paths {
		es = append(es, [2]string{names[path.From], names[path.To]})
	}
	sortPairs(es)
	return es
}

func sortPairs(es [][2]string) {
	sort.Slice(es, func(i, j int) bool {
		if es[i][0] != es[j][0] {
			return es[i][0] < es[j][0]
		}
		return es[i][1] < es[j][1]
	})
}

func TestGraphGMLAndDOTStructure(t *testing.T) {
	cases := append(graphCases(t), graphCase{"synthetic-20000", graphSynthetic(20000, 100000), Options{}})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sel := tc.p.SelectGraph(tc.opt.Select)
			if top := tc.opt.Select.Top; top > 0 && len(tc.p.Functions) > top {
				require.Len(t, sel.Nodes, top+len(sel.Connectors))
			}
			var gml, dot bytes.Buffer
			require.NoError(t, WriteGML(&gml, tc.p, tc.opt))
			require.NoError(t, WriteDOT(&dot, tc.p, tc.opt))

			g := gml.String()
			assert.Len(t, gmlNodeLine.FindAllString(g, -1), len(sel.Nodes))
			assert.Len(t, gmlEdgeLine.FindAllString(g, -1), len(sel.Arcs)+len(sel.Paths))
			assert.Equal(t, len(sel.Paths), strings.Count(g, "    elided 1\n"))
			assert.Equal(t, strings.Count(g, "["), strings.Count(g, "]"), "brackets balance")
			assert.Contains(t, g, fmt.Sprintf("prunedNodes %d\n", sel.PrunedNodes))
			assert.Contains(t, g, fmt.Sprintf("prunedEdges %d\n", sel.PrunedArcs))

			d := dot.String()
			first, _, _ := strings.Cut(d, "\n")
			assert.True(t, strings.HasPrefix(first, "// egprof "), first)
			nodes := dotNodeLine.FindAllStringSubmatch(d, -1)
			assert.Len(t, nodes, len(sel.Nodes))
			assert.Len(t, dotEdgeLine.FindAllStringSubmatch(d, -1), len(sel.Arcs)+len(sel.Paths))
			assert.Equal(t, len(sel.Paths), strings.Count(d, ", style=dashed];\n"))
			if sel.PrunedNodes > 0 || sel.PrunedArcs > 0 {
				note := fmt.Sprintf("%d functions and %d arcs left out", sel.PrunedNodes, sel.PrunedArcs)
				assert.Contains(t, first, note)
				assert.Contains(t, d, "label=<<table") // the legend says it too
				assert.Equal(t, 2, strings.Count(d, note))
			} else {
				assert.Contains(t, first, fmt.Sprintf("all %d functions and %d arcs shown", len(tc.p.Functions), len(tc.p.Arcs)))
			}
			// Every kept function's short name starts a node label (no
			// two alike), and its full name starts the tooltip.
			names := graphNames(tc.p, tc.opt.Naming)
			var full []string
			for _, i := range sel.Nodes {
				full = append(full, names[i])
			}
			boxes := symtab.BoxNames(full)
			seen := map[string]bool{}
			for _, b := range boxes {
				assert.False(t, seen[b], "two boxes read %q", b)
				seen[b] = true
			}
			for k, m := range nodes {
				i := sel.Nodes[k]
				want := names[i]
				if tc.opt.Naming.Demangle {
					assert.True(t, strings.HasPrefix(want, symtab.Demangle(tc.p.Functions[i].Name, symtab.StyleAuto)))
				}
				prefix := "label=" + strings.TrimSuffix(dotString(dotName(boxes[k])), `"`) + `\n`
				assert.True(t, strings.HasPrefix(m[2], prefix), "node %d: %s", k, m[2])
				assert.Contains(t, m[2], "tooltip="+strings.TrimSuffix(dotString(want), `"`), "node %d", k)
			}
		})
	}
}

// networkxPython returns a Python that can import networkx, or "".
func networkxPython() string {
	cands := []string{"python3", "/usr/bin/python3"}
	for _, c := range cands {
		if path, err := exec.LookPath(c); err == nil {
			if exec.Command(path, "-c", "import networkx").Run() == nil {
				return path
			}
		}
	}
	return ""
}

// readGMLScript reads GML files with networkx and prints, per file, what
// the graph holds.
const readGMLScript = `
import json, sys
import networkx as nx
out = {}
for path in sys.argv[1:]:
    g = nx.read_gml(path)
    keys = ("selfDelta", "totalDelta", "selfTime", "totalTime", "symbol", "noise")
    out[path] = {
        "directed": g.is_directed(),
        "nodes": {n: {k: d[k] for k in keys if k in d} for n, d in g.nodes(data=True)},
        "edges": [[u, v, d.get("label"), d.get("countDelta"), d.get("count")] for u, v, d in g.edges(data=True)],
        "graph": {k: g.graph.get(k) for k in ("prunedNodes", "prunedEdges", "comment")},
    }
json.dump(out, sys.stdout)
`

type nxGraph struct {
	Directed bool                       `json:"directed"`
	Nodes    map[string]map[string]any  `json:"nodes"`
	Edges    [][5]any                   `json:"edges"`
	Graph    map[string]json.RawMessage `json:"graph"`
}

// TestGraphGMLNetworkx reads every GML file with networkx (Debian's
// python3-networkx) and checks it holds the model: the kept functions by
// name, their deltas to the last bit, the arcs with their count deltas,
// and what was pruned.
func TestGraphGMLNetworkx(t *testing.T) {
	py := networkxPython()
	if py == "" {
		t.Skip("networkx not installed (apt-get install python3-networkx)")
	}
	cases := append(graphCases(t), graphCase{"synthetic-top200", graphSynthetic(20000, 100000), Options{Select: diff.GraphOptions{Top: DefaultImageTop}}})
	dir := t.TempDir()
	var files []string
	for k, tc := range cases {
		var gml bytes.Buffer
		require.NoError(t, WriteGML(&gml, tc.p, tc.opt))
		path := filepath.Join(dir, fmt.Sprintf("g%d.gml", k))
		require.NoError(t, os.WriteFile(path, gml.Bytes(), 0o644))
		files = append(files, path)
	}
	cmd := exec.Command(py, append([]string{"-c", readGMLScript}, files...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	var read map[string]nxGraph
	require.NoError(t, json.Unmarshal(out, &read))
	for k, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, ok := read[files[k]]
			require.True(t, ok)
			p, sel := tc.p, tc.p.SelectGraph(tc.opt.Select)
			names := graphNames(p, tc.opt.Naming)
			assert.True(t, g.Directed)
			require.Len(t, g.Nodes, len(sel.Nodes))
			for _, i := range sel.Nodes {
				n, ok := g.Nodes[names[i]]
				require.True(t, ok, "node %q missing", names[i])
				assert.Equal(t, p.Functions[i].Name, n["symbol"])
				if p.IsDiff() {
					assert.Equal(t, p.Functions[i].SelfDelta(), n["selfDelta"], names[i])
					assert.Equal(t, p.Functions[i].TotalDelta(), n["totalDelta"], names[i])
				} else {
					assert.Equal(t, p.Functions[i].Plus.Self, n["selfTime"], names[i])
					assert.Equal(t, p.Functions[i].Plus.Total(), n["totalTime"], names[i])
				}
			}
			var got [][2]string
			for _, e := range g.Edges {
				got = append(got, [2]string{e[0].(string), e[1].(string)})
			}
			sortPairs(got)
			assert.Equal(t, expectedEdges(p, sel, names), got)
			// Count deltas, by edge.
			want := map[[2]string]int64{}
			for _, ai := range sel.Arcs {
				a := &p.Arcs[ai]
				v := int64(a.Plus.Count)
				if p.IsDiff() {
					v = a.CountDelta()
				}
				want[[2]string{names[a.Parent], names[a.Child]}] = v
			}
			for _, e := range g.Edges {
				v := e[4]
				if p.IsDiff() {
					v = e[3]
				}
				if w, ok := want[[2]string{e[0].(string), e[1].(string)}]; ok {
					assert.EqualValues(t, w, v)
				} else {
					assert.Nil(t, v, "an elided path has no count") // a path
					assert.True(t, strings.HasPrefix(e[2].(string), "via "), e[2])
				}
			}
			assert.JSONEq(t, fmt.Sprint(sel.PrunedNodes), string(g.Graph["prunedNodes"]))
			assert.JSONEq(t, fmt.Sprint(sel.PrunedArcs), string(g.Graph["prunedEdges"]))
		})
	}
}

// buildGraphviz builds the egprof-graphviz command, which renders DOT as
// SVG or PNG, into a temporary directory and returns its path.
func buildGraphviz(t *testing.T) string {
	t.Helper()
	return testenv.GoBinary(t, "github.com/egprof/egprof/cmd/egprof-graphviz")
}

// renderDOT writes the DOT of p and renders it with the egprof-graphviz
// command tool in format ("svg" or "png").
func renderDOT(t *testing.T, tool, format string, p *diff.Profile, opt Options) []byte {
	t.Helper()
	var dot bytes.Buffer
	require.NoError(t, WriteDOT(&dot, p, opt))
	cmd := exec.Command(tool, "-T", format)
	cmd.Stdin = &dot
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	return out
}

// svgSummary reads an SVG with encoding/xml, failing on any XML error, and
// returns the titles of its node and edge groups and all its text.
func svgSummary(t *testing.T, r io.Reader) (nodes, edges []string, text string) {
	t.Helper()
	dec := xml.NewDecoder(r)
	var stack []string // class of each open element
	var b strings.Builder
	inTitle := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err, "SVG is not well-formed XML")
		switch tk := tok.(type) {
		case xml.StartElement:
			class := ""
			for _, a := range tk.Attr {
				if a.Name.Local == "class" {
					class = a.Value
				}
			}
			stack = append(stack, class)
			inTitle = tk.Name.Local == "title" && len(stack) >= 2 && (stack[len(stack)-2] == "node" || stack[len(stack)-2] == "edge")
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			inTitle = false
		case xml.CharData:
			if inTitle {
				switch stack[len(stack)-2] {
				case "node":
					nodes = append(nodes, string(tk))
				case "edge":
					edges = append(edges, string(tk))
				}
			}
			b.Write(tk)
			b.WriteByte(' ')
		}
	}
	return nodes, edges, b.String()
}

// TestGraphSVG renders every DOT as SVG through egprof-graphviz (so with
// go-graphviz) and checks the SVG is well-formed with one node group per
// kept function and one edge group per kept arc, and that its legend says
// what was pruned.
func TestGraphSVG(t *testing.T) {
	tool := buildGraphviz(t)
	cases := append(graphCases(t), graphCase{"synthetic-top200", graphSynthetic(20000, 100000), Options{Select: diff.GraphOptions{Top: DefaultImageTop}}})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			svg := renderDOT(t, tool, "svg", tc.p, tc.opt)
			nodes, edges, text := svgSummary(t, bytes.NewReader(svg))
			sel := tc.p.SelectGraph(tc.opt.Select)
			require.Len(t, nodes, len(sel.Nodes))
			for k := range sel.Nodes {
				assert.Contains(t, nodes, fmt.Sprintf("n%d", k))
			}
			assert.Len(t, edges, len(sel.Arcs)+len(sel.Paths))
			if sel.PrunedNodes > 0 || sel.PrunedArcs > 0 {
				assert.Contains(t, text, fmt.Sprintf("%d functions and %d arcs left out", sel.PrunedNodes, sel.PrunedArcs))
			} else {
				assert.Contains(t, text, fmt.Sprintf("all %d functions", len(tc.p.Functions)))
			}
			if tc.p.IsDiff() {
				assert.Contains(t, text, "delta = '+' minus '-'")
			}
		})
	}
}

// countColor counts the pixels of exactly colour c (0xRRGGBB).
func countColor(img image.Image, c int) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if int(r>>8)<<16|int(g>>8)<<8|int(bl>>8) == c {
				n++
			}
		}
	}
	return n
}

// TestGraphPNG renders pictures of real profiles and checks they decode
// and show the colours the legend promises.
func TestGraphPNG(t *testing.T) {
	tool := buildGraphviz(t)
	cycles := "../../testdata/progs/cycles"
	g1, g2 := graphLoad(t, cycles, "gmon.out"), graphLoad(t, cycles, "gmon2.out")
	d := diff.Subtract(g1, g2, diff.Options{})
	draw := func(t *testing.T, p *diff.Profile, opt Options) image.Image {
		t.Helper()
		img, err := png.Decode(bytes.NewReader(renderDOT(t, tool, "png", p, opt)))
		require.NoError(t, err)
		assert.Greater(t, img.Bounds().Dx(), 300)
		assert.Greater(t, img.Bounds().Dy(), 200)
		return img
	}
	// In cycles, burn has the largest self delta, -0.11 s ('+' has
	// less), and its box is the largest (about 40,000 pixels); every self
	// delta is within two standard errors.
	const box = 20000
	greyed := draw(t, d, Options{})
	plain := draw(t, d, Options{Select: diff.GraphOptions{NoiseOff: true}})
	assert.Greater(t, countColor(greyed, rgbSameFill), 3*box, "all nodes grey")
	assert.Greater(t, countColor(plain, rgbLess)-countColor(greyed, rgbLess), box, "burn blue without the noise check")

	single := draw(t, diff.Single(g1, diff.Options{}), Options{})
	assert.Greater(t, countColor(single, rgbHeat), box, "burn in full orange")
	assert.Zero(t, countColor(single, rgbMore)+countColor(single, rgbLess), "no red or blue in a single profile")

	synth := draw(t, graphSynthetic(20000, 100000), Options{Select: diff.GraphOptions{Top: 60}})
	assert.Greater(t, countColor(synth, rgbMore), 2000)
	assert.Greater(t, countColor(synth, rgbLess), 2000)
}

// colourProfile is a hand-made differential profile with one function
// for every colour of the scheme.
func colourProfile() *diff.Profile {
	g := &callgraph.Graph{HZ: 100}
	side := func(self, children float64) diff.Side {
		return diff.Side{Present: true, Samples: self * 100, Self: self, PropSelf: self, Children: children, Calls: 1}
	}
	absent := diff.Side{Entry: -1}
	arc := func(from, to int, plus, minus int) diff.Arc {
		a := diff.Arc{Parent: from, Child: to}
		if plus >= 0 {
			a.Plus = diff.ArcSide{Present: true, Count: uint64(plus)}
		}
		if minus >= 0 {
			a.Minus = diff.ArcSide{Present: true, Count: uint64(minus)}
		}
		return a
	}
	return &diff.Profile{Plus: g, Minus: g,
		Functions: []diff.Function{
			{Name: "slower", Plus: side(2, 1), Minus: side(1, 1)},      // +1 s self, far outside noise
			{Name: "faster", Plus: side(0.5, 0), Minus: side(1, 0)},    // -0.5 s
			{Name: "same", Plus: side(0.3, 0), Minus: side(0.3, 0.5)},  // 0 self, -0.5 inclusive
			{Name: "noisy", Plus: side(0.01, 0), Minus: side(0.02, 0)}, // one sample apart
			{Name: "gone", Plus: absent, Minus: side(0, 0)},            // only in '-'
			{Name: "_ZN3geo4Vec3IdEC2Eddd", Plus: side(0, 0), Minus: side(0, 0)},
		},
		Arcs: []diff.Arc{
			arc(0, 1, 10, 5), // +5
			arc(1, 2, 2, 5),  // -3
			arc(2, 3, 7, 7),  // 0
			arc(0, 4, -1, 4), // only in '-': -4
			arc(0, 5, 1, -1), // only in '+': +1
		},
	}
}

// dotAttrs parses the attribute list of a DOT statement.
func dotAttrs(t *testing.T, list string) map[string]string {
	t.Helper()
	attr := regexp.MustCompile(`(\w+)=("(?:[^"\\]|\\.)*"|[^,\s]+)`)
	m := map[string]string{}
	for _, a := range attr.FindAllStringSubmatch(list, -1) {
		v := a[2]
		if strings.HasPrefix(v, `"`) {
			v = strings.ReplaceAll(v[1:len(v)-1], `\n`, "\n")
		}
		m[a[1]] = v
	}
	return m
}

func TestGraphColours(t *testing.T) {
	type node struct {
		fill, border, style, label string
	}
	grey, white := rgbHex(rgbSameFill), rgbHex(rgbWhite)
	tests := []struct {
		name  string
		opt   Options
		nodes map[string]node
		edges map[string][3]string // "from->to": colour, style, label
	}{
		{
			name: "noise greyed",
			opt:  Options{Naming: symtab.Naming{Demangle: true}},
			nodes: map[string]node{
				"slower": {rgbHex(rgbMore), rgbHex(rgbMore), "filled", "self +1.00 s (2.00 vs 1.00)\ntotal +1.00 s (3.00 vs 2.00)\ncalls 0 (1 vs 1)"},
				"faster": {rgbHex(tint(rgbLess, tintStrength(0.5))), rgbHex(rgbLess), "filled", "self -0.50 s (0.50 vs 1.00)"},
				"same":   {grey, rgbHex(rgbLess), "filled", "self 0.00 s (0.30 vs 0.30)\ntotal -0.50 s (0.30 vs 0.80)"},
				"noisy":  {grey, rgbHex(rgbLess), "filled,dashed", "self -0.01 s (0.01 vs 0.02), noise"},
				// No self time on either side: white.
				"gone": {white, rgbHex(rgbSameLine), "filled,rounded", "self 0.00 s (- vs 0.00)\ntotal 0.00 s (- vs 0.00)\ncalls -1 (- vs 1)"},
				"geo::Vec3<double>::Vec3(double, double, double)": {white, rgbHex(rgbSameLine), "filled", "calls 0 (1 vs 1)"},
			},
			edges: map[string][3]string{
				"slower->faster": {rgbHex(tint(rgbMore, 0.35+0.65)), "", "+5\n(10 vs 5)"},
				"faster->same":   {rgbHex(tint(rgbLess, 0.35+0.65*0.6)), "", "-3\n(2 vs 5)"},
				"same->noisy":    {rgbHex(rgbSameLine), "", "0\n(7 vs 7)"},
				"slower->gone":   {rgbHex(tint(rgbLess, 0.35+0.65*0.8)), "dotted", "-4\n(- vs 4)"},
				"slower->geo::Vec3<double>::Vec3(double, double, double)": {rgbHex(tint(rgbMore, 0.35+0.65*0.2)), "dotted", "+1\n(1 vs -)"},
			},
		},
		{
			name: "noise off",
			opt:  Options{Naming: symtab.Naming{Demangle: true}, Select: diff.GraphOptions{NoiseOff: true}},
			nodes: map[string]node{
				"noisy": {rgbHex(tint(rgbLess, tintStrength(0.01))), rgbHex(rgbLess), "filled", "self -0.01 s (0.01 vs 0.02)\n"},
			},
		},
		{
			name: "raw names",
			opt:  Options{},
			nodes: map[string]node{
				"_ZN3geo4Vec3IdEC2Eddd": {white, rgbHex(rgbSameLine), "filled", ""},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, WriteDOT(&buf, colourProfile(), tc.opt))
			dot := buf.String()
			byID := map[string]string{}
			nodes := map[string]map[string]string{}
			for _, m := range dotNodeLine.FindAllStringSubmatch(dot, -1) {
				a := dotAttrs(t, m[2])
				name := a["tooltip"] // the full name; the label has the short one
				byID[m[1]] = name
				nodes[name] = a
			}
			for name, want := range tc.nodes {
				a, ok := nodes[name]
				require.True(t, ok, "node %q in\n%s", name, dot)
				assert.Equal(t, want.fill, a["fillcolor"], name)
				assert.Equal(t, want.border, a["color"], name)
				assert.Equal(t, want.style, a["style"], name)
				assert.Contains(t, a["label"], want.label, name)
			}
			for _, m := range dotEdgeLine.FindAllStringSubmatch(dot, -1) {
				key := byID[m[1]] + "->" + byID[m[2]]
				want, ok := tc.edges[key]
				if !ok {
					continue
				}
				a := dotAttrs(t, m[3])
				assert.Equal(t, want[0], a["color"], key)
				assert.Equal(t, want[1], a["style"], key)
				assert.Equal(t, want[2], a["label"], key)
			}
			if !tc.opt.Select.NoiseOff {
				assert.Contains(t, dot, "within 2 standard errors of sampling noise")
			} else {
				assert.Contains(t, dot, "noise check off")
			}
		})
	}
}

func TestGraphSizes(t *testing.T) {
	// Height follows |inclusive delta|, width |self delta|, scaled to the
	// largest: slower has both largest (1 s), faster self 0.5 s and
	// inclusive 0.5 s, same inclusive 0.5 s and self 0.
	var dot, gml bytes.Buffer
	p := colourProfile()
	require.NoError(t, WriteDOT(&dot, p, Options{}))
	require.NoError(t, WriteGML(&gml, p, Options{}))
	want := map[string][2]float64{ // width, height in inches
		"slower": {dotMaxW, dotMaxH},
		"faster": {(dotMinW + dotMaxW) / 2, (dotMinH + dotMaxH) / 2},
		"same":   {dotMinW, (dotMinH + dotMaxH) / 2},
		"gone":   {dotMinW, dotMinH},
	}
	for _, m := range dotNodeLine.FindAllStringSubmatch(dot.String(), -1) {
		a := dotAttrs(t, m[2])
		name, _, _ := strings.Cut(a["label"], "\n")
		if w, ok := want[name]; ok {
			assert.Equal(t, fmt.Sprintf("%.2f", w[0]), a["width"], name)
			assert.Equal(t, fmt.Sprintf("%.2f", w[1]), a["height"], name)
		}
	}
	assert.Contains(t, gml.String(), "      w 300.0\n      h 150.0\n") // slower
	assert.Contains(t, gml.String(), "      w 190.0\n      h 90.0\n")  // faster
}

func TestGraphNames(t *testing.T) {
	g := &callgraph.Graph{HZ: 100}
	s := diff.Side{Present: true}
	p := &diff.Profile{Plus: g, Functions: []diff.Function{
		{Name: "helper", Static: true, File: "a.c", Plus: s},
		{Name: "helper", Static: true, File: "b.c", Plus: s},
		{Name: "dup", Static: true, File: "c.c", Plus: s},
		{Name: "dup", Static: true, File: "c.c", Plus: s},
		{Name: "_ZN5stats9Histogram3addEd", Plus: s},
		{Name: "main", Plus: s},
	}}
	assert.Equal(t, []string{"helper (a.c)", "helper (b.c)", "dup (c.c) #1", "dup (c.c) #2", "stats::Histogram::add(double)", "main"},
		graphNames(p, symtab.Naming{Demangle: true}))
	assert.Equal(t, "_ZN5stats9Histogram3addEd", graphNames(p, symtab.Naming{})[4])
}

func TestGraphQuoting(t *testing.T) {
	tests := []struct{ in, gml, dot string }{
		{"plain", `"plain"`, `"plain"`},
		{`operator"" _x`, `"operator&quot;&quot; _x"`, `"operator\"\" _x"`},
		{"a&b", `"a&amp;b"`, `"a&b"`},
		{"caf\u00e9", `"caf&#233;"`, "\"caf\u00e9\""},
		{"two\nlines\\", `"two lines\"`, `"two\nlines\\"`},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.gml, gmlString(tc.in), tc.in)
		assert.Equal(t, tc.dot, dotString(tc.in), tc.in)
	}
	for _, x := range []float64{0, 1, -2, 0.125, 1e-17, 123456789} {
		r := gmlReal(x)
		assert.Contains(t, r, ".", r)
		assert.NotContains(t, r, "e", r)
	}
	assert.Equal(t, "0.0", gmlReal(math.Inf(1)))
	assert.Equal(t, "0.0", gmlReal(math.NaN()))
}

// TestEgprofDoesNotLinkGraphviz: the egprof command (and the graphfile
// package it uses) must not link go-graphviz, whose WASM graphviz costs
// every start.
func TestEgprofDoesNotLinkGraphviz(t *testing.T) {
	goTool := testenv.GoTool(t)
	cmd := exec.Command(goTool, "list", "-deps", "github.com/egprof/egprof", "github.com/egprof/egprof/render/graphfile")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	require.NoError(t, err)
	require.Contains(t, string(out), "github.com/egprof/egprof/render/graphfile\n")
	for _, dep := range strings.Fields(string(out)) {
		assert.NotContains(t, dep, "goccy/go-graphviz")
		assert.NotContains(t, dep, "tetratelabs/wazero")
	}
}
