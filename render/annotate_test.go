package render

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/symtab"
)

func TestAnnotationPrefix(t *testing.T) {
	blocks := func(counts ...uint64) []callgraph.Block {
		var out []callgraph.Block
		for k, c := range counts {
			out = append(out, callgraph.Block{Addr: 0x100 + uint64(k), Count: c})
		}
		return out
	}
	fn := func(calls uint64, b ...uint64) *callgraph.SourceLine {
		return &callgraph.SourceLine{IsFunc: true, Addr: 0x100, Calls: calls, Blocks: blocks(b...)}
	}
	line := func(addr uint64, b ...uint64) *callgraph.SourceLine {
		return &callgraph.SourceLine{Addr: addr, Blocks: blocks(b...)}
	}
	cases := []struct {
		name     string
		allLines bool
		minCount uint64
		lines    []*callgraph.SourceLine // one file, lines 1..n
		want     []string
		exec     int64 // lines executed
	}{
		{"function entries", false, 1,
			[]*callgraph.SourceLine{fn(30000), nil, fn(0), line(0x100)},
			[]string{"       30000 -> ", "                ", "       ##### -> ", "                "}, 2},
		{"blocks joined", false, 1,
			[]*callgraph.SourceLine{fn(5, 100, 7), line(0x100, 3, 3)},
			[]string{"     5,100,7 -> ", "         3,3 -> "}, 2},
		{"-x repeats and compresses", true, 1,
			[]*callgraph.SourceLine{fn(5), line(0x100), line(0x100, 8, 8, 9), line(0x100), line(0x0ff, 9), line(0x0ff, 4)},
			[]string{"           5 -> ", "           5 -> ", "         8,9 -> ", "           9 -> ", "           9 -> ", "         9,4 -> "}, 6},
		{"-m", false, 10,
			[]*callgraph.SourceLine{fn(9), fn(10), line(0x100, 4, 5)},
			[]string{"       ##### -> ", "          10 -> ", "       ##### -> "}, 3},
		{"-m 0", false, 0,
			[]*callgraph.SourceLine{fn(0)},
			[]string{"           0 -> "}, 1},
		{"cut at 16 columns", false, 1,
			[]*callgraph.SourceLine{fn(123456789012345), fn(12345678901234), line(0x100, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)},
			[]string{"123456789012345 ", "12345678901234 -", "1,2,3,4,5,6,7,8,"}, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := annotator{opt: &AnnotateOptions{AllLines: c.allLines, MinCount: c.minCount}}
			f := &callgraph.SourceFile{Lines: c.lines}
			for k, want := range c.want {
				assert.Equal(t, want, a.prefix(f, k+1), "line %d", k+1)
			}
			assert.Equal(t, "                ", a.prefix(f, len(c.lines)+1), "past the last line with a symbol")
			assert.Equal(t, c.exec, a.executed)
		})
	}
}

func TestAnnotatorFileAndTrailer(t *testing.T) {
	f := &callgraph.SourceFile{
		Name:  "x.c",
		Calls: 12,
		Lines: []*callgraph.SourceLine{nil, {Line: 2, IsFunc: true, Calls: 12}, nil},
	}
	var out bytes.Buffer
	w := bufio.NewWriter(&out)
	a := annotator{opt: &AnnotateOptions{MinCount: 1, TableLength: 10}}
	long := strings.Repeat("y", 10000)
	a.file(w, strings.NewReader("a\n\tb\r\n"+long+"\nlast"), f)
	require.NoError(t, w.Flush())
	want := "                a\n" +
		"          12 -> \tb\r\n" +
		"                " + long + "\n" +
		"                last" +
		"\n\nTop 10 Lines:\n\n     Line      Count\n\n" +
		"        2         12\n" +
		"\nExecution Summary:\n\n" +
		"        1   Executable lines in this file\n" +
		"        1   Lines executed\n" +
		"   100.00   Percent of the file executed\n" +
		"\n       12   Total number of line executions\n" +
		"    12.00   Average executions per line\n"
	assert.Equal(t, want, out.String())

	// No table with -t 0; an empty source still gets its trailer.
	out.Reset()
	w.Reset(&out)
	a.opt.TableLength = 0
	a.file(w, strings.NewReader(""), &callgraph.SourceFile{})
	require.NoError(t, w.Flush())
	assert.Equal(t, "\nExecution Summary:\n\n"+
		"        0   Executable lines in this file\n"+
		"        0   Lines executed\n"+
		"   100.00   Percent of the file executed\n"+
		"\n        0   Total number of line executions\n"+
		"     0.00   Average executions per line\n", out.String())
}

// annotateGraph is a one-function graph whose function symbol is a line
// symbol of path (line 2) with 3 calls.
func annotateGraph(t *testing.T, path string) *callgraph.Graph {
	t.Helper()
	tab := &symtab.Table{
		Target:  gmon.Target{Order: binary.LittleEndian, AddrSize: 8},
		TextLow: 0x1000, TextEnd: 0x100f,
		Syms: []symtab.Symbol{{Name: "f", Addr: 0x1000, End: 0x100f, IsFunc: true, IsLine: true, Src: symtab.SourceLoc{File: path, Line: 2}}},
	}
	g := callgraph.Build(tab, nil, callgraph.Options{})
	g.Entries[0].NCalls = 3
	return g
}

