package symtab

import (
	"os"
	"path/filepath"
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
// panic, and an error always names the file.
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
		for _, name := range m.FileNames() {
			if _, _, found := m.Lookup(name); found && name == "" {
				t.Fatalf("empty file name")
			}
		}
	})
}

// FuzzLoad loads corrupted executables: symbol selection, the DWARF line
// decoder and -l's line symbols must never panic, only fail cleanly.
func FuzzLoad(f *testing.F) {
	for _, p := range []string{"../testdata/progs/cycles-m32/prog", "../testdata/demo/prog"} {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data, uint32(0), byte(0))
			f.Add(data, uint32(len(data)/3), byte(0xff))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, at uint32, b byte) {
		if len(data) > 0 {
			data = append([]byte(nil), data...)
			data[int(at)%len(data)] ^= b
		}
		path := filepath.Join(t.TempDir(), "prog")
		if err := os.WriteFile(path, data, 0o666); err != nil {
			t.Fatal(err)
		}
		tab, err := Load(path, Options{})
		if err != nil {
			return
		}
		for i := range tab.Syms {
			tab.SymbolSource(i)
			tab.Lookup(tab.Syms[i].Addr)
		}
		if lt, err := tab.WithLineSymbols(); err == nil {
			for i := range lt.Syms {
				lt.SymbolSource(i)
			}
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
