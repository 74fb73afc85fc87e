package ranks

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/symtab"
)

// DefaultRankPattern finds the rank number in a gmon file name: the
// integer after "rank" (gmon.rank3.12345 is rank 3).
const DefaultRankPattern = `rank[._-]?(\d+)`

// Input is one file of a rank aggregation: a rank's gmon file or a
// summary.
type Input struct {
	Name string
	// Data, when not nil, is the file's content (standard input);
	// otherwise the file is read from Name.
	Data []byte
	// Rank is the rank number of a gmon file; summaries carry their own.
	Rank int
	// Summary is set for a summary file (see Sniff).
	Summary bool
}

// Sniff reports whether the named file is a summary, reading only its
// first bytes.
func Sniff(name string) (bool, error) {
	f, err := os.Open(name)
	if err != nil {
		return false, err
	}
	defer f.Close()
	var head [len(summaryMagic)]byte
	n, err := io.ReadFull(f, head[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return false, err
	}
	return IsSummary(head[:n]), nil
}

// AssignRanks gives each gmon input its rank number: the first capture
// group of pattern (or the whole match) in the file's base name, the
// default pattern when pattern is empty. With the default pattern, when
// not every name matches, ranks are the positions of the gmon files on the
// command line instead; an explicit pattern must match every name.
// Summaries are skipped. A rank number given twice is an error.
func AssignRanks(inputs []Input, pattern string) error {
	explicit := pattern != ""
	if !explicit {
		pattern = DefaultRankPattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return fmt.Errorf("--rank-pattern: %w", err)
	}
	all := true
	nums := make([]int, len(inputs))
	for i := range inputs {
		if inputs[i].Summary {
			continue
		}
		base := filepath.Base(inputs[i].Name)
		m := re.FindStringSubmatch(base)
		if m == nil {
			if explicit {
				return fmt.Errorf("%s: the file name does not match --rank-pattern=%s", inputs[i].Name, pattern)
			}
			all = false
			break
		}
		s := m[0]
		if len(m) > 1 {
			s = m[1]
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return fmt.Errorf("%s: %q is not a rank number", inputs[i].Name, s)
		}
		nums[i] = n
	}
	pos := 0
	seen := map[int]string{}
	for i := range inputs {
		if inputs[i].Summary {
			continue
		}
		if all {
			inputs[i].Rank = nums[i]
		} else {
			inputs[i].Rank = pos
		}
		pos++
		if other, dup := seen[inputs[i].Rank]; dup {
			return fmt.Errorf("rank %d given twice: %s and %s", inputs[i].Rank, other, inputs[i].Name)
		}
		seen[inputs[i].Rank] = inputs[i].Name
	}
	return nil
}

// CollectOptions control Collect.
type CollectOptions struct {
	Exe    string      // executable name recorded in the summary
	Format gmon.Format // gprof's -O
	TopK   int         // regions kept per rank (DefaultTopK when 0)
	// Sum asks for the classic summed profile too: the gmon files added
	// in input order exactly as gprof sums them, summaries' summed
	// profiles added in their place.
	Sum bool
	// Workers is the number of files processed at once (all cores when 0).
	Workers int
	// Progress, if set, is called (from any goroutine, one call at a time)
	// after each file with the number of files done and the total.
	Progress func(done, total int)
	// OnFile, if set, is called in input order for each gmon file added
	// to the summed profile (gprof -i prints from it).
	OnFile func(f *gmon.File, sum *gmon.Profile)
}

// Collected is the outcome of Collect.
type Collected struct {
	Summary *Summary
	// Sum is the summed classic profile (nil unless asked for).
	Sum *gmon.Profile
	// HasBB reports that some gmon file had basic-block counts.
	HasBB bool
}

// Collect reads the inputs on all cores and returns their summary: each
// gmon file is one rank, attributed to the symbols of tab (as gprof's flat
// profile does) and grouped by layout; summaries are merged in. Memory
// does not grow with the number of gmon files beyond a small record per
// rank.
func Collect(tab *symtab.Table, layout *Layout, inputs []Input, opt CollectOptions) (*Collected, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(inputs)))
	c := &collector{tab: tab, layout: layout, attr: newAttributor(tab), inputs: inputs, opt: opt, errs: make([]error, len(inputs))}
	c.failedAt.Store(int64(len(inputs)))

	c.cond = sync.NewCond(&c.mu)
	if opt.Sum {
		c.sum = gmon.NewProfile(tab.Target, opt.Format)
	}
	c.plan()
	partial := make([]*Summary, workers)
	var wg sync.WaitGroup
	for w := range workers {
		partial[w] = NewSummary(opt.Exe, layout, opt.TopK)
		wg.Add(1)
		go func(s *Summary) {
			defer wg.Done()
			c.work(s)
		}(partial[w])
	}
	wg.Wait()
	if at := c.failedAt.Load(); at < int64(len(inputs)) {
		return nil, c.errs[at]
	}
	out := partial[0]
	for _, s := range partial[1:] {
		if err := out.Merge(s); err != nil {
			return nil, err
		}
	}
	if err := out.Normalize(); err != nil {
		return nil, err
	}
	c.cand.apply(out)
	res := &Collected{Summary: out, Sum: c.sum, HasBB: c.hasBB.Load()}
	if c.sum != nil {
		out.Classic = ClassicFrom(c.sum)
	}
	return res, nil
}

