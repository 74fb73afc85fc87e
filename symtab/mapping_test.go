package symtab

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// entryText renders a map's entries as "function@file" (with a '*' for a
// file's first line), in the map's sorted order.
func entryText(m *FunctionMap) []string {
	var out []string
	for _, e := range m.entries {
		s := e.function + "@" + e.file
		if e.first {
			s += "*"
		}
		out = append(out, s)
	}
	return out
}

func TestParseFunctionMap(t *testing.T) {
	long := strings.Repeat("x", 1500)
	tests := []struct {
		name string
		text string
		want []string // entries, sorted by function
		kind MapErrorKind
		line int // for MapNoFunction
		fail bool
	}{
		{
			name: "nm -A output",
			text: "a.o:0000000000000000 T alpha\na.o:                 U mcount\nb.o:0000000000000010 t beta\n",
			want: []string{"alpha@a.o*", "beta@b.o*", "mcount@a.o"},
		},
		{
			name: "a file that comes back starts a new group",
			text: "a.o:0 T f\nb.o:0 T g\na.o:0 T h\n",
			want: []string{"f@a.o*", "g@b.o*", "h@a.o*"},
		},
		{
			name: "equal function names keep file order",
			text: "b.o:0 t helper\na.o:0 t helper\n",
			want: []string{"helper@b.o*", "helper@a.o*"},
		},
		{
			name: "blank lines and leading blanks after a line are skipped",
			text: "  a.o:0 T f\n\n\n   b.o:0 T g",
			want: []string{"f@  a.o*", "g@b.o*"},
		},
		{
			name: "the function is the last word, even an empty one",
			text: "a.o:0 T f   \nb.o:x y z\n",
			want: []string{"@a.o*", "z@b.o*"},
		},
		{
			name: "carriage returns stay in the name",
			text: "a.o:0 T f\r\nb.o:0 T g\r\n",
			want: []string{"f\r@a.o*", "g\r@b.o*"},
		},
		{
			name: "No symbols lines are skipped",
			text: "No symbols in x.o.\na.o:0 T f\n",
			want: []string{"f@a.o*"},
		},
		{
			name: "only No symbols lines",
			text: "No symbols in x.o.\n",
			want: nil,
		},
		{
			name: "a No symbols line with a colon leaves its rest to the next read",
			text: "No symbols in x.o: really\na.o:0 T f\n",
			fail: true, kind: MapParse,
		},
		{
			name: "a long line is read in 1023-byte pieces",
			text: "a.o:0 T " + long[:1018] + "b.o:0 T g\n",
			want: []string{"g@b.o*", long[:1018] + "@a.o*"},
		},
		{
			name: "the piece after a long line needs its own colon",
			text: "a.o:0 T " + long + "\n",
			fail: true, kind: MapParse,
		},
		{
			name: "a line without a colon",
			text: "a.o:0 T f\nnocolon\n",
			fail: true, kind: MapParse,
		},
		{
			name: "a line starting with a colon",
			text: ":0 T f\n",
			fail: true, kind: MapParse,
		},
		{
			name: "only a newline",
			text: "\n",
			fail: true, kind: MapParse,
		},
		{
			name: "empty",
			text: "",
			fail: true, kind: MapEmpty,
		},
		{
			name: "no space before the function",
			text: "a.o:0 T f\nb.o:g\n",
			fail: true, kind: MapNoFunction, line: 2,
		},
		{
			name: "a parse error wins over a missing function name",
			text: "b.o:g\nnocolon\n",
			fail: true, kind: MapParse,
		},
		{
			name: "a last line without colon or newline is its own function",
			text: "a.o:0 T f\nlast word",
			want: []string{"f@a.o*", "word@last word*"},
		},
		{
			name: "strings end at a NUL byte",
			text: "a.o\x00junk:0 T f\x00g\n",
			want: []string{"f@a.o*"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ParseFunctionMap([]byte(tc.text), "map.txt")
			if tc.fail {
				var me *MapError
				require.ErrorAs(t, err, &me)
				assert.Equal(t, tc.kind, me.Kind)
				assert.Equal(t, tc.line, me.Line)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, entryText(m))
		})
	}
}

func TestMapErrorWording(t *testing.T) {
	assert.Equal(t, "could not open m.txt.", (&MapError{Kind: MapOpen, Path: "m.txt"}).Error())
	assert.Equal(t, "unable to parse mapping file m.txt.", (&MapError{Kind: MapParse, Path: "m.txt"}).Error())
	assert.Equal(t, "mapping file m.txt is empty", (&MapError{Kind: MapEmpty, Path: "m.txt"}).Error())

	dir := t.TempDir()
	_, err := ReadFunctionMap(filepath.Join(dir, "missing"))
	var me *MapError
	require.ErrorAs(t, err, &me)
	assert.Equal(t, MapOpen, me.Kind)
	assert.True(t, errors.Is(err, os.ErrNotExist), "the cause is kept")

	_, err = ReadFunctionMap(dir)
	require.ErrorAs(t, err, &me)
	assert.Equal(t, MapRead, me.Kind, "a directory opens but cannot be read")
}

// Lookup follows glibc's bsearch: among equal names the one the binary
// search meets first is the answer, so which file (and whether it is a
// first line) depends on the table's size and order.
func TestFunctionMapLookup(t *testing.T) {
	m, err := ParseFunctionMap([]byte("a.o:0 T aa\na.o:0 t dup\nb.o:0 t dup\nc.o:0 t dup\nc.o:0 T zz\n"), "m")
	require.NoError(t, err)
	// Sorted: aa@a.o*, dup@a.o, dup@b.o*, dup@c.o*, zz@c.o; the search
	// starts in the middle, at dup@b.o.
	file, first, found := m.Lookup("dup")
	assert.True(t, found)
	assert.Equal(t, "b.o", file)
	assert.True(t, first)

	file, first, found = m.Lookup("zz")
	assert.Equal(t, []any{"c.o", false, true}, []any{file, first, found})
	_, _, found = m.Lookup("nope")
	assert.False(t, found)
	assert.Equal(t, []string{"a.o", "a.o", "b.o", "c.o", "c.o"}, m.FileNames())
	assert.Equal(t, 5, m.Len())

	empty, err := ParseFunctionMap([]byte("No symbols in q.o.\n"), "m")
	require.NoError(t, err)
	_, _, found = empty.Lookup("anything")
	assert.False(t, found)
}
