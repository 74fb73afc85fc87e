package testenv

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// report is GNU gprof 2.40's -b output for testdata/progs/recursion, cut
// to a few rows and entries, with one C++ row and entry added in gprof's
// layout (a name with spaces).
const report = `Flat profile:

Each sample counts as 0.01 seconds.
  %   cumulative   self              self     total           
 time   seconds   seconds    calls  ms/call  ms/call  name    
 61.75      0.19     0.19        1   185.26   185.26  fib
  3.34      0.30     0.01  2251500     0.00     0.00  is_even
  0.00      0.30     0.00                             std::vector<int, std::allocator<int> >::size() const

			Call graph


granularity: each sample hit covers 2 byte(s) for 3.33% of 0.30 seconds

index % time    self  children    called     name
                                                 <spontaneous>
[1]    100.0    0.00    0.30                 main [1]
                0.19    0.00       1/1           fib [2]
                0.01    0.00    3000/3000        is_even <cycle 1> [7]
-----------------------------------------------
                             18454928             fib [2]
                0.19    0.00       1/1           main [1]
[2]     61.7    0.19    0.00       1+18454928 fib [2]
                             18454928             fib [2]
-----------------------------------------------
[6]      3.3    0.01    0.00    3000+4498500 <cycle 1 as a whole> [6]
                0.01    0.00 2251500             is_even <cycle 1> [7]
                0.00    0.00      40+94          mix_heap <cycle 1> [23]
-----------------------------------------------
                0.00    0.00       2/2           main (1)
[12]     0.0    0.00    0.00       2         std::vector<int, std::allocator<int> >::size() const [12]
-----------------------------------------------

Index by function name
`

func TestParseFlat(t *testing.T) {
	rows, err := ParseFlat(report)
	require.NoError(t, err)
	assert.Equal(t, []FlatRow{
		{Name: "fib", Percent: 61.75, Cumulative: 0.19, Self: 0.19, HasCalls: true, Calls: 1, SelfPerCall: 185.26, TotalPerCall: 185.26},
		{Name: "is_even", Percent: 3.34, Cumulative: 0.30, Self: 0.01, HasCalls: true, Calls: 2251500},
		{Name: "std::vector<int, std::allocator<int> >::size() const", Cumulative: 0.30},
	}, rows)

	_, err = ParseFlat("no profile here")
	assert.Error(t, err)
	_, err = ParseFlat(" time   seconds\n 1.0 x fib\n")
	assert.ErrorContains(t, err, "not a row")
}

func TestParseCallGraph(t *testing.T) {
	entries, err := ParseCallGraph(report)
	require.NoError(t, err)
	require.Len(t, entries, 4)

	main := entries[0]
	assert.Equal(t, 1, main.Index)
	assert.Equal(t, "main", main.Name)
	assert.True(t, main.Spontaneous)
	assert.Empty(t, main.Callers)
	assert.Equal(t, "", main.Called)
	assert.Equal(t, []CallGraphLine{
		{Name: "fib", Index: 2, HasTimes: true, Self: 0.19, Count: 1, Total: 1, HasTotal: true},
		{Name: "is_even", Cycle: 1, Index: 7, HasTimes: true, Self: 0.01, Count: 3000, Total: 3000, HasTotal: true},
	}, main.Callees)

	fib := entries[1]
	assert.Equal(t, "1+18454928", fib.Called)
	assert.False(t, fib.Spontaneous)
	assert.Equal(t, []CallGraphLine{
		{Name: "fib", Index: 2, Count: 18454928},
		{Name: "main", Index: 1, HasTimes: true, Self: 0.19, Count: 1, Total: 1, HasTotal: true},
	}, fib.Callers)
	assert.Equal(t, []CallGraphLine{{Name: "fib", Index: 2, Count: 18454928}}, fib.Callees)

	cycle := entries[2]
	assert.True(t, cycle.WholeCycle)
	assert.Equal(t, 1, cycle.Cycle)
	assert.Equal(t, "<cycle 1 as a whole>", cycle.Name)
	assert.Equal(t, "3000+4498500", cycle.Called)
	assert.Equal(t, 0.01, cycle.Self)
	assert.Equal(t, []CallGraphLine{
		{Name: "is_even", Cycle: 1, Index: 7, HasTimes: true, Self: 0.01, Count: 2251500},
		{Name: "mix_heap", Cycle: 1, Index: 23, HasTimes: true, Count: 40, SelfCalls: 94},
	}, cycle.Callees)

	size := entries[3]
	assert.Equal(t, "std::vector<int, std::allocator<int> >::size() const", size.Name)
	assert.Equal(t, 12, size.Index)
	assert.Equal(t, "2", size.Called)
	assert.Equal(t, []CallGraphLine{{Name: "main", Index: 1, HasTimes: true, Count: 2, Total: 2, HasTotal: true}}, size.Callers)

	_, err = ParseCallGraph("Flat profile:\n")
	assert.Error(t, err)
	_, err = ParseCallGraph("index % time\nsomething else\n")
	assert.ErrorContains(t, err, "not an entry's line")
}
