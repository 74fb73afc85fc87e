package pprof

import (
	"bytes"
	"fmt"
	"github.com/egprof/egprof/symtab"
	"os/exec"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/internal/testprof"
	"github.com/egprof/egprof/stacks"
)

// loadGraph builds the call graph of an executable and its gmon files with
// gprof's default options.
func loadGraph(t testing.TB, exe string, gmons ...string) *callgraph.Graph {
	t.Helper()
	return testprof.Graph(t, exe, gmons...)
}

// exportRoundTrip exports d, writes it, parses it back with pprof's
// parser and checks it: valid, and encoded byte for byte as pprof's own
// encoder encodes what it parsed.
func exportRoundTrip(t testing.TB, d *diff.Profile, opt Options) (*profile.Profile, Stats) {
	t.Helper()
	var buf bytes.Buffer
	st, err := Write(&buf, d, opt)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(buf.Bytes(), []byte{0x1f, 0x8b}), "gzipped")
	p, err := profile.Parse(&buf)
	require.NoError(t, err)
	require.NoError(t, p.CheckValid())
	built, _, err := Build(d, opt)
	require.NoError(t, err)
	var theirs bytes.Buffer
	require.NoError(t, p.Copy().WriteUncompressed(&theirs))
	require.True(t, bytes.Equal(theirs.Bytes(), built.Marshal()), "encoded as google/pprof encodes it")
	require.Len(t, p.SampleType, 3)
	assert.Equal(t, "cpu", p.DefaultSampleType)
	assert.Equal(t, []string{"samples", "cpu", "calls"}, []string{p.SampleType[0].Type, p.SampleType[1].Type, p.SampleType[2].Type})
	assert.Equal(t, st.Samples, len(p.Sample))
	return p, st
}

// TestPProfSamples checks that the samples of the profile, parsed back,
// are the synthesised stacks (package stacks checks those against gprof's
// numbers): the same functions leaf first, their net values ('+' minus
// '-') as samples, cpu and calls, in the same order, the stacks whose
// values are all zero left out; single and differential profiles (two
// runs of one executable, two builds), under each set of bounds.
func TestPProfSamples(t *testing.T) {
	td := "../../testdata/"
	graph := func(dir, gm string) *callgraph.Graph {
		return loadGraph(t, td+dir+"/prog", td+dir+"/"+gm)
	}
	profiles := []struct {
		name string
		d    *diff.Profile
	}{
		{"demo", diff.Single(graph("demo", "gmon.out"), diff.Options{})},
		{"cycles", diff.Single(graph("progs/cycles", "gmon2.out"), diff.Options{})},
		{"multifile", diff.Single(graph("progs/multifile", "gmon.out"), diff.Options{})},
		{"demo-runs", diff.Subtract(graph("demo", "gmon.out"), graph("demo", "gmon2.out"), diff.Options{})},
		{"cxx-builds", diff.Subtract(graph("progs/cxx", "gmon.out"), graph("progs/cxx-O2", "gmon.out"), diff.Options{})},
	}
	bounds := []stacks.Options{{}, {MinWeight: 1}, {MaxDepth: 1}}
	for _, pr := range profiles {
		for _, b := range bounds {
			t.Run(fmt.Sprintf("%s/%+v", pr.name, b), func(t *testing.T) {
				r, err := stacks.Synthesise(pr.d, b)
				require.NoError(t, err)
				p, st := exportRoundTrip(t, pr.d, Options{Stacks: b})
				assert.Equal(t, r.Stats, st.Stats)
				assert.Equal(t, len(pr.d.Functions), st.Functions)
				assert.Equal(t, len(pr.d.Functions), st.Locations)
				var want [][]int64
				for _, s := range r.Stacks {
					v := s.Net()
					if v == (stacks.Values{}) {
						continue
					}
					row := []int64{v.Samples, v.Nanos, v.Calls}
					for _, f := range s.Funcs {
						row = append(row, int64(f)+1)
					}
					want = append(want, row)
				}
				var got [][]int64
				for _, s := range p.Sample {
					assert.NotEqual(t, []int64{0, 0, 0}, s.Value, "all-zero samples are left out")
					row := append([]int64(nil), s.Value...)
					for _, l := range s.Location {
						require.Len(t, l.Line, 1)
						assert.Equal(t, l.ID, l.Line[0].Function.ID)
						row = append(row, int64(l.ID))
					}
					got = append(got, row)
				}
				assert.Equal(t, want, got)
			})
		}
	}
}

// TestPProfContent checks the parts of the profile that are not values:
// functions, locations, the mapping and the comments.
func TestPProfContent(t *testing.T) {
	g := loadGraph(t, "../../testdata/progs/multifile/prog", "../../testdata/progs/multifile/gmon.out")
	d := diff.Single(g, diff.Options{})
	p, st := exportRoundTrip(t, d, Options{Naming: symtab.Naming{Demangle: true}})
	require.Len(t, p.Mapping, 1)
	m := p.Mapping[0]
	assert.Equal(t, "../../testdata/progs/multifile/prog", m.File)
	assert.True(t, m.HasFunctions)
	assert.True(t, m.HasFilenames)
	assert.True(t, m.HasLineNumbers)
	if readelf, err := exec.LookPath("readelf"); err == nil {
		out, err := exec.Command(readelf, "-n", "../../testdata/progs/multifile/prog").Output()
		require.NoError(t, err)
		assert.Contains(t, string(out), "Build ID: "+m.BuildID)
	}
	assert.Regexp(t, "^[0-9a-f]{40}$", m.BuildID)
	assert.Equal(t, len(d.Functions), len(p.Function))
	names := map[string]*profile.Function{}
	for k, f := range p.Function {
		names[f.Name] = f
		loc := p.Location[k]
		assert.Equal(t, f, loc.Line[0].Function)
		i := d.Functions[k].Plus.Entry
		assert.Equal(t, g.Syms.Syms[i].Addr, loc.Address)
		assert.Equal(t, g.Syms.Syms[i].Name, f.SystemName)
		src, ok := g.Syms.SymbolSource(i)
		if ok {
			assert.Equal(t, src.File, f.Filename)
			assert.Equal(t, int64(src.Line), f.StartLine)
		}
		assert.True(t, m.Start <= loc.Address && loc.Address < m.Limit, "%s in the mapping", f.Name)
	}
	// The two static helpers keep apart, named as gprof's index names them.
	assert.Contains(t, names, "helper (a.c)")
	assert.Contains(t, names, "helper (b.c)")
	assert.NotContains(t, names, "helper")
	assert.Len(t, p.Comments, 2)
	assert.Contains(t, p.Comments[1], fmt.Sprintf("%.4g of %.4g s", st.RoutedTime, st.TotalTime))
	assert.Equal(t, int64(1e9/float64(g.HZ)), p.Period)
	assert.Equal(t, "cpu", p.PeriodType.Type)
	assert.Equal(t, "nanoseconds", p.PeriodType.Unit)

	// C++ names are demangled as gprof prints them, the raw name kept as
	// the system name.
	gx := loadGraph(t, "../../testdata/progs/cxx/prog", "../../testdata/progs/cxx/gmon.out")
	px, _ := exportRoundTrip(t, diff.Single(gx, diff.Options{}), Options{Naming: symtab.Naming{Demangle: true}})
	found := false
	for _, f := range px.Function {
		if f.SystemName == "_ZNK3geo6shapes6Circle4areaEv" {
			found = true
			assert.Equal(t, "geo::shapes::Circle::area() const", f.Name)
		}
	}
	assert.True(t, found)
}
