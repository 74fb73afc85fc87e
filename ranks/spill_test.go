package ranks

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// memSpill is a Spill in memory that can be told to fail.
type memSpill struct {
	mu   sync.Mutex
	data []byte
	// writes and reads left before every write or read fails (-1: never).
	writes, reads int
}

var errSpill = errors.New("the disk is on fire")

func newMemSpill() *memSpill { return &memSpill{writes: -1, reads: -1} }

// use counts one use of those left in *left, or fails when none is.
func use(left *int) error {
	if *left == 0 {
		return errSpill
	}
	if *left > 0 {
		*left--
	}
	return nil
}

func (m *memSpill) WriteAt(p []byte, off int64) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := use(&m.writes); err != nil {
		return 0, err
	}
	if end := int(off) + len(p); end > len(m.data) {
		m.data = append(m.data, make([]byte, end-len(m.data))...)
	}
	return copy(m.data[off:], p), nil
}

func (m *memSpill) ReadAt(p []byte, off int64) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := use(&m.reads); err != nil {
		return 0, err
	}
	if off >= int64(len(m.data)) {
		return 0, io.EOF
	}
	n := copy(p, m.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// rankFiles writes n rank files of the fixture's two profiles (rank r
// gets the second one when r%3 == 1, or with shift when r%5 == shift%5) and
// returns their inputs in the order of their names, as a shell's glob
// lists them (gmon.rank10 before gmon.rank2), not in rank order.
func rankFiles(t *testing.T, fx *rankFixture, n, shift int) []Input {
	t.Helper()
	dir := t.TempDir()
	var names []string
	for r := range n {
		src := fx.files[0]
		if r%3 == 1 || (shift > 0 && r%5 == shift%5) {
			src = fx.files[1]
		}
		data, err := os.ReadFile(src)
		require.NoError(t, err)
		name := filepath.Join(dir, "gmon.rank"+strconv.Itoa(r)+".7")
		require.NoError(t, os.WriteFile(name, data, 0o644))
		names = append(names, name)
	}
	slices.Sort(names)
	return fx.inputs(t, names...)
}

// The ranks kept as rows of a Spill give the analysis, the filled-in
// regions and the saved summary of the ranks kept in memory, byte for
// byte, whatever the number of ranks (fewer than the warm-up or more), of
// workers, of candidate regions (all the regions shown, or fewer: then
// ranks are read again, once or twice), and the kind of Spill.
func TestSpillSameAsMemory(t *testing.T) {
	fx := newRankFixture(t)
	tests := []struct {
		name       string
		ranks      int
		shift      int
		workers    int
		candidates int // 0: Collect's choice
		top        int
		file       bool // a temporary file, not memory
		again      []int
	}{
		{"fewer ranks than the warm-up", 20, 0, 2, 0, 5, false, nil},
		{"one rank", 1, 0, 1, 0, 5, false, nil},
		{"more ranks than the warm-up", 150, 2, 3, 0, 5, true, nil},
		{"one worker", 100, 4, 1, 0, 20, false, nil},
		{"ranks read again", 150, 2, 2, 1, 5, false, nil},
		{"ranks read again twice", 90, 3, 2, 1, 3, true, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}},
		{"more windows than one", 3*windowRows + 7, 1, 2, 1, 4, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := rankFiles(t, fx, tt.ranks, tt.shift)
			run := func(spill Spill) (*Summary, *Report, int, []byte) {
				opt := CollectOptions{Exe: "prog", Workers: tt.workers, Shown: tt.top, Spill: spill, candidates: tt.candidates}
				res, err := Collect(fx.tab, fx.layout, InputsOf(in...), opt)
				require.NoError(t, err)
				s := res.Summary
				if spill != nil {
					require.NotNil(t, s.rows, "the rows are spilled")
					assert.Empty(t, s.Ranks)
				} else {
					require.Nil(t, s.rows)
				}
				require.Equal(t, tt.ranks, s.P())
				filled, err := FillRanks(fx.tab, fx.layout, s, InputsOf(in...), AnalysisRegions(s, tt.top), CollectOptions{Workers: tt.workers})
				require.NoError(t, err)
				if tt.again != nil {
					n, err := FillRanks(fx.tab, fx.layout, s, InputsOf(in...), tt.again, CollectOptions{})
					require.NoError(t, err)
					filled += 1000 * n
				}
				rep, err := Analyze(s, AnalyzeOptions{Top: tt.top})
				require.NoError(t, err)
				var saved bytes.Buffer
				_, err = s.WriteTo(&saved)
				require.NoError(t, err)
				return s, rep, filled, saved.Bytes()
			}
			_, memRep, memFilled, memSaved := run(nil)
			var spill Spill = newMemSpill()
			if tt.file {
				f, err := os.CreateTemp(t.TempDir(), "spill")
				require.NoError(t, err)
				defer f.Close()
				spill = f
			}
			_, spillRep, spillFilled, spillSaved := run(spill)
			assert.Equal(t, memRep, spillRep)
			assert.Equal(t, memFilled, spillFilled)
			assert.Equal(t, memSaved, spillSaved)
			if tt.candidates > 0 {
				assert.Positive(t, memFilled%1000, "ranks were read again")
			}
			if tt.again != nil {
				assert.Positive(t, memFilled/1000, "ranks were read again a second time")
			}
		})
	}
}

