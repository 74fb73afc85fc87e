package cli

import (
	"bytes"
	"debug/dwarf"
	"debug/elf"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/egprof/egprof/internal/testenv"
)

// exeEdit turns the bytes of a good executable into a corrupt one; f is
// the good executable, parsed, to tell where its parts live.
type exeEdit func(t *testing.T, data []byte, f *elf.File) []byte

// exeCase is one row of the robustness table for executables: a checked-in
// test program, an edit of its bytes, the profile and options to run
// with, and what is expected. With sameAsGprof, egprof prints what GNU
// gprof prints and exits as it does; otherwise egprof fails with a
// non-zero exit status and an error holding every string of wantErr.
type exeCase struct {
	name        string
	dir         string // test program's directory: prog and gmon.out
	gmon        string // profile, when not dir's gmon.out
	args        []string
	edit        exeEdit
	sameAsGprof bool
	sameStderr  bool // with sameAsGprof: gprof's stderr too
	wantErr     []string
	gprof       string // what GNU gprof 2.40 does, for the README's table
}

// TestRobustExecutable runs egprof in-process on corrupt and mismatched
// executables made from the checked-in test programs. Each case either
// gives GNU gprof's answer (where gprof answers sanely; compared with a
// run of gprof on the same file) or a clear error naming the file and what
// is wrong, with a non-zero exit status; never a panic. The work is
// bounded by allocations: a case allocates less than 64 MB more than a
// clean run of the same program (the time is logged, not asserted).
func TestRobustExecutable(t *testing.T) {
	gprof := ""
	if testenv.Has("gprof") {
		gprof = testenv.Gprof(t)
	}
	const demo, m32, cyc, cxx = "testdata/demo", "testdata/progs/cycles-m32", "testdata/progs/cycles", "testdata/progs/cxx"
	flat := []string{"-b", "-p"}
	lines := []string{"-b", "-l", "-p"}
	tests := []exeCase{
		{name: "truncated in the ELF header", dir: demo, args: flat, edit: truncateAt(40), sameAsGprof: true,
			gprof: "not in executable format, exit 1"},
		{name: "truncated in the program headers", dir: demo, args: flat, edit: truncateAt(200), sameAsGprof: true,
			gprof: "not in executable format, exit 1"},
		{name: "truncated in .symtab", dir: demo, args: flat, edit: truncateIn(".symtab"), sameAsGprof: true,
			gprof: "not in executable format, exit 1"},
		{name: "truncated in .strtab", dir: demo, args: flat, edit: truncateIn(".strtab"), sameAsGprof: true,
			gprof: "not in executable format, exit 1"},
		{name: "truncated in .debug_info", dir: demo, args: lines, edit: truncateIn(".debug_info"), sameAsGprof: true,
			gprof: "not in executable format, exit 1"},
		{name: "truncated in .debug_line", dir: demo, args: lines, edit: truncateIn(".debug_line"), sameAsGprof: true,
			gprof: "not in executable format, exit 1"},
		{name: "section headers past the end", dir: demo, args: flat, edit: setHeader("e_shoff", 0x7fff0000), sameAsGprof: true,
			gprof: "not in executable format, exit 1"},
		{name: ".symtab size past the end", dir: demo, args: flat, edit: setSection(".symtab", "sh_size", 0x7fff0000),
			gprof:   "file truncated, exit 1",
			wantErr: []string{"prog", ".symtab (section 34)", "sh_offset 0x3c60", "sh_size 0x7fff0000", "past the end of the file"}},
		{name: ".symtab offset past the end", dir: demo, args: flat, edit: setSection(".symtab", "sh_offset", 0x7fff0000),
			gprof:   "file truncated, exit 1",
			wantErr: []string{"prog", ".symtab (section 34)", "sh_offset 0x7fff0000", "past the end of the file"}},
		{name: ".symtab overlaps .strtab", dir: demo, args: flat, edit: moveSection(".symtab", ".strtab"),
			gprof:   "a warning per bad name, an empty profile, exit 0",
			wantErr: []string{"prog", "symbol 1 (file offset 0x4200)", "st_name", "past the end of .strtab"}},
		{name: ".text size past the end", dir: demo, args: flat, edit: setSection(".text", "sh_size", 0x7fff0000), sameAsGprof: true,
			gprof: "a warning, the clean run's profile, exit 0"},
		{name: ".text size past the end, -l", dir: demo, args: lines, edit: setSection(".text", "sh_size", 0x7fff0000),
			gprof:   "looks up 2^31 addresses (hours)",
			wantErr: []string{"prog", ".text (section 15)", "sh_size 0x7fff0000", "past the end of the file"}},
		{name: ".text without contents larger than the file, -l", dir: demo, args: lines,
			edit:    editAll(setSection(".text", "sh_type", uint64(elf.SHT_NOBITS)), setSection(".text", "sh_size", 0x7fff0000)),
			gprof:   "looks up 2^31 addresses (hours)",
			wantErr: []string{"prog", ".text (section 15)", "SHT_NOBITS", "sh_size 0x7fff0000", "larger than the file"}},
		{name: ".strtab without terminator", dir: demo, args: flat, edit: unterminatedStrtab,
			gprof:   `every name printed as "(null)", exit 0`,
			wantErr: []string{"prog", ".strtab (section 35, file offset 0x41e8", "NUL"}},
		{name: ".strtab size cut in a name", dir: demo, args: flat, edit: cutStrtab,
			gprof:   `every name printed as "(null)", exit 0`,
			wantErr: []string{"prog", ".strtab (section 35, file offset 0x41e8", "NUL"}},
		{name: "symbol name offsets past .strtab", dir: demo, args: flat, edit: badNameOffsets,
			gprof:   "a warning per symbol, an empty profile, exit 0",
			wantErr: []string{"prog", "symbol 1 (file offset 0x3c78)", "st_name 0x7ffffff0", "past the end of .strtab"}},
		{name: "stripped (no SHT_SYMTAB)", dir: demo, args: flat, edit: setSection(".symtab", "sh_type", uint64(elf.SHT_PROGBITS)), sameAsGprof: true,
			gprof: "has no symbols, exit 1"},
		{name: "no .text", dir: demo, args: flat, edit: renameSection(".text", ".txet"), sameAsGprof: true,
			gprof: "can't find .text section, exit 1"},
		{name: "32-bit executable, 64-bit profile", dir: m32, gmon: cyc + "/gmon.out", args: flat, sameAsGprof: true,
			gprof: "unexpected EOF after reading 1888 of 6312 samples, exit 1"},
		{name: "64-bit executable, 32-bit profile", dir: cyc, gmon: m32 + "/gmon.out", args: flat,
			gprof:   "allocates gigabytes for a 1.8e9-bin histogram",
			wantErr: []string{"gmon.out: offset 0x3d", "histogram record claims 1868785011 bins"}},
		{name: "another machine (e_machine AArch64)", dir: demo, args: flat, edit: setHeader("e_machine", uint64(elf.EM_AARCH64)), sameAsGprof: true,
			gprof: "the clean run's profile, exit 0"},
		// RISC-V, a machine whose code the belonging check does not read
		// (it would rightly find no Arm call before the x86 code's arcs).
		{name: "another machine (e_machine RISC-V), -c", dir: cxx, args: []string{"-b", "-q", "-c"}, edit: setHeader("e_machine", uint64(elf.EM_RISCV)),
			sameAsGprof: true, sameStderr: true,
			gprof: "-c not supported on architecture unknown, no call found, exit 0"},
		{name: "another byte order (EI_DATA big-endian)", dir: demo, args: flat, edit: setByte(5, byte(elf.ELFDATA2MSB)), sameAsGprof: true,
			gprof: "not in executable format, exit 1"},
		{name: "DWARF abbreviation offset past the end", dir: demo, args: lines, edit: patchInfo(8, 4, 0x7ffffff0), sameAsGprof: true,
			gprof: "a DWARF error, no line symbols, exit 0"},
		{name: "DWARF line table offset past the end", dir: demo, args: lines, edit: patchInfo(0x2a, 4, 0x7ffffff0), sameAsGprof: true,
			gprof: "a DWARF error, no line symbols, exit 0"},
		{name: "DWARF unit length past the end", dir: demo, args: lines, edit: patchInfo(0, 4, 0x7ffffff0), sameAsGprof: true,
			gprof: "no line symbols, exit 0"},
		{name: "DWARF unknown form", dir: demo, args: lines, edit: unknownForm, sameAsGprof: true,
			gprof: "a DWARF error, no line symbols, exit 0"},
		{name: "DWARF abstract origin refers to itself", dir: cxx, args: lines, edit: cyclicOrigin, sameAsGprof: true,
			gprof: "the cycle is cut, exit 0"},
		{name: "line program jumps backwards", dir: demo, args: lines, edit: lineJumpsBack, sameAsGprof: true,
			gprof: "line symbols from the rows kept, exit 0"},
	}
	clean := map[string]uint64{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := filepath.Join(tt.dir, "prog")
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			f, err := elf.NewFile(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			bad := append([]byte(nil), data...)
			if tt.edit != nil {
				bad = tt.edit(t, bad, f)
			}
			prog := filepath.Join(t.TempDir(), "prog")
			if err := os.WriteFile(prog, bad, 0o755); err != nil {
				t.Fatal(err)
			}
			gmon := tt.gmon
			if gmon == "" {
				gmon = filepath.Join(tt.dir, "gmon.out")
			}
			argv := append(append([]string{"gprof"}, tt.args...), prog, gmon)
			key := tt.dir + strings.Join(tt.args, " ")
			if _, ok := clean[key]; !ok {
				cleanArgv := append(append([]string{"gprof"}, tt.args...), src, filepath.Join(tt.dir, "gmon.out"))
				_, clean[key], _ = runMeasured(cleanArgv)
			}
			got, alloc, took := runMeasured(argv)
			t.Logf("exit %d in %v, %d kB allocated (clean run: %d kB)\nstderr: %s", got.Code, took, alloc>>10, clean[key]>>10, got.Stderr)
			if got.Code == -1 {
				t.Fatalf("panic:\n%s", got.Stderr)
			}
			if alloc > clean[key]+64<<20 {
				t.Errorf("allocated %d MB, clean run %d MB", alloc>>20, clean[key]>>20)
			}
			if tt.sameAsGprof {
				if gprof == "" {
					t.Skip("gprof not on PATH")
				}
				want := testenv.Run(t.Context(), t, gprof, "", argv)
				if got.Stdout != want.Stdout || got.Code != want.Code {
					t.Errorf("egprof exit %d, gprof exit %d (stderr %q)\negprof:\n%s\ngprof:\n%s", got.Code, want.Code, want.Stderr, got.Stdout, want.Stdout)
				}
				if tt.sameStderr && got.Stderr != want.Stderr {
					t.Errorf("stderr %q, gprof's %q", got.Stderr, want.Stderr)
				}
				return
			}
			if got.Code == 0 {
				t.Errorf("exit status 0, want an error\n%s", got.Stdout)
			}
			for _, s := range tt.wantErr {
				if !strings.Contains(got.Stderr, s) {
					t.Errorf("stderr %q does not say %q", got.Stderr, s)
				}
			}
		})
	}
}

