package cli

import (
	"debug/elf"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/testenv"
)

// TestSeparateDebugFile splits a build's debug information into a file of
// its own, as `objcopy --only-keep-debug` and `strip --strip-debug` do,
// and puts that file where BFD looks for it: beside the executable, in a
// .debug folder there, or under .build-id/ by the build ID. The source
// lines must come back as on the whole build; a debug file whose CRC or
// build ID is not the recorded one must be ignored, as gprof ignores it,
// and a link naming a device must not be read (gprof reads it for ever).
// Where gprof is installed, every report is also its report, byte for byte.
func TestSeparateDebugFile(t *testing.T) {
	objcopy := testenv.Tool(t, "objcopy")
	const srcDir = "testdata/progs/multifile/"
	whole, err := filepath.Abs(srcDir + "prog")
	require.NoError(t, err)
	gmon, err := filepath.Abs(srcDir + "gmon.out")
	require.NoError(t, err)
	other, err := filepath.Abs(demoProg)
	require.NoError(t, err)
	exe, err := elf.Open(whole)
	require.NoError(t, err)
	id := buildIDOf(t, exe)
	exe.Close()

	objcopyRun := func(args ...string) {
		t.Helper()
		out, err := exec.Command(objcopy, args...).CombinedOutput()
		require.NoError(t, err, string(out))
	}
	// The lines -l prints for the whole build, the reference.
	wantLines, stderr, code := runArgs(t, "-b", "-l", "-p", whole, gmon)
	require.Zero(t, code, stderr)
	require.Contains(t, wantLines, "(a.c:", "the whole build has source lines")

	for _, tc := range []struct {
		name string
		// place puts prog.debug (the debug file, made in the folder) where
		// the case wants it.
		place     func(t *testing.T, dir string)
		wantFound bool
		// gprofHangs: gprof reads the link's file for ever.
		gprofHangs bool
	}{
		{"beside the executable", func(*testing.T, string) {}, true, false},
		{"in .debug", func(t *testing.T, dir string) {
			require.NoError(t, os.Mkdir(filepath.Join(dir, ".debug"), 0o755))
			require.NoError(t, os.Rename(filepath.Join(dir, "prog.debug"), filepath.Join(dir, ".debug", "prog.debug")))
		}, true, false},
		{"by build ID", func(t *testing.T, dir string) {
			byID := filepath.Join(dir, ".build-id", id[:2])
			require.NoError(t, os.MkdirAll(byID, 0o755))
			require.NoError(t, os.Rename(filepath.Join(dir, "prog.debug"), filepath.Join(byID, id[2:]+".debug")))
		}, true, false},
		{"by build ID, another build's file there, the link's file found", func(t *testing.T, dir string) {
			byID := filepath.Join(dir, ".build-id", id[:2])
			require.NoError(t, os.MkdirAll(byID, 0o755))
			objcopyRun("--only-keep-debug", other, filepath.Join(byID, id[2:]+".debug"))
		}, true, false},
		{"a CRC that is not the link's", func(t *testing.T, dir string) {
			f, err := os.OpenFile(filepath.Join(dir, "prog.debug"), os.O_APPEND|os.O_WRONLY, 0)
			require.NoError(t, err)
			_, err = f.Write([]byte{0})
			require.NoError(t, err)
			require.NoError(t, f.Close())
		}, false, false},
		{"no debug file", func(t *testing.T, dir string) {
			require.NoError(t, os.Remove(filepath.Join(dir, "prog.debug")))
		}, false, false},
		{"a link naming a device", func(t *testing.T, dir string) {
			if _, err := os.Stat("/dev/zero"); err != nil {
				t.Skip("no /dev/zero here")
			}
			link := filepath.Join(dir, "link")
			name := strings.Repeat("../", strings.Count(dir, "/")) + "dev/zero"
			require.NoError(t, os.WriteFile(link, append([]byte(name), 0, 0, 0, 0, 0, 0, 0, 0), 0o644))
			prog := filepath.Join(dir, "prog")
			objcopyRun("--remove-section=.gnu_debuglink", "--add-section", ".gnu_debuglink="+link, prog)
		}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			debugFile := filepath.Join(dir, "prog.debug")
			objcopyRun("--only-keep-debug", whole, debugFile)
			objcopyRun("--strip-debug", "--add-gnu-debuglink="+debugFile, whole, filepath.Join(dir, "prog"))
			tc.place(t, dir)
			t.Chdir(dir) // build-ID files are looked for from the current folder

			got, stderr, code := runArgs(t, "-b", "-l", "-p", "prog", gmon)
			require.Zero(t, code, stderr)
			// The belonging check reads the executable's code, not the
			// debug file's (which has none).
			assert.Empty(t, stderr)
			if tc.wantFound {
				assert.Equal(t, wantLines, got)
			} else {
				assert.Contains(t, got, "Flat profile:")
				assert.NotContains(t, got, ".c:", "no source lines")
			}
			gprof, err := exec.LookPath("gprof")
			if err != nil || tc.gprofHangs {
				return
			}
			for _, opts := range [][]string{{"-b"}, {"-b", "-l", "-p"}, {"-b", "-A"}, {"-b", "--inline-file-names", "-q"}} {
				args := append(append([]string(nil), opts...), "prog", gmon)
				cmd := exec.Command(gprof, args...)
				cmd.Dir = dir
				want, err := cmd.Output()
				require.NoError(t, err, "gprof %v", args)
				got, stderr, code := runArgs(t, args...)
				require.Zero(t, code, stderr)
				assert.Equal(t, string(want), got, "%v", args)
			}
		})
	}
}

