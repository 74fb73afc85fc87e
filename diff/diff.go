// Package diff aligns two profiles (of one executable or of two builds) and
// subtracts them, after eGprof (Schulz and de Supinski, "Practical
// Differential Profiling"): the '+' profile minus the '-' profile, with
// zero deltas kept as information and presence on each side explicit.
package diff

import (
	"math"
	"path"
	"sort"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/symtab"
)

// Side holds one function's numbers in one of the two profiles.
type Side struct {
	// Present reports whether the function exists in this side's
	// executable (the paper's "sym +-" column).
	Present bool
	// Entry is the function's entry in this side's call graph, -1 if the
	// function does not exist there.
	Entry int
	// Samples is the histogram credit of the function (gprof's self time
	// in samples); Self is the same in seconds.
	Samples float64
	Self    float64
	// Calls and SelfCalls are gprof's call counts: calls from other
	// functions, and recursive calls.
	Calls, SelfCalls uint64
	// Children is the time the call graph propagated into the function
	// from its callees, in seconds (gprof's "children" column), and
	// FlatChildren the unscaled children time the flat profile uses for
	// its total-per-call column.
	Children, FlatChildren float64
	// PropSelf is the self time as the call graph prints it (scaled when
	// -E/-N exclude some callers), in seconds.
	PropSelf float64
	// Scale is the factor the side's numbers were multiplied by to make
	// the two sides comparable (see Options); 1 for sums.
	Scale float64
}

// HasData reports whether the side recorded anything for the function:
// samples or calls. A side without data prints as "-".
func (s *Side) HasData() bool {
	return s.Entry >= 0 && (s.Samples != 0 || s.Calls != 0 || s.SelfCalls != 0)
}

// Function is one function of the union of the two profiles.
type Function struct {
	Name   string // raw (mangled) name
	File   string // source file when known, to tell same-named statics apart
	Static bool
	Plus   Side
	Minus  Side
}

// SelfDelta is '+' self seconds minus '-' self seconds.
func (f *Function) SelfDelta() float64 { return f.Plus.Self - f.Minus.Self }

// CallsDelta is '+' calls minus '-' calls.
func (f *Function) CallsDelta() int64 { return int64(f.Plus.Calls) - int64(f.Minus.Calls) }

// TotalDelta is the change of self plus children time in the call graph.
func (f *Function) TotalDelta() float64 {
	return (f.Plus.PropSelf + f.Plus.Children) - (f.Minus.PropSelf + f.Minus.Children)
}

// NoiseSE is the standard error of the self-time delta in seconds,
// treating each side's sample count as a Poisson count: the variances of
// the two counts (equal to the counts) add.
func (f *Function) NoiseSE(plusHZ, minusHZ float64) float64 {
	return CountNoiseSE(f.Plus.Samples, f.Plus.Scale, plusHZ, f.Minus.Samples, f.Minus.Scale, minusHZ)
}

// CountNoiseSE is the standard error, in seconds, of the difference of
// two sample counts, each side's taken as a Poisson count scaled by its
// scale (0 means 1) and converted to seconds at its sampling rate (a side
// whose rate is 0 is left out). The counts given are the scaled ones.
func CountNoiseSE(plusSamples, plusScale, plusHZ, minusSamples, minusScale, minusHZ float64) float64 {
	// A count X scaled by k has the variance k*k*X = k*(kX), and the
	// counts given hold kX.
	v := 0.0
	if plusHZ > 0 {
		v += scaleOf(plusScale) * math.Abs(plusSamples) / (plusHZ * plusHZ)
	}
	if minusHZ > 0 {
		v += scaleOf(minusScale) * math.Abs(minusSamples) / (minusHZ * minusHZ)
	}
	return math.Sqrt(v)
}

// scaleOf is a side's scale, 1 when unset.
func scaleOf(k float64) float64 {
	if k == 0 {
		return 1
	}
	return k
}

