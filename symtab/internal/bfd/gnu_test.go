package bfd

import (
	"bufio"
	"bytes"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/testenv"
)

// The tests here compare Lines with GNU tools built on the same BFD code:
// gprof's flat profile (which prints "name (file:line)" for every function
// symbol and, with -l, one entry per change of function, file or line over
// every .text byte) and addr2line -f.

// testSources are the programs built for the comparisons.
var testSources = map[string]string{
	"util.h": `#ifndef UTIL_H
#define UTIL_H
static inline int clampi(int v, int lo, int hi)
{
	if (v < lo)
		return lo;
	if (v > hi)
		return hi;
	return v;
}
int work_a(int n);
int work_b(int n);
int asm_add(int a, int b);
#endif
`,
	"lib/mix.h": `static inline unsigned mix(unsigned x)
{
	x ^= x >> 7;
	x *= 2654435761u;
	return x ^ (x >> 13);
}
`,
	"a.c": `#include "util.h"
#include "lib/mix.h"
static int helper(int x)
{
	return clampi(x * 3, 0, 1000) + (int)(mix((unsigned)x) & 7);
}
int work_a(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += helper(i);
	return s;
}
`,
	"b.c": `#include "util.h"
#include "lib/mix.h"
static int helper(int x)
{
	return clampi(x - 500, -10, 10) * (int)(mix((unsigned)x) & 3);
}
int work_b(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += helper(i) + clampi(i, 0, 3);
	return s;
}
`,
	"main.c": `#include <stdio.h>
#include "util.h"
static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int main(int argc, char **argv)
{
	(void)argv;
	long t = 0;
	for (int r = 0; r < 200; r++)
		t += work_a(1000 + argc) + work_b(1000) + asm_add(r, 1);
	t += fib(20);
	printf("%ld\n", t);
	return 0;
}
`,
	"asm.s": `	.text
	.globl	asm_add
	.type	asm_add, @function
asm_add:
	movl	%edi, %eax
	addl	%esi, %eax
	ret
	.size	asm_add, .-asm_add
	.section	.note.GNU-stack,"",@progbits
`,
	"shapes.h": `#ifndef SHAPES_H
#define SHAPES_H
#include <string>
namespace geo {
template <typename T> struct Vec { T x, y; Vec(T a, T b) : x(a), y(b) {} T dot(const Vec &o) const { return x * o.x + y * o.y; } };
class Shape {
public:
	explicit Shape(std::string n) : name_(n) {}
	virtual ~Shape() {}
	virtual double area() const = 0;
	const std::string &name() const { return name_; }
private:
	std::string name_;
};
class Square : public Shape {
public:
	explicit Square(double s) : Shape("square"), s_(s) {}
	double area() const override;
private:
	double s_;
};
inline int twice(int v) { return v * 2; }
}
double total(int n);
extern "C" int c_linkage(int v);
#endif
`,
	"shapes.cc": `#include "shapes.h"
namespace geo {
double Square::area() const
{
	Vec<double> v(s_, s_);
	return v.dot(Vec<double>(1, 0)) * s_ / s_ * s_;
}
}
double total(int n)
{
	double t = 0;
	for (int i = 0; i < n; i++) {
		geo::Square sq(i);
		t += sq.area() + geo::twice(i);
	}
	return t;
}
`,
	"prog.cc": `#include <cstdio>
#include "shapes.h"
extern "C" int c_linkage(int v) { return geo::twice(v) + 1; }
static int local_fn(int v) { return geo::Vec<int>(v, v).dot(geo::Vec<int>(1, 2)); }
int main()
{
	double t = 0;
	for (int r = 0; r < 300; r++)
		t += total(50) + c_linkage(r) + local_fn(r);
	geo::Square s(2);
	std::printf("%f %s\n", t, s.name().c_str());
	return 0;
}
`,
}

// testProgram is one program built for the comparisons.
type testProgram struct {
	name    string
	cc      string
	flags   []string
	sources []string
	asm     bool // add asm.s
	noMap   bool // keep absolute directories (no -fdebug-prefix-map)
	// noLineSyms: gprof -l yields no line symbols to compare (BFD finds
	// no line at all, or gprof gives up).
	noLineSyms bool
	// gen, when set, supplies the sources instead of testSources.
	gen func() (files map[string]string, sources []string)
}

