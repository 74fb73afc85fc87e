package cli

import (
	"debug/elf"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/egprof/egprof/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const modulePath = "github.com/egprof/egprof"

// sourcePackages returns every package of the module (test files aside)
// by import path, with its directory.
func sourcePackages(t *testing.T) map[string]*build.Package {
	t.Helper()
	pkgs := map[string]*build.Package{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if base := d.Name(); path != "." && (base == "testdata" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_")) {
			return filepath.SkipDir
		}
		p, err := build.ImportDir(path, 0)
		if err != nil {
			return nil // no Go files here
		}
		ip := modulePath
		if path != "." {
			ip += "/" + filepath.ToSlash(path)
		}
		pkgs[ip] = p
		return nil
	})
	require.NoError(t, err)
	require.Contains(t, pkgs, modulePath+"/internal/cli")
	return pkgs
}

// moduleDeps lists the packages root imports, directly or through the
// module's own packages (the imports of other modules' packages are not
// followed).
func moduleDeps(pkgs map[string]*build.Package, root string) []string {
	seen := map[string]bool{}
	var visit func(string)
	visit = func(ip string) {
		if seen[ip] {
			return
		}
		seen[ip] = true
		if p := pkgs[ip]; p != nil {
			for _, imp := range p.Imports {
				visit(imp)
			}
		}
	}
	visit(root)
	deps := make([]string, 0, len(seen))
	for ip := range seen {
		deps = append(deps, ip)
	}
	slices.Sort(deps)
	return deps
}

