package demangle

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/egprof/egprof/internal/testenv"
)

// styleNames are libiberty's names of the styles, indexed by Style.
var styleNames = [...]string{
	Auto: "auto", None: "none", GNUv3: "gnu-v3", Rust: "rust", Java: "java", GNAT: "gnat", DLang: "dlang",
}

// oracleTimeout is how long the fuzz test waits for libiberty's answer;
// past it the name is one libiberty takes exponential time on, and the
// oracle is restarted.
const oracleTimeout = 2 * time.Second

// oracle holds a conversation with one libiberty process
// (scripts/demangle-oracle.c -raw STYLE): a name a line in, a result and a
// NUL byte out.
type oracle struct {
	bin, style string
	cmd        *exec.Cmd
	in         io.WriteCloser
	answers    chan string
	last       string // the last name asked, for reports of a dead oracle
}

func (o *oracle) start() error {
	o.cmd = exec.Command(o.bin, "-raw", o.style)
	in, err := o.cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := o.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := o.cmd.Start(); err != nil {
		return err
	}
	o.in = in
	answers := make(chan string)
	o.answers = answers
	go func() {
		r := bufio.NewReader(out)
		for {
			s, err := r.ReadString(0)
			if err != nil {
				close(answers)
				return
			}
			answers <- strings.TrimSuffix(s, "\x00")
		}
	}()
	return nil
}

func (o *oracle) stop() {
	if o.cmd == nil {
		return
	}
	o.in.Close()
	o.cmd.Process.Kill()
	o.cmd.Wait()
	for range o.answers {
	}
	o.cmd = nil
}

// ask returns libiberty's result for name (the name itself where it
// returns NULL); ok is false when it takes longer than oracleTimeout.
func (o *oracle) ask(name string) (string, bool, error) {
	if o.cmd == nil {
		if err := o.start(); err != nil {
			return "", false, err
		}
	}
	last := o.last
	o.last = name
	if _, err := io.WriteString(o.in, name+"\n"); err != nil {
		return "", false, fmt.Errorf("libiberty died after %q: %w", last, err)
	}
	select {
	case s, open := <-o.answers:
		if !open {
			return "", false, fmt.Errorf("libiberty died on this name (or after %q)", last)
		}
		return s, true, nil
	case <-time.After(oracleTimeout):
		o.stop()
		return "", false, nil
	}
}

// readSample returns the tab-separated fields of a gzip-compressed golden
// sample's lines that have want fields.
func readSample(t testing.TB, path string, want int) [][]string {
	var rows [][]string
	for _, line := range testenv.GzipLines(t, path) {
		if fields := strings.Split(line, "\t"); len(fields) == want {
			rows = append(rows, fields)
		}
	}
	return rows
}

// fuzzSeeds returns seed names: the tricky names, the inputs of
// libiberty's own test suites and a spread of the golden samples.
func fuzzSeeds(t testing.TB) []string {
	dir := filepath.Join(testenv.Root(t), "testdata", "demangle")
	var names []string
	for _, file := range []string{"tricky.txt", "libiberty-inputs.txt"} {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if line != "" && !strings.HasPrefix(line, "#") {
				names = append(names, line)
			}
		}
	}
	for i, r := range readSample(t, filepath.Join(dir, "corpus-sample.tsv.gz"), 2) {
		if i%200 == 0 {
			names = append(names, r[0])
		}
	}
	for i, r := range readSample(t, filepath.Join(dir, "styles-sample.tsv.gz"), 3) {
		if i%100 == 0 {
			names = append(names, r[1])
		}
	}
	return names
}

// gnatOverflows reports whether libiberty's ada_demangle would write past
// its buffer (the name's length plus 8 bytes, after "_ada_") while
// decoding the name, as repeated stream attributes ("SR__") make it do,
// even when the name turns out not to be GNAT's. libiberty's heap is then
// corrupted and the oracle may abort on a later name, so such names are
// not asked.
func gnatOverflows(name string, style Style) bool {
	if style != GNAT {
		return false
	}
	name, _, _ = strings.Cut(name, "\x00")
	mangled := strings.TrimPrefix(name, "_ada_")
	written, _ := decodeGNAT(mangled)
	return len(written) > len(mangled)+7
}

// FuzzDemangle feeds names to every style. It checks what must hold for
// any name: no panic, an output within MaxOutput and without a NUL byte,
// the same result twice; and, where libiberty is installed, the same
// result as libiberty's cplus_demangle, unless egprof gave up for
// MaxOutput or its bound on work (where libiberty goes on), libiberty
// took longer than oracleTimeout, or libiberty would write past its
// buffer (see gnatOverflows). Names with a newline are not asked (the
// oracle reads lines).
// reuseWarmers are names demangled with a Demangler before the name
// under test, so that its storage holds another name's nodes: a long
// template name and a short one.
var reuseWarmers = []string{
	"_ZNSt6vectorISt4pairINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEiESaIS7_EE17_M_realloc_insertIJS7_EEEvN9__gnu_cxx17__normal_iteratorIPS7_S9_EEDpOT_",
	"_Z1fv",
}

func FuzzDemangle(f *testing.F) {
	for i, name := range fuzzSeeds(f) {
		f.Add(uint8(i%len(styleNames)), name)
		f.Add(uint8(Auto), name)
	}
	oracles := map[Style]*oracle{}
	bin, err := testenv.DemangleOracle(f, f.TempDir())
	switch {
	case errors.Is(err, testenv.ErrNoOracle):
		f.Logf("no differential check: %v", err)
	case err != nil:
		f.Fatal(err)
	default:
		for s, name := range styleNames {
			oracles[Style(s)] = &oracle{bin: bin, style: name}
		}
		f.Cleanup(func() {
			for _, o := range oracles {
				o.stop()
			}
		})
	}
	f.Fuzz(func(t *testing.T, styleByte uint8, name string) {
		style := Style(int(styleByte) % len(styleNames))
		out, r := demangle(name, style, new(scratch))
		if len(out) > MaxOutput || strings.IndexByte(out, 0) >= 0 {
			t.Fatalf("demangle(%q, %s) = %d bytes, a NUL at %d", name, styleNames[style], len(out), strings.IndexByte(out, 0))
		}
		// Again with storage a Demangler has used for other names: the
		// same answer.
		var used Demangler
		for _, other := range reuseWarmers {
			used.Demangle(other, Auto)
		}
		if again, r2 := demangle(name, style, &used.sc); again != out || r2 != r {
			t.Fatalf("demangle(%q, %s) twice: %q (%d), then %q (%d) with reused storage", name, styleNames[style], out, r, again, r2)
		}
		o := oracles[style]
		if o == nil || r == tooLarge || strings.ContainsAny(name, "\n") || gnatOverflows(name, style) {
			return
		}
		want, answered, err := o.ask(name)
		if err != nil {
			t.Fatalf("oracle %s: %v", styleNames[style], err)
		}
		if !answered {
			t.Logf("libiberty took over %v on %q under %s", oracleTimeout, name, styleNames[style])
			return
		}
		got := out
		if r != done {
			got, _, _ = strings.Cut(name, "\x00")
		}
		if got != want {
			t.Errorf("Demangle(%q, %s)\n got  %q\n want %q (libiberty)", name, styleNames[style], got, want)
		}
	})
}
