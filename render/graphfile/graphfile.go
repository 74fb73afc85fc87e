// Package graphfile writes a profile's call graph as GML and DOT, to an
// io.Writer.
package graphfile

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/symtab"
)

// Call-graph pictures: GML (for yEd, Gephi, networkx) and DOT (for
// graphviz; the egprof command renders SVG and PNG from the DOT with the
// separate egprof-graphviz command, so that it does not link the WASM
// graphviz).
//
// Nodes are functions and edges are call arcs. A node's height follows its
// inclusive time (self plus children) and its width its self time, each
// scaled to the largest among the drawn nodes (in DOT these are minimum
// sizes: graphviz widens a box to fit its label). In a differential profile
// every quantity is a delta, '+' minus '-', and the sizes follow the
// magnitudes of the deltas. Colours:
//
//   - red: the '+' profile has more (self time for a node's fill, inclusive
//     time for its border, calls for an edge);
//   - blue: the '+' profile has less;
//   - grey: unchanged; a node's fill is grey too when its self delta is
//     within diff.NoiseSEs standard errors of sampling noise (then its
//     border is dashed), unless Options.NoiseOff;
//   - white fill: no self time on either side (a function on the way to
//     others' changes).
//
// The stronger the colour, the larger the change relative to the largest
// one drawn. A function that exists in one profile only has rounded
// corners, an arc seen in one profile only is dotted. A single profile's
// nodes are orange, stronger for more self time. What is drawn is
// diff.Profile.SelectGraph's choice: a dashed grey edge stands for a call
// path through functions left out (pprof's convention), labelled with
// them. DOT (and so SVG and PNG) carry a legend saying all this.

// Options control the call-graph outputs.
type Options struct {
	// Select chooses the functions and arcs drawn (the zero value: all of
	// them; egprof's pictures use diff.DefaultGraphOptions, with Top set
	// to DefaultImageTop for SVG and PNG). Its NoiseOff also stops greying
	// self-time deltas that are within sampling noise (--noise=off).
	Select diff.GraphOptions
	// Naming spells the functions' names (the zero value: raw names).
	Naming symtab.Naming
	// PlusName and MinusName, when set, name the '+' and '-' profiles in
	// the legend (their gmon files, say).
	PlusName, MinusName string
}

// DefaultImageTop is how many significant functions an SVG or PNG picture
// keeps at most when the user does not say (--graph-top): past a few
// hundred nodes graphviz's layout gets slow and the picture unreadable.
const DefaultImageTop = 200

// Colours, as 0xRRGGBB.
const (
	rgbMore     = 0xca0020 // '+' has more
	rgbLess     = 0x0571b0 // '+' has less
	rgbHeat     = 0xe6550d // single profile: self time
	rgbWhite    = 0xffffff
	rgbBlack    = 0x000000
	rgbSameFill = 0xd9d9d9 // unchanged or noise: node fill
	rgbSameLine = 0x737373 // unchanged: node border, edge
	rgbCallEdge = 0x404040 // single profile: edge
	rgbElided   = 0x969696 // a path through left-out functions
)

// Node and edge sizes: DOT in inches, GML in pixels.
const (
	dotMinW, dotMaxW = 1.0, 3.5
	dotMinH, dotMaxH = 0.5, 1.7
	gmlMinW, gmlMaxW = 80.0, 300.0
	gmlMinH, gmlMaxH = 30.0, 150.0
	// dotNameMax is where long names are cut in DOT labels; the tooltip
	// keeps the whole name.
	dotNameMax = 64
	// viaNameMax is where names are cut in the label of an elided path.
	viaNameMax = 32
)

// graphView is the formatted picture shared by the GML and DOT writers.
type graphView struct {
	p       *diff.Profile
	opt     Options
	sel     diff.GraphSelection
	names   []string // display names, parallel to p.Functions
	nodes   []viewNode
	edges   []viewEdge
	prec    int // decimals of seconds
	maxIncl float64
	maxExcl float64
	maxArc  float64
	noisy   int // nodes greyed as noise
}

type viewNode struct {
	fn         int
	name       string // unique display name
	box        string // the name in the box (see symtab.BoxNames)
	incl, excl float64
	relW, relH float64 // 0..1, from |excl| and |incl|
	fill       int
	border     int
	font       int
	penWidth   float64
	noise      bool // greyed: self delta within noise
	oneSided   bool // the function exists in one profile only
}

type viewEdge struct {
	arc      int // index into Profile.Arcs, -1 for an elided path
	path     int // index into GraphSelection.Paths, -1 for an arc
	from, to int // indexes into graphView.nodes
	label    string
	tooltip  string
	color    int
	penWidth float64
	style    string // "", "dotted" (an arc seen in one profile, or never counted), "dashed" (elided path)
}

