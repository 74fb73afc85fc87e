package ranks

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/symtab"
)

func TestRankInName(t *testing.T) {
	tests := []struct {
		name string
		rank int
		ok   bool
	}{
		{"gmon.rank3.4711", 3, true},
		{"gmon.RANK3", 3, true},
		{"gmon.Rank03.out", 3, true},
		{"gmon-rank_12.out", 12, true},
		{"gmon.rank-7", 7, true},
		{"out/gmon.rank5.1", 5, true},
		{"job.rank2.rank9", 2, true}, // the first match
		{"rank4", 4, true},
		{"gmon.out", 0, false},
		{"gmon.rank.out", 0, false},
		{"gmon.rank__3", 0, false},   // one separator at most
		{"rank7/gmon.out", 0, false}, // the directory does not count
		{"gmon.3.out", 0, false},
		{"gmon.rank99999999999999999999", 0, false}, // too large
		{"", 0, false},
	}
	for _, tt := range tests {
		rank, ok := RankInName(tt.name)
		assert.Equal(t, tt.ok, ok, tt.name)
		assert.Equal(t, tt.rank, rank, tt.name)
	}
}

func TestAssignRanks(t *testing.T) {
	tests := []struct {
		name    string
		files   []string
		pattern string
		want    []int
		err     string
	}{
		{"glibc names", []string{"out/gmon.rank3.12345", "gmon.rank0.999", "gmon.rank12.7"}, "", []int{3, 0, 12}, ""},
		{"separators", []string{"gmon.rank_2.1", "gmon.rank-1.5", "rank0"}, "", []int{2, 1, 0}, ""},
		{"any case", []string{"gmon.RANK3", "gmon.Rank1.5"}, "", []int{3, 1}, ""},
		{"pattern is case-sensitive", []string{"job.P04.gmon", "job.p11.gmon"}, `\.p(\d+)\.`, nil, "job.P04.gmon: the file name does not match --rank-pattern"},
		{"positions", []string{"a.out.1", "a.out.2", "gmon.rank7.1"}, "", []int{0, 1, 2}, ""},
		{"pattern", []string{"job.p04.gmon", "job.p11.gmon"}, `\.p(\d+)\.`, []int{4, 11}, ""},
		{"pattern must match", []string{"job.p04.gmon", "other"}, `\.p(\d+)\.`, nil, "does not match --rank-pattern"},
		{"duplicates", []string{"gmon.rank1.100", "gmon.rank1.200"}, "", nil, "rank 1 given twice: gmon.rank1.100 and gmon.rank1.200"},
		// The repeat met first on the command line, with the first file
		// it repeats.
		{"earliest repeat", []string{"gmon.rank5.1", "gmon.rank3.1", "gmon.rank5.2", "gmon.rank3.2"}, "", nil, "rank 5 given twice: gmon.rank5.1 and gmon.rank5.2"},
		{"earliest repeat, later rank", []string{"gmon.rank9.1", "gmon.rank2.1", "gmon.rank2.2", "gmon.rank9.2"}, "", nil, "rank 2 given twice: gmon.rank2.1 and gmon.rank2.2"},
		{"three times", []string{"gmon.rank4.1", "gmon.rank4.2", "gmon.rank4.3"}, "", nil, "rank 4 given twice: gmon.rank4.1 and gmon.rank4.2"},
		{"positions never repeat", []string{"a", "b", "c"}, "", []int{0, 1, 2}, ""},
		{"bad pattern", []string{"x"}, `(`, nil, "--rank-pattern"},
		{"a pattern without a group", []string{"out_3.gmon"}, `out_`, nil,
			`out_3.gmon: the pattern, which has no group (put the rank's digits in one: rank([0-9]+)), matches "out_", which is not a rank number`},
		{"a group of no digits", []string{"out_x3.gmon"}, `out_([a-z])`, nil, `out_x3.gmon: the pattern's first group matches "x", which is not a rank number`},
	}
	for _, tt := range tests {
		in := NewInputs(tt.files)
		err := AssignRanks(in, tt.pattern)
		if tt.err != "" {
			assert.ErrorContains(t, err, tt.err, tt.name)
			continue
		}
		require.NoError(t, err, tt.name)
		got := make([]int, in.Len())
		for i := range got {
			got[i] = in.Rank(i)
		}
		assert.Equal(t, tt.want, got, tt.name)
	}
	// Summaries keep their own ranks and take no position.
	in := InputsOf(Input{Name: "a.sum", Summary: true}, Input{Name: "x"}, Input{Name: "y"})
	require.NoError(t, AssignRanks(in, ""))
	assert.Equal(t, []int{0, 0, 1}, []int{in.Rank(0), in.Rank(1), in.Rank(2)})
}

