package ranks

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"sync"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/parallel"
	"github.com/egprof/egprof/symtab"
)

// DefaultRankPattern finds the rank number in a gmon file name: the
// integer after "rank", in any case, and after at most one of ".", "_"
// and "-" (gmon.rank3.12345, gmon.RANK3 and gmon-rank_3.out are rank 3).
// It is the one rule for rank numbers in file names: --ranks uses it when
// no --rank-pattern is given, and experiment tables for the files a glob
// matches.
const DefaultRankPattern = `(?i)rank[._-]?(\d+)`

// defaultRank holds DefaultRankPattern compiled on first use (by
// defaultRankPattern), not at start-up, which every run of egprof pays
// for. Its zero value needs no initialisation code, so a run that reads
// no ranks never touches this package's code: as a sync.OnceValue it made
// the package an init function, and the kernel mapped the 64 KB of code
// around it at every start (the BLAS driver's classic report: one page
// fault and 64 KB of peak RSS).
var defaultRank struct {
	once sync.Once
	re   *regexp.Regexp
}

// defaultRankPattern returns DefaultRankPattern compiled.
func defaultRankPattern() *regexp.Regexp {
	defaultRank.once.Do(func() { defaultRank.re = regexp.MustCompile(DefaultRankPattern) })
	return defaultRank.re
}

// RankInName returns the rank number DefaultRankPattern finds in the base
// name of the file name (its first match). ok is false when there is none,
// or when the number is too large for an int.
func RankInName(name string) (rank int, ok bool) {
	m := defaultRankPattern().FindStringSubmatch(filepath.Base(name))
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return 0, false
	}
	return n, true
}

// Sniff reports whether the named file is a summary, reading only its
// first bytes.
func Sniff(name string) (bool, error) {
	f, err := os.Open(name)
	if err != nil {
		return false, err
	}
	defer f.Close()
	var head [len(summarySignature)]byte
	n, err := io.ReadFull(f, head[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return false, err
	}
	return IsSummary(head[:n]), nil
}

// CheckDistinct refuses an input given twice: two names of one file (the
// same name twice, a path and a link to it), which would count its ranks
// twice, and standard input named twice. Files that cannot be examined
// are left to the reading, which reports them. Files are told apart by
// their device and inode where the system has them, else compared
// pairwise. Of several repeats, the one reported is the earliest on the
// command line, named with the first input it repeats.
func CheckDistinct(inputs *Inputs) error {
	type seen struct {
		name string
		info os.FileInfo
	}
	// A sorted list rather than a map: 24 bytes a file, for jobs of
	// hundreds of thousands of ranks.
	type identified struct {
		id    fileID
		input int
	}
	var ids []identified
	var files []seen // files without an identity
	// The earliest repeat found so far, and the name it repeats.
	repeat, firstName := inputs.Len(), ""
	stdin := ""
	for i, in := range inputs.All() {
		if in.Data != nil {
			// Standard input is read once: named again, it is empty.
			if stdin != "" && i < repeat {
				repeat, firstName = i, stdin
			}
			stdin = in.Name
			continue
		}
		fi, err := os.Stat(in.Name)
		if err != nil {
			continue
		}
		if id, ok := identity(fi); ok {
			if ids == nil {
				ids = make([]identified, 0, inputs.Len()-i)
			}
			ids = append(ids, identified{id, i})
			continue
		}
		for _, f := range files {
			if i < repeat && os.SameFile(f.info, fi) {
				repeat, firstName = i, f.name
				break
			}
		}
		files = append(files, seen{in.Name, fi})
	}
	slices.SortFunc(ids, func(a, b identified) int {
		return cmp.Or(cmp.Compare(a.id.dev, b.id.dev), cmp.Compare(a.id.ino, b.id.ino), cmp.Compare(a.input, b.input))
	})
	// Within a file's run, the first pair holds the earliest repeat.
	for k := 1; k < len(ids); k++ {
		if ids[k].id == ids[k-1].id && ids[k].input < repeat {
			repeat, firstName = ids[k].input, inputs.Name(ids[k-1].input)
		}
	}
	switch {
	case repeat == inputs.Len():
		return nil
	case firstName == inputs.Name(repeat):
		return fmt.Errorf("%s is given twice: each rank may be counted only once", firstName)
	default:
		return fmt.Errorf("%s and %s are the same file: each rank may be counted only once", firstName, inputs.Name(repeat))
	}
}

// AssignRanks gives each gmon input its rank number: with an empty
// pattern the one of RankInName; else the first capture group of pattern
// (or the whole match) in the file's base name. With the default rule,
// when not every name has a rank number, ranks are the positions of the
// gmon files on the command line instead; an explicit pattern must match
// every name. Summaries are skipped. A rank number given twice is an
// error, reported for the earliest repeat on the command line.
func AssignRanks(inputs *Inputs, pattern string) error {
	if inputs.Len() > math.MaxInt32 {
		return fmt.Errorf("%d inputs, more than %d", inputs.Len(), math.MaxInt32)
	}
	var re *regexp.Regexp
	if pattern != "" {
		var err error
		if re, err = regexp.Compile(pattern); err != nil {
			return fmt.Errorf("--rank-pattern: %w", err)
		}
	}
	all := true
	for i := range inputs.Len() {
		if inputs.IsSummary(i) {
			continue
		}
		if re == nil {
			n, ok := RankInName(inputs.Name(i))
			if !ok {
				all = false
				break
			}
			inputs.SetRank(i, n)
			continue
		}
		n, err := rankByPattern(re, inputs.Name(i))
		if err != nil {
			return err
		}
		inputs.SetRank(i, n)
	}
	// The gmon inputs, by rank then position: 4 bytes a file.
	order := make([]int32, 0, inputs.Len())
	for i := range inputs.Len() {
		if inputs.IsSummary(i) {
			continue
		}
		if !all {
			inputs.SetRank(i, len(order))
		}
		order = append(order, int32(i))
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(inputs.Rank(int(a)), inputs.Rank(int(b))) })
	first, repeat := -1, inputs.Len()
	// Within a rank's run, the first pair holds the earliest repeat.
	for k := 1; k < len(order); k++ {
		a, b := int(order[k-1]), int(order[k])
		if inputs.Rank(a) == inputs.Rank(b) && b < repeat {
			first, repeat = a, b
		}
	}
	if first >= 0 {
		return fmt.Errorf("rank %d given twice: %s and %s", inputs.Rank(repeat), inputs.Name(first), inputs.Name(repeat))
	}
	return nil
}

