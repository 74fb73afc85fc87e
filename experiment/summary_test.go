package experiment

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/binfmt"
)

// scalingTable is an experiment over two builds with process-count and
// work columns; the rows reuse the test programs' profiles (two
// workloads each), so that both PERDAC's and SCALA's accumulators fill.
func scalingTable(t testing.TB, rows ...string) *Experiment {
	t.Helper()
	e, err := ReadTable(writeTable(t, append([]string{"gmon\tbinary\tbuild\tprocs\twork"}, rows...)...), TableOptions{})
	require.NoError(t, err)
	return e
}

var scalingRows = []string{
	"@recursion/gmon.out\t@recursion/prog\tO0\t1\t100",
	"@recursion/gmon2.out\t@recursion/prog\tO0\t1\t400",
	"@recursion/gmon2.out\t@recursion/prog\tO0\t2\t100",
	"@recursion/gmon.out\t@recursion/prog\tO0\t2\t400",
	"@recursion/gmon.out\t@recursion/prog\tO2\t1\t100",
	"@recursion/gmon2.out\t@recursion/prog\tO2\t2\t400",
}

func scalingConfig() Config {
	return Config{Over: []string{"build", "work"}, Threshold: 0, ShowNoise: true, ProcsDim: "procs", WorkDim: "work"}
}

// sameResult compares two results' PERDAC rows and SCALA's runs and
// matrices (floats to 1e-12 relative: merged accumulators add in another
// order).
func sameResult(t *testing.T, want, got *Result) {
	t.Helper()
	require.Len(t, got.Perdac, len(want.Perdac))
	for k := range want.Perdac {
		w, g := want.Perdac[k], got.Perdac[k]
		require.Len(t, g.Rows, len(w.Rows), w.Over)
		for i := range w.Rows {
			a, b := w.Rows[i], g.Rows[i]
			assert.Equal(t, a.Name, b.Name)
			assert.Equal(t, a.Group, b.Group)
			assert.Equal(t, a.Metric, b.Metric)
			assert.Equal(t, a.N, b.N)
			assert.InDelta(t, a.Mean, b.Mean, 1e-12*(1+a.Mean), a.Name)
			assert.InDelta(t, a.Stdev, b.Stdev, 1e-9*(1+a.Stdev), a.Name)
			assert.InDelta(t, a.Noise, b.Noise, 1e-12*(1+a.Noise), a.Name)
			assert.Equal(t, a.Min, b.Min, a.Name)
			assert.Equal(t, a.Max, b.Max, a.Name)
			assert.Equal(t, a.MinAt, b.MinAt, a.Name)
			assert.Equal(t, a.MaxAt, b.MaxAt, a.Name)
			assert.Equal(t, a.Absent, b.Absent, a.Name)
		}
	}
	require.Len(t, got.Scala, len(want.Scala))
	for k := range want.Scala {
		assert.Equal(t, want.Scala[k].Combination, got.Scala[k].Combination)
		assert.Equal(t, want.Scala[k].Points, got.Scala[k].Points)
		assert.Equal(t, want.Scala[k].Matrix, got.Scala[k].Matrix)
		assert.Equal(t, len(want.Scala[k].Functions), len(got.Scala[k].Functions))
	}
}

// TestSummaryRoundTrip saves the accumulators and reads them back: the
// report is the same.
func TestSummaryRoundTrip(t *testing.T) {
	skipWithoutProgs(t)
	acc, err := Accumulate(scalingTable(t, scalingRows...), scalingConfig())
	require.NoError(t, err)
	want, err := acc.Report(scalingConfig())
	require.NoError(t, err)
	require.NotEmpty(t, want.Scala)
	data := acc.Encode()
	assert.True(t, IsSummary(data))
	back, err := DecodeSummary(data, "s")
	require.NoError(t, err)
	got, err := back.Report(scalingConfig())
	require.NoError(t, err)
	sameResult(t, want, got)
	assert.Equal(t, data, back.Encode(), "decoding and encoding again changes nothing")

	_, err = back.Report(Config{Over: []string{"procs"}})
	assert.ErrorContains(t, err, `the summary holds statistics over build, work only, not over "procs"`)
}