func TestCheckDistinct(t *testing.T) {
	dir := t.TempDir()
	name := func(base string) string { return filepath.Join(dir, base) }
	for _, f := range []string{"a", "b", "c"} {
		require.NoError(t, os.WriteFile(name(f), []byte(f), 0o644))
	}
	require.NoError(t, os.Symlink(name("b"), name("lb")))
	require.NoError(t, os.Symlink(name("a"), name("la")))
	stdin := []byte("x")
	tests := []struct {
		name  string
		files []string
		err   string // "" for none
	}{
		{"distinct", []string{"a", "b", "c"}, ""},
		{"missing files are left to the reading", []string{"a", "gone", "gone"}, ""},
		{"a name twice", []string{"a", "b", "a"}, name("a") + " is given twice"},
		{"a link", []string{"a", "b", "lb"}, name("b") + " and " + name("lb") + " are the same file"},
		// The repeat met first, named with the first input it repeats.
		{"earliest repeat", []string{"a", "b", "c", "lb", "la"}, name("b") + " and " + name("lb") + " are the same file"},
		{"earliest repeat, first file", []string{"la", "b", "a", "b"}, name("la") + " and " + name("a") + " are the same file"},
		{"three names", []string{"c", "lb", "b", "b"}, name("lb") + " and " + name("b") + " are the same file"},
		{"standard input", []string{"-", "a", "b"}, ""},
		{"standard input twice", []string{"a", "-", "b", "-", "la"}, "- is given twice"},
	}
	for _, tt := range tests {
		in := &Inputs{}
		for _, f := range tt.files {
			if f == "-" {
				in.Append(Input{Name: f, Data: stdin})
			} else {
				in.Append(Input{Name: name(f)})
			}
		}
		err := CheckDistinct(in)
		if tt.err == "" {
			assert.NoError(t, err, tt.name)
			continue
		}
		assert.EqualError(t, err, tt.err+": each rank may be counted only once", tt.name)
	}
}

// rankFixture is the testdata "ranks" program with its two profiles
// copied under per-rank names.
type rankFixture struct {
	prog   string
	files  []string
	tab    *symtab.Table
	layout *Layout
}

func newRankFixture(t *testing.T) *rankFixture {
	t.Helper()
	dir := t.TempDir()
	fx := &rankFixture{prog: "../testdata/progs/ranks/prog"}
	for r, g := range []string{"gmon.out", "gmon2.out"} {
		data, err := os.ReadFile(filepath.Join("../testdata/progs/ranks", g))
		require.NoError(t, err)
		name := filepath.Join(dir, "gmon.rank"+string(rune('0'+r))+".4242")
		require.NoError(t, os.WriteFile(name, data, 0o644))
		fx.files = append(fx.files, name)
	}
	tab, err := symtab.Load(fx.prog, symtab.Options{})
	require.NoError(t, err)
	fx.tab = tab
	fx.layout, err = NewLayout(tab, Config{}, nil)
	require.NoError(t, err)
	return fx
}

func (fx *rankFixture) inputs(t *testing.T, names ...string) []Input {
	t.Helper()
	if names == nil {
		names = fx.files
	}
	in := NewInputs(names)
	for i, n := range names {
		sum, err := Sniff(n)
		require.NoError(t, err)
		in.SetSummary(i, sum)
	}
	require.NoError(t, AssignRanks(in, ""))
	out := make([]Input, in.Len())
	for i := range out {
		out[i] = in.At(i)
	}
	return out
}

