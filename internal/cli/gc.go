package cli

import (
	"os"
	"runtime"
	"runtime/debug"
)

// Small inputs, for which the collector is given more room: profiles of
// at most smallProfiles bytes together, an executable of at most
// smallExecutable bytes.
const (
	smallProfiles   = 1 << 20
	smallExecutable = 16 << 20
	smallGCPercent  = 400
	// ranksGCPercent is the growth target of a rank analysis that only
	// analyses (no summed profile, no summary saved): its heap is a few MB
	// plus a few hundred bytes per rank, and each file's parse reuses the
	// last one's storage, so the collector has little to do and may keep
	// the heap close to what is live.
	ranksGCPercent = 25
)

// largeDiffGCPercent is the growth target of --diff on larger inputs. The
// differential profile keeps both call graphs and their union alive while
// the report is printed (about 45 MB for two 20,000-function synthetic
// profiles), and the printing makes garbage: with Go's default the heap
// grows to twice what is live. On that pair, paired runs, medians: peak
// 65.8 MB at Go's default, 60.1 at GOGC=20, 56.3 at GOGC=10 for about a
// sixth more CPU (the live data is mostly arrays without pointers, quick
// to mark; the run stays far below gprof's time).
const largeDiffGCPercent = 10

// tuneGC sets the collector's growth target (GOGC) for one command run by
// Main, unless the environment sets GOGC. On a small profile of a small
// executable (a gmon.out of a few hundred KB: lua, sqlite3, minisat) the
// heap stays at a few MB, nearly all of it short-lived decoding state, and
// Go's default starts collecting at 4 MB and again at each doubling: those
// collections cost a fifth of the run's CPU on lua (measured with GOGC=400:
// 0.82x the CPU, peak RSS 10.8 -> 11.2 MB). Larger inputs, where the heap
// reaches tens of MB and the peak matters more, collect once the profiles
// are summed (collectLoaded), then keep a target a little below Go's
// default (loadedGCPercent), or under --diff a low one from the start
// (largeDiffGCPercent); the classic report also loads them on one
// processor, and runs small inputs on one throughout (oneProcessor). Only
// the classic report and --diff are tuned (their inputs are the files
// named here), and the rank analysis when it only analyses (see
// ranksGCPercent); tests drive run and keep the default.
func tuneGC(c *config, lookupEnv func(string) (string, bool)) {
	p, loaded := gcPlan(c, lookupEnv)
	if p > 0 {
		debug.SetGCPercent(p)
	}
	c.loaded = loaded
	if one, giveBack := oneProcessor(c, lookupEnv); one {
		old := runtime.GOMAXPROCS(1)
		if giveBack {
			c.processors = old
		}
	}
}

// oneProcessor reports whether the classic report runs Go code on one
// processor (GOMAXPROCS=1), and whether it gives the others back once the
// inputs are loaded (restoreProcessors), unless the environment sets
// GOMAXPROCS. The report's work runs on one goroutine; with a second
// processor idle, the collector's workers run there beside it, and a
// collection makes a worker stop the main goroutine to scan its stack,
// spinning and signalling until it stops.
//
// Inputs that are not small are loaded on one processor: on the
// 20,000-function synthetic profile, paired runs, medians against
// GOMAXPROCS=2, 0.93x (-b) and 0.96x (-b -q) the CPU and the wall time,
// the same peak RSS (0.87x the CPU when the build ran on one processor
// too). The graph is built with all the processors again: its one
// collection then ends sooner, before the heap has grown past its target
// (with one processor, the peak RSS grew by 0.7 MB), and the printing
// formats a large call graph on several goroutines.
//
// Small inputs (a program's own gmon.out) run on one processor
// throughout, their executable being of oneProcessorFrom bytes or more:
// their call graphs are small, and the source lookups, which come while
// printing, make garbage. lua's -l walk, which collects once, spent 32 ms
// of its 150 in a worker spinning for the main goroutine. Paired runs,
// medians, against two processors: lua -l 0.52x the CPU, zstd -l 0.76x,
// zstd -b 0.76x, sqlite3 -b 0.85x, minisat -b 0.83-0.90x, lua -b
// 0.92-0.98x; peak RSS unchanged. Below that size the switch (the world
// is stopped to resize) has little to win and was not kept: on the 37 KB
// BLAS driver the measurements disagreed (0.83x to 1.10x the CPU by
// method) and its peak RSS, near the goal of 1.5x gprof's, rose by about
// 0.1 MB.
func oneProcessor(c *config, lookupEnv func(string) (string, bool)) (one, giveBack bool) {
	if _, set := lookupEnv("GOMAXPROCS"); set || c.ext.mode != modeClassic {
		return false, false
	}
	if !smallInputs(c) {
		return true, true
	}
	return fileSize(c.image) >= oneProcessorFrom, false
}