// rankByPattern is the rank number --rank-pattern's re finds in the base
// name of name: its first capture group, or the whole match.
func rankByPattern(re *regexp.Regexp, name string) (int, error) {
	m := re.FindStringSubmatch(filepath.Base(name))
	if m == nil {
		return 0, fmt.Errorf("%s: the file name does not match --rank-pattern=%s", name, re)
	}
	s := m[0]
	if len(m) > 1 {
		s = m[1]
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		what := "the pattern's first group"
		if len(m) == 1 {
			what = "the pattern, which has no group (put the rank's digits in one: rank([0-9]+)),"
		}
		return 0, fmt.Errorf("%s: %s matches %q, which is not a rank number", name, what, s)
	}
	return n, nil
}

// CollectOptions control Collect.
type CollectOptions struct {
	Exe    string      // executable name recorded in the summary
	Format gmon.Format // gprof's -O
	TopK   int         // regions kept per rank (DefaultTopK when 0)
	// KeepHeaviest keeps each rank's TopK heaviest regions in its record,
	// which a saved summary needs (its ranks cannot be read again); without
	// it a rank keeps only its time in the candidate regions, and the
	// analysis reads again what it lacks (FillRanks).
	KeepHeaviest bool
	// Shown is how many regions the analysis shows rank by rank
	// (AnalyzeOptions.Top; DefaultTop when 0): the candidate regions every
	// rank records are chosen to cover them.
	Shown int
	// Sum asks for the classic summed profile too: the gmon files added
	// in input order exactly as gprof sums them, summaries' summed
	// profiles added in their place.
	Sum bool
	// Workers is the number of files processed at once (all cores when 0).
	Workers int
	// Progress, if set, is called on Collect's goroutine after each file
	// is analysed, with the number of files done and the total.
	Progress func(done, total int)
	// OnFile, if set, is called in input order for each gmon file added
	// to the summed profile (gprof -i prints from it).
	OnFile func(f *gmon.File, sum *gmon.Profile)
	// Belongs, if set, holds the executable's own function symbols: each
	// gmon file must belong to it (callgraph.CheckFileBelongs) or
	// Collect fails naming the file.
	Belongs *symtab.Table

	// Part, if set, makes Collect read only the inputs [Part.From,
	// Part.To), with the candidate regions chosen beforehand (by
	// ChooseCandidates over all the inputs), for one process of a job
	// that shares the inputs out: the parts' summaries merge (Merge, or
	// EncodePart and DecodePart between processes) into the summary of
	// all the inputs, and their summed profiles, merged in input order,
	// into theirs. The summary has no summed profile of its own then
	// (Summary.Classic): give the merged one to ClassicFrom.
	Part *Part

	// Spill, if set, holds the ranks' rows instead of memory when they
	// are recorded leanly (KeepHeaviest unset) and all from gmon files
	// with distinct rank numbers (no summary, no Part): the summary then
	// needs the Spill, for FillRanks and Analyze, which read the rows
	// back in order (WriteTo and Merge read them into memory). A failure
	// to write or read it is an error that says so.
	Spill Spill

	// candidates, when not 0, is how many candidate regions are chosen
	// (candidatesFor(Shown) otherwise): tests choose fewer than the
	// regions shown, so that ranks must be read again.
	candidates int
}

