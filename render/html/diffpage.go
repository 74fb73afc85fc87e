package html

import (
	"strconv"

	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/render"
)

// impactJSON is the impact table. Each row is [id, % impact, '+' self
// seconds, '-' self seconds, change, '+' calls, '-' calls, change of
// calls, presence ("XX", "X-", "-X"), within noise (1 or 0)], as render's
// DiffText.Impact prints them ("-" where a side has no data).
type impactJSON struct {
	Rows    [][]any `json:"rows"`
	Total   string  `json:"total"` // Σ|self delta|, the impact's denominator
	Scaling string  `json:"scaling"`
}

// diffGraphJS is the pruned differential call graph: nodes [id, self
// delta, inclusive delta, within noise, one-sided, connector, no self
// time on either side], arcs
// [from node, to node, time delta, count delta, one-sided], and elided
// paths [from node, to node, via ids].
type diffGraphJS struct {
	Nodes [][]any `json:"nodes"`
	Arcs  [][]any `json:"arcs"`
	Paths [][]any `json:"paths"`
	Left  int     `json:"left"` // functions not drawn
}

// diffPage is the page of a differential profile.
func diffPage(d *diff.Profile, opt Options) (*page, Stats, error) {
	p := &page{Kind: "diff", Title: title("diff", opt), Command: commandLine(opt.Command)}
	p.Sides = []sideJSON{graphSide("+", opt.Plus, d.Plus, d.PlusTotal()), graphSide("-", opt.Minus, d.Minus, d.MinusTotal())}
	p.Names = d.Labels(opt.Naming)
	p.Impact = impactTable(d, opt)
	id := make([]int, len(d.Functions))
	for k := range id {
		id[k] = k
	}
	fl, st, err := flameGraph(d, opt, id)
	if err != nil {
		return nil, st, err
	}
	p.Flame = fl
	if opt.Graph != nil {
		p.Graph = diffGraph(d, opt.Graph, opt.NoiseOff)
	}
	return p, st, nil
}

// impactTable formats the impact table's rows as render's DiffText.Impact
// prints them.
func impactTable(d *diff.Profile, opt Options) *impactJSON {
	total := d.TotalAbsSelfDelta()
	t := &impactJSON{Rows: [][]any{}, Total: secs(total), Scaling: opt.Scaling}
	if total <= 0 {
		total = 1
	}
	self := func(s *diff.Side) string {
		if !s.HasData() {
			return "-"
		}
		return secs(s.Self)
	}
	calls := func(s *diff.Side) string {
		if s.Calls == 0 {
			return "-"
		}
		return itoa(s.Calls)
	}
	mark := func(b bool) string {
		if b {
			return "X"
		}
		return "-"
	}
	for _, i := range opt.ImpactRows {
		if i < 0 || i >= len(d.Functions) {
			continue
		}
		f := &d.Functions[i]
		noise := 0
		if opt.WithinNoise != nil && opt.WithinNoise(i) {
			noise = 1
		}
		t.Rows = append(t.Rows, []any{i, render.Fixed(100*f.SelfDelta()/total, 2), self(&f.Plus), self(&f.Minus), secs(f.SelfDelta()),
			calls(&f.Plus), calls(&f.Minus), strconv.FormatInt(f.CallsDelta(), 10), mark(f.Plus.Present) + mark(f.Minus.Present), noise})
	}
	return t
}

// diffGraph lists what the pruned differential call graph draws.
func diffGraph(d *diff.Profile, sel *diff.GraphSelection, noiseOff bool) *diffGraphJS {
	g := &diffGraphJS{Nodes: [][]any{}, Arcs: [][]any{}, Paths: [][]any{}, Left: sel.PrunedNodes}
	node := make(map[int]int, len(sel.Nodes))
	connector := make(map[int]bool, len(sel.Connectors))
	for _, c := range sel.Connectors {
		connector[c] = true
	}
	for _, i := range sel.Nodes {
		if i < 0 || i >= len(d.Functions) {
			continue
		}
		f := &d.Functions[i]
		node[i] = len(g.Nodes)
		g.Nodes = append(g.Nodes, []any{i, secs(d.Exclusive(i)), secs(d.Inclusive(i)), boolByte(!noiseOff && d.WithinNoise(i)),
			boolByte(!(f.Plus.Present && f.Minus.Present)), boolByte(connector[i]), boolByte(f.Plus.Self == 0 && f.Minus.Self == 0)})
	}
	for _, a := range sel.Arcs {
		if a < 0 || a >= len(d.Arcs) {
			continue
		}
		arc := &d.Arcs[a]
		from, ok1 := node[arc.Parent]
		to, ok2 := node[arc.Child]
		if !ok1 || !ok2 {
			continue
		}
		g.Arcs = append(g.Arcs, []any{from, to, secs(d.ArcTime(a)), arc.CountDelta(), boolByte(!(arc.Plus.Present && arc.Minus.Present))})
	}
	for _, pth := range sel.Paths {
		from, ok1 := node[pth.From]
		to, ok2 := node[pth.To]
		if !ok1 || !ok2 {
			continue
		}
		via := make([]int, len(pth.Via))
		copy(via, pth.Via)
		g.Paths = append(g.Paths, []any{from, to, via})
	}
	return g
}
