package symtab

import (
	"debug/elf"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/egprof/egprof/symtab/internal/bfd"
)

// readSeparateSources reads the source positions of an executable that
// has no debug information of its own from its separate debug file, when
// BFD would find one (see separateDebugFile): `strip --strip-debug` and
// `objcopy --only-keep-debug` split a build so, and gprof then shows the
// same source files and lines as on the whole build.
func (t *Table) readSeparateSources(f *elf.File, syms bfd.RawSymbols, opt Options) {
	name := separateDebugFile(t.Path, f, t.buildID)
	if name == "" {
		return
	}
	file, err := os.Open(name)
	if err != nil {
		return
	}
	defer file.Close()
	dbg, err := elf.NewFile(file)
	if err != nil {
		return
	}
	var mapFrom *os.File
	if opt.MapDebugSections {
		mapFrom = file
	}
	lines, err := bfd.LoadSeparate(f, syms, dbg, mapFrom)
	if err != nil {
		t.linesErr = err
		return
	}
	if lines != nil {
		readAltFile(lines, name)
		t.lines = lines
		t.linesElsewhere = true
		t.sources = &sourceTable{lines: lines, kept: t.kept}
	}
}

// readAltFile gives lines the alt file (dwz -m's file of debug
// information shared by several programs) that the DWARF read from the
// file at path names, found where BFD 2.40's bfd_follow_gnu_debugaltlink
// finds it: the places find_separate_debug_file tries, beside that file
// first (a relative name is taken from that file's folder, not the
// current one). The first that exists is taken, whatever it holds; one
// that is not an ELF file leaves the references into it unresolved, as
// BFD's failing bfd_check_format does. Only a regular file is opened: a
// device or a pipe ends the search unread (BFD would read /dev/zero, or
// wait on a pipe, forever).
func readAltFile(lines *bfd.Lines, path string) {
	base := lines.AltLink()
	if base == "" {
		return
	}
	for _, cand := range debugFileCandidates(path, base, true) {
		st, err := os.Stat(cand)
		if err != nil {
			continue
		}
		if !st.Mode().IsRegular() {
			return
		}
		file, err := os.Open(cand)
		if err != nil {
			continue // BFD's fopen check fails the same way
		}
		defer file.Close()
		if f, err := elf.NewFile(file); err == nil {
			lines.ReadAltFile(f)
		}
		return
	}
}

// separateDebugFile returns the separate debug file BFD 2.40 reads for the
// executable at path, or "" when it finds none
// (_bfd_dwarf2_slurp_debug_info). It looks first for the file named by the
// build ID, .build-id/xx/rest.debug, which must carry the same build ID;
// then for the file named in .gnu_debuglink, whose CRC-32 must be the one
// recorded there. Each is looked for in the places BFD's
// find_separate_debug_file tries, in its order (see debugFileCandidates).
func separateDebugFile(path string, f *elf.File, buildID string) string {
	if buildID != "" {
		base := ".build-id/" + buildID[:2] + "/" + buildID[2:] + ".debug"
		for _, cand := range debugFileCandidates(path, base, false) {
			if hasBuildID(cand, buildID) {
				return cand
			}
		}
	}
	base, crc, ok := debugLink(f)
	if !ok {
		return ""
	}
	for _, cand := range debugFileCandidates(path, base, true) {
		if sum, ok := fileCRC(cand); ok && sum == crc {
			return cand
		}
	}
	return ""
}

// configuredDebugDir is the debug folder gprof was configured with
// (DEBUGDIR, libdir/debug): on Debian, whose gprof egprof follows, the
// multiarch library folder of the machine's architecture.
func configuredDebugDir() string {
	triplet := map[string]string{
		"amd64": "x86_64-linux-gnu", "arm64": "aarch64-linux-gnu", "386": "i386-linux-gnu",
		"arm": "arm-linux-gnueabihf", "ppc64le": "powerpc64le-linux-gnu",
		"riscv64": "riscv64-linux-gnu", "s390x": "s390x-linux-gnu",
	}[runtime.GOARCH]
	if triplet == "" {
		return "/usr/lib/debug"
	}
	return "/usr/lib/" + triplet + "/debug"
}

