package cli

import (
	"fmt"
	"io"

	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/binfmt"
	"github.com/egprof/egprof/internal/mpi"
	"github.com/egprof/egprof/ranks"
	"github.com/egprof/egprof/symtab"
)

// rankPlan is what every process needs to read its share of the rank
// files: the inputs as process 0 numbered them, and the candidate regions
// it chose from their sample.
type rankPlan struct {
	inputs     *ranks.Inputs
	candidates []int32
}

func (p *rankPlan) encode() []byte {
	var w binfmt.Writer
	w.Uint(uint64(p.inputs.Len()))
	for i := range p.inputs.Len() {
		w.String(p.inputs.Name(i))
		w.Uint(uint64(p.inputs.Rank(i)))
	}
	w.Uint(uint64(len(p.candidates)))
	for _, r := range p.candidates {
		w.Uint(uint64(r))
	}
	return w.File(planSignature, 1)
}

func decodeRankPlan(data []byte) (*rankPlan, error) {
	r, err := binfmt.Open(data, "plan", planSignature, 1, "a rank plan")
	if err != nil {
		return nil, err
	}
	p := &rankPlan{}
	n := r.Count("inputs", 2)
	p.inputs = &ranks.Inputs{}
	for range n {
		p.inputs.Append(ranks.Input{Name: r.String("input name"), Rank: int(r.Uint("rank"))})
	}
	nc := r.Count("candidates", 1)
	for range nc {
		p.candidates = append(p.candidates, int32(r.Index("candidate region", 1<<31-1)))
	}
	return p, r.Finish()
}

// collectRanks is ranks.Collect on every process of the job: process 0
// chooses the candidate regions from the sample of ranks (as Collect
// does), broadcasts them with the inputs, and each process reads a run
// of files of about equal size (ranks.CollectOptions.Part); the parts,
// merged up the tree, are the summary and summed profile of all the
// files. ok is false when process 0 must read the files alone: a summary
// or standard input among the inputs (those are not shared out), or a
// failure anywhere, whose error the one-process reading then reports
// exactly.
func (j *job) collectRanks(c *config, anaTab *symtab.Table, layout *ranks.Layout, inputs *ranks.Inputs,
	opts ranks.CollectOptions, stdout io.Writer) (res *ranks.Collected, ok bool, err error) {
	for _, in := range inputs.All() {
		if in.Summary || in.Data != nil {
			return nil, false, j.sendPlan(planNone, 0, nil)
		}
	}
	if inputs.Len() < 2 {
		return nil, false, j.sendPlan(planNone, 0, nil)
	}
	cands, err := ranks.ChooseCandidates(anaTab, layout, inputs, opts)
	if err != nil {
		return nil, false, j.sendPlan(planNone, 0, nil)
	}
	plan := &rankPlan{inputs: inputs, candidates: cands}
	if err := j.sendPlan(planRanks, 0, plan.encode()); err != nil {
		return nil, false, err
	}
	merged, err := j.reduceRanks(plan, anaTab, layout, opts)
	if err != nil || merged == nil {
		return nil, false, err
	}
	if c.style&styleInfo != 0 {
		io.WriteString(stdout, merged.info)
	}
	sum, err := ranks.DecodePart(merged.summary, "the job's summary", inputs, cands)
	if err != nil {
		return nil, false, err
	}
	res = &ranks.Collected{Summary: sum, HasBB: merged.blocks}
	if opts.Sum {
		if res.Sum, err = gmon.DecodeState(merged.state, "the job's sum", anaTab.Target, opts.Format); err != nil {
			return nil, false, err
		}
		sum.Classic = ranks.ClassicFrom(res.Sum)
	}
	return res, true, nil
}

// serveRanks is a rank plan's work on a process other than 0: the same
// executable, grouping and options as process 0's, then its part.
func (j *job) serveRanks(c *config, plan *rankPlan) error {
	tab, _, code := c.loadSide(c.image, nil, nil, io.Discard, io.Discard)
	if code != 0 {
		return fmt.Errorf("cannot load %s", c.image)
	}
	anaTab := tab.Functions()
	cfg, err := c.rankConfig(plan.inputs, "")
	if err != nil {
		return err
	}
	var dem symtab.Demangler // NewLayout demangles the names one after the other
	layout, err := ranks.NewLayout(anaTab, cfg, func(n string) string { return dem.Demangle(n, symtab.StyleAuto) })
	if err != nil {
		return err
	}
	_, err = j.reduceRanks(plan, anaTab, layout, c.rankCollectOptions(anaTab, c.ranksSummed()))
	return err
}

