package callgraph_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/symtab"
)

// belongCheck loads exe and the profile file and runs the belonging check.
func belongCheck(t *testing.T, exe, profile string) error {
	t.Helper()
	tab, err := symtab.Load(exe, symtab.Options{})
	require.NoError(t, err)
	data, err := os.ReadFile(profile)
	require.NoError(t, err)
	prof := gmon.NewProfile(tab.Target, gmon.FormatAuto)
	_, err = prof.AddData(data, profile)
	require.NoError(t, err)
	return callgraph.CheckBelongs(prof, tab)
}

// TestCheckBelongsAcceptsOwnProfiles runs the check on every test program
// with each of its own profiles (-O0 and -O2, C and C++, PIE and not,
// threads, 32-bit): none may be refused.
func TestCheckBelongsAcceptsOwnProfiles(t *testing.T) {
	progs, _ := filepath.Glob("../testdata/progs/*/prog")
	progs = append(progs, "../testdata/demo/prog")
	require.NotEmpty(t, progs)
	checked := 0
	for _, exe := range progs {
		for _, name := range []string{"gmon.out", "gmon2.out"} {
			profile := filepath.Join(filepath.Dir(exe), name)
			if _, err := os.Stat(profile); err != nil {
				continue
			}
			assert.NoError(t, belongCheck(t, exe, profile), "%s with %s", exe, profile)
			checked++
		}
	}
	assert.GreaterOrEqual(t, checked, 2*len(progs)-2)
}

// TestCheckBelongsRefusesForeignProfiles pairs profiles with executables
// they were not made by; each pair must be refused with the reason.
func TestCheckBelongsRefusesForeignProfiles(t *testing.T) {
	cases := []struct {
		name, exe, profile, reason string
	}{
		// The -O2 build's profile against the -O0 executable: the
		// forgotten --diff-exe.
		{"other build", "../testdata/progs/recursion/prog", "../testdata/progs/recursion-O2/gmon.out", "call arcs enter their callee"},
		{"other program", "../testdata/progs/recursion/prog", "../testdata/progs/cxx/gmon.out", ""},
		{"C++ profile, C program", "../testdata/demo/prog", "../testdata/progs/cxx/gmon.out", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := belongCheck(t, c.exe, c.profile)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.reason)
		})
	}
}
