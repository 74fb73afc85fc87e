// Package bfd answers "which source file, line and function does this
// address belong to" exactly the way GNU gprof 2.40 learns it from BFD's
// DWARF reader (bfd_find_nearest_line on the .text section).
//
// Go's debug/dwarf gives different answers in several places that show up
// in gprof's output, so the DWARF is decoded here by hand, following BFD's
// dwarf2.c:
//
//   - File names are built from the line table's directory and file entries
//     without any path cleaning: a relative entry becomes
//     "comp_dir/dir/name" (e.g. "./testdata/x.c" with comp_dir ".").
//   - Every line-table sequence starts with the file register at entry 0 for
//     DWARF 5 tables (entry 1 before), so code from a header that never
//     switches files is attributed to the CU's primary file.
//   - Rows are chained and de-duplicated per sequence as BFD does, sequences
//     are sorted and overlapping ones trimmed or dropped, and lookups use the
//     same two binary searches.
//   - The compilation unit asked is chosen through the same lazily built
//     structures: units are parsed one by one only when no already-read unit
//     answers, their address ranges (from the unit DIE, from the line table
//     sequences and from the function DIEs) are kept in BFD's 256-way trie,
//     and a unit's line table and functions are decoded the first time the
//     unit is consulted, once. The answer for an address can therefore
//     depend on earlier lookups, exactly as in BFD; callers that want
//     gprof's output must look addresses up in the order gprof does.
//   - The function name comes from the smallest DWARF function range holding
//     the address; when that function has no linkage name (or there is none)
//     BFD falls back to the ELF symbol table (_bfd_elf_find_function), with
//     its one-entry cache, and remembers the outcome in the function.
//
// Decoding never panics on malformed input: every read goes through a
// bounds-checked cursor (buf), errors make a unit unusable (as in BFD) and
// allocations are bounded by the sizes of the debug sections. Large
// sections may be mapped from the file rather than read (Load); a file cut
// short under them stops the answers (Err) instead of the process. Names
// from the string sections are read only when an answer shows them
// (optString). The files follow the concepts of dwarf2.c: buf (the
// readers), const, form (attribute values), abbrev, unit, ranges, trie,
// line (line tables), func (functions of a unit), elfsyms (the ELF symbol
// fallback), lookup; section and mmap read and map the sections.
package bfd