// Part is one process's share of a Collect over inputs shared out among
// processes.
type Part struct {
	From, To   int     // the inputs read
	Candidates []int32 // ascending; see ChooseCandidates
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
// rank, nor by that when the records are rows of opt.Spill (a few bytes
// per input remain while reading). The error returned is that of the first failing input in input
// order, whatever the number of workers.
func Collect(tab *symtab.Table, layout *Layout, inputs *Inputs, opt CollectOptions) (*Collected, error) {
	if inputs.Len() > math.MaxInt32 {
		return nil, fmt.Errorf("%d inputs, more than %d", inputs.Len(), math.MaxInt32)
	}
	c := &collector{tab: tab, layout: layout, attr: newAttributor(tab), inputs: inputs, opt: opt}
	c.cand.limit = cmp.Or(opt.candidates, candidatesFor(opt.Shown))
	var rows *rowTable
	if opt.Spill != nil && !opt.KeepHeaviest && opt.Part == nil {
		rows = newRowTable(opt.Spill, inputs)
	}
	c.cand.rows = rows
	if opt.Part != nil {
		c.cand.frozen, c.cand.regions = true, opt.Part.Candidates
	}
	if opt.Sum {
		c.sum = gmon.NewProfile(tab.Target, opt.Format)
	}
	p := c.plan()
	// A job is told by its number alone (jobAt).
	jobs := make([]struct{}, p.n)
	workers := parallel.Workers(opt.Workers, len(jobs))
	c.free = make(chan []byte, 2*workers)
	ws := make([]*worker, workers)
	t := turns{warmErrs: map[int]error{}}
	err := parallel.Map(context.Background(), jobs, parallel.Options{Workers: workers},
		func(w, i int, _ struct{}) (outcome, error) {
			if ws[w] == nil {
				ws[w] = &worker{sum: NewSummary(opt.Exe, layout, opt.TopK), sc: newScratch(len(tab.Syms))}
				if !opt.KeepHeaviest {
					ws[w].sum.kept = &keptStore{inputs: inputs}
					ws[w].sum.rows = rows
				}
			}
			return c.do(ws[w], p.jobAt(i))
		},
		func(_ int, o outcome) error { return c.take(&t, o) })
	if err != nil {
		return nil, err
	}
	var out *Summary
	total := 0
	for _, wk := range ws {
		if wk != nil {
			total += len(wk.sum.Ranks)
		}
	}
	for _, wk := range ws {
		switch {
		case wk == nil:
		case out == nil:
			out = wk.sum
			// Room for every worker's ranks at once.
			out.Ranks = slices.Grow(out.Ranks, total-len(out.Ranks))
		default:
			if err := out.Merge(wk.sum); err != nil {
				return nil, err
			}
		}
	}
	if out == nil {
		out = NewSummary(opt.Exe, layout, opt.TopK)
	}
	if err := out.Normalize(); err != nil {
		return nil, err
	}
	if err := c.cand.apply(out); err != nil {
		return nil, err
	}
	if rows != nil {
		out.rows, rows.n, rows.pos = rows, out.spilled, nil
	}
	res := &Collected{Summary: out, Sum: c.sum, HasBB: t.hasBB}
	if c.sum != nil && opt.Part == nil {
		out.Classic = ClassicFrom(c.sum)
	}
	return res, nil
}

// ChooseCandidates returns the candidate regions Collect would choose for
// these inputs (see candidates): it reads the sample of ranks Collect
// reads first. A job that shares the inputs out among its processes
// chooses them once and gives them to each process's Collect (Part). It
// fails on the first sampled file that cannot be read, or when a summary
// is among the inputs (summaries are not shared out).
func ChooseCandidates(tab *symtab.Table, layout *Layout, inputs *Inputs, opt CollectOptions) ([]int32, error) {
	c := &collector{tab: tab, layout: layout, attr: newAttributor(tab), inputs: inputs, opt: opt}
	c.cand.limit = candidatesFor(opt.Shown)
	c.plan() // chooses the sample, as Collect does
	var sample []int
	for i, in := range inputs.All() {
		if in.Summary {
			return nil, fmt.Errorf("%s: a summary among the inputs", in.Name)
		}
		if c.cand.sample[in.Rank] {
			sample = append(sample, i)
		}
	}
	workers := parallel.Workers(opt.Workers, len(sample))
	ws := make([]*worker, workers)
	err := parallel.Map(context.Background(), sample, parallel.Options{Workers: workers},
		func(w, _ int, i int) (struct{}, error) {
			if ws[w] == nil {
				ws[w] = &worker{sum: NewSummary(opt.Exe, layout, opt.TopK), sc: newScratch(len(tab.Syms))}
				ws[w].sum.kept = &keptStore{inputs: inputs}
			}
			data, err := gmon.ReadFileInto(c.inputs.Name(i), &ws[w].buf)
			if err == nil {
				_, err = c.rank(ws[w].sum, i, data, ws[w].sc)
			}
			return struct{}{}, err
		},
		func(int, struct{}) error { return nil })
	if err != nil {
		return nil, err
	}
	c.cand.mu.Lock()
	defer c.cand.mu.Unlock()
	c.cand.freeze(len(layout.Regions))
	return c.cand.regions, nil
}

// collector is the shared state of one Collect.
type collector struct {
	tab    *symtab.Table
	layout *Layout
	attr   *attributor
	inputs *Inputs
	opt    CollectOptions
	sum    *gmon.Profile // the summed profile, nil if not asked for

	// free holds read buffers that the summing is done with.
	free chan []byte

	cand candidates
}

// worker is the state of one of Collect's goroutines: the ranks it has
// folded in and its scratch arrays.
type worker struct {
	sum *Summary
	sc  *scratch
	buf []byte // read buffer, reused for files whose data is not summed
}

// outcome is what one job hands to the in-order part of Collect.
type outcome struct {
	job      job
	analysed bool
	hasBB    bool
	data     []byte   // the file, when it is to be added to the summed profile
	buf      []byte   // the buffer data lives in, to reuse once summed
	summary  *Summary // a summary input's content
	// warmErr is the failure of a warm-up analysis, reported at its
	// input's turn so that an earlier input's failure comes first.
	warmErr error
}

// turns is the state of the in-order part of Collect.
type turns struct {
	analysed int
	hasBB    bool
	warmErrs map[int]error // input -> its warm-up analysis's failure
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
	limit   int                   // how many regions to choose
	regions []int32               // ascending, once frozen
	warm    map[int][]RegionValue // rank -> its non-zero region times
	// rows, when the ranks are rows of a Spill, gets the regions when
	// they are chosen; warmInput is then each warm-up rank's input.
	rows      *rowTable
	warmInput map[int]int
}

// warmupRanks is how many ranks the candidates are chosen from.
const warmupRanks = 64

// candidatesFor is how many candidate regions cover the shown regions
// (AnalysisRegions: at least clusterDims), with a margin for the
// difference between the sample's spread and the final order, at most
// candidateRegions.
func candidatesFor(shown int) int {
	if shown <= 0 {
		shown = DefaultTop
	}
	return min(candidateRegions, max(shown, clusterDims)+16)
}

// chosen returns the candidate regions once they are chosen.
func (c *candidates) chosen() ([]int32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.regions, c.frozen
}

// add records the region times of a rank read before the choice, from
// input; the last one needed chooses the candidates.
func (c *candidates) add(rank, input int, full []RegionValue, nRegions int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.warm == nil {
		c.warm, c.warmInput = map[int][]RegionValue{}, map[int]int{}
	}
	c.warm[rank], c.warmInput[rank] = full, input
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
	regs = regs[:min(len(regs), c.limit)]
	slices.Sort(regs)
	c.regions = regs
	if c.rows != nil {
		c.rows.regions = regs
	}
}

// apply gives the warm-up ranks of s their times in the candidates: the
// rows of a Spill are written then.
func (c *candidates) apply(s *Summary) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.freeze(len(s.Regions))
	if t := s.rows; t != nil {
		var buf []byte
		for _, rank := range slices.Sorted(maps.Keys(c.warm)) {
			full := c.warm[rank]
			var total uint64
			for _, rv := range full {
				total += rv.Value
			}
			err := t.writeRank(&buf, rank, c.warmInput[rank], total, len(full) > c.inKeep(full),
				func(r int32) uint64 { return regionValue(full, r) })
			if err != nil {
				return err
			}
		}
		c.warm, c.warmInput = nil, nil
		return nil
	}
	for p := range s.Ranks {
		ri := &s.Ranks[p]
		full, ok := c.warm[ri.Rank]
		if !ok {
			continue
		}
		if ri.kept != nil {
			ri.kept.setRegions(c.regions)
		}
		for _, r := range c.regions {
			ri.set(int(r), regionValue(full, r))
		}
		if ri.kept != nil {
			// As addRank records the ranks read after the choice.
			ri.Truncated = len(full) > c.inKeep(full)
		}
	}
	c.warm, c.warmInput = nil, nil
	return nil
}

