package render

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/egprof/egprof/diff"
)

// DiffOptions are the display settings of the differential text outputs.
type DiffOptions struct {
	TextOptions
	NoiseOff bool
	// Selected reports whether a function's row is shown (gprof's -p/-P
	// symspecs); nil shows every row.
	Selected func(f *diff.Function) bool
	// MinCalls hides rows whose call counts are below it on both sides
	// (-m); 0 hides nothing.
	MinCalls uint64
	// Plus and Minus say what each side is, and Scaling how the two were
	// made comparable, for the lines that open the differential profile
	// (see Sides).
	Plus, Minus Side
	Scaling     string
}

// Side names one side of a differential profile: its executable and the
// profile files summed into it.
type Side struct {
	Exe   string
	Files []string
}

// sideFilesShown is how many of a side's files the opening lines name.
const sideFilesShown = 3

// describe is the side's opening line, without its sign.
func (s Side) describe() string {
	n := len(s.Files)
	what := "profiles"
	if n == 1 {
		what = "profile"
	}
	files := strings.Join(s.Files[:min(n, sideFilesShown)], " ")
	if n > sideFilesShown {
		files += fmt.Sprintf(" ... (%d in all)", n)
	}
	return fmt.Sprintf("(%d %s of %s): %s", n, what, s.Exe, files)
}

// DiffText writes the differential sections.
type DiffText struct {
	*Text
	p      *diff.Profile
	opt    DiffOptions
	labels []string // the functions' names, parallel to p.Functions
}

// NewDiffText returns a renderer of the differential profile p.
func NewDiffText(w io.Writer, p *diff.Profile, opt DiffOptions) *DiffText {
	return &DiffText{Text: NewText(w, p.Plus, opt.TextOptions), p: p, opt: opt, labels: p.Labels(opt.Naming())}
}

// Name is the printed name of function i of the profile.
func (d *DiffText) Name(i int) string { return d.labels[i] }

// fname is the printed name of function i of the profile.
func (d *DiffText) fname(i int) string { return d.labels[i] }

// Sides writes the lines that open every differential output: which
// executable and which profiles make each side.
func (d *DiffText) Sides() {
	if d.opt.Plus.Exe == "" {
		return
	}
	fmt.Fprintf(d.w, "'+' %s\n'-' %s\n", d.opt.Plus.describe(), d.opt.Minus.describe())
	if d.opt.Scaling != "" {
		fmt.Fprintf(d.w, "compared: %s\n", d.opt.Scaling)
	}
	d.w.WriteByte('\n')
}

func (d *DiffText) rows() []int {
	var rows []int
	for _, i := range d.p.ImpactOrder() {
		f := &d.p.Functions[i]
		if d.opt.Selected != nil && !d.opt.Selected(f) {
			continue
		}
		if d.opt.MinCalls > 1 && f.Plus.Calls < d.opt.MinCalls && f.Minus.Calls < d.opt.MinCalls {
			continue
		}
		rows = append(rows, i)
	}
	return rows
}

// ImpactRows are the functions the impact table lists, as indexes into
// the profile's Functions, in its order (the options' symspecs and -m
// applied).
func (d *DiffText) ImpactRows() []int { return d.rows() }

// WithinNoise reports whether the impact table marks function i's self
// delta as within sampling noise ("~"; never with --noise=off).
func (d *DiffText) WithinNoise(i int) bool { return d.noisy(i) }

// noisy reports whether a function's self delta is within two standard
// errors of the sampling noise.
func (d *DiffText) noisy(i int) bool {
	return !d.opt.NoiseOff && d.p.WithinNoise(i)
}