// A Spill that fails makes Collect, FillRanks or Analyze fail with an
// error that says so and wraps the Spill's.
func TestSpillFails(t *testing.T) {
	fx := newRankFixture(t)
	in := rankFiles(t, fx, 2*windowRows+10, 2)
	// The reads a run makes: FillRanks's, then Analyze's.
	count := newMemSpill()
	count.reads = 1 << 30
	res, err := Collect(fx.tab, fx.layout, InputsOf(in...), CollectOptions{Workers: 2, Shown: 3, Spill: count, candidates: 1})
	require.NoError(t, err)
	_, err = FillRanks(fx.tab, fx.layout, res.Summary, InputsOf(in...), AnalysisRegions(res.Summary, 3), CollectOptions{})
	require.NoError(t, err)
	fillReads := 1<<30 - count.reads
	_, err = Analyze(res.Summary, AnalyzeOptions{Top: 3})
	require.NoError(t, err)
	analyzeReads := 1<<30 - count.reads - fillReads
	require.Greater(t, analyzeReads, 3)
	tests := []struct {
		name          string
		writes, reads int
		failIn        string // Collect, FillRanks or Analyze
		msg           string
	}{
		{"first write", 0, -1, "Collect", "writing the row of rank"},
		{"a later write", 50, -1, "Collect", "writing the row of rank"},
		{"reading to fill in", -1, 0, "FillRanks", "back from the spill store"},
		{"writing the filled rows", len(in), -1, "FillRanks", "to the spill store"},
		{"reading to analyse", -1, fillReads, "Analyze", "back from the spill store"},
		{"reading while clustering", -1, fillReads + analyzeReads - 1, "Analyze", "back from the spill store"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spill := newMemSpill()
			spill.writes, spill.reads = tt.writes, tt.reads
			res, err := Collect(fx.tab, fx.layout, InputsOf(in...), CollectOptions{Workers: 2, Shown: 3, Spill: spill, candidates: 1})
			if tt.failIn == "Collect" {
				require.ErrorIs(t, err, errSpill)
				assert.ErrorContains(t, err, tt.msg)
				return
			}
			require.NoError(t, err)
			_, err = FillRanks(fx.tab, fx.layout, res.Summary, InputsOf(in...), AnalysisRegions(res.Summary, 3), CollectOptions{})
			if tt.failIn == "FillRanks" {
				require.ErrorIs(t, err, errSpill)
				assert.ErrorContains(t, err, tt.msg)
				return
			}
			require.NoError(t, err)
			_, err = Analyze(res.Summary, AnalyzeOptions{Top: 3})
			require.ErrorIs(t, err, errSpill)
			assert.ErrorContains(t, err, tt.msg)
		})
	}
}

