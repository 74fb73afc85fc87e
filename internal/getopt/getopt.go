// Package getopt parses a command line the way glibc's getopt_long does,
// as GNU gprof 2.40 uses it: clustered short options, attached or separate
// required arguments, optional arguments that must be attached, long
// options abbreviated to any unique prefix (with glibc's ambiguity rule),
// argument permutation, "--", POSIXLY_CORRECT, and glibc's exact wording
// for every diagnostic.
//
// It is written by hand on purpose: no Go option library reproduces glibc's
// getopt_long exactly (abbreviations with glibc's ambiguity rule, argument
// permutation, POSIXLY_CORRECT, optional arguments that are only taken when
// attached, and glibc's diagnostics word for word), and egprof has to match
// gprof's output byte for byte.
//
// Parsing is strictly left to right and stops at the first error, which is
// what a program sees when it exits as soon as getopt_long returns '?'.
// Parse returns the options found before the error, so a caller that acts on
// options in order (for example exiting at -v or -h) and only then looks at
// the error behaves like gprof: "gprof -v --bogus" prints the version, and
// "gprof --bogus -v" reports the bad option.
//
// The package does not implement getopt_long_only, "-W foo", or the leading
// '+', '-' and ':' flags of the option string; gprof uses none of them.
package getopt

import "strings"

// ArgKind says whether an option takes an argument. Its values match
// glibc's no_argument, required_argument and optional_argument.
type ArgKind int

const (
	// None means the option takes no argument.
	None ArgKind = iota
	// Required means the option needs an argument. A short option takes
	// the rest of its word ("-w40") or else the next word ("-w 40"); a long
	// option takes the text after '=' ("--width=40") or else the next word
	// ("--width 40"). The next word is taken whatever it looks like, so
	// "-w -b" gives -w the argument "-b".
	Required
	// Optional means the option may have an argument, but only an attached
	// one: the rest of the word for a short option ("-pmain"), the text
	// after '=' for a long option ("--flat-profile=main"). It is never taken
	// from the next word.
	Optional
)

// LongOption describes one entry of the long-option table, like glibc's
// struct option with a nil flag pointer.
type LongOption struct {
	// Name is the option's name without the leading "--". It may be empty:
	// an empty name is matched exactly by "--=ARG" (glibc looks names up in
	// the text before '=', and the empty string equals the empty name).
	Name string
	// Arg says whether the option takes an argument.
	Arg ArgKind
	// Short is the value reported for the option, usually the equivalent
	// short option letter. Long-only options can use any code that is not
	// a short option letter. An abbreviation that matches several entries
	// is ambiguous only if a later match differs from the first match in
	// Short or Arg; otherwise it means the first match.
	Short rune
}

// Option is one option found on the command line.
type Option struct {
	// Short is the option letter for a short option, or the LongOption's
	// Short value for a long option.
	Short rune
	// Long is the full name of the long option as defined in the table
	// (not the abbreviation that was typed). It is "" for a short option,
	// and also for a long option whose defined name is empty.
	Long string
	// IsLong reports whether the option was given in long form ("--...").
	IsLong bool
	// Arg is the option's argument; it is "" when HasArg is false.
	Arg string
	// HasArg reports whether an argument was given. It is always true for
	// Required options and true for Optional ones only when an argument was
	// attached. An explicitly empty argument ("--width=" or "-w ''") has
	// HasArg true and Arg "".
	HasArg bool
}

// Parser holds the option definitions. A Parser is never modified by Parse
// and may be used by several goroutines at once.
type Parser struct {
	// Shorts is the short-option string in glibc syntax: each option
	// letter, followed by ':' if it requires an argument or by "::" if its
	// argument is optional, e.g. "aA::bw:". Letters are single bytes; ':'
	// and ';' are never valid option letters.
	Shorts string
	// Longs is the long-option table. Order matters: an exact match takes
	// the first entry with that name, an abbreviation takes the first entry
	// it is a prefix of, and the possibilities in an ambiguity message are
	// listed in table order.
	Longs []LongOption
	// Posixly stops option parsing at the first operand, so that every
	// later word is an operand too. glibc does this when the environment
	// variable POSIXLY_CORRECT is set, even to the empty string.
	Posixly bool
}

// ErrorKind classifies a parse error.
type ErrorKind int

const (
	// UnknownLong is an unrecognized long option: "unrecognized option '--bogus'".
	UnknownLong ErrorKind = iota + 1
	// UnknownShort is a byte that is not a short option letter (':' and
	// ';' never are): "invalid option -- 'g'". The byte is quoted as is,
	// even when it is part of a multi-byte UTF-8 character.
	UnknownShort
	// ShortNeedsArg is a short option with a required argument at the end
	// of the command line: "option requires an argument -- 'k'".
	ShortNeedsArg
	// LongNeedsArg is a long option with a required argument at the end of
	// the command line: "option '--width' requires an argument".
	LongNeedsArg
	// LongTakesNoArg is "=ARG" given to a long option that takes no
	// argument: "option '--help' doesn't allow an argument".
	LongTakesNoArg
	// Ambiguous is an abbreviation matching several different long options:
	// "option '--file' is ambiguous; possibilities: '--file-ordering' ...".
	Ambiguous
)

