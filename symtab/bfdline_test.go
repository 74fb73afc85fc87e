package symtab

import (
	"bufio"
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"math/rand"
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

// The tests compare bfdLines with GNU tools built on the same BFD code:
// gprof's flat profile (which prints "name (file:line)" for every function
// symbol and, with -l, one entry per change of function, file or line over
// every .text byte) and addr2line -f.

// bfdTestSources are the programs built for the comparisons.
var bfdTestSources = map[string]string{
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

// bfdTestProgram is one program built for the comparisons.
type bfdTestProgram struct {
	name    string
	cc      string
	flags   []string
	sources []string
	asm     bool // add asm.s
	noMap   bool // keep absolute directories (no -fdebug-prefix-map)
	// noLineSyms: gprof -l yields no line symbols to compare (BFD finds
	// no line at all, or gprof gives up).
	noLineSyms bool
	// gen, when set, supplies the sources instead of bfdTestSources.
	gen func() (files map[string]string, sources []string)
}

var bfdTestPrograms = []bfdTestProgram{
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
		files["asm.s"] = bfdTestSources["asm.s"]
		if cxx {
			files["asmc.cc"] = "extern \"C\" int asm_add(int a, int b) { return a + b; }\n"
			files["gen.h"] = strings.Replace(files["gen.h"], "int asm_add(int a, int b);", "extern \"C\" int asm_add(int a, int b);", 1)
			sources = append(sources, "asmc.cc")
		}
		return files, append([]string{mainName}, sources...)
	}
}

// buildBFDTestProgram writes the sources under dir, builds the program with
// -pg and runs it there so that it leaves a gmon.out.
func buildBFDTestProgram(t *testing.T, dir string, p bfdTestProgram) (prog, gmon string) {
	t.Helper()
	files := bfdTestSources
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
func runGprof(t *testing.T, prog, gmon string, lineMode bool) (entries []gprofEntry, bfdMsgs []string, failure string) {
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
			bfdMsgs = append(bfdMsgs, l)
		}
	}
	if err != nil {
		require.NotEmpty(t, stderr.String(), "gprof failed: %v", err)
		return nil, bfdMsgs, stderr.String()
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
	return entries, bfdMsgs, ""
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

// bfdLineSym is an entry of gprof's line-by-line symbol table.
type bfdLineSym struct {
	addr uint64
	name string
	file string
	line int
}

// simulateGprof performs the lookups gprof makes, in its order: every
// function symbol, then two walks over every .text byte (with -l). It
// returns the results for the symbols, the line symbols of the second walk
// and the number of line symbols the first walk counted.
func simulateGprof(b *bfdLines, syms []gprofSymbol, text *elf.Section, lineMode bool) (map[uint64]bfdResult, []bfdLineSym, int) {
	funcs := map[uint64]bfdResult{}
	for _, s := range syms {
		r := bfdFindResult(b, s.addr)
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
		file, name, line, ok := b.find(a)
		if !ok || (prevLine == line && prevName == name && prevFile == file) {
			continue
		}
		prevLine, prevName, prevFile = line, name, file
		counted++
	}
	// Second walk: gprof creates them.
	var out []bfdLineSym
	for a := lo; a < hi; a++ {
		file, name, line, ok := b.find(a)
		if !ok {
			continue
		}
		if n := len(out); n > 0 && out[n-1].line == line && out[n-1].name == name && out[n-1].file == file {
			continue
		}
		out = append(out, bfdLineSym{addr: a, name: name, file: file, line: line})
	}
	return funcs, out, counted
}

// bfdFindResult wraps find into a comparable value.
func bfdFindResult(b *bfdLines, addr uint64) bfdResult {
	file, fn, line, ok := b.find(addr)
	if !ok {
		return bfdResult{}
	}
	return bfdResult{file: bfdStr{file, true}, function: bfdStr{fn, true}, line: uint32(line)}
}

// compareWithGprof checks the answers for the function symbols against
// gprof's flat profile and the line walk against gprof -l. It returns the
// number of comparisons made.
func compareWithGprof(t *testing.T, prog, gmon string) (symbols, lineSyms int) {
	t.Helper()
	f, err := elf.Open(prog)
	require.NoError(t, err)
	defer f.Close()
	text := f.Section(".text")
	require.NotNil(t, text)
	syms := gprofSymbols(t, f)
	byName := map[string][]uint64{}
	for _, s := range syms {
		byName[s.name] = append(byName[s.name], s.addr)
	}

	// Function symbols, as gprof -p reports them.
	b, err := loadBFDLines(f)
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
			assert.False(t, got.file.ok, "%s at %#x: gprof has no line, got %s:%d", e.name, addrs[0], got.file.s, got.line)
		}
	}

	// Line symbols, as gprof -l reports them. Where a function symbol
	// starts, gprof keeps the function symbol (with the answer of its own
	// lookup) instead of the line symbol.
	namesAt := map[uint64][]string{}
	for _, s := range syms {
		namesAt[s.addr] = append(namesAt[s.addr], s.name)
	}
	b, err = loadBFDLines(f)
	require.NoError(t, err)
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
	mine := map[uint64]bfdLineSym{}
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
// addr2line -f and a fresh bfdLines and compares function, file and line.
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

	b, err := loadBFDLines(f)
	require.NoError(t, err)
	disc := regexp.MustCompile(` \(discriminator \d+\)$`)
	for i, a := range addrs {
		r := b.lookupAll(a)
		want := lines[2*i] + "\n" + disc.ReplaceAllString(lines[2*i+1], "")
		assert.Equal(t, want, r.addr2line(), "addr2line %#x", a)
	}
	return len(addrs)
}

