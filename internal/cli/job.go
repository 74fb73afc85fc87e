package cli

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/binfmt"
	"github.com/egprof/egprof/internal/mpi"
	"github.com/egprof/egprof/internal/oserr"
	"github.com/egprof/egprof/symtab"
)

// A job is egprof run as the processes of an MPI job (built with the mpi
// tag and started by mpirun or srun): process 0 runs the command as usual
// and prints everything; the others only read their share of the profile
// data files when process 0 asks, and hand their sums back up a binomial
// tree (mpi.Reduce). The steps, each a collective of every process:
//
//  1. plan: process 0 broadcasts what to do (or that it failed before
//     reading any file, with the exit status), with the data files as it
//     resolved them, so that every process agrees on them;
//  2. sizes: each process finds the sizes of an equal count of files,
//     and process 0 broadcasts them all;
//  3. parts: each process sums a contiguous run of files of about equal
//     total size (mpi.Share) and the runs are merged in file order.
//
// When a process fails, or two runs' sums cannot be merged exactly
// (gmon.Profile.Merge), process 0 sums every file itself, one after the
// other, and so fails (or succeeds) exactly as one process would.
type job struct {
	comm mpi.Comm
	// planned is set once process 0 has broadcast the plan.
	planned bool
	// everyone is set when every process runs the command (the experiment
	// mode, see experimentRows): there is no plan, and the processes other
	// than 0 print nothing.
	everyone bool
}

// The kinds of plan.
const (
	planFailed = 0 // process 0 stopped before reading; the others stop too
	planSum    = 1 // sum the data files (gprof's summing, -s)
	planRanks  = 2 // read the rank files (--ranks)
	planNone   = 3 // process 0 reads the files alone; the others are done
)

// joinJob makes c a job when egprof runs as several MPI processes, in the
// modes that read many files: gprof's report, -s and the differential
// profile's first side (process 0 runs the command, the others serve its
// plans), and the experiment mode (every process runs the command, and
// shares the reading of the rows). It returns false for a process that
// is then done: it has taken its part in the job.
func joinJob(c *config, stdin io.Reader, stderr io.Writer) (run bool, code int) {
	if !mpi.Built || !mpi.Launched() {
		return true, 0
	}
	switch c.ext.mode {
	case modeClassic, modeDiff, modeRanks, modeExperiment:
	default:
		return true, 0
	}
	comm, err := mpi.Init()
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", c.argv0, err)
		return true, 1
	}
	if comm.Size() == 1 {
		comm.Close()
		return true, 0
	}
	// Each process reads on as many cores as are its share of the
	// machine's, unless GOMAXPROCS says otherwise.
	if local, ok := mpi.LocalSize(); ok && local > 1 && os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(max(1, runtime.NumCPU()/local))
	}
	c.job = &job{comm: comm, everyone: c.ext.mode == modeExperiment}
	if comm.Rank() == 0 || c.job.everyone {
		return true, 0
	}
	code = c.job.serve(c)
	comm.Close()
	return false, code
}

// finish ends process 0's part: the other processes wait for a plan until
// process 0 sends one, so a run that shared nothing out (one file, or a
// failure before any file was read) ends theirs, with its exit status.
func (j *job) finish(code int) {
	if j.comm.Rank() == 0 && !j.everyone && !j.planned {
		if code == 0 {
			j.sendPlan(planNone, 0, nil) // nothing was shared out
		} else {
			j.sendPlan(planFailed, uint64(code), nil)
		}
	}
	j.comm.Close()
}

// sendPlan broadcasts a plan from process 0.
func (j *job) sendPlan(kind, arg uint64, body []byte) error {
	j.planned = true
	var w binfmt.Writer
	w.Uint(kind)
	w.Uint(arg)
	w.Raw(body)
	_, err := j.comm.Bcast(w.File(planSignature, 1))
	return err
}

const planSignature = "EGPPLAN1"

// serve runs a process other than 0: it waits for the plan and does its
// part. Nothing is printed: process 0 reports every failure.
func (j *job) serve(c *config) int {
	fail := func(err error) int {
		fmt.Fprintf(os.Stderr, "%s: process %d: %v\n", c.argv0, j.comm.Rank(), err)
		return 1
	}
	msg, err := j.comm.Bcast(nil)
	if err != nil {
		return fail(err)
	}
	r, err := binfmt.Open(msg, "plan", planSignature, 1, "a plan")
	if err != nil {
		return fail(err)
	}
	kind, arg := r.Uint("kind"), r.Uint("argument")
	if err := r.Err(); err != nil {
		return fail(err)
	}
	body := msg[r.Offset():]
	switch kind {
	case planFailed:
		return int(min(arg, 255))
	case planNone:
		return 0
	case planRanks:
		plan, err := decodeRankPlan(body)
		if err == nil {
			err = j.serveRanks(c, plan)
		}
		if err != nil {
			return fail(err)
		}
		return 0
	case planSum:
		plan, err := decodeSumPlan(body)
		if err == nil {
			_, err = j.reduceSums(plan)
		}
		if err != nil {
			return fail(err)
		}
		return 0
	}
	return fail(fmt.Errorf("a plan of unknown kind %d", kind))
}

