package symtab

import (
	"bufio"
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/egprof/egprof/internal/testenv"
)

// The oracle is libiberty itself: scripts/demangle-oracle.c prints every
// name as gprof 2.40 does (bfd_demangle with DMGL_ANSI | DMGL_PARAMS, under
// cplus_demangle_set_style for --demangle=STYLE).

// buildDemangleOracle compiles scripts/demangle-oracle.c, or skips the
// test with the reason when gcc or libiberty is missing.
func buildDemangleOracle(t *testing.T) string {
	t.Helper()
	bin, err := testenv.DemangleOracle(t, t.TempDir())
	if errors.Is(err, testenv.ErrNoOracle) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// runDemangleOracle returns the oracle's output for each name.
func runDemangleOracle(t *testing.T, bin, style string, names []string) []string {
	t.Helper()
	cmd := exec.Command(bin, style)
	cmd.Stdin = strings.NewReader(strings.Join(names, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("demangle-oracle %s: %v\n%s", style, err, stderr.String())
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(got) != len(names) {
		t.Fatalf("demangle-oracle %s: %d lines for %d names", style, len(got), len(names))
	}
	return got
}

// readNameList reads a file of names, one a line, skipping empty lines
// and '#' comments.
func readNameList(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, line := range strings.Split(string(data), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			names = append(names, line)
		}
	}
	return names
}

// elfSymbolNames returns the names of an ELF file's symbols, static and
// dynamic, with "@version" on dynamic ones that have a version.
func elfSymbolNames(f *elf.File) []string {
	var names []string
	if syms, err := f.Symbols(); err == nil {
		for _, s := range syms {
			names = append(names, s.Name)
		}
	}
	if syms, err := f.DynamicSymbols(); err == nil {
		for _, s := range syms {
			names = append(names, s.Name)
			if s.Version != "" {
				names = append(names, s.Name+"@"+s.Version)
			}
		}
	}
	return names
}

// archiveSymbolNames returns the symbol names of every ELF object in a
// Unix ar archive (libstdc++.a).
func archiveSymbolNames(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	const magic, headerLen = "!<arch>\n", 60
	if !bytes.HasPrefix(data, []byte(magic)) {
		return nil, fmt.Errorf("%s: not an ar archive", path)
	}
	var names []string
	for off := len(magic); off+headerLen <= len(data); {
		size, err := strconv.Atoi(strings.TrimSpace(string(data[off+48 : off+58])))
		if err != nil || off+headerLen+size > len(data) {
			return nil, fmt.Errorf("%s: bad member header at %d", path, off)
		}
		member := data[off+headerLen : off+headerLen+size]
		if f, err := elf.NewFile(bytes.NewReader(member)); err == nil {
			names = append(names, elfSymbolNames(f)...)
		}
		off += headerLen + size + size%2
	}
	return names, nil
}

// libstdcxxPath asks g++ where a libstdc++ file is.
func libstdcxxPath(file string) (string, error) {
	out, err := exec.Command("g++", "-print-file-name="+file).Output()
	if err != nil {
		return "", fmt.Errorf("g++ -print-file-name=%s: %w", file, err)
	}
	p := strings.TrimSpace(string(out))
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("g++ does not know %s", file)
	}
	return p, nil
}

// demangleCorpora returns the names to compare, by corpus: the test
// programs' symbols, libstdc++'s (shared library and static archive, read
// now rather than checked in), the checked-in tricky names and the inputs
// of libiberty's own test suites.
func demangleCorpora(t *testing.T) map[string][]string {
	t.Helper()
	corpora := map[string][]string{
		"tricky":    readNameList(t, filepath.Join("..", "testdata", "demangle", "tricky.txt")),
		"libiberty": readNameList(t, filepath.Join("..", "testdata", "demangle", "libiberty-inputs.txt")),
	}
	progs, _ := filepath.Glob(filepath.Join("..", "testdata", "progs", "*", "prog"))
	progs = append(progs, filepath.Join("..", "testdata", "demo", "prog"))
	for _, p := range progs {
		f, err := elf.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		corpora["testdata"] = append(corpora["testdata"], elfSymbolNames(f)...)
		f.Close()
	}
	if p, err := libstdcxxPath("libstdc++.so"); err != nil {
		t.Logf("libstdc++.so skipped: %v", err)
	} else if f, err := elf.Open(p); err != nil {
		t.Logf("libstdc++.so skipped: %v", err)
	} else {
		corpora["libstdc++.so"] = elfSymbolNames(f)
		f.Close()
	}
	if p, err := libstdcxxPath("libstdc++.a"); err != nil {
		t.Logf("libstdc++.a skipped: %v", err)
	} else if names, err := archiveSymbolNames(p); err != nil && !errors.Is(err, io.EOF) {
		t.Logf("libstdc++.a skipped: %v", err)
	} else {
		corpora["libstdc++.a"] = names
	}
	for k, names := range corpora {
		corpora[k] = uniqueNonEmpty(names)
	}
	return corpora
}

// uniqueNonEmpty returns the distinct non-empty names, sorted.
func uniqueNonEmpty(names []string) []string {
	sort.Strings(names)
	out := names[:0]
	for i, n := range names {
		if n != "" && (i == 0 || n != names[i-1]) {
			out = append(out, n)
		}
	}
	return out
}

// TestDemangleMatchesLibiberty compares Demangle with libiberty over every
// corpus and every style; every style must match exactly.
func TestDemangleMatchesLibiberty(t *testing.T) {
	bin := buildDemangleOracle(t)
	corpora := demangleCorpora(t)
	styles := []struct {
		name  string
		style DemangleStyle
		exact bool // must match libiberty
	}{
		{"auto", StyleAuto, true},
		{"gnu-v3", StyleGNUv3, true},
		{"rust", StyleRust, true},
		{"gnat", StyleGNAT, true},
		{"none", StyleNone, true},
		{"java", StyleJava, true},
		{"dlang", StyleDLang, true},
	}
	corpusNames := make([]string, 0, len(corpora))
	for c := range corpora {
		corpusNames = append(corpusNames, c)
	}
	sort.Strings(corpusNames)
	for _, st := range styles {
		t.Run(st.name, func(t *testing.T) {
			for _, corpus := range corpusNames {
				names := corpora[corpus]
				want := runDemangleOracle(t, bin, st.name, names)
				differ := compareWithLibiberty(t, corpus, st.name, names, want,
					func(name string) string { return Demangle(name, st.style) }, st.exact)
				t.Logf("--demangle=%s, %s: %d of %d names differ from libiberty", st.name, corpus, differ, len(names))
			}
		})
	}
}

// compareWithLibiberty compares demangled(name) with libiberty's spelling
// want[i] for every name and returns how many differ. A difference is a
// test error when exact is set, or when libiberty leaves the name raw, and
// is only counted otherwise. At most 20 errors are reported one by one.
func compareWithLibiberty(t *testing.T, corpus, style string, names, want []string, demangled func(string) string, exact bool) int {
	t.Helper()
	differ, reported := 0, 0
	for i, name := range names {
		got := demangled(name)
		if got == want[i] {
			continue
		}
		differ++
		if exact || want[i] == name {
			if reported++; reported <= 20 {
				t.Errorf("%s: Demangle(%q, %s)\n got  %s\n want %s", corpus, name, style, got, want[i])
			}
		}
	}
	return differ
}

// callGraphPrimary matches a primary line of gprof's call graph: index,
// %time, self, children, an optional call count, then the name, an
// optional cycle tag and the index again.
var callGraphPrimary = regexp.MustCompile(`^\[\d+\]\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+(?:[\d+/]+\s+)?(.*?)(?: <cycle \d+>)? \[\d+\]$`)

// TestDemangleOracleAgreesWithGprof checks the oracle itself against GNU
// gprof: the C++ test program's call graph printed by gprof names every
// function as the oracle does.
func TestDemangleOracleAgreesWithGprof(t *testing.T) {
	gprof, err := exec.LookPath("gprof")
	if err != nil {
		t.Skip("GNU gprof not found")
	}
	bin := buildDemangleOracle(t)
	dir := filepath.Join("..", "testdata", "progs", "cxx")
	for _, style := range []string{"auto", "gnat"} {
		out, err := exec.Command(gprof, "-b", "-q", "--demangle="+style, filepath.Join(dir, "prog"), filepath.Join(dir, "gmon.out")).Output()
		if err != nil {
			t.Fatalf("gprof: %v", err)
		}
		f, err := elf.Open(filepath.Join(dir, "prog"))
		if err != nil {
			t.Fatal(err)
		}
		names := uniqueNonEmpty(elfSymbolNames(f))
		f.Close()
		printed := runDemangleOracle(t, bin, style, names)
		printedSet := map[string]bool{}
		for _, p := range printed {
			printedSet[p] = true
		}
		matched := 0
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			m := callGraphPrimary.FindStringSubmatch(sc.Text())
			if m == nil || strings.HasPrefix(m[1], "<cycle ") {
				continue
			}
			if !printedSet[m[1]] {
				t.Errorf("--demangle=%s: gprof printed %q, which the oracle prints for no symbol", style, m[1])
			}
			matched++
		}
		if matched == 0 {
			t.Fatalf("--demangle=%s: no call graph lines in gprof's output", style)
		}
	}
}
