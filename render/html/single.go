package html

import (
	"strconv"
	"strings"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/render"
)

// flatJSON is gprof's flat profile. Each row is [id, % time, cumulative
// seconds, self seconds, calls, self per call, total per call]: the id a
// number, the rest strings as the report prints them ("" where the
// report leaves the column blank).
type flatJSON struct {
	Unit   string  `json:"unit"`   // the per-call columns' unit, "ms/call"
	Sample string  `json:"sample"` // seconds per sample
	Rows   [][]any `json:"rows"`
}

// cgJSON is gprof's call graph. Each entry (functions and cycles as
// wholes, in the call graph's order) is [id, index, % time, self,
// children, calls, self-calls, cycle, flags, calls its arcs divide by,
// parent arcs, child arcs, members]; flags: 1 the report prints the
// entry, 2 it is a cycle as a whole, 4 its index prints in brackets
// ("[N]"; else in parentheses). Each arc is [parent id, child id,
// count, self, children].
type cgJSON struct {
	Entries [][]any `json:"entries"`
	Arcs    [][]any `json:"arcs"`
	Total   string  `json:"total"` // the seconds the percentages are of
}

// Entry flags.
const (
	flagShown = 1
	flagCycle = 2
	flagPrint = 4
)

// singlePage is the page of one (summed) profile.
func singlePage(d *diff.Profile, opt Options) (*page, Stats, error) {
	g := d.Plus
	p := &page{Kind: "single", Title: title("single", opt), Command: commandLine(opt.Command)}
	p.Sides = []sideJSON{graphSide("", opt.Plus, g, d.PlusTotal())}
	p.Names = entryNames(d, opt)
	if g.HasHist {
		p.Flat = flatProfile(g, opt)
		if opt.LineNames != nil {
			p.Lines, p.Flat = lineProfile(p.Flat, opt), nil
		}
	}
	p.Source = sources(opt.Sources)
	if p.Lines != nil {
		lineSeconds(p.Source, p.Lines)
	}
	if g.HasArcs {
		p.CG = callGraph(g, opt)
	}
	// The flame graph's frames are d's functions; the page names entries.
	toEntry := make([]int, len(d.Functions))
	for k := range d.Functions {
		toEntry[k] = d.Functions[k].Plus.Entry
	}
	fl, st, err := flameGraph(d, opt, toEntry)
	if err != nil {
		return nil, st, err
	}
	p.Flame = fl
	if opt.Ranks != nil {
		p.Ranks = rankAnalysis(opt.Ranks, opt.RankTop)
	}
	return p, st, nil
}

// entryNames names every entry of the call graph: the functions as
// egprof's own outputs spell them (d.Labels), cycles as gprof does.
func entryNames(d *diff.Profile, opt Options) []string {
	g := d.Plus
	names := make([]string, len(g.Entries))
	labels := d.Labels(opt.Naming)
	for k := range d.Functions {
		if e := d.Functions[k].Plus.Entry; e >= 0 && e < len(names) {
			names[e] = labels[k]
		}
	}
	for i := range g.Entries {
		e := &g.Entries[i]
		switch {
		case names[i] != "":
		case e.IsCycle():
			names[i] = "<cycle " + strconv.Itoa(e.Cycle) + " as a whole>"
		default:
			names[i] = opt.Naming.Base(e.Sym.Name)
		}
	}
	return names
}

// flatProfile lists the flat profile's rows as render.Text.Flat prints
// them (without -T).
func flatProfile(g *callgraph.Graph, opt Options) *flatJSON {
	hz := float64(g.HZ)
	unit, scale := render.FlatUnit(g)
	fl := &flatJSON{Unit: unit, Sample: render.Fixed(1/hz, 2), Rows: [][]any{}}
	total := g.TotalTime
	if total <= 0 {
		total = 1
	}
	accum := 0.0
	for _, i := range g.FlatOrder() {
		if !g.FlatSelected(i) {
			continue
		}
		e := &g.Entries[i]
		if !opt.ShowZeros && e.NCalls == 0 && e.Ticks == 0 {
			continue
		}
		accum += e.Ticks
		row := []any{i, render.Fixed(100*e.Ticks/total, 2), secs(accum / hz), secs(e.Ticks / hz), "", "", ""}
		if e.NCalls != 0 {
			calls := float64(e.NCalls)
			row[4] = itoa(e.NCalls)
			row[5] = secs(scale * e.Ticks / hz / calls)
			row[6] = secs(scale * (e.Ticks + e.ChildTime) / hz / calls)
		}
		fl.Rows = append(fl.Rows, row)
	}
	return fl
}