// regionValue is region r's time among full (ascending), 0 if absent.
func regionValue(full []RegionValue, r int32) uint64 {
	i := sort.Search(len(full), func(i int) bool { return full[i].Region >= r })
	if i < len(full) && full[i].Region == r {
		return full[i].Value
	}
	return 0
}

// inKeep counts the candidates among the regions of full (with
// non-zero times).
func (c *candidates) inKeep(full []RegionValue) int {
	n := 0
	for _, r := range c.regions {
		i := sort.Search(len(full), func(i int) bool { return full[i].Region >= r })
		if i < len(full) && full[i].Region == r {
			n++
		}
	}
	return n
}

// do runs job j on a worker: reads the input, analyses it into the
// worker's summary and hands on what the summing needs.
func (c *collector) do(wk *worker, j job) (outcome, error) {
	o := outcome{job: j}
	i := int(j.input)
	keep := j.sum && c.sum != nil
	if !j.analyse && !keep {
		return o, nil
	}
	fail := func(err error) (outcome, error) {
		if j.warmup {
			o.warmErr = err
			return o, nil
		}
		return o, err
	}
	in := c.inputs.At(i)
	data := in.Data
	if data == nil {
		buf := &wk.buf
		if keep {
			// The summing holds on to the data: read into a buffer of
			// its own.
			select {
			case o.buf = <-c.free:
			default:
			}
			buf = &o.buf
		}
		var err error
		if data, err = gmon.ReadFileInto(in.Name, buf); err != nil {
			return fail(err)
		}
	}
	if j.analyse {
		sum, hasBB, err := c.analyse(wk.sum, i, data, wk.sc)
		if err != nil {
			return fail(err)
		}
		o.analysed, o.hasBB, o.summary = true, hasBB, sum
	}
	if keep {
		o.data = data
	}
	return o, nil
}

