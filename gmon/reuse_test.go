package gmon

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reuseFiles are data files of different shapes, read one after the other
// reusing each other's storage: more bins, fewer bins, two histograms,
// none, more arcs, fewer arcs.
func reuseFiles() [][]byte {
	return [][]byte{
		newTB(le64).gnu(1).hist(0x1000, 0x1010, []uint16{1, 2, 3, 4}).arc(0x1000, 0x1004, 7).bytes(),
		newTB(le64).gnu(1).hist(0x1000, 0x1020, []uint16{5, 6, 7, 8, 9, 10, 11, 12}).arc(0x1000, 0x1004, 1).arc(0x1004, 0x1008, 2).arc(0x1008, 0x100c, 3).bytes(),
		newTB(le64).gnu(1).hist(0x1000, 0x1008, []uint16{13, 14}).hist(0x2000, 0x2008, []uint16{15, 16}).arc(0x1000, 0x1004, 9).bytes(),
		newTB(le64).gnu(1).arc(0x1000, 0x1004, 4).arc(0x1004, 0x1008, 5).bytes(),
		newTB(le64).gnu(1).hist(0x1000, 0x1010, []uint16{17, 18, 19, 20}).bytes(),
	}
}

// TestReadReusing checks that reading with the storage of the file read
// before gives what Read gives, file after file.
func TestReadReusing(t *testing.T) {
	var last *File
	for i, data := range reuseFiles() {
		want, err := Read(data, "f", le64, FormatAuto)
		require.NoError(t, err)
		got, err := ReadReusing(last, data, "f", le64, FormatAuto)
		require.NoError(t, err)
		assert.Equal(t, want, got, "file %d", i)
		last = got
	}
}

// TestAddDataReusing checks that summing with reused storage and one read
// buffer gives the profile AddData gives.
func TestAddDataReusing(t *testing.T) {
	dir := t.TempDir()
	want, got := NewProfile(le64, FormatAuto), NewProfile(le64, FormatAuto)
	var last *File
	var buf []byte
	sums := [][]byte{
		newTB(le64).gnu(1).hist(0x1000, 0x1010, []uint16{1, 2, 3, 4}).arc(0x1000, 0x1004, 7).bytes(),
		newTB(le64).gnu(1).hist(0x1000, 0x1010, []uint16{5, 6, 7, 8}).arc(0x1000, 0x1004, 1).arc(0x1004, 0x1008, 2).arc(0x1008, 0x100c, 3).bytes(),
		newTB(le64).gnu(1).arc(0x1004, 0x1008, 5).bytes(),
		newTB(le64).gnu(1).hist(0x1000, 0x1010, []uint16{9, 10, 11, 12}).bytes(),
	}
	for i, data := range sums {
		name := filepath.Join(dir, "gmon"+string(rune('0'+i)))
		require.NoError(t, os.WriteFile(name, data, 0o644))
		wf, err := want.AddData(data, name)
		require.NoError(t, err)
		read, err := ReadFileInto(name, &buf)
		require.NoError(t, err)
		require.Equal(t, data, read)
		gf, err := got.AddDataReusing(last, read, name)
		require.NoError(t, err)
		assert.Equal(t, wf.Hists, gf.Hists, "file %d", i)
		assert.Equal(t, wf.Arcs, gf.Arcs, "file %d", i)
		last = gf
	}
	assert.Equal(t, want.Hists, got.Hists)
	assert.Equal(t, want.Arcs, got.Arcs)
}