// rankPart is one run of rank files read: its summary (EncodePart), the
// summing state of its summed profile, gprof -i's lines, and whether a
// file had basic-block counts.
type rankPart struct {
	summary, state []byte
	info           string
	blocks         bool
}

const rankPartSignature = "EGPRPART"

func (p *rankPart) encode() []byte {
	var w binfmt.Writer
	w.String(p.info)
	w.Bool(p.blocks)
	w.Uint(uint64(len(p.summary)))
	w.Raw(p.summary)
	w.Uint(uint64(len(p.state)))
	w.Raw(p.state)
	return w.File(rankPartSignature, 1)
}

func decodeRankPart(data []byte) (*rankPart, error) {
	r, err := binfmt.Open(data, "part", rankPartSignature, 1, "a part of the rank files")
	if err != nil {
		return nil, err
	}
	p := &rankPart{info: r.String("info"), blocks: r.Bool("blocks")}
	p.summary = r.Bytes("summary", r.Count("summary size", 1))
	p.state = r.Bytes("summing state", r.Count("state size", 1))
	return p, r.Finish()
}

// reduceRanks reads this process's share of the rank files and merges the
// parts up the tree; process 0 gets the whole (nil when a process failed
// or the parts do not merge exactly), the others nil.
func (j *job) reduceRanks(plan *rankPlan, anaTab *symtab.Table, layout *ranks.Layout, opts ranks.CollectOptions) (*rankPart, error) {
	share, err := j.shareOf(plan.inputs.Names())
	if err != nil {
		return nil, err
	}
	var info []byte
	opts.Part = &ranks.Part{From: share.lo, To: share.hi, Candidates: plan.candidates}
	opts.OnFile = func(f *gmon.File, p *gmon.Profile) { info = appendFileInfo(info, f, p) }
	var data []byte
	var perr *mpi.PartError
	res, err := ranks.Collect(anaTab, layout, plan.inputs, opts)
	if err != nil {
		perr = &mpi.PartError{Input: share.lo, Msg: err.Error()}
	} else {
		part := rankPart{summary: res.Summary.EncodePart(), info: string(info), blocks: res.HasBB}
		if res.Sum != nil {
			part.state = res.Sum.EncodeState()
		}
		data = part.encode()
	}
	out, perr, err := mpi.Reduce(j.comm, data, perr, func(left, right []byte) ([]byte, error) {
		return mergeRankParts(plan, anaTab.Target, opts.Format, left, right)
	})
	if err != nil || perr != nil || out == nil {
		return nil, err
	}
	return decodeRankPart(out)
}

// mergeRankParts merges two neighbouring runs' parts, or fails when they
// cannot be merged exactly (process 0 then reads all the files).
func mergeRankParts(plan *rankPlan, target gmon.Target, format gmon.Format, left, right []byte) ([]byte, error) {
	l, err := decodeRankPart(left)
	if err != nil {
		return nil, err
	}
	r, err := decodeRankPart(right)
	if err != nil {
		return nil, err
	}
	ls, err := ranks.DecodePart(l.summary, "part", plan.inputs, plan.candidates)
	if err != nil {
		return nil, err
	}
	rs, err := ranks.DecodePart(r.summary, "part", plan.inputs, plan.candidates)
	if err != nil {
		return nil, err
	}
	if err := ls.Merge(rs); err != nil {
		return nil, err
	}
	out := rankPart{summary: ls.EncodePart(), info: l.info + r.info, blocks: l.blocks || r.blocks}
	if len(l.state) > 0 || len(r.state) > 0 {
		if out.state, err = mergeStates(target, format, l.state, r.state); err != nil {
			return nil, err
		}
	}
	return out.encode(), nil
}
