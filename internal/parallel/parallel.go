// Package parallel runs a function over many inputs on several goroutines
// and hands the results back in input order, with bounded memory and the
// error of the earliest failing input.
package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Options are the settings of Map.
type Options struct {
	// Workers is the number of inputs processed at once; 0 (or less)
	// means one per processor (GOMAXPROCS).
	Workers int
	// Progress, if set, is called after each result is consumed, in input
	// order and on the goroutine that called Map, with the number of
	// inputs done and their total.
	Progress func(done, total int)
}

// Workers is the number of goroutines Map runs fn on for n inputs when
// asked for workers: workers (one per processor if 0 or less), at most n,
// at least 1. Callers size per-worker state with it.
func Workers(workers, n int) int {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return max(1, min(workers, n))
}

// Map calls fn for every input, on Workers(opt.Workers, len(inputs))
// goroutines, and calls consume with each result in input order, on the
// calling goroutine. worker, passed to fn, tells the goroutines apart
// (0 <= worker < Workers(...)), so that fn can keep per-worker state in a
// slice without locking: one worker runs one fn call at a time.
//
// Memory stays bounded whatever the number of inputs: an input is started
// only when fewer than twice the number of workers have been started and
// not yet consumed, so at most that many results exist at any time (those
// being computed and those waiting for an earlier one).
//
// Map stops at the first failure in input order: when fn fails for input
// i, every input before i is still processed and consumed, and if none of
// them fails, fn's error for i is returned; inputs after i are no longer
// started. An error returned by consume, or the cancellation of ctx, stops
// Map the same way. The results of inputs after the failure are dropped.
// Map returns only once every fn call it started has returned.
func Map[In, Out any](ctx context.Context, inputs []In, opt Options,
	fn func(worker, i int, in In) (Out, error),
	consume func(i int, out Out) error) error {
	n := len(inputs)
	if n == 0 {
		return ctx.Err()
	}
	workers := Workers(opt.Workers, n)
	window := 2 * workers
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type result struct {
		out Out
		err error
	}
	// Input i's result goes to slot i%window: the inputs started and not
	// yet consumed are at most window consecutive ones, so a slot is
	// always empty when its input is started.
	slots := make([]chan result, window)
	for k := range slots {
		slots[k] = make(chan result, 1)
	}
	started := make(chan struct{}, window) // one token per input in flight
	var failedAt atomic.Int64              // the lowest input fn failed for
	failedAt.Store(int64(n))

	var wg sync.WaitGroup
	jobs := make(chan int)
	wg.Go(func() {
		defer close(jobs)
		for i := range n {
			if int64(i) > failedAt.Load() {
				return
			}
			select {
			case started <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	})
	for w := range workers {
		wg.Go(func() {
			for i := range jobs {
				out, err := fn(w, i, inputs[i])
				if err != nil {
					lowerTo(&failedAt, int64(i))
				}
				slots[i%window] <- result{out, err}
			}
		})
	}
	finish := func(err error) error {
		cancel()
		wg.Wait()
		return err
	}
	for i := range n {
		var r result
		select {
		case r = <-slots[i%window]:
		case <-ctx.Done():
			return finish(ctx.Err())
		}
		if r.err != nil {
			return finish(r.err)
		}
		if err := consume(i, r.out); err != nil {
			return finish(err)
		}
		<-started
		if opt.Progress != nil {
			opt.Progress(i+1, n)
		}
	}
	return finish(nil)
}

// lowerTo sets a to v if v is lower.
func lowerTo(a *atomic.Int64, v int64) {
	for {
		cur := a.Load()
		if v >= cur || a.CompareAndSwap(cur, v) {
			return
		}
	}
}