// take finishes a job in job order: it reports progress and adds the
// input to the summed profile.
func (c *collector) take(t *turns, o outcome) error {
	i := int(o.job.input)
	if o.warmErr != nil {
		t.warmErrs[i] = o.warmErr
		return nil
	}
	if o.analysed {
		t.analysed++
		t.hasBB = t.hasBB || o.hasBB
		if c.opt.Progress != nil {
			c.opt.Progress(t.analysed, c.inputs.Len())
		}
	}
	if o.job.warmup {
		return nil
	}
	if err := t.warmErrs[i]; err != nil {
		return err
	}
	if c.sum == nil {
		return nil
	}
	err := c.addToSum(i, o.data, o.summary)
	if o.buf != nil {
		select {
		case c.free <- o.buf:
		default:
		}
	}
	return err
}

// job is one step of the work on an input: a warm-up analysis, or its
// turn in input order, in which it is analysed (unless it was in the
// warm-up) and added to the summed profile.
type job struct {
	input   int32
	warmup  bool
	analyse bool
	sum     bool
}

// jobPlan is the order of the jobs, told by number: first the analysis
// of the warm-up ranks, then every input in order (analysed unless it was
// warmed up), or only the inputs of a Part.
type jobPlan struct {
	n    int
	warm []int32 // the inputs of the warm-up ranks, ascending
	part *Part
}

// jobAt returns job number i.
func (p *jobPlan) jobAt(i int) job {
	if p.part != nil {
		return job{input: int32(p.part.From + i), analyse: true, sum: true}
	}
	if i < len(p.warm) {
		return job{input: p.warm[i], warmup: true, analyse: true}
	}
	in := int32(i - len(p.warm))
	_, early := slices.BinarySearch(p.warm, in)
	return job{input: in, analyse: !early, sum: true}
}

