package gmon

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/testenv"
)

// These tests compare the package with GNU gprof itself. They need gcc
// (with -m32 support for the 32-bit cases), nm and gprof on PATH and are
// skipped otherwise, or with -short.

const oracleProgram = `
#include <stdio.h>
volatile long sink;
void work(void) { for (long i = 0; i < 150000; i++) sink += i; }
void helper(void) { work(); work(); }
void other(int n) { if (n > 0) other(n - 1); else work(); }
int main(void) {
	for (int i = 0; i < 200; i++) helper();
	for (int i = 0; i < 20; i++) other(3);
	printf("%ld\n", sink);
	return 0;
}
`

type oracle struct {
	dir    string
	prog   string
	target Target
}

// newOracle compiles and runs the test program with gcc -pg; m32 selects
// a 32-bit build.
func newOracle(t *testing.T, m32 bool) *oracle {
	t.Helper()
	if testing.Short() {
		t.Skip("oracle tests run gcc and gprof")
	}
	testenv.Need(t, "gcc", "gprof", "nm")
	dir := t.TempDir()
	src := filepath.Join(dir, "prog.c")
	require.NoError(t, os.WriteFile(src, []byte(oracleProgram), 0o644))
	args := []string{"-pg", "-O0", "-no-pie", "-o", "prog", "prog.c"}
	o := &oracle{dir: dir, prog: filepath.Join(dir, "prog"), target: le64}
	if m32 {
		args = append([]string{"-m32"}, args...)
		o.target = le32
	}
	cmd := exec.Command("gcc", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("gcc %v failed: %v\n%s", args, err, out)
	}
	run := exec.Command(o.prog)
	run.Dir = dir
	out, err := run.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return o
}

// gprof runs gprof in the oracle's directory with a 1 GiB address-space
// limit (so that its huge allocations fail fast) and a timeout.
func (o *oracle) gprof(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", "ulimit -v 1048576; exec gprof "+strings.Join(quoted, " "))
	cmd.Dir = o.dir
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	require.NoError(t, ctx.Err(), "gprof %v timed out", args)
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return so.String(), se.String(), code
}

func (o *oracle) write(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(o.dir, name)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	return path
}

func (o *oracle) read(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(o.dir, name))
	require.NoError(t, err)
	return data
}

// funcStarts lists the program's text symbols by address, from nm.
func (o *oracle) funcStarts(t *testing.T) []uint64 {
	t.Helper()
	out, err := exec.Command("nm", "-n", o.prog).Output()
	require.NoError(t, err)
	var starts []uint64
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 && (f[1] == "T" || f[1] == "t") {
			a, err := strconv.ParseUint(f[0], 16, 64)
			require.NoError(t, err)
			starts = append(starts, a)
		}
	}
	return starts
}

// mergeArcs does what gprof does to arcs before writing gmon.sum (without
// debug information): both ends move to the start of their function,
// counts are summed, callers come in address order and each caller's arcs
// newest first.
func mergeArcs(arcs []ArcRecord, starts []uint64) []ArcRecord {
	symOf := func(a uint64) uint64 {
		i := sort.Search(len(starts), func(i int) bool { return starts[i] > a })
		return starts[i-1]
	}
	type key struct{ from, self uint64 }
	index := map[key]int{}
	var merged []ArcRecord
	for _, a := range arcs {
		k := key{symOf(a.FromPC), symOf(a.SelfPC)}
		if i, ok := index[k]; ok {
			merged[i].Count += a.Count
			continue
		}
		index[k] = len(merged)
		merged = append(merged, ArcRecord{k.from, k.self, a.Count})
	}
	// Stable sort by caller on the reversed list: newest first per caller.
	for i, j := 0, len(merged)-1; i < j; i, j = i+1, j-1 {
		merged[i], merged[j] = merged[j], merged[i]
	}
	sort.SliceStable(merged, func(i, j int) bool { return merged[i].FromPC < merged[j].FromPC })
	return merged
}