// importers lists the module's packages that import a package matching
// prefix.
func importers(pkgs map[string]*build.Package, prefix string) []string {
	var out []string
	for ip, p := range pkgs {
		for _, imp := range p.Imports {
			if imp == prefix || strings.HasPrefix(imp, prefix+"/") {
				out = append(out, strings.TrimPrefix(strings.TrimPrefix(ip, modulePath), "/"))
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestDependencyRules holds the layout's rules: google/pprof only in tests
// (render/pprof encodes profile.proto itself, so that egprof does not pay
// for that package's initialisation at every start), gonum/plot only through render/charts and that only in the
// egprof-charts command (graphviz only in egprof-graphviz), the HTML page
// built from the standard library and egprof alone, processes started
// and output files created only by the command (internal/cli) and cmd/.
// internal/progen (the generator of test programs, which builds them with
// gcc) and internal/testenv (the test harness) are test tooling: no package
// of egprof's imports them.
func TestDependencyRules(t *testing.T) {
	pkgs := sourcePackages(t)
	assert.Empty(t, importers(pkgs, "github.com/google/pprof"), "google/pprof outside tests")
	assert.Equal(t, []string{"render/charts"}, importers(pkgs, "gonum.org/v1/plot"))
	// The heavy drawing libraries stay out of egprof's own binary: graphviz
	// and the charts are drawn by helper commands.
	for _, imp := range moduleDeps(pkgs, modulePath) {
		assert.False(t, imp == modulePath+"/render/charts" || strings.HasPrefix(imp, "gonum.org/") || strings.HasPrefix(imp, "github.com/goccy/") || strings.HasPrefix(imp, "github.com/google/pprof"),
			"egprof's binary links %s", imp)
	}
	for _, ip := range importers(pkgs, "os/exec") {
		assert.True(t, ip == "internal/cli" || strings.HasPrefix(ip, "cmd/") || ip == "internal/progen" || ip == "internal/testenv",
			"%s starts processes", ip)
	}
	for _, tooling := range []string{"internal/progen", "internal/testenv"} {
		for _, ip := range importers(pkgs, modulePath+"/"+tooling) {
			assert.True(t, strings.HasPrefix(ip, "internal/progen/cmd/"), "%s imports the test tooling %s", ip, tooling)
		}
	}
	// The HTML page is self-contained: render/html uses the standard
	// library and egprof's own packages only, and nothing of the network.
	if p := pkgs[modulePath+"/render/html"]; assert.NotNil(t, p, "render/html") {
		for _, imp := range p.Imports {
			assert.True(t, imp == modulePath || strings.HasPrefix(imp, modulePath+"/") || !strings.Contains(strings.SplitN(imp, "/", 2)[0], "."),
				"render/html imports %s", imp)
			assert.False(t, imp == "net" || strings.HasPrefix(imp, "net/"), "render/html imports %s", imp)
		}
	}
	// The command's file utilities: only the command uses them.
	for _, util := range []string{"internal/atomicfile", "internal/filelock"} {
		for _, ip := range importers(pkgs, modulePath+"/"+util) {
			assert.True(t, ip == "internal/cli" || strings.HasPrefix(ip, "cmd/") || strings.HasPrefix(ip, "internal/progen"),
				"%s uses %s", ip, util)
		}
	}

	// No package below the command creates files itself.
	creates := regexp.MustCompile(`\bos\.(Create|CreateTemp|OpenFile|WriteFile|Mkdir|MkdirAll|Rename)\(`)
	for ip, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(ip, modulePath), "/")
		if rel == "internal/cli" || strings.HasPrefix(rel, "cmd/") || rel == "internal/atomicfile" || rel == "internal/filelock" ||
			strings.HasPrefix(rel, "internal/progen") || rel == "internal/testenv" {
			continue
		}
		for _, f := range p.GoFiles {
			src, err := os.ReadFile(filepath.Join(p.Dir, f))
			require.NoError(t, err)
			assert.NotRegexp(t, creates, string(src), "%s/%s creates files", rel, f)
		}
	}
}

// TestRenderersReadNoFiles holds that renderers only format: no package
// under render/ opens or reads a file (-A's sources come through an opener
// the command supplies).
func TestRenderersReadNoFiles(t *testing.T) {
	reads := regexp.MustCompile(`\bos\.(Open|OpenFile|ReadFile|ReadDir|Stat|Lstat)\(`)
	for ip, p := range sourcePackages(t) {
		rel := strings.TrimPrefix(strings.TrimPrefix(ip, modulePath), "/")
		if rel != "render" && !strings.HasPrefix(rel, "render/") {
			continue
		}
		for _, f := range p.GoFiles {
			src, err := os.ReadFile(filepath.Join(p.Dir, f))
			require.NoError(t, err)
			assert.NotRegexp(t, reads, string(src), "%s/%s reads files", rel, f)
		}
	}
}

// TestLayoutRules holds the layout's shape: the root holds main.go and no
// other Go file, and only symtab/internal/bfd defines bfd-prefixed names.
func TestLayoutRules(t *testing.T) {
	root, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var nonTest []string
	for _, f := range root {
		if !strings.HasSuffix(f, "_test.go") {
			nonTest = append(nonTest, f)
		}
	}
	assert.Equal(t, []string{"main.go"}, nonTest)

	decl := regexp.MustCompile(`(?m)^(func (\([^)]*\) )?|type |var |const |\t)[bB]fd[A-Za-z0-9_]*\b`)
	for ip, p := range sourcePackages(t) {
		if strings.HasSuffix(ip, "symtab/internal/bfd") {
			continue
		}
		for _, f := range append(append([]string(nil), p.GoFiles...), p.TestGoFiles...) {
			src, err := os.ReadFile(filepath.Join(p.Dir, f))
			require.NoError(t, err)
			assert.NotRegexp(t, decl, string(src), "%s defines a bfd-prefixed name", filepath.Join(p.Dir, f))
		}
	}
}

// TestDefaultBuildIsPureGo checks that without the mpi build tag no
// package of the module uses cgo (egprof builds with CGO_ENABLED=0), and
// that with it internal/mpi, and only it, does.
func TestDefaultBuildIsPureGo(t *testing.T) {
	pkgs := sourcePackages(t)
	for ip, p := range pkgs {
		assert.Empty(t, p.CgoFiles, "%s uses cgo in the default build", ip)
	}
	withMPI := build.Default
	withMPI.BuildTags = []string{"mpi"}
	withMPI.CgoEnabled = true
	for ip, p := range pkgs {
		q, err := withMPI.ImportDir(p.Dir, 0)
		require.NoError(t, err, ip)
		if ip == modulePath+"/internal/mpi" {
			assert.NotEmpty(t, q.CgoFiles, "internal/mpi has no MPI layer under the mpi tag")
		} else {
			assert.Empty(t, q.CgoFiles, "%s uses cgo under the mpi tag", ip)
		}
	}
}

// TestStartUpLinksNoInitialisation holds two start-up rules in egprof's
// binary: none of the module's packages has initialisation code (the
// kernel maps the 64 KB of code around each init function at every start,
// whatever the command does), and no package of Go's crypto module is
// linked (its FIPS self-initialisation ran in every process), nor
// compress/gzip (render/pprof frames its deflate stream itself, as that
// package's initialisation cost every run a 64 KB run of code).
func TestStartUpLinksNoInitialisation(t *testing.T) {
	if testing.Short() {
		t.Skip("builds egprof")
	}
	f, err := elf.Open(testenv.EgprofBinary(t))
	require.NoError(t, err)
	defer f.Close()
	syms, err := f.Symbols()
	require.NoError(t, err)
	require.NotEmpty(t, syms)
	initTask := regexp.MustCompile(`^` + regexp.QuoteMeta(modulePath) + `(/.*)?\.(init(\.[0-9]+)?|\.inittask)$`)
	sawRuntimeInit := false
	for _, s := range syms {
		assert.NotRegexp(t, initTask, s.Name, "a package of the module has initialisation code")
		assert.False(t, strings.HasPrefix(s.Name, "crypto/"), "egprof links %s", s.Name)
		assert.False(t, strings.HasPrefix(s.Name, "compress/gzip."), "egprof links %s", s.Name)
		sawRuntimeInit = sawRuntimeInit || s.Name == "runtime..inittask"
	}
	// The names this test looks for are the linker's: it sees them.
	assert.True(t, sawRuntimeInit, "no runtime..inittask symbol: the linker's naming has changed")
}
