package diff

import (
	"cmp"
	"math"
	"slices"

	"github.com/egprof/egprof/callgraph"
)

// Gate is the verdict of a regression check: is the '-' run (the one
// compared, given with --diff) slower than the '+' run (the baseline)?
type Gate struct {
	// PlusTotal and MinusTotal are the two runs' times in seconds (the
	// flat profile's totals); Growth is MinusTotal - PlusTotal.
	PlusTotal, MinusTotal, Growth float64
	// NoiseSE is the standard error of Growth, each run's sample count
	// taken as a Poisson count.
	NoiseSE float64
	// TotalLimit and FunctionLimit are the allowed growths in seconds:
	// the shares asked for of the '+' total (FunctionLimit 0: no
	// per-function check).
	TotalLimit, FunctionLimit float64
	// Slower reports a growth of the total beyond both TotalLimit and
	// the noise.
	Slower bool
	// Functions are the functions whose self time grew by more than
	// FunctionLimit beyond the noise, most grown first.
	Functions []int
}

// Failed reports whether the check fails.
func (g *Gate) Failed() bool { return g.Slower || len(g.Functions) > 0 }

// CheckRegression checks whether the '-' run is slower than the '+' run:
// its total grew by more than totalPct percent of the '+' total and by more
// than NoiseSEs standard errors; with functionPct > 0, also whether any
// function's self time grew by more than functionPct percent of the '+'
// total and by more than its noise.
func (p *Profile) CheckRegression(totalPct, functionPct float64) Gate {
	var g Gate
	if !p.IsDiff() {
		return g
	}
	g.PlusTotal, g.MinusTotal = p.PlusTotal(), p.MinusTotal()
	g.Growth = g.MinusTotal - g.PlusTotal
	// Each total is k*X/hz for a sample count X: its variance is
	// k*k*X/(hz*hz).
	v := 0.0
	if ph := p.PlusHZ(); ph > 0 {
		v += p.PlusScale * p.PlusScale * p.Plus.TotalTime / (ph * ph)
	}
	if mh := p.MinusHZ(); mh > 0 {
		v += p.MinusScale * p.MinusScale * p.Minus.TotalTime / (mh * mh)
	}
	g.NoiseSE = math.Sqrt(v)
	g.TotalLimit = totalPct / 100 * g.PlusTotal
	g.Slower = g.Growth > g.TotalLimit && g.Growth > NoiseSEs*g.NoiseSE
	if functionPct > 0 {
		g.FunctionLimit = functionPct / 100 * g.PlusTotal
		for i := range p.Functions {
			grew := -p.Functions[i].SelfDelta()
			if grew > g.FunctionLimit && !p.WithinNoise(i) {
				g.Functions = append(g.Functions, i)
			}
		}
		slices.SortStableFunc(g.Functions, func(a, b int) int {
			return cmp.Compare(p.Functions[a].SelfDelta(), p.Functions[b].SelfDelta()) // most grown first
		})
	}
	return g
}

// PlusTotal is the '+' side's time in seconds (the flat profile's total),
// scaled as the side is.
func (p *Profile) PlusTotal() float64 { return total(p.Plus, p.PlusScale) }

// MinusTotal is the '-' side's time in seconds, scaled as the side is (0
// without a '-' side).
func (p *Profile) MinusTotal() float64 { return total(p.Minus, p.MinusScale) }

func total(g *callgraph.Graph, scale float64) float64 {
	if g == nil {
		return 0
	}
	return scaleOf(scale) * g.Seconds()
}