// TestSummaryMerge splits the rows in two, accumulates each part,
// saves, reads and merges them: the report is the one of all the rows.
// The parts' dimensions have values the other lacks (O2 only in the
// second part, procs 2 only in the first), so the values are joined.
func TestSummaryMerge(t *testing.T) {
	skipWithoutProgs(t)
	cfg := scalingConfig()
	whole, err := Analyze(scalingTable(t, scalingRows...), cfg)
	require.NoError(t, err)
	part := func(rows []string) *Accumulators {
		a, err := Accumulate(scalingTable(t, rows...), cfg)
		require.NoError(t, err)
		back, err := DecodeSummary(a.Encode(), "part")
		require.NoError(t, err)
		return back
	}
	first := part(scalingRows[:4])
	require.NoError(t, first.Merge(part(scalingRows[4:])))
	got, err := first.Report(cfg)
	require.NoError(t, err)
	sameResult(t, whole, got)

	other, err := Accumulate(scalingTable(t, scalingRows...), Config{Over: []string{"build"}, ProcsDim: "procs", WorkDim: "work"})
	require.NoError(t, err)
	assert.ErrorContains(t, first.Merge(other), "other --over dimensions")
}

// TestSummaryDamaged checks that a damaged summary is refused with an
// error, never a panic: truncated, a changed byte (the checksum catches
// it), and changed bytes with the checksum recomputed (the decoder's
// bounds catch them, or the file reads as another valid summary).
func TestSummaryDamaged(t *testing.T) {
	skipWithoutProgs(t)
	acc, err := Accumulate(scalingTable(t, scalingRows...), scalingConfig())
	require.NoError(t, err)
	data := acc.Encode()
	_, err = DecodeSummary(data[:len(data)-1], "s")
	assert.ErrorContains(t, err, "truncated or extended")
	bad := append([]byte{}, data...)
	bad[len(bad)/2] ^= 0x55
	_, err = DecodeSummary(bad, "s")
	assert.ErrorContains(t, err, "checksum mismatch")
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		bad := append([]byte{}, data...)
		for range 1 + rng.IntN(3) {
			bad[24+rng.IntN(len(bad)-24)] = byte(rng.IntN(256))
		}
		binary.LittleEndian.PutUint32(bad[20:], crc32.Checksum(bad[24:], crc32.MakeTable(crc32.Castagnoli)))
		if a, err := DecodeSummary(bad, "s"); err == nil {
			_, _ = a.Report(scalingConfig())
		}
	}
}

func skipWithoutProgs(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(progs + "recursion/prog"); err != nil {
		t.Skip("test programs not built")
	}
}

// FuzzDecodeSummary feeds damaged experiment summaries to the decoder (the
// length and checksum made to match, so that the field checks are what
// sees the damage): it must never panic nor allocate what the file does
// not justify, an error names the file, and a summary it accepts must
// report, encode and decode to the same bytes again.
func FuzzDecodeSummary(f *testing.F) {
	skipWithoutProgs(f)
	acc, err := Accumulate(scalingTable(f, scalingRows...), scalingConfig())
	require.NoError(f, err)
	f.Add(acc.Encode())
	e, err := ReadTable(writeTable(f, "gmon\tbinary\trun", "@recursion/gmon.out\t@recursion/prog\ta", "@recursion/gmon2.out\t@recursion/prog\tb"), TableOptions{})
	require.NoError(f, err)
	runs, err := Accumulate(e, Config{Over: []string{"run"}})
	require.NoError(f, err)
	f.Add(runs.Encode())
	f.Add([]byte(summarySignature))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) >= binfmt.HeaderSize && IsSummary(data) {
			data = append([]byte(nil), data...)
			binary.LittleEndian.PutUint64(data[12:], uint64(len(data)-binfmt.HeaderSize))
			binary.LittleEndian.PutUint32(data[20:], crc32.Checksum(data[binfmt.HeaderSize:], crc32.MakeTable(crc32.Castagnoli)))
		}
		a, err := DecodeSummary(data, "fuzz.sum")
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.sum") {
				t.Fatalf("the error does not name the file: %v", err)
			}
			return
		}
		for _, over := range [][]string{nil, {a.Dims[0].Name}} {
			if len(a.Dims) == 0 && over != nil {
				continue
			}
			_, _ = a.Report(Config{Over: over, Threshold: 0, ShowNoise: true, ProcsDim: a.ProcsDim, WorkDim: a.WorkDim, RankDim: a.RankDim})
		}
		again := a.Encode()
		back, err := DecodeSummary(again, "again.sum")
		if err != nil {
			t.Fatalf("an accepted summary does not decode after encoding: %v", err)
		}
		if !bytes.Equal(again, back.Encode()) {
			t.Fatal("encoding is not stable")
		}
	})
}
