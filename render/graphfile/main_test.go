package graphfile

import (
	"os"
	"testing"

	"github.com/egprof/egprof/internal/testenv"
)

// TestMain removes the commands the tests built (egprof-graphviz).
func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m))
}