// debugFileCandidates lists, in BFD's order, where find_separate_debug_file
// looks for a debug file named base: beside the executable, in a .debug
// folder there, under each extra root, and under the configured folder.
// With withDirs (a .gnu_debuglink name) "beside" is the executable's
// folder as named, and the roots hold a copy of the tree of its real path;
// without (a build-ID name) "beside" is the current folder and the roots
// hold base itself.
func debugFileCandidates(exePath, base string, withDirs bool) []string {
	dir, canonDir := "", ""
	if withDirs {
		dir = exePath[:strings.LastIndexByte(exePath, '/')+1]
	}
	canon := exePath
	if abs, err := filepath.Abs(exePath); err == nil {
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			canon = real
		}
	}
	canonDir = canon[:strings.LastIndexByte(canon, '/')+1]
	under := func(root string) string {
		if withDirs {
			return root + canonDir + base
		}
		return root + "/" + base
	}
	// BFD 2.40's EXTRA_DEBUG_ROOT1 and 2 come before the configured folder.
	cands := []string{dir + base, dir + ".debug/" + base, under("/usr/lib/debug"), under("/usr/lib/debug/usr")}
	configured := configuredDebugDir()
	last := configured
	if len(configured) > 1 && !strings.HasSuffix(configured, "/") && (!withDirs || !strings.HasPrefix(canonDir, "/")) {
		last += "/"
	}
	if withDirs {
		last += canonDir
	}
	return append(cands, last+base)
}

// debugLink returns the file name and CRC-32 recorded in f's
// .gnu_debuglink section: the name up to its NUL, then the CRC at the next
// multiple of 4 bytes. ok is false without a usable section (BFD's
// bfd_get_debug_link_info_1 bounds, and an empty name).
func debugLink(f *elf.File) (name string, crc uint32, ok bool) {
	sec := f.Section(".gnu_debuglink")
	if sec == nil || sec.Size < 8 {
		return "", 0, false
	}
	data, err := sec.Data()
	if err != nil || uint64(len(data)) != sec.Size {
		return "", 0, false
	}
	n := strings.IndexByte(string(data), 0)
	if n < 0 {
		n = len(data)
	}
	crcOff := (n + 1 + 3) &^ 3
	if n == 0 || crcOff+4 > len(data) {
		return "", 0, false
	}
	return string(data[:n]), f.ByteOrder.Uint32(data[crcOff:]), true
}

// fileCRC returns the CRC-32 of the bytes of the file at name that can be
// read, as BFD checks a .gnu_debuglink file (a folder opens but reads
// nothing); ok is false when it does not open. Only regular files and
// folders are read: BFD would read /dev/zero, or wait on a pipe, forever.
func fileCRC(name string) (sum uint32, ok bool) {
	if !regularOrFolder(name) {
		return 0, false
	}
	file, err := os.Open(name)
	if err != nil {
		return 0, false
	}
	defer file.Close()
	h := crc32.NewIEEE()
	io.Copy(h, file) // a read error ends the sum, as fread's does
	return h.Sum32(), true
}

// hasBuildID reports whether the file at name is an ELF file whose GNU
// build ID is id (lower-case hex).
func hasBuildID(name, id string) bool {
	if !regularOrFolder(name) {
		return false
	}
	file, err := os.Open(name)
	if err != nil {
		return false
	}
	defer file.Close()
	f, err := elf.NewFile(file)
	if err != nil {
		return false
	}
	got, err := readBuildID(f, name)
	return err == nil && got == id
}

// regularOrFolder reports whether name is a regular file or a folder,
// checked before opening it: opening a named pipe waits for a writer.
func regularOrFolder(name string) bool {
	st, err := os.Stat(name)
	return err == nil && (st.Mode().IsRegular() || st.IsDir())
}
