package progen

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// CXXProgram is a generated C++ program for the live demangling test: its
// profile's names are what C++ makes of templates (with type, integer,
// character, boolean and function-pointer arguments), variadic packs
// (empty ones too), generic lambdas and lambdas in template arguments and
// default arguments, inheriting constructors, operators, local classes,
// ABI tags and the standard library's containers, smart pointers,
// std::function and std::sort.
type CXXProgram struct {
	// Seed is the seed it was generated from.
	Seed int64
	// Source is the C++ source text (C++17, one file).
	Source string
}

// GenerateCXX returns the C++ program for seed: 6 to 12 blocks of
// definitions. One run takes about 0.1 to 0.3 seconds of CPU time.
func GenerateCXX(seed int64) *CXXProgram {
	return GenerateCXXSized(seed, 0)
}

// GenerateCXXSized returns a C++ program of the given number of blocks
// (6 to 12 chosen by the seed when blocks is 0 or less), for benchmarks
// on large C++ executables. Each block's work is scaled so that a run
// takes about as long whatever the size.
func GenerateCXXSized(seed int64, blocks int) *CXXProgram {
	g := &cxxGen{r: newRNG(seed, 7), workScale: 1}
	n := blocks
	if n <= 0 {
		n = g.r.between(6, 12)
	} else if n > 9 {
		g.workScale = float64(9) / float64(n)
	}
	for i := 0; i < n; i++ {
		g.block(i)
	}
	return &CXXProgram{Seed: seed, Source: g.source()}
}

// cxxGen builds a C++ program from blocks: each block adds definitions
// (in a namespace of its own, the anonymous namespace or none) and code
// that main runs.
type cxxGen struct {
	r         *rng
	workScale float64 // times each busy loop's length
	defs      strings.Builder
	main      strings.Builder
}

// cxxWords make the generated names.
var cxxWords = []string{
	"grid", "mesh", "node", "edge", "flow", "heap", "ring", "tile", "cell", "wave",
	"span", "path", "leaf", "root", "sink", "pump", "gate", "fold", "scan", "pack",
}

// cxxScalars are the types of values and template arguments.
var cxxScalars = []string{"int", "long", "double", "unsigned", "short", "float", "long long", "unsigned long", "signed char"}

func (g *cxxGen) name(base string, i int) string {
	return fmt.Sprintf("%s_%s%d", base, pick(g.r, cxxWords), i)
}

// work returns a busy loop of about n iterations that feeds x into sink.
func (g *cxxGen) work(x string) string {
	return fmt.Sprintf("WORK(%d, %s);", int(float64(g.r.between(2_000_000, 8_000_000))*g.workScale), x)
}

// block adds block i: its definitions inside a namespace (or not) and its
// use in main.
func (g *cxxGen) block(i int) {
	var ns, qual string
	switch g.r.intn(4) {
	case 0:
		ns = g.name("ns", i)
		qual = ns + "::"
	case 1:
		ns = fmt.Sprintf("%s::%s", g.name("outer", i), g.name("inner", i))
		qual = ns + "::"
	case 2:
		ns = "" // the anonymous namespace
	}
	kinds := []func(int) (string, string){
		g.classTemplate, g.inheriting, g.variadic, g.lambdas, g.containers,
		g.recursion, g.funcPointer, g.operators, g.tagged, g.localClass,
	}
	defs, use := kinds[g.r.intn(len(kinds))](i)
	use = strings.ReplaceAll(use, "Q::", qual)
	switch {
	case qual != "":
		fmt.Fprintf(&g.defs, "namespace %s {\n%s}\n\n", ns, defs)
	case ns == "" && g.r.chance(0.5):
		fmt.Fprintf(&g.defs, "namespace {\n%s}\n\n", defs)
	default:
		fmt.Fprintf(&g.defs, "%s\n", defs)
	}
	fmt.Fprintf(&g.main, "  {\n%s  }\n", use)
}