var testPrograms = []testProgram{
	{name: "c-O0-dwarf5", cc: "gcc", flags: []string{"-O0", "-gdwarf-5"}, sources: []string{"main.c", "a.c", "b.c"}, asm: true},
	{name: "c-O0-dwarf4", cc: "gcc", flags: []string{"-O0", "-gdwarf-4"}, sources: []string{"main.c", "a.c", "b.c"}, asm: true},
	{name: "c-O0-dwarf5-abs", cc: "gcc", flags: []string{"-O0", "-gdwarf-5"}, sources: []string{"main.c", "a.c", "b.c"}, noMap: true},
	{name: "c-O0-dwarf4-abs", cc: "gcc", flags: []string{"-O0", "-gdwarf-4"}, sources: []string{"main.c", "a.c", "b.c"}, noMap: true},
	{name: "c-O2-dwarf5", cc: "gcc", flags: []string{"-O2", "-gdwarf-5"}, sources: []string{"main.c", "a.c", "b.c"}, asm: true},
	{name: "c-O2-dwarf4", cc: "gcc", flags: []string{"-O2", "-gdwarf-4"}, sources: []string{"main.c", "a.c", "b.c"}},
	{name: "c-O3-dwarf5-gc", cc: "gcc", flags: []string{"-O3", "-gdwarf-5", "-ffunction-sections", "-Wl,--gc-sections"}, sources: []string{"main.c", "a.c", "b.c"}},
	// GCC writes a 32-bit line table header for 64-bit units; BFD reads
	// its DW_FORM_line_strp offsets with the unit's 8 bytes and gives up.
	{name: "c-O1-dwarf64", cc: "gcc", flags: []string{"-O1", "-gdwarf-5", "-gdwarf64"}, sources: []string{"main.c", "a.c", "b.c"}, noLineSyms: true},
	{name: "c-O1-dwarf64-v4", cc: "gcc", flags: []string{"-O1", "-gdwarf-4", "-gdwarf64"}, sources: []string{"main.c", "a.c", "b.c"}},
	{name: "c-O0-dwarf3", cc: "gcc", flags: []string{"-O0", "-gdwarf-3"}, sources: []string{"main.c", "a.c", "b.c"}, asm: true},
	{name: "c-O2-dwarf2", cc: "gcc", flags: []string{"-O2", "-gdwarf-2", "-gstrict-dwarf"}, sources: []string{"main.c", "a.c", "b.c"}},
	{name: "c-O2-gz", cc: "gcc", flags: []string{"-O2", "-g", "-gz"}, sources: []string{"main.c", "a.c", "b.c"}},
	// BFD looks for ".zdebug_rnglist" (sic), so the unit's DW_AT_ranges
	// cannot be read and parsing stops at the first unit.
	{name: "c-O2-gz-gnu", cc: "gcc", flags: []string{"-O2", "-g", "-gz=zlib-gnu"}, sources: []string{"main.c", "a.c", "b.c"}, noLineSyms: true},
	{name: "c-O0-gz-gnu", cc: "gcc", flags: []string{"-O0", "-g", "-gz=zlib-gnu"}, sources: []string{"main.c", "a.c", "b.c"}},
	{name: "c-O2-lto", cc: "gcc", flags: []string{"-O2", "-g", "-flto"}, sources: []string{"main.c", "a.c", "b.c"}},
	// Skeleton units use DW_FORM_rnglistx, which BFD takes for an offset.
	{name: "c-O2-split-dwarf", cc: "gcc", flags: []string{"-O2", "-g", "-gsplit-dwarf"}, sources: []string{"main.c", "a.c", "b.c"}, noLineSyms: true},
	{name: "c-O0-m32", cc: "gcc", flags: []string{"-m32", "-O0", "-gdwarf-4"}, sources: []string{"main.c", "a.c", "b.c"}},
	{name: "c-O2-m32-dwarf5", cc: "gcc", flags: []string{"-m32", "-O2", "-gdwarf-5"}, sources: []string{"main.c", "a.c", "b.c"}},
	{name: "cxx-O0-dwarf5", cc: "g++", flags: []string{"-O0", "-gdwarf-5"}, sources: []string{"prog.cc", "shapes.cc"}},
	{name: "cxx-O0-dwarf4", cc: "g++", flags: []string{"-O0", "-gdwarf-4"}, sources: []string{"prog.cc", "shapes.cc"}},
	{name: "cxx-O2-dwarf5", cc: "g++", flags: []string{"-O2", "-gdwarf-5"}, sources: []string{"prog.cc", "shapes.cc"}},
	{name: "cxx-O2-dwarf4-abs", cc: "g++", flags: []string{"-O2", "-gdwarf-4"}, sources: []string{"prog.cc", "shapes.cc"}, noMap: true},
	{name: "cxx-Os-dwarf5-nopie", cc: "g++", flags: []string{"-Os", "-gdwarf-5", "-no-pie"}, sources: []string{"prog.cc", "shapes.cc"}},
	{name: "cxx-O2-types-section", cc: "g++", flags: []string{"-O2", "-gdwarf-4", "-fdebug-types-section"}, sources: []string{"prog.cc", "shapes.cc"}},
	{name: "cxx-O2-types-section5", cc: "g++", flags: []string{"-O2", "-gdwarf-5", "-fdebug-types-section"}, sources: []string{"prog.cc", "shapes.cc"}},
	{name: "cxx-O1-lto", cc: "g++", flags: []string{"-O1", "-g", "-flto"}, sources: []string{"prog.cc", "shapes.cc"}},
	{name: "cxx-O3-m32", cc: "g++", flags: []string{"-m32", "-O3", "-g"}, sources: []string{"prog.cc", "shapes.cc"}},
	// Clang writes DWARF 5 with indexed strings and addresses (strx1,
	// addrx) and range lists by index.
	{name: "clang-O2-dwarf5", cc: "clang", flags: []string{"-O2", "-gdwarf-5"}, sources: []string{"main.c", "a.c", "b.c"}, asm: true},
	{name: "clang-O0-dwarf4", cc: "clang", flags: []string{"-O0", "-gdwarf-4"}, sources: []string{"main.c", "a.c", "b.c"}, asm: true},
	{name: "clangxx-O2-dwarf5", cc: "clang++", flags: []string{"-O2", "-gdwarf-5"}, sources: []string{"prog.cc", "shapes.cc"}},
	{name: "gen-c-O2-many-units", cc: "gcc", flags: []string{"-O2", "-g"}, gen: genManyUnits(".c", 24, 40), asm: true},
	{name: "gen-c-O1-sections-dwarf4", cc: "gcc", flags: []string{"-O1", "-gdwarf-4", "-ffunction-sections"}, gen: genManyUnits(".c", 16, 30), asm: true},
	{name: "gen-cxx-O0-many-units", cc: "g++", flags: []string{"-O0", "-g"}, gen: genManyUnits(".cc", 12, 25)},
	// Inlined C++ static functions have no linkage name: BFD names the
	// first lookup in each after the enclosing ELF symbol and later ones
	// after the DWARF name, so gprof -l counts more line symbols than it
	// creates and gives up.
	{name: "gen-cxx-O2-many-units", cc: "g++", flags: []string{"-O2", "-gdwarf-4"}, gen: genManyUnits(".cc", 12, 25), noLineSyms: true},
}