// lookupAll is find without gprof's filtering, for the addr2line
// comparison.
func (s *bfdLines) lookupAll(addr uint64) bfdResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lookup(addr)
}

// addr2line formats a result the way addr2line -f prints it.
func (r bfdResult) addr2line() string {
	if !r.found {
		return "??\n??:0"
	}
	fn := "??"
	if r.function.ok && r.function.s != "" {
		fn = r.function.s
	}
	file := "??"
	if r.file.ok {
		file = r.file.s
	}
	line := "?"
	if r.line != 0 {
		line = strconv.FormatUint(uint64(r.line), 10)
	}
	return fn + "\n" + file + ":" + line
}

func TestBFDLinesAgainstGNUTools(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	testenv.Need(t, "gcc", "g++", "gprof", "addr2line")
	for _, p := range bfdTestPrograms {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			prog, gmon := buildBFDTestProgram(t, dir, p)
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

func TestBFDLinesAgainstTestdata(t *testing.T) {
	testenv.Need(t, "gprof", "addr2line")
	progs, err := filepath.Glob("../testdata/progs/*/prog")
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
			b, err := loadBFDLines(f)
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

// TestBFDLinesHeaderFunction checks the DWARF 5 quirk on the repository's
// C++ program: a destructor defined in geometry.h is reported in the CU's
// primary file because its sequence never sets the file register.
func TestBFDLinesHeaderFunction(t *testing.T) {
	f, err := elf.Open("../testdata/progs/cxx/prog")
	if err != nil {
		t.Skip("no testdata/progs/cxx/prog")
	}
	defer f.Close()
	b, err := loadBFDLines(f)
	require.NoError(t, err)
	require.NotNil(t, b)
	syms, err := f.Symbols()
	require.NoError(t, err)
	for _, s := range syms {
		if s.Name != "_ZN3geo6shapes5ShapeD2Ev" {
			continue
		}
		file, fn, line, ok := b.find(s.Value)
		require.True(t, ok)
		assert.Equal(t, "./testdata/progs/cxx/geometry.cc", file)
		assert.Equal(t, "_ZN3geo6shapes5ShapeD2Ev", fn)
		assert.Equal(t, 43, line)
		return
	}
	t.Skip("symbol not found")
}

// TestBFDLinesNoLineSection removes .debug_line from a program: gprof then
// finds no lines and BFD complains once per unit.
func TestBFDLinesNoLineSection(t *testing.T) {
	testenv.Need(t, "objcopy", "gprof")
	src := "../testdata/progs/multifile"
	if _, err := os.Stat(filepath.Join(src, "prog")); err != nil {
		t.Skip("no testdata/progs/multifile/prog")
	}
	prog := filepath.Join(t.TempDir(), "prog")
	out, err := exec.Command("objcopy", "--remove-section", ".debug_line", filepath.Join(src, "prog"), prog).CombinedOutput()
	require.NoError(t, err, "%s", out)
	f, err := elf.Open(prog)
	require.NoError(t, err)
	defer f.Close()
	b, err := loadBFDLines(f)
	require.NoError(t, err)
	require.NotNil(t, b)
	for _, s := range gprofSymbols(t, f) {
		_, _, _, ok := b.find(s.addr)
		assert.False(t, ok, s.name)
	}
	_, msgs, failure := runGprof(t, prog, filepath.Join(src, "gmon.out"), false)
	require.Empty(t, failure)
	assert.NotEmpty(t, msgs)
	assert.Equal(t, msgs, b.takeMessages())
}

func TestBFDLinesNoDebugInfo(t *testing.T) {
	f, err := elf.Open("../testdata/progs/cycles/prog")
	if err != nil {
		t.Skip("no testdata/progs/cycles/prog")
	}
	defer f.Close()
	b, err := loadBFDLines(f)
	require.NoError(t, err)
	assert.Nil(t, b)
	_, _, _, ok := b.find(0x1000)
	assert.False(t, ok)
}

// ---------------------------------------------------------------------------
// Synthetic DWARF: byte orders, versions, 64-bit DWARF and line program
// opcodes that compilers for x86 do not emit.

// dwBuf builds DWARF bytes in one byte order.
type dwBuf struct {
	bytes.Buffer
	order binary.ByteOrder
}

func (b *dwBuf) u8(v uint64) *dwBuf { b.WriteByte(byte(v)); return b }
func (b *dwBuf) u16(v uint64) *dwBuf {
	var x [2]byte
	b.order.PutUint16(x[:], uint16(v))
	b.Write(x[:])
	return b
}
func (b *dwBuf) u32(v uint64) *dwBuf {
	var x [4]byte
	b.order.PutUint32(x[:], uint32(v))
	b.Write(x[:])
	return b
}
func (b *dwBuf) u64(v uint64) *dwBuf {
	var x [8]byte
	b.order.PutUint64(x[:], v)
	b.Write(x[:])
	return b
}
func (b *dwBuf) uN(v uint64, n int) *dwBuf {
	switch n {
	case 2:
		return b.u16(v)
	case 4:
		return b.u32(v)
	}
	return b.u64(v)
}
func (b *dwBuf) uleb(v uint64) *dwBuf {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			c |= 0x80
		}
		b.WriteByte(c)
		if v == 0 {
			return b
		}
	}
}
func (b *dwBuf) sleb(v int64) *dwBuf {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		done := (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0)
		if !done {
			c |= 0x80
		}
		b.WriteByte(c)
		if done {
			return b
		}
	}
}
func (b *dwBuf) str(s string) *dwBuf { b.WriteString(s); b.WriteByte(0); return b }