// scaleCount multiplies a count by k, to the nearest whole count.
func scaleCount(n uint64, k float64) uint64 {
	if k == 1 {
		return n
	}
	return uint64(math.Round(float64(n) * k))
}

// ArcSide is one call arc's numbers in one profile.
type ArcSide struct {
	Present   bool
	Count     uint64
	Time      float64 // callee self seconds charged to the caller
	ChildTime float64 // callee children seconds charged to the caller
}

// Arc is a caller-callee pair of the union of the two call graphs.
type Arc struct {
	Parent, Child int // indexes into Profile.Functions
	Plus, Minus   ArcSide
}

// CountDelta is '+' count minus '-' count.
func (a *Arc) CountDelta() int64 { return int64(a.Plus.Count) - int64(a.Minus.Count) }

// Profile is the aligned pair of profiles. With only a '+' profile (Minus
// nil) it describes a single profile, so that renderers of differential
// outputs also draw plain ones.
type Profile struct {
	Plus, Minus *callgraph.Graph
	Functions   []Function
	Arcs        []Arc
	// SameBinary reports that both profiles come from one executable and
	// were aligned by address.
	SameBinary bool
	// PlusScale and MinusScale are the factors each side's numbers were
	// multiplied by (Options.PlusScale, Options.MinusScale; 1 for sums).
	PlusScale, MinusScale float64
	// Guessed names the '+' functions of two builds that were paired in
	// address order among same-named functions that neither their
	// translation unit nor their source file told apart.
	Guessed []string
}

// PlusHZ and MinusHZ are the sampling rates of the two sides.
func (p *Profile) PlusHZ() float64 { return hz(p.Plus) }

// MinusHZ is the sampling rate of the '-' side (0 without one).
func (p *Profile) MinusHZ() float64 { return hz(p.Minus) }

func hz(g *callgraph.Graph) float64 {
	if g == nil {
		return 0
	}
	return float64(g.HZ)
}

// IsDiff reports whether the profile has a '-' side.
func (p *Profile) IsDiff() bool { return p.Minus != nil }

// Options control which functions are kept and how the sides compare.
type Options struct {
	// KeepAll keeps functions without data on either side (-z).
	KeepAll bool
	// PlusScale and MinusScale multiply every number of a side (times,
	// samples; calls and arc counts to the nearest whole count) so that
	// unequal sides compare fairly: 1/n for the mean of n profiles, or the
	// ratio of the totals. 0 means 1: eGprof's sums.
	PlusScale, MinusScale float64
}

// Single wraps one call graph as a Profile with no '-' side.
func Single(g *callgraph.Graph, opt Options) *Profile {
	p := &Profile{Plus: g, SameBinary: true, PlusScale: 1, MinusScale: 1}
	p.build(identity(g), opt)
	return p
}

// Subtract aligns minus with plus and subtracts it. Two graphs over the
// same symbol table are aligned by address; otherwise by name (mangled),
// with same-named static functions told apart by their source file and
// then by their order in the executable.
func Subtract(plus, minus *callgraph.Graph, opt Options) *Profile {
	p := &Profile{Plus: plus, Minus: minus, PlusScale: scaleOf(opt.PlusScale), MinusScale: scaleOf(opt.MinusScale)}
	var pairs []pair
	if plus.Syms == minus.Syms || sameSymbols(plus.Syms, minus.Syms) {
		p.SameBinary = true
		pairs = identityPairs(plus.NumSyms)
	} else {
		var guessed []int
		pairs, guessed = alignByName(plus.Syms, minus.Syms)
		for _, i := range guessed {
			p.Guessed = append(p.Guessed, plus.Syms.Syms[i].Name)
		}
	}
	p.build(pairs, opt)
	return p
}

// pair links a symbol index of the '+' table with one of the '-' table
// (-1 where the function is missing on that side).
type pair struct{ plus, minus int }

func identity(g *callgraph.Graph) []pair {
	ps := make([]pair, g.NumSyms)
	for i := range ps {
		ps[i] = pair{i, -1}
	}
	return ps
}

