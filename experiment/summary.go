package experiment

import (
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"

	"github.com/egprof/egprof/internal/binfmt"
)

// The experiment summary file (version 1): binfmt's header with the
// signature "EGPEXPER", then the payload, in binfmt's encodings (uint and
// int varints, 8-byte floats, strings with their length):
//
//	table str
//	dimensions uint, then per dimension: name str, numeric bool,
//	  implicit bool, values uint, then per value: str
//	functions uint, then per function: name str, static bool,
//	  has-source bool, file str, line uint
//	scala bool, procs str, work str, rank str
//	metrics uint, then per metric: name str (FunctionMetrics' names)
//	statistics uint, then per dimension the statistics run over:
//	  over uint, groups uint, then per group: one value index int per
//	  dimension (−1 at over), totals acc, then per function and metric:
//	  acc, noise float; then per function: absent runs uint, first int
//	runs (when scala): rank dimension int (−1: none), runs uint, then
//	  per run: one value index int per dimension (−1 at the rank), rate
//	  float, total acc, then per function: acc
//	acc: n uint; when n > 0: form uint (0: every value 0, 1: every value
//	  equal, then the value float; 2: mean, M2, min, max floats), then
//	  the locations of the minimum and the maximum, int
const (
	summarySignature = "EGPEXPER"
	summaryVersion   = 1
)

// IsSummary reports whether data starts like an experiment summary.
func IsSummary(data []byte) bool { return binfmt.HasSignature(data, summarySignature) }

// Encode returns the accumulators in the summary file format.
func (a *Accumulators) Encode() []byte {
	w := &binfmt.Writer{}
	w.String(a.File)
	w.Uint(uint64(len(a.Dims)))
	for _, d := range a.Dims {
		w.String(d.Name)
		w.Bool(d.Numeric)
		w.Bool(d.Implicit)
		w.Uint(uint64(len(d.Values)))
		for _, v := range d.Values {
			w.String(v)
		}
	}
	w.Uint(uint64(len(a.Functions)))
	for _, f := range a.Functions {
		w.String(f.Name)
		w.Bool(f.Static)
		w.Bool(f.HasSrc)
		w.String(f.Src.File)
		w.Uint(uint64(max(f.Src.Line, 0)))
	}
	w.Bool(a.Scala)
	w.String(a.ProcsDim)
	w.String(a.WorkDim)
	w.String(a.RankDim)
	metrics := FunctionMetrics()
	w.Uint(uint64(len(metrics)))
	for _, m := range metrics {
		w.String(m.Name)
	}
	w.Uint(uint64(len(a.stats)))
	for _, s := range a.stats {
		w.Uint(uint64(s.over))
		w.Uint(uint64(len(s.keys)))
		for g, key := range s.keys {
			for _, v := range key {
				w.Int(int64(v))
			}
			writeAcc(w, &s.totals[g])
			for i := range s.acc[g] {
				writeAcc(w, &s.acc[g][i])
				w.Float(s.noise[g][i])
			}
			for _, ab := range s.absent[g] {
				w.Uint(uint64(ab.n))
				w.Int(int64(ab.first))
			}
		}
	}
	if rt := a.runs; rt != nil {
		w.Int(int64(rt.rank))
		w.Uint(uint64(len(rt.vals)))
		for i, vals := range rt.vals {
			for _, v := range vals {
				w.Int(int64(v))
			}
			w.Float(rt.hz[i])
			writeAcc(w, &rt.total[i])
			for f := range rt.funcs[i] {
				writeAcc(w, &rt.funcs[i][f])
			}
		}
	}
	return w.File(summarySignature, summaryVersion)
}

func writeAcc(w *binfmt.Writer, a *Acc) {
	w.Uint(uint64(a.N))
	if a.N == 0 {
		return
	}
	switch {
	case a.Min == a.Max && a.Min == 0:
		w.Uint(0)
	case a.Min == a.Max:
		w.Uint(1)
		w.Float(a.Min)
	default:
		w.Uint(2)
		w.Float(a.Mean)
		w.Float(a.M2)
		w.Float(a.Min)
		w.Float(a.Max)
	}
	w.Int(int64(a.ArgMin))
	w.Int(int64(a.ArgMax))
}

