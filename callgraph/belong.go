package callgraph

import (
	"debug/elf"
	"errors"
	"fmt"
	"slices"

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
	// minArcsExamined is the fewest arcs that let the entry-point test
	// speak.
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
	samples, inside := uint64(0), uint64(0)
	for i := range prof.Hists {
		h := &prof.Hists[i]
		for from, to := range h.Spans() {
			all, in := binsInside(tab, h.LowPC, h.HighPC, len(h.Bins), from, h.Bins[from:to])
			samples, inside = samples+all, inside+in
		}
	}
	return checkBelongs(tab, prof.Arcs, samples, inside)
}

// CheckFileBelongs is CheckBelongs for one data file.
func CheckFileBelongs(f *gmon.File, tab *symtab.Table) error {
	samples, inside := uint64(0), uint64(0)
	for _, h := range f.Hists {
		all, in := binsInside(tab, h.LowPC, h.HighPC, len(h.Bins), 0, h.Bins)
		samples, inside = samples+all, inside+in
	}
	return checkBelongs(tab, f.Arcs, samples, inside)
}

// checkBelongs judges a profile by its arcs and by how many of its samples
// fall inside functions.
func checkBelongs(tab *symtab.Table, arcs []gmon.ArcRecord, samples, inside uint64) error {
	joined := false
	for _, a := range arcs {
		if tab.Lookup(a.FromPC) >= 0 && tab.Lookup(a.SelfPC) >= 0 {
			joined = true
			break
		}
	}
	if samples > 0 && inside == 0 && !joined {
		return fmt.Errorf("none of its %d samples falls inside the executable's functions", samples)
	}
	if len(arcs) > 0 && !joined {
		return errors.New("none of its call arcs joins two of the executable's functions")
	}
	var far []uint64 // the entry points of the arcs counted as far
	seen := 0
	for _, a := range arcs[:min(len(arcs), arcsExamined)] {
		seen++
		// An arc entering no function is as far from a profiling call
		// as one entering a function past its prologue: every call that
		// mcount records starts in a function's prologue.
		if s := tab.Lookup(a.SelfPC); s < 0 || a.SelfPC-tab.Syms[s].Addr > prologueBytes {
			far = append(far, a.SelfPC)
		}
	}
	if seen >= minArcsExamined && 2*len(far) > seen {
		// gprof leaves some functions out of its table (the clones gcc
		// makes, such as f.isra.0 or f.part.0): an arc into one is
		// credited to the function before it, far from that one's start.
		// Such an arc is far only when no code symbol of the executable
		// starts in the prologue's reach before it.
		far = awayFromEveryStart(far, tab.CodeSymbolAddrs)
	}
	if seen >= minArcsExamined && 2*len(far) > seen {
		outside := 0
		for _, pc := range far {
			if tab.Lookup(pc) < 0 {
				outside++
			}
		}
		if outside > 0 {
			return fmt.Errorf("%d of its %d call arcs enter no function of the executable (%d) or one more than %d bytes past its start, where no profiling call is",
				len(far), seen, outside, prologueBytes)
		}
		return fmt.Errorf("%d of its %d call arcs enter their callee more than %d bytes past its start, where no profiling call is",
			len(far), seen, prologueBytes)
	}
	return checkProfilingCalls(tab, arcs)
}

// callSitesExamined is how many arcs, spread over the profile, the
// call-site test reads the code of.
const callSitesExamined = 32

// checkProfilingCalls reports, as an error, a profile whose arcs do not
// enter their callees where this executable's code calls the profiling
// routine. Each arc mcount (or __fentry__) records enters its callee at
// the return address of that call, so the instruction just before the
// arc's SelfPC is a call in every arc of a profile written by this build
// (or the arc enters at the callee's start: gprof -s writes gmon.sum's arcs
// so); in a profile of another build of the same program, whose functions
// start at other addresses, it rarely is. The test reads the code before
// callSitesExamined arcs spread over the profile, on x86 (a call rel32,
// or an indirect call through a 32-bit displacement, as -pg emits for
// PIE and i386 PIC code) and on 64-bit Arm (BL); on other machines, or
// when the executable cannot be read again, it says nothing.
func checkProfilingCalls(tab *symtab.Table, arcs []gmon.ArcRecord) error {
	isCall := callEndsAt(tab.Machine)
	if isCall == nil || len(arcs) < minArcsExamined {
		return nil
	}
	n := min(len(arcs), callSitesExamined)
	at := make([]uint64, n)
	for i := range at {
		at[i] = arcs[i*len(arcs)/n].SelfPC
	}
	code, err := tab.CodeBefore(at, 6)
	if err != nil {
		return nil
	}
	read, calls := 0, 0
	for i, c := range code {
		if c == nil {
			// Outside .text, or no code in the file: the arc enters no
			// function (the test above counts those) or cannot be judged.
			continue
		}
		read++
		// gprof's -s writes each arc of gmon.sum at its callee's start.
		s := tab.Lookup(at[i])
		if isCall(c) || s >= 0 && tab.Syms[s].Addr == at[i] {
			calls++
		}
	}
	if read < minArcsExamined || 2*calls > read {
		return nil
	}
	return fmt.Errorf("%d of the %d call arcs examined do not enter their callee right after a call instruction, "+
		"as every arc that this executable's profiling calls record does", read-calls, read)
}

// callEndsAt returns the test of whether the 6 bytes of code given end
// with a call instruction, on the machines the test knows, else nil.
func callEndsAt(m elf.Machine) func(code []byte) bool {
	switch m {
	case elf.EM_X86_64, elf.EM_386:
		return func(c []byte) bool {
			// e8 rel32; ff 15 disp32 (x86-64: through the GOT, relative to
			// the next instruction; i386: absolute); ff 90+r disp32, through
			// a register (i386 PIC: the GOT from %ebx); 0x94 would need a
			// SIB byte.
			return c[1] == 0xe8 || c[0] == 0xff && (c[1] == 0x15 || c[1]&0xf8 == 0x90 && c[1] != 0x94)
		}
	case elf.EM_AARCH64:
		// BL imm26: the top six bits of the little-endian word are 100101.
		return func(c []byte) bool { return c[5]&0xfc == 0x94 }
	}
	return nil
}

// awayFromEveryStart returns those of pcs that lie more than prologueBytes
// past the last of starts at or below them, or below every start. Without
// starts (no symbol table could be read) it returns pcs.
func awayFromEveryStart(pcs, starts []uint64) []uint64 {
	if len(starts) == 0 {
		return pcs
	}
	sorted := slices.Sorted(slices.Values(starts))
	var out []uint64
	for _, pc := range pcs {
		// The last start at or below pc.
		i, found := slices.BinarySearch(sorted, pc)
		if !found {
			i--
		}
		if i < 0 || pc-sorted[i] > prologueBytes {
			out = append(out, pc)
		}
	}
	return out
}

// binsInside returns the samples of bins, the bins of a histogram of n
// bins over [low, high) from first on, and, once one is found, the samples
// of a bin whose start falls inside a function (the check needs only to
// know whether any does).
func binsInside[T int64 | uint16](tab *symtab.Table, low, high uint64, n, first int, bins []T) (all, inside uint64) {
	if n == 0 || high <= low {
		return 0, 0
	}
	width := (high - low) / uint64(n)
	for i, v := range bins {
		b := uint64(v)
		if b == 0 {
			continue
		}
		all += b
		if inside == 0 && tab.Lookup(low+uint64(first+i)*width) >= 0 {
			inside = b
		}
	}
	return all, inside
}
