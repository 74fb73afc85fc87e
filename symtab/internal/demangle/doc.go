// Package demangle turns mangled symbol names (C++, Java, Rust, D, Ada)
// back into source names exactly as GNU libiberty (binutils 2.40) prints
// them under gprof's flags: Demangle is libiberty's cplus_demangle with
// DMGL_PARAMS | DMGL_ANSI under one of its styles.
//
// Why egprof has its own demanglers: gprof prints every name through
// libiberty, and egprof promises gprof's bytes. The
// github.com/ianlancetaylor/demangle library parses C++ names well but
// prints them in its own spelling, cannot be told to print libiberty's, and
// keeps its substitution table and template binding to itself; a printer
// over its tree stayed 642 names (0.2%) away from libiberty on a
// 303,419-name corpus, because some of libiberty's spellings come from how
// it resolves a template parameter at print time, which a tree holding
// resolved nodes no longer shows. So the C++ demangler here parses into
// libiberty's kind of tree (substitutions shared, template parameters left
// as references) with libiberty's budgets of nodes and substitutions, and
// prints it the way libiberty does, quirks included: the 256-byte output
// buffer after whose flush a ", " before an empty pack stays, the template
// parameters resolved against the template being printed, the scopes saved
// for references to them. The Rust (legacy and v0), D and Ada demanglers
// follow libiberty's the same way; Java is the C++ demangler printing
// libiberty's Java spelling.
//
// The code is written from libiberty's observable behaviour, checked
// against libiberty itself on 350,000 real names and by a differential fuzz
// test, and from its sources read for facts (which rules, which limits); it
// is not a translation of them.
//
// Work is bounded where libiberty bounds it, and a little further: a C++
// name longer than 1024 bytes is refused, function types nest at most 2048
// deep and printing at most 1024, Rust paths and types at most 1024 (all as
// in libiberty, gprof not lifting its limits); beyond libiberty, every
// output is capped at MaxOutput bytes, every name's work at 2^20 steps and
// D's nesting at 100,000 levels. Only names built for it reach those:
// libiberty would spend exponential time and memory on them (names whose
// substitutions or back references nest), or overflow its stack (D's
// nesting, somewhere above 100,000 levels); egprof reports them as not
// demangled, so gprof's output keeps them raw.
package demangle
