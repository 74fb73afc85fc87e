// Package testenv is the harness egprof's tests share: the tools a test
// needs (or skips without), runs of GNU gprof and of egprof, the egprof
// binary built once per test process, and the list of checked-in test
// programs.
//
// It imports nothing of egprof, so that the tests of every package,
// gmon and symtab included, can use it; loading a profile into a call
// graph is internal/testprof's job.
package testenv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
)

// RequireMPIVar is the environment variable that, set to 1, makes a test
// fail instead of skipping when an MPI tool is missing (CI sets it where
// Open MPI is installed, so that the MPI tests cannot silently vanish).
const RequireMPIVar = "EGPROF_REQUIRE_MPI"

// RequireClangVar is the environment variable that, set to 1, makes a test
// fail instead of skipping when clang or clang++ is missing (CI installs
// them: clang-built programs must be read as gprof reads them).
const RequireClangVar = "EGPROF_REQUIRE_CLANG"

// RequireMPI reports whether RequireMPIVar asks for the MPI tests to run.
func RequireMPI() bool { return os.Getenv(RequireMPIVar) == "1" }

// isMPITool reports whether name is one of MPI's commands (mpicc, mpirun,
// mpiexec, ...).
func isMPITool(name string) bool { return strings.HasPrefix(filepath.Base(name), "mpi") }

// Has reports whether every tool is on PATH; a test that can take another
// way without one (a plain build instead of an MPI one) asks this.
func Has(tools ...string) bool {
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			return false
		}
	}
	return true
}

// Need skips the test, saying which tool is missing, unless every tool is
// on PATH. A missing MPI tool fails the test instead when RequireMPI.
func Need(t testing.TB, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		Tool(t, tool)
	}
}

// isBuilder reports whether tool builds or runs programs; a test that needs
// one is a long test, which -short leaves out.
func isBuilder(tool string) bool {
	switch filepath.Base(tool) {
	case "gcc", "g++", "cc", "clang", "clang++", "mpicc", "mpirun":
		return true
	}
	return false
}

// Tool returns the path of tool on PATH, skipping (or failing) the test
// as Need does when it is missing. A test that needs a compiler or mpirun
// builds and runs programs: under -short it is skipped.
func Tool(t testing.TB, tool string) string {
	t.Helper()
	if isBuilder(tool) {
		Long(t)
	}
	path, err := exec.LookPath(tool)
	if err == nil {
		return path
	}
	if isMPITool(tool) && RequireMPI() {
		t.Fatalf("%s not on PATH (%s=1)", tool, RequireMPIVar)
	}
	if strings.HasPrefix(filepath.Base(tool), "clang") && os.Getenv(RequireClangVar) == "1" {
		t.Fatalf("%s not on PATH (%s=1); apt-get install clang", tool, RequireClangVar)
	}
	t.Skipf("%s not on PATH", tool)
	return ""
}

// Gprof returns the GNU gprof to compare with: /usr/bin/gprof when it
// exists (a gprof earlier on PATH may be egprof installed under that
// name), else gprof from PATH. It skips the test without one.
func Gprof(t testing.TB) string {
	t.Helper()
	path := Tool(t, "gprof")
	if _, err := os.Stat("/usr/bin/gprof"); err == nil {
		return "/usr/bin/gprof"
	}
	return path
}

// Long skips the test under -short: it builds or runs programs (a C
// compiler, go build, go tool pprof, mpirun).
func Long(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds or runs programs: left out by -short")
	}
}

// GoTool returns the go command, from PATH or else from $GOROOT/bin,
// skipping the test without one. Tests that run it are long (see Long).
func GoTool(t testing.TB) string {
	t.Helper()
	Long(t)
	if path, err := exec.LookPath("go"); err == nil {
		return path
	}
	if root := os.Getenv("GOROOT"); root != "" {
		path := filepath.Join(root, "bin", "go")
		if _, err := os.Stat(path); err == nil {
			return path
		}
	}
	t.Skip("go not on PATH nor in $GOROOT/bin")
	return ""
}

// Result is what one run of gprof or egprof printed, and its exit status.
type Result struct {
	Stdout, Stderr string
	Code           int
}