// buildIDOf returns f's GNU build ID in hex.
func buildIDOf(t *testing.T, f *elf.File) string {
	t.Helper()
	sec := f.Section(".note.gnu.build-id")
	require.NotNil(t, sec, "the test program has a build ID")
	data, err := sec.Data()
	require.NoError(t, err)
	// namesz, descsz, type, "GNU\0", then the ID.
	descsz := f.ByteOrder.Uint32(data[4:8])
	return hex.EncodeToString(data[16 : 16+descsz])
}

// dwzModes are the reports of the dwz tests: every one that shows source
// files, lines or names, and two that show none.
var dwzModes = [][]string{
	{"-b"}, {"-b", "-p"}, {"-b", "-q"}, {"-b", "-l", "-p"}, {"-b", "-A"}, {"-b", "-i"},
	{"-b", "-y", "-p"}, {"-b", "-l", "-q"}, {"-b", "-x", "-A"}, {"-b", "-C", "-p"},
	{"-b", "-q", "-c"}, {"-b", "--inline-file-names", "-q"}, {"-b", "-L", "-q"},
}

// TestDwzSharedFileRead runs a program whose debug information dwz -m
// moved in part into common.debug, which lies beside it: egprof reads that
// file as gprof does, without a warning, and each report is gprof's, byte
// for byte, with its exit status (gprof's -l reports stop at "somebody
// miscounted" here: BFD answers some addresses differently the first time,
// and egprof does the same). The program is named from another folder:
// the file is looked for beside the program, not in the current folder.
func TestDwzSharedFileRead(t *testing.T) {
	gprof := testenv.Gprof(t)
	prog, err := filepath.Abs("testdata/dwz/prog")
	require.NoError(t, err)
	gmon, err := filepath.Abs("testdata/dwz/gmon.out")
	require.NoError(t, err)
	dir := t.TempDir()
	rel, err := filepath.Rel(dir, prog)
	require.NoError(t, err)
	t.Chdir(dir)
	for _, mode := range dwzModes {
		args := append(append([]string(nil), mode...), rel, gmon)
		want := testenv.Run(t.Context(), t, gprof, dir, append([]string{gprof}, args...))
		got, stderr, code := runArgs(t, args...)
		assert.Equal(t, want.Code, code, "%v: %s", args, stderr)
		assert.Equal(t, want.Stdout, got, "%v", args)
		assert.NotContains(t, stderr, "common.debug", "%v", args)
	}
}

