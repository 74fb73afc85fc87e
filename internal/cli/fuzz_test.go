package cli

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// FuzzSplitArgs feeds @FILE response files to the word splitter: never a
// panic, and no word holds unquoted white space.
func FuzzSplitArgs(f *testing.F) {
	f.Add("-b\n-p\nprog gmon.out")
	f.Add(`'quoted word' "double \"q\"" back\ slash`)
	f.Add("unterminated 'quote")
	f.Fuzz(func(t *testing.T, s string) {
		words := splitArgs(s)
		if !strings.ContainsAny(s, `'"\`) {
			for _, w := range words {
				if strings.ContainsAny(w, " \t\n\r\f\v") {
					t.Fatalf("word %q from %q", w, s)
				}
			}
		}
	})
}

// FuzzParseCommandLine feeds whole command lines (words separated by NUL)
// through egprof's option table, gprof's and egprof's own options alike:
// never a panic; a command that stops with a failure says why on stderr;
// one that goes on has at least one profile to read, each a word of the
// command line, in order (or gprof's default gmon.out).
func FuzzParseCommandLine(f *testing.F) {
	f.Add("-b\x00-p\x00prog\x00gmon.out", false)
	f.Add("--diff=b.out\x00--diff-scale=mean\x00--impact\x00--format=json\x00prog\x00a.out", false)
	f.Add("--ranks\x00--rank-activity=MPI_*\x00--save-summary=s.sum\x00prog\x00r0\x00r1", false)
	f.Add("-k\x00a/b\x00-Qmain\x00-q\x00-l\x00-A\x00-x\x00-I\x00src:lib\x00-w\x0040", true)
	f.Add("--experiment=t.tsv\x00--sort=rsd\x00--graph=g.svg\x00--pprof=p.pb.gz\x00-v", false)
	f.Add("--no-such\x00-Z\x00--demangle=java\x00--function-ordering\x00--file-ordering=m", false)
	f.Fuzz(func(t *testing.T, cmdline string, posix bool) {
		argv := append([]string{"egprof"}, strings.Split(cmdline, "\x00")...)
		for _, a := range argv {
			if strings.HasPrefix(a, "@") {
				return // response files read the disk; FuzzSplitArgs covers their words
			}
		}
		env := func(name string) (string, bool) { return "", posix && name == "POSIXLY_CORRECT" }
		var out, errw strings.Builder
		c, stop := parseCommandLine(argv, env, &out, &errw)
		switch {
		case stop != nil && stop.code != 0 && errw.Len() == 0:
			t.Fatalf("%q: exit status %d without a message", argv, stop.code)
		case stop == nil && c == nil:
			t.Fatalf("%q: neither a configuration nor an exit status", argv)
		case stop == nil && len(c.gmonFiles) == 0:
			t.Fatalf("%q: no profile to read", argv)
		case stop == nil && !slices.Equal(c.gmonFiles, []string{"gmon.out"}) && !isSubsequence(c.gmonFiles, argv[1:]):
			t.Fatalf("%q: profiles %q are not words of the command line in order", argv, c.gmonFiles)
		}
	})
}

// isSubsequence reports whether sub's words appear in words in order.
func isSubsequence(sub, words []string) bool {
	for _, w := range words {
		if len(sub) > 0 && sub[0] == w {
			sub = sub[1:]
		}
	}
	return len(sub) == 0
}

// FuzzReadFileList feeds --files-from lists: a list with a NUL byte is
// refused; otherwise there is a path for each line that is not blank,
// with neither its newline nor its carriage return, in order.
func FuzzReadFileList(f *testing.F) {
	f.Add([]byte("gmon.rank0.1\ngmon.rank1.2\n"))
	f.Add([]byte("a\r\n\r\n  \nb"))
	f.Add([]byte("a\x00b"))
	f.Fuzz(func(t *testing.T, list []byte) {
		paths, err := readFileList(list)
		if bytes.IndexByte(list, 0) >= 0 {
			if err == nil {
				t.Fatalf("%q: a NUL byte accepted", list)
			}
			return
		}
		if err != nil {
			t.Fatalf("%q: %v", list, err)
		}
		var want []string
		for _, line := range strings.Split(string(list), "\n") {
			if line = strings.TrimSuffix(line, "\r"); strings.TrimSpace(line) != "" {
				want = append(want, line)
			}
		}
		if len(want) != len(paths) || (len(want) > 0 && !slices.Equal(want, paths)) {
			t.Fatalf("%q: paths %q, want %q", list, paths, want)
		}
	})
}