// Each rank's times and calls are callgraph.Build's for that file alone,
// and the summed profile is gprof's sum of the files.
func TestCollectMatchesCallGraph(t *testing.T) {
	fx := newRankFixture(t)
	res, err := Collect(fx.tab, fx.layout, InputsOf(fx.inputs(t)...), CollectOptions{Exe: "prog", Sum: true, Workers: 2})
	require.NoError(t, err)
	s := res.Summary
	require.Equal(t, 2, s.P())
	sum := gmon.NewProfile(fx.tab.Target, gmon.FormatAuto)
	for p, name := range fx.files {
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		one := gmon.NewProfile(fx.tab.Target, gmon.FormatAuto)
		_, err = one.AddData(data, name)
		require.NoError(t, err)
		_, err = sum.AddData(data, name)
		require.NoError(t, err)
		g := callgraph.Build(fx.tab, one, callgraph.Options{})
		perRegion := make([]uint64, len(fx.layout.Regions))
		for i := range fx.tab.Syms {
			perRegion[fx.layout.Cells[fx.layout.SymCell[i]].Region] += toFixed(g.Entries[i].Ticks)
		}
		for r, v := range perRegion {
			got, known := s.Ranks[p].Lookup(r)
			if known {
				assert.Equal(t, v, got, "rank %d region %s", p, s.Regions[r])
			}
		}
		assert.Equal(t, uint32(one.Rate), s.HZ)
	}
	assert.Equal(t, ClassicFrom(sum), s.Classic)
}

// A summary stands for its ranks: files and summaries mixed give the
// summary of all the files.
func TestCollectSummaryInputs(t *testing.T) {
	fx := newRankFixture(t)
	opt := CollectOptions{Exe: "prog", Sum: true}
	all, err := Collect(fx.tab, fx.layout, InputsOf(fx.inputs(t)...), opt)
	require.NoError(t, err)
	first, err := Collect(fx.tab, fx.layout, InputsOf(fx.inputs(t, fx.files[0])...), opt)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "rank0.sum")
	saveSummary(t, first.Summary, path)
	mixed, err := Collect(fx.tab, fx.layout, InputsOf(fx.inputs(t, path, fx.files[1])...), opt)
	require.NoError(t, err)
	assert.Equal(t, all.Summary.Encode(), mixed.Summary.Encode())

	// The same rank twice is refused.
	_, err = Collect(fx.tab, fx.layout, InputsOf(fx.inputs(t, path, fx.files[0])...), opt)
	assert.ErrorContains(t, err, "rank 0")
}

// The error reported is the first bad file's, whatever the number of
// workers.
func TestCollectErrors(t *testing.T) {
	fx := newRankFixture(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "gmon.rank5.1")
	require.NoError(t, os.WriteFile(bad, []byte("gmon\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x07"), 0o644))
	missing := filepath.Join(dir, "gmon.rank6.1")
	for w := 1; w <= 4; w++ {
		in := fx.inputs(t, fx.files...)
		in = append(in, Input{Name: bad, Rank: 5}, Input{Name: missing, Rank: 6})
		_, err := Collect(fx.tab, fx.layout, InputsOf(in...), CollectOptions{Workers: w, Sum: w%2 == 0})
		require.Error(t, err)
		assert.Contains(t, err.Error(), bad, "workers %d", w)
		assert.Contains(t, err.Error(), "offset 0x14", "workers %d", w)
	}
	in := fx.inputs(t, fx.files...)
	in = append(in, Input{Name: missing, Rank: 6})
	_, err := Collect(fx.tab, fx.layout, InputsOf(in...), CollectOptions{})
	assert.ErrorIs(t, err, os.ErrNotExist)

	// A summary of another executable is refused by name.
	other, err := symtab.Load("../testdata/demo/prog", symtab.Options{})
	require.NoError(t, err)
	ol, err := NewLayout(other, Config{}, nil)
	require.NoError(t, err)
	os1, err := Collect(other, ol, InputsOf([]Input{{Name: "../testdata/demo/gmon.out"}}...), CollectOptions{Sum: true, Exe: "filter"})
	require.NoError(t, err)
	path := filepath.Join(dir, "filter.sum")
	saveSummary(t, os1.Summary, path)
	_, err = Collect(fx.tab, fx.layout, InputsOf(fx.inputs(t, fx.files[0], path)...), CollectOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), path)
	assert.Contains(t, err.Error(), "another executable")
}