// Run runs the program at path with argv (argv[0] is passed as is, so
// that messages name the program the test chose) in dir, with env added
// to the test process's environment. An exit status is a result; failing
// to start, or being killed, fails the test.
func Run(ctx context.Context, t testing.TB, path, dir string, argv []string, env ...string) Result {
	t.Helper()
	cmd := exec.CommandContext(ctx, path, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Dir = dir
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := errors.AsType[*exec.ExitError](err); ok && ee.Exited() {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running %s %q: %v\n%s", path, argv, err, stderr.String())
	}
	return Result{stdout.String(), stderr.String(), code}
}

// Output runs the program at path with args in dir and returns its
// standard output, failing the test unless it exits with status 0.
func Output(t testing.TB, path, dir string, args ...string) string {
	t.Helper()
	res := Run(t.Context(), t, path, dir, append([]string{path}, args...))
	if res.Code != 0 {
		t.Fatalf("%s %q: exit status %d\n%s", path, args, res.Code, res.Stderr)
	}
	return res.Stdout
}

// MainFunc is the in-process entry point of the egprof command
// (cli.Main's signature): argv[0] included, the exit status returned.
type MainFunc func(argv []string, stdin io.Reader, stdout, stderr io.Writer) int

// RunMain runs egprof's main in-process with argv (argv[0] included) and
// an empty standard input. A panic becomes exit status -1 with the panic
// and its stack on Stderr, so that one bad case does not take the whole
// test binary down.
func RunMain(main MainFunc, argv ...string) (res Result) {
	var stdout, stderr bytes.Buffer
	defer func() {
		if r := recover(); r != nil {
			res = Result{stdout.String(), fmt.Sprintf("%s\nPANIC: %v\n%s", stderr.String(), r, debug.Stack()), -1}
		}
	}()
	code := main(argv, strings.NewReader(""), &stdout, &stderr)
	return Result{stdout.String(), stderr.String(), code}
}

// EgprofPackage is the import path of the egprof command.
const EgprofPackage = "github.com/egprof/egprof"

// binaries holds the commands built for this test process; Main removes
// them when the tests end.
type binaries struct {
	mu    sync.Mutex
	dir   string // "" until Main runs
	built map[string]string
}

// built is the test process's one build directory: go build is slow, so
// each command is built once, whatever the number of tests that run it.
var built = &binaries{built: map[string]string{}}

// Main runs the tests of a package whose tests build commands (GoBinary)
// and removes what they built; call it from TestMain as
// os.Exit(testenv.Main(m)).
func Main(m *testing.M) int {
	dir, err := os.MkdirTemp("", "egprof-testenv-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "testenv:", err)
		return 1
	}
	built.mu.Lock()
	built.dir = dir
	built.mu.Unlock()
	defer os.RemoveAll(dir)
	return m.Run()
}

// GoBinary builds the command pkg (an import path of this module) once
// per test process and returns the executable's path, named after pkg's
// last element. The package's TestMain must call Main.
func GoBinary(t testing.TB, pkg string) string {
	t.Helper()
	goTool := GoTool(t)
	built.mu.Lock()
	defer built.mu.Unlock()
	if built.dir == "" {
		t.Fatal("testenv.GoBinary: TestMain must call testenv.Main")
	}
	if path, ok := built.built[pkg]; ok {
		return path
	}
	name := filepath.Base(pkg)
	if pkg == EgprofPackage {
		name = "egprof"
	}
	path := filepath.Join(built.dir, name)
	out, err := exec.Command(goTool, "build", "-o", path, pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	built.built[pkg] = path
	return path
}

// EgprofBinary returns the egprof command built for this test process.
func EgprofBinary(t testing.TB) string {
	t.Helper()
	return GoBinary(t, EgprofPackage)
}

// Root returns the repository's root directory relative to the current
// directory: the nearest directory upwards holding go.mod.
func Root(t testing.TB) string {
	t.Helper()
	rel := "."
	for range 16 {
		if _, err := os.Stat(filepath.Join(rel, "go.mod")); err == nil {
			return rel
		}
		rel = filepath.Join(rel, "..")
	}
	t.Fatal("testenv.Root: no go.mod above the current directory")
	return ""
}

// Programs returns the directories of the checked-in test programs that
// hold a built prog: testdata/demo, then testdata/progs/* in name order,
// as paths relative to the current directory. It fails the test if there
// is none.
func Programs(t testing.TB) []string {
	t.Helper()
	testdata := filepath.Join(Root(t), "testdata")
	dirs, err := filepath.Glob(filepath.Join(testdata, "progs", "*"))
	if err != nil {
		t.Fatal(err)
	}
	dirs = append([]string{filepath.Join(testdata, "demo")}, dirs...)
	var out []string
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "prog")); err == nil {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no test program in %s", testdata)
	}
	return out
}

// OK fails the test unless the run exited with status 0 and printed
// nothing on standard error, and returns its standard output.
func (r Result) OK(t testing.TB) string {
	t.Helper()
	if r.Code != 0 || r.Stderr != "" {
		t.Fatalf("exit status %d, stderr:\n%s", r.Code, r.Stderr)
	}
	return r.Stdout
}
