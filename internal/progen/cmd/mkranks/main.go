// Command mkranks writes synthetic per-rank gmon files for egprof's rank
// aggregation benchmark: one executable with many functions (built by
// internal/progen) and, for each rank, a gmon file derived from one base
// profile with rank-dependent imbalance and noise.
//
// Usage:
//
//	go run ./internal/progen/cmd/mkranks [-dir DIR] [-ranks N] [-funcs N] [-arcs N] [-seed N]
//
// It prints shell assignments: RANKS_BINARY=... and RANKS_DIR=... (the
// directory holding gmon.rankR.PID for R in 0..N-1). Files already present
// are kept, so a second run is quick.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/atomicfile"
	"github.com/egprof/egprof/internal/progen"
	"github.com/egprof/egprof/symtab"
)

func main() {
	dir := flag.String("dir", filepath.Join(progen.DefaultBenchDir(), "ranks"), "output directory")
	nRanks := flag.Int("ranks", 1024, "number of rank files")
	funcs := flag.Int("funcs", 5000, "number of functions in the executable")
	arcs := flag.Int("arcs", 20000, "number of call arcs per profile")
	seed := flag.Int64("seed", 7, "generator seed")
	flag.Parse()
	if flag.NArg() != 0 || *nRanks < 1 {
		fmt.Fprintln(os.Stderr, "usage: mkranks [-dir DIR] [-ranks N] [-funcs N] [-arcs N] [-seed N]")
		os.Exit(2)
	}
	if err := generate(*dir, *nRanks, *funcs, *arcs, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "mkranks:", err)
		os.Exit(1)
	}
}

func generate(dir string, nRanks, funcs, arcs int, seed int64) error {
	base, err := progen.SyntheticProfile(seed, funcs, arcs).Build(context.Background(), progen.DefaultBenchDir())
	if err != nil {
		return err
	}
	tab, err := symtab.Load(base.Binary, symtab.Options{})
	if err != nil {
		return err
	}
	f, err := gmon.ReadFile(base.Gmon, tab.Target, gmon.FormatAuto)
	if err != nil {
		return err
	}
	// Named after the base profile's folder, which carries the generator's
	// version: files of an older base are never taken for this one's.
	out := filepath.Join(dir, filepath.Base(base.Dir))
	if err := os.MkdirAll(out, 0o777); err != nil {
		return err
	}
	// Every function gets a behaviour: most are balanced (noise only), a
	// few are heavier on every fourth rank, a few grow with the rank.
	r := rand.New(rand.NewPCG(uint64(seed), 1))
	kind := make([]int, len(tab.Syms))
	for i := range kind {
		switch x := r.Float64(); {
		case x < 0.03:
			kind[i] = 1 // heavier on ranks 0, 4, 8, ...
		case x < 0.06:
			kind[i] = 2 // grows with the rank number
		}
	}
	for rank := range nRanks {
		name := filepath.Join(out, fmt.Sprintf("gmon.rank%d.%d", rank, 40000+rank))
		if _, err := os.Stat(name); err == nil {
			continue
		}
		rf := rankFile(f, tab, kind, rank, nRanks, seed)
		data, err := gmon.Marshal(rf, tab.Target)
		if err != nil {
			return err
		}
		if err := atomicfile.Write(name, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
			return err
		}
	}
	abs, _ := filepath.Abs(base.Binary)
	absDir, _ := filepath.Abs(out)
	fmt.Printf("RANKS_BINARY=%s\nRANKS_DIR=%s\n", abs, absDir)
	return nil
}

// factor is the load of function i on rank p relative to the base profile.
func factor(kind []int, i, rank, nRanks int) float64 {
	switch kind[i] {
	case 1:
		if rank%4 == 0 {
			return 2.5
		}
	case 2:
		return 0.5 + 1.5*float64(rank)/float64(max(nRanks-1, 1))
	}
	return 1
}

// rankFile derives one rank's file from the base file.
func rankFile(base *gmon.File, tab *symtab.Table, kind []int, rank, nRanks int, seed int64) *gmon.File {
	r := rand.New(rand.NewPCG(uint64(seed), uint64(rank)+2))
	f := &gmon.File{Version: base.Version}
	for _, h := range base.Hists {
		nh := h
		nh.Bins = make([]uint16, len(h.Bins))
		width := float64(h.HighPC-h.LowPC) / float64(max(len(h.Bins), 1))
		for b, v := range h.Bins {
			if v == 0 {
				continue
			}
			pc := h.LowPC + uint64(width*float64(b))
			fac := 1.0
			if i := tab.Lookup(pc); i >= 0 {
				fac = factor(kind, i, rank, nRanks)
			}
			x := float64(v) * fac * (0.9 + 0.2*r.Float64())
			nh.Bins[b] = uint16(min(math.Round(x), math.MaxUint16))
		}
		f.Hists = append(f.Hists, nh)
	}
	for _, a := range base.Arcs {
		fac := 1.0
		if i := tab.Lookup(a.SelfPC); i >= 0 {
			fac = factor(kind, i, rank, nRanks)
		}
		na := a
		na.Count = uint64(math.Round(float64(a.Count) * fac))
		f.Arcs = append(f.Arcs, na)
	}
	return f
}