// plan orders the jobs: first the analysis of warmupRanks gmon files
// evenly spread over the inputs, from which the candidate regions are
// chosen; then every input in order, analysed unless done already, and
// added to the summed profile.
func (c *collector) plan() *jobPlan {
	nGmon := 0
	for i := range c.inputs.Len() {
		if !c.inputs.IsSummary(i) {
			nGmon++
		}
	}
	if p := c.opt.Part; p != nil {
		return &jobPlan{n: p.To - p.From, part: p}
	}
	warm := 0
	if nGmon > warmupRanks {
		warm = warmupRanks
	}
	p := &jobPlan{}
	c.cand.sample = map[int]bool{}
	// The k-th of the warm-up ranks is gmon input number k*nGmon/warm.
	k, g := 0, 0
	for i, in := range c.inputs.All() {
		if in.Summary {
			continue
		}
		if warm == 0 {
			c.cand.sample[in.Rank] = true
		} else if k < warm && g == k*nGmon/warm {
			c.cand.sample[in.Rank] = true
			p.warm = append(p.warm, int32(i))
			k++
		}
		g++
	}
	p.n = len(p.warm) + c.inputs.Len()
	return p
}

// analyse folds one input into s: a gmon file as one rank (reporting
// whether it has basic-block counts), a summary by merging it (and
// returning it).
func (c *collector) analyse(s *Summary, i int, data []byte, sc *scratch) (sum *Summary, hasBB bool, err error) {
	in := c.inputs.At(i)
	if in.Summary || IsSummary(data) {
		if s.rows != nil {
			// Its ranks would join rows of a Spill not made for them.
			return nil, false, fmt.Errorf("%s is a summary not marked as one (Input.Summary)", in.Name)
		}
		sum, err := DecodeSummary(data, in.Name)
		if err != nil {
			return nil, false, err
		}
		if err := s.Merge(sum); err != nil {
			var dup *DuplicateRankError
			if errors.As(err, &dup) {
				return nil, false, err // it names the summary
			}
			return nil, false, fmt.Errorf("%s: %w", in.Name, err)
		}
		return sum, false, nil
	}
	hasBB, err = c.rank(s, i, data, sc)
	return nil, hasBB, err
}

// rank reads one gmon file, input i, as one rank.
func (c *collector) rank(s *Summary, i int, data []byte, sc *scratch) (hasBB bool, err error) {
	in := c.inputs.At(i)
	f, err := gmon.ReadReusing(sc.file, data, in.Name, c.tab.Target, c.opt.Format)
	sc.file = f
	if err != nil {
		return false, err
	}
	if err := f.RequireHistogram(); err != nil {
		return false, err
	}
	if own := c.opt.Belongs; own != nil {
		if err := callgraph.CheckFileBelongs(f, own); err != nil {
			return false, fmt.Errorf("%s does not belong to %s: %w", in.Name, own.Path, err)
		}
	}
	v, err := sc.attribute(c.attr, c.layout, f, s)
	if err != nil {
		return false, fmt.Errorf("%s: %w", in.Name, err)
	}
	keep, frozen := c.cand.chosen()
	var full []RegionValue
	var fullp *[]RegionValue
	if !frozen {
		fullp = &full
	}
	if err := s.addRank(in.Rank, i, in.Name, c.attr.rate(f), v, keep, fullp); err != nil {
		return false, fmt.Errorf("%s: %w", in.Name, err)
	}
	if !frozen {
		c.cand.add(in.Rank, i, full, len(c.layout.Regions))
	}
	return len(f.BBs) > 0, nil
}

// scratch holds one worker's per-file arrays.
type scratch struct {
	ticks []float64 // per symbol
	calls []uint64  // per symbol
	// per cell of the summary being filled
	time, incl, cellCalls []uint64
	// file is the last file read, whose storage the next read reuses.
	file *gmon.File
}

func newScratch(nsyms int) *scratch {
	return &scratch{ticks: make([]float64, nsyms), calls: make([]uint64, nsyms)}
}