// tint blends white into c: t=1 gives c, t=0 white.
func tint(c int, t float64) int {
	t = math.Max(0, math.Min(1, t))
	ch := func(shift int) int {
		v := float64((c >> shift) & 0xff)
		return int(math.Round(255 - (255-v)*t))
	}
	return ch(16)<<16 | ch(8)<<8 | ch(0)
}

// rgbHex formats a 0xRRGGBB colour as "#rrggbb".
func rgbHex(c int) string { return fmt.Sprintf("#%06x", c&0xffffff) }

// tintStrength is how much colour a change of relative size t (0..1) gets: a
// tiny change still shows its direction.
func tintStrength(t float64) float64 { return 0.15 + 0.85*t }

// labelColorOn is the label colour readable on fill.
func labelColorOn(fill int) int {
	r, g, b := (fill>>16)&0xff, (fill>>8)&0xff, fill&0xff
	// Perceived luminance (ITU-R BT.601).
	if 0.299*float64(r)+0.587*float64(g)+0.114*float64(b) < 140 {
		return rgbWhite
	}
	return rgbBlack
}

// relTo is |v| relative to largest, 0 when there is nothing to compare.
func relTo(v, largest float64) float64 {
	if largest <= 0 {
		return 0
	}
	return math.Abs(v) / largest
}

// changeColor returns the colour of a change of sign v.
func changeColor(v float64) int {
	switch {
	case v > 0:
		return rgbMore
	case v < 0:
		return rgbLess
	}
	return rgbSameLine
}

// graphNames returns a unique display name for every function: its name
// as naming spells it (same-named statics with their file), then a running
// number where names still repeat.
func graphNames(p *diff.Profile, naming symtab.Naming) []string {
	names := p.Labels(naming)
	seen := map[string]int{}
	for _, n := range names {
		seen[n]++
	}
	next := map[string]int{}
	for i, n := range names {
		if seen[n] > 1 {
			next[n]++
			names[i] = n + " #" + strconv.Itoa(next[n])
		}
	}
	return names
}

// graphPrecision is the number of decimals that shows one sample.
func graphPrecision(p *diff.Profile) int {
	hz := math.Max(p.PlusHZ(), p.MinusHZ())
	if hz <= 0 {
		return 2
	}
	return min(6, max(2, int(math.Ceil(math.Log10(hz)-1e-9))))
}