// genManyUnits generates a program of many units with many small
// functions, header inline functions shared by every unit and (in C++) a
// template instantiated everywhere, so that the address trie splits and
// many sequences overlap in the discarded-comdat area.
func genManyUnits(ext string, units, funcs int) func() (map[string]string, []string) {
	return func() (map[string]string, []string) {
		cxx := ext == ".cc"
		files := map[string]string{}
		var hdr strings.Builder
		hdr.WriteString("#ifndef GEN_H\n#define GEN_H\n")
		hdr.WriteString("static inline int gen_sq(int x) { return x * x; }\n")
		hdr.WriteString("static inline int gen_poly(int x)\n{\n\tint r = 0;\n\tfor (int i = 0; i < (x & 7); i++)\n\t\tr += gen_sq(i) ^ x;\n\treturn r;\n}\n")
		if cxx {
			hdr.WriteString("template <typename T> struct Acc {\n\tT v;\n\tAcc() : v(0) {}\n\tvoid add(T x) { v += x * 3 + (x >> 1); }\n\tT get() const { return v; }\n};\n")
			hdr.WriteString("inline int gen_shared(int x) { Acc<int> a; a.add(x); return a.get(); }\n")
		}
		for u := 0; u < units; u++ {
			fmt.Fprintf(&hdr, "int unit%d(int x);\n", u)
		}
		hdr.WriteString("int asm_add(int a, int b);\n#endif\n")
		files["gen.h"] = hdr.String()
		var sources []string
		for u := 0; u < units; u++ {
			var b strings.Builder
			b.WriteString("#include \"gen.h\"\n")
			for f := 0; f < funcs; f++ {
				fmt.Fprintf(&b, "static int f%d_%d(int x)\n{\n\tint y = gen_poly(x + %d);\n", u, f, f)
				if cxx {
					fmt.Fprintf(&b, "\ty += gen_shared(y);\n")
				}
				if f > 0 {
					fmt.Fprintf(&b, "\tif (y & 1)\n\t\ty += f%d_%d(x - 1);\n", u, f-1)
				}
				fmt.Fprintf(&b, "\treturn y * %d;\n}\n", f+1)
			}
			fmt.Fprintf(&b, "int unit%d(int x)\n{\n\treturn f%d_%d(x);\n}\n", u, u, funcs-1)
			name := fmt.Sprintf("u%02d%s", u, ext)
			files[name] = b.String()
			sources = append(sources, name)
		}
		var m strings.Builder
		m.WriteString("#include <stdio.h>\n#include \"gen.h\"\nint main(void)\n{\n\tlong t = 0;\n\tfor (int r = 0; r < 50; r++) {\n")
		for u := 0; u < units; u++ {
			fmt.Fprintf(&m, "\t\tt += unit%d(r);\n", u)
		}
		m.WriteString("\t\tt += asm_add(r, 1);\n\t}\n\tprintf(\"%ld\\n\", t);\n\treturn 0;\n}\n")
		mainName := "genmain" + ext
		files[mainName] = m.String()
		files["asm.s"] = testSources["asm.s"]
		if cxx {
			files["asmc.cc"] = "extern \"C\" int asm_add(int a, int b) { return a + b; }\n"
			files["gen.h"] = strings.Replace(files["gen.h"], "int asm_add(int a, int b);", "extern \"C\" int asm_add(int a, int b);", 1)
			sources = append(sources, "asmc.cc")
		}
		return files, append([]string{mainName}, sources...)
	}
}