// attribute credits one file (one rank) to the cells of s, adding the
// cells its time needs: each function's samples and calls as gprof's flat
// profile credits them, and with TimeSelf the time of the functions of an
// activity other than computation handed to the regions that call them
// (callgraph.Flow along this rank's arcs; a function no one calls keeps
// its time), with TimeInclusive each function's time with everything it
// calls as well. Times are rounded to the fixed-point unit function by
// function.
func (sc *scratch) attribute(a *attributor, l *Layout, f *gmon.File, s *Summary) (rankCells, error) {
	clear(sc.ticks)
	clear(sc.calls)
	a.samples(f, sc.ticks)
	entersPassing := a.calls(f, sc.calls, l.passes)
	sc.time = resize(sc.time, len(s.Cells))
	sc.cellCalls = resize(sc.cellCalls, len(s.Cells))
	inclusive := s.CellIncl != nil
	if inclusive {
		sc.incl = resize(sc.incl, len(s.Cells))
	}
	add := func(dst *[]uint64, cell int, v uint64) {
		if v == 0 {
			return
		}
		*dst = extend(*dst, cell+1)
		(*dst)[cell] += v
	}
	var g *callgraph.Graph
	if len(f.Arcs) > 0 && (inclusive || entersPassing) {
		p := gmon.NewProfile(a.tab.Target, gmon.FormatAuto)
		if err := p.Add(f); err != nil {
			return rankCells{}, err
		}
		g = callgraph.Build(a.tab, p, callgraph.Options{ModelOnly: true})
	}
	k := len(l.Activities)
	own := func(i int, v []float64) { v[l.Cells[l.SymCell[i]].Activity] = sc.ticks[i] }
	// spread adds each symbol's held times to the cells of its region.
	spread := func(dst *[]uint64, held []float64, keep func(i int) bool) {
		for i := range l.SymCell {
			if !keep(i) {
				continue
			}
			region := l.Cells[l.SymCell[i]].Region
			for j, v := range held[i*k : i*k+k] {
				if fx := toFixed(v); fx != 0 {
					add(dst, s.cellOf(l, i, region, j), fx)
				}
			}
		}
	}
	switch {
	case g == nil:
		for i, cell := range l.SymCell {
			fx := toFixed(sc.ticks[i])
			add(&sc.time, int(cell), fx)
			if inclusive {
				add(&sc.incl, int(cell), fx)
			}
		}
	default:
		held := g.Flow(k, own, l.passes)
		spread(&sc.time, held, func(i int) bool { return !l.passes(i) || !g.Called(i) })
		if inclusive {
			spread(&sc.incl, g.Flow(k, own, func(int) bool { return true }), func(int) bool { return true })
		}
	}
	for i, cell := range l.SymCell {
		add(&sc.cellCalls, int(cell), sc.calls[i])
	}
	n := len(s.Cells)
	sc.time, sc.cellCalls = extend(sc.time, n), extend(sc.cellCalls, n)
	if inclusive {
		sc.incl = extend(sc.incl, n)
	}
	return rankCells{time: sc.time, incl: sc.incl, calls: sc.cellCalls}, nil
}

// extend returns v with at least n elements, the new ones zero.
func extend(v []uint64, n int) []uint64 {
	for len(v) < n {
		v = append(v, 0)
	}
	return v
}

// resize returns v with length n, zeroed, reusing its storage.
func resize(v []uint64, n int) []uint64 {
	if cap(v) < n {
		return make([]uint64, n, n+n/4+8)
	}
	v = v[:n]
	clear(v)
	return v
}

// addToSum adds input i to the summed profile (sum is the decoded summary
// of a summary input); inputs are added in input order.
func (c *collector) addToSum(i int, data []byte, sum *Summary) error {
	name := c.inputs.Name(i)
	if sum != nil {
		if sum.Classic == nil {
			return fmt.Errorf("%s: the summary has no summed profile", name)
		}
		_, err := sum.Classic.AddTo(c.sum, name)
		return err
	}
	f, err := c.sum.AddData(data, name)
	if err == nil && c.opt.OnFile != nil {
		c.opt.OnFile(f, c.sum)
	}
	return err
}