func newGraphView(p *diff.Profile, opt Options) *graphView {
	v := &graphView{p: p, opt: opt, sel: p.SelectGraph(opt.Select), prec: graphPrecision(p)}
	v.names = graphNames(p, opt.Naming)
	noiseOff := opt.Select.NoiseOff
	pos := make([]int, len(p.Functions))
	v.nodes = make([]viewNode, len(v.sel.Nodes))
	for k, i := range v.sel.Nodes {
		pos[i] = k
		n := &v.nodes[k]
		n.fn, n.name = i, v.names[i]
		n.incl, n.excl = p.Inclusive(i), p.Exclusive(i)
		n.noise = p.IsDiff() && !noiseOff && p.WithinNoise(i) && n.excl != 0
		n.oneSided = p.IsDiff() && p.Functions[i].Plus.Present != p.Functions[i].Minus.Present
		v.maxIncl = math.Max(v.maxIncl, math.Abs(n.incl))
		v.maxExcl = math.Max(v.maxExcl, math.Abs(n.excl))
	}
	full := make([]string, len(v.nodes))
	for k := range v.nodes {
		full[k] = v.nodes[k].name
	}
	for k, b := range symtab.BoxNames(full) {
		v.nodes[k].box = b
	}
	// The fill scale is set by the largest change that is not noise.
	maxFill := 0.0
	for k := range v.nodes {
		if n := &v.nodes[k]; !n.noise {
			maxFill = math.Max(maxFill, math.Abs(n.excl))
		}
	}
	for k := range v.nodes {
		n := &v.nodes[k]
		n.relW, n.relH = relTo(n.excl, v.maxExcl), relTo(n.incl, v.maxIncl)
		n.penWidth = 1
		switch {
		case !p.IsDiff():
			n.fill, n.border = rgbWhite, rgbBlack
			if n.excl > 0 {
				n.fill = tint(rgbHeat, tintStrength(relTo(n.excl, maxFill)))
			}
		case n.excl == 0 && v.p.Functions[n.fn].Plus.Self == 0 && v.p.Functions[n.fn].Minus.Self == 0:
			n.fill = rgbWhite // no self time to compare: a function on the way
		case n.noise || n.excl == 0:
			n.fill = rgbSameFill
		default:
			n.fill = tint(changeColor(n.excl), tintStrength(relTo(n.excl, maxFill)))
		}
		if p.IsDiff() {
			n.border = changeColor(n.incl)
			n.penWidth = 1 + 2*relTo(n.incl, v.maxIncl)
		}
		n.font = labelColorOn(n.fill)
		if n.noise {
			v.noisy++
		}
	}
	v.edges = make([]viewEdge, 0, len(v.sel.Arcs)+len(v.sel.Paths))
	for _, ai := range v.sel.Arcs {
		a := &p.Arcs[ai]
		v.edges = append(v.edges, viewEdge{arc: ai, path: -1, from: pos[a.Parent], to: pos[a.Child]})
		v.maxArc = math.Max(v.maxArc, math.Abs(v.arcValue(a)))
	}
	for k := range v.edges {
		e := &v.edges[k]
		a := &p.Arcs[e.arc]
		val := v.arcValue(a)
		t := relTo(val, v.maxArc)
		e.penWidth = 1 + 2.5*t
		e.tooltip = v.nodes[e.from].name + " -> " + v.nodes[e.to].name
		if p.IsDiff() {
			e.color = rgbSameLine
			if val != 0 {
				e.color = tint(changeColor(val), 0.35+0.65*t)
			}
			if !(a.Plus.Present && a.Minus.Present) {
				e.style = "dotted"
			}
			e.label = signedCount(a.CountDelta()) + "\n(" + arcCountText(a.Plus) + " vs " + arcCountText(a.Minus) + ")"
		} else {
			e.color = rgbCallEdge
			if a.Plus.Count == 0 {
				e.style = "dotted"
			}
			e.label = strconv.FormatUint(a.Plus.Count, 10)
		}
		if a.Parent == a.Child {
			// The box shows the self-calls; a loop's label would lie
			// over the boxes beside it.
			e.tooltip += ": " + oneLine(e.label)
			e.label = ""
		}
	}
	for k, path := range v.sel.Paths {
		v.edges = append(v.edges, viewEdge{arc: -1, path: k, from: pos[path.From], to: pos[path.To],
			label: v.viaLabel(path.Via), tooltip: v.viaChain(path), color: rgbElided, penWidth: 1, style: "dashed"})
	}
	return v
}

// viaLabel names the functions an elided path passes through: one or two
// by name, more by the first, the last and their number. Each name starts
// a line, so that the label stays narrow beside its edge (graphviz sizes
// labels by its own font metrics; a long line printed in a wider font ran
// past the picture's edge); one-line outputs join the lines with spaces.
func (v *graphView) viaLabel(via []int) string {
	name := func(i int) string { return symtab.CutMiddle(symtab.ShortName(v.names[i]), viaNameMax) }
	switch len(via) {
	case 1:
		return "via " + name(via[0])
	case 2:
		return "via " + name(via[0]) + ",\n" + name(via[1])
	}
	return fmt.Sprintf("via %s\n... %s\n(%d functions)", name(via[0]), name(via[len(via)-1]), len(via))
}

// oneLine is a label for outputs whose labels are one line (GML).
func oneLine(label string) string { return strings.ReplaceAll(label, "\n", " ") }

// viaChain is an elided path as a chain of full names.
func (v *graphView) viaChain(path diff.ElidedPath) string {
	parts := []string{v.names[path.From]}
	for _, i := range path.Via {
		parts = append(parts, v.names[i])
	}
	parts = append(parts, v.names[path.To])
	return strings.Join(parts, " -> ")
}

// arcValue is the number an edge shows: its count, or its count delta.
func (v *graphView) arcValue(a *diff.Arc) float64 {
	if v.p.IsDiff() {
		return float64(a.CountDelta())
	}
	return float64(a.Plus.Count)
}

// arcCountText is an arc's count on one side, "-" when the arc is absent
// there.
func arcCountText(s diff.ArcSide) string {
	if !s.Present {
		return "-"
	}
	return strconv.FormatUint(s.Count, 10)
}

// signedCount formats v with its sign, '+' included.
func signedCount(v int64) string {
	if v > 0 {
		return "+" + strconv.FormatInt(v, 10)
	}
	return strconv.FormatInt(v, 10)
}

// secs formats seconds with the view's precision; signed adds a '+' to
// positive values.
func (v *graphView) secs(x float64, signed bool) string {
	s := strconv.FormatFloat(x, 'f', v.prec, 64)
	if strings.Trim(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-") // no "-0.00"
	} else if signed && x > 0 {
		s = "+" + s
	}
	return s
}