// synthUnit describes a one-CU program for the synthetic tests.
type synthUnit struct {
	order      binary.ByteOrder
	version    int // of both .debug_info and .debug_line
	offsetSize int // 4 or 8
	addrSize   int
	compDir    string
	lang       uint64
	funcs      []synthFunc
	maxOps     int
	minInsn    int
	program    func(l *dwBuf) // the line number program
	dirs       []string       // v5: entry 0 first
	files      []synthFile
}

type synthFunc struct {
	name, linkage string
	noLinkage     bool // emit DW_AT_name only
	low, high     uint64
}

type synthFile struct {
	name string
	dir  uint64
}

// build returns a bfdLines over the unit's sections (strings are inline,
// line table strings use DW_FORM_line_strp in DWARF 5).
func (u synthUnit) build(t *testing.T) *bfdLines {
	t.Helper()
	if u.maxOps == 0 {
		u.maxOps = 1
	}
	if u.minInsn == 0 {
		u.minInsn = 1
	}
	abbrev := &dwBuf{order: u.order}
	// 1: compile unit with children: stmt_list sec_offset, comp_dir string,
	// language data2.
	abbrev.uleb(1).uleb(0x11).u8(1)
	abbrev.uleb(0x10).uleb(0x17).uleb(0x1b).uleb(0x08).uleb(0x13).uleb(0x05).uleb(0).uleb(0)
	// 2: subprogram without children: name string, linkage_name string,
	// low_pc addr, high_pc data8 (length).
	abbrev.uleb(2).uleb(0x2e).u8(0)
	abbrev.uleb(0x03).uleb(0x08).uleb(0x6e).uleb(0x08).uleb(0x11).uleb(0x01).uleb(0x12).uleb(0x07).uleb(0).uleb(0)
	// 3: the same without a linkage name.
	abbrev.uleb(3).uleb(0x2e).u8(0)
	abbrev.uleb(0x03).uleb(0x08).uleb(0x11).uleb(0x01).uleb(0x12).uleb(0x07).uleb(0).uleb(0)
	abbrev.uleb(0)

	body := &dwBuf{order: u.order}
	body.uleb(1).uN(0, u.offsetSize).str(u.compDir).u16(u.lang)
	for _, fn := range u.funcs {
		if fn.noLinkage {
			body.uleb(3).str(fn.name).uN(fn.low, u.addrSize).u64(fn.high - fn.low)
			continue
		}
		body.uleb(2).str(fn.name).str(fn.linkage).uN(fn.low, u.addrSize).u64(fn.high - fn.low)
	}
	body.uleb(0)
	hdr := &dwBuf{order: u.order}
	hdr.u16(uint64(u.version))
	if u.version >= 5 {
		hdr.u8(1).u8(uint64(u.addrSize)).uN(0, u.offsetSize)
	} else {
		hdr.uN(0, u.offsetSize).u8(uint64(u.addrSize))
	}
	info := &dwBuf{order: u.order}
	unitLen := uint64(hdr.Len() + body.Len())
	if u.offsetSize == 8 {
		info.u32(0xffffffff).u64(unitLen)
	} else {
		info.u32(unitLen)
	}
	info.Write(hdr.Bytes())
	info.Write(body.Bytes())

	lineStr := &dwBuf{order: u.order}
	lh := &dwBuf{order: u.order} // from min_inst_length to the end of the header
	lh.u8(uint64(u.minInsn))
	if u.version >= 4 {
		lh.u8(uint64(u.maxOps))
	}
	lh.u8(1).u8(uint64(0xfb)).u8(14).u8(13) // default_is_stmt, line_base -5, line_range 14, opcode_base 13
	for _, n := range []uint64{0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1} {
		lh.u8(n)
	}
	if u.version >= 5 {
		lh.u8(1).uleb(1).uleb(0x1f) // directories: path as line_strp
		lh.uleb(uint64(len(u.dirs)))
		for _, d := range u.dirs {
			lh.uN(uint64(lineStr.Len()), u.offsetSize)
			lineStr.str(d)
		}
		lh.u8(2).uleb(1).uleb(0x1f).uleb(2).uleb(0x0b) // files: path, directory index data1
		lh.uleb(uint64(len(u.files)))
		for _, f := range u.files {
			lh.uN(uint64(lineStr.Len()), u.offsetSize)
			lineStr.str(f.name)
			lh.u8(f.dir)
		}
	} else {
		for _, d := range u.dirs {
			lh.str(d)
		}
		lh.u8(0)
		for _, f := range u.files {
			lh.str(f.name).uleb(f.dir).uleb(0).uleb(0)
		}
		lh.u8(0)
	}
	prog := &dwBuf{order: u.order}
	u.program(prog)

	after := &dwBuf{order: u.order} // after unit_length
	after.u16(uint64(u.version))
	if u.version >= 5 {
		after.u8(uint64(u.addrSize)).u8(0)
	}
	after.uN(uint64(lh.Len()), u.offsetSize)
	after.Write(lh.Bytes())
	after.Write(prog.Bytes())
	line := &dwBuf{order: u.order}
	if u.offsetSize == 8 {
		line.u32(0xffffffff).u64(uint64(after.Len()))
	} else {
		line.u32(uint64(after.Len()))
	}
	line.Write(after.Bytes())
	for line.Len() < 16 {
		line.u8(0)
	}

	s := newBFDLines(u.order)
	s.info = bfdSection{data: info.Bytes(), ok: true}
	s.abbrev.data, s.abbrev.ok = abbrev.Bytes(), true
	s.line.data, s.line.ok = line.Bytes(), true
	s.lineStr.data, s.lineStr.ok = lineStr.Bytes(), true
	return s
}

