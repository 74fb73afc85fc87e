package getopt

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/testenv"
)

// TestAgainstGprof runs GNU gprof 2.40, if installed, on every case that
// uses gprof's tables, in an empty directory, and checks what it does
// first: exit 0 at -v/-h, print the getopt diagnostic, or (when parsing
// succeeds) complain that the image operand, or a.out, does not exist.
func TestAgainstGprof(t *testing.T) {
	path := testenv.Gprof(t)
	out, err := exec.Command(path, "--version").Output()
	if err != nil || !strings.Contains(strings.SplitN(string(out), "\n", 2)[0], " 2.40") {
		t.Skip("gprof is not version 2.40")
	}
	dir := t.TempDir()
	for _, c := range cases {
		if c.p.Shorts != gprofShorts {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(path, c.args...)
			cmd.Args[0] = "gprof" // glibc prints argv[0] as given
			cmd.Dir = dir
			cmd.Env = []string{"LC_ALL=C", "PATH=" + os.Getenv("PATH")}
			if c.p.Posixly {
				cmd.Env = append(cmd.Env, "POSIXLY_CORRECT=1")
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			first, _, _ := strings.Cut(stderr.String(), "\n")

			for _, o := range c.opts {
				if o.Short == 'v' || o.Short == 'h' {
					require.NoError(t, err, "stderr: %s", first)
					return
				}
			}
			require.Error(t, err)
			if c.err != "" {
				assert.Equal(t, "gprof: "+c.err, first)
				return
			}
			image := "a.out"
			if len(c.operands) > 0 {
				image = c.operands[0]
			}
			want := "No such file or directory" // perror("") omits the prefix
			if image != "" {
				want = image + ": " + want
			}
			assert.Equal(t, want, first)
		})
	}
}

// glibcResult is what the C driver reports for one case.
type glibcResult struct {
	opts     []Option
	operands []string
	err      string
}

// runGlibc compiles testdata/glibc_getopt.c and runs glibc's getopt_long on
// each case, or skips the test if that is not possible.
func runGlibc(t *testing.T, ps []*Parser, argss [][]string) []glibcResult {
	t.Helper()
	cc := testenv.Tool(t, "gcc")
	bin := filepath.Join(t.TempDir(), "glibc_getopt")
	if out, err := exec.Command(cc, "-O1", "-o", bin, filepath.Join("testdata", "glibc_getopt.c")).CombinedOutput(); err != nil {
		t.Skipf("cannot build the glibc driver (glibc >= 2.26 needed): %v\n%s", err, out)
	}

	enc := func(s string) string {
		if s == "" {
			return "-"
		}
		return hex.EncodeToString([]byte(s))
	}
	var in bytes.Buffer
	for k, p := range ps {
		fields := []string{enc(p.Shorts), strconv.Itoa(len(p.Longs))}
		for _, lo := range p.Longs {
			fields = append(fields, enc(lo.Name), strconv.Itoa(int(lo.Arg)), strconv.Itoa(int(lo.Short)))
		}
		posix := "0"
		if p.Posixly {
			posix = "1"
		}
		fields = append(fields, posix, strconv.Itoa(len(argss[k])))
		for _, a := range argss[k] {
			fields = append(fields, enc(a))
		}
		in.WriteString(strings.Join(fields, " ") + "\n")
	}
	cmd := exec.Command(bin)
	cmd.Stdin = &in
	out, err := cmd.Output()
	require.NoError(t, err)

	dec := func(s string) string {
		if s == "-" {
			return ""
		}
		b, err := hex.DecodeString(s)
		require.NoError(t, err)
		return string(b)
	}
	var res []glibcResult
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		p := ps[len(res)]
		var r glibcResult
		for _, f := range strings.Fields(sc.Text()) {
			parts := strings.Split(f, ":")
			switch parts[0] {
			case "o":
				val, _ := strconv.Atoi(parts[1])
				li, _ := strconv.Atoi(parts[2])
				o := Option{Short: rune(val), HasArg: parts[3] == "1", Arg: dec(parts[4])}
				if li >= 0 {
					o.Long, o.IsLong = p.Longs[li].Name, true
				}
				r.opts = append(r.opts, o)
			case "e":
				r.err = dec(parts[1])
			case "x":
				r.operands = append(r.operands, dec(parts[1]))
			}
		}
		res = append(res, r)
	}
	require.Len(t, res, len(ps))
	return res
}