// collector is the shared state of one Collect.
type collector struct {
	tab    *symtab.Table
	layout *Layout
	attr   *attributor
	inputs []Input
	opt    CollectOptions
	sum    *gmon.Profile

	jobs     []job
	next     atomic.Int64
	done     atomic.Int64
	failedAt atomic.Int64 // lowest input index that failed
	errs     []error
	hasBB    atomic.Bool

	mu       sync.Mutex
	cond     *sync.Cond
	turn     int // next input to add to the summed profile
	progress sync.Mutex

	cand candidates
}

// candidates chooses, from a sample of ranks spread evenly over the
// inputs and read first, the regions whose per-rank times every rank
// records exactly: the regions whose times vary most between the sampled
// ranks, which are the ones the analysis most likely shows rank by rank.
// The ranks read before the choice keep their full region times until the
// end, when they get the candidates' times. Since only the sample decides,
// the outcome does not depend on timing.
type candidates struct {
	mu      sync.Mutex
	sample  map[int]bool // rank numbers of the sample
	seen    int          // sampled ranks read so far
	frozen  bool
	regions []int32               // ascending, once frozen
	warm    map[int][]RegionValue // rank -> its non-zero region times
}

// warmupRanks is how many ranks the candidates are chosen from.
const warmupRanks = 64

// chosen returns the candidate regions once they are chosen.
func (c *candidates) chosen() ([]int32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.regions, c.frozen
}

// add records one warm-up rank's region times; the last one needed
// chooses the candidates.
func (c *candidates) add(rank int, full []RegionValue, nRegions int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.warm == nil {
		c.warm = map[int][]RegionValue{}
	}
	c.warm[rank] = full
	if c.sample[rank] {
		c.seen++
	}
	if !c.frozen && c.seen == len(c.sample) {
		c.freeze(nRegions)
	}
}

// freeze chooses the regions with the largest spread of the warm-up
// ranks' times (which, for a region with one activity, orders them as
// SID_C does); c.mu is held.
func (c *candidates) freeze(nRegions int) {
	if c.frozen {
		return
	}
	c.frozen = true
	w := float64(len(c.sample))
	sum := make([]float64, nRegions)
	sq := make([]float64, nRegions)
	for rank, full := range c.warm {
		if !c.sample[rank] {
			continue
		}
		for _, rv := range full {
			v := float64(rv.Value)
			sum[rv.Region] += v
			sq[rv.Region] += v * v
		}
	}
	var regs []int32
	spread := make([]float64, nRegions)
	for r := range nRegions {
		if sum[r] > 0 {
			spread[r] = w*sq[r] - sum[r]*sum[r]
			regs = append(regs, int32(r))
		}
	}
	slices.SortStableFunc(regs, func(a, b int32) int { return cmp.Compare(spread[b], spread[a]) })
	regs = regs[:min(len(regs), candidateRegions)]
	slices.Sort(regs)
	c.regions = regs
}

// apply gives the warm-up ranks of s their times in the candidates.
func (c *candidates) apply(s *Summary) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.freeze(len(s.Regions))
	for p := range s.Ranks {
		ri := &s.Ranks[p]
		full, ok := c.warm[ri.Rank]
		if !ok {
			continue
		}
		for _, r := range c.regions {
			i := sort.Search(len(full), func(i int) bool { return full[i].Region >= r })
			v := uint64(0)
			if i < len(full) && full[i].Region == r {
				v = full[i].Value
			}
			ri.set(int(r), v)
		}
	}
	c.warm = nil
}

// fail records the error of input i.
func (c *collector) fail(i int, err error) {
	c.mu.Lock()
	c.markFailed(i, err)
	c.mu.Unlock()
}

