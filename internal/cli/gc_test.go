package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestGCPercent checks which inputs get more room for the collector: small
// profiles of small executables, unless GOGC is set or a file is missing.
func TestGCPercent(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, size int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(p, int64(size)); err != nil { // sparse
			t.Fatal(err)
		}
		return p
	}
	exe := write("prog", 1000)
	bigExe := write("big", smallExecutable+1)
	small := write("gmon.out", 1000)
	large := write("gmon.large", smallProfiles+1)
	noEnv := func(string) (string, bool) { return "", false }
	withGOGC := func(k string) (string, bool) { return "100", k == "GOGC" }
	cfg := func(m mode, image string, files ...string) *config {
		c := &config{image: image, gmonFiles: files}
		c.ext.mode = m
		return c
	}
	assert.Equal(t, smallGCPercent, gcPercent(cfg(modeClassic, exe, small), noEnv))
	assert.Equal(t, smallGCPercent, gcPercent(cfg(modeDiff, exe, small), noEnv))
	assert.Zero(t, gcPercent(cfg(modeClassic, exe, small), withGOGC), "GOGC set")
	assert.Zero(t, gcPercent(cfg(modeClassic, exe, large), noEnv), "large profile")
	assert.Zero(t, gcPercent(cfg(modeClassic, exe, small, small, large), noEnv), "profiles summed")
	assert.Zero(t, gcPercent(cfg(modeClassic, bigExe, small), noEnv), "large executable")
	assert.Zero(t, gcPercent(cfg(modeClassic, exe, filepath.Join(dir, "missing")), noEnv), "missing profile")
	assert.Zero(t, gcPercent(cfg(modeClassic, exe, "-"), noEnv), "profile on stdin")
	assert.Zero(t, gcPercent(cfg(modeRanks, exe, small), noEnv), "rank mode, summed profile")
	analysisOnly := cfg(modeRanks, exe, small)
	analysisOnly.userSpecified = styleFlat | styleGraph
	assert.Equal(t, ranksGCPercent, gcPercent(analysisOnly, noEnv), "rank analysis only (-P -Q)")
	assert.Zero(t, gcPercent(analysisOnly, withGOGC), "rank analysis only, GOGC set")
	analysisOnly.ext.rank.saveSummary = "s.sum"
	assert.Zero(t, gcPercent(analysisOnly, noEnv), "rank analysis saving a summary")
}

// TestGCPlan checks the collector settings of runs whose inputs are not
// small: a collection once the profiles are summed in the classic and diff
// modes, and a lower growth target in diff mode, unless GOGC is set.
func TestGCPlan(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "prog")
	large := filepath.Join(dir, "gmon.large")
	writeSparse(t, map[string]int64{exe: 1000, large: smallProfiles + 1})
	noEnv := func(string) (string, bool) { return "", false }
	withGOGC := func(k string) (string, bool) { return "100", k == "GOGC" }
	tests := []struct {
		name        string
		mode        mode
		env         func(string) (string, bool)
		wantPercent int
		wantLoaded  loadedPlan
	}{
		{"classic", modeClassic, noEnv, 0, loadedPlan{collect: true, percent: loadedGCPercent}},
		{"diff", modeDiff, noEnv, largeDiffGCPercent, loadedPlan{collect: true}},
		{"GOGC set", modeClassic, withGOGC, 0, loadedPlan{}},
		{"GOGC set, diff", modeDiff, withGOGC, 0, loadedPlan{}},
		{"rank mode", modeRanks, noEnv, 0, loadedPlan{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &config{image: exe, gmonFiles: []string{large}}
			c.ext.mode = tt.mode
			p, loaded := gcPlan(c, tt.env)
			assert.Equal(t, tt.wantPercent, p)
			assert.Equal(t, tt.wantLoaded, loaded)
		})
	}
	// Small inputs get more room and no collection.
	small := filepath.Join(dir, "gmon.out")
	if err := os.WriteFile(small, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &config{image: exe, gmonFiles: []string{small}}
	c.ext.mode = modeDiff
	p, loaded := gcPlan(c, noEnv)
	assert.Equal(t, smallGCPercent, p)
	assert.Equal(t, loadedPlan{}, loaded)
}

// TestOneProcessor checks which runs use one processor, and which give
// the others back after loading: the classic report, unless GOMAXPROCS is
// set; small inputs keep one processor throughout, unless the executable
// is tiny.
func TestOneProcessor(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "prog")
	tiny := filepath.Join(dir, "tiny")
	small := filepath.Join(dir, "gmon.out")
	large := filepath.Join(dir, "gmon.large")
	writeSparse(t, map[string]int64{exe: oneProcessorFrom, tiny: oneProcessorFrom - 1, small: 1000, large: smallProfiles + 1})
	noEnv := func(string) (string, bool) { return "", false }
	withProcs := func(k string) (string, bool) { return "2", k == "GOMAXPROCS" }
	tests := []struct {
		name          string
		mode          mode
		exe, gmon     string
		env           func(string) (string, bool)
		one, giveBack bool
	}{
		{"classic, large", modeClassic, exe, large, noEnv, true, true},
		{"classic, large, tiny executable", modeClassic, tiny, large, noEnv, true, true},
		{"classic, small", modeClassic, exe, small, noEnv, true, false},
		{"classic, small, tiny executable", modeClassic, tiny, small, noEnv, false, false},
		{"GOMAXPROCS set", modeClassic, exe, large, withProcs, false, false},
		{"GOMAXPROCS set, small", modeClassic, exe, small, withProcs, false, false},
		{"diff", modeDiff, exe, large, noEnv, false, false},
		{"rank mode", modeRanks, exe, large, noEnv, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &config{image: tt.exe, gmonFiles: []string{tt.gmon}}
			c.ext.mode = tt.mode
			one, giveBack := oneProcessor(c, tt.env)
			assert.Equal(t, tt.one, one, "one processor")
			assert.Equal(t, tt.giveBack, giveBack, "processors given back after loading")
		})
	}
}

// writeSparse makes each named file a sparse file of the given size.
func writeSparse(t *testing.T, files map[string]int64) {
	t.Helper()
	for name, size := range files {
		if err := os.WriteFile(name, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(name, size); err != nil {
			t.Fatal(err)
		}
	}
}