func identityPairs(n int) []pair {
	ps := make([]pair, n)
	for i := range ps {
		ps[i] = pair{i, i}
	}
	return ps
}

// sameSymbols reports whether two symbol tables list the same symbols at
// the same addresses (the same executable loaded twice).
func sameSymbols(a, b *symtab.Table) bool {
	if len(a.Syms) != len(b.Syms) {
		return false
	}
	for i := range a.Syms {
		if a.Syms[i].Addr != b.Syms[i].Addr || a.Syms[i].Name != b.Syms[i].Name {
			return false
		}
	}
	return true
}

// alignByName pairs the functions of two builds by name. A key pairs two
// symbols when it names exactly one not yet paired symbol of each table,
// from the most telling key to the least:
//  1. the raw name and, for a static function, its translation unit (the
//     STT_FILE entry it follows): the unit is the same in both builds,
//     where the source file BFD gives a static function defined in a
//     header can be the header in one build and the including file in
//     the other;
//  2. the raw name and, for a static, its base source file, for
//     executables whose STT_FILE entries do not tell the units apart
//     (link-time optimisation names them after its own partitions);
//  3. the raw name alone, then the demangled name (for symbols whose
//     mangling changed).
//
// Symbols no key tells apart are then paired in address order: by raw
// name and source file, by raw name, by demangled name; guessed lists the
// '+' symbols so paired from more than one candidate on either side.
func alignByName(a, b *symtab.Table) (pairs []pair, guessed []int) {
	unit := func(t *symtab.Table, i int) string {
		if !t.Syms[i].IsStatic {
			return ""
		}
		return t.Syms[i].ObjFile
	}
	source := func(t *symtab.Table, i int) string {
		if !t.Syms[i].IsStatic {
			return ""
		}
		// Compare base names: one build may have debug information (full
		// paths) and the other only STT_FILE names.
		if loc, ok := t.SymbolSource(i); ok {
			return path.Base(loc.File)
		}
		return path.Base(t.Syms[i].ObjFile)
	}
	raw := func(t *symtab.Table, i int) string { return t.Syms[i].Name }
	// Names are demangled once each, and only those of symbols still
	// unpaired when a pass needs them.
	demangledA, demangledB := make([]string, len(a.Syms)), make([]string, len(b.Syms))
	var dem symtab.Demangler
	demangled := func(t *symtab.Table, i int) string {
		names := demangledA
		if t == b {
			names = demangledB
		}
		if names[i] == "" {
			names[i] = dem.Demangle(t.Syms[i].Name, symtab.StyleAuto)
		}
		return names[i]
	}

	res := make([]int, len(a.Syms))
	for i := range res {
		res[i] = -1
	}
	matchedB := make([]bool, len(b.Syms))
	type key struct{ name, file string }
	// match pairs the unpaired symbols whose keys are equal: only keys
	// naming one symbol on each side, or with inOrder the same-keyed
	// symbols in address order (reporting those chosen among several).
	match := func(keyOf func(*symtab.Table, int) key, inOrder bool) {
		inB := map[key][]int{}
		for j := range b.Syms {
			if !matchedB[j] {
				k := keyOf(b, j)
				inB[k] = append(inB[k], j)
			}
		}
		inA := map[key]int{}
		for i := range a.Syms {
			if res[i] < 0 {
				inA[keyOf(a, i)]++
			}
		}
		for i := range a.Syms {
			if res[i] >= 0 {
				continue
			}
			k := keyOf(a, i)
			js := inB[k]
			if len(js) == 0 || (!inOrder && (len(js) > 1 || inA[k] > 1)) {
				continue
			}
			if len(js) > 1 || inA[k] > 1 {
				guessed = append(guessed, i)
			}
			res[i], matchedB[js[0]] = js[0], true
			inB[k] = js[1:]
		}
	}
	// byRawAndSource keys a symbol by its raw name and source file. The
	// source file (which may need the debug information decoded) is
	// looked up only for a raw name that some unpaired symbol of the
	// other table has: another symbol can pair with none.
	byRawAndSource := func() func(*symtab.Table, int) key {
		unpaired := [2]map[string]bool{{}, {}}
		for i := range a.Syms {
			if res[i] < 0 {
				unpaired[0][a.Syms[i].Name] = true
			}
		}
		for j := range b.Syms {
			if !matchedB[j] {
				unpaired[1][b.Syms[j].Name] = true
			}
		}
		return func(t *symtab.Table, i int) key {
			other := unpaired[1]
			if t == b {
				other = unpaired[0]
			}
			if !other[t.Syms[i].Name] {
				return key{raw(t, i), ""}
			}
			return key{raw(t, i), source(t, i)}
		}
	}
	match(func(t *symtab.Table, i int) key { return key{raw(t, i), unit(t, i)} }, false)
	match(byRawAndSource(), false)
	match(func(t *symtab.Table, i int) key { return key{raw(t, i), ""} }, false)
	match(func(t *symtab.Table, i int) key { return key{demangled(t, i), ""} }, false)
	match(byRawAndSource(), true)
	match(func(t *symtab.Table, i int) key { return key{raw(t, i), ""} }, true)
	match(func(t *symtab.Table, i int) key { return key{demangled(t, i), ""} }, true)

	pairs = make([]pair, 0, len(a.Syms)+len(b.Syms))
	for i := range a.Syms {
		pairs = append(pairs, pair{i, res[i]})
	}
	for j := range b.Syms {
		if !matchedB[j] {
			pairs = append(pairs, pair{-1, j})
		}
	}
	return pairs, guessed
}