// markFailed records the error of input i; c.mu is held. Only the lowest
// failing input is reported, so the error does not depend on timing.
func (c *collector) markFailed(i int, err error) {
	c.errs[i] = err
	for {
		cur := c.failedAt.Load()
		if int64(i) >= cur || c.failedAt.CompareAndSwap(cur, int64(i)) {
			break
		}
	}
	c.cond.Broadcast()
}

// work processes inputs until none is left, folding ranks into s.
func (c *collector) work(s *Summary) {
	sc := newScratch(len(c.tab.Syms), len(c.layout.Cells))
	var buf []byte // reused for every file read
	for {
		k := int(c.next.Add(1) - 1)
		if k >= len(c.jobs) {
			return
		}
		j := c.jobs[k]
		i := j.input
		if int64(i) >= c.failedAt.Load() {
			continue
		}
		in := &c.inputs[i]
		data := in.Data
		if data == nil {
			var err error
			if data, err = readInto(in.Name, &buf); err != nil {
				c.fail(i, err)
				continue
			}
		}
		var sum *Summary
		if j.analyse {
			var err error
			sum, err = c.analyse(s, in, data, sc)
			if err != nil {
				c.fail(i, err)
				continue
			}
			if c.opt.Progress != nil {
				n := int(c.done.Add(1))
				c.progress.Lock()
				c.opt.Progress(n, len(c.inputs))
				c.progress.Unlock()
			}
		}
		if j.sum && c.sum != nil {
			c.addToSum(i, data, sum)
		}
	}
}

// job is one step of the work on an input: its analysis, its addition to
// the summed profile (which must go in input order), or both.
type job struct {
	input        int
	analyse, sum bool
}

// plan orders the jobs: first the analysis of warmupRanks gmon files
// evenly spread over the inputs, from which the candidate regions are
// chosen; then every input in order, analysed unless done already, and
// added to the summed profile.
func (c *collector) plan() {
	var gmonIdx []int
	for i, in := range c.inputs {
		if !in.Summary {
			gmonIdx = append(gmonIdx, i)
		}
	}
	early := make([]bool, len(c.inputs))
	c.cand.sample = map[int]bool{}
	if len(gmonIdx) > warmupRanks {
		for k := range warmupRanks {
			i := gmonIdx[k*len(gmonIdx)/warmupRanks]
			early[i] = true
			c.cand.sample[c.inputs[i].Rank] = true
			c.jobs = append(c.jobs, job{input: i, analyse: true})
		}
	} else {
		for _, i := range gmonIdx {
			c.cand.sample[c.inputs[i].Rank] = true
		}
	}
	for i := range c.inputs {
		if early[i] && c.sum == nil {
			continue
		}
		c.jobs = append(c.jobs, job{input: i, analyse: !early[i], sum: true})
	}
}

// analyse folds one input into s: a gmon file as one rank, a summary by
// merging it (and returning it).
func (c *collector) analyse(s *Summary, in *Input, data []byte, sc *scratch) (*Summary, error) {
	if in.Summary || IsSummary(data) {
		sum, err := DecodeSummary(data, in.Name)
		if err != nil {
			return nil, err
		}
		if err := s.Merge(sum); err != nil {
			return nil, fmt.Errorf("%s: %w", in.Name, err)
		}
		return sum, nil
	}
	hasBB, err := c.rank(s, in, data, sc)
	if err != nil {
		return nil, err
	}
	if hasBB {
		c.hasBB.Store(true)
	}
	return nil, nil
}

// rank reads one gmon file as one rank.
func (c *collector) rank(s *Summary, in *Input, data []byte, sc *scratch) (hasBB bool, err error) {
	f, err := gmon.Read(data, in.Name, c.tab.Target, c.opt.Format)
	if err != nil {
		return false, err
	}
	sc.attribute(c.attr, c.layout, f)
	keep, frozen := c.cand.chosen()
	var full []RegionValue
	var fullp *[]RegionValue
	if !frozen {
		fullp = &full
	}
	if err := s.addRank(in.Rank, in.Name, c.attr.rate(f), sc.cellTime, sc.cellCalls, keep, fullp); err != nil {
		return false, fmt.Errorf("%s: %w", in.Name, err)
	}
	if !frozen {
		c.cand.add(in.Rank, full, len(c.layout.Regions))
	}
	return len(f.BBs) > 0, nil
}

// scratch holds one worker's per-file arrays.
type scratch struct {
	ticks               []float64 // per symbol
	calls               []uint64  // per symbol
	cellTime, cellCalls []uint64  // per cell
}