func (v *graphView) sideSecs(s *diff.Side, x float64) string {
	if !s.Present {
		return "-"
	}
	return v.secs(x, false)
}

// callsText is a side's calls as gprof shows them: "calls" or
// "calls+self-calls", "-" when the function does not exist there.
func callsText(s *diff.Side) string {
	if !s.Present {
		return "-"
	}
	c := strconv.FormatUint(s.Calls, 10)
	if s.SelfCalls > 0 {
		c += "+" + strconv.FormatUint(s.SelfCalls, 10)
	}
	return c
}

// detail is the lines under a node's name: times and calls.
func (v *graphView) detail(n *viewNode) []string {
	f := &v.p.Functions[n.fn]
	if !v.p.IsDiff() {
		lines := []string{"self " + v.secs(n.excl, false) + " s, total " + v.secs(n.incl, false) + " s"}
		if f.Plus.Calls > 0 || f.Plus.SelfCalls > 0 {
			noun := " calls"
			if f.Plus.Calls+f.Plus.SelfCalls == 1 {
				noun = " call"
			}
			lines = append(lines, callsText(&f.Plus)+noun)
		}
		return lines
	}
	self := "self " + v.secs(n.excl, true) + " s (" + v.sideSecs(&f.Plus, f.Plus.Self) + " vs " + v.sideSecs(&f.Minus, f.Minus.Self) + ")"
	if n.noise {
		self += ", noise"
	}
	lines := []string{
		self,
		"total " + v.secs(n.incl, true) + " s (" + v.sideSecs(&f.Plus, f.Plus.Total()) + " vs " + v.sideSecs(&f.Minus, f.Minus.Total()) + ")",
	}
	if f.Plus.Calls > 0 || f.Plus.SelfCalls > 0 || f.Minus.Calls > 0 || f.Minus.SelfCalls > 0 {
		lines = append(lines, "calls "+signedCount(f.CallsDelta())+" ("+callsText(&f.Plus)+" vs "+callsText(&f.Minus)+")")
	}
	return lines
}

// summary says what the picture is and what was pruned, in one line.
func (v *graphView) summary() string {
	var b strings.Builder
	if v.p.IsDiff() {
		b.WriteString("egprof differential call graph, delta = '+' minus '-'")
		if v.opt.PlusName != "" || v.opt.MinusName != "" {
			fmt.Fprintf(&b, " ('+' = %s, '-' = %s)", nameOrDash(v.opt.PlusName), nameOrDash(v.opt.MinusName))
		}
	} else {
		b.WriteString("egprof call graph")
		if v.opt.PlusName != "" {
			b.WriteString(" of " + v.opt.PlusName)
		}
	}
	b.WriteString("; ")
	b.WriteString(v.pruneNote())
	return b.String()
}

func nameOrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// pruneNote says how much of the graph is shown, in one line.
func (v *graphView) pruneNote() string { return strings.Join(v.pruneLines(), "; ") }

