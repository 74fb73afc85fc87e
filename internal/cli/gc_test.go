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
	assert.Zero(t, gcPercent(cfg(modeRanks, exe, small), noEnv), "rank mode")
}

// TestCollectAfterLoad checks which runs collect once their profiles are
// summed: those whose inputs are not small, in the classic and diff modes,
// unless GOGC is set.
func TestCollectAfterLoad(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "prog")
	large := filepath.Join(dir, "gmon.large")
	for name, size := range map[string]int64{exe: 1000, large: smallProfiles + 1} {
		if err := os.WriteFile(name, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(name, size); err != nil { // sparse
			t.Fatal(err)
		}
	}
	noEnv := func(string) (string, bool) { return "", false }
	withGOGC := func(k string) (string, bool) { return "100", k == "GOGC" }
	tests := []struct {
		name string
		mode mode
		env  func(string) (string, bool)
		want bool
	}{
		{"classic", modeClassic, noEnv, true},
		{"diff", modeDiff, noEnv, true},
		{"GOGC set", modeClassic, withGOGC, false},
		{"rank mode", modeRanks, noEnv, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &config{image: exe, gmonFiles: []string{large}}
			c.ext.mode = tt.mode
			tuneGC(c, tt.env)
			assert.Equal(t, tt.want, c.collectAfterLoad)
		})
	}
}
