package cli

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/experiment"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/mpi"
	"github.com/egprof/egprof/internal/testenv"
	"github.com/egprof/egprof/internal/testprof"
	"github.com/egprof/egprof/ranks"
	"github.com/egprof/egprof/symtab"
)

// mpiJob is an egprof built with the mpi tag and a directory of synthetic
// rank files for it.
type mpiJob struct {
	egprof string // built with -tags mpi
	single string // the default, pure-Go build
	dir    string // the rank files
	exe    string // their executable
	files  []string
}

// newMPIJob builds egprof with scripts/build-mpi.sh and writes n rank
// files of a synthetic program with internal/progen/cmd/mkranks.
func newMPIJob(t *testing.T, n int) *mpiJob {
	t.Helper()
	testenv.Need(t, "mpicc", "mpirun", "gprof")
	root, err := filepath.Abs(testenv.Root(t))
	require.NoError(t, err)
	tmp := t.TempDir()
	j := &mpiJob{egprof: filepath.Join(tmp, "egprof-mpi"), single: testenv.EgprofBinary(t)}
	out, err := exec.Command(filepath.Join(root, "scripts", "build-mpi.sh"), "-o", j.egprof).CombinedOutput()
	require.NoError(t, err, "%s", out)
	mkranks := testenv.GoBinary(t, testenv.EgprofPackage+"/internal/progen/cmd/mkranks")
	out, err = exec.Command(mkranks, "-dir", filepath.Join(tmp, "ranks"), "-ranks", strconv.Itoa(n),
		"-funcs", "300", "-arcs", "1500", "-seed", "11").CombinedOutput()
	require.NoError(t, err, "%s", out)
	for line := range strings.Lines(string(out)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "RANKS_BINARY="); ok {
			j.exe = v
		}
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "RANKS_DIR="); ok {
			j.dir = v
		}
	}
	require.NotEmpty(t, j.exe, "%s", out)
	for r := range n {
		matches, err := filepath.Glob(filepath.Join(j.dir, "gmon.rank"+strconv.Itoa(r)+".*"))
		require.NoError(t, err)
		require.Len(t, matches, 1)
		j.files = append(j.files, filepath.Base(matches[0]))
	}
	return j
}

// run runs the command in the rank directory, under mpirun with np
// processes (np 0: the pure-Go build, alone), and returns what it printed
// and the files it wrote, if any: gmon.sum, then job.sum (give
// --save-summary=job.sum).
func (j *mpiJob) run(t *testing.T, np int, args ...string) (testenv.Result, []byte) {
	t.Helper()
	os.Remove(filepath.Join(j.dir, "gmon.sum"))
	os.Remove(filepath.Join(j.dir, "job.sum"))
	var res testenv.Result
	if np == 0 {
		res = testenv.Run(t.Context(), t, j.single, j.dir, append([]string{"egprof"}, args...))
	} else {
		argv := append([]string{"mpirun", "--allow-run-as-root", "--oversubscribe", "-np", strconv.Itoa(np), j.egprof}, args...)
		res = testenv.Run(t.Context(), t, testenv.Tool(t, "mpirun"), j.dir, argv)
	}
	sum, _ := os.ReadFile(filepath.Join(j.dir, "gmon.sum"))
	saved, _ := os.ReadFile(filepath.Join(j.dir, "job.sum"))
	return res, append(sum, saved...)
}

// sameOnProcesses runs the command alone and as MPI jobs of 1, 2 and 4
// processes, and checks that each prints and writes (gmon.sum) exactly
// what the one process does.
func (j *mpiJob) sameOnProcesses(t *testing.T, args ...string) {
	t.Helper()
	want, wantSum := j.run(t, 0, args...)
	require.Zero(t, want.Code, want.Stderr)
	for _, np := range []int{1, 2, 4} {
		got, gotSum := j.run(t, np, args...)
		require.Zero(t, got.Code, "%q on %d processes: %s", args, np, got.Stderr)
		assert.Equal(t, want.Stdout, got.Stdout, "%q on %d processes", args, np)
		assert.Equal(t, wantSum, gotSum, "%q on %d processes: gmon.sum and job.sum", args, np)
	}
}