// pruneLines says how much of the graph is shown and why, in a few
// phrases: which functions were kept, which arcs, what the dashed edges
// are, and what was left out.
func (v *graphView) pruneLines() []string {
	sel, p, opt := &v.sel, v.p, &v.opt.Select
	allNodes, allArcs := len(p.Functions), len(p.Arcs)
	if sel.PrunedNodes == 0 && sel.PrunedArcs == 0 {
		return []string{fmt.Sprintf("all %d functions and %d arcs shown", allNodes, allArcs)}
	}
	significant := len(sel.Nodes) - len(sel.Connectors)
	var which string
	switch {
	case sel.NodeLimit > 0 && p.IsDiff():
		noise := " beyond sampling noise"
		if opt.NoiseOff {
			noise = ""
		}
		which = fmt.Sprintf("whose self or inclusive time changed by at least %s%% of the total change (%s s of %s s, the sum of |self delta|)%s",
			pct(opt.NodeShare), num(sel.NodeLimit), num(sel.Total), noise)
	case sel.NodeLimit > 0:
		which = fmt.Sprintf("whose inclusive time is at least %s%% of the total (%s s of %s s)", pct(opt.NodeShare), num(sel.NodeLimit), num(sel.Total))
	case p.IsDiff():
		which = "of largest |inclusive delta|"
	default:
		which = "of largest inclusive time"
	}
	kept := fmt.Sprintf("%d of %d functions shown: the %d %s", len(sel.Nodes), allNodes, significant, which)
	if sel.Capped > 0 {
		kept = fmt.Sprintf("%d of %d functions shown: the %d largest of the %d %s (--graph-top)",
			len(sel.Nodes), allNodes, significant, significant+sel.Capped, which)
	}
	if len(opt.Focus) > 0 {
		var names []string
		for _, i := range opt.Focus {
			names = append(names, symtab.ShortName(v.names[i]))
		}
		if len(names) > 3 {
			names = append(names[:3], fmt.Sprintf("%d more", len(names)-3))
		}
		kept += ", on call paths through " + strings.Join(names, ", ")
	}
	if opt.Shown != nil {
		kept += ", among those gprof's call graph shows (-q/-Q)"
	}
	lines := []string{kept}
	if n := len(sel.Connectors); n > 0 {
		lines = append(lines, fmt.Sprintf("%d more that %s them (roots, or where call paths meet)", n, plural(n, "connects", "connect")))
	}
	if sel.EdgeLimit > 0 {
		what := "time"
		if p.IsDiff() {
			what = "change of time"
		}
		lines = append(lines, fmt.Sprintf("arcs carrying a %s of at least %s%% (%s s), and the largest into each function",
			what, pct(opt.EdgeShare), num(sel.EdgeLimit)))
	}
	if n := len(sel.Paths); n > 0 {
		lines = append(lines, fmt.Sprintf("%d dashed %s for call paths through functions left out", n, plural(n, "edge stands", "edges stand")))
	}
	lines = append(lines, fmt.Sprintf("%d functions and %d arcs left out", sel.PrunedNodes, sel.PrunedArcs))
	return lines
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// pct formats a share as a percentage, "0.5" for 0.005.
func pct(share float64) string { return strconv.FormatFloat(100*share, 'g', 4, 64) }

// num formats seconds with three significant digits.
func num(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }

// WriteGML writes the call graph of p as GML that yEd, Gephi and networkx
// read: a directed graph whose nodes carry a unique label (the function
// name, with its source file or a number added where names repeat),
// yEd/Gephi graphics (w, h, fill, outline, and a layered initial position)
// and the numbers as attributes: symbol (the raw name), file, and
// selfTime, totalTime (seconds), calls, selfCalls for a single profile;
// selfDelta, totalDelta, callsDelta, noise (1 when the self delta is within
// noise) and, per side present, selfPlus/selfMinus, totalPlus/totalMinus,
// callsPlus/callsMinus, selfCallsPlus/selfCallsMinus for a differential
// one, with presentPlus and presentMinus. Edges carry the call count (or
// its delta) as label, and count, or countDelta, countPlus, countMinus; an
// edge that stands for a call path through functions left out has elided
// 1 and via (their names, " -> " between them). A node kept only as the
// root of such paths has connector 1. What was pruned is in the graph's
// comment and its prunedNodes, prunedEdges, elidedPaths, total,
// nodeThreshold and edgeThreshold (seconds; 0: not applied) attributes.
func WriteGML(w io.Writer, p *diff.Profile, opt Options) error {
	v := newGraphView(p, opt)
	bw := bufio.NewWriter(w)
	diffMode := p.IsDiff()
	fmt.Fprintf(bw, "Creator %s\n", gmlString("egprof"))
	fmt.Fprintf(bw, "graph [\n")
	fmt.Fprintf(bw, "  comment %s\n", gmlString(v.summary()))
	fmt.Fprintf(bw, "  directed 1\n")
	fmt.Fprintf(bw, "  differential %d\n", gmlBool(diffMode))
	fmt.Fprintf(bw, "  prunedNodes %d\n", v.sel.PrunedNodes)
	fmt.Fprintf(bw, "  prunedEdges %d\n", v.sel.PrunedArcs)
	fmt.Fprintf(bw, "  elidedPaths %d\n", len(v.sel.Paths))
	fmt.Fprintf(bw, "  total %s\n", gmlReal(v.sel.Total))
	fmt.Fprintf(bw, "  nodeThreshold %s\n", gmlReal(v.sel.NodeLimit))
	fmt.Fprintf(bw, "  edgeThreshold %s\n", gmlReal(v.sel.EdgeLimit))
	connector := make(map[int]bool, len(v.sel.Connectors))
	for _, i := range v.sel.Connectors {
		connector[i] = true
	}
	xs, ys := v.layers()
	for k := range v.nodes {
		n := &v.nodes[k]
		f := &p.Functions[n.fn]
		fmt.Fprintf(bw, "  node [\n")
		fmt.Fprintf(bw, "    id %d\n", k)
		fmt.Fprintf(bw, "    label %s\n", gmlString(n.name))
		fmt.Fprintf(bw, "    symbol %s\n", gmlString(f.Name))
		if f.File != "" {
			fmt.Fprintf(bw, "    file %s\n", gmlString(f.File))
		}
		if connector[n.fn] {
			fmt.Fprintf(bw, "    connector 1\n")
		}
		if diffMode {
			fmt.Fprintf(bw, "    selfDelta %s\n", gmlReal(n.excl))
			fmt.Fprintf(bw, "    totalDelta %s\n", gmlReal(n.incl))
			fmt.Fprintf(bw, "    callsDelta %d\n", f.CallsDelta())
			fmt.Fprintf(bw, "    noise %d\n", gmlBool(n.noise))
			for _, s := range []struct {
				tag  string
				side *diff.Side
			}{{"Plus", &f.Plus}, {"Minus", &f.Minus}} {
				fmt.Fprintf(bw, "    present%s %d\n", s.tag, gmlBool(s.side.Present))
				if s.side.Present {
					fmt.Fprintf(bw, "    self%s %s\n", s.tag, gmlReal(s.side.Self))
					fmt.Fprintf(bw, "    total%s %s\n", s.tag, gmlReal(s.side.Total()))
					fmt.Fprintf(bw, "    calls%s %d\n", s.tag, s.side.Calls)
					fmt.Fprintf(bw, "    selfCalls%s %d\n", s.tag, s.side.SelfCalls)
				}
			}
		} else {
			fmt.Fprintf(bw, "    selfTime %s\n", gmlReal(n.excl))
			fmt.Fprintf(bw, "    totalTime %s\n", gmlReal(n.incl))
			fmt.Fprintf(bw, "    calls %d\n", f.Plus.Calls)
			fmt.Fprintf(bw, "    selfCalls %d\n", f.Plus.SelfCalls)
		}
		fmt.Fprintf(bw, "    graphics [\n")
		fmt.Fprintf(bw, "      x %s\n      y %s\n", gmlReal(xs[k]), gmlReal(ys[k]))
		fmt.Fprintf(bw, "      w %s\n", gmlReal(gmlMinW+(gmlMaxW-gmlMinW)*n.relW))
		fmt.Fprintf(bw, "      h %s\n", gmlReal(gmlMinH+(gmlMaxH-gmlMinH)*n.relH))
		shape := "rectangle"
		if n.oneSided {
			shape = "roundrectangle"
		}
		fmt.Fprintf(bw, "      type %s\n", gmlString(shape))
		fmt.Fprintf(bw, "      fill %s\n", gmlString(rgbHex(n.fill)))
		fmt.Fprintf(bw, "      outline %s\n", gmlString(rgbHex(n.border)))
		if n.noise {
			fmt.Fprintf(bw, "      outlineStyle %s\n", gmlString("dashed"))
		}
		fmt.Fprintf(bw, "    ]\n")
		fmt.Fprintf(bw, "    LabelGraphics [\n      text %s\n      color %s\n    ]\n", gmlString(n.name), gmlString(rgbHex(n.font)))
		fmt.Fprintf(bw, "  ]\n")
	}
	for k := range v.edges {
		e := &v.edges[k]
		fmt.Fprintf(bw, "  edge [\n")
		fmt.Fprintf(bw, "    source %d\n    target %d\n", e.from, e.to)
		fmt.Fprintf(bw, "    label %s\n", gmlString(oneLine(e.label)))
		switch {
		case e.arc < 0:
			path := &v.sel.Paths[e.path]
			via := make([]string, len(path.Via))
			for j, i := range path.Via {
				via[j] = v.names[i]
			}
			fmt.Fprintf(bw, "    elided 1\n")
			fmt.Fprintf(bw, "    via %s\n", gmlString(strings.Join(via, " -> ")))
		case diffMode:
			a := &p.Arcs[e.arc]
			fmt.Fprintf(bw, "    countDelta %d\n", a.CountDelta())
			fmt.Fprintf(bw, "    presentPlus %d\n    presentMinus %d\n", gmlBool(a.Plus.Present), gmlBool(a.Minus.Present))
			if a.Plus.Present {
				fmt.Fprintf(bw, "    countPlus %d\n", a.Plus.Count)
			}
			if a.Minus.Present {
				fmt.Fprintf(bw, "    countMinus %d\n", a.Minus.Count)
			}
		default:
			a := &p.Arcs[e.arc]
			fmt.Fprintf(bw, "    count %d\n", a.Plus.Count)
			if a.Plus.Count > 0 {
				fmt.Fprintf(bw, "    weight %d\n", a.Plus.Count)
			}
		}
		fmt.Fprintf(bw, "    graphics [\n")
		fmt.Fprintf(bw, "      fill %s\n", gmlString(rgbHex(e.color)))
		fmt.Fprintf(bw, "      width %s\n", gmlReal(e.penWidth))
		if e.style != "" {
			fmt.Fprintf(bw, "      style %s\n", gmlString(e.style))
		}
		fmt.Fprintf(bw, "      targetArrow %s\n", gmlString("standard"))
		fmt.Fprintf(bw, "    ]\n")
		fmt.Fprintf(bw, "    LabelGraphics [\n      text %s\n    ]\n", gmlString(oneLine(e.label)))
		fmt.Fprintf(bw, "  ]\n")
	}
	fmt.Fprintf(bw, "]\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing GML: %w", err)
	}
	return nil
}

