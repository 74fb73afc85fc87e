package symtab

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseExternalSymbols feeds -S symbol files to the parser: it must
// never panic, and every symbol it returns is a text symbol with a name.
func FuzzParseExternalSymbols(f *testing.F) {
	f.Add([]byte("0000000000001139 T main\n0000000000001129 t helper\n"))
	f.Add([]byte("\n  0x1139\tT\tmain\n+1129   t   entry trailing words\n0X1200 T work\n"))
	f.Add([]byte("0000000000004010 B sink\n0000000000001000 D data\n"))
	f.Add([]byte("zz T bad_address\n1000 t\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, s := range ParseExternalSymbols(data) {
			if s.Name == "" || !s.IsFunc {
				t.Fatalf("symbol %+v from %q", s, data)
			}
		}
	})
}

// FuzzParseFunctionMap feeds -R mapping files to the parser: never a
// panic, an error always names the file, and names end at a NUL byte.
func FuzzParseFunctionMap(f *testing.F) {
	f.Add([]byte("a.o:0000000000000000 T main\nb.o:0000000000000010 t helper\n"))
	f.Add([]byte("No symbols in c.o\nd.o:0000000000000000 T work\n"))
	f.Add([]byte(""))
	f.Add([]byte("x.o"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseFunctionMap(data, "map.txt")
		if err != nil {
			if !containsString(err.Error(), "map.txt") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		// Names are C strings, as gprof reads them: a NUL byte ends one
		// (a line "\x00:..." maps its function to an empty file name, as
		// in gprof).
		for _, name := range m.FileNames() {
			if strings.IndexByte(name, 0) >= 0 {
				t.Fatalf("file name %q holds a NUL byte", name)
			}
		}
	})
}

// tinyProgram is the seed executable of the fuzz targets: a few hundred
// bytes of code with symbols and DWARF (testdata/fuzz/tiny/build.sh), so
// that one execution takes microseconds.
const tinyProgram = "../testdata/fuzz/tiny/prog"

// addExecutableSeeds seeds f with the tiny program and, with extra, a
// checked-in 32-bit test program.
func addExecutableSeeds(f *testing.F, extra ...string) {
	for _, p := range append([]string{tinyProgram}, extra...) {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// loadBytes loads data as an executable, without a file.
func loadBytes(t *testing.T, data []byte) (*Table, error) {
	const path = "fuzz-prog"
	tab, err := load(path, bytes.NewReader(data), int64(len(data)), Options{})
	if err != nil && !containsString(err.Error(), path) {
		t.Fatalf("error does not name the file: %v", err)
	}
	return tab, err
}

// FuzzLoadSymbols loads corrupted executables: the ELF symbol layer (and
// the per-symbol DWARF lookups SymbolSource makes) must never panic, only fail
// with an error naming the file; a table it returns is sorted and its
// lookups answer.
func FuzzLoadSymbols(f *testing.F) {
	addExecutableSeeds(f, "../testdata/progs/cycles-m32/prog")
	addDebugLinkSeed(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := loadBytes(t, data)
		if err != nil {
			return
		}
		for i := range tab.Syms {
			if i > 0 && tab.Syms[i-1].Addr >= tab.Syms[i].Addr {
				t.Fatalf("symbols %d and %d out of order", i-1, i)
			}
			tab.SymbolSource(i)
			if k := tab.Lookup(tab.Syms[i].Addr); k != i && tab.Syms[i].End >= tab.Syms[i].Addr {
				t.Fatalf("symbol %d's address looks up symbol %d", i, k)
			}
		}
	})
}

// FuzzLineSymbols builds -l's line symbols from corrupted small
// executables: walking .text through the DWARF line lookups must never
// panic or run away (a .text larger than the file is refused).
func FuzzLineSymbols(f *testing.F) {
	addExecutableSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := loadBytes(t, data)
		if err != nil {
			return
		}
		lt, err := tab.WithLineSymbols()
		if err != nil {
			return
		}
		// The walk's bound is exclusive: an empty .text at address 0 ends
		// at 0, not at the top of the address space.
		if end := tab.TextEnd + 1; tab.lines != nil && end > tab.TextLow && end-tab.TextLow > uint64(len(data)) {
			t.Fatalf(".text of %d bytes in a file of %d walked", end-tab.TextLow, len(data))
		}
		for i := range lt.Syms {
			lt.SymbolSource(i)
		}
	})
}

func containsString(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// addDebugLinkSeed adds the tiny program stripped of its debug sections
// and given a .gnu_debuglink section, as objcopy makes it, so that the
// fuzzer reaches the reading of that section (skipped without objcopy).
func addDebugLinkSeed(f *testing.F) {
	objcopy, err := exec.LookPath("objcopy")
	if err != nil {
		return
	}
	dir := f.TempDir()
	debug, stripped := filepath.Join(dir, "prog.debug"), filepath.Join(dir, "prog")
	for _, args := range [][]string{
		{"--only-keep-debug", tinyProgram, debug},
		{"--strip-debug", "--add-gnu-debuglink=" + debug, tinyProgram, stripped},
	} {
		if out, err := exec.Command(objcopy, args...).CombinedOutput(); err != nil {
			f.Fatalf("objcopy %v: %v\n%s", args, err, out)
		}
	}
	data, err := os.ReadFile(stripped)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
}