// Line program helpers.
func lnSetAddress(l *dwBuf, addr uint64, size int) {
	l.u8(0).uleb(uint64(1+size)).u8(2).uN(addr, size)
}
func lnEndSequence(l *dwBuf) { l.u8(0).uleb(1).u8(1) }
func lnCopy(l *dwBuf)        { l.u8(1) }
func lnAdvancePC(l *dwBuf, n uint64) {
	l.u8(2).uleb(n)
}
func lnAdvanceLine(l *dwBuf, n int64) { l.u8(3).sleb(n) }
func lnSetFile(l *dwBuf, n uint64)    { l.u8(4).uleb(n) }
func lnFixedAdvance(l *dwBuf, n uint64) {
	l.u8(9).u16(n)
}
func lnConstAddPC(l *dwBuf) { l.u8(8) }

// lnSpecial emits the special opcode for an address advance (in
// operations) and a line advance, with line_base -5 and line_range 14.
func lnSpecial(l *dwBuf, addrAdv, lineAdv int) {
	l.u8(uint64(13 + (lineAdv + 5) + 14*addrAdv))
}

type synthQuery struct {
	addr uint64
	file string
	fn   string
	line int
	ok   bool
}

func TestBFDLinesSynthetic(t *testing.T) {
	cases := []struct {
		name    string
		unit    synthUnit
		queries []synthQuery
	}{
		{
			name: "dwarf5 big-endian file 0 at sequence start",
			unit: synthUnit{
				order: binary.BigEndian, version: 5, offsetSize: 4, addrSize: 4, compDir: "/build", lang: 0x0c,
				dirs:  []string{"/build", "include"},
				files: []synthFile{{"main.c", 0}, {"main.c", 0}, {"util.h", 1}},
				funcs: []synthFunc{{name: "main", linkage: "main", low: 0x1000, high: 0x1010}, {name: "util", linkage: "util", low: 0x2000, high: 0x2008}},
				program: func(l *dwBuf) {
					lnSetAddress(l, 0x1000, 4)
					lnAdvanceLine(l, 9) // line 10
					lnCopy(l)
					lnSpecial(l, 4, 1) // 0x1004 line 11
					lnSetFile(l, 2)
					lnSpecial(l, 4, 5) // 0x1008 util.h:16
					lnAdvancePC(l, 8)
					lnEndSequence(l) // 0x1010
					// A sequence that never sets the file: BFD uses entry 0.
					lnSetAddress(l, 0x2000, 4)
					lnAdvanceLine(l, 2)
					lnCopy(l)
					lnFixedAdvance(l, 8)
					lnEndSequence(l)
				},
			},
			queries: []synthQuery{
				{0x1000, "/build/main.c", "main", 10, true},
				{0x1003, "/build/main.c", "main", 10, true},
				{0x1004, "/build/main.c", "main", 11, true},
				{0x1008, "/build/include/util.h", "main", 16, true},
				{0x100f, "/build/include/util.h", "main", 16, true},
				{0x1010, "", "", 0, false},
				{0x2000, "/build/main.c", "util", 3, true},
				{0x2008, "", "", 0, false},
				{0x0fff, "", "", 0, false},
			},
		},
		{
			name: "dwarf4 64-bit dwarf relative dirs and define_file",
			unit: synthUnit{
				order: binary.LittleEndian, version: 4, offsetSize: 8, addrSize: 8, compDir: ".", lang: 0x0c,
				dirs:  []string{"src", "/abs/inc"},
				files: []synthFile{{"a.c", 1}, {"b.h", 2}, {"c.c", 0}},
				funcs: []synthFunc{{name: "f", linkage: "f", low: 0x400000, high: 0x400040}},
				program: func(l *dwBuf) {
					lnSetAddress(l, 0x400000, 8)
					lnCopy(l) // a.c:1
					lnSetFile(l, 2)
					lnSpecial(l, 2, 2) // 0x400002 b.h:3
					lnSetFile(l, 3)
					lnSpecial(l, 2, 1) // 0x400004 c.c:4
					// DW_LNE_define_file adds file 4 relative to dir 1.
					l.u8(0).uleb(1 + 6 + 3).u8(3).str("gen.c").uleb(1).uleb(0).uleb(0)
					lnSetFile(l, 4)
					lnSpecial(l, 2, 1) // 0x400006 gen.c:5
					lnSetFile(l, 9)
					lnSpecial(l, 2, 1) // 0x400008 bad file number
					lnSetFile(l, 0)
					lnSpecial(l, 2, 1) // 0x40000a file 0 before DWARF 5
					lnConstAddPC(l)    // +17
					lnSpecial(l, 0, 1) // 0x40001b line 8
					lnAdvancePC(l, 0x25)
					lnEndSequence(l) // 0x400040
				},
			},
			queries: []synthQuery{
				{0x400000, "./src/a.c", "f", 1, true},
				{0x400002, "/abs/inc/b.h", "f", 3, true},
				{0x400004, "./c.c", "f", 4, true},
				{0x400006, "./src/gen.c", "f", 5, true},
				{0x400008, "<unknown>", "f", 6, true},
				{0x40000a, "<unknown>", "f", 7, true},
				{0x40001a, "<unknown>", "f", 7, true},
				{0x40001b, "<unknown>", "f", 8, true},
				{0x40003f, "<unknown>", "f", 8, true},
			},
		},
		{
			name: "dwarf5 64-bit dwarf",
			unit: synthUnit{
				order: binary.BigEndian, version: 5, offsetSize: 8, addrSize: 8, compDir: ".", lang: 0x1d,
				dirs:  []string{".", "sub"},
				files: []synthFile{{"p.c", 0}, {"q.h", 1}},
				funcs: []synthFunc{{name: "p", linkage: "p", low: 0x10000, high: 0x10010}},
				program: func(l *dwBuf) {
					lnSetAddress(l, 0x10000, 8)
					lnCopy(l)
					lnSetFile(l, 1)
					lnSpecial(l, 8, 3)
					lnAdvancePC(l, 8)
					lnEndSequence(l)
				},
			},
			queries: []synthQuery{
				{0x10000, "././p.c", "p", 1, true},
				{0x10008, "./sub/q.h", "p", 4, true},
				{0x10010, "", "", 0, false},
			},
		},
		{
			name: "dwarf3 duplicates, out of order rows and overlapping sequences",
			unit: synthUnit{
				order: binary.BigEndian, version: 3, offsetSize: 4, addrSize: 8, compDir: "", lang: 0x0c,
				files: []synthFile{{"x.c", 0}},
				funcs: []synthFunc{{name: "g", linkage: "g", low: 0x100, high: 0x140}},
				program: func(l *dwBuf) {
					lnSetAddress(l, 0x100, 8)
					lnAdvanceLine(l, 9)
					lnCopy(l) // 0x100:10
					lnAdvanceLine(l, 1)
					lnCopy(l) // 0x100:11 replaces the previous row
					lnSpecial(l, 0x10, 1)
					lnSetAddress(l, 0x108, 8)
					lnSpecial(l, 0, 5) // 0x108:17, inserted below 0x110
					lnSetAddress(l, 0x120, 8)
					lnEndSequence(l)
					// Nested in the first sequence: dropped.
					lnSetAddress(l, 0x104, 8)
					lnAdvanceLine(l, 99)
					lnCopy(l)
					lnSetAddress(l, 0x10c, 8)
					lnEndSequence(l)
					// Overlapping the end of the first: trimmed to start at 0x120.
					lnSetAddress(l, 0x118, 8)
					lnAdvanceLine(l, 199)
					lnCopy(l)
					lnSetAddress(l, 0x130, 8)
					lnEndSequence(l)
				},
			},
			queries: []synthQuery{
				{0x100, "x.c", "g", 11, true},
				{0x104, "x.c", "g", 11, true},
				{0x108, "x.c", "g", 17, true},
				{0x10f, "x.c", "g", 17, true},
				{0x110, "x.c", "g", 12, true},
				{0x11f, "x.c", "g", 12, true},
				{0x120, "x.c", "g", 200, true},
				{0x12f, "x.c", "g", 200, true},
				{0x130, "", "", 0, false},
			},
		},
		{
			name: "dwarf4 VLIW op_index",
			unit: synthUnit{
				order: binary.LittleEndian, version: 4, offsetSize: 4, addrSize: 4, compDir: "/w", lang: 0x0c,
				maxOps: 3, minInsn: 8,
				files: []synthFile{{"v.c", 0}},
				funcs: []synthFunc{{name: "v", linkage: "v", low: 0x800, high: 0x900}},
				program: func(l *dwBuf) {
					lnSetAddress(l, 0x800, 4)
					lnCopy(l)          // 0x800 op 0: line 1
					lnSpecial(l, 1, 1) // op 1: same address, line 2
					lnSpecial(l, 2, 1) // op 3 -> 0x808 op 0: line 3
					lnSpecial(l, 4, 1) // op 4 -> 0x810 op 1: line 4
					// BFD's advance_pc sets the address from op_index only.
					lnAdvancePC(l, 5) // (1+5)/3*8 = 0x10, op 0
					lnSetAddress(l, 0x820, 4)
					lnSpecial(l, 0, 1) // 0x820: line 5
					lnFixedAdvance(l, 0x20)
					lnEndSequence(l) // 0x840
				},
			},
			queries: []synthQuery{
				{0x800, "/w/v.c", "v", 2, true},
				{0x807, "/w/v.c", "v", 2, true},
				{0x808, "/w/v.c", "v", 3, true},
				{0x810, "/w/v.c", "v", 4, true},
				{0x81f, "/w/v.c", "v", 4, true},
				{0x820, "/w/v.c", "v", 5, true},
				{0x83f, "/w/v.c", "v", 5, true},
			},
		},
		{
			name: "dwarf2 C++ names",
			unit: synthUnit{
				order: binary.LittleEndian, version: 2, offsetSize: 4, addrSize: 4, compDir: "/c", lang: 0x04,
				files: []synthFile{{"m.cc", 0}},
				funcs: []synthFunc{
					{name: "plain", linkage: "_Z5plainv", low: 0x10, high: 0x20},
					// Without symbols the DWARF name is used.
					{name: "cfunc", noLinkage: true, low: 0x20, high: 0x30},
					// An empty linkage name is a NULL name that still counts
					// as a linkage name: gprof gets no function name.
					{name: "odd", linkage: "", low: 0x30, high: 0x40},
				},
				program: func(l *dwBuf) {
					lnSetAddress(l, 0x10, 4)
					lnCopy(l)
					lnSetAddress(l, 0x40, 4)
					lnEndSequence(l)
				},
			},
			queries: []synthQuery{
				{0x10, "/c/m.cc", "_Z5plainv", 1, true},
				{0x1f, "/c/m.cc", "_Z5plainv", 1, true},
				{0x20, "/c/m.cc", "cfunc", 1, true},
				{0x30, "", "", 0, false},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.unit.build(t)
			for _, q := range tc.queries {
				file, fn, line, ok := b.find(q.addr)
				if !q.ok {
					assert.False(t, ok, "%#x: got %s %s:%d", q.addr, fn, file, line)
					continue
				}
				if assert.True(t, ok, "%#x", q.addr) {
					assert.Equal(t, fmt.Sprintf("%s %s:%d", q.fn, q.file, q.line), fmt.Sprintf("%s %s:%d", fn, file, line), "%#x", q.addr)
				}
			}
		})
	}
}

