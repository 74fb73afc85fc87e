package demangle

import "strings"

// gnatOperators are GNAT's encodings of Ada operator names, tried as
// prefixes in this order.
var gnatOperators = [...]struct{ code, op string }{
	{"Oabs", "abs"}, {"Oand", "and"}, {"Omod", "mod"}, {"Onot", "not"},
	{"Oor", "or"}, {"Orem", "rem"}, {"Oxor", "xor"}, {"Oeq", "="},
	{"One", "/="}, {"Olt", "<"}, {"Ole", "<="}, {"Ogt", ">"},
	{"Oge", ">="}, {"Oadd", "+"}, {"Osubtract", "-"}, {"Oconcat", "&"},
	{"Omultiply", "*"}, {"Odivide", "/"}, {"Oexpon", "**"},
}

// gnatSpecials are the "___name" suffixes of compiler-made subprograms.
var gnatSpecials = [...]struct{ code, attr string }{
	{"_elabb", "'Elab_Body"}, {"_elabs", "'Elab_Spec"}, {"_size", "'Size"},
	{"_alignment", "'Alignment"}, {"_assign", `.":="`},
}

// gnatName decodes a GNAT (Ada) symbol name the way libiberty's
// ada_demangle does: lower-case identifiers joined by "__" become dotted
// names, overloading and nesting suffixes are dropped, operators are
// quoted. A name that is not a GNAT encoding comes back in angle brackets
// ("<_Z3foov>"), so under --demangle=gnat every name changes unless it is
// already a plain lower-case Ada name.
//
// libiberty sizes its output buffer as the name's length plus 8 bytes, on
// the belief that a decoding never grows by more than 7; repeated stream
// attributes ("aSR__bSR__c": "a'Read.b'Read.c") do grow it further, and
// libiberty then writes past its buffer (its heap is corrupted; gprof may
// abort), even when the rest of the name shows it is not GNAT's after
// all. egprof returns the decoding, or the name in angle brackets.
func gnatName(name string) string {
	mangled := strings.TrimPrefix(name, "_ada_")
	if out, ok := decodeGNAT(mangled); ok {
		return out
	}
	if strings.HasPrefix(mangled, "<") {
		return mangled
	}
	return "<" + mangled + ">"
}

// decodeGNAT is gnatName for a name that is a GNAT encoding; ok is
// false when it is not one, and the text is then what was decoded before
// that showed (libiberty writes it to its buffer all the same).
func decodeGNAT(m string) (string, bool) {
	at := func(i int) byte {
		if i < len(m) {
			return m[i]
		}
		return 0
	}
	var out strings.Builder
	if !isLower(at(0)) {
		return "", false
	}
	p := 0
	for {
		// An entity name: an identifier or an operator.
		switch c := at(p); {
		case isLower(c):
			start := p
			for p++; isLower(at(p)) || isDigit(at(p)) || (at(p) == '_' && (isLower(at(p+1)) || isDigit(at(p+1)))); p++ {
			}
			out.WriteString(m[start:p])
		case c == 'O':
			found := false
			for _, o := range gnatOperators {
				if strings.HasPrefix(m[p:], o.code) {
					p += len(o.code)
					out.WriteString(`"` + o.op + `"`)
					found = true
					break
				}
			}
			if !found {
				return out.String(), false
			}
		default:
			return out.String(), false
		}

		// Upper-case suffixes that may follow the name.
		if at(p) == 'T' && at(p+1) == 'K' {
			switch {
			case at(p+2) == 'B' && p+3 == len(m): // task body
				return out.String(), true
			case at(p+2) == '_' && at(p+3) == '_': // declaration inside a task
				p += 4
				out.WriteByte('.')
				continue
			default:
				return out.String(), false
			}
		}
		rest1 := p+1 == len(m)
		switch {
		case at(p) == 'E' && rest1: // exception name
			return out.String(), false
		case (at(p) == 'P' || at(p) == 'N') && rest1: // protected type subprogram
			return out.String(), true
		case at(p) == 'S' && rest1: // enumeration name table
			return out.String(), false
		}
		if at(p) == 'X' { // body nested
			for p++; at(p) == 'n' || at(p) == 'b'; p++ {
			}
		}
		if at(p) == 'S' && at(p+1) != 0 && (at(p+2) == '_' || p+2 >= len(m)) { // stream operation
			var attr string
			switch at(p + 1) {
			case 'R':
				attr = "'Read"
			case 'W':
				attr = "'Write"
			case 'I':
				attr = "'Input"
			case 'O':
				attr = "'Output"
			default:
				return out.String(), false
			}
			p += 2
			out.WriteString(attr)
		} else if at(p) == 'D' { // controlled type operation
			switch at(p + 1) {
			case 'F':
				out.WriteString(".Finalize")
			case 'A':
				out.WriteString(".Adjust")
			default:
				return out.String(), false
			}
			return out.String(), true
		}

		if at(p) == '_' {
			switch {
			case at(p+1) == '_':
				p += 2
				switch {
				case isDigit(at(p)): // overloading number
					for p++; isDigit(at(p)) || (at(p) == '_' && isDigit(at(p+1))); p++ {
					}
					if at(p) == 'X' {
						for p++; at(p) == 'n' || at(p) == 'b'; p++ {
						}
					}
				case at(p) == '_' && at(p+1) != '_': // compiler-made subprogram
					for _, s := range gnatSpecials {
						if strings.HasPrefix(m[p:], s.code) {
							out.WriteString(s.attr)
							return out.String(), true
						}
					}
					return out.String(), false
				default: // "__" separates the parts of a dotted name
					out.WriteByte('.')
					continue
				}
			case at(p+1) == 'B' || at(p+1) == 'E': // entry body or barrier evaluation
				for p += 2; isDigit(at(p)); p++ {
				}
				if at(p) == 's' && p+1 == len(m) {
					return out.String(), true
				}
				return out.String(), false
			default:
				return out.String(), false
			}
		}

		if at(p) == '.' && isDigit(at(p+1)) { // nested subprogram
			for p += 2; isDigit(at(p)); p++ {
			}
		}
		if p == len(m) {
			return out.String(), true
		}
		return out.String(), false
	}
}