// TestOracleSum checks WriteSum against gprof -s byte for byte, and that
// gprof prints the same report from our gmon.sum as from the inputs.
func TestOracleSum(t *testing.T) {
	for _, m32 := range []bool{false, true} {
		t.Run(fmt.Sprintf("m32=%v", m32), func(t *testing.T) {
			o := newOracle(t, m32)
			gmonOut := o.read(t, "gmon.out")
			for _, n := range []int{1, 2} {
				inputs := []string{"gmon.out", "gmon.out"}[:n]
				p := NewProfile(o.target, FormatAuto)
				for _, in := range inputs {
					_, err := p.AddData(gmonOut, in)
					require.NoError(t, err)
				}

				_, stderr, code := o.gprof(t, append([]string{"-s", "prog"}, inputs...)...)
				require.Equal(t, 0, code, stderr)
				theirs := o.read(t, "gmon.sum")
				ours := writeSum(t, p, mergeArcs(p.Arcs, o.funcStarts(t)), FormatAuto)
				assert.Equal(t, theirs, ours, "gmon.sum of %d file(s) differs from gprof's", n)

				// Our sum with the raw arcs prints the same report as the inputs.
				o.write(t, "ours.sum", writeSum(t, p, p.Arcs, FormatAuto))
				want, _, code := o.gprof(t, append([]string{"-b", "prog"}, inputs...)...)
				require.Equal(t, 0, code)
				got, _, code := o.gprof(t, "-b", "prog", "ours.sum")
				require.Equal(t, 0, code)
				assert.Equal(t, want, got)
				assert.Contains(t, got, "work")
			}

			// BSD: write the profile in the old BSD layout, have gprof -s -O b
			// sum it, and compare with our own BSD writer.
			p := NewProfile(o.target, FormatAuto)
			_, err := p.AddData(gmonOut, "gmon.out")
			require.NoError(t, err)
			merged := mergeArcs(p.Arcs, o.funcStarts(t))
			o.write(t, "bsd.out", writeSum(t, p, merged, FormatBSD))
			_, stderr, code := o.gprof(t, "-s", "-O", "b", "prog", "bsd.out")
			require.Equal(t, 0, code, stderr)
			q := NewProfile(o.target, FormatBSD)
			_, err = q.AddData(o.read(t, "bsd.out"), "bsd.out")
			require.NoError(t, err)
			assert.Equal(t, o.read(t, "gmon.sum"), writeSum(t, q, mergeArcs(q.Arcs, o.funcStarts(t)), FormatBSD))
			// And default -s converts BSD to GNU.
			_, stderr, code = o.gprof(t, "-s", "prog", "bsd.out")
			require.Equal(t, 0, code, stderr)
			q = NewProfile(o.target, FormatAuto)
			_, err = q.AddData(o.read(t, "bsd.out"), "bsd.out")
			require.NoError(t, err)
			assert.Equal(t, o.read(t, "gmon.sum"), writeSum(t, q, mergeArcs(q.Arcs, o.funcStarts(t)), FormatAuto))
		})
	}
}

// infoBlock formats what gprof -i prints for one file.
func infoBlock(f *File, version uint32) string {
	plural := func(n int, one, many string) string {
		if n == 1 {
			return fmt.Sprintf("\t%d %s\n", n, one)
		}
		return fmt.Sprintf("\t%d %s\n", n, many)
	}
	return fmt.Sprintf("File `%s' (version %d) contains:\n", f.Name, version) +
		plural(f.NumHistRecords, "histogram record", "histogram records") +
		plural(f.NumArcRecords, "call-graph record", "call-graph records") +
		plural(f.NumBBRecords, "basic-block count record", "basic-block count records")
}

// oracleCase is a sequence of files that gprof either reads (then -i must
// match) or refuses (exit 1, and so must we).
type oracleCase struct {
	name   string
	files  [][]byte
	format string // -O argument, "" for the default
	ok     bool
}