// compareWithGlibc checks Parse against glibc's result for one case.
func compareWithGlibc(t *testing.T, p *Parser, args []string, g glibcResult) {
	t.Helper()
	opts, operands, err := p.Parse(args)
	msg := fmt.Sprintf("Parser %+v args %q", *p, args)
	assert.Equal(t, g.opts, opts, msg)
	if g.err != "" {
		if assert.Error(t, err, msg) {
			assert.Equal(t, g.err, err.Error(), msg)
		}
		return
	}
	assert.NoError(t, err, msg)
	assert.Equal(t, g.operands, operands, msg)
}

// TestAgainstGlibc runs every table case, and many random ones, through
// glibc's getopt_long (via a small C driver) and compares the results.
// It is skipped where gcc or glibc is missing.
func TestAgainstGlibc(t *testing.T) {
	var ps []*Parser
	var argss [][]string
	for _, c := range cases {
		ps = append(ps, c.p)
		argss = append(argss, c.args)
	}
	r := rand.New(rand.NewPCG(1, 2))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for range n {
		var p *Parser
		switch r.IntN(4) {
		case 0:
			p = gprof()
		case 1:
			p = posixly()
		case 2:
			p = other()
			p.Posixly = r.IntN(2) == 0
		default:
			p = randomParser(r)
		}
		ps = append(ps, p)
		argss = append(argss, randomArgs(r, p))
	}

	res := runGlibc(t, ps, argss)
	for k := range ps {
		name := "random"
		if k < len(cases) {
			name = cases[k].name
		}
		t.Run(name, func(t *testing.T) { compareWithGlibc(t, ps[k], argss[k], res[k]) })
	}
}

// randomParser makes a small table whose names share prefixes, so that
// exact matches, abbreviations and ambiguities are all common.
func randomParser(r *rand.Rand) *Parser {
	var shorts strings.Builder
	for range r.IntN(6) {
		shorts.WriteByte("abc-="[r.IntN(5)])
		shorts.WriteString([]string{"", ":", "::"}[r.IntN(3)])
	}
	p := &Parser{Shorts: strings.TrimLeft(shorts.String(), "-:+"), Posixly: r.IntN(4) == 0}
	for range r.IntN(7) {
		name := make([]byte, r.IntN(4))
		for i := range name {
			name[i] = "xy-"[r.IntN(3)]
		}
		p.Longs = append(p.Longs, LongOption{
			Name:  string(name),
			Arg:   ArgKind(r.IntN(3)),
			Short: []rune{'a', 'b', 'x', 200}[r.IntN(4)],
		})
	}
	return p
}

// randomArgs makes a command line from pieces that exercise p.
func randomArgs(r *rand.Rand, p *Parser) []string {
	fixed := []string{"", "-", "--", "---", "--=", "--=x", "prog", "gmon", "40", "-x", "a=b"}
	var args []string
	for range r.IntN(6) {
		switch r.IntN(4) {
		case 0:
			args = append(args, fixed[r.IntN(len(fixed))])
		case 1: // a short cluster
			var b strings.Builder
			b.WriteByte('-')
			pool := p.Shorts + "gv:;é"
			for range 1 + r.IntN(3) {
				b.WriteByte(pool[r.IntN(len(pool))])
			}
			args = append(args, b.String())
		default: // a long option, often abbreviated, sometimes with =value
			name := "bogus"
			if len(p.Longs) > 0 {
				name = p.Longs[r.IntN(len(p.Longs))].Name
				name = name[:r.IntN(len(name)+1)]
			}
			w := "--" + name
			if r.IntN(3) == 0 {
				w += "=" + fixed[r.IntN(len(fixed))]
			}
			args = append(args, w)
		}
	}
	return args
}