// buildTestProgram writes the sources under dir, builds the program with
// -pg and runs it there so that it leaves a gmon.out.
func buildTestProgram(t *testing.T, dir string, p testProgram) (prog, gmon string) {
	t.Helper()
	files := testSources
	if p.gen != nil {
		files, p.sources = p.gen()
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	}
	args := append([]string{"-pg"}, p.flags...)
	if !p.noMap {
		args = append(args, "-fdebug-prefix-map="+dir+"=.")
	}
	if p.noMap {
		// Absolute source names exercise absolute file entries.
		for _, s := range p.sources {
			args = append(args, filepath.Join(dir, s))
		}
	} else {
		args = append(args, p.sources...)
	}
	if p.asm {
		args = append(args, "asm.s")
	} else if p.cc == "gcc" {
		args = append(args, "-DNO_ASM")
		require.NoError(t, os.WriteFile(filepath.Join(dir, "noasm.c"), []byte("int asm_add(int a, int b) { return a + b; }\n"), 0o644))
		args = append(args, "noasm.c")
	}
	args = append(args, "-o", "prog")
	cmd := exec.Command(p.cc, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("cannot build %s: %v\n%s", p.name, err, out)
	}
	run := exec.Command("./prog")
	run.Dir = dir
	out, err := run.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return filepath.Join(dir, "prog"), filepath.Join(dir, "gmon.out")
}

// gprofEntry is one name of gprof's flat profile.
type gprofEntry struct {
	name     string
	file     string
	line     int
	hasLine  bool
	addr     uint64
	lineSym  bool // a -l entry "name (file:line @ addr)"
	rawField string
}

