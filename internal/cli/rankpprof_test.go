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

// TestRankPProfLabels exports the two ranks of testdata/progs/ranks with
// --ranks --pprof: each sample carries its rank, and each rank's flat self
// time per function (its samples' own frames) equals GNU gprof's flat
// profile of that rank's file.
func TestRankPProfLabels(t *testing.T) {
	const prog = "testdata/progs/ranks/prog"
	files := []string{"testdata/progs/ranks/gmon.out", "testdata/progs/ranks/gmon2.out"}
	out := filepath.Join(t.TempDir(), "ranks.pb.gz")
	_, stderr, code := runArgs(t, append([]string{"-b", "-P", "-Q", "--ranks", "--pprof=" + out, prog}, files...)...)
	require.Equal(t, 0, code, stderr)
	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	p, err := profile.Parse(f)
	require.NoError(t, err)

	self := map[int64]map[string]float64{} // rank -> function -> seconds
	for _, s := range p.Sample {
		ranks := s.NumLabel["rank"]
		require.Len(t, ranks, 1, "every sample carries one rank")
		r := ranks[0]
		if self[r] == nil {
			self[r] = map[string]float64{}
		}
		self[r][s.Location[0].Line[0].Function.Name] += float64(s.Value[1]) / 1e9
	}
	require.Len(t, self, len(files))
	for r, file := range files {
		for _, fn := range []string{"relax_rows", "local_norm"} {
			assert.InDelta(t, gprofSelf(t, fn, prog, file), self[int64(r)][fn], 0.005, "rank %d %s", r, fn)
		}
	}
	assert.True(t, strings.Contains(strings.Join(p.Comments, "\n"), "each sample carries its rank"))
}

// TestFileListInComments checks that a profile's comment names a few files
// whole and many by their number, first and last.
func TestFileListInComments(t *testing.T) {
	assert.Equal(t, "a b", fileList([]string{"a", "b"}))
	many := make([]string, 3000)
	for i := range many {
		many[i] = "gmon.rank" + strings.Repeat("9", i%3)
	}
	many[0], many[1], many[2999] = "gmon.rank0.1", "gmon.rank1.1", "gmon.rank2999.1"
	assert.Equal(t, "(3000 files) gmon.rank0.1 gmon.rank1.1 ... gmon.rank2999.1", fileList(many))
}
