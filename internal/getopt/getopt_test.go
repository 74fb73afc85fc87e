package getopt

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gprofShorts and gprofLongs copy the option tables of GNU gprof 2.40
// (gprof.c), in the same order. The long-only codes are CHAR_MAX+1..+3.
const gprofShorts = "aA::bBcC::d::De:E:f:F:hiI:J::k:lLm:n:N:O:p::P::q::Q::rR:sS:t:Tvw:xyzZ::"

var gprofLongs = []LongOption{
	{"line", None, 'l'},
	{"no-static", None, 'a'},
	{"ignore-non-functions", None, 'D'},
	{"external-symbol-table", Required, 'S'},
	{"annotated-source", Optional, 'A'},
	{"no-annotated-source", Optional, 'J'},
	{"flat-profile", Optional, 'p'},
	{"no-flat-profile", Optional, 'P'},
	{"graph", Optional, 'q'},
	{"no-graph", Optional, 'Q'},
	{"exec-counts", Optional, 'C'},
	{"no-exec-counts", Optional, 'Z'},
	{"function-ordering", None, 'r'},
	{"file-ordering", Required, 'R'},
	{"file-info", None, 'i'},
	{"sum", None, 's'},
	{"all-lines", None, 'x'},
	{"demangle", Optional, 128},
	{"no-demangle", None, 129},
	{"directory-path", Required, 'I'},
	{"display-unused-functions", None, 'z'},
	{"inline-file-names", None, 130},
	{"min-count", Required, 'm'},
	{"print-path", None, 'L'},
	{"separate-files", None, 'y'},
	{"static-call-graph", None, 'c'},
	{"table-length", Required, 't'},
	{"time", Required, 'n'},
	{"no-time", Required, 'N'},
	{"width", Required, 'w'},
	{"", Required, 'e'},
	{"", Required, 'E'},
	{"", Required, 'f'},
	{"", Required, 'F'},
	{"", Required, 'k'},
	{"brief", None, 'b'},
	{"debug", Optional, 'd'},
	{"help", None, 'h'},
	{"file-format", Required, 'O'},
	{"traditional", None, 'T'},
	{"version", None, 'v'},
}

func gprof() *Parser   { return &Parser{Shorts: gprofShorts, Longs: gprofLongs} }
func posixly() *Parser { return &Parser{Shorts: gprofShorts, Longs: gprofLongs, Posixly: true} }

// other is a made-up table for the rules gprof's table cannot show: an exact
// name that is also a prefix of others, and several entries that all have
// the same value and argument kind.
func other() *Parser {
	return &Parser{Shorts: "ab:c::", Longs: []LongOption{
		{"color", Optional, 'c'},
		{"colors", None, 's'},
		{"col", Required, 'b'},
		{"verbose", None, 'v'},
		{"verbose-all", None, 'v'},
		{"quiet", None, 'q'},
		{"quieter", None, 'Q'},
		{"quietest", None, 'q'},
	}}
}

// Helpers that build expected options.
func s(c rune) Option              { return Option{Short: c} }
func sa(c rune, arg string) Option { return Option{Short: c, Arg: arg, HasArg: true} }
func l(c rune, name string) Option { return Option{Short: c, Long: name, IsLong: true} }
func la(c rune, name, arg string) Option {
	return Option{Short: c, Long: name, IsLong: true, Arg: arg, HasArg: true}
}

// parseCase is one command line and what glibc's getopt_long makes of it.
type parseCase struct {
	name     string
	p        *Parser
	args     []string
	opts     []Option
	operands []string
	err      string // expected Error(), "" for none
}

func ops(o ...Option) []Option   { return o }
func words(w ...string) []string { return w }

