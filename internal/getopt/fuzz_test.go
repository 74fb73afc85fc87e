package getopt

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// FuzzParse checks, for any command line, that Parse does not panic, that
// a successful result accounts for every word of the command line, and
// that writing the result back out in canonical form parses to the same
// result. The command line is one string with NUL between the words.
func FuzzParse(f *testing.F) {
	f.Add("prog\x00-bpmain\x00g1.out\x00--wid\x0040", false, uint8(0))
	f.Add("-w\x00--\x00--=x\x00--no-a=X\x00-\x00--\x00-b", false, uint8(0))
	f.Add("prog\x00-b\x00--fil=x", true, uint8(0))
	f.Add("--col\x00x\x00--verb\x00-ca\x00--qui", false, uint8(1))
	f.Add("-v\x00--bogus\x00-k", false, uint8(0))
	f.Fuzz(func(t *testing.T, cmdline string, posix bool, table uint8) {
		p := gprof()
		if table%2 == 1 {
			p = other()
		}
		p.Posixly = posix
		args := strings.Split(cmdline, "\x00")

		opts, operands, err := p.Parse(args)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Kind < UnknownLong || e.Kind > Ambiguous || e.Error() == "" {
				t.Fatalf("bad error %#v for %q", err, args)
			}
			return
		}
		if err := account(p, args, opts, operands); err != nil {
			t.Fatalf("%q: %v\noptions %+v\noperands %q", args, err, opts, operands)
		}
		again := canonical(opts, operands)
		opts2, operands2, err := p.Parse(again)
		if err != nil || fmt.Sprint(opts2, operands2) != fmt.Sprint(opts, operands) {
			t.Fatalf("%q: canonical form %q parses differently: %+v %q %v", args, again, opts2, operands2, err)
		}
	})
}

// account walks args next to the parse result and checks that every word
// is an operand, the "--" terminator, or option text (a long option, a
// short cluster, or an argument taken from the next word), in order, with
// nothing left over on either side.
func account(p *Parser, args []string, opts []Option, operands []string) error {
	oi, xi := 0, 0
	takeOperand := func(w string) error {
		if xi >= len(operands) || operands[xi] != w {
			return fmt.Errorf("word %q is not the next operand", w)
		}
		xi++
		return nil
	}
	takeOption := func() (Option, error) {
		if oi >= len(opts) {
			return Option{}, errors.New("more option words than options")
		}
		oi++
		return opts[oi-1], nil
	}
	// separate checks an argument that must come from the next word.
	separate := func(i int, o Option) (int, error) {
		if i+1 >= len(args) || !o.HasArg || o.Arg != args[i+1] {
			return i, fmt.Errorf("option %+v did not take word %d", o, i+1)
		}
		return i + 1, nil
	}

	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case w == "--" || (p.Posixly && (len(w) < 2 || w[0] != '-')):
			if w == "--" {
				i++
			}
			for ; i < len(args); i++ {
				if err := takeOperand(args[i]); err != nil {
					return err
				}
			}
		case len(w) < 2 || w[0] != '-':
			if err := takeOperand(w); err != nil {
				return err
			}
		case w[1] == '-':
			o, err := takeOption()
			if err != nil {
				return err
			}
			name, value, hasValue := strings.Cut(w[2:], "=")
			kind, ok := longKind(p, o)
			switch {
			case !ok || !o.IsLong || !strings.HasPrefix(o.Long, name):
				return fmt.Errorf("word %q is not option %+v", w, o)
			case hasValue:
				if !o.HasArg || o.Arg != value {
					return fmt.Errorf("word %q: wrong argument in %+v", w, o)
				}
			case kind == Required:
				if i, err = separate(i, o); err != nil {
					return err
				}
			case o.HasArg:
				return fmt.Errorf("word %q: unexpected argument in %+v", w, o)
			}
		default:
			for j := 1; j < len(w); j++ {
				o, err := takeOption()
				if err != nil {
					return err
				}
				kind, ok := p.short(w[j])
				if !ok || o.IsLong || o.Short != rune(w[j]) {
					return fmt.Errorf("byte %d of %q is not option %+v", j, w, o)
				}
				if kind == None {
					if o.HasArg {
						return fmt.Errorf("option %+v has an argument", o)
					}
					continue
				}
				rest := w[j+1:]
				switch {
				case rest != "":
					if !o.HasArg || o.Arg != rest {
						return fmt.Errorf("word %q: wrong argument in %+v", w, o)
					}
				case kind == Required:
					if i, err = separate(i, o); err != nil {
						return err
					}
				case o.HasArg:
					return fmt.Errorf("word %q: unexpected argument in %+v", w, o)
				}
				break
			}
		}
	}
	if oi != len(opts) || xi != len(operands) {
		return fmt.Errorf("only %d of %d options and %d of %d operands accounted for", oi, len(opts), xi, len(operands))
	}
	return nil
}

// longKind finds the argument kind of the table entry o came from.
func longKind(p *Parser, o Option) (ArgKind, bool) {
	for _, lo := range p.Longs {
		if lo.Name == o.Long && lo.Short == o.Short {
			return lo.Arg, true
		}
	}
	return None, false
}

// canonical writes a parse result back as a command line: long options in
// full with "=ARG", short options one per word, then "--" and the operands.
func canonical(opts []Option, operands []string) []string {
	var out []string
	for _, o := range opts {
		switch {
		case o.IsLong && o.HasArg:
			out = append(out, "--"+o.Long+"="+o.Arg)
		case o.IsLong:
			out = append(out, "--"+o.Long)
		case o.HasArg && o.Arg == "":
			out = append(out, "-"+string(byte(o.Short)), "")
		default:
			out = append(out, "-"+string(byte(o.Short))+o.Arg)
		}
	}
	return append(append(out, "--"), operands...)
}
