package cli

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/egprof/egprof/experiment"
	"github.com/egprof/egprof/internal/parallel"
)

// errJobWorker ends the experiment on a process other than 0 once it has
// handed its rows' observations to process 0, which reports.
var errJobWorker = errors.New("this process's rows were handed to process 0")

// Record kinds of the observation stream a process sends to process 0.
const (
	obsRow  = 0 // one row's observations
	obsFail = 1 // the first failing row's error; nothing follows but the end
	obsEnd  = 2 // the end of the process's rows
)

// rowsPerChunk is the most rows that make one turn of the reading (see
// experimentRows); small experiments take fewer, so that every process
// has a few turns.
const rowsPerChunk = 32

// experimentRows reads an experiment's rows as the processes of the job:
// the rows are cut into chunks of up to rowsPerChunk rows dealt out in turn
// (chunk k to process k mod P), each process reads its chunks on all its
// cores, and process 0 takes every row's observations in row order: its
// own chunks as it reads them, the others' as they arrive. The statistics
// then see every row's observations exactly as one process would hand
// them, so the report is the same to the byte. A process reads its next
// chunk while its last one waits to be taken, so it holds at most two
// chunks' observations.
func (j *job) experimentRows(n, values int, read func(int, *experiment.Observations) error,
	consume func(int, *experiment.Observations)) error {
	rank, size := j.comm.Rank(), j.comm.Size()
	per := max(1, min(rowsPerChunk, n/(4*size)))
	chunks := (n + per - 1) / per
	rowsOf := func(k int) []int {
		rows := make([]int, 0, per)
		for r := k * per; r < min(n, (k+1)*per); r++ {
			rows = append(rows, r)
		}
		return rows
	}
	if rank != 0 {
		for k := rank; k < chunks; k += size {
			msg, failed := readObservations(rowsOf(k), read)
			if err := j.comm.Send(0, msg); err != nil {
				return err
			}
			if failed {
				break
			}
		}
		return errJobWorker
	}
	var firstErr error
	stopped := make([]bool, size) // processes that sent a failure
	for k := range chunks {
		p := k % size
		if p == 0 {
			if firstErr != nil {
				continue
			}
			firstErr = parallel.Map(context.Background(), rowsOf(k), parallel.Options{},
				func(_, _ int, row int) (*experiment.Observations, error) {
					obs := &experiment.Observations{}
					return obs, read(row, obs)
				},
				func(i int, obs *experiment.Observations) error {
					consume(k*per+i, obs)
					return nil
				})
			continue
		}
		if stopped[p] {
			continue
		}
		msg, err := j.comm.Recv(p)
		if err != nil {
			return err
		}
		take := consume
		if firstErr != nil {
			// Received so that no process waits forever, not taken.
			take = func(int, *experiment.Observations) {}
		}
		if err := takeObservations(msg, values, take); err != nil {
			stopped[p] = true
			if firstErr == nil {
				firstErr = err
			}
		}
	}
	return firstErr
}

// readObservations reads rows and encodes their observations, stopping at
// the first failing row; failed reports that it did.
func readObservations(rows []int, read func(int, *experiment.Observations) error) (msg []byte, failed bool) {
	var out []byte
	err := parallel.Map(context.Background(), rows, parallel.Options{},
		func(_, _ int, row int) (*experiment.Observations, error) {
			obs := &experiment.Observations{}
			return obs, read(row, obs)
		},
		func(i int, obs *experiment.Observations) error {
			out = appendObservations(out, rows[i], obs)
			return nil
		})
	if err != nil {
		out = append(out, obsFail)
		out = binary.AppendUvarint(out, uint64(len(err.Error())))
		out = append(out, err.Error()...)
	}
	return append(out, obsEnd), err != nil
}

// appendObservations encodes one row's observations: the row, the total
// time, the rate, and each function with a non-zero value, with all its
// values, bit for bit. Which functions are present is not sent: the
// experiment sets it from the row's executable (see experiment.RowSource).
func appendObservations(out []byte, row int, obs *experiment.Observations) []byte {
	out = append(out, obsRow)
	out = binary.AppendUvarint(out, uint64(row))
	out = binary.LittleEndian.AppendUint64(out, math.Float64bits(obs.Total))
	out = binary.LittleEndian.AppendUint64(out, math.Float64bits(obs.HZ))
	out = binary.AppendUvarint(out, uint64(obs.Bases))
	out = binary.AppendUvarint(out, uint64(len(obs.Base)))
	k := max(obs.Bases, 1)
	prev := -1
	for item := 0; item*k < len(obs.Base); item++ {
		vals := obs.Base[item*k : min(len(obs.Base), (item+1)*k)]
		nonZero := false
		for _, v := range vals {
			if math.Float64bits(v) != 0 {
				nonZero = true
			}
		}
		if !nonZero {
			continue
		}
		out = binary.AppendUvarint(out, uint64(item-prev)) // at least 1: 0 ends the list
		prev = item
		for _, v := range vals {
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(v))
		}
	}
	return binary.AppendUvarint(out, 0)
}

// takeObservations decodes a chunk of rows, each of the given number of
// values, and hands each to consume; it returns the failure the chunk
// ends with, if any.
func takeObservations(msg []byte, values int, consume func(int, *experiment.Observations)) error {
	bad := errors.New("mpi: a malformed list of observations")
	uv := func() (uint64, bool) {
		v, n := binary.Uvarint(msg)
		if n <= 0 {
			return 0, false
		}
		msg = msg[n:]
		return v, true
	}
	f64 := func() (float64, bool) {
		if len(msg) < 8 {
			return 0, false
		}
		v := math.Float64frombits(binary.LittleEndian.Uint64(msg))
		msg = msg[8:]
		return v, true
	}
	obs := &experiment.Observations{}
	for len(msg) > 0 {
		kind := msg[0]
		msg = msg[1:]
		switch kind {
		case obsEnd:
			return nil
		case obsFail:
			n, ok := uv()
			if !ok || n > uint64(len(msg)) {
				return bad
			}
			return errors.New(string(msg[:n]))
		case obsRow:
		default:
			return bad
		}
		row, ok1 := uv()
		total, ok2 := f64()
		hz, ok3 := f64()
		bases, ok4 := uv()
		size, ok5 := uv()
		if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || bases == 0 || size != uint64(values) || size%bases != 0 {
			return bad
		}
		if uint64(len(obs.Base)) != size {
			obs.Base = make([]float64, size)
		}
		clear(obs.Base)
		obs.Bases, obs.Total, obs.HZ = int(bases), total, hz
		item := -1
		for {
			d, ok := uv()
			if !ok {
				return bad
			}
			if d == 0 {
				break
			}
			if d > size {
				return bad
			}
			item += int(d)
			if uint64(item+1)*bases > size {
				return bad
			}
			for b := range int(bases) {
				v, ok := f64()
				if !ok {
					return bad
				}
				obs.Base[item*int(bases)+b] = v
			}
		}
		consume(int(row), obs)
	}
	return fmt.Errorf("%w: no end", bad)
}
