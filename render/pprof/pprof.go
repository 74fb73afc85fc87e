// Package pprof writes a profile's synthesised stacks (package stacks) as
// a pprof profile.proto, the format of github.com/google/pprof.
package pprof

import (
	"compress/gzip"
	"fmt"
	"io"
	"math"

	"github.com/google/pprof/profile"

	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/stacks"
	"github.com/egprof/egprof/symtab"
)

// Options control the pprof export.
type Options struct {
	// Naming spells the functions' names (the zero value: raw names), as
	// in egprof's other outputs.
	Naming symtab.Naming
	// Stacks are the bounds of the stack synthesis.
	Stacks stacks.Options
	// Comments are added to the profile's comments (pprof -comments),
	// before egprof's own description of the synthesis.
	Comments []string
	// Ranks, when set, gives the samples rank by rank instead of those of
	// the profile itself (an MPI job's summed ranks): it calls add once per
	// rank with the rank's own profile of the same executable (functions
	// kept whether or not they have data, diff.Options.KeepAll), and each
	// of its samples carries the rank as the numeric label "rank", so
	// that pprof's -tagfocus=rank=3 and -tagshow compare ranks.
	Ranks func(add func(rank int, d *diff.Profile) error) error
}

// Stats describes what the synthesis did and what the profile holds.
type Stats struct {
	stacks.Stats
	// Samples, Locations and Functions count what the profile holds.
	Samples, Locations, Functions int
}

// Write writes the pprof profile of d (see Build) as a gzipped
// profile.proto.
func Write(w io.Writer, d *diff.Profile, opt Options) (Stats, error) {
	p, st, err := Build(d, opt)
	if err != nil {
		return st, err
	}
	// profile.Write compresses at gzip's default level, three times
	// slower than BestSpeed for little gain on these profiles.
	zw, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
	if err != nil {
		return st, fmt.Errorf("writing the pprof profile: %w", err)
	}
	if err := p.WriteUncompressed(zw); err != nil {
		return st, fmt.Errorf("writing the pprof profile: %w", err)
	}
	if err := zw.Close(); err != nil {
		return st, fmt.Errorf("writing the pprof profile: %w", err)
	}
	return st, nil
}

// Build builds the pprof profile of d from its synthesised stacks: a
// single profile (no '-' side) with the numbers gprof prints, or a
// differential one with signed values, '+' minus '-'. Its sample types are
// samples/count, cpu/nanoseconds (the default) and calls/count; function
// k of d is the profile's function and location k+1.
func Build(d *diff.Profile, opt Options) (*profile.Profile, Stats, error) {
	r, err := stacks.Synthesise(d, opt.Stacks)
	if err != nil {
		return nil, Stats{}, fmt.Errorf("pprof export: %w", err)
	}
	st := Stats{Stats: r.Stats}
	p, err := build(d, r, opt, &st)
	if err != nil {
		return nil, st, err
	}
	return p, st, nil
}

// build assembles the pprof profile from the functions of d and the
// stacks r, and completes st.
func build(d *diff.Profile, r *stacks.Result, opt Options, st *Stats) (*profile.Profile, error) {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{
			{Type: "samples", Unit: "count"},
			{Type: "cpu", Unit: "nanoseconds"},
			{Type: "calls", Unit: "count"},
		},
		DefaultSampleType: "cpu",
		PeriodType:        &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:            int64(math.Round(r.Period)),
	}
	if !d.IsDiff() {
		p.DurationNanos = int64(math.Round(d.Plus.TotalTime * r.Period))
	}
	plusMap, err := mappingOf(d.Plus.Syms, 1)
	if err != nil {
		return nil, err
	}
	p.Mapping = append(p.Mapping, plusMap)
	minusMap := plusMap
	if d.Minus != nil && d.Minus.Syms != d.Plus.Syms {
		if minusMap, err = mappingOf(d.Minus.Syms, 2); err != nil {
			return nil, err
		}
		p.Mapping = append(p.Mapping, minusMap)
	}
	p.Function = make([]*profile.Function, len(d.Functions))
	p.Location = make([]*profile.Location, len(d.Functions))
	anyFiles, anyLines := false, false
	// Functions that the naming does not tell apart (C++'s complete and
	// deleting destructors) get one name, and pprof merges them.
	names := d.Labels(opt.Naming)
	for k := range d.Functions {
		f := &d.Functions[k]
		tab, m, idx := d.Plus.Syms, plusMap, f.Plus.Entry
		if idx < 0 {
			tab, m, idx = d.Minus.Syms, minusMap, f.Minus.Entry
		}
		fn := &profile.Function{ID: uint64(k + 1), Name: names[k], SystemName: f.Name}
		if loc, ok := tab.SymbolSource(idx); ok {
			fn.Filename, fn.StartLine = loc.File, int64(loc.Line)
			anyFiles = anyFiles || loc.File != ""
			anyLines = anyLines || loc.Line > 0
		}
		p.Function[k] = fn
		p.Location[k] = &profile.Location{
			ID:      uint64(k + 1),
			Mapping: m,
			Address: tab.Syms[idx].Addr,
			Line:    []profile.Line{{Function: fn, Line: fn.StartLine}},
		}
	}
	for _, m := range p.Mapping {
		m.HasFunctions, m.HasFilenames, m.HasLineNumbers = true, anyFiles, anyLines
	}

	if opt.Ranks == nil {
		addSamples(p, r, p.Location, nil, nil)
	} else {
		// A rank's function k is the symbol its Plus.Entry names; the
		// summed profile has a location for every symbol that any rank
		// has data for.
		locOfSym := make(map[int]*profile.Location, len(d.Functions))
		for k := range d.Functions {
			if e := d.Functions[k].Plus.Entry; e >= 0 {
				locOfSym[e] = p.Location[k]
			}
		}
		err := opt.Ranks(func(rank int, dr *diff.Profile) error {
			rr, err := stacks.Synthesise(dr, opt.Stacks)
			if err != nil {
				return fmt.Errorf("pprof export of rank %d: %w", rank, err)
			}
			locs := make([]*profile.Location, len(dr.Functions))
			for k := range dr.Functions {
				locs[k] = locOfSym[dr.Functions[k].Plus.Entry]
			}
			// The unit keeps rank 0: pprof's decoder drops a numeric
			// label whose value and unit are both zero.
			return addSamples(p, rr, locs, map[string][]int64{"rank": {int64(rank)}}, map[string][]string{"rank": {"rank"}})
		})
		if err != nil {
			return nil, err
		}
	}
	st.Samples = len(p.Sample)
	st.Locations = len(p.Location)
	st.Functions = len(p.Function)
	p.Comments = append(append([]string(nil), opt.Comments...), describe(d, r)...)
	if err := p.CheckValid(); err != nil {
		return nil, fmt.Errorf("pprof export: invalid profile: %w", err)
	}
	return p, nil
}

