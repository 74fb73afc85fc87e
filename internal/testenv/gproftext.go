package testenv

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// This file reads GNU gprof's printed flat profile and call graph, so that
// tests can compute expected numbers from gprof's own output: one reader
// for every test that does.

// FlatRow is one row of gprof's flat profile.
type FlatRow struct {
	Name                      string
	Percent, Cumulative, Self float64
	// HasCalls reports whether the row prints calls (and the per-call
	// columns): a function never called has none.
	HasCalls bool
	Calls    uint64
	// SelfPerCall and TotalPerCall are the per-call columns in the unit
	// of the header (ms/call by default, us/call etc. for tiny values).
	SelfPerCall, TotalPerCall float64
}

// flatRowRE matches a flat-profile row: three numbers, optionally the
// calls and two per-call numbers, and the name (which may hold spaces).
var flatRowRE = regexp.MustCompile(`^\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(?:(\d+)\s+([\d.]+)\s+([\d.]+)\s+)?(\S.*)$`)

// ParseFlat reads the rows of the flat profile in a gprof report (with or
// without -b): the lines after the " time   seconds" header up to the
// first empty line or form feed.
func ParseFlat(report string) ([]FlatRow, error) {
	lines := strings.Split(report, "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, " time   seconds") {
			start = i + 1
			break
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("no flat profile header in the report")
	}
	var rows []FlatRow
	for _, l := range lines[start:] {
		if l == "" || strings.HasPrefix(l, "\f") {
			break
		}
		m := flatRowRE.FindStringSubmatch(l)
		if m == nil {
			return nil, fmt.Errorf("flat profile row %q: not a row", l)
		}
		r := FlatRow{Name: m[7]}
		var err error
		nums := []struct {
			s string
			v *float64
		}{{m[1], &r.Percent}, {m[2], &r.Cumulative}, {m[3], &r.Self}, {m[5], &r.SelfPerCall}, {m[6], &r.TotalPerCall}}
		for _, n := range nums {
			if n.s == "" {
				continue
			}
			if *n.v, err = strconv.ParseFloat(n.s, 64); err != nil {
				return nil, fmt.Errorf("flat profile row %q: %w", l, err)
			}
		}
		if m[4] != "" {
			r.HasCalls = true
			if r.Calls, err = strconv.ParseUint(m[4], 10, 64); err != nil {
				return nil, fmt.Errorf("flat profile row %q: %w", l, err)
			}
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// CallGraphEntry is one entry of gprof's call graph: its primary line and
// the parent lines above it (Callers) and child lines below it (Callees).
type CallGraphEntry struct {
	Index int
	// Name is the function's name without its cycle tag; for a cycle as a
	// whole it is "<cycle N as a whole>".
	Name string
	// Cycle is the number of the cycle the function belongs to (0: none).
	Cycle int
	// WholeCycle marks the entry of a cycle as a whole.
	WholeCycle              bool
	Percent, Self, Children float64
	// Called is the called column as printed ("3", "1+4", or "").
	Called string
	// Spontaneous reports a "<spontaneous>" parent line.
	Spontaneous      bool
	Callers, Callees []CallGraphLine
}

// CallGraphLine is a parent or child line of an entry.
type CallGraphLine struct {
	Name  string // without the cycle tag
	Cycle int
	// Index is the other end's index: in brackets, or in parentheses when
	// its entry is not printed (symspecs left it out).
	Index int
	// HasTimes reports whether the line prints self and children seconds
	// (calls within a cycle and recursive calls print only a count).
	HasTimes       bool
	Self, Children float64
	// Count is the calls along the arc; Total the callee's (or for a
	// parent line, the function's) calls from all its callers, when the
	// line prints "count/total" (HasTotal).
	Count, Total uint64
	HasTotal     bool
	// SelfCalls is a cycle member's calls to itself, on the member lines
	// of a cycle's entry ("count+self").
	SelfCalls uint64
}

var (
	cgPrimaryRE = regexp.MustCompile(`^\[(\d+)\]\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(?:(\d+(?:\+\d+)?)\s+)?(\S.*) \[(\d+)\]$`)
	cgOtherRE   = regexp.MustCompile(`^\s+(?:([\d.]+)\s+([\d.]+)\s+)?(\d+)(?:/(\d+)|\+(\d+))?\s+(\S.*) [\[(](\d+)[\])]$`)
	cgCycleRE   = regexp.MustCompile(`^(.*?) ?<cycle (\d+)( as a whole)?>$`)
)

// splitCycle parses the cycle tag off a printed name.
func splitCycle(s string) (name string, cycle int, whole bool) {
	m := cgCycleRE.FindStringSubmatch(s)
	if m == nil {
		return s, 0, false
	}
	cycle, _ = strconv.Atoi(m[2])
	if m[3] != "" {
		return s, cycle, true
	}
	return m[1], cycle, false
}

// ParseCallGraph reads the entries of the call graph in a gprof report
// (with or without -b): every block between the dashed separators after
// the "index % time" header.
func ParseCallGraph(report string) ([]CallGraphEntry, error) {
	lines := strings.Split(report, "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "index % time") {
			start = i + 1
			break
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("no call graph header in the report")
	}
	var entries []CallGraphEntry
	var parents []CallGraphLine
	spontaneous := false
	var cur *CallGraphEntry
	for _, l := range lines[start:] {
		switch {
		case l == "" || strings.HasPrefix(l, "\f"):
			return entries, nil
		case strings.HasPrefix(l, "-----"):
			if cur != nil {
				entries = append(entries, *cur)
			}
			cur, parents, spontaneous = nil, nil, false
		case strings.TrimSpace(l) == "<spontaneous>":
			spontaneous = true
		case cgPrimaryRE.MatchString(l):
			m := cgPrimaryRE.FindStringSubmatch(l)
			e := CallGraphEntry{Called: m[5], Callers: parents, Spontaneous: spontaneous}
			e.Index, _ = strconv.Atoi(m[1])
			e.Percent, _ = strconv.ParseFloat(m[2], 64)
			e.Self, _ = strconv.ParseFloat(m[3], 64)
			e.Children, _ = strconv.ParseFloat(m[4], 64)
			e.Name, e.Cycle, e.WholeCycle = splitCycle(m[6])
			cur = &e
		case cgOtherRE.MatchString(l):
			m := cgOtherRE.FindStringSubmatch(l)
			var ln CallGraphLine
			if m[1] != "" {
				ln.HasTimes = true
				ln.Self, _ = strconv.ParseFloat(m[1], 64)
				ln.Children, _ = strconv.ParseFloat(m[2], 64)
			}
			ln.Count, _ = strconv.ParseUint(m[3], 10, 64)
			if m[4] != "" {
				ln.HasTotal = true
				ln.Total, _ = strconv.ParseUint(m[4], 10, 64)
			}
			if m[5] != "" {
				ln.SelfCalls, _ = strconv.ParseUint(m[5], 10, 64)
			}
			ln.Name, ln.Cycle, _ = splitCycle(m[6])
			ln.Index, _ = strconv.Atoi(m[7])
			if cur == nil {
				parents = append(parents, ln)
			} else {
				cur.Callees = append(cur.Callees, ln)
			}
		default:
			return nil, fmt.Errorf("call graph line %q: not an entry's line", l)
		}
	}
	if cur != nil {
		entries = append(entries, *cur)
	}
	return entries, nil
}
