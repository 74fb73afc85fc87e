package callgraph

import "sort"

// sortStable sorts idx stably with less over its values.
func sortStable(idx []int, less func(a, b int) bool) {
	sort.SliceStable(idx, func(i, j int) bool { return less(idx[i], idx[j]) })
}