func TestBFDConcatFilename(t *testing.T) {
	some := func(s string) bfdStr { return bfdStr{s: s, ok: true} }
	cases := []struct {
		name    string
		use0    bool
		compDir bfdStr
		dirs    []bfdStr
		files   []bfdFileEntry
		n       uint32
		want    string
	}{
		{"v4 dir 0 is the comp dir", false, some("."), nil, []bfdFileEntry{{some("a.c"), 0}}, 1, "./a.c"},
		{"v4 relative dir keeps ./", false, some("."), []bfdStr{some("testdata/progs")}, []bfdFileEntry{{some("x.c"), 1}}, 1, "./testdata/progs/x.c"},
		{"v4 absolute dir", false, some("/c"), []bfdStr{some("inc"), some("/abs")}, []bfdFileEntry{{some("c.h"), 2}}, 1, "/abs/c.h"},
		{"v4 absolute name", false, some("/c"), []bfdStr{some("inc")}, []bfdFileEntry{{some("/x/d.h"), 1}}, 1, "/x/d.h"},
		{"v4 no comp dir", false, bfdStr{}, []bfdStr{some("inc")}, []bfdFileEntry{{some("b.h"), 1}}, 1, "inc/b.h"},
		{"v4 no comp dir dir 0", false, bfdStr{}, nil, []bfdFileEntry{{some("a.c"), 0}}, 1, "a.c"},
		{"v4 bad dir", false, some("/c"), nil, []bfdFileEntry{{some("a.c"), 7}}, 1, "/c/a.c"},
		{"v4 file 0", false, some("/c"), nil, []bfdFileEntry{{some("a.c"), 0}}, 0, "<unknown>"},
		{"v4 bad file", false, some("/c"), nil, []bfdFileEntry{{some("a.c"), 0}}, 2, "<unknown>"},
		{"v4 NULL name", false, some("/c"), nil, []bfdFileEntry{{bfdStr{}, 0}}, 1, "<unknown>"},
		{"v5 file 0 absolute dir 0", true, some("/comp"), []bfdStr{some("/comp"), some("sub")}, []bfdFileEntry{{some("m.c"), 0}}, 0, "/comp/m.c"},
		{"v5 relative dir", true, some("/comp"), []bfdStr{some("/comp"), some("sub")}, []bfdFileEntry{{some("m.c"), 0}, {some("s.c"), 1}}, 1, "/comp/sub/s.c"},
		{"v5 dot comp dir", true, some("."), []bfdStr{some("."), some("lib")}, []bfdFileEntry{{some("m.c"), 0}, {some("x.h"), 1}}, 1, "./lib/x.h"},
		{"v5 relative dir 0", true, some("."), []bfdStr{some(".")}, []bfdFileEntry{{some("m.c"), 0}}, 0, "././m.c"},
		{"v5 empty comp dir", true, some(""), []bfdStr{some("d")}, []bfdFileEntry{{some("m.c"), 0}}, 0, "/d/m.c"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := &bfdTableBuilder{compDir: tc.compDir, use0: tc.use0, dirs: tc.dirs, files: tc.files}
			assert.Equal(t, tc.want, b.fileName(tc.n))
		})
	}
}

