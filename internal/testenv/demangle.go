package testenv

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The demangling tests' oracle is libiberty itself: Debian's libiberty-dev
// puts its header and archive here.
const (
	LibibertyHeader  = "/usr/include/libiberty/demangle.h"
	LibibertyArchive = "/usr/lib/x86_64-linux-gnu/libiberty.a"
)

// ErrNoOracle is wrapped by DemangleOracle's error when gcc or libiberty
// is missing (a reason to skip, not a failure).
var ErrNoOracle = errors.New("the libiberty oracle cannot be built")

// DemangleOracle builds scripts/demangle-oracle.c (libiberty printing
// names as gprof does) into dir and returns the program's path. Its error
// wraps ErrNoOracle when gcc or libiberty-dev is missing; any other error
// is a failed build.
func DemangleOracle(t testing.TB, dir string) (string, error) {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		return "", fmt.Errorf("%w: gcc not found", ErrNoOracle)
	}
	for _, f := range []string{LibibertyHeader, LibibertyArchive} {
		if _, err := os.Stat(f); err != nil {
			return "", fmt.Errorf("%w: libiberty is not installed (%v); apt-get install libiberty-dev", ErrNoOracle, err)
		}
	}
	bin := filepath.Join(dir, "demangle-oracle")
	src := filepath.Join(Root(t), "scripts", "demangle-oracle.c")
	cmd := exec.Command("gcc", "-O2", "-I"+filepath.Dir(LibibertyHeader), "-o", bin, src, LibibertyArchive)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the oracle: %w\n%s", err, out)
	}
	return bin, nil
}

// GzipLines returns the lines of a gzip-compressed text file (a golden
// sample), failing the test if it cannot be read.
func GzipLines(t testing.TB, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}
