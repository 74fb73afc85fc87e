package symtab

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// corpusSamplePath is the checked-in golden sample of the C++ corpus, made
// by scripts/demangle-sample.sh: "name<TAB>libiberty's spelling" lines.
var corpusSamplePath = filepath.Join("..", "testdata", "demangle", "corpus-sample.tsv.gz")

// minFullCorpus is the least number of names the full corpus must have.
const minFullCorpus = 200000

// readCorpusSample returns the sample's names and libiberty's spellings.
func readCorpusSample(t *testing.T) (names, want []string) {
	t.Helper()
	f, err := os.Open(corpusSamplePath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", corpusSamplePath, err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", corpusSamplePath, err)
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		name, printed, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("%s: line without a tab: %q", corpusSamplePath, line)
		}
		names = append(names, name)
		want = append(want, printed)
	}
	return names, want
}

// TestDemangleCorpusSample compares Demangle with libiberty's spellings of
// the checked-in sample of the C++ corpus (every 15th name of the corpus
// scripts/demangle-corpus.sh builds); it needs neither libiberty nor the
// libraries.
func TestDemangleCorpusSample(t *testing.T) {
	names, want := readCorpusSample(t)
	if len(names) < 20000 {
		t.Fatalf("%s has %d names, want at least 20000", corpusSamplePath, len(names))
	}
	differ := compareWithLibiberty(t, "corpus sample", "auto", names, want,
		func(name string) string { return Demangle(name, StyleAuto) }, true)
	t.Logf("corpus sample: %d of %d names differ from libiberty", differ, len(names))
}

// TestDemangleFullCorpus builds the full C++ corpus with
// scripts/demangle-corpus.sh (every mangled function name the listed Debian
// packages' shared libraries define) and compares Demangle with libiberty
// on every name. It is skipped, saying why, without the oracle or when a
// package is not installed.
func TestDemangleFullCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the full corpus takes about a minute")
	}
	for _, tool := range []string{"nm", "dpkg"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: cannot build the corpus", tool)
		}
	}
	bin := buildDemangleOracle(t)
	script := filepath.Join("..", "scripts", "demangle-corpus.sh")
	var stderr bytes.Buffer
	cmd := exec.Command("sh", script)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, stderr.String())
	}
	if strings.Contains(stderr.String(), "not installed") {
		t.Skipf("the corpus libraries are not all installed (install them with %s --install):\n%s", script, stderr.String())
	}
	names := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(names) < minFullCorpus {
		t.Fatalf("the corpus has %d names, want at least %d", len(names), minFullCorpus)
	}
	want := runDemangleOracle(t, bin, "auto", names)
	differ := compareWithLibiberty(t, "full corpus", "auto", names, want,
		func(name string) string { return Demangle(name, StyleAuto) }, true)
	t.Logf("full corpus: %d of %d names differ from libiberty", differ, len(names))
}