// layers gives every node an initial position for GML viewers that do not
// lay the graph out on opening: nodes in layers by their distance from the
// callers' roots, side by side within a layer.
func (v *graphView) layers() (xs, ys []float64) {
	n := len(v.nodes)
	depth := make([]int, n)
	for i := range depth {
		depth[i] = -1
	}
	out := make([][]int, n)
	hasParent := make([]bool, n)
	for _, e := range v.edges {
		if e.from != e.to {
			out[e.from] = append(out[e.from], e.to)
			hasParent[e.to] = true
		}
	}
	var queue []int
	visit := func(roots []int) {
		queue = append(queue[:0], roots...)
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for _, c := range out[u] {
				if depth[c] < 0 {
					depth[c] = depth[u] + 1
					queue = append(queue, c)
				}
			}
		}
	}
	var roots []int
	for i := range n {
		if !hasParent[i] {
			depth[i] = 0
			roots = append(roots, i)
		}
	}
	visit(roots)
	for i := range n {
		if depth[i] < 0 { // only reachable through a cycle
			depth[i] = 0
			visit([]int{i})
		}
	}
	width := map[int]int{}
	xs, ys = make([]float64, n), make([]float64, n)
	for i := range n {
		xs[i] = float64(width[depth[i]]) * (gmlMaxW + 50)
		ys[i] = float64(depth[i]) * (gmlMaxH + 80)
		width[depth[i]]++
	}
	return xs, ys
}

