package ranks

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInputs(t *testing.T) {
	names := []string{"gmon.rank0", "-", "run.sum"}
	in := NewInputs(names)
	require.Equal(t, 3, in.Len())
	in.SetRank(0, 7)
	in.SetData(1, nil) // standard input, empty
	in.SetSummary(2, true)
	want := []Input{
		{Name: "gmon.rank0", Rank: 7},
		{Name: "-", Data: []byte{}},
		{Name: "run.sum", Summary: true},
	}
	for i, w := range want {
		assert.Equal(t, w, in.At(i), "input %d", i)
		assert.Equal(t, w.Name, in.Name(i))
		assert.Equal(t, w.Rank, in.Rank(i))
		assert.Equal(t, w.Summary, in.IsSummary(i))
	}
	var got []Input
	for i, v := range in.All() {
		assert.Equal(t, len(got), i)
		got = append(got, v)
	}
	assert.Equal(t, want, got)
	assert.Equal(t, in, InputsOf(want...), "InputsOf makes the same inputs")
	assert.Same(t, &names[0], &in.Names()[0], "the names are the caller's")
}

// TestInputsCostPerFile checks the promise of Inputs: beyond the names
// (the caller's), a file costs 9 bytes.
func TestInputsCostPerFile(t *testing.T) {
	const n = 100_000
	names := make([]string, n)
	for i := range names {
		names[i] = "gmon.rank"
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	in := NewInputs(names)
	runtime.ReadMemStats(&after)
	require.Equal(t, n, in.Len())
	perFile := float64(after.TotalAlloc-before.TotalAlloc) / n
	assert.LessOrEqual(t, perFile, 9.1, "bytes allocated per file")
}
