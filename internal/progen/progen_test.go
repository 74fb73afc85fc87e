package progen

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/testenv"
)

func TestGenerateDeterministic(t *testing.T) {
	for seed := int64(-3); seed < 50; seed++ {
		a, b := MustGenerate(seed), MustGenerate(seed)
		require.Equal(t, a.Source, b.Source, "seed %d", seed)
		require.Equal(t, a.Funcs, b.Funcs, "seed %d", seed)
	}
	assert.NotEqual(t, MustGenerate(1).Source, MustGenerate(2).Source)
}

func TestGenerateShape(t *testing.T) {
	cfg := DefaultConfig()
	roles := map[Role]int{}
	cycles, selfRec, statics := 0, 0, 0
	for seed := range int64(200) {
		p := MustGenerate(seed)
		n := len(p.Funcs) - 1 // main
		require.GreaterOrEqual(t, n, cfg.MinFuncs, "seed %d", seed)
		require.LessOrEqual(t, n, cfg.MaxFuncs, "seed %d", seed)
		require.LessOrEqual(t, p.Cycles, cfg.MaxCycles, "seed %d", seed)
		assert.GreaterOrEqual(t, p.EstimatedCPU, cfg.MinCPU/2, "seed %d", seed)
		assert.LessOrEqual(t, p.EstimatedCPU, cfg.MaxCPU+time.Duration(cfg.MaxHotCalls)*callCostNS, "seed %d", seed)
		names := map[string]bool{}
		for _, f := range p.Funcs {
			require.False(t, names[f.Name], "seed %d: duplicate %s", seed, f.Name)
			names[f.Name] = true
			roles[f.Role]++
			if f.SelfRecursive {
				selfRec++
			}
			if f.Static {
				statics++
			}
			switch f.Role {
			case RoleUnreachable:
				assert.Zero(t, f.Calls, "seed %d: %s", seed, f.Name)
			case RoleHot:
				assert.GreaterOrEqual(t, f.Calls, cfg.MinHotCalls, "seed %d", seed)
			default:
				assert.Positive(t, f.Calls, "seed %d: %s (%v)", seed, f.Name, f.Role)
			}
		}
		cycles += p.Cycles
		assert.Contains(t, p.Source, "int main(void)\n")
	}
	for r := RoleMain; r <= RoleThread; r++ {
		assert.Positive(t, roles[r], "no function with role %v in 200 programs", r)
	}
	assert.Positive(t, cycles)
	assert.Positive(t, selfRec)
	assert.Positive(t, statics)
}

func TestConfigCheck(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxFuncs = 2
	_, err := Generate(1, cfg)
	require.Error(t, err)
	cfg = DefaultConfig()
	cfg.MinFuncs, cfg.MaxFuncs = 1, 1
	p, err := Generate(1, cfg)
	require.NoError(t, err)
	require.Len(t, p.Funcs, 2)
}

