// Package progen generates random C and C++ programs and synthetic
// profiles for egprof's differential tests and benchmarks.
//
// Generate turns a seed into a self-contained C program whose profile (when
// built with gcc -pg and run) exercises most of what gprof reports: busy
// functions that collect histogram samples, self recursion, mutual recursion
// and interlocking cycles, functions called through function pointers from
// instrumented code and from libc (qsort comparators, thread start routines,
// both shown as <spontaneous>), static functions, functions never called,
// and a tiny function called tens of millions of times.
//
// GenerateCXX turns a seed into a C++ program whose profile is full of the
// names C++ makes (templates, packs, lambdas, inheriting constructors, the
// standard library's), for the live demangling test.
//
// SyntheticProfile describes a large profile for benchmarks: a C file with
// thousands of tiny functions, compiled once so that the symbol table is
// genuine, and a gmon.out written directly (without running anything) with a
// histogram and arcs spread over those functions.
//
// Everything is a pure function of the seed and the options: the same seed
// gives the same bytes with every Go release.
package progen

import (
	"fmt"
	"time"
)

// Config controls the shape of the programs Generate produces. The zero value
// is not useful; start from DefaultConfig and adjust.
type Config struct {
	// MinFuncs and MaxFuncs bound the number of generated functions, main
	// excluded. Programs with fewer than 6 leave some features out.
	MinFuncs, MaxFuncs int
	// MaxCycles bounds the number of mutual-recursion groups (strongly
	// connected sets of two or more functions, which gprof reports as
	// <cycle N>). Some groups have extra internal calls, so that several
	// cycles interlock into one.
	MaxCycles int
	// MaxRecursionDepth bounds the depth of self recursion. Recursion is
	// guarded by a depth counter (or the parameter) so that programs
	// terminate. A mutual-recursion group of k functions goes up to
	// k-1+MaxRecursionDepth calls deep, so that all of it runs.
	MaxRecursionDepth int
	// SelfRecursionProb is the chance that a function outside the
	// mutual-recursion groups calls itself.
	SelfRecursionProb float64
	// UnreachableFrac is the fraction of functions never called at run time.
	UnreachableFrac float64
	// StaticFrac is the fraction of functions declared static (local
	// symbols).
	StaticFrac float64
	// TableProb is the chance, per extra call added, that it goes through a
	// table of function pointers instead of a direct call.
	TableProb float64
	// QsortProb is the chance that the program sorts an array with qsort and
	// a generated comparator, which is then called only from libc.
	QsortProb float64
	// HotProb is the chance that the program has a tiny leaf function called
	// between MinHotCalls and MaxHotCalls times.
	HotProb                  float64
	MinHotCalls, MaxHotCalls int64
	// ThreadProb is the chance that part of the work runs in a second thread
	// (whose start routine is called only from libc).
	ThreadProb float64
	// MinCPU and MaxCPU bound the CPU time the generator aims at for one run
	// of the program, the hot function's calls excepted (they add up to
	// MaxHotCalls times roughly 8ns, most of it in mcount, where no sample
	// lands). The cost model behind it is rough (see Program.EstimatedCPU).
	MinCPU, MaxCPU time.Duration
	// MaxCalls bounds the number of calls made through the random call
	// graph (the hot function and the comparator not included).
	MaxCalls int64
}

// DefaultConfig returns the configuration used by egprof's live tests:
// 5 to 40 functions, up to 3 cycles, programs running for roughly 0.12 to
// 0.4 seconds of CPU time.
func DefaultConfig() Config {
	return Config{
		MinFuncs:          5,
		MaxFuncs:          40,
		MaxCycles:         3,
		MaxRecursionDepth: 4,
		SelfRecursionProb: 0.2,
		UnreachableFrac:   0.15,
		StaticFrac:        0.3,
		TableProb:         0.15,
		QsortProb:         0.7,
		HotProb:           0.5,
		MinHotCalls:       10_000_000,
		MaxHotCalls:       20_000_000,
		ThreadProb:        0.15,
		MinCPU:            120 * time.Millisecond,
		MaxCPU:            240 * time.Millisecond,
		MaxCalls:          1_500_000,
	}
}