func gmlBool(b bool) int {
	if b {
		return 1
	}
	return 0
}

// gmlString quotes s for GML: '"' and '&' and characters outside ASCII
// become character references, as the GML format prescribes, and control
// characters become spaces (readers take strings line by line).
func gmlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString("&quot;")
		case r == '&':
			b.WriteString("&amp;")
		case r < 0x20 || r == 0x7f:
			b.WriteByte(' ')
		case r > 0x7f:
			fmt.Fprintf(&b, "&#%d;", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// gmlReal formats x as a GML real: always with a decimal point, never in
// exponent form, never NaN or infinite.
func gmlReal(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		x = 0
	}
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// WriteDOT writes the call graph of p in graphviz's DOT language, with a
// legend (the graph's label) that explains sizes and colours and says what
// was pruned; the first line is a comment saying the same.
func WriteDOT(w io.Writer, p *diff.Profile, opt Options) error {
	v := newGraphView(p, opt)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "// %s\n", strings.ReplaceAll(v.summary(), "\n", " "))
	fmt.Fprintf(bw, "digraph %s {\n", dotString("egprof"))
	fmt.Fprintf(bw, "  graph [fontname=\"Helvetica\", fontsize=11, labelloc=b, labeljust=l, nodesep=0.3, ranksep=0.45, pad=0.3,\n    label=<%s>];\n", v.legend())
	fmt.Fprintf(bw, "  node [shape=box, style=filled, fontname=\"Helvetica\", fontsize=10, margin=\"0.1,0.05\"];\n")
	fmt.Fprintf(bw, "  edge [fontname=\"Helvetica\", fontsize=9];\n")
	for k := range v.nodes {
		n := &v.nodes[k]
		f := &p.Functions[n.fn]
		label := dotName(n.box) + "\n" + strings.Join(v.detail(n), "\n")
		tooltip := n.name
		if f.File != "" {
			tooltip += " in " + f.File
		}
		style := "filled"
		if n.noise {
			style += ",dashed"
		}
		if n.oneSided {
			style += ",rounded"
		}
		fmt.Fprintf(bw, "  n%d [label=%s, tooltip=%s, width=%.2f, height=%.2f, style=%q, fillcolor=%q, color=%q, fontcolor=%q, penwidth=%.2f];\n",
			k, dotString(label), dotString(tooltip),
			dotMinW+(dotMaxW-dotMinW)*n.relW, dotMinH+(dotMaxH-dotMinH)*n.relH,
			style, rgbHex(n.fill), rgbHex(n.border), rgbHex(n.font), n.penWidth)
	}
	for k := range v.edges {
		e := &v.edges[k]
		style := ""
		if e.style != "" {
			style = ", style=" + e.style
		}
		fmt.Fprintf(bw, "  n%d -> n%d [label=%s, tooltip=%s, color=%q, fontcolor=%q, penwidth=%.2f%s];\n",
			e.from, e.to, dotString(e.label), dotString(e.tooltip),
			rgbHex(e.color), rgbHex(edgeLabelColor(e.color)), e.penWidth, style)
	}
	fmt.Fprintf(bw, "}\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing DOT: %w", err)
	}
	return nil
}

