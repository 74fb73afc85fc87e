package cli

import (
	"bytes"
	"github.com/egprof/egprof/internal/atomicfile"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/progen"
	"github.com/egprof/egprof/internal/testenv"
)

// benchProfile returns the synthetic benchmark profile (20,000 functions,
// 100,000 arcs), building it on first use into progen.DefaultBenchDir
// ($EGPROF_BENCH_DIR, else the user cache directory). It skips the
// benchmark when gcc is missing.
func benchProfile(b *testing.B) progen.SyntheticFiles {
	b.Helper()
	testenv.Need(b, "gcc")
	s := progen.SyntheticProfile(progen.BenchSeed, progen.BenchFuncs, progen.BenchArcs)
	files, err := s.Build(b.Context(), progen.DefaultBenchDir())
	require.NoError(b, err)
	return files
}

// benchRun times run with the given options on the synthetic profile,
// output discarded. One untimed run first checks that it succeeds.
func benchRun(b *testing.B, opts ...string) {
	files := benchProfile(b)
	argv := append(append([]string{"gprof"}, opts...), files.Binary, files.Gmon)
	var stderr bytes.Buffer
	code := run(argv, strings.NewReader(""), io.Discard, &stderr)
	require.Zero(b, code, "%q failed: %s", argv, stderr.String())
	b.ReportAllocs()
	for b.Loop() {
		run(argv, strings.NewReader(""), io.Discard, io.Discard)
	}
}

// BenchmarkFlatProfile measures gprof -b -p on the synthetic profile.
func BenchmarkFlatProfile(b *testing.B) {
	benchRun(b, "-b", "-p")
}

// BenchmarkFullOutput measures the default output (flat profile, call graph
// and index, with the explanations) on the synthetic profile.
func BenchmarkFullOutput(b *testing.B) {
	benchRun(b)
}

// secondRun writes (once) a second synthetic run of the benchmark binary:
// the same functions, other samples and arcs.
func secondRun(b *testing.B, files progen.SyntheticFiles) string {
	b.Helper()
	path := filepath.Join(files.Dir, "gmon2.out")
	if _, err := os.Stat(path); err == nil {
		return path
	}
	err := atomicfile.Write(path, func(w io.Writer) error {
		return progen.SyntheticProfile(progen.BenchSeed+1, progen.BenchFuncs, progen.BenchArcs).WriteGmon(w, files.Binary)
	})
	require.NoError(b, err)
	return path
}

// BenchmarkDiff measures the default differential report (old-format flat
// profile and differential call graph) of two synthetic runs.
func BenchmarkDiff(b *testing.B) {
	files := benchProfile(b)
	argv := []string{"gprof", "-b", files.Binary, files.Gmon, "--diff=" + secondRun(b, files)}
	var stderr bytes.Buffer
	code := run(argv, strings.NewReader(""), io.Discard, &stderr)
	require.Zero(b, code, "%q failed: %s", argv, stderr.String())
	b.ReportAllocs()
	for b.Loop() {
		run(argv, strings.NewReader(""), io.Discard, io.Discard)
	}
}