// callGraph lists the call graph's entries and arcs as render.Text's
// CallGraph prints them.
func callGraph(g *callgraph.Graph, opt Options) *cgJSON {
	hz := float64(g.HZ)
	printTime := g.PrintTime
	cg := &cgJSON{Entries: [][]any{}, Arcs: [][]any{}, Total: secs(printTime / hz)}
	if printTime <= 0 {
		printTime = 1
	}
	arcID := make([]int, len(g.Arcs))
	for i := range arcID {
		arcID[i] = -1
	}
	arcs := func(list []int32) []int {
		ids := make([]int, 0, len(list))
		for _, a := range list {
			if arcID[a] < 0 {
				arc := &g.Arcs[a]
				arcID[a] = len(cg.Arcs)
				cg.Arcs = append(cg.Arcs, []any{arc.Parent, arc.Child, arc.Count, secs(arc.Time / hz), secs(arc.ChildTime / hz)})
			}
			ids = append(ids, arcID[a])
		}
		return ids
	}
	for _, i := range g.ByTime {
		e := &g.Entries[i]
		flags := 0
		if !(!opt.ShowZeros && e.NCalls == 0 && e.SelfCalls == 0 && e.PropSelf == 0 && e.PropChild == 0) && e.PrintFlag {
			flags |= flagShown
		}
		if e.IsCycle() {
			flags |= flagCycle
		}
		if e.PrintFlag {
			flags |= flagPrint
		}
		divisor := e.NCalls
		if h := g.CycleEntry(i); h >= 0 {
			divisor = g.Entries[h].NCalls
		}
		members := make([]int, len(e.DisplayMembers))
		copy(members, e.DisplayMembers)
		cg.Entries = append(cg.Entries, []any{
			i, e.Index, render.Fixed(100*(e.PropSelf+e.PropChild)/printTime, 1), secs(e.PropSelf / hz), secs(e.PropChild / hz),
			e.NCalls, e.SelfCalls, e.Cycle, flags, divisor, arcs(e.DisplayParents), arcs(e.DisplayChildren), members,
		})
	}
	return cg
}

// lineProfile is the line-by-line flat profile (-l): fl's rows, each
// with its line's name (opt.LineNames, by entry) in place of its id, and
// after its cells the index in opt.Sources of the annotated file the line
// is in and its line number (-1 and 0 when it is in none).
func lineProfile(fl *flatJSON, opt Options) *flatJSON {
	lines := &flatJSON{Unit: fl.Unit, Sample: fl.Sample, Rows: make([][]any, 0, len(fl.Rows))}
	file := map[string]int{}
	for k := len(opt.Sources) - 1; k >= 0; k-- {
		file[opt.Sources[k].Name] = k
	}
	for _, r := range fl.Rows {
		id, _ := r[0].(int)
		name, src, line := "", -1, 0
		if id >= 0 && id < len(opt.LineNames) {
			name = opt.LineNames[id]
		}
		if id >= 0 && id < len(opt.LineLocs) {
			if k, ok := file[opt.LineLocs[id].File]; ok && opt.LineLocs[id].Line > 0 {
				src, line = k, opt.LineLocs[id].Line
			}
		}
		row := append([]any{name}, r[1:]...)
		lines.Rows = append(lines.Rows, append(row, src, line))
	}
	return lines
}

// sourceJSON is one annotated source file (-A). Each line is [count,
// text, seconds]: count as the report prints it in front of the line
// ("4500", "#####", "1,2"; "" where it prints none), text the source line,
// seconds (with -l) the self seconds of the line-by-line flat profile's
// rows at this line, as it prints them, joined by "+" when there are
// several ("" where there are none or all are 0.00).
type sourceJSON struct {
	Name    string     `json:"name"`
	Lines   [][]string `json:"lines"`
	Trailer string     `json:"trailer"`
}

// sources lays out the annotated files: each line's 16 columns of count
// (render.AnnotatedFile) are split into the count and the source text.
func sources(files []render.AnnotatedFile) []sourceJSON {
	var out []sourceJSON
	for _, f := range files {
		s := sourceJSON{Name: f.Name, Lines: make([][]string, 0, len(f.Lines)), Trailer: f.Trailer}
		for _, l := range f.Lines {
			count, text := l, ""
			if len(l) >= annotationWidth {
				count, text = l[:annotationWidth], l[annotationWidth:]
			}
			// A long count is cut at 16 columns, arrow and all.
			count = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(count), "->"))
			s.Lines = append(s.Lines, []string{count, text, ""})
		}
		out = append(out, s)
	}
	return out
}

// annotationWidth is the width of the count column -A prints in front of
// every source line.
const annotationWidth = 16

// lineSeconds puts the self seconds of the line-by-line flat profile's
// rows (lineProfile's, in the report's order) on their lines of files.
func lineSeconds(files []sourceJSON, lines *flatJSON) {
	for _, r := range lines.Rows {
		if len(r) < 9 {
			continue
		}
		k, _ := r[7].(int)
		n, _ := r[8].(int)
		self, _ := r[3].(string)
		if k < 0 || k >= len(files) || n < 1 || n > len(files[k].Lines) || self == "" || self == secs(0) {
			continue
		}
		cell := &files[k].Lines[n-1][2]
		if *cell != "" {
			*cell += "+"
		}
		*cell += self
	}
}