func oracleCases(t *testing.T, tg Target) []oracleCase {
	const lo, hi = 0x400000, 0x401278
	n := (hi - lo) / 4
	g := func() *tb { return newTB(tg).gnu(1) }
	base := g().hist(lo, hi, zeroBins(n, 10, 3)).arc(0x401200, 0x4011b0, 5).bytes()
	bsd := newTB(tg).bsd(lo, hi, zeroBins(n, 10, 1), -1).bsdArc(0x401200, 0x4011b0, 7).bytes()
	bsd44 := func(rate int64) []byte { return newTB(tg).bsd(lo, hi, zeroBins(n), rate).bytes() }
	zw1 := g().hist(0x1000, 0x1000, []uint16{5}).bytes()
	zw2 := g().histN(0x1000, 0x1000, 11, 100, "seconds", 's', []uint16{5}).arc(0x4011f0, 0x4011b0, 9).bytes()
	gnuHdr := g()
	histHdr := func(n uint32) *tb { return gnuHdr.clone().histN(lo, hi, n, 100, "seconds", 's', nil) }
	v0 := append(newTB(tg).gnu(0).bytes(), v0BB(t, 1, "f.c", []BBRecord{{0x4011b0, 3}})[20:]...)

	return []oracleCase{
		{"base", [][]byte{base}, "", true},
		{"header only", [][]byte{g().bytes()}, "", true},
		{"version 0", [][]byte{newTB(tg).gnu(0).hist(lo, hi, zeroBins(n)).bytes()}, "", true},
		{"version 0 BB", [][]byte{v0}, "", true},
		{"BB v1", [][]byte{g().bb(BBRecord{0x4011b0, 2}, BBRecord{0x401200, 1}).bytes()}, "", true},
		{"arcs first", [][]byte{g().arc(1, 2, 3).hist(lo, hi, zeroBins(n)).bytes()}, "", true},
		{"hist_size 0", [][]byte{g().hist(lo, hi, nil).arc(0x401200, 0x4011b0, 1).bytes()}, "", true},
		{"zero width", [][]byte{g().hist(lo, lo, zeroBins(4)).bytes()}, "", true},
		{"inverted GNU", [][]byte{g().hist(hi, lo, zeroBins(4)).bytes()}, "", true},
		{"summed", [][]byte{base, base}, "", true},
		{"disjoint", [][]byte{base, g().hist(hi, 2*hi-lo, zeroBins(n)).bytes()}, "", true},
		{"rate change", [][]byte{base, g().histN(lo, hi, uint32(n), 1000, "seconds", 's', zeroBins(n)).bytes()}, "", true},
		{"stateful zero width", [][]byte{zw1, zw2}, "", true},
		{"stateful zero width, one file", [][]byte{append(append([]byte(nil), zw1...), zw2[20:]...)}, "", true},
		{"BSD", [][]byte{bsd}, "", true},
		{"BSD -O b", [][]byte{bsd}, "b", true},
		{"GNU then BSD", [][]byte{base, bsd}, "", true},
		{"BSD then GNU", [][]byte{bsd, base}, "", true},
		{"BSD partial arc", [][]byte{append(append([]byte(nil), bsd...), 1, 2, 3)}, "", true},
		{"BSD no bins", [][]byte{newTB(tg).bsd(lo, hi, nil, -1).bsdArc(0x401200, 0x4011b0, 7).bytes()}, "", true},
		{"4.4BSD", [][]byte{bsd44(1000)}, "4", true},
		{"4.4BSD rate 0 then 100", [][]byte{bsd44(0), bsd44(100)}, "", true},
		{"NaN first scale", [][]byte{g().hist(0x10, 0x10, nil).hist(lo, hi, zeroBins(n)).hist(hi, hi+0x100, zeroBins(3)).bytes()}, "", true},

		{"too short", [][]byte{g().bytes()[:19]}, "", false},
		{"version 2", [][]byte{newTB(tg).gnu(2).bytes()}, "", false},
		{"bad tag", [][]byte{g().u8(3).bytes()}, "", false},
		{"tag then EOF", [][]byte{g().u8(1).bytes()}, "", false},
		{"truncated arc", [][]byte{g().arc(1, 2, 3).bytes()[:30]}, "", false},
		{"truncated bins", [][]byte{histHdr(4).u16(1).bytes()}, "", false},
		{"hist_size 0xffffffff", [][]byte{histHdr(0xffffffff).zeros(12).bytes()}, "", false},
		{"truncated BB body", [][]byte{g().u8(2).u32(2).addr(1).addr(2).bytes()}, "", false},
		{"BSD ncnt below header", [][]byte{newTB(tg).addr(0x1000).addr(0x2000).u32(4).u32(0).bytes()}, "", false},
		{"BSD inverted", [][]byte{newTB(tg).bsd(hi, lo, zeroBins(2), -1).bytes()}, "", false},
		{"BSD truncated bins", [][]byte{bsd[:100]}, "", false},
		{"-O m on BSD", [][]byte{bsd}, "m", false},
		{"-O 4 on GNU", [][]byte{base}, "4", false},
		{"-O 4 on old BSD", [][]byte{bsd}, "4", false},
		{"-O b on GNU", [][]byte{base}, "b", false},
		{"-O p", [][]byte{base}, "p", false},
		{"overlap", [][]byte{base, g().hist(lo+0x100, hi+0x100, zeroBins(n)).bytes()}, "", false},
		{"scales", [][]byte{base, g().hist(lo, hi, zeroBins(n-1)).bytes()}, "", false},
		{"dimen", [][]byte{base, g().histN(lo, hi, uint32(n), 100, "cycles", 's', zeroBins(n)).bytes()}, "", false},
		{"abbrev", [][]byte{base, g().histN(lo, hi, uint32(n), 100, "seconds", 'S', zeroBins(n)).bytes()}, "", false},
		{"BSD incompatible", [][]byte{base, newTB(tg).bsd(lo, hi+4, zeroBins(n+1), -1).bytes()}, "", false},
		{"4.4BSD rate", [][]byte{base, bsd44(1000)}, "", false},
		{"4.4BSD rate 2^31 twice", [][]byte{bsd44(1 << 31), bsd44(1 << 31)}, "", false},
		{"stateful zero width alone", [][]byte{zw2}, "", false},
	}
}

