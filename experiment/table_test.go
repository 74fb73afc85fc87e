package experiment

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeFiles creates the named files (contents unimportant) under dir.
func writeFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(dir, n)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o777))
		require.NoError(t, os.WriteFile(p, []byte("x"), 0o666))
	}
}

func TestReadTable(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, "prog", "prog2", "a/gmon.1", "a/gmon.2", "b/gmon.rank0.77", "b/gmon.rank1.78", "b/gmon.rank10.79")
	t.Run("TSV with numbers", func(t *testing.T) {
		path := filepath.Join(dir, "exp.tsv")
		require.NoError(t, os.WriteFile(path, []byte(
			"# two block sizes\n"+
				"gmon\tbinary\tnb\tlib\n"+
				"a/gmon.1\tprog\t80\tlam\n"+
				"\n"+
				"a/gmon.2\tprog2\t8e1\tmpich\n"), 0o666))
		e, err := ReadTable(path, TableOptions{})
		require.NoError(t, err)
		require.Len(t, e.Dims, 2)
		assert.True(t, e.Dims[0].Numeric)
		assert.Equal(t, []string{"80"}, e.Dims[0].Values, "80 and 8e1 are one number")
		assert.False(t, e.Dims[1].Numeric)
		assert.Equal(t, []string{"lam", "mpich"}, e.Dims[1].Values)
		require.Len(t, e.Rows, 2)
		assert.Equal(t, filepath.Join(dir, "a/gmon.2"), e.Rows[1].Gmon)
		assert.Equal(t, filepath.Join(dir, "prog2"), e.Rows[1].Binary)
		assert.Equal(t, 5, e.Rows[1].Line)
	})
	t.Run("CSV, glob, binary from the command line", func(t *testing.T) {
		path := filepath.Join(dir, "exp.csv")
		require.NoError(t, os.WriteFile(path, []byte("procs, gmon\n3, b/gmon.rank*\n1, a/gmon.1\n"), 0o666))
		_, err := ReadTable(path, TableOptions{Binary: "cmdline-prog"})
		if err == nil {
			t.Fatal("a missing command-line executable must be refused")
		}
		e, err := ReadTable(path, TableOptions{Binary: filepath.Join(dir, "prog")})
		require.NoError(t, err)
		require.Len(t, e.Dims, 2)
		assert.Equal(t, "rank", e.Dims[1].Name)
		assert.True(t, e.Dims[1].Implicit)
		assert.Equal(t, []string{"0", "1", "10"}, e.Dims[1].Values, "rank numbers from the names, numerically")
		require.Len(t, e.Rows, 4)
		for _, r := range e.Rows {
			assert.Equal(t, filepath.Join(dir, "prog"), r.Binary)
		}
		assert.Equal(t, "10", e.Value(2, 1))
		assert.Equal(t, "0", e.Value(3, 1), "a row naming one file is rank 0")
	})
}

func TestFromRuns(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, "prog", "g1", "g2")
	p := func(n string) string { return filepath.Join(dir, n) }
	e, err := FromRuns(p("prog"), []string{p("g1"), p("g2")})
	require.NoError(t, err)
	assert.Equal(t, "run", e.Dims[0].Name)
	assert.Equal(t, []string{p("g1"), p("g2")}, e.Dims[0].Values)
	_, err = FromRuns(p("prog"), []string{p("g1"), p("g1")})
	assert.ErrorContains(t, err, "given twice")
	_, err = FromRuns(p("prog"), []string{p("g1"), p("g3")})
	assert.ErrorContains(t, err, "g3: no such file or directory")
	_, err = FromRuns(p("prog"), []string{p("g1")})
	assert.ErrorContains(t, err, "at least two profiles")
}

// TestBadTables checks that each kind of bad experiment table gets an
// error naming the table, the line and the column.
func TestBadTables(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, "prog", "g1", "g2")
	cases := []struct {
		name, table string
		want        string
	}{
		{"missing gmon file", "gmon\tbinary\trun\ng1\tprog\ta\ngone\tprog\tb\n",
			"exp:3: column 1 (gmon): profile " + dir + "/gone: no such file or directory"},
		{"missing binary", "gmon\tbinary\trun\ng1\tnoprog\ta\n",
			"exp:2: column 2 (binary): executable " + dir + "/noprog: no such file or directory"},
		{"ragged row, short", "gmon\tbinary\trun\ng1\tprog\n",
			"exp:2: column 3 (run): the row has 2 fields but the header has 3"},
		{"ragged row, long", "gmon,binary,run\ng1,prog,a,extra\n",
			"exp:2: column 4 (beyond the header): the row has 4 fields but the header has 3"},
		{"no gmon", "run\tgmon\tbinary\na\t\tprog\n",
			"exp:2: column 2 (gmon): the row names no gmon file"},
		{"same dimension values", "gmon\tbinary\tlib\tnb\ng1\tprog\tlam\t80\ng2\tprog\tlam\t80.0\n",
			"exp:3: the same dimension values (lib=lam, nb=80) as line 2: every row needs its own"},
		{"glob without match", "gmon\tbinary\trun\nx*\tprog\ta\n",
			"exp:2: column 1 (gmon): " + dir + "/x* matches no file"},
		{"glob with a rank", "gmon\tbinary\trank\ng*\tprog\t3\n",
			"exp:2: column 3 (rank): a glob pattern in the gmon column takes each file's rank from its name: leave this cell empty"},
		{"no gmon column", "file\tbinary\trun\ng1\tprog\ta\n",
			"exp:1: the header has no gmon column"},
		{"aligned with spaces", "gmon      binary  run\ng1        prog    a\n",
			"exp:1: the header is one column \"gmon      binary  run\": separate columns with tabs or commas, not spaces"},
		{"no dimension", "gmon\tbinary\ng1\tprog\n",
			"exp:1: the table has no dimension"},
		{"header twice", "gmon\trun\tRun\ng1\ta\tb\n",
			"exp:1: column 3 (Run): the header names \"Run\" twice (also column 2)"},
		{"empty", "# nothing\n", "exp: the experiment table is empty"},
		{"no rows", "gmon\trun\n", "exp:1: the experiment table has a header but no rows"},
		{"no executable", "gmon\trun\ng1\ta\n", "exp:2: the row names no executable and none was given on the command line"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "exp")
			require.NoError(t, os.WriteFile(path, []byte(tc.table), 0o666))
			_, err := ReadTable(path, TableOptions{})
			require.Error(t, err)
			var te *TableError
			require.True(t, errors.As(err, &te), "%T", err)
			assert.Contains(t, err.Error(), tc.want[len("exp"):])
			assert.Equal(t, path, te.File)
		})
	}
}
