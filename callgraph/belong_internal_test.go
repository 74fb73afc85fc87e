package callgraph

import (
	"debug/elf"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/symtab"
)

// TestCheckBelongsForgivesDroppedClones: gprof's table has no symbol for
// a clone such as f.isra.0 (at 0x1400 here, inside f's range as gprof
// sees it), so arcs into the clone enter f 0x308 bytes past its start.
// That is far only when no code symbol of the executable starts just
// before the entry point.
func TestCheckBelongsForgivesDroppedClones(t *testing.T) {
	arcs := []gmon.ArcRecord{
		{FromPC: 0x1010, SelfPC: 0x1408, Count: 1}, // into the clone
		{FromPC: 0x1020, SelfPC: 0x1408, Count: 1},
		{FromPC: 0x1030, SelfPC: 0x1408, Count: 1},
		{FromPC: 0x1040, SelfPC: 0x1410, Count: 1},
		{FromPC: 0x1050, SelfPC: 0x1108, Count: 1}, // into f
		{FromPC: 0x1060, SelfPC: 0x1808, Count: 1}, // into g
	}
	tests := []struct {
		name        string
		codeSymbols []uint64 // .symtab order
		wantErr     bool
	}{
		{"clone's symbol in .symtab", []uint64{0x1800, 0x1000, 0x1400, 0x1100}, false},
		{"clone's symbol 0x40 bytes before the last entry", []uint64{0x1000, 0x1100, 0x13d0, 0x1800}, false},
		{"only the functions gprof keeps", []uint64{0x1000, 0x1100, 0x1800}, true},
		{"nearest symbol too far before", []uint64{0x1000, 0x1100, 0x1300, 0x1800}, true},
		{"no symbol table read", nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tab := table(
				symtab.Symbol{Name: "main", Addr: 0x1000, End: 0x10ff, IsFunc: true},
				symtab.Symbol{Name: "f", Addr: 0x1100, End: 0x17ff, IsFunc: true},
				symtab.Symbol{Name: "g", Addr: 0x1800, End: 0x18ff, IsFunc: true},
			)
			tab.CodeSymbolAddrs = tc.codeSymbols
			err := checkBelongs(tab, arcs, 0, 0)
			if tc.wantErr {
				assert.ErrorContains(t, err, "4 of its 6 call arcs enter their callee more than 64 bytes past its start")
			} else {
				assert.NoError(t, err)
			}
		})
	}
}

// TestCheckBelongsCountsArcsIntoNoFunction: an arc whose callee lies in no
// function cannot come from a profiling call either. minisat's profile
// against lua's executable had 42 of its 99 arcs below every lua function,
// 28 far inside one and 29 near a start; counted with the far ones only,
// the outside ones let it through.
func TestCheckBelongsCountsArcsIntoNoFunction(t *testing.T) {
	near := gmon.ArcRecord{FromPC: 0x1010, SelfPC: 0x1108, Count: 1}
	far := gmon.ArcRecord{FromPC: 0x1010, SelfPC: 0x1500, Count: 1}
	outside := gmon.ArcRecord{FromPC: 0x1010, SelfPC: 0x0800, Count: 1}
	tests := []struct {
		name string
		arcs []gmon.ArcRecord
		want string // "" for no error
	}{
		{"most enter no function", []gmon.ArcRecord{near, near, near, far, far, outside, outside, outside},
			"5 of its 8 call arcs enter no function of the executable (3) or one more than 64 bytes past its start"},
		{"a few enter no function", []gmon.ArcRecord{near, near, near, near, near, far, outside}, ""},
		{"all far inside functions", []gmon.ArcRecord{far, far, far, far, near},
			"4 of its 5 call arcs enter their callee more than 64 bytes past its start"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tab := table(
				symtab.Symbol{Name: "main", Addr: 0x1000, End: 0x10ff, IsFunc: true},
				symtab.Symbol{Name: "f", Addr: 0x1100, End: 0x17ff, IsFunc: true},
			)
			tab.CodeSymbolAddrs = []uint64{0x1000, 0x1100}
			err := checkBelongs(tab, tc.arcs, 0, 0)
			if tc.want == "" {
				assert.NoError(t, err)
			} else {
				assert.ErrorContains(t, err, tc.want)
			}
		})
	}
}

// TestCallEndsAt reads the six bytes before an arc's entry point as the
// call instructions -pg puts in prologues: x86's call rel32 and its
// indirect calls through a 32-bit displacement, and Arm's BL.
func TestCallEndsAt(t *testing.T) {
	tests := []struct {
		name    string
		machine elf.Machine
		code    []byte
		want    bool
	}{
		{"x86-64 call rel32 (mcount@PLT, static mcount)", elf.EM_X86_64, []byte{0x89, 0xe8, 0x10, 0x20, 0x00, 0x00}, true},
		{"x86-64 call *mcount@GOTPCREL(%rip)", elf.EM_X86_64, []byte{0xff, 0x15, 0xc6, 0x2f, 0x00, 0x00}, true},
		{"i386 call *mcount@GOT(%ebx)", elf.EM_386, []byte{0xff, 0x93, 0xf0, 0xff, 0xff, 0xff}, true},
		{"i386 ff 94 needs a SIB byte", elf.EM_386, []byte{0xff, 0x94, 0xf0, 0xff, 0xff, 0xff}, false},
		{"x86-64 mov, not a call", elf.EM_X86_64, []byte{0x48, 0x89, 0xe5, 0x48, 0x83, 0xec}, false},
		{"x86-64 push rbp; mov rbp,rsp; ... (a prologue's start)", elf.EM_X86_64, []byte{0x00, 0x00, 0x55, 0x48, 0x89, 0xe5}, false},
		{"AArch64 bl _mcount", elf.EM_AARCH64, []byte{0xfd, 0x03, 0x1e, 0xaa, 0x15, 0x97}, true},
		{"AArch64 mov x29, sp", elf.EM_AARCH64, []byte{0x1e, 0xaa, 0xfd, 0x03, 0x00, 0x91}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			isCall := callEndsAt(tc.machine)
			require.NotNil(t, isCall)
			assert.Equal(t, tc.want, isCall(tc.code))
		})
	}
	assert.Nil(t, callEndsAt(elf.EM_S390), "no test on machines it does not know")
}
