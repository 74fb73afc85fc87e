package callgraph_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/testenv"
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

// TestCheckBelongsRefusesAnotherBuildOfTheSameSource builds one small
// program at -O0 and at -O2 and runs each: a profile of one build against
// the other's executable passed the entry-point test (most of its arcs
// land within 64 bytes of some function's start), and printed wrong
// numbers without a word; its arcs do not enter right after a call
// instruction, where every arc mcount records enters.
func TestCheckBelongsRefusesAnotherBuildOfTheSameSource(t *testing.T) {
	testenv.Need(t, "gcc")
	src, err := filepath.Abs("../testdata/experiment/scale.c")
	require.NoError(t, err)
	dir := t.TempDir()
	prog, profile := map[string]string{}, map[string]string{}
	for _, b := range []string{"O0", "O2"} {
		prog[b] = filepath.Join(dir, "prog-"+b)
		out, err := exec.Command("gcc", "-pg", "-"+b, "-o", prog[b], src).CombinedOutput()
		require.NoError(t, err, "%s", out)
		cmd := exec.Command(prog[b], "300", "1", "0")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GMON_OUT_PREFIX="+filepath.Join(dir, b))
		out, err = cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		written, _ := filepath.Glob(filepath.Join(dir, b+".*"))
		require.Len(t, written, 1)
		profile[b] = written[0]
	}
	for exe, prof := range map[string]string{"O0": "O0", "O2": "O2"} {
		assert.NoError(t, belongCheck(t, prog[exe], profile[prof]), "own profile of %s", exe)
	}
	for exe, prof := range map[string]string{"O0": "O2", "O2": "O0"} {
		err := belongCheck(t, prog[exe], profile[prof])
		if assert.Error(t, err, "%s's profile against %s", prof, exe) {
			assert.Contains(t, err.Error(), "do not enter their callee right after a call instruction")
		}
	}
}
