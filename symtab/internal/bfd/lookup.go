package bfd

import (
	"fmt"
	"runtime/debug"

	"github.com/egprof/egprof/internal/mapfile"
)

// result is what bfd_find_nearest_line reports; found is its return value.
type result struct {
	file     optString
	function optString
	line     uint32
	found    bool
}

// unitFindNearest asks one unit about addr (comp_unit_find_nearest_line).
func (s *Lines) unitFindNearest(u *unit, addr uint64, file *optString, fn **funcInfo, line *uint32) bool {
	if !s.maybeDecode(u) {
		return false
	}
	*fn = u.lookupFunc(addr)
	idx, l, ok := u.table.lookup(addr)
	if ok {
		*line = l
		if idx >= 0 {
			*file = optString{s: u.table.names[idx], has: true}
		} else {
			*file = optString{}
		}
	} else {
		*file = optString{}
	}
	return ok || *fn != nil
}

// lookup runs _bfd_dwarf2_find_nearest_line for addr in .text, with
// _bfd_elf_find_function's fallback as _bfd_elf_find_nearest_line adds it.
func (s *Lines) lookup(addr uint64) result {
	var res result
	var fn *funcInfo
	found := false

	if leaf := s.leaf(addr); leaf != nil {
		for _, r := range leaf.ranges {
			r.unit.mark = false
		}
		// Decoding a unit may add ranges to this very leaf; they are
		// visited too, as in BFD.
		for i := 0; i < len(leaf.ranges); i++ {
			r := leaf.ranges[i]
			if r.unit.mark || addr < r.low || addr >= r.high {
				continue
			}
			r.unit.mark = true
			if s.unitFindNearest(r.unit, addr, &res.file, &fn, &res.line) {
				found = true
				break
			}
		}
	}
	// BFD's list of units without ranges never gets an entry, so units
	// without ranges are only tried right after being parsed.
	for !found {
		u := s.nextUnit()
		if u == nil {
			break
		}
		if (u.arange.first.high == 0 || (!u.failed && u.arange.contains(addr))) &&
			s.unitFindNearest(u, addr, &res.file, &fn, &res.line) {
			found = true
		}
	}

	if fn != nil && fn.isLinkage {
		// A function's name is looked for once, then kept (-l asks
		// for it at every byte of the function).
		if !fn.name.closedCopy {
			fn.name = fn.name.closed()
		}
		res.function = fn.name
	} else {
		off := addr - s.textVMA
		sym, ok := s.elfFunction(off)
		if ok {
			res.function = optString{s: sym.name, has: true}
			if !res.file.ok() {
				res.file = sym.file
			}
			// Only a symbol is known: BFD still reports success.
			found = true
		}
		if fn != nil {
			if !ok {
				if !fn.name.closedCopy {
					fn.name = fn.name.closed()
				}
				res.function = fn.name
			} else if sym.codeOff+s.textVMA == fn.arange.first.low {
				fn.name = res.function
			}
			fn.isLinkage = true
		}
	}
	res.found = found
	return res
}

// Find returns what bfd_find_nearest_line and gprof's get_src_info give for
// addr: the file name, the function name and the line, with ok false when
// gprof rejects the answer (no file, no function or line 0). Like BFD's,
// the answer may depend on the addresses looked up before. A nil Lines
// finds nothing, and so does one whose mapped sections could not be read
// (see Err).
func (s *Lines) Find(addr uint64) (file, function string, line int, ok bool) {
	if s == nil {
		return "", "", 0, false
	}
	s.mu.Lock()
	if s.fault != nil {
		s.mu.Unlock()
		return "", "", 0, false
	}
	r, read := s.lookupGuarded(addr)
	s.mu.Unlock()
	if !read {
		return "", "", 0, false
	}
	return r.answer()
}

// answer is what gprof's get_src_info makes of the result: the file, the
// function and the line, ok only with all three (a line of 0 is none).
func (r result) answer() (file, function string, line int, ok bool) {
	l := int(int32(r.line))
	return r.file.text(), r.function.text(), l, r.file.ok() && r.function.ok() && l != 0
}

// FindRange calls visit with Find's answer for each address from lo up to
// end (exclusive) that Find answers (ok), in order: the answers Find gives
// address by address, under one lock and one guard for all (gprof's -l
// looks up every byte of .text). After a fault (see Err) it stops. visit
// must not call s.
func (s *Lines) FindRange(lo, end uint64, visit func(addr uint64, file, function string, line int)) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fault != nil {
		return
	}
	if len(s.maps) > 0 {
		var read bool
		defer s.endGuard(debug.SetPanicOnFault(true), &read)
	}
	for addr := lo; addr < end; addr++ {
		if file, function, line, ok := s.lookup(addr).answer(); ok {
			visit(addr, file, function, line)
		}
	}
}

// Err reports why Find stopped answering: a mapped section could not be
// read, because the file shrank after Load (nil otherwise).
func (s *Lines) Err() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fault
}

// lookupGuarded runs lookup; with sections mapped, a fault reading one of
// them (the file shrank under the mapping) sets s.fault and read false
// instead of crashing the process. A fault anywhere else is no input's
// doing and goes on as the panic it is.
func (s *Lines) lookupGuarded(addr uint64) (r result, read bool) {
	if len(s.maps) == 0 {
		return s.lookup(addr), true
	}
	// One deferred call, not two: -l looks up every byte of .text.
	defer s.endGuard(debug.SetPanicOnFault(true), &read)
	return s.lookup(addr), true
}

// endGuard ends lookupGuarded's guard: it restores the goroutine's
// handling of faults (wasPanicking), and turns a fault inside the
// mappings into s.fault and *read false.
func (s *Lines) endGuard(wasPanicking bool, read *bool) {
	debug.SetPanicOnFault(wasPanicking)
	p := recover()
	if p == nil {
		return
	}
	at, isFault := mapfile.FaultAddress(p)
	off, mapped := s.fileOffset(at)
	if !isFault || !mapped {
		panic(p)
	}
	s.fault = fmt.Errorf("byte %#x of the file, in its debug sections, could not be read: the file was cut short while egprof read it", off)
	*read = false
}

// fileOffset returns the file offset that address at maps, if it lies in
// one of s's mappings.
func (s *Lines) fileOffset(at uintptr) (int64, bool) {
	for i, m := range s.maps {
		if off, ok := mapfile.Offset(m, at); ok {
			return s.mapStarts[i] + off, true
		}
	}
	return 0, false
}

// ReadMapped copies into p the bytes of the executable's file at offset
// off, from the mapping of the whole file Load made, and reports whether
// it could: false without such a mapping, for bytes past its end, or when
// reading them faults (the file shrank). It spares callers that need a
// few bytes of code opening the file again.
func (s *Lines) ReadMapped(off int64, p []byte) (ok bool) {
	if s == nil || off < 0 {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.maps) == 0 || s.mapStarts[0] != 0 || off > int64(len(s.maps[0])) || int64(len(p)) > int64(len(s.maps[0]))-off {
		return false
	}
	defer func(wasPanicking bool) {
		debug.SetPanicOnFault(wasPanicking)
		if r := recover(); r != nil {
			if at, isFault := mapfile.FaultAddress(r); !isFault {
				panic(r)
			} else if _, mapped := s.fileOffset(at); !mapped {
				panic(r)
			}
			ok = false
		}
	}(debug.SetPanicOnFault(true))
	copy(p, s.maps[0][off:])
	return true
}
