package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadFileList(t *testing.T) {
	tests := []struct {
		name string
		list string
		want []string
		err  string
	}{
		{"lines", "a\nb/c\n", []string{"a", "b/c"}, ""},
		{"no final newline", "a\nb", []string{"a", "b"}, ""},
		{"carriage returns", "a\r\nb\r\n", []string{"a", "b"}, ""},
		{"blank lines", "\n  \na\n\t\n\nb\n\n", []string{"a", "b"}, ""},
		{"spaces kept", " a b \n", []string{" a b "}, ""},
		{"no pattern expansion", "gmon.*\n", []string{"gmon.*"}, ""},
		{"empty", "", []string{}, ""},
		{"a NUL byte", "a\n\nb\x00c\n", nil, "line 3: a NUL byte: not a list of paths"},
	}
	for _, tt := range tests {
		got, err := readFileList([]byte(tt.list))
		if tt.err != "" {
			assert.EqualError(t, err, tt.err, tt.name)
			continue
		}
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
}

func TestProfileFiles(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"gmon.1", "gmon.2", "gmon.*"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), nil, 0o644))
	}
	list := filepath.Join(dir, "list")
	require.NoError(t, os.WriteFile(list, []byte("x\ny\n"), 0o644))
	in := func(f string) string { return filepath.Join(dir, f) }
	tests := []struct {
		name     string
		operands []string
		lists    []string
		stdin    string
		want     []string
	}{
		{"operands", []string{"a", "b"}, nil, "", []string{"a", "b"}},
		{"a pattern", []string{"a", in("gmon.[0-9]")}, nil, "", []string{"a", in("gmon.1"), in("gmon.2")}},
		{"a name that exists", []string{in("gmon.*")}, nil, "", []string{in("gmon.*")}},
		{"a pattern without matches", []string{in("none.?")}, nil, "", []string{in("none.?")}},
		{"a list alone", nil, []string{list}, "", []string{"x", "y"}},
		{"operands, then the lists", []string{"a"}, []string{list, "-"}, "s\n", []string{"a", "x", "y", "s"}},
	}
	for _, tt := range tests {
		got, err := profileFiles(tt.operands, tt.lists, strings.NewReader(tt.stdin))
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
	_, err := profileFiles(nil, []string{in("missing")}, nil)
	assert.ErrorContains(t, err, "--files-from="+in("missing")+": ")
}
