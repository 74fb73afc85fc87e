package bfd

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConcatFilename checks concat_filename's joining of comp_dir, directory
// and file entries for DWARF 4 and 5 tables.
func TestConcatFilename(t *testing.T) {
	some := func(s string) optString { return optString{s: s, has: true} }
	cases := []struct {
		name    string
		use0    bool
		compDir optString
		dirs    []optString
		files   []fileEntry
		n       uint32
		want    string
	}{
		{"v4 dir 0 is the comp dir", false, some("."), nil, []fileEntry{{some("a.c"), 0}}, 1, "./a.c"},
		{"v4 relative dir keeps ./", false, some("."), []optString{some("testdata/progs")}, []fileEntry{{some("x.c"), 1}}, 1, "./testdata/progs/x.c"},
		{"v4 absolute dir", false, some("/c"), []optString{some("inc"), some("/abs")}, []fileEntry{{some("c.h"), 2}}, 1, "/abs/c.h"},
		{"v4 absolute name", false, some("/c"), []optString{some("inc")}, []fileEntry{{some("/x/d.h"), 1}}, 1, "/x/d.h"},
		{"v4 no comp dir", false, optString{}, []optString{some("inc")}, []fileEntry{{some("b.h"), 1}}, 1, "inc/b.h"},
		{"v4 no comp dir dir 0", false, optString{}, nil, []fileEntry{{some("a.c"), 0}}, 1, "a.c"},
		{"v4 bad dir", false, some("/c"), nil, []fileEntry{{some("a.c"), 7}}, 1, "/c/a.c"},
		{"v4 file 0", false, some("/c"), nil, []fileEntry{{some("a.c"), 0}}, 0, "<unknown>"},
		{"v4 bad file", false, some("/c"), nil, []fileEntry{{some("a.c"), 0}}, 2, "<unknown>"},
		{"v4 NULL name", false, some("/c"), nil, []fileEntry{{optString{}, 0}}, 1, "<unknown>"},
		{"v5 file 0 absolute dir 0", true, some("/comp"), []optString{some("/comp"), some("sub")}, []fileEntry{{some("m.c"), 0}}, 0, "/comp/m.c"},
		{"v5 relative dir", true, some("/comp"), []optString{some("/comp"), some("sub")}, []fileEntry{{some("m.c"), 0}, {some("s.c"), 1}}, 1, "/comp/sub/s.c"},
		{"v5 dot comp dir", true, some("."), []optString{some("."), some("lib")}, []fileEntry{{some("m.c"), 0}, {some("x.h"), 1}}, 1, "./lib/x.h"},
		{"v5 relative dir 0", true, some("."), []optString{some(".")}, []fileEntry{{some("m.c"), 0}}, 0, "././m.c"},
		{"v5 empty comp dir", true, some(""), []optString{some("d")}, []fileEntry{{some("m.c"), 0}}, 0, "/d/m.c"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := &tableBuilder{compDir: tc.compDir, use0: tc.use0, dirs: tc.dirs, files: tc.files}
			assert.Equal(t, tc.want, b.fileName(tc.n))
		})
	}
}

