package linkorder

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/symtab"
)

// orderArc is a call arc of a test profile: caller and callee symbol
// indexes and the count.
type orderArc struct{ from, to, count int }

// orderGraph builds the model of a profile with no histogram: 16-byte
// functions at 0x1000, 0x1010, ... named names (mapped ones renamed as -R
// would have done), and the arcs, recorded in the given order.
func orderGraph(t *testing.T, names []string, mapped map[string]bool, arcs []orderArc, specs ...callgraph.SpecUse) *callgraph.Graph {
	t.Helper()
	const base = 0x1000
	le := binary.LittleEndian
	tab := &symtab.Table{Target: gmon.Target{Order: le, AddrSize: 8}, TextLow: base}
	for i, n := range names {
		tab.Syms = append(tab.Syms, symtab.Symbol{Name: n, Addr: uint64(base + 16*i), End: uint64(base + 16*i + 15), IsFunc: true, Mapped: mapped[n]})
	}
	tab.TextEnd = uint64(base + 16*len(names) - 1)
	data := []byte("gmon")
	data = le.AppendUint32(data, 1)
	data = append(data, make([]byte, 12)...)
	for _, a := range arcs {
		data = append(data, 1)
		data = le.AppendUint64(data, uint64(base+16*a.from+8))
		data = le.AppendUint64(data, uint64(base+16*a.to+4))
		data = le.AppendUint32(data, uint32(a.count))
	}
	p := gmon.NewProfile(tab.Target, gmon.FormatAuto)
	_, err := p.AddData(data, "test")
	require.NoError(t, err)
	return callgraph.Build(tab, p, callgraph.Options{Specs: specs})
}

func TestFunctionOrder(t *testing.T) {
	fn := func(n int) []string {
		var s []string
		for i := 1; i <= n; i++ {
			s = append(s, fmt.Sprintf("f%d", i))
		}
		return s
	}
	// 80 functions each called once by main and each calling hub once:
	// 81 called functions, so one (hub, the most used) is taken for the
	// first group, and as the last one taken it is never printed.
	hubNames := append(append([]string{"main"}, fn(80)...), "hub")
	var hubArcs []orderArc
	for i := 1; i <= 80; i++ {
		hubArcs = append(hubArcs, orderArc{0, i, 1}, orderArc{i, 81, 1})
	}
	// With 160 called functions two are taken: hub1 (printed) and hub2
	// (lost).
	twoHubNames := append(append([]string{"main"}, fn(158)...), "hub1", "hub2")
	var twoHubArcs []orderArc
	for i := 1; i <= 158; i++ {
		hub := 159
		if i%3 == 0 {
			hub = 160
		}
		twoHubArcs = append(twoHubArcs, orderArc{0, i, 1}, orderArc{i, hub, 1})
	}

	tests := []struct {
		name  string
		names []string
		arcs  []orderArc
		specs []callgraph.SpecUse
		want  []string
	}{
		{
			name:  "a chain within 99% of the calls, the rest by address",
			names: []string{"main", "a", "b", "c"},
			arcs:  []orderArc{{0, 1, 10}, {1, 2, 5}, {1, 3, 1}},
			want:  []string{"a", "b", "c", "main"},
		},
		{
			name:  "a chain grows at its nearer end",
			names: []string{"main", "a", "b", "c", "d"},
			arcs:  []orderArc{{0, 1, 1}, {1, 2, 100}, {2, 3, 90}, {4, 3, 80}, {1, 4, 1}},
			want:  []string{"a", "b", "c", "d", "main"},
		},
		{
			name:  "no arcs: every function is unused",
			names: []string{"main", "a"},
			want:  []string{"main", "a"},
		},
		{
			name:  "self-calls are not arcs and do not make a function used",
			names: []string{"main", "r"},
			arcs:  []orderArc{{1, 1, 50}},
			want:  []string{"main", "r"},
		},
		{
			name:  "the last function taken for the first group is lost",
			names: hubNames,
			arcs:  hubArcs,
			want:  append(fn(80), "main"),
		},
		{
			name:  "two taken, the first printed first, the second lost",
			names: twoHubNames,
			arcs:  twoHubArcs,
			want:  append(append([]string{"hub1"}, fn(158)...), "main"),
		},
		{
			name:  "a FROM/TO spec adds an arc between copies, which are printed",
			names: []string{"main", "f", "g"},
			arcs:  []orderArc{{0, 1, 3}, {0, 2, 1}},
			specs: []callgraph.SpecUse{{Table: callgraph.ExclArcs, Spec: "main/f"}},
			want:  []string{"main", "f", "g", "main", "f"},
		},
		{
			name:  "a spec without a slash adds no arc",
			names: []string{"main", "f", "g"},
			arcs:  []orderArc{{0, 1, 3}, {0, 2, 1}},
			specs: []callgraph.SpecUse{{Table: callgraph.ExclFlat, Spec: "f"}},
			want:  []string{"f", "g", "main"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := orderGraph(t, tc.names, nil, tc.arcs, tc.specs...)
			got := FunctionOrder(g)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestFileOrder(t *testing.T) {
	m, err := symtab.ParseFunctionMap([]byte("a.o:0 T fa\nb.o:0 T fb\nc.o:0 T fc\nd.o:0 T fd\nd.o:0 T dd\n"), "map")
	require.NoError(t, err)
	names := []string{"x", "a.o", "b.o", "d.o"}
	mapped := map[string]bool{"a.o": true, "b.o": true, "d.o": true}
	g := orderGraph(t, names, mapped, []orderArc{{1, 2, 5}, {0, 1, 2}, {0, 3, 1}})
	// a.o -> b.o is chained; d.o is mapped but on no mapped arc; c.o has
	// no symbol left.
	assert.Equal(t, []string{"a.o", "b.o", "d.o", "c.o"}, FileOrder(g, m))
}

// The copies a FROM/TO spec adds (see callgraph.SpecArcs) are linked run
// to run. Without calls every arc is placed (0 of 0 calls is never past the
// 99% mark); the copies' links make the chain loop, which gprof prints
// forever and egprof once round.
func TestFunctionOrderSpecCopiesLoop(t *testing.T) {
	g := orderGraph(t, []string{"a", "b", "a", "c", "b"}, nil, nil, callgraph.SpecUse{Table: callgraph.ExclArcs, Spec: "a/b"})
	assert.Equal(t, []string{"b", "a", "a", "b", "a", "b", "a", "c", "b"}, FunctionOrder(g))
}
