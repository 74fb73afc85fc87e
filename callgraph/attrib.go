package callgraph

import (
	"math"

	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/symtab"
)

// Attribution shares histogram samples among the symbols of a table the
// way gprof does: each bin's count goes to the symbols the bin overlaps,
// in proportion to the overlap, bins and symbols measured in 2-byte units
// with the bin edges truncated. It is read-only once made, so one
// Attribution can serve several goroutines.
type Attribution struct {
	scaled   []uint64 // symbol starts in 2-byte units, then the top of memory
	selected []bool   // symbols credited (the others' credit leaves the total)
}

// NewAttribution prepares the attribution of samples to tab's symbols;
// selected tells which symbols are credited (gprof's -p/-P tables and its
// built-in exclusions).
func NewAttribution(tab *symtab.Table, selected func(i int) bool) *Attribution {
	n := len(tab.Syms)
	a := &Attribution{scaled: make([]uint64, n+1), selected: make([]bool, n)}
	for i := range tab.Syms {
		a.scaled[i] = tab.Syms[i].Addr / 2
		a.selected[i] = selected(i)
	}
	// gprof reads one entry past its table for the last symbol's end; a
	// range open to the top of the address space stands in for that.
	a.scaled[n] = math.MaxUint64
	return a
}

// Credit shares the bins of one histogram record starting at lowPC, of
// width scale (in 2-byte units), among the symbols: ticks[j] receives the
// credit of selected symbol j. If total is not nil it follows gprof's
// running total in gprof's order of operations: each bin's count is added
// and every unselected symbol's credit taken away. Credit returns the sum
// of the credit given to selected symbols.
func Credit[C uint16 | int64](a *Attribution, lowPC uint64, bins []C, scale float64, ticks []float64, total *float64) (credited float64) {
	c := crediting{a: a, low: lowPC / 2, scale: scale, ticks: ticks, total: total, k: 1}
	creditBins(&c, 0, bins)
	return c.credited
}

// CreditHistogram is Credit for an accumulated histogram: it reads only
// the ranges of bins that can hold counts (gmon.Histogram.Spans), giving
// the same credit in the same order of operations.
func CreditHistogram(a *Attribution, h *gmon.Histogram, scale float64, ticks []float64, total *float64) (credited float64) {
	c := crediting{a: a, low: h.LowPC / 2, scale: scale, ticks: ticks, total: total, k: 1}
	for from, to := range h.Spans() {
		creditBins(&c, from, h.Bins[from:to])
	}
	return c.credited
}

// crediting is the state of Credit across the bins of one histogram,
// given in increasing order.
type crediting struct {
	a        *Attribution
	low      uint64 // the histogram's start in 2-byte units
	scale    float64
	ticks    []float64
	total    *float64
	k        int // one past the first symbol the next bin can overlap
	credited float64
}

// creditBins credits bins, the histogram's bins from first on.
func creditBins[C uint16 | int64](c *crediting, first int, bins []C) {
	a, n, k := c.a, len(c.a.selected), c.k
	for i, count := range bins {
		if count == 0 {
			continue
		}
		b := first + i
		binLo := c.low + uint64(c.scale*float64(b))
		binHi := c.low + uint64(c.scale*float64(b+1))
		ct := float64(count)
		if c.total != nil {
			*c.total += ct
		}
		for j := k - 1; j < n; j++ {
			symLo, symHi := a.scaled[j], a.scaled[j+1]
			if binHi < symLo {
				break
			}
			k = j + 1
			if binLo >= symHi {
				continue
			}
			overlap := min(binHi, symHi) - max(binLo, symLo)
			if overlap == 0 {
				continue
			}
			credit := float64(overlap) * ct / c.scale
			if a.selected[j] {
				c.ticks[j] += credit
				c.credited += credit
			} else if c.total != nil {
				*c.total -= credit
			}
		}
	}
	c.k = k
}