func TestBFDCompDir(t *testing.T) {
	for in, want := range map[string]string{
		"/src":          "/src",
		"host.:/src":    "/src",
		":/src":         ":/src",
		"a:/src":        "a:/src",
		"host.:src":     "host.:src",
		"x.:/a.:/b":     "/a.:/b",
		"/with:colon/x": "/with:colon/x",
	} {
		got := bfdCompDir(bfdAttr{form: bfdFormString, str: bfdStr{s: in, ok: true}})
		assert.Equal(t, want, got.s, in)
	}
	assert.False(t, bfdCompDir(bfdAttr{form: bfdFormData4, val: 5}).ok)
}

// TestBFDEntryFormats decodes DWARF 5 directory/file tables with the forms
// BFD keeps (string, line_strp, udata, data16) and one it drops (strp).
func TestBFDEntryFormats(t *testing.T) {
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		lineStr := &dwBuf{order: order}
		lineStr.str("ignored").str("via_line_strp.c")
		str := &dwBuf{order: order}
		str.str("via_strp.c")
		b := &dwBuf{order: order}
		// Files: path string, directory udata, MD5 data16.
		b.u8(3).uleb(1).uleb(0x08).uleb(2).uleb(0x0f).uleb(5).uleb(0x1e)
		b.uleb(2)
		b.str("one.c").uleb(300).Write(make([]byte, 16))
		b.str("two.c").uleb(1).Write(make([]byte, 16))
		// Files: path line_strp, directory data2.
		b.u8(2).uleb(1).uleb(0x1f).uleb(2).uleb(0x05)
		b.uleb(1)
		b.u32(8).u16(4)
		// Files: path strp (BFD ignores the value).
		b.u8(1).uleb(1).uleb(0x0e)
		b.uleb(1)
		b.u32(0)
		// An unknown content type fails.
		b.u8(1).uleb(0x2001).uleb(0x08)
		b.uleb(1)
		b.str("x")

		s := newBFDLines(order)
		s.lineStr.data, s.lineStr.ok = lineStr.Bytes(), true
		s.str.data, s.str.ok = str.Bytes(), true
		u := &bfdUnit{offsetSize: 4, addrSize: 8, version: 5}
		data := b.Bytes()
		p := 0
		var got []bfdFileEntry
		add := func(name bfdStr, dir uint32) { got = append(got, bfdFileEntry{name, dir}) }
		for i := 0; i < 3; i++ {
			require.True(t, s.readEntryFormats(u, data, &p, len(data), add))
		}
		assert.Equal(t, []bfdFileEntry{
			{bfdStr{"one.c", true}, 300},
			{bfdStr{"two.c", true}, 1},
			{bfdStr{"via_line_strp.c", true}, 4},
			{bfdStr{}, 0},
		}, got)
		assert.False(t, s.readEntryFormats(u, data, &p, len(data), add))
	}
}

