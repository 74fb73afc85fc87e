package cli

import (
	"os"
	"testing"

	"github.com/egprof/egprof/internal/testenv"
)

// TestMain runs the tests from the repository's root: the test programs'
// debug information names their sources relative to it (see
// testdata/README.md), as gprof and egprof see them when run from there.
func TestMain(m *testing.M) {
	if err := os.Chdir("../.."); err != nil {
		panic(err)
	}
	os.Exit(testenv.Main(m))
}