// TestMPIJobSums runs gprof's report, -i and -s as an MPI job of 1, 2 and
// 4 processes: every byte printed or written is the one-process run's.
func TestMPIJobSums(t *testing.T) {
	testenv.Long(t)
	j := newMPIJob(t, 24)
	list := filepath.Join(t.TempDir(), "files")
	require.NoError(t, os.WriteFile(list, []byte(strings.Join(j.files, "\n")+"\n"), 0o666))
	cases := [][]string{
		append([]string{"-b", j.exe}, j.files...),
		append([]string{"-i", "-b", "-p", j.exe}, j.files...),
		append([]string{"-s", "-b", "-q", j.exe}, j.files...),
		{"-b", "-p", j.exe, "--files-from=" + list},
		{"-b", "-p", j.exe, "gmon.rank*"}, // expanded by egprof
		{"-b", "-p", j.exe, j.files[0]},   // nothing to share out
	}
	// The one-process output is gprof's (checked on the first case; the
	// goldens check the rest on every program).
	gprof := testenv.Output(t, testenv.Gprof(t), j.dir, cases[0]...)
	for _, args := range cases {
		j.sameOnProcesses(t, args...)
	}
	assert.Equal(t, gprof, func() string { r, _ := j.run(t, 4, cases[0]...); return r.Stdout }())
}

// TestMPIJobFailure gives an MPI job a truncated file among good ones:
// whatever the number of processes, the error is the one-process run's,
// printed once, and mpirun's exit status is non-zero.
func TestMPIJobFailure(t *testing.T) {
	testenv.Long(t)
	j := newMPIJob(t, 12)
	bad := j.files[9]
	data, err := os.ReadFile(filepath.Join(j.dir, bad))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(j.dir, bad), data[:len(data)/3], 0o666))
	args := append([]string{"-b", j.exe}, j.files...)
	want, _ := j.run(t, 0, args...)
	require.Equal(t, 1, want.Code)
	line := strings.TrimPrefix(want.Stderr, "egprof: ")
	require.Contains(t, line, bad)
	for _, np := range []int{2, 4} {
		got, _ := j.run(t, np, args...)
		assert.NotZero(t, got.Code, "%d processes", np)
		assert.Empty(t, got.Stdout, "%d processes", np)
		assert.Equal(t, 1, strings.Count(got.Stderr, line), "%d processes: %s", np, got.Stderr)
	}
}

// TestJobSumsInParts runs the summing steps of a job on processes that
// are goroutines (mpi.Local): process 0 gets the merged sums of every
// process's files, not a request to read them all itself, and they are
// exactly the one-process sum.
func TestJobSumsInParts(t *testing.T) {
	dir := filepath.Join(testenv.Root(t), "testdata", "progs", "ranks")
	var files []string
	for range 5 {
		files = append(files, filepath.Join(dir, "gmon.out"), filepath.Join(dir, "gmon2.out"))
	}
	tab, want := testprof.Load(t, filepath.Join(dir, "prog"), files...)
	plan := &sumPlan{target: tab.Target, format: gmon.FormatAuto, files: files}
	for size := 1; size <= 6; size++ {
		comms := mpi.Local(size)
		parts := make([]*sumPart, size)
		errs := make([]error, size)
		var wg sync.WaitGroup
		for r := range size {
			wg.Go(func() {
				j := &job{comm: comms[r]}
				parts[r], errs[r] = j.reduceSums(plan)
			})
		}
		wg.Wait()
		for r := range size {
			require.NoError(t, errs[r], "process %d of %d", r, size)
			if r > 0 {
				assert.Nil(t, parts[r], "process %d of %d", r, size)
			}
		}
		require.NotNil(t, parts[0], "%d processes: process 0 was asked to read every file", size)
		got, err := gmon.DecodeState(parts[0].state, "sum", tab.Target, gmon.FormatAuto)
		require.NoError(t, err)
		assert.Equal(t, want.EncodeState(), got.EncodeState(), "%d processes", size)
	}
}