var (
	gprofRowRE   = regexp.MustCompile(`^\s*\d+\.\d+\s+\d+\.\d+\s+\d+\.\d+\s+(?:\d+\s+\d+\.\d+\s+\d+\.\d+\s+)?(\S.*)$`)
	gprofNameRE  = regexp.MustCompile(`^(\S+)(?: \((.*):(-?\d+)(?: @ ([0-9a-f]+))?\))?$`)
	gprofCycleRE = regexp.MustCompile(` <cycle \d+>$`)
)

// runGprof returns the names of gprof's flat profile, with the file shown
// in full (-L) and without demangling, and the BFD messages gprof printed.
// A failing gprof yields its error output as failure.
func runGprof(t *testing.T, prog, gmon string, lineMode bool) (entries []gprofEntry, bfdMessages []string, failure string) {
	t.Helper()
	args := []string{"-b", "-p", "-z", "-L", "--inline-file-names", "--no-demangle"}
	if lineMode {
		args = append(args, "-l")
	}
	args = append(args, prog, gmon)
	cmd := exec.Command("gprof", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.HasPrefix(l, "BFD: ") {
			bfdMessages = append(bfdMessages, l)
		}
	}
	if err != nil {
		require.NotEmpty(t, stderr.String(), "gprof failed: %v", err)
		return nil, bfdMessages, stderr.String()
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := gprofRowRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		field := gprofCycleRE.ReplaceAllString(m[1], "")
		n := gprofNameRE.FindStringSubmatch(field)
		require.NotNil(t, n, "unparsed gprof line %q", sc.Text())
		e := gprofEntry{name: n[1], rawField: field}
		if n[3] != "" {
			e.hasLine = true
			e.file = n[2]
			e.line, err = strconv.Atoi(n[3])
			require.NoError(t, err)
		}
		if n[4] != "" {
			e.lineSym = true
			e.addr, err = strconv.ParseUint(n[4], 16, 64)
			require.NoError(t, err)
		}
		entries = append(entries, e)
	}
	return entries, bfdMessages, ""
}

// gprofSymbol is a symbol gprof looks up, in the order it does.
type gprofSymbol struct {
	name string
	addr uint64
}

var gprofMiscountRE = regexp.MustCompile(`somebody miscounted: ltab.len=(\d+) instead of (\d+)`)

var gprofLocalNameRE = regexp.MustCompile(`^[^.$]+((\.clone|\.constprop)?\.\d+)*$`)

// gprofSymbols approximates gprof's choice of function symbols
// (core_sym_class) in .symtab order, which is the order of its lookups.
func gprofSymbols(t *testing.T, f *elf.File) []gprofSymbol {
	t.Helper()
	syms, err := f.Symbols()
	require.NoError(t, err)
	var out []gprofSymbol
	for _, s := range syms {
		typ, bind := elf.ST_TYPE(s.Info), elf.ST_BIND(s.Info)
		if typ == elf.STT_FILE || typ == elf.STT_SECTION || typ == elf.STT_GNU_IFUNC {
			continue
		}
		if s.Section == elf.SHN_UNDEF || s.Section >= elf.SHN_LORESERVE || int(s.Section) >= len(f.Sections) {
			continue
		}
		sec := f.Sections[s.Section]
		switch bind {
		case elf.STB_WEAK:
			if typ == elf.STT_OBJECT {
				continue
			}
		case elf.STB_GLOBAL:
			if sec.Flags&elf.SHF_EXECINSTR == 0 {
				continue
			}
		case elf.STB_LOCAL:
			if sec.Flags&elf.SHF_EXECINSTR == 0 || !gprofLocalNameRE.MatchString(s.Name) ||
				strings.HasPrefix(s.Name, "__gnu_compiled") {
				continue
			}
		default:
			continue
		}
		out = append(out, gprofSymbol{name: s.Name, addr: s.Value})
	}
	return out
}

// lineSym is an entry of gprof's line-by-line symbol table.
type lineSym struct {
	addr uint64
	name string
	file string
	line int
}