// Error is a parse error. Its Error method returns glibc's message without
// the "argv[0]: " prefix that glibc puts in front of it.
type Error struct {
	// Kind says which error this is.
	Kind ErrorKind
	// Opt is the text glibc quotes in the message. For UnknownShort and
	// ShortNeedsArg it is the option byte ("g"). For UnknownLong and
	// Ambiguous it is the word as typed, "=ARG" included ("--bogus=x").
	// For LongNeedsArg and LongTakesNoArg it is "--" and the option's full
	// name ("--help" even if "--he=x" was typed).
	Opt string
	// Possibilities lists, for Ambiguous, the candidates as "--name" in
	// table order: the first entry the abbreviation matches, then every
	// later match that differs from it in Short or Arg. Later matches equal
	// to the first one are not listed, as in glibc.
	Possibilities []string
}

// Error returns the diagnostic in glibc's wording.
func (e *Error) Error() string {
	switch e.Kind {
	case UnknownLong:
		return "unrecognized option '" + e.Opt + "'"
	case UnknownShort:
		return "invalid option -- '" + e.Opt + "'"
	case ShortNeedsArg:
		return "option requires an argument -- '" + e.Opt + "'"
	case LongNeedsArg:
		return "option '" + e.Opt + "' requires an argument"
	case LongTakesNoArg:
		return "option '" + e.Opt + "' doesn't allow an argument"
	case Ambiguous:
		var b strings.Builder
		b.WriteString("option '" + e.Opt + "' is ambiguous; possibilities:")
		for _, p := range e.Possibilities {
			b.WriteString(" '" + p + "'")
		}
		return b.String()
	}
	return "invalid option"
}

// Parse processes args (the command line without argv[0]) strictly left to
// right. It returns the options in the order given and the operands in the
// order given; options and operands may be mixed unless p.Posixly is set.
// A word "--" ends the options and is dropped; a lone "-" and an empty word
// are operands.
//
// On the first error Parse stops and returns the options found before it,
// the operands seen so far, and an *Error.
func (p *Parser) Parse(args []string) (opts []Option, operands []string, err error) {
	i := 0
	for i < len(args) {
		word := args[i]
		if word == "--" {
			return opts, append(operands, args[i+1:]...), nil
		}
		if len(word) < 2 || word[0] != '-' {
			if p.Posixly {
				return opts, append(operands, args[i:]...), nil
			}
			if operands == nil {
				// Sized once: a job's command line can hold tens of
				// thousands of operands, and growing the list would copy
				// it many times.
				operands = make([]string, 0, len(args)-i)
			}
			operands = append(operands, word)
			i++
			continue
		}
		i++
		if word[1] == '-' {
			var o Option
			if o, i, err = p.long(word, args, i); err != nil {
				return opts, operands, err
			}
			opts = append(opts, o)
			continue
		}
		for j := 1; j < len(word); j++ {
			c := word[j]
			kind, ok := p.short(c)
			if !ok {
				return opts, operands, &Error{Kind: UnknownShort, Opt: word[j : j+1]}
			}
			o := Option{Short: rune(c)}
			rest := word[j+1:]
			if kind == None {
				opts = append(opts, o)
				continue
			}
			switch {
			case rest != "":
				o.Arg, o.HasArg = rest, true
			case kind == Optional:
			case i < len(args):
				o.Arg, o.HasArg = args[i], true
				i++
			default:
				return opts, operands, &Error{Kind: ShortNeedsArg, Opt: word[j : j+1]}
			}
			opts = append(opts, o)
			break
		}
	}
	return opts, operands, nil
}

// short looks the option byte c up in p.Shorts.
func (p *Parser) short(c byte) (ArgKind, bool) {
	k := strings.IndexByte(p.Shorts, c)
	if k < 0 || c == ':' || c == ';' {
		return None, false
	}
	switch {
	case !strings.HasPrefix(p.Shorts[k+1:], ":"):
		return None, true
	case strings.HasPrefix(p.Shorts[k+1:], "::"):
		return Optional, true
	}
	return Required, true
}

// long handles the long option word (which starts with "--"); next is the
// index of the word after it. It returns the option and the index of the
// first word not consumed.
func (p *Parser) long(word string, args []string, next int) (Option, int, error) {
	name, value, hasValue := strings.Cut(word[2:], "=")

	// An exact match wins, even if the name is also a prefix of others.
	found := -1
	for k, lo := range p.Longs {
		if lo.Name == name {
			found = k
			break
		}
	}
	if found < 0 {
		// Otherwise take the first entry the name is a prefix of. Later
		// matches make it ambiguous only if they differ from that first
		// one in argument kind or value; matches identical to it are
		// neither an ambiguity nor listed.
		var ambiguous []string
		for k, lo := range p.Longs {
			if !strings.HasPrefix(lo.Name, name) {
				continue
			}
			if found < 0 {
				found = k
				continue
			}
			if first := p.Longs[found]; lo.Arg != first.Arg || lo.Short != first.Short {
				if ambiguous == nil {
					ambiguous = []string{"--" + first.Name}
				}
				ambiguous = append(ambiguous, "--"+lo.Name)
			}
		}
		if ambiguous != nil {
			return Option{}, next, &Error{Kind: Ambiguous, Opt: word, Possibilities: ambiguous}
		}
		if found < 0 {
			return Option{}, next, &Error{Kind: UnknownLong, Opt: word}
		}
	}

	lo := p.Longs[found]
	o := Option{Short: lo.Short, Long: lo.Name, IsLong: true}
	switch {
	case hasValue && lo.Arg == None:
		return Option{}, next, &Error{Kind: LongTakesNoArg, Opt: "--" + lo.Name}
	case hasValue:
		o.Arg, o.HasArg = value, true
	case lo.Arg != Required:
	case next < len(args):
		o.Arg, o.HasArg = args[next], true
		next++
	default:
		return Option{}, next, &Error{Kind: LongNeedsArg, Opt: "--" + lo.Name}
	}
	return o, next, nil
}
