package mpi

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strconv"
)

// Comm is a group of processes that exchange byte messages: MPI's world,
// or one process alone. Messages between two processes arrive in the order
// they were sent. Every method but Rank and Size is called from the
// goroutine that called Init.
type Comm interface {
	// Rank is this process's number, 0 <= Rank < Size.
	Rank() int
	// Size is the number of processes.
	Size() int
	// Send sends data to process to.
	Send(to int, data []byte) error
	// Recv receives the next message from process from.
	Recv(from int) ([]byte, error)
	// Bcast returns process 0's data on every process; the others' data
	// is ignored.
	Bcast(data []byte) ([]byte, error)
	// Close ends this process's part in the group (MPI_Finalize).
	Close() error
}

// Single is a group of one process: sends and receives have no partner
// and fail, a broadcast returns its data.
type Single struct{}

// Rank returns 0.
func (Single) Rank() int { return 0 }

// Size returns 1.
func (Single) Size() int { return 1 }

// Send fails: there is no other process.
func (Single) Send(to int, _ []byte) error {
	return fmt.Errorf("mpi: no process %d in a single-process run", to)
}

// Recv fails: there is no other process.
func (Single) Recv(from int) ([]byte, error) {
	return nil, fmt.Errorf("mpi: no process %d in a single-process run", from)
}

// Bcast returns data.
func (Single) Bcast(data []byte) ([]byte, error) { return data, nil }

// Close does nothing.
func (Single) Close() error { return nil }

// PartError is the failure of one process's part of a collective step:
// the message to print and the position of the input it concerns, so that
// of several failures the one of the earliest input is reported, whatever
// the number of processes.
type PartError struct {
	Input int    // position of the failing input; the smallest wins
	Msg   string // the whole message, as the command prints it
}

func (e *PartError) Error() string { return e.Msg }

// Message kinds of Reduce's envelope.
const (
	partOK  = 0
	partErr = 1
)

// wrap puts a part or its failure into Reduce's envelope.
func wrap(data []byte, err *PartError) []byte {
	if err != nil {
		out := make([]byte, 0, 1+binary.MaxVarintLen64+len(err.Msg))
		out = append(out, partErr)
		out = binary.AppendUvarint(out, uint64(err.Input))
		return append(out, err.Msg...)
	}
	out := make([]byte, 0, 1+len(data))
	out = append(out, partOK)
	return append(out, data...)
}

// unwrap reads Reduce's envelope.
func unwrap(msg []byte) ([]byte, *PartError, error) {
	if len(msg) == 0 {
		return nil, nil, errors.New("mpi: empty message")
	}
	switch msg[0] {
	case partOK:
		return msg[1:], nil, nil
	case partErr:
		input, n := binary.Uvarint(msg[1:])
		if n <= 0 {
			return nil, nil, errors.New("mpi: malformed failure message")
		}
		return nil, &PartError{Input: int(input), Msg: string(msg[1+n:])}, nil
	}
	return nil, nil, fmt.Errorf("mpi: message of unknown kind %d", msg[0])
}

// Reduce combines the parts of all processes into one on process 0. The
// parts are combined in process order, left with right, over a binomial
// tree: at step s (1, 2, 4, ...) a process whose rank is a multiple of 2s
// receives the combination of the ranks [rank+s, rank+2s) and combines it
// to the right of its own [rank, rank+s); the others send theirs and are
// done. The tree is log2(Size) steps deep and each process receives at
// most that many messages. When every process holds a contiguous run of
// inputs in process order and merge is associative, the result is what
// merging all parts one after the other gives.
//
// A process whose part failed passes err instead of data. The failure of
// the earliest input wins; merge's own failure counts as that of the right
// part's first input, given by first. Process 0 returns the combination or
// the failure; the other processes return nil, nil once they have sent
// their part (the failure is process 0's to report). An error of the
// transport itself is returned as such on the process that sees it.
func Reduce(c Comm, data []byte, err *PartError, merge func(left, right []byte) ([]byte, error)) ([]byte, *PartError, error) {
	rank, size := c.Rank(), c.Size()
	for step := 1; step < size; step *= 2 {
		if rank%(2*step) != 0 {
			if sendErr := c.Send(rank-step, wrap(data, err)); sendErr != nil {
				return nil, nil, sendErr
			}
			return nil, nil, nil
		}
		from := rank + step
		if from >= size {
			continue
		}
		msg, recvErr := c.Recv(from)
		if recvErr != nil {
			return nil, nil, recvErr
		}
		right, rightErr, decErr := unwrap(msg)
		if decErr != nil {
			return nil, nil, fmt.Errorf("mpi: from process %d: %w", from, decErr)
		}
		switch {
		case err != nil:
			// The left part's failure concerns an earlier input.
		case rightErr != nil:
			data, err = nil, rightErr
		default:
			merged, mergeErr := merge(data, right)
			if mergeErr != nil {
				var pe *PartError
				if !errors.As(mergeErr, &pe) {
					pe = &PartError{Msg: mergeErr.Error()}
				}
				data, err = nil, pe
			} else {
				data = merged
			}
		}
	}
	return data, err, nil
}

// Share returns the inputs [lo, hi) of process rank out of size when the
// inputs, with the given sizes in bytes, are cut into size contiguous runs
// of about equal total size: an input goes to the run in which its
// midpoint falls (an empty input counts as one byte). Every input belongs to exactly one run,
// and runs follow input order, as Reduce needs.
func Share(sizes []int64, rank, size int) (lo, hi int) {
	var total float64
	for _, s := range sizes {
		total += float64(max(s, 1))
	}
	bound := func(p int) int {
		if p <= 0 {
			return 0
		}
		if p >= size {
			return len(sizes)
		}
		goal := total * float64(p) / float64(size)
		var acc float64
		for i, s := range sizes {
			mid := acc + float64(max(s, 1))/2
			if mid >= goal {
				return i
			}
			acc += float64(max(s, 1))
		}
		return len(sizes)
	}
	return bound(rank), bound(rank + 1)
}

// Launched reports whether this process was started by an MPI launcher,
// from the variables launchers set in the processes they start: Open MPI's
// mpirun, MPICH's Hydra (PMI), and PMIx-based ones such as Slurm's srun
// --mpi=pmix.
func Launched() bool {
	for _, v := range [...]string{"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK"} {
		if os.Getenv(v) != "" {
			return true
		}
	}
	return false
}

// LocalSize returns how many processes of the job run on this machine,
// from the variables launchers set (Open MPI's OMPI_COMM_WORLD_LOCAL_SIZE,
// MPICH's MPI_LOCALNRANKS), and false when none says.
func LocalSize() (int, bool) {
	for _, v := range [...]string{"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"} {
		if n, err := strconv.Atoi(os.Getenv(v)); err == nil && n > 0 {
			return n, true
		}
	}
	return 0, false
}
