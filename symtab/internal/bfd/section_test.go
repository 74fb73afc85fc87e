package bfd

import (
	"debug/elf"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/testenv"
)

// TestSymbolsFromDebugFile: BFD's fallback lookup takes the separate debug
// file's symbols when its sections match the executable's up to .text, as
// objcopy --only-keep-debug keeps them; with a section fewer before .text
// the walk finds another section there and keeps the executable's.
func TestSymbolsFromDebugFile(t *testing.T) {
	objcopy := testenv.Tool(t, "objcopy")
	const prog = "../../../testdata/progs/multifile/prog"
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		out, err := exec.Command(objcopy, args...).CombinedOutput()
		require.NoError(t, err, string(out))
	}
	stripped, debug, fewer := filepath.Join(dir, "prog"), filepath.Join(dir, "prog.debug"), filepath.Join(dir, "fewer.debug")
	run("--strip-debug", prog, stripped)
	run("--only-keep-debug", prog, debug)
	run("--only-keep-debug", "--remove-section=.interp", prog, fewer)
	open := func(name string) *elf.File {
		f, err := elf.Open(name)
		require.NoError(t, err)
		t.Cleanup(func() { f.Close() })
		return f
	}
	exe := open(stripped)
	assert.True(t, symbolsFromDebugFile(exe, open(debug)))
	assert.False(t, symbolsFromDebugFile(exe, open(fewer)))
}