// cases holds every table-driven case. The expectations were checked
// against gprof 2.40 itself (TestAgainstGprof) and against glibc's
// getopt_long (TestAgainstGlibc); both run automatically when available.
var cases = []parseCase{
	// Short options.
	{name: "single", p: gprof(), args: words("-b"), opts: ops(s('b'))},
	{name: "cluster", p: gprof(), args: words("-bp"), opts: ops(s('b'), s('p'))},
	{name: "cluster of three", p: gprof(), args: words("-bzT"), opts: ops(s('b'), s('z'), s('T'))},
	{name: "optional attached", p: gprof(), args: words("-pmain"), opts: ops(sa('p', "main"))},
	{name: "optional eats cluster", p: gprof(), args: words("-pb"), opts: ops(sa('p', "b"))},
	{name: "optional after flag", p: gprof(), args: words("-bpb"), opts: ops(s('b'), sa('p', "b"))},
	{name: "optional never separate", p: gprof(), args: words("-p", "main"), opts: ops(s('p')), operands: words("main")},
	{name: "optional then option", p: gprof(), args: words("-p", "-b"), opts: ops(s('p'), s('b'))},
	{name: "optional at end", p: gprof(), args: words("-A"), opts: ops(s('A'))},
	{name: "optional debug", p: gprof(), args: words("-d5", "-d"), opts: ops(sa('d', "5"), s('d'))},
	{name: "required attached", p: gprof(), args: words("-w40"), opts: ops(sa('w', "40"))},
	{name: "required separate", p: gprof(), args: words("-w", "40"), opts: ops(sa('w', "40"))},
	{name: "required in cluster attached", p: gprof(), args: words("-bw40"), opts: ops(s('b'), sa('w', "40"))},
	{name: "required in cluster separate", p: gprof(), args: words("-bw", "40"), opts: ops(s('b'), sa('w', "40"))},
	{name: "required takes option-like word", p: gprof(), args: words("-w", "-b"), opts: ops(sa('w', "-b"))},
	{name: "required takes --", p: gprof(), args: words("-w", "--", "-b"), opts: ops(sa('w', "--"), s('b'))},
	{name: "required takes empty word", p: gprof(), args: words("-w", ""), opts: ops(sa('w', ""))},
	{name: "required takes letters", p: gprof(), args: words("-wbp"), opts: ops(sa('w', "bp"))},
	{name: "deprecated -k", p: gprof(), args: words("-k", "a/b", "-ec1"), opts: ops(sa('k', "a/b"), sa('e', "c1"))},
	{name: "undocumented -B", p: gprof(), args: words("-B"), opts: ops(s('B'))},

	// Long options.
	{name: "long flag", p: gprof(), args: words("--brief"), opts: ops(l('b', "brief"))},
	{name: "long required =", p: gprof(), args: words("--width=40"), opts: ops(la('w', "width", "40"))},
	{name: "long required separate", p: gprof(), args: words("--width", "40"), opts: ops(la('w', "width", "40"))},
	{name: "long required = empty", p: gprof(), args: words("--width="), opts: ops(la('w', "width", ""))},
	{name: "long required takes option-like word", p: gprof(), args: words("--width", "--brief"), opts: ops(la('w', "width", "--brief"))},
	{name: "long value keeps later =", p: gprof(), args: words("--width=a=b"), opts: ops(la('w', "width", "a=b"))},
	{name: "long optional absent", p: gprof(), args: words("--flat-profile"), opts: ops(l('p', "flat-profile"))},
	{name: "long optional =", p: gprof(), args: words("--flat-profile=main"), opts: ops(la('p', "flat-profile", "main"))},
	{name: "long optional = empty", p: gprof(), args: words("--flat-profile="), opts: ops(la('p', "flat-profile", ""))},
	{name: "long optional never separate", p: gprof(), args: words("--flat-profile", "main"), opts: ops(l('p', "flat-profile")), operands: words("main")},
	{name: "long-only codes", p: gprof(), args: words("--demangle=gnu-v3", "--no-demangle", "--inline-file-names"),
		opts: ops(la(128, "demangle", "gnu-v3"), l(129, "no-demangle"), l(130, "inline-file-names"))},
	{name: "abbrev --v", p: gprof(), args: words("--v"), opts: ops(l('v', "version"))},
	{name: "abbrev --li", p: gprof(), args: words("--li"), opts: ops(l('l', "line"))},
	{name: "abbrev with =", p: gprof(), args: words("--no-a=X"), opts: ops(la('J', "no-annotated-source", "X"))},
	{name: "abbrev separate arg", p: gprof(), args: words("--ti", "5"), opts: ops(la('n', "time", "5"))},
	{name: "abbrev --dem", p: gprof(), args: words("--dem", "--no-d"), opts: ops(l(128, "demangle"), l(129, "no-demangle"))},
	{name: "abbrev full minus one", p: gprof(), args: words("--traditiona"), opts: ops(l('T', "traditional"))},
	{name: "empty name =X", p: gprof(), args: words("--=X"), opts: ops(la('e', "", "X"))},
	{name: "empty name =", p: gprof(), args: words("--="), opts: ops(la('e', "", ""))},
	{name: "empty name keeps later =", p: gprof(), args: words("--==a"), opts: ops(la('e', "", "=a"))},

	// Permutation, "--", "-" and POSIXLY_CORRECT.
	{name: "mixed", p: gprof(), args: words("prog", "-b", "g1.out", "-p"), opts: ops(s('b'), s('p')), operands: words("prog", "g1.out")},
	{name: "mixed with separate arg", p: gprof(), args: words("prog", "-w", "40", "gmon"), opts: ops(sa('w', "40")), operands: words("prog", "gmon")},
	{name: "double dash", p: gprof(), args: words("-b", "--", "-p", "x"), opts: ops(s('b')), operands: words("-p", "x")},
	{name: "double dash after operand", p: gprof(), args: words("prog", "--", "-b"), operands: words("prog", "-b")},
	{name: "double dash twice", p: gprof(), args: words("--", "--"), operands: words("--")},
	{name: "lone dash", p: gprof(), args: words("-", "-b"), opts: ops(s('b')), operands: words("-")},
	{name: "empty word", p: gprof(), args: words("", "-b"), opts: ops(s('b')), operands: words("")},
	{name: "nothing", p: gprof(), args: nil},
	{name: "posixly stops", p: posixly(), args: words("prog", "-b", "g1.out", "-p"), operands: words("prog", "-b", "g1.out", "-p")},
	{name: "posixly options first", p: posixly(), args: words("-b", "prog", "-p"), opts: ops(s('b')), operands: words("prog", "-p")},
	{name: "posixly double dash", p: posixly(), args: words("-b", "--", "-p"), opts: ops(s('b')), operands: words("-p")},
	{name: "posixly keeps later double dash", p: posixly(), args: words("prog", "--", "-b"), operands: words("prog", "--", "-b")},
	{name: "posixly lone dash", p: posixly(), args: words("-", "-b"), operands: words("-", "-b")},
	{name: "posixly required arg", p: posixly(), args: words("-w", "40", "prog"), opts: ops(sa('w', "40")), operands: words("prog")},

	// Errors, with glibc's wording.
	{name: "unknown long", p: gprof(), args: words("--bogus"), err: "unrecognized option '--bogus'"},
	{name: "unknown long with =", p: gprof(), args: words("--bogus=x"), err: "unrecognized option '--bogus=x'"},
	{name: "unknown long triple dash", p: gprof(), args: words("---x"), err: "unrecognized option '---x'"},
	{name: "unknown short", p: gprof(), args: words("-g"), err: "invalid option -- 'g'"},
	{name: "unknown -G", p: gprof(), args: words("-G"), err: "invalid option -- 'G'"},
	{name: "no -W", p: gprof(), args: words("-W", "foo"), err: "invalid option -- 'W'"},
	{name: "colon", p: gprof(), args: words("-:"), err: "invalid option -- ':'"},
	{name: "semicolon", p: gprof(), args: words("-;"), err: "invalid option -- ';'"},
	{name: "non-ASCII byte", p: gprof(), args: words("-é"), err: "invalid option -- '\xc3'"},
	{name: "posixly wording unchanged", p: posixly(), args: words("-g"), err: "invalid option -- 'g'"},
	{name: "missing short arg", p: gprof(), args: words("-k"), err: "option requires an argument -- 'k'"},
	{name: "missing short arg in cluster", p: gprof(), args: words("-bw"), opts: ops(s('b')), err: "option requires an argument -- 'w'"},
	{name: "missing long arg", p: gprof(), args: words("--width"), err: "option '--width' requires an argument"},
	{name: "missing long arg abbrev", p: gprof(), args: words("--wid"), err: "option '--width' requires an argument"},
	{name: "missing long arg abbrev ti", p: gprof(), args: words("--ti"), err: "option '--time' requires an argument"},
	{name: "no arg allowed", p: gprof(), args: words("--help=x"), err: "option '--help' doesn't allow an argument"},
	{name: "no arg allowed abbrev", p: gprof(), args: words("--he=x"), err: "option '--help' doesn't allow an argument"},
	{name: "no arg allowed empty", p: gprof(), args: words("--h="), err: "option '--help' doesn't allow an argument"},
	{name: "ambiguous --file", p: gprof(), args: words("--file"),
		err: "option '--file' is ambiguous; possibilities: '--file-ordering' '--file-info' '--file-format'"},
	{name: "ambiguous keeps =value", p: gprof(), args: words("--file=x"),
		err: "option '--file=x' is ambiguous; possibilities: '--file-ordering' '--file-info' '--file-format'"},
	{name: "ambiguous --no", p: gprof(), args: words("--no"),
		err: "option '--no' is ambiguous; possibilities: '--no-static' '--no-annotated-source' '--no-flat-profile' '--no-graph' '--no-exec-counts' '--no-demangle' '--no-time'"},
	{name: "ambiguous --d", p: gprof(), args: words("--d"),
		err: "option '--d' is ambiguous; possibilities: '--demangle' '--directory-path' '--display-unused-functions' '--debug'"},
	{name: "ambiguous --de", p: gprof(), args: words("--de"), err: "option '--de' is ambiguous; possibilities: '--demangle' '--debug'"},
	{name: "ambiguous --f", p: gprof(), args: words("--f"),
		err: "option '--f' is ambiguous; possibilities: '--flat-profile' '--function-ordering' '--file-ordering' '--file-info' '--file-format'"},
	{name: "ambiguous --t", p: gprof(), args: words("--t"), err: "option '--t' is ambiguous; possibilities: '--table-length' '--time' '--traditional'"},
	{name: "ambiguous --s", p: gprof(), args: words("--s"), err: "option '--s' is ambiguous; possibilities: '--sum' '--separate-files' '--static-call-graph'"},

	// Left to right: options before an error are returned.
	{name: "version before error", p: gprof(), args: words("-v", "--bogus"), opts: ops(s('v')), err: "unrecognized option '--bogus'"},
	{name: "error before version", p: gprof(), args: words("--bogus", "-v"), err: "unrecognized option '--bogus'"},
	{name: "version then bad letter", p: gprof(), args: words("-vg"), opts: ops(s('v')), err: "invalid option -- 'g'"},
	{name: "bad letter then version", p: gprof(), args: words("-gv"), err: "invalid option -- 'g'"},
	{name: "help before missing arg", p: gprof(), args: words("prog", "--help", "-k"), opts: ops(l('h', "help")), operands: words("prog"), err: "option requires an argument -- 'k'"},
	{name: "operands before error", p: gprof(), args: words("prog", "-b", "--bogus", "gmon"), opts: ops(s('b')), operands: words("prog"), err: "unrecognized option '--bogus'"},

	// Rules gprof's table cannot show (checked against glibc only).
	{name: "exact beats prefix", p: other(), args: words("--col", "x"), opts: ops(la('b', "col", "x"))},
	{name: "exact beats prefix 2", p: other(), args: words("--color"), opts: ops(l('c', "color"))},
	{name: "ambiguous between exact-free", p: other(), args: words("--colo"), err: "option '--colo' is ambiguous; possibilities: '--color' '--colors'"},
	{name: "same value is not ambiguous", p: other(), args: words("--verb"), opts: ops(l('v', "verbose"))},
	{name: "same value unique prefix", p: other(), args: words("--verbose-"), opts: ops(l('v', "verbose-all"))},
	{name: "entries like the first are not listed", p: other(), args: words("--qui"), err: "option '--qui' is ambiguous; possibilities: '--quiet' '--quieter'"},
	{name: "later entries listed if unlike the first", p: other(), args: words("--quiete"), err: "option '--quiete' is ambiguous; possibilities: '--quieter' '--quietest'"},
	{name: "no empty name: --= matches all", p: other(), args: words("--=x"),
		err: "option '--=x' is ambiguous; possibilities: '--color' '--colors' '--col' '--verbose' '--verbose-all' '--quiet' '--quieter' '--quietest'"},
	{name: "other short optional", p: other(), args: words("-ca", "-c", "a"), opts: ops(sa('c', "a"), s('c')), operands: words("a")},
}