// runMeasured runs egprof in-process and returns what it printed, the
// bytes it allocated and the time it took.
func runMeasured(argv []string) (testenv.Result, uint64, time.Duration) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	res := testenv.RunMain(run, argv...)
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	return res, after.TotalAlloc - before.TotalAlloc, took
}

func truncateAt(n int) exeEdit {
	return func(t *testing.T, data []byte, f *elf.File) []byte { return data[:n] }
}

// truncateIn cuts the file in the middle of the named section.
func truncateIn(name string) exeEdit {
	return func(t *testing.T, data []byte, f *elf.File) []byte {
		s := mustSection(t, f, name)
		return data[:s.Offset+s.Size/2]
	}
}

func mustSection(t *testing.T, f *elf.File, name string) *elf.Section {
	t.Helper()
	for _, s := range f.Sections {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no section %s", name)
	return nil
}

func sectionIndex(t *testing.T, f *elf.File, name string) int {
	t.Helper()
	for i, s := range f.Sections {
		if s.Name == name {
			return i
		}
	}
	t.Fatalf("no section %s", name)
	return -1
}

// putField writes v into a field of size bytes at off.
func putField(f *elf.File, data []byte, off, size int, v uint64) {
	switch size {
	case 1:
		data[off] = byte(v)
	case 2:
		f.ByteOrder.PutUint16(data[off:], uint16(v))
	case 4:
		f.ByteOrder.PutUint32(data[off:], uint32(v))
	default:
		f.ByteOrder.PutUint64(data[off:], v)
	}
}

// headerField returns the offset and size of an ELF header field.
func headerField(f *elf.File, field string) (off, size int) {
	is64 := f.Class == elf.ELFCLASS64
	switch field {
	case "e_machine":
		return 18, 2
	case "e_shoff":
		if is64 {
			return 40, 8
		}
		return 32, 4
	}
	panic("unknown ELF header field " + field)
}

// sectionHeaderFields gives the offset and size of the section header
// fields the cases edit, for 64-bit and for 32-bit ELF.
var sectionHeaderFields = map[string][2][2]int{
	"sh_name":   {{0, 4}, {0, 4}},
	"sh_type":   {{4, 4}, {4, 4}},
	"sh_offset": {{24, 8}, {16, 4}},
	"sh_size":   {{32, 8}, {20, 4}},
}

// sectionField returns the offset, in the file, and the size of a field
// of section header i.
func sectionField(data []byte, f *elf.File, i int, field string) (off, size int) {
	shoff, entSize, class := f.ByteOrder.Uint64(data[40:]), 64, 0
	if f.Class == elf.ELFCLASS32 {
		shoff, entSize, class = uint64(f.ByteOrder.Uint32(data[32:])), 40, 1
	}
	fs := sectionHeaderFields[field][class]
	return int(shoff) + i*entSize + fs[0], fs[1]
}

func setHeader(field string, v uint64) exeEdit {
	return func(t *testing.T, data []byte, f *elf.File) []byte {
		off, size := headerField(f, field)
		putField(f, data, off, size, v)
		return data
	}
}

func setByte(off int, v byte) exeEdit {
	return func(t *testing.T, data []byte, f *elf.File) []byte {
		data[off] = v
		return data
	}
}

// editAll applies edits in turn.
func editAll(edits ...exeEdit) exeEdit {
	return func(t *testing.T, data []byte, f *elf.File) []byte {
		for _, e := range edits {
			data = e(t, data, f)
		}
		return data
	}
}

func setSection(name, field string, v uint64) exeEdit {
	return func(t *testing.T, data []byte, f *elf.File) []byte {
		off, size := sectionField(data, f, sectionIndex(t, f, name), field)
		putField(f, data, off, size, v)
		return data
	}
}

// moveSection points section name at the bytes of section onto.
func moveSection(name, onto string) exeEdit {
	return func(t *testing.T, data []byte, f *elf.File) []byte {
		off, size := sectionField(data, f, sectionIndex(t, f, name), "sh_offset")
		putField(f, data, off, size, mustSection(t, f, onto).Offset)
		return data
	}
}

// renameSection overwrites a section's name in the section name table
// with another of the same length.
func renameSection(name, to string) exeEdit {
	return func(t *testing.T, data []byte, f *elf.File) []byte {
		shstr := mustSection(t, f, ".shstrtab")
		off, _ := sectionField(data, f, sectionIndex(t, f, name), "sh_name")
		at := int(shstr.Offset) + int(f.ByteOrder.Uint32(data[off:]))
		if string(data[at:at+len(name)]) != name {
			t.Fatalf("section name %s not at %d", name, at)
		}
		copy(data[at:], to)
		return data
	}
}

// unterminatedStrtab replaces the final NUL of .strtab by a letter, so
// the last name runs into the bytes after the table.
func unterminatedStrtab(t *testing.T, data []byte, f *elf.File) []byte {
	s := mustSection(t, f, ".strtab")
	data[s.Offset+s.Size-1] = 'x'
	return data
}

// cutStrtab shortens .strtab to end in the middle of its last names.
func cutStrtab(t *testing.T, data []byte, f *elf.File) []byte {
	s := mustSection(t, f, ".strtab")
	off, size := sectionField(data, f, sectionIndex(t, f, ".strtab"), "sh_size")
	putField(f, data, off, size, s.Size-7)
	return data
}

// badNameOffsets points every symbol's name far past .strtab.
func badNameOffsets(t *testing.T, data []byte, f *elf.File) []byte {
	s := mustSection(t, f, ".symtab")
	for at := s.Offset + s.Entsize; at+s.Entsize <= s.Offset+s.Size; at += s.Entsize {
		f.ByteOrder.PutUint32(data[at:], 0x7ffffff0)
	}
	return data
}

// patchInfo overwrites a field of .debug_info (offsets relative to the
// section; for the demo program's one unit).
func patchInfo(at, size int, v uint64) exeEdit {
	return func(t *testing.T, data []byte, f *elf.File) []byte {
		s := mustSection(t, f, ".debug_info")
		putField(f, data, int(s.Offset)+at, size, v)
		return data
	}
}

// unknownForm changes the form of the first attribute of the compilation
// unit's abbreviation to 0x7f, which no DWARF version defines.
func unknownForm(t *testing.T, data []byte, f *elf.File) []byte {
	info := mustSection(t, f, ".debug_info")
	abbrev := mustSection(t, f, ".debug_abbrev")
	code := data[info.Offset+12] // DWARF 5 unit header is 12 bytes; code < 128
	b := data[abbrev.Offset : abbrev.Offset+abbrev.Size]
	uleb := func(i *int) uint64 {
		var v uint64
		for shift := 0; ; shift += 7 {
			c := b[*i]
			*i++
			v |= uint64(c&0x7f) << shift
			if c < 0x80 {
				return v
			}
		}
	}
	for i := 0; i < len(b); {
		c := uleb(&i)
		uleb(&i) // tag
		i++      // children
		if c == uint64(code) {
			uleb(&i) // first attribute
			if b[i] >= 0x80 {
				t.Fatal("multi-byte form")
			}
			b[i] = 0x7f
			return data
		}
		for {
			name, form := uleb(&i), uleb(&i)
			if form == 0x21 { // DW_FORM_implicit_const
				uleb(&i)
			}
			if name == 0 && form == 0 {
				break
			}
		}
	}
	t.Fatalf("abbreviation %d not found", code)
	return nil
}

// cyclicOrigin makes the first DIE with a DW_AT_abstract_origin (a
// 4-byte unit-relative reference) refer to itself.
func cyclicOrigin(t *testing.T, data []byte, f *elf.File) []byte {
	d, err := f.DWARF()
	if err != nil {
		t.Fatal(err)
	}
	info := mustSection(t, f, ".debug_info")
	r := d.Reader()
	var cu dwarf.Offset
	for {
		e, err := r.Next()
		if err != nil || e == nil {
			t.Fatalf("no DW_AT_abstract_origin found (%v)", err)
		}
		if e.Tag == dwarf.TagCompileUnit {
			cu = e.Offset - 12 // references count from the DWARF 5 unit header
		}
		target, ok := e.Val(dwarf.AttrAbstractOrigin).(dwarf.Offset)
		if !ok {
			continue
		}
		var old, self [4]byte
		binary.LittleEndian.PutUint32(old[:], uint32(target-cu))
		binary.LittleEndian.PutUint32(self[:], uint32(e.Offset-cu))
		die := data[int(info.Offset)+int(e.Offset):]
		die = die[:min(len(die), 8)]
		if i := bytes.Index(die, old[:]); i >= 0 {
			copy(die[i:], self[:])
			return data
		}
	}
}

// lineJumpsBack puts, right after the first DW_LNE_set_address of
// .debug_line, a row, a DW_LNS_advance_pc by -16 (modulo 2^64) and another
// row.
func lineJumpsBack(t *testing.T, data []byte, f *elf.File) []byte {
	s := mustSection(t, f, ".debug_line")
	b := data[s.Offset : s.Offset+s.Size]
	i := bytes.Index(b, []byte{0, 9, 2})
	if i < 0 {
		t.Fatal("no DW_LNE_set_address")
	}
	p := b[i+11:]
	p[0] = 1 // DW_LNS_copy
	p[1] = 2 // DW_LNS_advance_pc
	v := ^uint64(15)
	k := 2
	for ; v >= 0x80; v >>= 7 {
		p[k] = byte(v) | 0x80
		k++
	}
	p[k] = byte(v)
	p[k+1] = 1
	return data
}
