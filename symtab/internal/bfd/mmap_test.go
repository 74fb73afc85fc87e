//go:build unix

package bfd

import (
	"debug/elf"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMappedFileShrinks maps every debug section of a copy of a test
// program, then cuts the file short, as a rebuild could while egprof
// runs: the lost pages fault when read. Find must then stop answering and
// Err say why, where the process would otherwise die of the fault; the
// same lookups on an untouched copy answer.
func TestMappedFileShrinks(t *testing.T) {
	tests := []struct {
		name     string
		truncate bool
		wantErr  bool
	}{
		{"file intact", false, false},
		{"file cut short", true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := copyFile(t, "../../../testdata/progs/cxx/prog")
			osf, err := os.OpenFile(path, os.O_RDWR, 0)
			require.NoError(t, err)
			defer osf.Close()
			f, err := elf.NewFile(osf)
			require.NoError(t, err)
			main := f.Section(".text")
			require.NotNil(t, main)
			s, err := Load(f, osf)
			require.NoError(t, err)
			require.NotEmpty(t, s.maps)
			if tc.truncate {
				require.NoError(t, osf.Truncate(0))
			}
			answered := 0
			for addr := main.Addr; addr < main.Addr+main.Size; addr += 16 {
				if _, _, _, ok := s.Find(addr); ok {
					answered++
				}
			}
			if tc.wantErr {
				assert.Zero(t, answered)
				require.ErrorContains(t, s.Err(), "the file was cut short while egprof read it")
				// The byte named lies in one of the debug sections.
				var off uint64
				_, err := fmt.Sscanf(s.Err().Error(), "byte %v of the file", &off)
				require.NoError(t, err)
				inDebug := false
				for _, sec := range f.Sections {
					if strings.HasPrefix(sec.Name, ".debug_") && off >= sec.Offset && off < sec.Offset+sec.FileSize {
						inDebug = true
					}
				}
				assert.True(t, inDebug, "byte %#x is in no debug section", off)
			} else {
				assert.NotZero(t, answered)
				assert.NoError(t, s.Err())
			}
		})
	}
}

// copyFile copies the file at src into the test's temporary folder.
func copyFile(t *testing.T, src string) string {
	t.Helper()
	in, err := os.Open(src)
	require.NoError(t, err)
	defer in.Close()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	out, err := os.Create(dst)
	require.NoError(t, err)
	_, err = io.Copy(out, in)
	require.NoError(t, err)
	require.NoError(t, out.Close())
	return dst
}

// TestReadMapped reads bytes of the executable through the mapping Load
// made: the file's own bytes where the mapping holds them, false past its
// end or after the file was cut short under it, never a crash.
func TestReadMapped(t *testing.T) {
	path := copyFile(t, "../../../testdata/progs/cxx/prog")
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	osf, err := os.OpenFile(path, os.O_RDWR, 0)
	require.NoError(t, err)
	defer osf.Close()
	f, err := elf.NewFile(osf)
	require.NoError(t, err)
	s, err := Load(f, osf)
	require.NoError(t, err)
	require.NotNil(t, s)

	text := f.Section(".text")
	got := make([]byte, 6)
	require.True(t, s.ReadMapped(int64(text.Offset)+10, got))
	assert.Equal(t, want[text.Offset+10:text.Offset+16], got)
	assert.False(t, s.ReadMapped(int64(len(want))-3, got), "past the end")
	assert.False(t, s.ReadMapped(-1, got))
	assert.False(t, (*Lines)(nil).ReadMapped(0, got))

	require.NoError(t, osf.Truncate(0))
	assert.False(t, s.ReadMapped(int64(text.Offset)+10, got), "the file cut short under the mapping")
}