func newScratch(nsyms, ncells int) *scratch {
	return &scratch{ticks: make([]float64, nsyms), calls: make([]uint64, nsyms),
		cellTime: make([]uint64, ncells), cellCalls: make([]uint64, ncells)}
}

// attribute credits one file to the symbols and sums them per cell.
func (sc *scratch) attribute(a *attributor, l *Layout, f *gmon.File) {
	clear(sc.ticks)
	clear(sc.calls)
	clear(sc.cellTime)
	clear(sc.cellCalls)
	a.samples(f, sc.ticks)
	a.calls(f, sc.calls)
	for i, cell := range l.SymCell {
		sc.cellTime[cell] += toFixed(sc.ticks[i])
		sc.cellCalls[cell] += sc.calls[i]
	}
}

// addToSum waits for input i's turn and adds it to the summed profile
// (sum is the decoded summary of a summary input). It returns false when
// an earlier input failed.
func (c *collector) addToSum(i int, data []byte, sum *Summary) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.turn != i {
		if c.failedAt.Load() < int64(i) {
			return false
		}
		c.cond.Wait()
	}
	name := c.inputs[i].Name
	var err error
	if sum != nil {
		if sum.Classic == nil {
			err = fmt.Errorf("%s: the summary has no summed profile", name)
		} else {
			_, err = sum.Classic.AddTo(c.sum, name)
		}
	} else {
		var f *gmon.File
		if f, err = c.sum.AddData(data, name); err == nil && c.opt.OnFile != nil {
			c.opt.OnFile(f, c.sum)
		}
	}
	if err != nil {
		c.markFailed(i, err)
		return false
	}
	c.turn++
	c.cond.Broadcast()
	return true
}

// FillRanks makes the ranks' times in regions exact where a rank's record
// does not hold them (it kept only its TopK heaviest regions): it reads
// those ranks' gmon files again, on all cores, and records their time in
// each of the regions (at most MaxFilled of them). Ranks that came from
// summaries cannot be read again and stay as they are. It returns the
// number of ranks read again.
func FillRanks(tab *symtab.Table, layout *Layout, s *Summary, inputs []Input, regions []int, opt CollectOptions) (int, error) {
	regions = regions[:min(len(regions), MaxFilled)]
	byRank := map[int]*Input{}
	for i := range inputs {
		if !inputs[i].Summary {
			byRank[inputs[i].Rank] = &inputs[i]
		}
	}
	var todo []int // indexes into s.Ranks
	for p := range s.Ranks {
		if byRank[s.Ranks[p].Rank] == nil {
			continue
		}
		for _, r := range regions {
			if _, known := s.Ranks[p].Lookup(r); !known {
				todo = append(todo, p)
				break
			}
		}
	}
	if len(todo) == 0 {
		return 0, nil
	}
	attr := newAttributor(tab)
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(todo)))
	var next atomic.Int64
	errs := make([]error, len(todo))
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := newScratch(len(tab.Syms), len(layout.Cells))
			regTime := make([]uint64, len(layout.Regions))
			var buf []byte
			for {
				k := int(next.Add(1) - 1)
				if k >= len(todo) {
					return
				}
				ri := &s.Ranks[todo[k]]
				in := byRank[ri.Rank]
				data := in.Data
				if data == nil {
					var err error
					if data, err = readInto(in.Name, &buf); err != nil {
						errs[k] = err
						continue
					}
				}
				f, err := gmon.Read(data, in.Name, tab.Target, opt.Format)
				if err != nil {
					errs[k] = err
					continue
				}
				sc.attribute(attr, layout, f)
				clear(regTime)
				for c, cell := range layout.Cells {
					regTime[cell.Region] += sc.cellTime[c]
				}
				for _, r := range regions {
					ri.set(r, regTime[r])
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return 0, err
		}
	}
	return len(todo), nil
}

// readInto reads the named file into *buf, growing it as needed, and
// returns the bytes read (valid until the next call with buf).
func readInto(name string, buf *[]byte) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := int(fi.Size())
	if fi.Mode().IsRegular() && size >= 0 {
		if cap(*buf) < size+1 {
			*buf = make([]byte, size+1, size+size/4+1)
		}
		b := (*buf)[:cap(*buf)]
		n, err := io.ReadFull(f, b)
		switch {
		case err == io.ErrUnexpectedEOF || err == io.EOF:
			return b[:n], nil
		case err != nil:
			return nil, err
		}
		// The file grew while being read: read the rest.
		rest, err := io.ReadAll(f)
		if err != nil {
			return nil, err
		}
		*buf = append(b, rest...)
		return *buf, nil
	}
	return io.ReadAll(f)
}