// classTemplate: a class template with an integer parameter, a member
// template and a conversion operator, used with two argument lists.
func (g *cxxGen) classTemplate(i int) (string, string) {
	name := g.name("Box", i)
	defs := fmt.Sprintf(`template <typename T, int N>
struct %[1]s {
  T data[N];
  %[1]s() : data() {}
  NOINLINE T total() const {
    T s{};
    for (int i = 0; i < N; ++i) s += data[i];
    %[2]s
    return s;
  }
  template <typename U>
  NOINLINE %[1]s<T, N> scaled(U k) const {
    %[1]s<T, N> r;
    for (int i = 0; i < N; ++i) r.data[i] = static_cast<T>(data[i] * k + 1);
    %[3]s
    return r;
  }
  NOINLINE operator long() const {
    %[4]s
    return N;
  }
};
`, name, g.work("N"), g.work("k"), g.work("N"))
	var use strings.Builder
	for j := g.r.between(1, 2); j > 0; j-- {
		t, n, u := pick(g.r, cxxScalars), g.r.between(1, 9), pick(g.r, cxxScalars)
		fmt.Fprintf(&use, "    Q::%s<%s, %d> v%d;\n    sink += (long)v%d.scaled((%s)2).total() + (long)v%d;\n", name, t, n, j, j, u, j)
	}
	return defs, use.String()
}

// inheriting: a class and a class template that inherit a base's
// constructors.
func (g *cxxGen) inheriting(i int) (string, string) {
	base, der, tder := g.name("Base", i), g.name("Derived", i), g.name("Wrap", i)
	t := pick(g.r, []string{"double", "long", "int", "float"})
	defs := fmt.Sprintf(`struct %[1]s {
  NOINLINE %[1]s(int a, %[4]s b) : v(a + (long)b) { %[5]s }
  NOINLINE explicit %[1]s(const char *s) : v(s[0]) { %[6]s }
  virtual ~%[1]s() {}
  long v;
};
struct %[2]s : %[1]s {
  using %[1]s::%[1]s;
};
template <typename B>
struct %[3]s : B {
  using B::B;
  NOINLINE long get() const {
    %[7]s
    return this->v;
  }
};
`, base, der, tder, t, g.work("a"), g.work("s[0]"), g.work("this->v"))
	use := fmt.Sprintf("    Q::%s d(3, (%s)%d);\n    Q::%s<Q::%s> w(\"x\");\n    Q::%s<Q::%s> u(%d, (%s)1);\n    sink += d.v + w.get() + u.get();\n",
		der, t, g.r.between(1, 9), tder, base, tder, der, g.r.between(1, 9), t)
	return defs, use
}

// variadic: a variadic function template called with packs of several
// sizes, the empty one included, and a forwarding one called with a
// generic lambda and a capturing one.
func (g *cxxGen) variadic(i int) (string, string) {
	sum, apply := g.name("sum", i), g.name("apply", i)
	defs := fmt.Sprintf(`template <typename... Ts>
NOINLINE long %[1]s(Ts... xs) {
  long s = sizeof...(Ts);
  ((s += static_cast<long>(xs)), ...);
  %[3]s
  return s;
}
template <typename F, typename... Args>
NOINLINE long %[2]s(F f, Args &&...args) {
  long s = 0;
  ((s += f(std::forward<Args>(args))), ...);
  %[4]s
  return s;
}
`, sum, apply, g.work("s"), g.work("s"))
	literals := []string{"1", "2L", "3.5", "'c'", "4u", "5.25f", "(short)6", "7ULL", "true"}
	var use strings.Builder
	fmt.Fprintf(&use, "    sink += Q::%s();\n", sum)
	for j := g.r.between(1, 3); j > 0; j-- {
		var args []string
		for k := g.r.between(1, 4); k > 0; k-- {
			args = append(args, pick(g.r, literals))
		}
		fmt.Fprintf(&use, "    sink += Q::%s(%s);\n", sum, strings.Join(args, ", "))
	}
	fmt.Fprintf(&use, "    long k = %d;\n    sink += Q::%s([](auto x) { return (long)x * 2; }, 1, 2.5, 'z');\n", g.r.between(1, 9), apply)
	fmt.Fprintf(&use, "    sink += Q::%s([&](long x) { return x + k; }, 3L);\n    sink += Q::%s([](int) { return 1L; });\n", apply, apply)
	return defs, use.String()
}