// TestJobExperimentRows shares an experiment's rows among processes that
// are goroutines (mpi.Local): every row is read once, by one process, and
// process 0 takes every row's observations in row order, bit for bit.
func TestJobExperimentRows(t *testing.T) {
	const rows, items = 5*rowsPerChunk + 7, 5
	fill := func(row int, obs *experiment.Observations) {
		obs.Bases, obs.Base = 3, make([]float64, 3*items)
		for i := range obs.Base {
			if (row+i)%4 != 0 { // some functions without any value
				obs.Base[i] = float64(row*100+i) + 0.1
			}
		}
		obs.Base[0] = math.Copysign(0, -1) // a negative zero is sent as such
		obs.Total, obs.HZ = float64(row)+0.5, 100
	}
	for size := 1; size <= 5; size++ {
		comms := mpi.Local(size)
		var mu sync.Mutex
		readBy := map[int][]int{}
		var taken []int
		errs := make([]error, size)
		var wg sync.WaitGroup
		for r := range size {
			wg.Go(func() {
				j := &job{comm: comms[r], everyone: true}
				errs[r] = j.experimentRows(rows, 3*items,
					func(row int, obs *experiment.Observations) error {
						mu.Lock()
						readBy[row] = append(readBy[row], r)
						mu.Unlock()
						fill(row, obs)
						return nil
					},
					func(row int, obs *experiment.Observations) {
						var want experiment.Observations
						fill(row, &want)
						assert.Equal(t, math.Float64bits(want.Base[0]), math.Float64bits(obs.Base[0]))
						assert.Equal(t, want.Base, obs.Base, "row %d", row)
						assert.Equal(t, want.Total, obs.Total, "row %d", row)
						taken = append(taken, row)
					})
			})
		}
		wg.Wait()
		require.NoError(t, errs[0], "%d processes", size)
		for r := 1; r < size; r++ {
			assert.ErrorIs(t, errs[r], errJobWorker)
		}
		want := make([]int, rows)
		for i := range want {
			want[i] = i
		}
		assert.Equal(t, want, taken, "%d processes", size)
		readers := map[int]bool{}
		for row := range rows {
			require.Len(t, readBy[row], 1, "%d processes: row %d", size, row)
			readers[readBy[row][0]] = true
		}
		assert.Len(t, readers, size, "%d processes: every process reads rows", size)
	}
}

// FuzzTakeObservations feeds arbitrary bytes to the reader of a process's
// observations: it never panics and never hands on a row whose values
// would not fit.
func FuzzTakeObservations(f *testing.F) {
	obs := &experiment.Observations{Bases: 3, Base: []float64{0, 0, 0, 1, 2, 3}, Total: 4, HZ: 100}
	f.Add(append(appendObservations(nil, 7, obs), obsEnd))
	f.Add([]byte{obsFail, 3, 'b', 'a', 'd', obsEnd})
	f.Add([]byte{obsRow, 1})
	f.Fuzz(func(t *testing.T, msg []byte) {
		_ = takeObservations(msg, 6, func(row int, o *experiment.Observations) {
			if o.Bases <= 0 || len(o.Base) != 6 || len(o.Base)%o.Bases != 0 {
				t.Fatalf("row %d: %d values in groups of %d", row, len(o.Base), o.Bases)
			}
		})
	})
}

// TestMPIJobExperiment runs the experiment mode as an MPI job: a table
// whose one row is a pattern over the rank files, with the statistics over
// the ranks, prints what one process prints, on 1, 2 and 4 processes.
func TestMPIJobExperiment(t *testing.T) {
	testenv.Long(t)
	j := newMPIJob(t, 16)
	table := filepath.Join(t.TempDir(), "exp.tsv")
	require.NoError(t, os.WriteFile(table, []byte("gmon\tbinary\n"+filepath.Join(j.dir, "gmon.rank*")+"\t"+j.exe+"\n"), 0o666))
	for _, args := range [][]string{
		{"-b", "--experiment=" + table, "--over=rank"},
		{"--experiment=" + table, "--over=rank", "--format=tsv"},
		append([]string{"-b", "--runs", j.exe}, j.files...),
	} {
		j.sameOnProcesses(t, args...)
	}
}

