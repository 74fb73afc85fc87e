package symtab

import (
	"debug/elf"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/testenv"
)

// TestDebugLink reads .gnu_debuglink sections of every shape BFD's
// bfd_get_debug_link_info_1 bounds: the name up to its NUL, the CRC at
// the next multiple of 4 bytes, refused when the section is shorter than
// 8 bytes, the name empty, or the CRC past the end.
func TestDebugLink(t *testing.T) {
	objcopy := testenv.Tool(t, "objcopy")
	crc := func(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
	cat := func(parts ...[]byte) []byte {
		var out []byte
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	for _, tc := range []struct {
		name     string
		section  []byte
		wantName string
		wantCRC  uint32
		wantOK   bool
	}{
		{"name padded to 4", cat([]byte("prog.debug\x00\x00"), crc(0xdeadbeef)), "prog.debug", 0xdeadbeef, true},
		{"name of 3 bytes, its NUL ends the first word", cat([]byte("abc\x00"), crc(7)), "abc", 7, true},
		{"name of 4 bytes, the CRC a word later", cat([]byte("abcd\x00\x00\x00\x00"), crc(9)), "abcd", 9, true},
		{"shorter than 8 bytes", []byte("ab\x00\x00\x01\x02\x03"), "", 0, false},
		{"an empty name", cat([]byte("\x00\x00\x00\x00"), crc(1)), "", 0, false},
		{"no NUL", []byte("abcdefghijkl"), "", 0, false},
		{"the CRC cut short", []byte("abcdefgh\x00\x00\x00"), "", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			sec := filepath.Join(dir, "link")
			require.NoError(t, os.WriteFile(sec, tc.section, 0o644))
			exe := filepath.Join(dir, "prog")
			out, err := exec.Command(objcopy, "--strip-debug", "--add-section", ".gnu_debuglink="+sec, tinyProgram, exe).CombinedOutput()
			require.NoError(t, err, string(out))
			f, err := elf.Open(exe)
			require.NoError(t, err)
			defer f.Close()
			name, sum, ok := debugLink(f)
			assert.Equal(t, tc.wantOK, ok)
			assert.Equal(t, tc.wantName, name)
			assert.Equal(t, tc.wantCRC, sum)
		})
	}
}

// TestDebugFileCandidates lists the places looked in, in BFD's order, for
// a .gnu_debuglink name (the executable's folder as named, then the roots
// followed by its real folder) and for a build-ID name (the current
// folder, then the roots).
func TestDebugFileCandidates(t *testing.T) {
	dir := t.TempDir()
	real, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	exe := filepath.Join(dir, "prog")
	require.NoError(t, os.WriteFile(exe, nil, 0o755))
	multiarch := configuredDebugDir()
	assert.Equal(t, []string{
		dir + "/p.debug",
		dir + "/.debug/p.debug",
		"/usr/lib/debug" + real + "/p.debug",
		"/usr/lib/debug/usr" + real + "/p.debug",
		multiarch + real + "/p.debug",
	}, debugFileCandidates(exe, "p.debug", true))
	assert.Equal(t, []string{
		".build-id/ab/cd.debug",
		".debug/.build-id/ab/cd.debug",
		"/usr/lib/debug/.build-id/ab/cd.debug",
		"/usr/lib/debug/usr/.build-id/ab/cd.debug",
		multiarch + "/.build-id/ab/cd.debug",
	}, debugFileCandidates(exe, ".build-id/ab/cd.debug", false))
}
