package bfd

import (
	"iter"
	"math/bits"
)

// chunkList is a list that grows by whole chunks and never moves what it
// holds. A slice grown by append is copied at each doubling, and in a
// short run each copy writes pages the process never touched before,
// which costs more than the work itself: the scan of one unit of a
// template-heavy C++ program (Eigen's benchmark) collects hundreds of
// thousands of DIEs. The chunks stay allocated when the list is emptied,
// so that a list reused from unit to unit is allocated once.
type chunkList[T any] struct {
	chunks [][]T // chunks[:cur+1] hold the list, in order
	cur    int   // the chunk being filled (0 when there is none yet)
	n      int   // the number of elements
}

// Chunk sizes, in elements: the first holds firstChunkLen and each next
// one twice as many as the one before, up to maxChunkLen, which the
// chunk numbered chunkDoublings reaches.
const (
	firstChunkLen  = 32
	chunkDoublings = 7
	maxChunkLen    = firstChunkLen << chunkDoublings
)

// push appends v.
func (l *chunkList[T]) push(v T) {
	if l.cur < len(l.chunks) {
		if c := l.chunks[l.cur]; len(c) < cap(c) {
			l.chunks[l.cur] = append(c, v)
			l.n++
			return
		}
	}
	l.pushToNext(v)
}

// pushToNext appends v to the next chunk, allocating it if needed.
func (l *chunkList[T]) pushToNext(v T) {
	if l.cur < len(l.chunks) && len(l.chunks[l.cur]) > 0 {
		l.cur++
	}
	if l.cur == len(l.chunks) {
		size := firstChunkLen << min(l.cur, chunkDoublings)
		l.chunks = append(l.chunks, make([]T, 0, size))
	}
	l.chunks[l.cur] = append(l.chunks[l.cur], v)
	l.n++
}

// parts returns the chunks holding the list, in order.
func (l *chunkList[T]) parts() [][]T {
	return l.chunks[:min(l.cur+1, len(l.chunks))]
}

// at returns the list's element i (0 <= i < l.n). Chunk k <=
// chunkDoublings starts at firstChunkLen*(2^k-1); the chunks after it all
// hold maxChunkLen.
func (l *chunkList[T]) at(i int) *T {
	const doubled = firstChunkLen * (1<<(chunkDoublings+1) - 1) // what chunks 0 to chunkDoublings hold
	if i < doubled {
		k := bits.Len(uint(i/firstChunkLen+1)) - 1
		return &l.chunks[k][i-firstChunkLen*(1<<k-1)]
	}
	i -= doubled
	return &l.chunks[chunkDoublings+1+i/maxChunkLen][i%maxChunkLen]
}

// all yields the list's elements with their positions, in order.
func (l *chunkList[T]) all() iter.Seq2[int, *T] {
	return func(yield func(int, *T) bool) {
		i := 0
		for _, c := range l.parts() {
			for k := range c {
				if !yield(i, &c[k]) {
					return
				}
				i++
			}
		}
	}
}

// reset empties the list, keeping its chunks.
func (l *chunkList[T]) reset() {
	for i := range l.parts() {
		l.chunks[i] = l.chunks[i][:0]
	}
	l.cur, l.n = 0, 0
}