// Ranks are spilled only when they can all be rows: not with a summary
// among the inputs, a rank number given twice, heaviest regions kept or
// a part of a job.
func TestSpillOnlyLeanGmonRanks(t *testing.T) {
	fx := newRankFixture(t)
	in := rankFiles(t, fx, 10, 0)
	res, err := Collect(fx.tab, fx.layout, InputsOf(in...), CollectOptions{Exe: "prog", Sum: true, KeepHeaviest: true})
	require.NoError(t, err)
	sumFile := filepath.Join(t.TempDir(), "a.sum")
	f, err := os.Create(sumFile)
	require.NoError(t, err)
	_, err = res.Summary.WriteTo(f)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	withSummary := []Input{{Name: sumFile, Summary: true}}
	for _, x := range rankFiles(t, fx, 12, 0) {
		if x.Rank >= 10 {
			withSummary = append(withSummary, x)
		}
	}
	dup := slices.Clone(in)
	dup[1].Rank = dup[0].Rank
	tests := []struct {
		name   string
		inputs []Input
		opt    CollectOptions
		err    string
	}{
		{"a summary", withSummary, CollectOptions{Exe: "prog"}, ""},
		{"a rank twice", dup, CollectOptions{}, "appears twice"},
		{"heaviest regions", in, CollectOptions{KeepHeaviest: true}, ""},
		{"a part", in, CollectOptions{Part: &Part{From: 0, To: 5, Candidates: []int32{8, 9}}}, ""},
	}
	for _, tt := range tests {
		spill := newMemSpill()
		tt.opt.Spill = spill
		res, err := Collect(fx.tab, fx.layout, InputsOf(tt.inputs...), tt.opt)
		if tt.err != "" {
			assert.ErrorContains(t, err, tt.err, tt.name)
			continue
		}
		require.NoError(t, err, tt.name)
		assert.Nil(t, res.Summary.rows, tt.name)
		assert.Empty(t, spill.data, tt.name)
	}
}

// Merging a summary whose ranks are spilled brings them into memory: the
// merge is the one of the summaries kept in memory.
func TestSpillMerge(t *testing.T) {
	fx := newRankFixture(t)
	all := rankFiles(t, fx, 120, 3)
	var lo, hi []Input
	for _, x := range all {
		if x.Rank < 70 {
			lo = append(lo, x)
		} else {
			hi = append(hi, x)
		}
	}
	merge := func(spill bool) []byte {
		var parts []*Summary
		for _, in := range [][]Input{lo, hi} {
			opt := CollectOptions{Exe: "prog", Shown: 3}
			if spill {
				opt.Spill = newMemSpill()
			}
			res, err := Collect(fx.tab, fx.layout, InputsOf(in...), opt)
			require.NoError(t, err)
			parts = append(parts, res.Summary)
		}
		require.NoError(t, parts[1].Merge(parts[0]))
		require.Nil(t, parts[1].rows)
		var b bytes.Buffer
		_, err := parts[1].WriteTo(&b)
		require.NoError(t, err)
		return b.Bytes()
	}
	assert.Equal(t, merge(false), merge(true))
}

// Filling in rows copies every other row as it is, across windows: its
// regions filled in not known when it is truncated, zero otherwise.
func TestRowCopier(t *testing.T) {
	const n = 2*windowRows + 88
	st := newMemSpill()
	inputs := &Inputs{}
	for i := range n {
		inputs.Append(Input{Name: "gmon.rank" + strconv.Itoa(i), Rank: 3 * (n - 1 - i)})
	}
	from := newRowTable(st, inputs)
	from.regions = []int32{1, 3}
	var buf []byte
	for i := range n {
		// Every third rank is truncated; times tell the input.
		require.NoError(t, from.writeRank(&buf, inputs.Rank(i), i, uint64(10*i), i%3 == 0,
			func(r int32) uint64 { return uint64(1000*i) + uint64(r) }))
	}
	from.n, from.pos = n, nil
	to := &rowTable{st: st, base: from.end(), n: n, inputs: inputs, regions: from.regions, extra: []int32{2, 5}}
	cp := &rowCopier{from: from, to: to}
	filled := []int{0, 2, windowRows, windowRows + 1, n - 1}
	for _, p := range filled {
		require.NoError(t, cp.fill(p, func(r int32) uint64 { return uint64(p*100) + uint64(r) }))
	}
	require.NoError(t, cp.copyTo(n))
	require.NoError(t, cp.flush())
	s := &Summary{rows: to, spilled: n}
	rd := s.reader()
	for p := range n {
		ri, err := rd.at(p)
		require.NoError(t, err)
		i := n - 1 - p // rank order is the inputs' backwards
		assert.Equal(t, 3*p, ri.Rank)
		assert.Equal(t, inputs.Name(i), ri.Label())
		assert.Equal(t, uint64(10*i), ri.Total())
		assert.Equal(t, i%3 == 0, ri.Truncated)
		for _, r := range []int{1, 3} {
			v, known := ri.Lookup(r)
			assert.True(t, known)
			assert.Equal(t, uint64(1000*i+r), v)
		}
		for _, r := range []int{2, 5} {
			v, known := ri.Lookup(r)
			if slices.Contains(filled, p) {
				assert.True(t, known)
				assert.Equal(t, uint64(p*100+r), v)
			} else {
				assert.Equal(t, i%3 != 0, known)
				assert.Zero(t, v)
			}
		}
	}
}
