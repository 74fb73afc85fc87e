package mpi

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// run runs fn on every process of a local world of size processes and
// returns process 0's outcome.
func run[T any](size int, fn func(c Comm) T) T {
	comms := Local(size)
	out := make([]T, size)
	var wg sync.WaitGroup
	for r := range size {
		wg.Go(func() { out[r] = fn(comms[r]) })
	}
	wg.Wait()
	return out[0]
}

func concat(left, right []byte) ([]byte, error) {
	return append(append(append([]byte(nil), left...), ','), right...), nil
}

func TestReduceKeepsProcessOrder(t *testing.T) {
	for size := 1; size <= 17; size++ {
		t.Run(strconv.Itoa(size), func(t *testing.T) {
			type outcome struct {
				data []byte
				perr *PartError
				err  error
			}
			got := run(size, func(c Comm) outcome {
				d, pe, err := Reduce(c, []byte(strconv.Itoa(c.Rank())), nil, concat)
				return outcome{d, pe, err}
			})
			require.NoError(t, got.err)
			require.Nil(t, got.perr)
			want := make([]string, size)
			for i := range want {
				want[i] = strconv.Itoa(i)
			}
			assert.Equal(t, strings.Join(want, ","), string(got.data))
		})
	}
}

func TestReduceReportsEarliestFailure(t *testing.T) {
	cases := []struct {
		name    string
		size    int
		failing map[int]int // process -> input that fails there
		want    int         // input reported
	}{
		{"one process", 1, map[int]int{0: 3}, 3},
		{"last of four", 4, map[int]int{3: 31}, 31},
		{"two failures, the earlier input wins", 8, map[int]int{6: 60, 3: 30, 5: 50}, 30},
		{"process 0 fails", 5, map[int]int{0: 2, 4: 40}, 2},
		{"odd size", 7, map[int]int{6: 61}, 61},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := run(tc.size, func(c Comm) *PartError {
				var pe *PartError
				if in, ok := tc.failing[c.Rank()]; ok {
					pe = &PartError{Input: in, Msg: fmt.Sprintf("input %d is bad", in)}
				}
				_, perr, err := Reduce(c, []byte{byte(c.Rank())}, pe, concat)
				require.NoError(t, err)
				return perr
			})
			require.NotNil(t, got)
			assert.Equal(t, tc.want, got.Input)
			assert.Equal(t, fmt.Sprintf("input %d is bad", tc.want), got.Msg)
		})
	}
}

func TestReduceMergeFailure(t *testing.T) {
	// A merge that refuses to join process 2's part to the rest: the
	// failure reaches process 0 with its input.
	got := run(4, func(c Comm) *PartError {
		_, perr, err := Reduce(c, []byte{byte(c.Rank())}, nil, func(l, r []byte) ([]byte, error) {
			if r[0] == 2 {
				return nil, &PartError{Input: 20, Msg: "incompatible"}
			}
			return append(append([]byte(nil), l...), r...), nil
		})
		require.NoError(t, err)
		return perr
	})
	require.NotNil(t, got)
	assert.Equal(t, PartError{Input: 20, Msg: "incompatible"}, *got)
}

func TestShareCoversInputsInOrder(t *testing.T) {
	cases := []struct {
		name  string
		sizes []int64
		procs int
	}{
		{"equal sizes", []int64{10, 10, 10, 10, 10, 10, 10, 10}, 4},
		{"one big file", []int64{1000, 1, 1, 1, 1, 1, 1, 1}, 4},
		{"more processes than files", []int64{5, 7}, 4},
		{"empty files", []int64{0, 0, 0, 0}, 2},
		{"no files", nil, 3},
		{"growing", []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			next := 0
			var total, largest float64
			for _, s := range tc.sizes {
				total += float64(max(s, 1))
				largest = max(largest, float64(max(s, 1)))
			}
			for p := range tc.procs {
				lo, hi := Share(tc.sizes, p, tc.procs)
				require.Equal(t, next, lo, "process %d starts where %d ended", p, p-1)
				require.LessOrEqual(t, lo, hi)
				var mine float64
				for _, s := range tc.sizes[lo:hi] {
					mine += float64(max(s, 1))
				}
				// Each run is within one file of an even share.
				assert.LessOrEqual(t, mine, total/float64(tc.procs)+largest, "process %d", p)
				next = hi
			}
			assert.Equal(t, len(tc.sizes), next)
		})
	}
	// Balanced by size, not count: the big file is a run of its own.
	lo, hi := Share([]int64{1000, 1, 1, 1, 1, 1, 1, 1}, 0, 2)
	assert.Equal(t, [2]int{0, 1}, [2]int{lo, hi})
}

func TestSingle(t *testing.T) {
	var c Comm = Single{}
	assert.Equal(t, 0, c.Rank())
	assert.Equal(t, 1, c.Size())
	d, err := c.Bcast([]byte("x"))
	require.NoError(t, err)
	assert.Equal(t, "x", string(d))
	assert.Error(t, c.Send(1, nil))
	_, err = c.Recv(1)
	assert.Error(t, err)
	got, perr, err := Reduce(c, []byte("only"), nil, concat)
	require.NoError(t, err)
	require.Nil(t, perr)
	assert.Equal(t, "only", string(got))
}

func TestLocalSizeAndLaunched(t *testing.T) {
	cases := []struct {
		name     string
		env      map[string]string
		local    int
		ok       bool
		launched bool
	}{
		{"alone", nil, 0, false, false},
		{"Open MPI", map[string]string{"OMPI_COMM_WORLD_SIZE": "8", "OMPI_COMM_WORLD_LOCAL_SIZE": "4"}, 4, true, true},
		{"MPICH", map[string]string{"PMI_RANK": "0", "MPI_LOCALNRANKS": "2"}, 2, true, true},
		{"srun with PMIx, no local count", map[string]string{"PMIX_RANK": "3"}, 0, false, true},
		{"a bad count", map[string]string{"OMPI_COMM_WORLD_SIZE": "2", "OMPI_COMM_WORLD_LOCAL_SIZE": "x"}, 0, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, v := range []string{"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK", "MPI_LOCALNRANKS"} {
				t.Setenv(v, tc.env[v])
			}
			n, ok := LocalSize()
			assert.Equal(t, tc.local, n)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.launched, Launched())
		})
	}
}
