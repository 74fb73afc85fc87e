package symtab

import (
	"encoding/binary"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/testenv"
)

// note encodes one ELF note: namesz, descsz, type, then the name and the
// descriptor, each padded to 4 bytes.
func note(order binary.AppendByteOrder, name string, typ uint32, desc []byte) []byte {
	pad := func(b []byte) []byte { return append(b, make([]byte, (4-len(b)%4)%4)...) }
	b := order.AppendUint32(nil, uint32(len(name)))
	b = order.AppendUint32(b, uint32(len(desc)))
	b = order.AppendUint32(b, typ)
	b = append(b, pad([]byte(name))...)
	return append(b, pad(append([]byte(nil), desc...))...)
}

func TestFindBuildIDNote(t *testing.T) {
	id := []byte{0xde, 0xad, 0xbe, 0xef, 0x01}
	le, be := binary.LittleEndian, binary.BigEndian
	abi := note(le, "GNU\x00", 1, []byte{0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0})
	tests := []struct {
		name  string
		data  []byte
		order interface {
			binary.ByteOrder
			binary.AppendByteOrder
		}
		want    []byte
		wantErr bool
	}{
		{"alone", note(le, "GNU\x00", ntGNUBuildID, id), le, id, false},
		{"big-endian", note(be, "GNU\x00", ntGNUBuildID, id), be, id, false},
		{"after another note", append(abi, note(le, "GNU\x00", ntGNUBuildID, id)...), le, id, false},
		{"other owner", note(le, "Go\x00\x00", ntGNUBuildID, id), le, nil, false},
		{"other type", abi, le, nil, false},
		{"empty section", nil, le, nil, false},
		{"descriptor past the end", note(le, "GNU\x00", ntGNUBuildID, id)[:20], le, nil, true},
		{"name past the end", le.AppendUint32(le.AppendUint32(le.AppendUint32(nil, 1<<31), 0), ntGNUBuildID), le, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := findBuildIDNote(tc.data, tc.order)
			if tc.wantErr {
				require.ErrorIs(t, err, errBadNote)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestBuildIDAgainstReadelf compares BuildID with binutils' readelf -n on
// the testdata programs.
func TestBuildIDAgainstReadelf(t *testing.T) {
	readelf := testenv.Tool(t, "readelf")
	progs, err := filepath.Glob("../testdata/progs/*/prog")
	require.NoError(t, err)
	require.NotEmpty(t, progs)
	re := regexp.MustCompile(`Build ID: ([0-9a-f]+)`)
	for _, prog := range progs {
		out, err := exec.Command(readelf, "-n", prog).Output()
		require.NoError(t, err)
		want := ""
		if m := re.FindSubmatch(out); m != nil {
			want = string(m[1])
		}
		tab, err := Load(prog, Options{})
		require.NoError(t, err)
		got, err := tab.BuildID()
		require.NoError(t, err)
		assert.Equal(t, want, got, prog)
	}
}
