// Package demangle turns mangled symbol names (C++, Java, Rust, D, Ada)
// back into source names exactly as GNU libiberty (binutils 2.40) prints
// them under gprof's flags.
//
// Why egprof has its own demanglers: gprof prints every name through
// libiberty's cplus_demangle, and egprof promises gprof's bytes. The
// github.com/ianlancetaylor/demangle library parses C++ names well but
// prints them in its own spelling, cannot be told to print libiberty's, and
// keeps its substitution table and template binding to itself; a printer
// over its tree stayed 642 names (0.2%) away from libiberty on a
// 303,419-name corpus, because some of libiberty's spellings come from how
// it resolves a template parameter at print time, which a tree that holds
// resolved nodes no longer shows. So the C++ demangler here parses into
// libiberty's kind of tree (substitutions shared, template parameters left
// unresolved) and prints it the way libiberty does, quirks included (the
// 256-byte output buffer that sometimes keeps a ", ", the template
// parameters resolved against the template being printed). The Rust
// (legacy and v0), D and GNAT demanglers follow libiberty's the same way;
// Java is the C++ demangler with libiberty's Java spelling.
//
// The code is written from libiberty's observable behaviour and from
// reading its sources for facts (which rules, which limits); it is not a
// translation of them. Work is bounded as libiberty bounds it: a C++ name
// longer than 1024 bytes is refused, parsing and printing recursion are
// capped, and, beyond libiberty, every output is capped at MaxOutput bytes
// (libiberty has no such cap and can spend exponential time and memory on a
// name whose substitutions nest; such a name is returned as not demangled).
package demangle
