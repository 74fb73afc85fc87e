package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkCorpusProgram times `-b PROG gmon.out` on a real program built by
// scripts/bench-corpus.sh, named by EGPROF_BENCH_PROGRAM (a folder holding
// prog and gmon.out); it is skipped without one.
func BenchmarkCorpusProgram(b *testing.B) {
	dir := os.Getenv("EGPROF_BENCH_PROGRAM")
	if dir == "" {
		b.Skip("EGPROF_BENCH_PROGRAM names no program folder (see scripts/bench-corpus.sh)")
	}
	argv := append([]string{"gprof", "-b"}, strings.Fields(os.Getenv("EGPROF_BENCH_ARGS"))...)
	argv = append(argv, filepath.Join(dir, "prog"), filepath.Join(dir, "gmon.out"))
	var stderr bytes.Buffer
	code := run(argv, strings.NewReader(""), io.Discard, &stderr)
	require.Zero(b, code, "%q failed: %s", argv, stderr.String())
	b.ReportAllocs()
	for b.Loop() {
		run(argv, strings.NewReader(""), io.Discard, io.Discard)
	}
}