// Flat writes the differential profile in gprof's flat-profile layout (the
// paper's "old format"): signed impact share, running sum of absolute
// deltas, signed self delta, call delta and per-call deltas.
func (d *DiffText) Flat() {
	t := d.Text
	t.separator()
	w := t.w
	w.WriteString("Flat profile:\n")
	rows := d.rows()
	top := 0.0
	for _, i := range rows {
		if s, tot, ok := d.p.Functions[i].PerCallDelta(); ok {
			top = math.Max(top, math.Max(math.Abs(s), math.Abs(tot)))
		}
	}
	unit := 0
	if top > 0 {
		for unit = 0; unit < len(siPrefixes); unit++ {
			v := siPrefixes[unit].scale * top
			if v >= 1 && v < 1000 {
				break
			}
		}
		if unit == len(siPrefixes) {
			unit = 0
		}
	}
	abbrev := d.p.Plus.Abbrev
	unitName := string([]byte{siPrefixes[unit].prefix, abbrev}) + "/call"
	dimen := d.p.Plus.Dimen
	fmt.Fprintf(w, "\nEach sample counts as %s %s.\n", gfmt(1/d.p.PlusHZ()), dimen)
	total := d.p.TotalAbsSelfDelta()
	if total <= 0 {
		w.WriteString(" no time accumulated\n\n")
		total = 1
	}
	fmt.Fprintf(w, "%5.5s %10.10s %8.8s %8.8s %8.8s %8.8s  %-8.8s\n", "%  ", "cumulative", "self  ", "", "self  ", "total ", "")
	fmt.Fprintf(w, "%5.5s %9.9s  %8.8s %8.8s %8.8s %8.8s  %-8.8s\n", "time", dimen, dimen, "calls", unitName, unitName, "name")
	scale := siPrefixes[unit].scale
	accum := 0.0
	for _, i := range rows {
		f := &d.p.Functions[i]
		delta := f.SelfDelta()
		accum += math.Abs(delta)
		line := fixed(100*delta/total, 6, 2) + " " + fixed(accum, 9, 2) + " " + fixed(delta, 8, 2)
		if f.Plus.Calls != 0 || f.Minus.Calls != 0 {
			line += " " + padLeft(strconv.FormatInt(f.CallsDelta(), 10), 8)
			if s, tot, ok := f.PerCallDelta(); ok {
				line += " " + fixed(scale*s, 8, 2) + " " + fixed(scale*tot, 8, 2) + "  "
			} else {
				line += strings.Repeat(" ", 20)
			}
		} else {
			line += strings.Repeat(" ", 29)
		}
		w.WriteString(line + d.fname(i) + "\n")
	}
	d.noiseLegend(rows)
	if !d.opt.Brief {
		w.WriteString(DiffFlatBlurb)
	}
}

// noiseLegend writes, after the old-format table (whose columns stay
// gprof's, for the scripts that parse them), the line naming the rows whose
// change of self time is within sampling noise.
func (d *DiffText) noiseLegend(rows []int) {
	if d.opt.NoiseOff {
		return
	}
	var noisy []string
	for _, i := range rows {
		if d.noisy(i) && d.p.Functions[i].SelfDelta() != 0 {
			noisy = append(noisy, d.fname(i))
		}
	}
	if len(noisy) > 0 {
		fmt.Fprintf(d.w, "\nWithin sampling noise (two standard errors): %s\n", strings.Join(noisy, ", "))
	}
}

// Impact writes the extended impact table (the paper's "new format").
func (d *DiffText) Impact() {
	t := d.Text
	t.separator()
	w := t.w
	w.WriteString("Differential profile ('+' minus '-'):\n\n")
	total := d.p.TotalAbsSelfDelta()
	if total <= 0 {
		total = 1
	}
	fmt.Fprintf(w, "%7s %9s %9s %9s %9s %9s %9s %4s\n", "%", "+self", "-self", "diff", "+self", "-self", "diff", "sym")
	fmt.Fprintf(w, "%7s %9s %9s %9s %9s %9s %9s %4s  %s\n", "impact", "seconds", "seconds", "seconds", "calls", "calls", "calls", "+-", "name")
	secs := func(s *diff.Side) string {
		if !s.HasData() {
			return padLeft("-", 9)
		}
		return fixed(s.Self, 9, 2)
	}
	calls := func(s *diff.Side) string {
		if s.Calls == 0 {
			return padLeft("-", 9)
		}
		return padLeft(strconv.FormatUint(s.Calls, 10), 9)
	}
	mark := func(b bool) string {
		if b {
			return "X"
		}
		return "-"
	}
	for _, i := range d.rows() {
		f := &d.p.Functions[i]
		line := fixed(100*f.SelfDelta()/total, 7, 2) + " " + secs(&f.Plus) + " " + secs(&f.Minus) + " " +
			fixed(f.SelfDelta(), 9, 2) + " " + calls(&f.Plus) + " " + calls(&f.Minus) + " " +
			padLeft(strconv.FormatInt(f.CallsDelta(), 10), 9) + "   " + mark(f.Plus.Present) + mark(f.Minus.Present) + "  " + d.fname(i)
		if d.noisy(i) {
			line += "  ~"
		}
		w.WriteString(line + "\n")
	}
	if !d.opt.Brief {
		w.WriteString(ImpactBlurb)
	}
}