// readAcc reads an accumulator whose locations are below locs.
func readAcc(r *binfmt.Reader, locs int) Acc {
	a := Acc{N: int(min(r.Uint("count"), math.MaxInt32))}
	if a.N == 0 {
		return a
	}
	switch form := r.Uint("accumulator form"); form {
	case 0:
	case 1:
		a.Min = r.Float("value")
		a.Mean, a.Max = a.Min, a.Min
		if r.Err() == nil && math.IsNaN(a.Min) {
			// Accumulate never makes one, and its extremes would not
			// be equal once written again.
			r.Fail("an accumulator whose value is NaN")
		}
	case 2:
		a.Mean, a.M2, a.Min, a.Max = r.Float("mean"), r.Float("squared deviations"), r.Float("minimum"), r.Float("maximum")
		if r.Err() == nil && !(a.Min <= a.Mean && a.Mean <= a.Max && a.M2 >= 0) {
			r.Fail("an accumulator whose mean %g is not between its extremes %g and %g", a.Mean, a.Min, a.Max)
		}
	default:
		r.Fail("accumulator form %d", form)
	}
	a.ArgMin, a.ArgMax = readLoc(r, "location of the minimum", locs), readLoc(r, "location of the maximum", locs)
	return a
}

// readLoc reads a value index below n (0 when n is 0: no dimension).
func readLoc(r *binfmt.Reader, what string, n int) int {
	v := r.Int(what)
	if r.Err() == nil && (v < 0 || v >= int64(max(n, 1))) {
		r.Fail("%s %d out of range (%d values)", what, v, n)
		return 0
	}
	return int(v)
}

// readKey reads one value index per dimension, −1 allowed at free.
func readKey(r *binfmt.Reader, dims []Dimension, free int) []int {
	key := make([]int, len(dims))
	for d := range dims {
		v := r.Int("value index")
		if r.Err() == nil && !(v == -1 && d == free) && (v < 0 || v >= int64(len(dims[d].Values))) {
			r.Fail("value index %d of %s out of range", v, dims[d].Name)
		}
		key[d] = int(v)
	}
	return key
}

