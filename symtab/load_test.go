package symtab

import (
	"bufio"
	"bytes"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoadReadsEverything loads a copy of an executable, removes the copy
// and then asks the table for everything that comes from the file: no
// answer may need it any more.
func TestLoadReadsEverything(t *testing.T) {
	src := "../testdata/progs/cxx/prog"
	data, err := os.ReadFile(src)
	if err != nil {
		t.Skip("no testdata/progs/cxx/prog")
	}
	prog := filepath.Join(t.TempDir(), "prog")
	require.NoError(t, os.WriteFile(prog, data, 0o755))
	tab, err := Load(prog, Options{ReadText: true})
	require.NoError(t, err)
	require.NoError(t, os.Remove(prog))

	f, err := elf.Open(src)
	require.NoError(t, err)
	defer f.Close()
	text := f.Section(".text")
	want, err := text.Data()
	require.NoError(t, err)
	assert.Equal(t, want, tab.TextBytes())
	off, ok := tab.TextFileOffset()
	assert.True(t, ok)
	assert.Equal(t, text.Offset, off)
	id, err := tab.BuildID()
	require.NoError(t, err)
	assert.NotEmpty(t, id)

	// The destructor defined in geometry.h is reported in geometry.cc (see
	// the bfd package's tests, which check it against gprof).
	found := false
	for i, s := range tab.Syms {
		if s.Name == "_ZN3geo6shapes5ShapeD2Ev" {
			loc, ok := tab.SymbolSource(i)
			require.True(t, ok)
			assert.Equal(t, SourceLoc{File: "./testdata/progs/cxx/geometry.cc", Line: 43}, loc)
			found = true
		}
	}
	assert.True(t, found)
	lt, err := tab.WithLineSymbols()
	require.NoError(t, err)
	assert.Greater(t, len(lt.Syms), len(tab.Syms))

	plain, err := Load(src, Options{})
	require.NoError(t, err)
	assert.Nil(t, plain.TextBytes(), "without ReadText")
}

// execRanges returns the address ranges of the executable sections
// readelf lists.
func execRanges(t *testing.T, prog string) [][2]uint64 {
	t.Helper()
	out, err := exec.Command("readelf", "-SW", prog).Output()
	require.NoError(t, err)
	var rs [][2]uint64
	for _, m := range readelfSectionRE.FindAllStringSubmatch(string(out), -1) {
		if !strings.Contains(m[4], "X") {
			continue
		}
		addr, err := strconv.ParseUint(m[1], 16, 64)
		require.NoError(t, err)
		size, err := strconv.ParseUint(m[3], 16, 64)
		require.NoError(t, err)
		rs = append(rs, [2]uint64{addr, addr + size})
	}
	return rs
}

// readelfSectionRE matches a section of readelf -SW: address, offset,
// size, entry size and flags.
var readelfSectionRE = regexp.MustCompile(`(?m)^\s*\[\s*\d+\]\s+\S+\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+[0-9a-f]+\s+([A-Z]*)\s`)

// TestCodeSymbolAddrsAgainstNm compares CodeSymbolAddrs with the symbols
// nm lists in symbol-table order (-p) as text (T, t, i) or as weak (W, w)
// inside an executable section, per readelf.
func TestCodeSymbolAddrsAgainstNm(t *testing.T) {
	for _, tool := range []string{"nm", "readelf"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not available", tool)
		}
	}
	progs, err := filepath.Glob("../testdata/progs/*/prog")
	require.NoError(t, err)
	if len(progs) == 0 {
		t.Skip("no test programs")
	}
	for _, prog := range progs {
		out, err := exec.Command("nm", "-p", "--defined-only", prog).Output()
		require.NoError(t, err)
		code := execRanges(t, prog)
		inExec := func(a uint64) bool {
			for _, r := range code {
				if a >= r[0] && a < r[1] {
					return true
				}
			}
			return false
		}
		var want []uint64
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) < 3 || !strings.Contains("TtWwi", fields[1]) {
				continue
			}
			addr, err := strconv.ParseUint(fields[0], 16, 64)
			require.NoError(t, err)
			if strings.Contains("Ww", fields[1]) && !inExec(addr) {
				continue
			}
			want = append(want, addr)
		}
		tab, err := Load(prog, Options{})
		require.NoError(t, err)
		assert.Equal(t, want, tab.CodeSymbolAddrs, prog)
	}
}

// TestCorruptDebugInfoSurfacesLater corrupts the compressed .debug_info of
// a program: Load still succeeds (the symbols are fine, and gprof's
// answers without -l need no lines), every symbol is without a source
// position, and -l's WithLineSymbols reports the error.
func TestCorruptDebugInfoSurfacesLater(t *testing.T) {
	if _, err := exec.LookPath("objcopy"); err != nil {
		t.Skip("objcopy not available")
	}
	src := "../testdata/progs/multifile/prog"
	if _, err := os.Stat(src); err != nil {
		t.Skip("no testdata/progs/multifile/prog")
	}
	prog := filepath.Join(t.TempDir(), "prog")
	out, err := exec.Command("objcopy", "--compress-debug-sections=zlib", src, prog).CombinedOutput()
	require.NoError(t, err, "%s", out)
	f, err := elf.Open(prog)
	require.NoError(t, err)
	info := f.Section(".debug_info")
	require.NotNil(t, info)
	require.NotZero(t, info.Flags&elf.SHF_COMPRESSED)
	off, size := info.Offset, info.FileSize
	f.Close()
	data, err := os.ReadFile(prog)
	require.NoError(t, err)
	// Past the 24-byte compression header, garble the zlib stream.
	for i := off + 26; i < off+size; i++ {
		data[i] ^= 0x5a
	}
	require.NoError(t, os.WriteFile(prog, data, 0o755))

	tab, err := Load(prog, Options{})
	require.NoError(t, err)
	for i := range tab.Syms {
		_, ok := tab.SymbolSource(i)
		assert.False(t, ok, tab.Syms[i].Name)
	}
	_, err = tab.WithLineSymbols()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "reading section .debug_info")
}