// With more ranks than the warm-up sample, a sampled file is analysed
// before the files in front of it; its failure is still reported only
// when no earlier file fails. Input 90 of 100 is in the sample
// (floor(58*100/64)), input 2 is not (floor(k*100/64) skips it).
func TestCollectErrorsAfterWarmUp(t *testing.T) {
	fx := newRankFixture(t)
	data, err := os.ReadFile(fx.files[0])
	require.NoError(t, err)
	dir := t.TempDir()
	const n, sampled, early = 100, 90, 2
	names := make([]string, n)
	for i := range names {
		names[i] = filepath.Join(dir, "gmon.rank"+strconv.Itoa(i)+".1")
		content := data
		if i == sampled {
			content = []byte("gmon\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x07")
		}
		require.NoError(t, os.WriteFile(names[i], content, 0o644))
	}
	for w := 1; w <= 4; w++ {
		for _, sum := range []bool{false, true} {
			_, err := Collect(fx.tab, fx.layout, InputsOf(fx.inputs(t, names...)...), CollectOptions{Workers: w, Sum: sum})
			require.Error(t, err)
			assert.Contains(t, err.Error(), names[sampled], "workers %d, sum %v", w, sum)
		}
	}
	require.NoError(t, os.Remove(names[early]))
	for w := 1; w <= 4; w++ {
		var progress []int
		in := fx.inputs(t, slices.Concat(names[:early], names[early+1:])...)
		in = slices.Insert(in, early, Input{Name: names[early], Rank: early})
		_, err := Collect(fx.tab, fx.layout, InputsOf(in...), CollectOptions{Workers: w, Sum: w%2 == 0,
			Progress: func(done, total int) { progress = append(progress, done) }})
		assert.ErrorIs(t, err, os.ErrNotExist, "workers %d", w)
		assert.Contains(t, err.Error(), names[early], "workers %d", w)
		for k, d := range progress {
			assert.Equal(t, k+1, d, "progress counts one file at a time")
		}
	}
}

// FillRanks makes the regions shown rank by rank exact when ranks kept
// fewer regions than that.
func TestFillRanks(t *testing.T) {
	fx := newRankFixture(t)
	in := fx.inputs(t)
	full, err := Collect(fx.tab, fx.layout, InputsOf(in...), CollectOptions{TopK: 1000})
	require.NoError(t, err)
	// Ranks folded in one region each, without Collect's candidates.
	small := NewSummary("prog", fx.layout, 1)
	attr := newAttributor(fx.tab)
	sc := newScratch(len(fx.tab.Syms))
	for _, x := range in {
		data, err := os.ReadFile(x.Name)
		require.NoError(t, err)
		f, err := gmon.Read(data, x.Name, fx.tab.Target, gmon.FormatAuto)
		require.NoError(t, err)
		v, err := sc.attribute(attr, fx.layout, f, small)
		require.NoError(t, err)
		require.NoError(t, small.addRank(x.Rank, -1, x.Name, attr.rate(f), v, nil, nil))
	}
	require.NoError(t, small.Normalize())
	regions := AnalysisRegions(small, 5)
	require.Greater(t, small.unknownRanks(t, regions), 0)
	n, err := FillRanks(fx.tab, fx.layout, small, InputsOf(in...), regions, CollectOptions{})
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Equal(t, 0, small.unknownRanks(t, regions))
	for p := range small.Ranks {
		for _, r := range regions {
			assert.Equal(t, full.Summary.Ranks[p].Value(r), small.Ranks[p].Value(r))
		}
	}
	// Collect's candidates already cover these regions.
	viaCollect, err := Collect(fx.tab, fx.layout, InputsOf(in...), CollectOptions{TopK: 1})
	require.NoError(t, err)
	assert.Equal(t, 0, viaCollect.Summary.unknownRanks(t, regions))
	again, err := FillRanks(fx.tab, fx.layout, small, InputsOf(in...), regions, CollectOptions{})
	require.NoError(t, err)
	assert.Zero(t, again, "nothing left to fill")
}

func TestLayoutModes(t *testing.T) {
	tab, err := symtab.Load("../testdata/progs/multifile/prog", symtab.Options{})
	require.NoError(t, err)
	byFile, err := NewLayout(tab, Config{Regions: "file"}, nil)
	require.NoError(t, err)
	assert.Contains(t, byFile.Regions, "<no source file>")
	assert.Less(t, len(byFile.Regions), len(tab.Syms))
	hasC := false
	for _, r := range byFile.Regions {
		if filepath.Ext(r) == ".c" {
			hasC = true
		}
	}
	assert.True(t, hasC, "regions named by source file: %v", byFile.Regions)

	byRE, err := NewLayout(tab, Config{Regions: `^(_?[a-z])`}, nil)
	require.NoError(t, err)
	assert.Less(t, len(byRE.Regions), len(tab.Syms))

	act, err := ParseActivity(`setup=^(init|setup)`)
	require.NoError(t, err)
	l, err := NewLayout(tab, Config{Activities: []Activity{act}}, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"setup", Computation}, l.Activities)
	_, err = ParseActivity("noequals")
	assert.Error(t, err)
	_, err = ParseActivity("x=(")
	assert.Error(t, err)
	assert.Error(t, CheckRegions("("))
	assert.NoError(t, CheckRegions("file"))
}