// TestJobRanksInParts reads rank files on processes that are goroutines
// (mpi.Local): process 0 gets merged parts, not a request to read every
// file itself, and the summary and summed profile are those of one
// Collect over all the files.
func TestJobRanksInParts(t *testing.T) {
	src := filepath.Join(testenv.Root(t), "testdata", "progs", "ranks")
	dir := t.TempDir()
	inputs := &ranks.Inputs{}
	for r := range 9 {
		data, err := os.ReadFile(filepath.Join(src, []string{"gmon.out", "gmon2.out"}[r%2]))
		require.NoError(t, err)
		name := filepath.Join(dir, "gmon.rank"+strconv.Itoa(r))
		require.NoError(t, os.WriteFile(name, data, 0o666))
		inputs.Append(ranks.Input{Name: name, Rank: r})
	}
	tab, err := symtab.Load(filepath.Join(src, "prog"), symtab.Options{})
	require.NoError(t, err)
	layout, err := ranks.NewLayout(tab, ranks.Config{}, func(n string) string { return n })
	require.NoError(t, err)
	opts := ranks.CollectOptions{Exe: "prog", Sum: true}
	want, err := ranks.Collect(tab, layout, inputs, opts)
	require.NoError(t, err)
	cands, err := ranks.ChooseCandidates(tab, layout, inputs, opts)
	require.NoError(t, err)
	plan := &rankPlan{inputs: inputs, candidates: cands}
	for size := 1; size <= 4; size++ {
		comms := mpi.Local(size)
		parts := make([]*rankPart, size)
		errs := make([]error, size)
		var wg sync.WaitGroup
		for r := range size {
			wg.Go(func() {
				j := &job{comm: comms[r]}
				parts[r], errs[r] = j.reduceRanks(plan, tab, layout, opts)
			})
		}
		wg.Wait()
		for r := range size {
			require.NoError(t, errs[r], "process %d of %d", r, size)
		}
		require.NotNil(t, parts[0], "%d processes: process 0 was asked to read every file", size)
		got, err := ranks.DecodePart(parts[0].summary, "merged", inputs, cands)
		require.NoError(t, err)
		sum, err := gmon.DecodeState(parts[0].state, "merged", tab.Target, gmon.FormatAuto)
		require.NoError(t, err)
		got.Classic = ranks.ClassicFrom(sum)
		assert.Equal(t, want.Summary.Encode(), got.Encode(), "%d processes", size)
		assert.Equal(t, want.Sum.EncodeState(), sum.EncodeState(), "%d processes", size)
	}
}

// TestMPIJobRanks runs the rank analysis as an MPI job of 1, 2 and 4
// processes: the report in each format, and the saved summary, are the
// one process's to the byte.
func TestMPIJobRanks(t *testing.T) {
	testenv.Long(t)
	j := newMPIJob(t, 80) // more ranks than the sample the candidates come from
	for _, extra := range [][]string{
		{"--ranks", "-b"},
		{"--ranks", "-P", "-Q", "--format=tsv"},
		{"--ranks", "-P", "-Q", "--format=json", "--rank-time=inclusive"},
		{"--ranks", "-b", "-P", "-Q", "--save-summary=job.sum"},
		{"--ranks", "-s", "-b", "-p", "-i"},
	} {
		j.sameOnProcesses(t, append(append(extra, j.exe), j.files...)...)
	}
}

// FuzzJobMessages feeds arbitrary bytes to the readers of the messages
// the processes of a job exchange: none panics, and a message read back
// encodes to the same bytes.
func FuzzJobMessages(f *testing.F) {
	f.Add((&sumPlan{target: gmon.Target{Order: binary.LittleEndian, AddrSize: 8}, files: []string{"a", "b"}}).encode())
	f.Add((&sumPart{state: []byte("x"), info: "File", blocks: true}).encode())
	f.Add((&rankPlan{inputs: ranks.InputsOf(ranks.Input{Name: "gmon.rank3", Rank: 3}), candidates: []int32{1, 5}}).encode())
	f.Add((&rankPart{summary: []byte("s"), state: []byte("t"), info: "i"}).encode())
	f.Fuzz(func(t *testing.T, msg []byte) {
		if p, err := decodeSumPlan(msg); err == nil && !bytes.Equal(p.encode(), msg) {
			t.Fatal("a summing plan reads back differently")
		}
		if p, err := decodeSumPart(msg); err == nil && !bytes.Equal(p.encode(), msg) {
			t.Fatal("a summed part reads back differently")
		}
		if p, err := decodeRankPlan(msg); err == nil && !bytes.Equal(p.encode(), msg) {
			t.Fatal("a rank plan reads back differently")
		}
		if p, err := decodeRankPart(msg); err == nil && !bytes.Equal(p.encode(), msg) {
			t.Fatal("a rank part reads back differently")
		}
	})
}