func side(g *callgraph.Graph, i int, k float64) Side {
	if g == nil || i < 0 {
		return Side{Entry: -1, Scale: k}
	}
	e := &g.Entries[i]
	h := float64(g.HZ) / k
	return Side{
		Present:      true,
		Entry:        i,
		Samples:      e.Ticks * k,
		Self:         e.Ticks / h,
		Calls:        scaleCount(e.NCalls, k),
		SelfCalls:    scaleCount(e.SelfCalls, k),
		Children:     e.PropChild / h,
		FlatChildren: e.ChildTime / h,
		PropSelf:     e.PropSelf / h,
		Scale:        k,
	}
}

// build fills Functions and Arcs from the aligned pairs. A function is kept
// when either side recorded data for it or an arc touches it (or always,
// with KeepAll); a function with equal, non-zero data on both sides is
// kept with zero deltas.
func (p *Profile) build(pairs []pair, opt Options) {
	touched := func(g *callgraph.Graph, i int) bool {
		return g != nil && i >= 0 && (len(g.Entries[i].Parents) > 0 || len(g.Entries[i].Children) > 0)
	}
	plusFn := make([]int, 0)
	minusFn := make([]int, 0)
	if p.Plus != nil {
		plusFn = make([]int, p.Plus.NumSyms)
	}
	if p.Minus != nil {
		minusFn = make([]int, p.Minus.NumSyms)
	}
	for i := range plusFn {
		plusFn[i] = -1
	}
	for i := range minusFn {
		minusFn[i] = -1
	}
	// Room for every pair: growing the table by appends would allocate
	// several times its size.
	p.Functions = make([]Function, 0, len(pairs))
	for _, pr := range pairs {
		f := Function{Plus: side(p.Plus, pr.plus, p.PlusScale), Minus: side(p.Minus, pr.minus, p.MinusScale)}
		if !opt.KeepAll && !f.Plus.HasData() && !f.Minus.HasData() && !touched(p.Plus, pr.plus) && !touched(p.Minus, pr.minus) {
			continue
		}
		var tab *symtab.Table
		idx := pr.plus
		if pr.plus >= 0 {
			tab = p.Plus.Syms
		} else {
			tab, idx = p.Minus.Syms, pr.minus
		}
		s := &tab.Syms[idx]
		f.Name, f.Static = s.Name, s.IsStatic
		if s.IsStatic {
			f.File = s.ObjFile
			if loc, ok := tab.SymbolSource(idx); ok {
				f.File = loc.File
			}
		}
		p.Functions = append(p.Functions, f)
		k := len(p.Functions) - 1
		if pr.plus >= 0 {
			plusFn[pr.plus] = k
		}
		if pr.minus >= 0 {
			minusFn[pr.minus] = k
		}
	}
	type arcKey struct{ parent, child int32 }
	nArcs := 0
	if p.Plus != nil {
		nArcs += len(p.Plus.Arcs)
	}
	if p.Minus != nil {
		nArcs += len(p.Minus.Arcs)
	}
	arcAt := make(map[arcKey]int, nArcs)
	p.Arcs = make([]Arc, 0, nArcs)
	add := func(g *callgraph.Graph, fn []int, plusSide bool) {
		if g == nil {
			return
		}
		for _, a := range g.Arcs {
			if int(a.Parent) >= len(fn) || int(a.Child) >= len(fn) {
				continue
			}
			pi, ci := fn[a.Parent], fn[a.Child]
			if pi < 0 || ci < 0 {
				continue
			}
			k := arcKey{int32(pi), int32(ci)}
			id, ok := arcAt[k]
			if !ok {
				p.Arcs = append(p.Arcs, Arc{Parent: pi, Child: ci})
				id = len(p.Arcs) - 1
				arcAt[k] = id
			}
			scale := p.PlusScale
			if !plusSide {
				scale = p.MinusScale
			}
			h := float64(g.HZ) / scale
			s := ArcSide{Present: true, Count: scaleCount(a.Count, scale), Time: a.Time / h, ChildTime: a.ChildTime / h}
			if plusSide {
				p.Arcs[id].Plus = s
			} else {
				p.Arcs[id].Minus = s
			}
		}
	}
	add(p.Plus, plusFn, true)
	add(p.Minus, minusFn, false)
}