// sumPlan is what every process needs to sum its share of the files.
type sumPlan struct {
	target gmon.Target
	format gmon.Format
	files  []string
}

func (p *sumPlan) encode() []byte {
	var w binfmt.Writer
	w.Bool(p.target.Order == binary.BigEndian)
	w.Uint(uint64(p.target.AddrSize))
	w.Uint(uint64(p.format))
	w.Uint(uint64(len(p.files)))
	for _, f := range p.files {
		w.String(f)
	}
	return w.File(planSignature, 1)
}

func decodeSumPlan(data []byte) (*sumPlan, error) {
	r, err := binfmt.Open(data, "plan", planSignature, 1, "a summing plan")
	if err != nil {
		return nil, err
	}
	p := &sumPlan{target: gmon.Target{Order: binary.LittleEndian}}
	if r.Bool("byte order") {
		p.target.Order = binary.BigEndian
	}
	p.target.AddrSize = int(r.Uint("address size"))
	p.format = gmon.Format(r.Uint("format"))
	n := r.Count("file count", 1)
	p.files = make([]string, 0, n)
	for range n {
		p.files = append(p.files, r.String("file name"))
	}
	return p, r.Finish()
}

// sumProfiles reads and sums the data files of the profile for tab, on
// every process of the job when there is one, as loadProfiles does alone.
func (c *config) sumProfiles(tab *symtab.Table, files []string, stdin io.Reader, stdout, stderr io.Writer) (*gmon.Profile, int) {
	j := c.job
	// A differential side is summed here, where its files are checked
	// one by one (loadProfiles).
	if j == nil || j.planned || len(files) < 2 || c.format == gmon.FormatProf || hasStdin(files) || c.ext.mode == modeDiff {
		return c.loadProfiles(tab, files, stdin, stdout, stderr)
	}
	plan := &sumPlan{target: tab.Target, format: c.format, files: files}
	if err := j.sendPlan(planSum, 0, plan.encode()); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", c.argv0, err)
		return nil, 1
	}
	merged, err := j.reduceSums(plan)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", c.argv0, err)
		return nil, 1
	}
	if merged == nil {
		// A process failed, or the parts do not merge exactly: sum the
		// files here, one after the other, as one process does.
		return c.loadProfiles(tab, files, stdin, stdout, stderr)
	}
	prof, err := gmon.DecodeState(merged.state, "the job's sum", tab.Target, c.format)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", c.argv0, err)
		return nil, 1
	}
	if c.style&styleInfo != 0 {
		io.WriteString(stdout, merged.info)
	}
	if merged.blocks && !c.line {
		fmt.Fprintf(stderr, "%s: warning: ignoring basic-block exec counts (use -l or --line)\n", c.argv0)
	}
	return prof, 0
}

// hasStdin reports whether a data file is standard input, which only
// process 0 can read.
func hasStdin(files []string) bool {
	for _, f := range files {
		if f == "-" {
			return true
		}
	}
	return false
}

// sumPart is one run of files summed: the summing state, gprof -i's lines
// for its files, and whether one had basic-block counts.
type sumPart struct {
	state  []byte
	info   string
	blocks bool
}

func (p *sumPart) encode() []byte {
	var w binfmt.Writer
	w.String(p.info)
	w.Bool(p.blocks)
	w.Raw(p.state)
	return w.File(partSignature, 1)
}

const partSignature = "EGPPART1"

func decodeSumPart(data []byte) (*sumPart, error) {
	r, err := binfmt.Open(data, "part", partSignature, 1, "a summed part")
	if err != nil {
		return nil, err
	}
	p := &sumPart{info: r.String("info"), blocks: r.Bool("blocks")}
	if r.Err() != nil {
		return nil, r.Err()
	}
	p.state = data[r.Offset():]
	return p, nil
}