// simulateGprof performs the lookups gprof makes, in its order: every
// function symbol, then two walks over every .text byte (with -l). It
// returns the results for the symbols, the line symbols of the second walk
// and the number of line symbols the first walk counted.
func simulateGprof(b *Lines, syms []gprofSymbol, text *elf.Section, lineMode bool) (map[uint64]result, []lineSym, int) {
	funcs := map[uint64]result{}
	for _, s := range syms {
		r := findResult(b, s.addr)
		if _, seen := funcs[s.addr]; !seen {
			funcs[s.addr] = r
		}
	}
	if !lineMode {
		return funcs, nil, 0
	}
	lo, hi := text.Addr, text.Addr+text.Size
	// First walk: gprof counts the line symbols.
	counted := 0
	prevLine, prevName, prevFile := 0, "", ""
	for a := lo; a < hi; a++ {
		file, name, line, ok := b.Find(a)
		if !ok || (prevLine == line && prevName == name && prevFile == file) {
			continue
		}
		prevLine, prevName, prevFile = line, name, file
		counted++
	}
	// Second walk: gprof creates them.
	var out []lineSym
	for a := lo; a < hi; a++ {
		file, name, line, ok := b.Find(a)
		if !ok {
			continue
		}
		if n := len(out); n > 0 && out[n-1].line == line && out[n-1].name == name && out[n-1].file == file {
			continue
		}
		out = append(out, lineSym{addr: a, name: name, file: file, line: line})
	}
	return funcs, out, counted
}

// findResult wraps Find into a comparable value.
func findResult(b *Lines, addr uint64) result {
	file, fn, line, ok := b.Find(addr)
	if !ok {
		return result{}
	}
	return result{file: optString{s: file, has: true}, function: optString{s: fn, has: true}, line: uint32(line)}
}

// compareWithGprof checks the answers for the function symbols against
// gprof's flat profile and the line walk against gprof -l. It returns the
// number of comparisons made. Every debug section is mapped from the file
// (egprof maps only the large ones; the other tests read them).
func compareWithGprof(t *testing.T, prog, gmon string) (symbols, lineSyms int) {
	t.Helper()
	osf, err := os.Open(prog)
	require.NoError(t, err)
	defer osf.Close()
	f, err := elf.NewFile(osf)
	require.NoError(t, err)
	text := f.Section(".text")
	require.NotNil(t, text)
	syms := gprofSymbols(t, f)
	byName := map[string][]uint64{}
	for _, s := range syms {
		byName[s.name] = append(byName[s.name], s.addr)
	}

	// Function symbols, as gprof -p reports them.
	b, err := Load(f, osf)
	require.NoError(t, err)
	require.NotNil(t, b)
	funcs, _, _ := simulateGprof(b, syms, text, false)
	entries, msgs, failure := runGprof(t, prog, gmon, false)
	require.Empty(t, failure)
	assert.Equal(t, msgs, b.takeMessages(), "BFD messages of gprof -p")
	if len(msgs) > 0 {
		t.Logf("gprof -p printed %d BFD messages, e.g. %q", len(msgs), msgs[0])
	}
	for _, e := range entries {
		addrs := byName[e.name]
		if len(addrs) != 1 {
			continue // ambiguous or unknown name (e.g. <spontaneous>)
		}
		got := funcs[addrs[0]]
		symbols++
		if e.hasLine {
			assert.Equal(t, fmt.Sprintf("%s:%d", e.file, e.line), fmt.Sprintf("%s:%d", got.file.s, got.line),
				"%s at %#x", e.name, addrs[0])
		} else {
			assert.False(t, got.file.ok(), "%s at %#x: gprof has no line, got %s:%d", e.name, addrs[0], got.file.s, got.line)
		}
	}

	// Line symbols, as gprof -l reports them. Where a function symbol
	// starts, gprof keeps the function symbol (with the answer of its own
	// lookup) instead of the line symbol.
	namesAt := map[uint64][]string{}
	for _, s := range syms {
		namesAt[s.addr] = append(namesAt[s.addr], s.name)
	}
	b, err = Load(f, osf)
	require.NoError(t, err)
	require.NotEmpty(t, b.maps, "no section mapped")
	funcs, walk, counted := simulateGprof(b, syms, text, true)
	entries, msgs, failure = runGprof(t, prog, gmon, true)
	assert.Equal(t, msgs, b.takeMessages(), "BFD messages of gprof -l")
	if failure != "" {
		// Lookups change BFD's state, so gprof's two walks can disagree;
		// it then stops with "somebody miscounted: ltab.len=N instead of
		// M". The difference must be ours too.
		m := gprofMiscountRE.FindStringSubmatch(failure)
		require.NotNil(t, m, "gprof -l failed: %s", failure)
		claimed, _ := strconv.Atoi(m[1])
		actual, _ := strconv.Atoi(m[2])
		assert.Equal(t, claimed-actual, counted-len(walk), "line symbols counted minus created")
		t.Logf("gprof -l: %s", strings.TrimSpace(failure))
		return symbols, 0
	}
	mine := map[uint64]lineSym{}
	for _, ls := range walk {
		mine[ls.addr] = ls
	}
	seen := map[uint64]bool{}
	for _, e := range entries {
		if !e.lineSym {
			continue
		}
		lineSyms++
		seen[e.addr] = true
		if names, isFunc := namesAt[e.addr]; isFunc {
			got := funcs[e.addr]
			assert.Contains(t, names, e.name, "function symbol at %#x", e.addr)
			assert.Equal(t, fmt.Sprintf("%s:%d", e.file, e.line), fmt.Sprintf("%s:%d", got.file.s, got.line),
				"function symbol %s at %#x", e.name, e.addr)
			continue
		}
		got, ok := mine[e.addr]
		if assert.True(t, ok, "gprof -l has %s, we have no line symbol at %#x", e.rawField, e.addr) {
			assert.Equal(t, fmt.Sprintf("%s (%s:%d)", e.name, e.file, e.line),
				fmt.Sprintf("%s (%s:%d)", got.name, got.file, got.line), "line symbol at %#x", e.addr)
		}
	}
	for _, ls := range walk {
		if !seen[ls.addr] && namesAt[ls.addr] == nil {
			t.Errorf("line symbol %s (%s:%d @ %x) is not in gprof -l", ls.name, ls.file, ls.line, ls.addr)
		}
	}
	return symbols, lineSyms
}

