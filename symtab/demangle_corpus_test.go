package symtab

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/egprof/egprof/internal/testenv"
)

// The checked-in golden samples of the demangling corpora, made by
// scripts/demangle-sample.sh from libiberty's output.
var (
	// corpusSamplePath holds "name<TAB>printed" lines: C++ names under
	// --demangle=auto.
	corpusSamplePath = filepath.Join("..", "testdata", "demangle", "corpus-sample.tsv.gz")
	// stylesSamplePath holds "style<TAB>name<TAB>printed" lines: the
	// other styles on the C++, Rust, D and Ada corpora.
	stylesSamplePath = filepath.Join("..", "testdata", "demangle", "styles-sample.tsv.gz")
)

// requireCorpusVar, set to 1, makes TestDemangleFullCorpus fail instead of
// skipping when the oracle or a corpus package is missing (CI sets it).
const requireCorpusVar = "EGPROF_REQUIRE_DEMANGLE_CORPUS"

// readGzipLines returns the lines of a gzip-compressed text file, each
// split at tabs into want fields.
func readGzipLines(t *testing.T, path string, want int) [][]string {
	t.Helper()
	var rows [][]string
	for i, line := range testenv.GzipLines(t, path) {
		fields := strings.SplitN(line, "\t", want)
		if len(fields) != want {
			t.Fatalf("%s:%d: %d tab-separated fields, want %d: %q", path, i+1, len(fields), want, line)
		}
		rows = append(rows, fields)
	}
	return rows
}

// TestDemangleCorpusSample compares Demangle with libiberty's spellings of
// the checked-in sample of the C++ corpus (every 15th name); it needs
// neither libiberty nor the libraries.
func TestDemangleCorpusSample(t *testing.T) {
	rows := readGzipLines(t, corpusSamplePath, 2)
	if len(rows) < 20000 {
		t.Fatalf("%s has %d names, want at least 20000", corpusSamplePath, len(rows))
	}
	names, want := make([]string, len(rows)), make([]string, len(rows))
	for i, r := range rows {
		names[i], want[i] = r[0], r[1]
	}
	// One Demangler for all the names, as egprof's outputs use one: each
	// name is demangled with storage the names before it used.
	var d Demangler
	differ := compareWithLibiberty(t, "corpus sample", "auto", names, want,
		func(name string) string { return d.Demangle(name, StyleAuto) }, true)
	t.Logf("corpus sample: %d of %d names differ from libiberty", differ, len(names))
}

// TestDemangleStylesSample compares Demangle with libiberty's spellings of
// the checked-in sample of every corpus under the other styles (Java and
// gnu-v3 on C++ names, Rust, D, Ada and auto on theirs).
func TestDemangleStylesSample(t *testing.T) {
	byStyle := map[string][][2]string{}
	for _, r := range readGzipLines(t, stylesSamplePath, 3) {
		byStyle[r[0]] = append(byStyle[r[0]], [2]string{r[1], r[2]})
	}
	for _, name := range []string{"auto", "gnu-v3", "java", "rust", "dlang", "gnat", "none"} {
		t.Run(name, func(t *testing.T) {
			rows := byStyle[name]
			if len(rows) < 300 {
				t.Fatalf("%s has %d names for --demangle=%s, want at least 300", stylesSamplePath, len(rows), name)
			}
			style, err := ParseDemangleStyle(name)
			if err != nil {
				t.Fatal(err)
			}
			names, want := make([]string, len(rows)), make([]string, len(rows))
			for i, r := range rows {
				names[i], want[i] = r[0], r[1]
			}
			var d Demangler
			differ := compareWithLibiberty(t, "styles sample", name, names, want,
				func(n string) string { return d.Demangle(n, style) }, true)
			t.Logf("styles sample, --demangle=%s: %d of %d names differ from libiberty", name, differ, len(names))
		})
	}
}

// fullCorpora are the corpora scripts/demangle-corpus.sh builds, the
// fewest names each must have, and the styles each is compared under.
var fullCorpora = []struct {
	language string
	least    int
	styles   []string
}{
	{"cxx", 200000, []string{"auto", "gnu-v3", "java"}},
	{"rust", 15000, []string{"auto", "rust", "gnu-v3"}},
	{"d", 10000, []string{"dlang", "auto"}},
	{"ada", 10000, []string{"gnat", "auto"}},
}

// TestDemangleFullCorpus builds every corpus with scripts/demangle-corpus.sh
// (the mangled names the listed Debian packages' shared libraries define)
// and compares Demangle with libiberty on every name, under the corpus's
// styles. It is skipped, saying why, without the oracle or when a package
// is not installed, unless EGPROF_REQUIRE_DEMANGLE_CORPUS is 1.
func TestDemangleFullCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the full corpora take about a minute")
	}
	skip := func(format string, args ...any) {
		t.Helper()
		if os.Getenv(requireCorpusVar) == "1" {
			t.Fatalf(format, args...)
		}
		t.Skipf(format, args...)
	}
	for _, tool := range []string{"nm", "dpkg"} {
		if _, err := exec.LookPath(tool); err != nil {
			skip("%s not found: cannot build the corpora", tool)
		}
	}
	bin, err := testenv.DemangleOracle(t, t.TempDir())
	if errors.Is(err, testenv.ErrNoOracle) {
		skip("%v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join("..", "scripts", "demangle-corpus.sh")
	for _, c := range fullCorpora {
		var stderr bytes.Buffer
		cmd := exec.Command("sh", script, c.language)
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", script, c.language, err, stderr.String())
		}
		if strings.Contains(stderr.String(), "not installed") {
			skip("the %s corpus's libraries are not all installed (install them with %s --install %s):\n%s",
				c.language, script, c.language, stderr.String())
		}
		names := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(names) < c.least {
			t.Fatalf("the %s corpus has %d names, want at least %d", c.language, len(names), c.least)
		}
		for _, name := range c.styles {
			style, err := ParseDemangleStyle(name)
			if err != nil {
				t.Fatal(err)
			}
			want := runDemangleOracle(t, bin, name, names)
			var d Demangler
			differ := compareWithLibiberty(t, c.language+" corpus", name, names, want,
				func(n string) string { return d.Demangle(n, style) }, true)
			t.Logf("%s corpus, --demangle=%s: %d of %d names differ from libiberty", c.language, name, differ, len(names))
		}
	}
}