func TestDefaultActivities(t *testing.T) {
	acts := DefaultActivities()
	classify := func(name string) string {
		for _, a := range acts {
			if a.re.MatchString(name) {
				return a.Name
			}
		}
		return Computation
	}
	tests := map[string]string{
		"MPI_Send": "point-to-point", "PMPI_Irecv": "point-to-point", "mpi_waitall_": "point-to-point",
		"MPI_Sendrecv_replace": "point-to-point", "MPI_Testany": "point-to-point",
		"MPI_Allreduce": "collective", "MPI_Alltoallv": "collective", "pmpi_bcast__": "collective",
		"MPI_Ireduce_scatter_block": "collective", "MPI_Allgatherv": "collective",
		"MPI_Barrier": "synchronisation", "MPI_Win_fence": "synchronisation", "MPI_Ibarrier": "synchronisation",
		"GOMP_parallel": "openmp", "__kmpc_fork_call": "openmp", "omp_get_thread_num": "openmp",
		"MPI_File_write_all": "io", "fwrite": "io", "H5Dwrite": "io",
		"solve": Computation, "MPI_Comm_rank": Computation, "sendto_neighbors": Computation, "my_recv": Computation,
	}
	for name, want := range tests {
		assert.Equal(t, want, classify(name), name)
	}
}

// With more ranks than the sample the candidates are chosen from, the
// summary is the same whatever the number of workers, and the regions the
// analysis shows rank by rank are known for every rank.
func TestCollectDeterministic(t *testing.T) {
	fx := newRankFixture(t)
	dir := t.TempDir()
	var names []string
	for r := range 150 {
		data, err := os.ReadFile(fx.files[r%3%2])
		require.NoError(t, err)
		name := filepath.Join(dir, "gmon.rank"+strconv.Itoa(r)+".1")
		require.NoError(t, os.WriteFile(name, data, 0o644))
		names = append(names, name)
	}
	in := fx.inputs(t, names...)
	var first []byte
	for _, w := range []int{1, 2, 3, 8} {
		res, err := Collect(fx.tab, fx.layout, InputsOf(in...), CollectOptions{Workers: w, TopK: 1, Sum: w%2 == 0})
		require.NoError(t, err)
		res.Summary.Classic = nil
		enc := res.Summary.Encode()
		if first == nil {
			first = enc
			regions := AnalysisRegions(res.Summary, 3)
			assert.Zero(t, res.Summary.unknownRanks(t, regions))
			continue
		}
		assert.Equal(t, first, enc, "%d workers", w)
	}
}

// A run that saves no summary keeps each rank's time in the candidate
// regions only (lean records), yet the analysis is the one of full
// records: FillRanks reads again what a rank lacks.
func TestLeanRecordsSameAnalysis(t *testing.T) {
	fx := newRankFixture(t)
	dir := t.TempDir()
	var names []string
	for r := range 90 {
		data, err := os.ReadFile(fx.files[r%3%2])
		require.NoError(t, err)
		name := filepath.Join(dir, "gmon.rank"+strconv.Itoa(r)+".1")
		require.NoError(t, os.WriteFile(name, data, 0o644))
		names = append(names, name)
	}
	in := fx.inputs(t, names...)
	report := func(keep bool) *Report {
		res, err := Collect(fx.tab, fx.layout, InputsOf(in...), CollectOptions{KeepHeaviest: keep, Shown: 2})
		require.NoError(t, err)
		_, err = FillRanks(fx.tab, fx.layout, res.Summary, InputsOf(in...), AnalysisRegions(res.Summary, 2), CollectOptions{})
		require.NoError(t, err)
		for _, ri := range res.Summary.Ranks {
			if !keep {
				assert.Empty(t, ri.Top(), "lean: no heaviest regions")
			}
		}
		return analyze(t, res.Summary, AnalyzeOptions{Top: 2})
	}
	assert.Equal(t, report(true), report(false))
}

// unknownRanks counts the ranks of s whose time in one of the regions idx
// is not known.
func (s *Summary) unknownRanks(t testing.TB, idx []int) int {
	t.Helper()
	n, err := s.unknown(s.reader(), idx)
	require.NoError(t, err)
	return n
}
