// Package pairindex finds the elements of a growing slice by a pair of
// 64-bit keys: an open-addressing hash table of positions, far smaller and
// faster than a map keyed by the pair.
package pairindex

// Index holds position+1 of indexed elements in its slots (0: empty); at
// most two-thirds of the slots are used.
type Index struct{ slots []int32 }

// KeyFunc returns an element's key pair.
type KeyFunc[T any] func(*T) (uint64, uint64)

// New returns an index with room for about n elements.
func New(n int) Index {
	size := 16
	for size < n+n/2 {
		size *= 2
	}
	return Index{slots: make([]int32, size)}
}

func (x *Index) slot(a, b uint64) int {
	h := (a*0x9e3779b97f4a7c15 ^ b) * 0xbf58476d1ce4e5b9
	return int(h>>32) & (len(x.slots) - 1)
}

// Find returns the position in items of the element whose key is (a, b),
// or -1.
func Find[T any](x *Index, items []T, key KeyFunc[T], a, b uint64) int {
	if len(x.slots) == 0 {
		return -1
	}
	mask := len(x.slots) - 1
	for k := x.slot(a, b); ; k = (k + 1) & mask {
		v := x.slots[k]
		if v == 0 {
			return -1
		}
		if ka, kb := key(&items[v-1]); ka == a && kb == b {
			return int(v - 1)
		}
	}
}

// Insert indexes items[i], which Find does not know yet, growing the table
// (and indexing all of items) when it is full.
func Insert[T any](x *Index, items []T, key KeyFunc[T], i int) {
	if 3*len(items) > 2*len(x.slots) {
		*x = New(2 * len(items))
		for j := range items {
			place(x, items, key, j)
		}
		return
	}
	place(x, items, key, i)
}

// Reset makes room for about n elements and indexes all of items.
func Reset[T any](x *Index, items []T, key KeyFunc[T], n int) {
	*x = New(max(n, len(items)))
	for j := range items {
		place(x, items, key, j)
	}
}

func place[T any](x *Index, items []T, key KeyFunc[T], i int) {
	mask := len(x.slots) - 1
	k := x.slot(key(&items[i]))
	for x.slots[k] != 0 {
		k = (k + 1) & mask
	}
	x.slots[k] = int32(i + 1)
}