func TestAnnotatedSourceSeparators(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	require.NoError(t, os.WriteFile("x.c", []byte("/* x */\nint f;\n"), 0o644))
	g := annotateGraph(t, "x.c")
	files := g.SourceFiles([]string{"x.c"}, nil)
	files = append(files, callgraph.SourceFile{Name: "missing.c", Calls: 1, Lines: files[0].Lines}, files[0])

	var out, errs bytes.Buffer
	text := NewText(&out, g, TextOptions{})
	text.MarkPrinted()
	text.AnnotatedSource(AnnotateOptions{Files: files, OpenSource: openFile, MinCount: 1, Argv0: "gprof", Stderr: &errs})
	require.NoError(t, text.Flush())
	body := "                /* x */\n           3 -> int f;\n"
	trailer := "\nExecution Summary:\n\n        1   Executable lines in this file\n        1   Lines executed\n" +
		"   100.00   Percent of the file executed\n\n        3   Total number of line executions\n" +
		"     3.00   Average executions per line\n"
	assert.Equal(t, "\f\n*** File x.c:\n"+body+trailer+"\n\f\n*** File x.c:\n"+body+trailer, out.String())
	assert.Equal(t, "gprof: could not locate `missing.c'\n", errs.String())

	// -y: nothing on standard output, each file to its own writer; a
	// file that cannot be created is reported and skipped.
	out.Reset()
	errs.Reset()
	created := map[string]*closeRecorder{}
	create := func(name string) (io.WriteCloser, error) {
		if name == "other.c-ann" {
			return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EACCES}
		}
		w := &closeRecorder{}
		created[name] = w
		return w, nil
	}
	require.NoError(t, os.Mkdir("sub", 0o755))
	require.NoError(t, os.WriteFile("sub/other.c", []byte("/* x */\nint f;\n"), 0o644))
	sep := []callgraph.SourceFile{files[0], files[0]}
	sep[1].Name = "sub/other.c"
	text = NewText(&out, g, TextOptions{})
	text.AnnotatedSource(AnnotateOptions{Files: sep, OpenSource: openFile, MinCount: 1, CreateFile: create, Argv0: "gprof", Stderr: &errs})
	require.NoError(t, text.Flush())
	assert.Empty(t, out.String())
	require.Len(t, created, 1)
	require.Contains(t, created, "x.c-ann")
	assert.Equal(t, body+trailer, created["x.c-ann"].String())
	assert.True(t, created["x.c-ann"].closed, "the annotation file was not closed")
	assert.Equal(t, "other.c-ann: Permission denied\n", errs.String())
}

// closeRecorder is an in-memory annotation file that records its Close.
type closeRecorder struct {
	bytes.Buffer
	closed bool
}

func (c *closeRecorder) Close() error {
	c.closed = true
	return nil
}

// openFile opens a source by its name as recorded.
func openFile(name string) (io.ReadCloser, error) { return os.Open(name) }

// TestAnnotatedFiles checks that each file AnnotatedFiles returns is what
// AnnotatedSource prints for it (the listing is the expected text), that a
// missing source is reported and left out, and that -z decides which files
// without calls come.
func TestAnnotatedFiles(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	require.NoError(t, os.WriteFile("x.c", []byte("/* x */\nint f;\n"), 0o644))
	require.NoError(t, os.WriteFile("nl.c", []byte("/* no newline */\nint f;"), 0o644))
	g := annotateGraph(t, "x.c")
	x := g.SourceFiles([]string{"x.c"}, nil)[0]
	nl := x
	nl.Name = "nl.c"
	idle := x
	idle.Name, idle.Calls = "idle.c", 0
	require.NoError(t, os.WriteFile("idle.c", []byte("int g;\n"), 0o644))
	missing := x
	missing.Name = "missing.c"
	for _, c := range []struct {
		name      string
		files     []callgraph.SourceFile
		showZeros bool
		table     int
		want      []string // the names of the files returned
		errs      string
	}{
		{"one", []callgraph.SourceFile{x}, false, 0, []string{"x.c"}, ""},
		{"top lines", []callgraph.SourceFile{x, nl}, false, 3, []string{"x.c", "nl.c"}, ""},
		{"missing", []callgraph.SourceFile{missing, x}, false, 0, []string{"x.c"}, "gprof: could not locate `missing.c'\n"},
		{"no calls", []callgraph.SourceFile{idle, x}, false, 0, []string{"x.c"}, ""},
		{"no calls, -z", []callgraph.SourceFile{idle, x}, true, 0, []string{"idle.c", "x.c"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			opt := AnnotateOptions{Files: c.files, OpenSource: openFile, TableLength: c.table, Argv0: "gprof", Stderr: &errs}
			text := NewText(&out, g, TextOptions{Brief: true, ShowZeros: c.showZeros})
			text.AnnotatedSource(opt)
			require.NoError(t, text.Flush())
			errs.Reset()
			got := AnnotatedFiles(opt, c.showZeros)
			assert.Equal(t, c.errs, errs.String())
			var names []string
			var listing strings.Builder
			for k, f := range got {
				names = append(names, f.Name)
				if k > 0 {
					listing.WriteString("\n\f\n")
				}
				listing.WriteString("*** File " + f.Name + ":\n" + strings.Join(f.Lines, "\n") + "\n" + f.Trailer)
			}
			assert.Equal(t, c.want, names)
			// nl.c's last line has no newline: the listing runs its
			// trailer on from it.
			want := strings.ReplaceAll(out.String(), "-> int f;\n\nTop", "-> int f;\n\n\nTop")
			if c.table == 0 {
				want = strings.ReplaceAll(out.String(), "-> int f;\nExecution", "-> int f;\n\nExecution")
			}
			assert.Equal(t, want, listing.String())
		})
	}
}