// lambdas: std::sort with a lambda comparator, a lambda in std::function
// and one in a default argument.
func (g *cxxGen) lambdas(i int) (string, string) {
	name, dflt := g.name("sorted", i), g.name("defaulted", i)
	defs := fmt.Sprintf(`NOINLINE long %[1]s(int n) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = (i * 7919) %% n;
  std::sort(v.begin(), v.end(), [](int a, int b) { return a > b; });
  auto f = [&](int x) {
    %[3]s
    return (long)x + v[0];
  };
  std::function<long(int)> h = f;
  %[4]s
  return h(3);
}
NOINLINE long %[2]s(long x, long (*f)(long) = [](long y) { return y + 1; }) {
  %[5]s
  return f(x);
}
`, name, dflt, g.work("x"), g.work("n"), g.work("x"))
	use := fmt.Sprintf("    sink += Q::%s(%d) + Q::%s(%d);\n", name, g.r.between(100, 2000), dflt, g.r.between(1, 9))
	return defs, use
}

// containers: std::map with various key and value types, smart pointers
// and std::tuple.
func (g *cxxGen) containers(i int) (string, string) {
	name := g.name("tally", i)
	key := pick(g.r, []struct{ t, make string }{
		{"int", "i"}, {"long", "(long)i * 3"}, {"std::string", "std::to_string(i)"},
		{"std::pair<int, int>", "std::make_pair(i, -i)"}, {"double", "i / 2.0"},
	})
	val := pick(g.r, []string{"int", "long", "double"})
	defs := fmt.Sprintf(`NOINLINE %[3]s %[1]s(int n) {
  std::map<%[2]s, %[3]s> m;
  for (int i = 0; i < n; ++i) m[%[4]s] += (%[3]s)i;
  %[3]s t{};
  for (const auto &kv : m) t += kv.second;
  auto p = std::make_unique<std::vector<%[3]s>>(3, t);
  auto q = std::make_shared<std::map<int, long>>();
  (*q)[n] = (long)t;
  std::tuple<int, %[3]s, std::string> row(n, t, "r");
  %[5]s
  return t + (*p)[0] + (%[3]s)std::get<0>(row) + (%[3]s)q->size();
}
`, name, key.t, val, key.make, g.work("n"))
	return defs, fmt.Sprintf("    sink += (long)Q::%s(%d);\n", name, g.r.between(50, 500))
}

// recursion: a function template recursing through its integer
// argument, and one with character, boolean and negative arguments.
func (g *cxxGen) recursion(i int) (string, string) {
	rec, consts := g.name("depth", i), g.name("consts", i)
	defs := fmt.Sprintf(`template <int N>
NOINLINE long %[1]s(long x) {
  %[3]s
  if constexpr (N > 0)
    return %[1]s<N - 1>(x + 1);
  else
    return x;
}
template <char C, bool B, long K>
NOINLINE long %[2]s() {
  %[4]s
  return B ? C + K : K;
}
`, rec, consts, g.work("x"), g.work("K"))
	c := pick(g.r, []string{"'a'", "'Z'", "'0'"})
	use := fmt.Sprintf("    sink += Q::%s<%d>(1) + Q::%s<%s, %t, %d>();\n", rec, g.r.between(2, 6), consts, c, g.r.chance(0.5), g.r.between(-9, 9))
	return defs, use
}

// funcPointer: functions as template arguments.
func (g *cxxGen) funcPointer(i int) (string, string) {
	leaf, call, member, invoke := g.name("leaf", i), g.name("call", i), g.name("Holder", i), g.name("invoke", i)
	defs := fmt.Sprintf(`NOINLINE long %[1]s(long x) {
  %[4]s
  return x + 1;
}
template <long (*F)(long)>
NOINLINE long %[2]s(long x) {
  %[5]s
  return F(x);
}
struct %[3]s {
  long v = 2;
  NOINLINE long twice(long x) const { %[6]s return x * v; }
};
template <typename C, long (C::*M)(long) const>
NOINLINE long %[8]s(const C &c, long x) {
  %[7]s
  return (c.*M)(x);
}
`, leaf, call, member, g.work("x"), g.work("x"), g.work("x"), g.work("x"), invoke)
	use := fmt.Sprintf("    Q::%s h;\n    sink += Q::%s<Q::%s>(%d) + Q::%s<Q::%s, &Q::%s::twice>(h, 3);\n",
		member, call, leaf, g.r.between(1, 9), invoke, member, member)
	return defs, use
}