// TestProgramsProfile builds and runs a few programs and checks, with GNU
// gprof, that together they show what the generator promises: cycles,
// recursion, <spontaneous> callers besides main, real samples, and never a
// missing gmon.out.
func TestProgramsProfile(t *testing.T) {
	testenv.Need(t, "gcc", "gprof")
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	var (
		cycleRE  = regexp.MustCompile(`(?m)^\[\d+\].*<cycle \d+ as a whole>`)
		recurRE  = regexp.MustCompile(`(?m)^\[\d+\]\s+\S+\s+\S+\s+\S+\s+\d+\+\d+\s+\w`)
		sampleRE = regexp.MustCompile(`(?m)^\s*[\d.]+\s+[\d.]+\s+([\d.]+)\s`)
	)
	var cycles, recursion, extraSpontaneous, total int
	for seed := int64(100); seed < 108; seed++ {
		p := MustGenerate(seed)
		dir := t.TempDir()
		opts := BuildOptions{Opt: []string{"-O0", "-O2"}[seed%2], Debug: seed%4 >= 2}
		bin, err := p.Build(t.Context(), dir, opts)
		require.NoError(t, err)
		start := time.Now()
		_, err = RunForProfile(t.Context(), dir, bin)
		require.NoError(t, err)
		t.Logf("seed %d (%s): %d functions, estimated %v, ran %v", seed, opts, len(p.Funcs), p.EstimatedCPU, time.Since(start).Round(time.Millisecond))

		graph := testenv.Output(t, testenv.Gprof(t), dir, "-b", "-q", "prog", "gmon.out")
		if cycleRE.MatchString(graph) {
			cycles++
		}
		if recurRE.MatchString(graph) {
			recursion++
		}
		if strings.Count(graph, "<spontaneous>") > 1 {
			extraSpontaneous++
		}
		flat := testenv.Output(t, testenv.Gprof(t), dir, "-b", "-p", "prog", "gmon.out")
		secs := 0.0
		for _, m := range sampleRE.FindAllStringSubmatch(flat, -1) {
			v, err := strconv.ParseFloat(m[1], 64)
			require.NoError(t, err)
			secs += v
		}
		assert.GreaterOrEqual(t, secs, 0.05, "seed %d: only %.2f s of samples\n%s", seed, secs, flat)
		total++
	}
	assert.GreaterOrEqual(t, cycles, total/2, "programs with a cycle")
	assert.GreaterOrEqual(t, recursion, total/2, "programs with recursion")
	assert.Positive(t, extraSpontaneous, "programs with a <spontaneous> function besides main")
}

func TestSyntheticProfile(t *testing.T) {
	testenv.Need(t, "gcc", "gprof")
	s := SyntheticProfile(7, 300, 1000)
	require.Equal(t, s.Source(), SyntheticProfile(7, 300, 1000).Source())
	cache := t.TempDir()
	files, err := s.Build(context.Background(), cache)
	require.NoError(t, err)
	st, err := os.Stat(files.Gmon)
	require.NoError(t, err)

	// Cached: a second build reuses the directory untouched.
	again, err := s.Build(context.Background(), cache)
	require.NoError(t, err)
	require.Equal(t, files, again)
	st2, err := os.Stat(files.Gmon)
	require.NoError(t, err)
	require.Equal(t, st.ModTime(), st2.ModTime())

	// Writing again gives the same bytes.
	var buf bytes.Buffer
	require.NoError(t, s.WriteGmon(&buf, files.Binary))
	data, err := os.ReadFile(files.Gmon)
	require.NoError(t, err)
	require.Equal(t, data, buf.Bytes())

	info := testenv.Output(t, testenv.Gprof(t), files.Dir, "-i", filepath.Base(files.Binary), "gmon.out")
	assert.Contains(t, info, "\t1 histogram record\n")
	assert.Contains(t, info, "\t1000 call-graph records\n")
	graph := testenv.Output(t, testenv.Gprof(t), files.Dir, "-b", filepath.Base(files.Binary), "gmon.out")
	assert.Contains(t, graph, "as a whole>")
	assert.Regexp(t, `(?m)^\s*[\d.]+\s+[\d.]+\s+[\d.]+\s+\d+\s`, graph, "no function with both samples and calls")
}

func TestGenerateCXXDeterministic(t *testing.T) {
	for seed := int64(-3); seed < 50; seed++ {
		require.Equal(t, GenerateCXX(seed).Source, GenerateCXX(seed).Source, "seed %d", seed)
	}
	assert.NotEqual(t, GenerateCXX(1).Source, GenerateCXX(2).Source)
}

// TestGenerateCXXCompiles checks that the C++ programs of 16 seeds
// compile (syntax and types only: the live test builds and runs some).
func TestGenerateCXXCompiles(t *testing.T) {
	gxx := testenv.Tool(t, "g++")
	dir := t.TempDir()
	for seed := range int64(16) {
		src := filepath.Join(dir, "prog.cc")
		require.NoError(t, os.WriteFile(src, []byte(GenerateCXX(seed).Source), 0o666))
		testenv.Run(t.Context(), t, gxx, dir, []string{"g++", "-std=c++17", "-fsyntax-only", src}).OK(t)
	}
}
