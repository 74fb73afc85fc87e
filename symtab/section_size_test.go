package symtab

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"os"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLyingDebugSectionAllocatesNothing gives the tiny seed executable a
// .debug_info that claims 2 GB: Load must not allocate for the claim (it
// used to allocate 10 MB per such section before finding the file's end).
func TestLyingDebugSectionAllocatesNothing(t *testing.T) {
	data, err := os.ReadFile(tinyProgram)
	require.NoError(t, err)
	f, err := elf.NewFile(bytes.NewReader(data))
	require.NoError(t, err)
	require.Equal(t, elf.ELFCLASS64, f.Class)
	idx := -1
	for i, s := range f.Sections {
		if s.Name == ".debug_info" {
			idx = i
		}
	}
	require.GreaterOrEqual(t, idx, 0, "the seed has DWARF")
	shoff := binary.LittleEndian.Uint64(data[0x28:])
	shentsize := uint64(binary.LittleEndian.Uint16(data[0x3a:]))
	// Elf64_Shdr: sh_size is at byte 32.
	binary.LittleEndian.PutUint64(data[shoff+uint64(idx)*shentsize+32:], 0x7fff0000)

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = load("lying", bytes.NewReader(data), int64(len(data)), Options{})
	runtime.ReadMemStats(&after)
	require.NoError(t, err, "without -l the DWARF error does not stop the load, as in gprof")
	require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "bytes allocated")
}

// TestEmptyTextWalksNothing gives the tiny seed executable a .text of no
// bytes, at its own address and at address 0 (where the last address,
// one below the start, is the top of the address space): -l's walk of
// .text makes no line symbols and ends at once, as gprof's loop bound
// (start <= address < start + size) does.
func TestEmptyTextWalksNothing(t *testing.T) {
	for _, atZero := range []bool{false, true} {
		data, err := os.ReadFile(tinyProgram)
		require.NoError(t, err)
		f, err := elf.NewFile(bytes.NewReader(data))
		require.NoError(t, err)
		idx := -1
		for i, s := range f.Sections {
			if s.Name == ".text" {
				idx = i
			}
		}
		require.GreaterOrEqual(t, idx, 0)
		shoff := binary.LittleEndian.Uint64(data[0x28:])
		shentsize := uint64(binary.LittleEndian.Uint16(data[0x3a:]))
		hdr := data[shoff+uint64(idx)*shentsize:]
		// Elf64_Shdr: sh_addr at byte 16, sh_size at byte 32.
		if atZero {
			binary.LittleEndian.PutUint64(hdr[16:], 0)
		}
		binary.LittleEndian.PutUint64(hdr[32:], 0)

		tab, err := load("empty-text", bytes.NewReader(data), int64(len(data)), Options{})
		require.NoError(t, err, "at zero: %v", atZero)
		lt, err := tab.WithLineSymbols()
		require.NoError(t, err, "at zero: %v", atZero)
		for _, s := range lt.Syms {
			require.False(t, s.IsLine, "line symbol %q made from an empty .text (at zero: %v)", s.Name, atZero)
		}
	}
}
