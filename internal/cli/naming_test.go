package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The multifile test program has a static function helper in a.c and
// another in b.c; gprof's index tells them apart as "helper (a.c)" and
// "helper (b.c)".
const (
	multiProg  = "testdata/progs/multifile/prog"
	multiGmon  = "testdata/progs/multifile/gmon.out"
	multiGmon2 = "testdata/progs/multifile/gmon2.out"
)

// TestStaticNamesInOwnOutputs checks that egprof's own outputs spell the two
// static helpers as gprof's index does, and follow -L.
func TestStaticNamesInOwnOutputs(t *testing.T) {
	index, _, code := runArgs(t, "-b", "-q", multiProg, multiGmon)
	require.Equal(t, 0, code)
	require.Contains(t, index, "helper (a.c)", "gprof's index")
	require.Contains(t, index, "helper (b.c)", "gprof's index")

	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"impact table", []string{"-b", "-P", "-Q", "--impact", multiProg, multiGmon, "--diff=" + multiGmon2},
			[]string{"helper (a.c)", "helper (b.c)"}},
		{"differential call graph and index", []string{"-b", "-p", "-q", multiProg, multiGmon, "--diff=" + multiGmon2},
			[]string{"helper (a.c) [", "helper (b.c) ["}},
		{"experiment tables", []string{"-b", "--runs", "--threshold=0", "--show-noise", multiProg, multiGmon, multiGmon2},
			[]string{"helper (a.c)  self s", "helper (b.c)  self s"}},
		{"rank tables", []string{"-b", "-P", "-Q", "--ranks", multiProg, multiGmon, multiGmon2},
			[]string{"computation     5000   0.28284  helper (b.c)", "computation     4500   0.23570  helper (a.c)"}},
		{"-L: whole paths", []string{"-b", "-L", "-P", "-Q", "--impact", multiProg, multiGmon, "--diff=" + multiGmon2},
			[]string{"helper (./testdata/progs/multifile/a.c)", "helper (./testdata/progs/multifile/b.c)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := runArgs(t, c.args...)
			require.Equal(t, 0, code, stderr)
			for _, w := range c.want {
				assert.Contains(t, stdout, w)
			}
			for _, line := range strings.Split(stdout, "\n") {
				assert.False(t, strings.HasSuffix(strings.TrimRight(line, " ~"), " helper"), "a bare helper row: %q", line)
			}
		})
	}
}

// TestStaticNamesInFiles checks the graph files and the pprof export: the
// two static helpers keep apart under gprof's index spelling, and -T keeps
// C++ names raw there too.
func TestStaticNamesInFiles(t *testing.T) {
	dir := t.TempDir()
	gml, pb := filepath.Join(dir, "g.gml"), filepath.Join(dir, "p.pb.gz")
	// --node-thres=0: every function, changed or not.
	_, stderr, code := runArgs(t, "-b", "-P", "-Q", "--gml="+gml, "--node-thres=0", "--pprof="+pb, multiProg, multiGmon, "--diff="+multiGmon2)
	require.Equal(t, 0, code, stderr)
	data, err := os.ReadFile(gml)
	require.NoError(t, err)
	assert.Contains(t, string(data), `label "helper (a.c)"`)
	assert.Contains(t, string(data), `label "helper (b.c)"`)
	f, err := os.Open(pb)
	require.NoError(t, err)
	defer f.Close()
	prof, err := profile.Parse(f)
	require.NoError(t, err)
	var names []string
	for _, fn := range prof.Function {
		names = append(names, fn.Name)
	}
	assert.Contains(t, names, "helper (a.c)")
	assert.Contains(t, names, "helper (b.c)")

	const cxxProg, cxxGmon = "testdata/progs/cxx/prog", "testdata/progs/cxx/gmon.out"
	for _, c := range []struct {
		flag, want, not string
	}{
		{"-b", "std::sqrt(float)", "_ZSt4sqrtf"},
		{"-T", "_ZSt4sqrtf", "std::sqrt(float)"},
		{"--no-demangle", "_ZSt4sqrtf", "std::sqrt(float)"},
	} {
		_, stderr, code := runArgs(t, c.flag, "-P", "-Q", "--gml="+gml, cxxProg, cxxGmon)
		require.Equal(t, 0, code, stderr)
		data, err := os.ReadFile(gml)
		require.NoError(t, err)
		assert.Contains(t, string(data), `label "`+c.want, c.flag)
		assert.NotContains(t, string(data), `label "`+c.not, c.flag)
	}
}