// TestEntryFormats decodes DWARF 5 directory/file tables with the forms
// BFD keeps (string, line_strp, udata, data16) and one it drops (strp).
func TestEntryFormats(t *testing.T) {
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		lineStr := &dwBuf{order: order}
		lineStr.str("ignored").str("via_line_strp.c")
		str := &dwBuf{order: order}
		str.str("via_strp.c")
		b := &dwBuf{order: order}
		// Files: path string, directory udata, MD5 data16.
		b.u8(3).uleb(1).uleb(0x08).uleb(2).uleb(0x0f).uleb(5).uleb(0x1e)
		b.uleb(2)
		b.str("one.c").uleb(300).Write(make([]byte, 16))
		b.str("two.c").uleb(1).Write(make([]byte, 16))
		// Files: path line_strp, directory data2.
		b.u8(2).uleb(1).uleb(0x1f).uleb(2).uleb(0x05)
		b.uleb(1)
		b.u32(8).u16(4)
		// Files: path strp (BFD ignores the value).
		b.u8(1).uleb(1).uleb(0x0e)
		b.uleb(1)
		b.u32(0)
		// An unknown content type fails.
		b.u8(1).uleb(0x2001).uleb(0x08)
		b.uleb(1)
		b.str("x")

		s := newLines(order)
		s.lineStr.data, s.lineStr.ok = lineStr.Bytes(), true
		s.str.data, s.str.ok = str.Bytes(), true
		u := &unit{offsetSize: 4, addrSize: 8, version: 5}
		data := b.Bytes()
		cur := makeBuf(order, data, 0, len(data))
		// A name from a string section is kept open; its text is compared.
		type entry struct {
			name string
			ok   bool
			dir  uint32
		}
		var got []entry
		add := func(name optString, dir uint32) { got = append(got, entry{name.text(), name.ok(), dir}) }
		for i := 0; i < 3; i++ {
			require.True(t, s.readEntryFormats(u, &cur, add))
		}
		assert.Equal(t, []entry{
			{"one.c", true, 300},
			{"two.c", true, 1},
			{"via_line_strp.c", true, 4},
			{"", false, 0},
		}, got)
		assert.False(t, s.readEntryFormats(u, &cur, add))
	}
}

// TestFlatSequencesMatchChained feeds the same rows to a builder that keeps
// sequences flat and to one that chains every row the way BFD's
// add_line_info does, and compares the finished tables. The rows mix
// ascending runs with rows that go below the top, repeat an address, end
// a sequence twice at one address, and nest or overlap sequences.
func TestFlatSequencesMatchChained(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 3000; iter++ {
		var rows []row
		nseq := 1 + rng.IntN(4)
		for s := 0; s < nseq; s++ {
			addr := uint64(rng.IntN(64))
			for n := rng.IntN(12); n >= 0; n-- {
				switch rng.IntN(6) {
				case 0: // below the top
					addr -= min(addr, uint64(rng.IntN(8)))
				case 1: // the same address again
				default:
					addr += uint64(1 + rng.IntN(6))
				}
				rows = append(rows, row{addr: addr, file: int32(rng.IntN(3)), line: uint32(rng.IntN(50))})
			}
			if rng.IntN(8) > 0 {
				end := row{addr: addr + uint64(rng.IntN(3)), end: true}
				rows = append(rows, end)
				if rng.IntN(6) == 0 {
					end.line = 7
					rows = append(rows, end)
				}
			}
		}
		requireSameTables(t, rows)
	}
}

// FuzzFlatSequences is TestFlatSequencesMatchChained on rows made from
// the fuzzer's bytes, two bytes a row: an address step (signed, so rows
// go below the top as often as above it) and a line, whose low bit ends
// the sequence.
func FuzzFlatSequences(f *testing.F) {
	f.Add([]byte{4, 2, 4, 4, 0xfe, 6, 8, 9, 0, 10, 3, 12, 5, 14, 0, 15})
	f.Add([]byte{1, 2, 1, 4, 1, 5, 1, 5, 0, 2, 0xff, 4, 2, 7})
	f.Fuzz(func(t *testing.T, data []byte) {
		var rows []row
		addr := uint64(1 << 20)
		for i := 0; i+1 < len(data); i += 2 {
			addr += uint64(int64(int8(data[i])))
			rows = append(rows, row{addr: addr, file: int32(data[i+1] >> 6), line: uint32(data[i+1]), end: data[i+1]&1 == 1})
		}
		requireSameTables(t, rows)
	})
}

// requireSameTables builds rows into a table with flat sequences and with
// every sequence chained, and requires the two to be the same.
func requireSameTables(t *testing.T, rows []row) {
	t.Helper()
	build := func(flat bool) *lineTable {
		b := &tableBuilder{nameIdx: map[string]int32{}, lclHead: -1, flat: flat}
		for _, r := range rows {
			b.add(r)
		}
		return b.finish()
	}
	chained, flat := build(false), build(true)
	require.Equal(t, len(chained.seqs), len(flat.seqs), "rows %v", rows)
	for i := range chained.seqs {
		require.Equal(t, chained.seqs[i].low, flat.seqs[i].low, "rows %v", rows)
		require.Equal(t, chained.seqs[i].rows, flat.seqs[i].rows, "rows %v", rows)
	}
}
