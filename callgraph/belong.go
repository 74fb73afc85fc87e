package callgraph

import (
	"errors"
	"fmt"

	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/symtab"
)

// Belonging check: how far past a callee's start an arc may enter it and
// still be a profiling call, and how many arcs are examined.
const (
	// prologueBytes bounds where gcc -pg and clang -pg call mcount: in the
	// prologue, a few instructions past the function's start.
	prologueBytes = 64
	// arcsExamined is how many of the profile's first arcs the entry-point
	// test looks at; they suffice to tell.
	arcsExamined = 256
	// minArcsExamined is the fewest arcs inside functions that let the
	// entry-point test speak.
	minArcsExamined = 4
)

// CheckBelongs reports, as an error, when the profile prof cannot have been
// written by the executable tab describes: it has samples but none falls
// inside a function and no arc joins two functions; or it has arcs and none
// joins two functions; or most of its first arcs enter their callee far from
// the callee's start, where the profiling call (mcount, in the prologue) is
// not. gprof checks none of this and prints numbers; the command decides
// whether the answer is a warning or an error.
func CheckBelongs(prof *gmon.Profile, tab *symtab.Table) error {
	joined := false
	for _, a := range prof.Arcs {
		if tab.Lookup(a.FromPC) >= 0 && tab.Lookup(a.SelfPC) >= 0 {
			joined = true
			break
		}
	}
	samples, inside := sampleCounts(prof, tab)
	if samples > 0 && inside == 0 && !joined {
		return fmt.Errorf("none of its %d samples falls inside the executable's functions", samples)
	}
	if len(prof.Arcs) > 0 && !joined {
		return errors.New("none of its call arcs joins two of the executable's functions")
	}
	far, seen := 0, 0
	for _, a := range prof.Arcs[:min(len(prof.Arcs), arcsExamined)] {
		s := tab.Lookup(a.SelfPC)
		if s < 0 {
			continue
		}
		seen++
		if a.SelfPC-tab.Syms[s].Addr > prologueBytes {
			far++
		}
	}
	if seen >= minArcsExamined && 2*far > seen {
		return fmt.Errorf("%d of its %d call arcs enter their callee more than %d bytes past its start, where no profiling call is",
			far, seen, prologueBytes)
	}
	return nil
}

// sampleCounts returns the number of histogram samples and how many of
// them lie in bins whose start falls inside a function.
func sampleCounts(prof *gmon.Profile, tab *symtab.Table) (all, inside uint64) {
	for _, h := range prof.Hists {
		if len(h.Bins) == 0 {
			continue
		}
		width := (h.HighPC - h.LowPC) / uint64(len(h.Bins))
		for i, b := range h.Bins {
			if b == 0 {
				continue
			}
			all += uint64(b)
			if inside == 0 && tab.Lookup(h.LowPC+uint64(i)*width) >= 0 {
				inside += uint64(b)
			}
		}
	}
	return all, inside
}