// TestDwzSharedFileWarned runs the dwz program where common.debug is not
// found (absent, in the current folder only, or not an ELF file) or must
// not be read (a device, a pipe): lookups needing it fail quietly, as
// BFD's do, and where the report needed source positions held there
// egprof warns, once, naming the file; where it needed none (-p) it is
// silent. Nothing hangs. Where gprof reads nothing for ever, each report
// is also gprof's.
func TestDwzSharedFileWarned(t *testing.T) {
	src, err := filepath.Abs("testdata/dwz")
	require.NoError(t, err)
	common, err := os.ReadFile(filepath.Join(src, "common.debug"))
	require.NoError(t, err)
	const warning = "egprof: warning: prog/prog: part of its debug information is in common.debug (dwz -m), " +
		"which was not found beside it; some source files and lines are missing\n"
	for _, tc := range []struct {
		name string
		// place puts what stands for common.debug in progDir, or in the
		// current folder cwd.
		place func(t *testing.T, progDir, cwd string)
		// gprofHangs: gprof reads the file for ever.
		gprofHangs bool
	}{
		{"absent", func(*testing.T, string, string) {}, false},
		{"in the current folder only", func(t *testing.T, _, cwd string) {
			require.NoError(t, os.WriteFile(filepath.Join(cwd, "common.debug"), common, 0o644))
		}, false},
		{"cut short", func(t *testing.T, progDir, _ string) {
			require.NoError(t, os.WriteFile(filepath.Join(progDir, "common.debug"), common[:len(common)/2], 0o644))
		}, false},
		{"not ELF", func(t *testing.T, progDir, _ string) {
			require.NoError(t, os.WriteFile(filepath.Join(progDir, "common.debug"), []byte(strings.Repeat("junk", 100)), 0o644))
		}, false},
		{"a folder", func(t *testing.T, progDir, _ string) {
			require.NoError(t, os.Mkdir(filepath.Join(progDir, "common.debug"), 0o755))
		}, false},
		{"a link to a device", func(t *testing.T, progDir, _ string) {
			if _, err := os.Stat("/dev/zero"); err != nil {
				t.Skip("no /dev/zero here")
			}
			require.NoError(t, os.Symlink("/dev/zero", filepath.Join(progDir, "common.debug")))
		}, true},
		{"a pipe", func(t *testing.T, progDir, _ string) {
			err := makeFIFO(filepath.Join(progDir, "common.debug"))
			if errors.Is(err, errors.ErrUnsupported) {
				t.Skip("no named pipes on this system")
			}
			require.NoError(t, err)
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cwd := t.TempDir()
			progDir := filepath.Join(cwd, "prog")
			require.NoError(t, os.Mkdir(progDir, 0o755))
			exe, err := os.ReadFile(filepath.Join(src, "prog"))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(progDir, "prog"), exe, 0o755))
			tc.place(t, progDir, cwd)
			t.Chdir(cwd)
			gmon := filepath.Join(src, "gmon.out")
			for _, tc2 := range []struct {
				args []string
				warn bool
			}{
				{[]string{"-b", "-p"}, false},
				{[]string{"-b", "--inline-file-names", "-q"}, true},
				{[]string{"-b", "-l", "-p"}, true},
				{[]string{"-b", "-C", "-p"}, true},
			} {
				args := append(append([]string(nil), tc2.args...), "prog/prog", gmon)
				stdout, stderr, code := runArgs(t, args...)
				assert.Zero(t, code, "%v", args)
				assert.NotEmpty(t, stdout, "%v", args)
				if tc2.warn {
					assert.Equal(t, warning, stderr, "%v", args)
				} else {
					assert.Empty(t, stderr, "%v", args)
				}
				gprof, err := exec.LookPath("gprof")
				if err != nil || tc.gprofHangs {
					continue
				}
				want := testenv.Run(t.Context(), t, gprof, cwd, append([]string{gprof}, args...))
				assert.Equal(t, want.Code, code, "%v", args)
				assert.Equal(t, want.Stdout, stdout, "%v", args)
			}
		})
	}
}