// DecodeSummary parses an experiment summary held in data; name is used in
// errors.
func DecodeSummary(data []byte, name string) (*Accumulators, error) {
	r, err := binfmt.Open(data, name, summarySignature, summaryVersion, "an egprof experiment summary")
	if err != nil {
		return nil, err
	}
	a := &Accumulators{File: r.String("table")}
	nd := r.Count("dimensions", 4)
	for range nd {
		d := Dimension{Name: r.String("dimension name"), Numeric: r.Bool("numeric flag"), Implicit: r.Bool("implicit flag")}
		nv := r.Count("values", 1)
		for range nv {
			v := r.String("value")
			d.Values = append(d.Values, v)
			if d.Numeric {
				x, err := strconv.ParseFloat(v, 64)
				if err != nil && r.Err() == nil {
					r.Fail("value %q of numeric dimension %s", v, d.Name)
				}
				if len(d.Nums) > 0 && !(x > d.Nums[len(d.Nums)-1]) && r.Err() == nil {
					r.Fail("values of numeric dimension %s out of order", d.Name)
				}
				d.Nums = append(d.Nums, x)
			}
		}
		a.Dims = append(a.Dims, d)
	}
	nf := r.Count("functions", 5)
	for range nf {
		f := Function{Name: r.String("function name"), Static: r.Bool("static flag"), HasSrc: r.Bool("source flag")}
		f.Src.File = r.String("source file")
		f.Src.Line = int(min(r.Uint("source line"), math.MaxInt32))
		a.Functions = append(a.Functions, f)
	}
	a.Scala = r.Bool("scalability flag")
	a.ProcsDim, a.WorkDim, a.RankDim = r.String("process-count dimension"), r.String("work dimension"), r.String("rank dimension")
	metrics := FunctionMetrics()
	var names []string
	for range r.Count("metrics", 1) {
		names = append(names, r.String("metric"))
	}
	if r.Err() == nil && !slices.EqualFunc(names, metrics, func(n string, m Metric) bool { return n == m.Name }) {
		r.Fail("metrics %v, not this egprof's", names)
	}
	raw := make([]string, nf)
	for i, f := range a.Functions {
		raw[i] = f.Name
	}
	cells := nf * len(metrics)
	for range r.Count("statistics", 2) {
		over := r.Index("dimension of the statistics", max(nd, 1))
		if r.Err() != nil {
			break
		}
		s := NewStats(a.Dims, over, raw, metrics)
		locs := len(a.Dims[over].Values)
		for range r.Count("groups", nd+1+cells+nf) {
			g := s.group(readKey(r, a.Dims, over))
			if r.Err() != nil {
				break
			}
			s.totals[g] = readAcc(r, locs)
			for i := range cells {
				s.acc[g][i] = readAcc(r, locs)
				s.noise[g][i] = r.Float("noise")
			}
			for i := range nf {
				s.absent[g][i] = absence{n: int(min(r.Uint("absent runs"), math.MaxInt32)), first: readLoc(r, "first absent run", locs)}
			}
		}
		a.stats = append(a.stats, s)
	}
	if a.Scala && r.Err() == nil {
		e := &Experiment{Dims: a.Dims}
		procs, work := e.Dim(a.ProcsDim), e.Dim(a.WorkDim)
		if procs < 0 || work < 0 || !a.Dims[procs].Numeric || !a.Dims[work].Numeric {
			r.Fail("no numeric %s and %s dimensions for the scalability analysis", a.ProcsDim, a.WorkDim)
		}
		rank := int(r.Int("rank dimension"))
		if r.Err() == nil && (rank < -1 || rank >= nd) {
			r.Fail("rank dimension %d out of range", rank)
		}
		rt := &runTimes{rank: rank, index: map[string]int{}, nf: nf}
		locs := 0
		if rank >= 0 {
			locs = len(a.Dims[rank].Values)
		}
		for range r.Count("runs", nd+9) {
			i := rt.run(readKey(r, a.Dims, rank))
			if r.Err() != nil {
				break
			}
			rt.hz[i] = r.Float("sampling rate")
			rt.total[i] = readAcc(r, locs)
			for f := range nf {
				rt.funcs[i][f] = readAcc(r, locs)
			}
		}
		a.runs = rt
	}
	if err := r.Finish(); err != nil {
		return nil, err
	}
	return a, nil
}

// ReadSummary reads an experiment summary file.
func ReadSummary(path string) (*Accumulators, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return DecodeSummary(data, path)
}

// Merge folds o, made from other profiles of the same executables with
// the same configuration, into a. The dimensions' values are joined (a
// numeric dimension's in ascending order, another's a's first); the
// result is the accumulators of both sets of profiles, except that a tie
// between the extremes of runs of a and of o goes to the one whose value
// comes first in the joined order.
func (a *Accumulators) Merge(o *Accumulators) error {
	switch {
	case !slices.EqualFunc(a.Dims, o.Dims, func(x, y Dimension) bool { return x.Name == y.Name && x.Numeric == y.Numeric }):
		return fmt.Errorf("other dimensions (%s) than %s", dimList(o.Dims), dimList(a.Dims))
	case !slices.Equal(a.Functions, o.Functions):
		return errors.New("made from other executables (their functions differ)")
	case a.Scala != o.Scala || a.ProcsDim != o.ProcsDim || a.WorkDim != o.WorkDim || a.RankDim != o.RankDim:
		return errors.New("made with other --procs-dim, --work-dim or --rank-dim columns")
	case !slices.EqualFunc(a.stats, o.stats, func(x, y *Stats) bool { return x.over == y.over }):
		return errors.New("made with other --over dimensions")
	}
	dims := make([]Dimension, len(a.Dims))
	mapA, mapB := make([][]int, len(dims)), make([][]int, len(dims))
	for d := range dims {
		dims[d], mapA[d], mapB[d] = joinValues(&a.Dims[d], &o.Dims[d])
	}
	for k, s := range a.stats {
		m := NewStats(dims, s.over, s.items, s.metrics)
		m.mergeFrom(s, mapA)
		m.mergeFrom(o.stats[k], mapB)
		a.stats[k] = m
	}
	if a.runs != nil {
		m := &runTimes{rank: a.runs.rank, index: map[string]int{}, nf: a.runs.nf}
		m.mergeFrom(a.runs, mapA)
		m.mergeFrom(o.runs, mapB)
		a.runs = m
	}
	a.Dims = dims
	return nil
}