// check reports a configuration that cannot produce programs.
func (c Config) check() error {
	switch {
	case c.MinFuncs < 1 || c.MaxFuncs < c.MinFuncs:
		return fmt.Errorf("progen: bad function count range [%d, %d]", c.MinFuncs, c.MaxFuncs)
	case c.MaxRecursionDepth < 1:
		return fmt.Errorf("progen: MaxRecursionDepth %d < 1", c.MaxRecursionDepth)
	case c.MinCPU <= 0 || c.MaxCPU < c.MinCPU:
		return fmt.Errorf("progen: bad CPU range [%v, %v]", c.MinCPU, c.MaxCPU)
	case c.MaxCalls < 1:
		return fmt.Errorf("progen: MaxCalls %d < 1", c.MaxCalls)
	case c.MinHotCalls < 1 || c.MaxHotCalls < c.MinHotCalls:
		return fmt.Errorf("progen: bad hot call range [%d, %d]", c.MinHotCalls, c.MaxHotCalls)
	}
	return nil
}

// Role says how a generated function is reached at run time.
type Role int

// The roles of generated functions.
const (
	// RoleMain is main itself.
	RoleMain Role = iota
	// RoleNormal functions are reached from main (or from the thread start
	// routine) through calls recorded by mcount.
	RoleNormal
	// RoleUnreachable functions are never called when the program runs.
	// They still call other functions, so gprof -c finds arcs in them.
	RoleUnreachable
	// RoleComparator is a qsort comparator: it is called only from libc,
	// outside the profiled range, so gprof shows it as <spontaneous>.
	RoleComparator
	// RoleKey is called only by the comparator.
	RoleKey
	// RoleHot is a tiny leaf called tens of millions of times.
	RoleHot
	// RoleThread is a thread start routine, called only from libc.
	RoleThread
)

func (r Role) String() string {
	switch r {
	case RoleMain:
		return "main"
	case RoleNormal:
		return "normal"
	case RoleUnreachable:
		return "unreachable"
	case RoleComparator:
		return "comparator"
	case RoleKey:
		return "key"
	case RoleHot:
		return "hot"
	case RoleThread:
		return "thread"
	}
	return fmt.Sprintf("Role(%d)", int(r))
}

// Func describes one function of a generated program.
type Func struct {
	Name string
	Role Role
	// Static functions have internal linkage (local symbols).
	Static bool
	// NoInline functions carry __attribute__((noinline)); the others may be
	// inlined (and so vanish from the profile) at -O2.
	NoInline bool
	// SelfRecursive functions call themselves.
	SelfRecursive bool
	// Cycle is the 1-based number of the mutual-recursion group the function
	// belongs to, or 0.
	Cycle int
	// Calls is how many times the cost model expects the function to run
	// (before -O2 inlining and the calls mcount loses to other threads).
	Calls int64
	// Work is the number of busy-loop iterations per call.
	Work int64
}

// Program is a generated C program.
type Program struct {
	// Seed is the seed it was generated from.
	Seed int64
	// Source is the C source text (C11, one file).
	Source string
	// Funcs lists every function defined in Source, main included, in
	// source order.
	Funcs []Func
	// Cycles is the number of mutual-recursion groups.
	Cycles int
	// Threaded programs start a second thread and need CFlags.
	Threaded bool
	// EstimatedCPU is the CPU time one run should take according to the
	// generator's cost model (calibrated on x86-64; real machines differ).
	EstimatedCPU time.Duration
}

// CFlags returns the extra compiler flags the program needs, besides -pg
// and the optimisation level.
func (p *Program) CFlags() []string {
	if p.Threaded {
		return []string{"-pthread"}
	}
	return nil
}

// Func returns the function named name, and whether there is one.
func (p *Program) Func(name string) (Func, bool) {
	for _, f := range p.Funcs {
		if f.Name == name {
			return f, true
		}
	}
	return Func{}, false
}

// Generate returns the program for seed under cfg.
func Generate(seed int64, cfg Config) (*Program, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	g := newGen(seed, cfg)
	g.build()
	return g.program(), nil
}

// MustGenerate is Generate with DefaultConfig; it cannot fail.
func MustGenerate(seed int64) *Program {
	p, err := Generate(seed, DefaultConfig())
	if err != nil {
		panic(err)
	}
	return p
}