func TestParse(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts, operands, err := c.p.Parse(c.args)
			assert.Equal(t, c.opts, opts, "options")
			assert.Equal(t, c.operands, operands, "operands")
			if c.err == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Equal(t, c.err, err.Error())
			var e *Error
			require.True(t, errors.As(err, &e), "error type %T", err)
		})
	}
}

func TestParseDoesNotModifyArgs(t *testing.T) {
	args := words("prog", "-b", "gmon", "--", "-p")
	_, _, err := gprof().Parse(args)
	require.NoError(t, err)
	assert.Equal(t, words("prog", "-b", "gmon", "--", "-p"), args)
}

func TestErrorFields(t *testing.T) {
	_, _, err := gprof().Parse(words("--fil=x"))
	var e *Error
	require.True(t, errors.As(err, &e))
	assert.Equal(t, &Error{Kind: Ambiguous, Opt: "--fil=x",
		Possibilities: words("--file-ordering", "--file-info", "--file-format")}, e)

	_, _, err = gprof().Parse(words("--he=1"))
	require.True(t, errors.As(err, &e))
	assert.Equal(t, &Error{Kind: LongTakesNoArg, Opt: "--help"}, e)

	_, _, err = gprof().Parse(words("-bk"))
	require.True(t, errors.As(err, &e))
	assert.Equal(t, &Error{Kind: ShortNeedsArg, Opt: "k"}, e)
}