// operators: overloaded operators, a call operator and a comparison used
// by std::sort.
func (g *cxxGen) operators(i int) (string, string) {
	pt, fn := g.name("Point", i), g.name("Scale", i)
	defs := fmt.Sprintf(`struct %[1]s {
  long x, y;
};
NOINLINE %[1]s operator+(%[1]s a, %[1]s b) {
  %[3]s
  return {a.x + b.x, a.y + b.y};
}
NOINLINE bool operator<(const %[1]s &a, const %[1]s &b) {
  return a.x < b.x || (a.x == b.x && a.y < b.y);
}
struct %[2]s {
  long k;
  NOINLINE long operator()(const %[1]s &p) const {
    %[4]s
    return p.x * k + p.y;
  }
};
`, pt, fn, g.work("a.x"), g.work("p.y"))
	use := fmt.Sprintf(`    std::vector<Q::%[1]s> v;
    for (long i = 0; i < %[3]d; ++i) v.push_back(Q::%[1]s{i %% 7, -i});
    std::sort(v.begin(), v.end());
    Q::%[1]s s = v[0] + v[1];
    sink += Q::%[2]s{%[4]d}(s);
`, pt, fn, g.r.between(50, 400), g.r.between(2, 9))
	return defs, use
}

// tagged: functions whose names carry the [abi:cxx11] tag (they return
// std::string), one of them static.
func (g *cxxGen) tagged(i int) (string, string) {
	str, stat := g.name("label", i), g.name("quiet", i)
	defs := fmt.Sprintf(`NOINLINE std::string %[1]s(int n) {
  %[3]s
  return std::to_string(n) + "x";
}
NOINLINE static std::string %[2]s(const std::string &s) {
  %[4]s
  return s + s;
}
`, str, stat, g.work("n"), g.work("s.size()"))
	return defs, fmt.Sprintf("    sink += (long)Q::%s(Q::%s(%d)).size();\n", stat, str, g.r.between(1, 99))
}

// localClass: a class local to a function, and a lambda local to its
// member function.
func (g *cxxGen) localClass(i int) (string, string) {
	name := g.name("outer", i)
	defs := fmt.Sprintf(`NOINLINE long %[1]s(long n) {
  struct Local {
    long base;
    NOINLINE long run(long x) const {
      auto add = [this](long y) { return y + base; };
      %[2]s
      return add(x);
    }
  };
  Local l{n};
  %[3]s
  return l.run(n);
}
`, name, g.work("x"), g.work("n"))
	return defs, fmt.Sprintf("    sink += Q::%s(%d);\n", name, g.r.between(1, 99))
}

// source assembles the program.
func (g *cxxGen) source() string {
	var b strings.Builder
	b.WriteString(`// Generated by internal/progen (GenerateCXX) for egprof's live C++
// demangling test.
#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#define NOINLINE __attribute__((noinline))
#define WORK(n, x) for (long i_ = 0; i_ < (n); ++i_) sink += i_ ^ (long)(x)

volatile long sink;

`)
	b.WriteString(g.defs.String())
	b.WriteString("int main() {\n")
	b.WriteString(g.main.String())
	b.WriteString("  return sink == 42;\n}\n")
	return b.String()
}

// Build writes the source to dir/prog.cc and compiles it with g++ (or
// opts.GCC) as C++17 into dir/prog, returning the executable's path.
func (p *CXXProgram) Build(ctx context.Context, dir string, opts BuildOptions) (string, error) {
	if err := os.WriteFile(filepath.Join(dir, "prog.cc"), []byte(p.Source), 0o666); err != nil {
		return "", err
	}
	gxx := opts.GCC
	if gxx == "" {
		gxx = "g++"
	}
	if err := compile(ctx, dir, gxx, append([]string{"-std=c++17"}, opts.Args(nil, "prog.cc", "prog")...)); err != nil {
		return "", fmt.Errorf("seed %d: %w", p.Seed, err)
	}
	return filepath.Join(dir, "prog"), nil
}
