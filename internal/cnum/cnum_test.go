package cnum

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// cases are inputs with the results of glibc's atoi and strtoul worked out
// by hand; TestAgainstC checks them against the C library itself.
var cases = []struct {
	in      string
	atoi    int32
	strtoul uint64
}{
	{"", 0, 0},
	{"42", 42, 42},
	{" \t\n\v\f\r17x", 17, 17},
	{"+8", 8, 8},
	{"-8", -8, 1<<64 - 8},
	{"abc", 0, 0},
	{"- 5", 0, 0},
	{"12 34", 12, 12},
	{"0x1f", 0, 0},
	{"007", 7, 7},
	{"\xa05", 0, 0}, // not white space in the C locale
	{"2147483647", 2147483647, 2147483647},
	{"2147483648", -2147483648, 2147483648},
	// 2^32 + 7: the long's low 32 bits are 7.
	{"4294967303", 7, 4294967303},
	{"99999999999", 99999999999 - 23<<32, 99999999999},
	// -(2^32 + 1): the low 32 bits are all ones.
	{"-4294967297", -1, 1<<64 - 4294967297},
	{"9223372036854775807", -1, 9223372036854775807},
	// Past LONG_MAX strtol saturates, and LONG_MAX's low half is -1.
	{"9223372036854775808", -1, 9223372036854775808},
	{"-9223372036854775808", 0, 9223372036854775808},
	// Past LONG_MIN strtol saturates, and LONG_MIN's low half is 0.
	{"-9223372036854775809", 0, 9223372036854775807},
	{"18446744073709551615", -1, 18446744073709551615},
	{"-18446744073709551615", 0, 1},
	// Past ULONG_MAX strtoul gives ULONG_MAX, whatever the sign.
	{"18446744073709551616", -1, 18446744073709551615},
	{"-18446744073709551616", 0, 18446744073709551615},
	{"99999999999999999999999", -1, 18446744073709551615},
}

func TestAtoiStrtoul(t *testing.T) {
	for _, tc := range cases {
		t.Run(strconv.Quote(tc.in), func(t *testing.T) {
			if got := Atoi(tc.in); got != tc.atoi {
				t.Errorf("Atoi(%q) = %d, want %d", tc.in, got, tc.atoi)
			}
			if got := Strtoul(tc.in); got != tc.strtoul {
				t.Errorf("Strtoul(%q) = %d, want %d", tc.in, got, tc.strtoul)
			}
		})
	}
}

// cProgram prints atoi and strtoul of each argument, one line each.
const cProgram = `#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
	for (int i = 1; i < argc; i++)
		printf("%d %lu\n", atoi(argv[i]), strtoul(argv[i], NULL, 10));
	return 0;
}
`

// TestAgainstC checks the table's expectations with the C library: a
// program compiled here prints atoi and strtoul of every input.
func TestAgainstC(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not found, so the C library cannot be asked: ", err)
	}
	dir := t.TempDir()
	src, prog := filepath.Join(dir, "cnum.c"), filepath.Join(dir, "cnum")
	if err := os.WriteFile(src, []byte(cProgram), 0o666); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(gcc, "-o", prog, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	args := make([]string, len(cases))
	for k, tc := range cases {
		args[k] = tc.in
	}
	out, err := exec.Command(prog, args...).Output()
	if err != nil {
		t.Fatalf("running the C program: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("the C program printed %d lines for %d inputs", len(lines), len(cases))
	}
	for k, tc := range cases {
		want := strconv.Itoa(int(tc.atoi)) + " " + strconv.FormatUint(tc.strtoul, 10)
		if lines[k] != want {
			t.Errorf("C: atoi, strtoul of %q = %s; the table says %s", tc.in, lines[k], want)
		}
	}
}