// ImpactOrder returns the function indexes by decreasing |self delta|,
// then decreasing |calls delta|, then raw name (the order of the impact
// table and of the differential flat profile).
func (p *Profile) ImpactOrder() []int {
	order := make([]int, len(p.Functions))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := &p.Functions[order[a]], &p.Functions[order[b]]
		dx, dy := math.Abs(x.SelfDelta()), math.Abs(y.SelfDelta())
		if dx != dy {
			return dx > dy
		}
		cx, cy := abs64(x.CallsDelta()), abs64(y.CallsDelta())
		if cx != cy {
			return cx > cy
		}
		return x.Name < y.Name
	})
	return order
}

// TotalAbsSelfDelta is Σ|self delta| over all functions, the denominator
// of the impact share.
func (p *Profile) TotalAbsSelfDelta() float64 {
	t := 0.0
	for i := range p.Functions {
		t += math.Abs(p.Functions[i].SelfDelta())
	}
	return t
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// Labels spells every function of the profile with naming (see
// symtab.Naming): same-named statics are told apart by their file, as gprof's
// index does. The result is parallel to Functions.
func (p *Profile) Labels(naming symtab.Naming) []string {
	fns := make([]symtab.Named, len(p.Functions))
	for k := range p.Functions {
		f := &p.Functions[k]
		tab, idx := p.Plus, f.Plus.Entry
		if idx < 0 {
			tab, idx = p.Minus, f.Minus.Entry
		}
		fns[k] = symtab.Named{Raw: f.Name, Static: f.Static}
		if f.File != "" {
			fns[k].Src, fns[k].HasSrc = symtab.SourceLoc{File: f.File}, true
		}
		if tab != nil && tab.Syms != nil && idx >= 0 && idx < len(tab.Syms.Syms) {
			if loc, ok := tab.Syms.SymbolSource(idx); ok && (f.File == "" || loc.File == f.File) {
				fns[k].Src, fns[k].HasSrc = loc, true
			}
		}
	}
	return naming.Labels(fns)
}