// reduceSums is the work of every process, 0 included: its share of the
// files summed and merged up the tree. It returns process 0's merged part
// (nil on the others, and on process 0 when a process failed or the
// parts do not merge exactly).
func (j *job) reduceSums(plan *sumPlan) (*sumPart, error) {
	share, err := j.shareOf(plan.files)
	if err != nil {
		return nil, err
	}
	data, perr := sumShare(plan, share)
	out, perr, err := mpi.Reduce(j.comm, data, perr, func(left, right []byte) ([]byte, error) {
		return mergeSumParts(plan, left, right)
	})
	if err != nil || perr != nil || out == nil {
		return nil, err
	}
	return decodeSumPart(out)
}

// inputRange is a run of files [lo, hi).
type inputRange struct{ lo, hi int }

// shareOf returns this process's run of files, of about equal total size
// to the others': each process finds the sizes of an equal count of
// files, and process 0 gathers and broadcasts them. A file that cannot be
// looked at counts as empty; reading it fails later, in its turn.
func (j *job) shareOf(files []string) (inputRange, error) {
	rank, size := j.comm.Rank(), j.comm.Size()
	n := len(files)
	lo, hi := rank*n/size, (rank+1)*n/size
	var w []byte
	for _, f := range files[lo:hi] {
		var s int64
		if fi, err := os.Stat(f); err == nil {
			s = fi.Size()
		}
		w = binary.AppendUvarint(w, uint64(max(s, 0)))
	}
	all, _, err := mpi.Reduce(j.comm, w, nil, func(l, r []byte) ([]byte, error) {
		return append(append([]byte(nil), l...), r...), nil
	})
	if err != nil {
		return inputRange{}, err
	}
	all, err = j.comm.Bcast(all)
	if err != nil {
		return inputRange{}, err
	}
	sizes := make([]int64, 0, n)
	for len(all) > 0 && len(sizes) < n {
		v, k := binary.Uvarint(all)
		if k <= 0 {
			break
		}
		sizes = append(sizes, int64(min(v, 1<<62)))
		all = all[k:]
	}
	if len(sizes) != n {
		return inputRange{}, errors.New("mpi: the file sizes broadcast are incomplete")
	}
	a, b := mpi.Share(sizes, rank, size)
	return inputRange{a, b}, nil
}

// sumShare sums the files of a run as one process would sum them alone,
// with gprof -i's lines for each.
func sumShare(plan *sumPlan, share inputRange) ([]byte, *mpi.PartError) {
	prof := gmon.NewProfile(plan.target, plan.format)
	var part sumPart
	var info []byte
	// One read buffer and one file's storage for all the files, as in
	// loadProfiles.
	var buf []byte
	var last *gmon.File
	for i := share.lo; i < share.hi; i++ {
		name := plan.files[i]
		data, err := gmon.ReadFileInto(name, &buf)
		if err != nil {
			return nil, &mpi.PartError{Input: i, Msg: name + ": " + oserr.Text(err)}
		}
		if summaryGivenAsProfile(data) != "" {
			return nil, &mpi.PartError{Input: i, Msg: name + ": not a profile data file"}
		}
		f, err := prof.AddDataLeanReusing(last, data, name)
		if err != nil {
			return nil, &mpi.PartError{Input: i, Msg: err.Error()}
		}
		last = f
		part.blocks = part.blocks || len(f.BBs) > 0
		info = appendFileInfo(info, f, prof)
	}
	part.info = string(info)
	part.state = prof.EncodeState()
	return part.encode(), nil
}

// mergeSumParts merges two neighbouring runs' parts, or fails when their
// sums cannot be merged exactly (process 0 then sums all the files).
func mergeSumParts(plan *sumPlan, left, right []byte) ([]byte, error) {
	l, err := decodeSumPart(left)
	if err != nil {
		return nil, err
	}
	r, err := decodeSumPart(right)
	if err != nil {
		return nil, err
	}
	state, err := mergeStates(plan.target, plan.format, l.state, r.state)
	if err != nil {
		return nil, err
	}
	out := sumPart{info: l.info + r.info, blocks: l.blocks || r.blocks, state: state}
	return out.encode(), nil
}

// mergeStates merges two neighbouring runs' summing states (gmon's
// EncodeState), or fails when they cannot be merged exactly.
func mergeStates(target gmon.Target, format gmon.Format, left, right []byte) ([]byte, error) {
	lp, err := gmon.DecodeState(left, "part", target, format)
	if err != nil {
		return nil, err
	}
	rp, err := gmon.DecodeState(right, "part", target, format)
	if err != nil {
		return nil, err
	}
	if !lp.Merge(rp) {
		return nil, errors.New("the parts' sums differ in a way that needs one reading")
	}
	return lp.EncodeState(), nil
}
