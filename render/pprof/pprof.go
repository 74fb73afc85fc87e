// Package pprof writes a profile's synthesised stacks (package stacks) as
// a pprof profile.proto, the format of github.com/google/pprof.
//
// The protocol buffer is encoded here, by hand, for the few fields egprof
// fills in (proto.go), rather than through google/pprof's profile package:
// that package compiles about twenty regular expressions when it is
// initialised, which every run of egprof would pay for at start-up,
// gprof-compatible runs that write no pprof profile included. The encoding
// follows profile.Profile.WriteUncompressed field for field (the same
// string table, in the same order), so the files are the ones that
// package wrote; the tests decode what is written here with it and with
// the real pprof.
package pprof

import (
	"fmt"
	"io"
	"math"
	"slices"

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
	// At flate's BestSpeed: the default level (google/pprof's) is three
	// times slower for little gain on these profiles.
	if err := writeGzip(w, p.Marshal()); err != nil {
		return st, fmt.Errorf("writing the pprof profile: %w", err)
	}
	return st, nil
}

// Build builds the pprof profile of d from its synthesised stacks: a
// single profile (no '-' side) with the numbers gprof prints, or a
// differential one with signed values, '+' minus '-'. Its sample types are
// samples/count, cpu/nanoseconds (the default) and calls/count; function
// k of d is the profile's function and location k+1.
func Build(d *diff.Profile, opt Options) (*Profile, Stats, error) {
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
func build(d *diff.Profile, r *stacks.Result, opt Options, st *Stats) (*Profile, error) {
	p := &Profile{period: int64(math.Round(r.Period))}
	if !d.IsDiff() {
		p.durationNanos = int64(math.Round(d.Plus.TotalTime * r.Period))
	}
	plusMap, err := mappingOf(d.Plus.Syms, 1)
	if err != nil {
		return nil, err
	}
	p.mappings = append(p.mappings, plusMap)
	minusID := plusMap.id
	if d.Minus != nil && d.Minus.Syms != d.Plus.Syms {
		minusMap, err := mappingOf(d.Minus.Syms, 2)
		if err != nil {
			return nil, err
		}
		p.mappings = append(p.mappings, minusMap)
		minusID = minusMap.id
	}
	p.functions = make([]function, len(d.Functions))
	p.locations = make([]location, len(d.Functions))
	anyFiles, anyLines := false, false
	// Functions that the naming does not tell apart (C++'s complete and
	// deleting destructors) get one name, and pprof merges them.
	names := d.Labels(opt.Naming)
	for k := range d.Functions {
		f := &d.Functions[k]
		tab, m, idx := d.Plus.Syms, plusMap.id, f.Plus.Entry
		if idx < 0 {
			tab, m, idx = d.Minus.Syms, minusID, f.Minus.Entry
		}
		fn := function{name: names[k], systemName: f.Name}
		if loc, ok := tab.SymbolSource(idx); ok {
			fn.filename, fn.startLine = loc.File, int64(loc.Line)
			anyFiles = anyFiles || loc.File != ""
			anyLines = anyLines || loc.Line > 0
		}
		p.functions[k] = fn
		p.locations[k] = location{mapping: m, address: tab.Syms[idx].Addr, line: fn.startLine}
	}
	for i := range p.mappings {
		p.mappings[i].hasFilenames, p.mappings[i].hasLineNumbers = anyFiles, anyLines
	}

	if opt.Ranks == nil {
		locs := make([]uint64, len(d.Functions))
		for k := range locs {
			locs[k] = uint64(k + 1)
		}
		if err := addSamples(p, r, locs, 0); err != nil {
			return nil, err
		}
	} else {
		// A rank's function k is the symbol its Plus.Entry names; the
		// summed profile has a location for every symbol that any rank
		// has data for.
		locOfSym := make(map[int]uint64, len(d.Functions))
		for k := range d.Functions {
			if e := d.Functions[k].Plus.Entry; e >= 0 {
				locOfSym[e] = uint64(k + 1)
			}
		}
		p.rankLabels = true
		err := opt.Ranks(func(rank int, dr *diff.Profile) error {
			rr, err := stacks.Synthesise(dr, opt.Stacks)
			if err != nil {
				return fmt.Errorf("pprof export of rank %d: %w", rank, err)
			}
			locs := make([]uint64, len(dr.Functions))
			for k := range dr.Functions {
				locs[k] = locOfSym[dr.Functions[k].Plus.Entry]
			}
			return addSamples(p, rr, locs, int64(rank))
		})
		if err != nil {
			return nil, err
		}
	}
	st.Samples = len(p.samples)
	st.Locations = len(p.locations)
	st.Functions = len(p.functions)
	p.comments = append(append([]string(nil), opt.Comments...), describe(d, r)...)
	return p, nil
}

// addSamples appends the stacks of r to p as samples, locs[k] the
// location ID of function k of the stacks' profile, each labelled with
// rank when p has rank labels. pprof drops all-zero samples when it
// merges: they are left out.
func addSamples(p *Profile, r *stacks.Result, locs []uint64, rank int64) error {
	n, refs := 0, 0
	for i := range r.Stacks {
		if r.Stacks[i].Net() != (stacks.Values{}) {
			n++
			refs += len(r.Stacks[i].Funcs)
		}
	}
	// One allocation each for the samples and their stacks.
	p.samples = slices.Grow(p.samples, n)
	locations := make([]uint64, refs)
	for i := range r.Stacks {
		s := &r.Stacks[i]
		v := s.Net()
		if v == (stacks.Values{}) {
			continue
		}
		stack := locations[:len(s.Funcs):len(s.Funcs)]
		locations = locations[len(s.Funcs):]
		for j, f := range s.Funcs {
			if stack[j] = locs[f]; stack[j] == 0 {
				return fmt.Errorf("pprof export: a rank's function %d has data but the summed profile has none", f)
			}
		}
		p.samples = append(p.samples, sample{locations: stack, values: [3]int64{v.Samples, v.Nanos, v.Calls}, rank: rank})
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
func mappingOf(t *symtab.Table, id uint64) (mapping, error) {
	start, limit := t.TextLow, t.TextEnd+1
	if len(t.Syms) > 0 {
		start = min(start, t.Syms[0].Addr)
		limit = max(limit, t.Syms[len(t.Syms)-1].Addr+1)
	}
	m := mapping{id: id, start: start, limit: limit, file: t.Path}
	if off, ok := t.TextFileOffset(); ok && off >= t.TextLow-start {
		m.offset = off - (t.TextLow - start)
	}
	bid, err := t.BuildID()
	if err != nil {
		return mapping{}, fmt.Errorf("pprof export: %w", err)
	}
	m.buildID = bid
	return m, nil
}

// String summarises the stats in one line.
func (st Stats) String() string {
	return fmt.Sprintf("%d samples, %d functions, stacks up to %d frames; %d bundles, %d routed whole (lighter than %g of the time or %d frames deep) holding %.6g of %.6g s self time",
		st.Samples, st.Functions, st.Deepest, st.Bundles, st.Routed, st.MinWeight, st.MaxDepth, st.RoutedTime, st.TotalTime)
}