// compareWithAddr2line looks every .text address up, in order, with both
// addr2line -f and a fresh Lines and compares function, file and line.
func compareWithAddr2line(t *testing.T, prog string, step uint64) int {
	t.Helper()
	f, err := elf.Open(prog)
	require.NoError(t, err)
	defer f.Close()
	text := f.Section(".text")
	require.NotNil(t, text)
	var addrs []uint64
	for a := text.Addr; a < text.Addr+text.Size; a += step {
		addrs = append(addrs, a)
	}
	var in bytes.Buffer
	for _, a := range addrs {
		fmt.Fprintf(&in, "%x\n", a)
	}
	cmd := exec.Command("addr2line", "-f", "-e", prog)
	cmd.Stdin = &in
	out, err := cmd.Output()
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	require.Len(t, lines, 2*len(addrs))

	b, err := Load(f, nil)
	require.NoError(t, err)
	disc := regexp.MustCompile(` \(discriminator \d+\)$`)
	for i, a := range addrs {
		r := b.lookupAll(a)
		want := lines[2*i] + "\n" + disc.ReplaceAllString(lines[2*i+1], "")
		assert.Equal(t, want, r.addr2line(), "addr2line %#x", a)
	}
	return len(addrs)
}

// takeMessages returns the messages BFD would have printed on stderr
// ("BFD: DWARF error: ...") since the previous call, in order.
func (s *Lines) takeMessages() []string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.msgs
	s.msgs = nil
	return m
}

// lookupAll is Find without gprof's filtering, for the addr2line
// comparison.
func (s *Lines) lookupAll(addr uint64) result {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lookup(addr)
}

// addr2line formats a result the way addr2line -f prints it.
func (r result) addr2line() string {
	if !r.found {
		return "??\n??:0"
	}
	fn := "??"
	if r.function.ok() && r.function.text() != "" {
		fn = r.function.text()
	}
	file := "??"
	if r.file.ok() {
		file = r.file.text()
	}
	line := "?"
	if r.line != 0 {
		line = strconv.FormatUint(uint64(r.line), 10)
	}
	return fn + "\n" + file + ":" + line
}

func TestAgainstGNUTools(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	testenv.Need(t, "gcc", "g++", "gprof", "addr2line")
	for _, p := range testPrograms {
		t.Run(p.name, func(t *testing.T) {
			testenv.Need(t, p.cc)
			t.Parallel()
			dir := t.TempDir()
			prog, gmon := buildTestProgram(t, dir, p)
			nsym, nline := compareWithGprof(t, prog, gmon)
			naddr := compareWithAddr2line(t, prog, 1)
			t.Logf("%s: %d symbols, %d line symbols, %d addresses compared", p.name, nsym, nline, naddr)
			assert.Positive(t, nsym)
			if p.noLineSyms {
				assert.Zero(t, nline)
			} else {
				assert.Positive(t, nline)
			}
		})
	}
}