// addSamples appends the stacks of r to p as samples, locs[k] standing for
// function k of the stacks' profile, each with the numeric labels numLabel
// in the units numUnit (nil for none). pprof drops all-zero samples when it merges: they are
// left out.
func addSamples(p *profile.Profile, r *stacks.Result, locs []*profile.Location, numLabel map[string][]int64, numUnit map[string][]string) error {
	n, refs := 0, 0
	for i := range r.Stacks {
		if r.Stacks[i].Net() != (stacks.Values{}) {
			n++
			refs += len(r.Stacks[i].Funcs)
		}
	}
	// One allocation each for the samples, their values and their stacks.
	samples := make([]profile.Sample, n)
	values := make([]int64, 3*n)
	locations := make([]*profile.Location, refs)
	for i := range r.Stacks {
		s := &r.Stacks[i]
		v := s.Net()
		if v == (stacks.Values{}) {
			continue
		}
		stack := locations[:len(s.Funcs):len(s.Funcs)]
		locations = locations[len(s.Funcs):]
		for j, f := range s.Funcs {
			if stack[j] = locs[f]; stack[j] == nil {
				return fmt.Errorf("pprof export: a rank's function %d has data but the summed profile has none", f)
			}
		}
		val := values[:3:3]
		values = values[3:]
		val[0], val[1], val[2] = v.Samples, v.Nanos, v.Calls
		samples[0] = profile.Sample{Location: stack, Value: val, NumLabel: numLabel, NumUnit: numUnit}
		p.Sample = append(p.Sample, &samples[0])
		samples = samples[1:]
	}
	return nil
}

// describe words the synthesis and what its bounds did, briefly: pprof
// shows the comments in the legend of its graphs.
func describe(d *diff.Profile, r *stacks.Result) []string {
	st := &r.Stats
	c := []string{
		"egprof: stacks synthesised from gprof's call arcs (time shared among callers by calls, as gprof propagates it); flat, cum and edge values are gprof's",
		fmt.Sprintf("egprof: bundles under %g of the time or %d frames deep routed whole; %.4g of %.4g s self time on such stacks", st.MinWeight, st.MaxDepth, st.RoutedTime, st.TotalTime),
	}
	if d.IsDiff() {
		c = append(c, "egprof: differential: '+' minus '-'; functions that did not change have no samples (see egprof --impact)")
	}
	if r.MixedRates {
		c = append(c, "egprof: the two sides have different sampling rates; cpu values use each side's own")
	}
	return c
}

// mappingOf describes the executable of a symbol table: its code range
// (covering every symbol), the file offset of its start and its build ID.
func mappingOf(t *symtab.Table, id uint64) (*profile.Mapping, error) {
	start, limit := t.TextLow, t.TextEnd+1
	if len(t.Syms) > 0 {
		start = min(start, t.Syms[0].Addr)
		limit = max(limit, t.Syms[len(t.Syms)-1].Addr+1)
	}
	m := &profile.Mapping{ID: id, Start: start, Limit: limit, File: t.Path}
	if off, ok := t.TextFileOffset(); ok && off >= t.TextLow-start {
		m.Offset = off - (t.TextLow - start)
	}
	bid, err := t.BuildID()
	if err != nil {
		return nil, fmt.Errorf("pprof export: %w", err)
	}
	m.BuildID = bid
	return m, nil
}

// String summarises the stats in one line.
func (st Stats) String() string {
	return fmt.Sprintf("%d samples, %d functions, stacks up to %d frames; %d bundles, %d routed whole (lighter than %g of the time or %d frames deep) holding %.6g of %.6g s self time",
		st.Samples, st.Functions, st.Deepest, st.Bundles, st.Routed, st.MinWeight, st.MaxDepth, st.RoutedTime, st.TotalTime)
}