// TestBFDLinesCorrupt mutates the debug sections of real programs and makes
// sure decoding neither panics nor runs away.
func TestBFDLinesCorrupt(t *testing.T) {
	progs, _ := filepath.Glob("../testdata/progs/*/prog")
	var base []*bfdLines
	var texts [][2]uint64
	for _, p := range progs {
		f, err := elf.Open(p)
		if err != nil {
			continue
		}
		b, err := loadBFDLines(f)
		text := f.Section(".text")
		f.Close()
		if err != nil || b == nil || text == nil {
			continue
		}
		base = append(base, b)
		texts = append(texts, [2]uint64{text.Addr, text.Size})
	}
	if len(base) == 0 {
		t.Skip("no test programs with DWARF")
	}
	rng := rand.New(rand.NewSource(1))
	mutate := func(sec bfdSection, n int) bfdSection {
		if !sec.ok || len(sec.data) == 0 {
			return sec
		}
		d := append([]byte(nil), sec.data...)
		for i := 0; i < n; i++ {
			switch rng.Intn(3) {
			case 0:
				d[rng.Intn(len(d))] = byte(rng.Intn(256))
			case 1:
				d[rng.Intn(len(d))] = 0xff
			default:
				d[rng.Intn(len(d))] = 0
			}
		}
		if rng.Intn(4) == 0 {
			d = d[:rng.Intn(len(d))]
		}
		sec.data = d
		return sec
	}
	for round := 0; round < 300; round++ {
		i := rng.Intn(len(base))
		orig := base[i]
		s := newBFDLines(orig.order)
		s.info, s.abbrev, s.line, s.str, s.lineStr = orig.info, orig.abbrev, orig.line, orig.str, orig.lineStr
		s.ranges, s.rnglists, s.strOffsets, s.addr = orig.ranges, orig.rnglists, orig.strOffsets, orig.addr
		s.trieBudget = orig.trieBudget
		n := 1 + rng.Intn(20)
		switch rng.Intn(4) {
		case 0:
			s.info = mutate(s.info, n)
		case 1:
			s.line = mutate(s.line, n)
		case 2:
			s.abbrev = mutate(s.abbrev, n)
		default:
			s.ranges = mutate(s.ranges, n)
			s.rnglists = mutate(s.rnglists, n)
			s.lineStr = mutate(s.lineStr, n)
		}
		lo, size := texts[i][0], texts[i][1]
		for k := 0; k < 200; k++ {
			s.find(lo + uint64(rng.Int63n(int64(size)+64)) - 32)
		}
	}
}