func TestAgainstTestdata(t *testing.T) {
	testenv.Need(t, "gprof", "addr2line")
	progs, err := filepath.Glob("../../../testdata/progs/*/prog")
	require.NoError(t, err)
	if len(progs) == 0 {
		t.Skip("no test programs")
	}
	for _, prog := range progs {
		dir := filepath.Dir(prog)
		gmon := filepath.Join(dir, "gmon.out")
		if _, err := os.Stat(gmon); err != nil {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			f, err := elf.Open(prog)
			require.NoError(t, err)
			b, err := Load(f, nil)
			f.Close()
			require.NoError(t, err)
			if b == nil {
				t.Logf("%s: no DWARF", dir)
				return
			}
			nsym, nline := compareWithGprof(t, prog, gmon)
			naddr := compareWithAddr2line(t, prog, 1)
			t.Logf("%s: %d symbols, %d line symbols, %d addresses compared", dir, nsym, nline, naddr)
		})
	}
}

// loadTestdata opens the repository's test program testdata/progs/name
// and loads its line information; the test is skipped without it.
func loadTestdata(t *testing.T, name string) (*elf.File, *Lines) {
	t.Helper()
	f, err := elf.Open(filepath.Join("../../../testdata/progs", name, "prog"))
	if err != nil {
		t.Skipf("no testdata/progs/%s/prog", name)
	}
	t.Cleanup(func() { f.Close() })
	b, err := Load(f, nil)
	require.NoError(t, err)
	return f, b
}

// TestHeaderFunction checks the DWARF 5 quirk on the repository's
// C++ program: a destructor defined in geometry.h is reported in the CU's
// primary file because its sequence never sets the file register.
func TestHeaderFunction(t *testing.T) {
	f, b := loadTestdata(t, "cxx")
	require.NotNil(t, b)
	syms, err := f.Symbols()
	require.NoError(t, err)
	for _, s := range syms {
		if s.Name != "_ZN3geo6shapes5ShapeD2Ev" {
			continue
		}
		file, fn, line, ok := b.Find(s.Value)
		require.True(t, ok)
		assert.Equal(t, "./testdata/progs/cxx/geometry.cc", file)
		assert.Equal(t, "_ZN3geo6shapes5ShapeD2Ev", fn)
		assert.Equal(t, 43, line)
		return
	}
	t.Skip("symbol not found")
}

// TestNoLineSection removes .debug_line from a program: gprof then
// finds no lines and BFD complains once per unit.
func TestNoLineSection(t *testing.T) {
	testenv.Need(t, "objcopy", "gprof")
	src := "../../../testdata/progs/multifile"
	if _, err := os.Stat(filepath.Join(src, "prog")); err != nil {
		t.Skip("no testdata/progs/multifile/prog")
	}
	prog := filepath.Join(t.TempDir(), "prog")
	out, err := exec.Command("objcopy", "--remove-section", ".debug_line", filepath.Join(src, "prog"), prog).CombinedOutput()
	require.NoError(t, err, "%s", out)
	f, err := elf.Open(prog)
	require.NoError(t, err)
	defer f.Close()
	b, err := Load(f, nil)
	require.NoError(t, err)
	require.NotNil(t, b)
	for _, s := range gprofSymbols(t, f) {
		_, _, _, ok := b.Find(s.addr)
		assert.False(t, ok, s.name)
	}
	_, msgs, failure := runGprof(t, prog, filepath.Join(src, "gmon.out"), false)
	require.Empty(t, failure)
	assert.NotEmpty(t, msgs)
	assert.Equal(t, msgs, b.takeMessages())
}

// TestNoDebugInfo loads a program built without -g: there are no lines,
// and a nil Lines finds nothing.
func TestNoDebugInfo(t *testing.T) {
	_, b := loadTestdata(t, "cycles")
	assert.Nil(t, b)
	_, _, _, ok := b.Find(0x1000)
	assert.False(t, ok)
}