// oneProcessorFrom is the size of executable from which small inputs run
// on one processor throughout (see oneProcessor).
const oneProcessorFrom = 256 << 10

// restoreProcessors gives back the processors that tuneGC took away for
// the loading (see oneProcessor).
func (c *config) restoreProcessors() {
	if c.processors > 0 {
		runtime.GOMAXPROCS(c.processors)
		c.processors = 0
	}
}

// loadedPlan is what collectLoaded does once a side's profiles are
// summed: collect (or not), then set the growth target to percent (0:
// leave it).
type loadedPlan struct {
	collect bool
	percent int
}

// loadedGCPercent is the growth target of the classic report on larger
// inputs once the loaded profile is collected: the graph's build then
// allocates about as much again as is live, temporaries included, and with
// Go's default of 100 the collection that follows came while they were
// still alive. On the synthetic profile (paired runs, medians, -b, -b -q,
// default output, -b -p) the peak RSS falls by about 1 MB at 90, for the
// same CPU; at 80 the collection comes earlier and keeps more.
const loadedGCPercent = 90

// gcPlan is tuneGC's choice: the GOGC value to set (0 to leave it), and
// what to do once the profiles are summed. Small inputs get more room
// (gcPercent); larger ones in the classic and diff modes a collection
// after loading, in the classic mode followed by a lower target
// (loadedGCPercent), and in diff mode a lower target from the start
// (largeDiffGCPercent).
func gcPlan(c *config, lookupEnv func(string) (string, bool)) (percent int, loaded loadedPlan) {
	if p := gcPercent(c, lookupEnv); p > 0 {
		return p, loadedPlan{}
	}
	if _, set := lookupEnv("GOGC"); set {
		return 0, loadedPlan{}
	}
	switch c.ext.mode {
	case modeClassic:
		return 0, loadedPlan{collect: true, percent: loadedGCPercent}
	case modeDiff:
		return largeDiffGCPercent, loadedPlan{collect: true}
	}
	return 0, loadedPlan{}
}

// collectLoaded runs the collector once a side's profiles are summed, if
// tuneGC asked for it (large inputs). The file bytes and the decoded
// records are garbage by then; collecting them before the graph is built
// lets its large arrays take their pages instead of growing the heap: on
// the 20,000-function synthetic profile the peak falls from 33 to 30 MB,
// for one collection of the summed profile.
func (c *config) collectLoaded() {
	if c.loaded.collect {
		runtime.GC()
	}
	if c.loaded.percent > 0 {
		debug.SetGCPercent(c.loaded.percent)
	}
}

// gcPercent is tuneGC's choice: the GOGC value to set, or 0 to leave the
// collector alone.
func gcPercent(c *config, lookupEnv func(string) (string, bool)) int {
	if _, set := lookupEnv("GOGC"); set {
		return 0
	}
	if c.ext.mode == modeRanks && !c.ranksSummed() && c.ext.rank.saveSummary == "" {
		return ranksGCPercent
	}
	if c.ext.mode != modeClassic && c.ext.mode != modeDiff {
		return 0
	}
	if !smallInputs(c) {
		return 0
	}
	return smallGCPercent
}

// smallInputs reports whether the executable and the profiles (those of
// --diff included) are small: regular files of at most smallExecutable
// and smallProfiles bytes. It looks no further than it must: each look
// costs a system call and some garbage, and a job's command line can
// name tens of thousands of files.
func smallInputs(c *config) bool {
	exe := fileSize(c.image)
	if exe < 0 || exe > smallExecutable {
		return false
	}
	var total int64
	for _, files := range [][]string{c.gmonFiles, c.ext.diffFiles} {
		for _, f := range files {
			n := fileSize(f)
			if n < 0 {
				return false
			}
			if total += n; total > smallProfiles {
				return false
			}
		}
	}
	return true
}

// fileSize returns the size of the regular file name, or -1.
func fileSize(name string) int64 {
	st, err := os.Stat(name)
	if err != nil || !st.Mode().IsRegular() {
		return -1
	}
	return st.Size()
}
