package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/diff"
)

// figure1 is the example of Fig. 1 of the eGprof paper: two runs of a demo
// program (self seconds, calls, total seconds per call as printed there).
func figure1() *diff.Profile {
	g := &callgraph.Graph{HZ: 100, Dimen: "seconds", Abbrev: 's', Scale: 2}
	side := func(self float64, calls uint64, totalPerCall float64) diff.Side {
		s := diff.Side{Present: true, Entry: 0, Self: self, Samples: self * 100, Calls: calls}
		if calls > 0 {
			s.FlatChildren = totalPerCall*float64(calls) - self
		}
		return s
	}
	return &diff.Profile{Plus: g, Minus: g, Functions: []diff.Function{
		{Name: "f_d", Plus: side(5.51, 31, 0.18), Minus: side(2.04, 22, 0.09)},
		{Name: "f_c", Plus: side(3.19, 1, 8.52), Minus: side(1.91, 1, 3.76)},
		{Name: "main", Plus: side(1.15, 0, 0), Minus: side(3.08, 0, 0)},
		{Name: "f_b", Plus: side(1.09, 1, 1.27), Minus: side(1.70, 1, 1.89)},
	}}
}

func renderDiff(t *testing.T, fn func(*DiffText)) []string {
	t.Helper()
	var buf bytes.Buffer
	d := NewDiffText(&buf, figure1(), DiffOptions{TextOptions: TextOptions{Brief: true}, NoiseOff: true})
	fn(d)
	require.NoError(t, d.Flush())
	return strings.Split(buf.String(), "\n")
}

// The impact table of the paper's Fig. 1 (bottom): the numbers printed
// there, in the paper's order.
func TestImpactFigure1(t *testing.T) {
	lines := renderDiff(t, (*DiffText).Impact)
	want := [][]string{
		{"47.60", "5.51", "2.04", "3.47", "31", "22", "9", "XX", "f_d"},
		{"-26.47", "1.15", "3.08", "-1.93", "-", "-", "0", "XX", "main"},
		{"17.56", "3.19", "1.91", "1.28", "1", "1", "0", "XX", "f_c"},
		{"-8.37", "1.09", "1.70", "-0.61", "1", "1", "0", "XX", "f_b"},
	}
	for k, w := range want {
		assert.Equal(t, w, strings.Fields(lines[4+k]))
	}
}

// The differential flat profile of Fig. 1 (third table): impact share,
// cumulative absolute change, self change and call change as printed in
// the paper. (The paper's per-call columns follow no single rule: f_d's
// are its self change over its call change, f_c's and f_b's the '-' side
// minus the '+' side; egprof prints '+' per call minus '-' per call.)
func TestOldFormatFigure1(t *testing.T) {
	lines := renderDiff(t, (*DiffText).Flat)
	want := [][]string{
		{"47.60", "3.47", "3.47", "9"},
		{"-26.47", "5.40", "-1.93"},
		{"17.56", "6.68", "1.28", "0"},
		{"-8.37", "7.29", "-0.61", "0"},
	}
	for k, w := range want {
		f := strings.Fields(lines[5+k])
		name := f[len(f)-1]
		got := f[:len(w)]
		assert.Equal(t, w, got, name)
	}
	assert.Equal(t, "Each sample counts as 0.01 seconds.", lines[2])
	assert.True(t, strings.HasSuffix(lines[6], "main"))
	assert.Len(t, strings.Fields(lines[6]), 4, "main has no calls on either side: blank call columns")
	// The largest per-call change is f_c's total: 8.52 - 3.76 = 4.76 s, so
	// the unit is seconds; f_d's self per call is 5.51/31 - 2.04/22 = 0.085.
	assert.Contains(t, lines[4], "calls   s/call   s/call")
	assert.Equal(t, "0.09", strings.Fields(lines[5])[4])
	assert.Equal(t, "4.76", strings.Fields(lines[7])[5])
}
