package parallel

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWorkers(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	tests := []struct {
		workers, n, want int
	}{
		{4, 10, 4},
		{4, 3, 3},
		{4, 0, 1},
		{0, 1_000_000, procs},
		{-1, 1, 1},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Workers(tt.workers, tt.n), "Workers(%d, %d)", tt.workers, tt.n)
	}
}

// TestMapOrder: results come back in input order whatever order the
// workers finish in, and every input is processed once.
func TestMapOrder(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 8} {
		t.Run(fmt.Sprint(workers), func(t *testing.T) {
			const n = 200
			inputs := make([]int, n)
			for i := range inputs {
				inputs[i] = 3 * i
			}
			seed := rand.New(rand.NewPCG(uint64(workers), 1))
			delays := make([]time.Duration, n)
			for i := range delays {
				delays[i] = time.Duration(seed.IntN(200)) * time.Microsecond
			}
			var calls atomic.Int64
			var got []int
			err := Map(context.Background(), inputs, Options{Workers: workers},
				func(_, i, in int) (string, error) {
					calls.Add(1)
					time.Sleep(delays[i])
					return fmt.Sprint(in), nil
				},
				func(i int, out string) error {
					assert.Equal(t, fmt.Sprint(3*i), out)
					got = append(got, i)
					return nil
				})
			require.NoError(t, err)
			want := make([]int, n)
			for i := range want {
				want[i] = i
			}
			assert.Equal(t, want, got)
			assert.Equal(t, int64(n), calls.Load())
		})
	}
}

// TestMapFirstErrorInInputOrder: input 7 fails first, input 3 fails later;
// the error is input 3's, and only inputs 0 to 2 are consumed.
func TestMapFirstErrorInInputOrder(t *testing.T) {
	err3, err7 := errors.New("input 3"), errors.New("input 7")
	failed7 := make(chan struct{})
	inputs := make([]int, 20)
	var consumed []int
	err := Map(context.Background(), inputs, Options{Workers: 4},
		func(_, i, _ int) (int, error) {
			switch i {
			case 3:
				<-failed7
				return 0, err3
			case 7:
				close(failed7)
				return 0, err7
			}
			return i, nil
		},
		func(i, _ int) error {
			consumed = append(consumed, i)
			return nil
		})
	assert.ErrorIs(t, err, err3)
	assert.Equal(t, []int{0, 1, 2}, consumed)
}

// TestMapStops: after a failure (of fn, of consume, or ctx's cancellation)
// no input far beyond it is started and nothing after it is consumed.
func TestMapStops(t *testing.T) {
	boom := errors.New("boom")
	const n, workers, failAt = 1000, 3, 10
	tests := []struct {
		name    string
		fn      func(cancel func(), i int) error
		consume func(i int) error
		want    error
	}{
		{"fn fails", func(_ func(), i int) error {
			if i == failAt {
				return boom
			}
			return nil
		}, nil, boom},
		{"consume fails", nil, func(i int) error {
			if i == failAt {
				return boom
			}
			return nil
		}, boom},
		{"cancelled", func(cancel func(), i int) error {
			if i == failAt {
				cancel()
			}
			return nil
		}, nil, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var maxStarted atomic.Int64
			last := -1
			err := Map(ctx, make([]struct{}, n), Options{Workers: workers},
				func(_, i int, _ struct{}) (int, error) {
					lowerTo(&maxStarted, -int64(i)) // the highest i, negated
					if tt.fn != nil {
						return i, tt.fn(cancel, i)
					}
					return i, nil
				},
				func(i, _ int) error {
					last = i
					if tt.consume != nil {
						return tt.consume(i)
					}
					return nil
				})
			assert.ErrorIs(t, err, tt.want)
			assert.LessOrEqual(t, last, failAt)
			assert.Less(t, -maxStarted.Load(), int64(failAt+2*workers+1), "inputs started after the failure")
		})
	}
}

// TestMapProgress: one call per input, in order, on the calling goroutine
// (after the consume of the same input).
func TestMapProgress(t *testing.T) {
	const n = 50
	var calls [][2]int
	consumed := 0
	err := Map(context.Background(), make([]int, n), Options{Workers: 4, Progress: func(done, total int) {
		assert.Equal(t, consumed, done, "progress before its consume")
		calls = append(calls, [2]int{done, total})
	}},
		func(_, i, _ int) (int, error) { return i, nil },
		func(int, int) error { consumed++; return nil })
	require.NoError(t, err)
	want := make([][2]int, n)
	for i := range want {
		want[i] = [2]int{i + 1, n}
	}
	assert.Equal(t, want, calls)
}

// TestMapBoundedMemory: however slow the consumer, at most twice the
// number of workers results exist at once, and each worker index runs one
// call at a time.
func TestMapBoundedMemory(t *testing.T) {
	const n, workers = 300, 3
	var live, maxLive atomic.Int64
	busy := make([]atomic.Bool, workers)
	err := Map(context.Background(), make([]int, n), Options{Workers: workers},
		func(w, i, _ int) (int, error) {
			if !assert.True(t, w >= 0 && w < workers, "worker %d", w) {
				return 0, errors.New("bad worker")
			}
			assert.True(t, busy[w].CompareAndSwap(false, true), "worker %d runs two calls at once", w)
			defer busy[w].Store(false)
			v := live.Add(1)
			lowerTo(&maxLive, -v)
			return i, nil
		},
		func(i, _ int) error {
			if i%7 == 0 {
				time.Sleep(100 * time.Microsecond)
			}
			live.Add(-1)
			return nil
		})
	require.NoError(t, err)
	assert.LessOrEqual(t, -maxLive.Load(), int64(2*workers))
	assert.Zero(t, live.Load())
}

func TestMapEmpty(t *testing.T) {
	err := Map(context.Background(), nil, Options{},
		func(_, _ int, _ int) (int, error) { t.Fatal("fn called"); return 0, nil },
		func(int, int) error { t.Fatal("consume called"); return nil })
	require.NoError(t, err)
}

// TestMapNoGoroutineLeak: Map returns only once its goroutines are gone,
// whether it succeeds or stops early.
func TestMapNoGoroutineLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	boom := errors.New("boom")
	for k := range 20 {
		_ = Map(context.Background(), make([]int, 100), Options{Workers: 4},
			func(_, i, _ int) (int, error) {
				if i == 5*k {
					return 0, boom
				}
				return i, nil
			},
			func(int, int) error { return nil })
	}
	// Goroutines that have finished may take a moment to be counted out.
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before)
}