func dimList(dims []Dimension) string {
	var names []string
	for _, d := range dims {
		names = append(names, d.Name)
	}
	return orNone(names)
}

// joinValues joins two dimensions' values and maps each one's value
// indexes into the joined list.
func joinValues(x, y *Dimension) (Dimension, []int, []int) {
	j := Dimension{Name: x.Name, Numeric: x.Numeric, Implicit: x.Implicit && y.Implicit}
	if x.Numeric {
		byNum := map[float64]string{}
		for _, d := range []*Dimension{x, y} {
			for i, v := range d.Nums {
				if _, ok := byNum[v]; !ok {
					byNum[v] = d.Values[i]
					j.Nums = append(j.Nums, v)
				}
			}
		}
		slices.Sort(j.Nums)
		for _, v := range j.Nums {
			j.Values = append(j.Values, byNum[v])
		}
	} else {
		j.Values = slices.Clone(x.Values)
		for _, v := range y.Values {
			if !slices.Contains(j.Values, v) {
				j.Values = append(j.Values, v)
			}
		}
	}
	index := func(d *Dimension) []int {
		m := make([]int, len(d.Values))
		for i := range m {
			if d.Numeric {
				m[i], _ = slices.BinarySearch(j.Nums, d.Nums[i])
			} else {
				m[i] = slices.Index(j.Values, d.Values[i])
			}
		}
		return m
	}
	return j, index(x), index(y)
}

// remap translates value indexes (−1 stays).
func remap(vals []int, maps [][]int) []int {
	out := make([]int, len(vals))
	for d, v := range vals {
		out[d] = v
		if v >= 0 {
			out[d] = maps[d][v]
		}
	}
	return out
}

// moved returns a with its locations translated by m.
func (a Acc) moved(m []int) Acc {
	if a.N > 0 {
		a.ArgMin, a.ArgMax = m[a.ArgMin], m[a.ArgMax]
	}
	return a
}

// mergeFrom adds the groups of o, whose value indexes maps translate.
func (s *Stats) mergeFrom(o *Stats, maps [][]int) {
	at := maps[s.over]
	for g, key := range o.keys {
		mine := s.group(remap(key, maps))
		s.totals[mine].Merge(o.totals[g].moved(at))
		for i := range o.acc[g] {
			s.acc[mine][i].Merge(o.acc[g][i].moved(at))
			s.noise[mine][i] += o.noise[g][i]
		}
		for i, ab := range o.absent[g] {
			if ab.n == 0 {
				continue
			}
			first, dst := at[ab.first], &s.absent[mine][i]
			if dst.n == 0 || first < dst.first {
				dst.first = first
			}
			dst.n += ab.n
		}
	}
}

// mergeFrom adds the runs of o, whose value indexes maps translate.
func (rt *runTimes) mergeFrom(o *runTimes, maps [][]int) {
	at := []int{0}
	if rt.rank >= 0 {
		at = maps[rt.rank]
	}
	for i := range o.vals {
		mine := rt.run(remap(o.vals[i], maps))
		if o.hz[i] > 0 {
			rt.hz[mine] = o.hz[i]
		}
		rt.total[mine].Merge(o.total[i].moved(at))
		for f := range o.funcs[i] {
			rt.funcs[mine][f].Merge(o.funcs[i][f].moved(at))
		}
	}
}