// TestOracleReadAgreement runs gprof -i on crafted files: where gprof reads
// them, our record counts and versions must match its report; where it
// fails, we must fail too.
func TestOracleReadAgreement(t *testing.T) {
	for _, m32 := range []bool{false, true} {
		t.Run(fmt.Sprintf("m32=%v", m32), func(t *testing.T) {
			o := newOracle(t, m32)
			for _, c := range oracleCases(t, o.target) {
				t.Run(c.name, func(t *testing.T) {
					args := []string{"-i"}
					format := FormatAuto
					if c.format != "" {
						args = append(args, "-O", c.format)
						var err error
						format, err = ParseFormat(c.format)
						require.NoError(t, err)
					}
					args = append(args, "prog")
					p := NewProfile(o.target, format)
					var ours strings.Builder
					var ourErr error
					for i, data := range c.files {
						name := fmt.Sprintf("c%d.out", i)
						args = append(args, o.write(t, name, data))
						if ourErr == nil {
							var f *File
							f, ourErr = p.AddData(data, filepath.Join(o.dir, name))
							if ourErr == nil {
								ours.WriteString(infoBlock(f, p.FileVersion))
							}
						}
					}
					stdout, stderr, code := o.gprof(t, args...)
					if c.ok {
						require.Equal(t, 0, code, "gprof: %s", stderr)
						require.NoError(t, ourErr)
						assert.Equal(t, stdout, ours.String())
					} else {
						require.Equal(t, 1, code, "gprof should fail; stdout %q", stdout)
						require.Error(t, ourErr)
					}
				})
			}
		})
	}
}