// FillRanks makes the ranks' times in regions exact where a rank's record
// does not hold them (it kept only its TopK heaviest regions): it reads
// those ranks' gmon files again, on all cores, and records their time in
// each of the regions (at most MaxFilled of them). Ranks that came from
// summaries cannot be read again and stay as they are. It returns the
// number of ranks read again.
func FillRanks(tab *symtab.Table, layout *Layout, s *Summary, inputs *Inputs, regions []int, opt CollectOptions) (int, error) {
	regions = regions[:min(len(regions), MaxFilled)]
	if t := s.rows; t != nil {
		if len(t.extra) == 0 {
			return fillRows(tab, layout, s, regions, opt)
		}
		// Filled once already: the records are completed in memory.
		if err := s.unspill(); err != nil {
			return 0, err
		}
	}
	var todo []int // indexes into s.Ranks
	for p := range s.Ranks {
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
	byRank := map[int]int{} // rank -> its gmon file
	for i := range inputs.Len() {
		if !inputs.IsSummary(i) {
			byRank[inputs.Rank(i)] = i
		}
	}
	todoInput := map[int]int{} // s.Ranks index -> its gmon file
	n := 0
	for _, p := range todo {
		if in, ok := byRank[s.Ranks[p].Rank]; ok {
			todo[n] = p
			todoInput[p] = in
			n++
		}
	}
	todo = todo[:n]
	if len(todo) == 0 {
		return 0, nil
	}
	f := newFiller(tab, layout, regions, opt, len(todo))
	err := parallel.Map(context.Background(), todo, parallel.Options{Workers: f.workers},
		func(w, _ int, p int) ([]uint64, error) { return f.times(w, inputs.At(todoInput[p])) },
		func(k int, times []uint64) error {
			ri := &s.Ranks[todo[k]]
			for n, r := range regions {
				ri.set(r, times[n])
			}
			return nil
		})
	if err != nil {
		return 0, err
	}
	return len(todo), nil
}

// fillRows is FillRanks for a summary whose ranks are rows of a Spill:
// the rows are written again after the table, with room for the regions
// that are not candidates, filled in for the ranks read again.
func fillRows(tab *symtab.Table, layout *Layout, s *Summary, regions []int, opt CollectOptions) (int, error) {
	t := s.rows
	rd := s.reader()
	var todo, todoInput []int32 // rows to read again, and their inputs
	for p := range t.n {
		ri, err := rd.at(p)
		if err != nil {
			return 0, err
		}
		for _, r := range regions {
			if _, known := ri.Lookup(r); !known {
				todo = append(todo, int32(p))
				todoInput = append(todoInput, int32(ri.kept.input.get(int(ri.row))))
				break
			}
		}
	}
	if len(todo) == 0 {
		return 0, nil
	}
	nt := &rowTable{st: t.st, base: t.end(), n: t.n, inputs: t.inputs, regions: t.regions}
	for _, r := range regions {
		if _, cand := slices.BinarySearch(t.regions, int32(r)); !cand {
			nt.extra = append(nt.extra, int32(r))
		}
	}
	slices.Sort(nt.extra)
	nt.extra = slices.Compact(nt.extra)
	cp := &rowCopier{from: t, to: nt}
	f := newFiller(tab, layout, regions, opt, len(todo))
	err := parallel.Map(context.Background(), todoInput, parallel.Options{Workers: f.workers},
		func(w, _ int, in int32) ([]uint64, error) { return f.times(w, t.inputs.At(int(in))) },
		func(k int, times []uint64) error {
			return cp.fill(int(todo[k]), func(r int32) uint64 { return times[slices.Index(regions, int(r))] })
		})
	if err == nil {
		err = cp.copyTo(t.n)
	}
	if err == nil {
		err = cp.flush()
	}
	if err != nil {
		return 0, err
	}
	s.rows = nt
	return len(todo), nil
}

// filler computes ranks' times in regions again from their gmon files,
// with a scratch of its own for each worker.
type filler struct {
	tab     *symtab.Table
	layout  *Layout
	attr    *attributor
	regions []int
	opt     CollectOptions
	workers int
	ws      []*fillWorker
}

// fillWorker is one worker's state.
type fillWorker struct {
	sc      *scratch
	cells   *Summary // the cells of the attribution, no ranks
	regTime []uint64
	buf     []byte
}

func newFiller(tab *symtab.Table, layout *Layout, regions []int, opt CollectOptions, n int) *filler {
	workers := parallel.Workers(opt.Workers, n)
	return &filler{tab: tab, layout: layout, attr: newAttributor(tab), regions: regions, opt: opt, workers: workers,
		ws: make([]*fillWorker, workers)}
}

// times reads the gmon file in on worker w and returns its rank's time in
// each of the regions.
func (fl *filler) times(w int, in Input) ([]uint64, error) {
	if fl.ws[w] == nil {
		fl.ws[w] = &fillWorker{sc: newScratch(len(fl.tab.Syms)), cells: NewSummary("", fl.layout, 0),
			regTime: make([]uint64, len(fl.layout.Regions))}
	}
	wk := fl.ws[w]
	data := in.Data
	if data == nil {
		var err error
		if data, err = gmon.ReadFileInto(in.Name, &wk.buf); err != nil {
			return nil, err
		}
	}
	f, err := gmon.ReadReusing(wk.sc.file, data, in.Name, fl.tab.Target, fl.opt.Format)
	wk.sc.file = f
	if err != nil {
		return nil, err
	}
	v, err := wk.sc.attribute(fl.attr, fl.layout, f, wk.cells)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	view := v.time
	if fl.layout.Config.inclusive() {
		view = v.incl
	}
	clear(wk.regTime)
	for c, cell := range wk.cells.Cells {
		wk.regTime[cell.Region] += view[c]
	}
	times := make([]uint64, len(fl.regions))
	for k, r := range fl.regions {
		times[k] = wk.regTime[r]
	}
	return times, nil
}