// CallGraph writes the differential call graph in gprof's layout: each
// function's signed changes of self and children time and of calls, with
// its callers and callees and the changes along each arc. Cycles are not
// grouped (the two runs may have different ones); calls within them show
// as ordinary arcs.
func (d *DiffText) CallGraph() {
	t := d.Text
	w := t.w
	p := d.p
	t.separator()
	if d.opt.Brief {
		w.WriteString("\t\t\tCall graph\n\n")
	} else {
		w.WriteString("\t\t     Call graph (explanation follows)\n\n")
	}
	ord := p.CallGraphOrder()
	order, index := ord.Order, ord.Index
	totalAbs := p.TotalAbsSelfDelta()
	fmt.Fprintf(w, "\ngranularity: each sample hit covers %d byte(s)", int64(p.Plus.Scale)*2)
	if totalAbs > 0 {
		fmt.Fprintf(w, " for %s%% of %s seconds of change\n\n", fixed(100*(1/p.PlusHZ())/totalAbs, 0, 2), fixed(totalAbs, 0, 2))
	} else {
		w.WriteString(" no time changed\n\n")
		totalAbs = 1
	}
	w.WriteString("index % time    self  children    called     name\n")
	// Each entry is formatted into one buffer, reused.
	var b []byte
	name := func(b []byte, i int) []byte {
		b = append(b, d.fname(i)...)
		b = append(b, " ["...)
		b = strconv.AppendInt(b, int64(index[i]), 10)
		return append(b, ']')
	}
	arcLine := func(b []byte, arc *diff.Arc, calls int64, end int) []byte {
		if arc.Parent == arc.Child {
			b = appendSpaces(b, 28+1)
			b = appendInt(b, arc.CountDelta(), 7)
			b = appendSpaces(b, 1+7+5)
		} else {
			b = appendSpaces(b, 12+1)
			b = appendFixed(b, arc.Plus.Time-arc.Minus.Time, 7, 2)
			b = append(b, ' ')
			b = appendFixed(b, arc.Plus.ChildTime-arc.Minus.ChildTime, 7, 2)
			b = append(b, ' ')
			b = appendInt(b, arc.CountDelta(), 7)
			b = append(b, '/')
			b = appendIntLeft(b, calls, 7)
			b = appendSpaces(b, 5)
		}
		b = name(b, end)
		return append(b, '\n')
	}
	for _, i := range order {
		b = b[:0]
		f := &p.Functions[i]
		ps := ord.Parents[i]
		if len(ps) == 0 {
			b = appendSpaces(b, 49)
			b = append(b, " <spontaneous>\n"...)
		}
		callsDelta := f.CallsDelta()
		for _, a := range ps {
			arc := &p.Arcs[a]
			b = arcLine(b, arc, callsDelta, arc.Parent)
		}
		selfDelta := f.Plus.PropSelf - f.Minus.PropSelf
		childDelta := f.Plus.Children - f.Minus.Children
		start := len(b)
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(index[i]), 10)
		b = append(b, ']')
		b = appendSpaces(b, 6-(len(b)-start))
		b = b[:start+6] // the tag is cut to 6 columns
		b = append(b, ' ')
		b = appendFixed(b, 100*f.TotalDelta()/totalAbs, 5, 1)
		b = append(b, ' ')
		b = appendFixed(b, selfDelta, 7, 2)
		b = append(b, ' ')
		b = appendFixed(b, childDelta, 7, 2)
		if f.Plus.Calls+f.Plus.SelfCalls+f.Minus.Calls+f.Minus.SelfCalls != 0 {
			b = append(b, ' ')
			b = appendInt(b, callsDelta, 7)
			if f.Plus.SelfCalls != 0 || f.Minus.SelfCalls != 0 {
				b = append(b, '+')
				b = appendIntLeft(b, int64(f.Plus.SelfCalls)-int64(f.Minus.SelfCalls), 7)
				b = append(b, ' ')
			} else {
				b = appendSpaces(b, 9)
			}
		} else {
			b = appendSpaces(b, 17)
		}
		b = name(b, i)
		b = append(b, '\n')
		for _, a := range ord.Children[i] {
			arc := &p.Arcs[a]
			b = arcLine(b, arc, p.Functions[arc.Child].CallsDelta(), arc.Child)
		}
		b = append(b, "-----------------------------------------------\n"...)
		w.Write(b)
	}
	if !d.opt.Brief {
		w.WriteString(DiffCallGraphBlurb)
	}
	t.printed = true
	// The index by function name.
	w.WriteString("\f\nIndex by function name\n\n")
	byName := append([]int(nil), order...)
	sort.SliceStable(byName, func(a, b int) bool { return p.Functions[byName[a]].Name < p.Functions[byName[b]].Name })
	rows := (len(byName) + 2) / 3
	colWidth := (d.opt.Width - 1) / 3
	for r := 0; r < rows; r++ {
		col, start := 0, 0
		var line []byte
		for j := r; j < len(byName); j += rows {
			i := byName[j]
			buf := "[" + strconv.Itoa(index[i]) + "]"
			col += len(buf)
			for ; col < start+5; col++ {
				line = append(line, ' ')
			}
			label := d.fname(i)
			line = append(line, " "+buf+" "+label...)
			col += len(label)
			start += colWidth
		}
		w.Write(append(line, '\n'))
	}
}
