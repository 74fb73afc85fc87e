// Package testprof loads test programs' profiles into call graphs for
// egprof's tests.
package testprof

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/symtab"
)

// Graph builds the call graph of an executable and its (summed) gmon files
// with gprof's default options.
func Graph(t testing.TB, exe string, gmons ...string) *callgraph.Graph {
	t.Helper()
	tab, prof := Load(t, exe, gmons...)
	return callgraph.Build(tab, prof, callgraph.Options{})
}

// Load loads an executable's symbols with gprof's default options and sums
// its gmon files; the executable is closed when the test ends.
func Load(t testing.TB, exe string, gmons ...string) (*symtab.Table, *gmon.Profile) {
	t.Helper()
	tab, err := symtab.Load(exe, symtab.Options{})
	require.NoError(t, err)
	prof := gmon.NewProfile(tab.Target, gmon.FormatAuto)
	for _, name := range gmons {
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		_, err = prof.AddData(data, name)
		require.NoError(t, err)
	}
	return tab, prof
}
