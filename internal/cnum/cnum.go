// Package cnum parses numbers as the C library does.
//
// GNU gprof reads its numeric option arguments and the line numbers of
// symspecs with atoi and strtoul; these functions give the same results as
// glibc's on a 64-bit Linux system (int is 32 bits, long 64), including
// for junk, signs and values that do not fit.
package cnum

import "math"

// isSpace is isspace in the C locale.
func isSpace(c byte) bool {
	return c == ' ' || c >= '\t' && c <= '\r'
}

// scanDecimal reads what strtol and strtoul read in base 10: white space,
// an optional sign and decimal digits. It returns the magnitude of the
// digits, saturated at math.MaxUint64, whether they overflowed 64 bits, and
// whether a minus sign came first. Without digits the magnitude is 0.
func scanDecimal(s string) (mag uint64, overflow, neg bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		d := uint64(s[i] - '0')
		if mag > (math.MaxUint64-d)/10 {
			overflow = true
			mag = math.MaxUint64
			continue
		}
		mag = mag*10 + d
	}
	return mag, overflow, neg
}

// strtol is strtol(s, NULL, 10): leading white space, an optional sign and
// decimal digits, anything after them ignored, 0 without digits. A value
// outside the range of a 64-bit long saturates to its nearest end.
func strtol(s string) int64 {
	mag, overflow, neg := scanDecimal(s)
	switch {
	case neg && (overflow || mag > 1<<63):
		return math.MinInt64
	case neg:
		return int64(-mag)
	case overflow || mag > math.MaxInt64:
		return math.MaxInt64
	}
	return int64(mag)
}

// Atoi is glibc's atoi, which is (int) strtol(s, NULL, 10): the long is
// cut to its low 32 bits, so a number past the range of int wraps round
// and one past the range of long becomes -1 (or 0 when negative).
func Atoi(s string) int32 {
	return int32(strtol(s))
}

// Strtoul is strtoul(s, NULL, 10): leading white space, an optional sign
// and decimal digits, anything after them ignored, 0 without digits. A
// minus sign negates the value modulo 2^64; a value past 64 bits gives the
// largest one, whatever the sign.
func Strtoul(s string) uint64 {
	mag, overflow, neg := scanDecimal(s)
	switch {
	case overflow:
		return math.MaxUint64
	case neg:
		return -mag
	}
	return mag
}