// edgeLabelColor darkens pale edge colours for their labels.
func edgeLabelColor(c int) int {
	if labelColorOn(c) == rgbBlack {
		return 0x404040
	}
	return c
}

// dotName shortens a long name for a DOT label.
func dotName(s string) string { return symtab.CutMiddle(s, dotNameMax) }

// dotString quotes s as a DOT string; newlines become centred line breaks.
func dotString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\r', '\t':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// htmlEscape escapes s for a graphviz HTML-like label.
func htmlEscape(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	return r.Replace(s)
}

// legend is the DOT graph label: an HTML-like table explaining the
// picture.
func (v *graphView) legend() string {
	var b strings.Builder
	b.WriteString(`<table border="0" cellborder="0" cellspacing="2" cellpadding="2">`)
	swatch := func(cs ...int) string {
		var s strings.Builder
		for _, c := range cs {
			fmt.Fprintf(&s, `<td bgcolor="%s" border="1" width="18"> </td>`, rgbHex(c))
		}
		for range 2 - len(cs) {
			s.WriteString(`<td></td>`)
		}
		return s.String()
	}
	row := func(sw, text string) {
		if sw == "" {
			sw = swatch()
		}
		fmt.Fprintf(&b, `<tr>%s<td align="left">%s</td></tr>`, sw, htmlEscape(text))
	}
	title := "egprof call graph"
	if v.opt.PlusName != "" {
		title += " of " + v.opt.PlusName
	}
	if v.p.IsDiff() {
		title = "egprof differential call graph: delta = '+' minus '-'"
		if v.opt.PlusName != "" || v.opt.MinusName != "" {
			title += "   ('+' = " + nameOrDash(v.opt.PlusName) + ", '-' = " + nameOrDash(v.opt.MinusName) + ")"
		}
	}
	fmt.Fprintf(&b, `<tr><td colspan="3" align="left"><b>%s</b></td></tr>`, htmlEscape(title))
	if v.p.IsDiff() {
		row(swatch(tint(rgbMore, tintStrength(0.1)), rgbMore),
			"'+' has more: self time (fill), inclusive time (border), calls (edge); stronger = larger change")
		row(swatch(tint(rgbLess, tintStrength(0.1)), rgbLess), "'+' has less (the '-' profile has more)")
		if v.opt.Select.NoiseOff {
			row(swatch(rgbSameFill), "self time unchanged (noise check off)")
		} else {
			row(swatch(rgbSameFill), fmt.Sprintf("self time unchanged, or (dashed border, \"noise\") within %d standard errors of sampling noise: %d of the functions shown",
				diff.NoiseSEs, v.noisy))
		}
		row(swatch(rgbWhite), "no self time on either side: a function on the way to the changes")
		row("", fmt.Sprintf("box height: |inclusive delta| (largest %s s), width: |self delta| (largest %s s); rounded box: function in one profile only",
			v.secs(v.maxIncl, false), v.secs(v.maxExcl, false)))
		row("", fmt.Sprintf("edge label: call-count delta ('+' count vs '-' count), largest |delta| %s; dotted edge: call seen in one profile only",
			strconv.FormatFloat(v.maxArc, 'f', 0, 64)))
	} else {
		row(swatch(tint(rgbHeat, tintStrength(0.1)), rgbHeat), "fill: self time; stronger = more")
		row("", fmt.Sprintf("box height: inclusive time, self + children (largest %s s), width: self time (largest %s s)",
			v.secs(v.maxIncl, false), v.secs(v.maxExcl, false)))
		row("", "edge label: calls; dotted edge: no call counted (arc found by -c)")
	}
	if len(v.sel.Paths) > 0 {
		row("", "dashed grey edge: a call path through functions left out of the picture, named on the edge (all of them in its tooltip)")
	}
	for _, line := range v.pruneLines() {
		row("", line)
	}
	b.WriteString(`</table>`)
	return b.String()
}
