package render

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/egprof/egprof/internal/oserr"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/egprof/egprof/callgraph"
)

// annotationWidth is the width of the count column in front of every
// source line.
const annotationWidth = 16

// AnnotateOptions are the settings of the annotated-source listing (-A).
type AnnotateOptions struct {
	// Files are the files to annotate, in the order to print them.
	Files []callgraph.SourceFile
	// SearchDirs are the directories where sources are looked for when
	// their recorded path does not open (-I, then GPROF_PATH).
	SearchDirs []string
	AllLines   bool   // -x: a count on every line that has a symbol
	MinCount   uint64 // -m: counts below it show as "#####"
	// TableLength is -t: rows of the "Top N Lines" table; 0 leaves the
	// table out.
	TableLength int
	// SeparateFiles is -y: write each file to "<basename>-ann" in the
	// current directory instead of standard output.
	SeparateFiles bool
	// Argv0 and Stderr are for the messages about sources that cannot be
	// found or annotation files that cannot be written.
	Argv0  string
	Stderr io.Writer
}

// AnnotatedSource writes gprof's annotated-source listing: every file with
// at least one call (any file with -z), whole, each line prefixed by its
// count, followed by the file's top lines and execution summary.
//
// A source that cannot be found, or an annotation file that cannot be
// written, is reported on opt.Stderr and skipped, as gprof does; the
// listing goes on with the next file.
func (t *Text) AnnotatedSource(opt AnnotateOptions) {
	a := annotator{opt: &opt, firstFile: true}
	for k := range opt.Files {
		f := &opt.Files[k]
		if !t.opt.ShowZeros && f.Calls == 0 {
			continue
		}
		src, err := openSource(f.Name, opt.SearchDirs)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				fmt.Fprintf(opt.Stderr, "%s: could not locate `%s'\n", opt.Argv0, f.Name)
			} else {
				fmt.Fprintf(opt.Stderr, "%s: %s\n", f.Name, oserr.Text(err))
			}
			continue
		}
		if opt.SeparateFiles {
			name := afterLastSlash(f.Name) + "-ann"
			err = writeFileSafely(name, func(w io.Writer) error {
				bw := bufio.NewWriter(w)
				a.file(bw, src, f)
				return bw.Flush()
			})
			if err != nil {
				fmt.Fprintf(opt.Stderr, "%s: %s\n", name, oserr.Text(err))
			}
		} else {
			if !a.firstFile {
				t.w.WriteByte('\n')
			}
			a.firstFile = false
			t.separator()
			fmt.Fprintf(t.w, "*** File %s:\n", f.Name)
			a.file(t.w, src, f)
		}
		src.Close()
	}
}

// annotator carries the state of one -A listing across its files: gprof
// remembers the last count it printed from one file to the next.
type annotator struct {
	opt       *AnnotateOptions
	firstFile bool   // no file printed to standard output yet
	lastCount uint64 // the most recent count seen (used by -x)
	// per file
	executable, executed int64
}

// file writes one annotated file and its trailer.
func (a *annotator) file(w *bufio.Writer, src io.Reader, f *callgraph.SourceFile) {
	a.executable, a.executed = 0, 0
	lineNum := 1
	atStart := true
	r := bufio.NewReaderSize(src, 8192)
	for {
		chunk, err := r.ReadSlice('\n')
		if len(chunk) > 0 {
			if atStart {
				w.WriteString(a.prefix(f, lineNum))
				lineNum++
			}
			w.Write(chunk)
			atStart = chunk[len(chunk)-1] == '\n'
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			// End of file, or a read error: gprof stops reading either way.
			break
		}
	}
	a.trailer(w, f)
}

// prefix returns the 16 columns printed in front of source line lineNum.
func (a *annotator) prefix(f *callgraph.SourceFile, lineNum int) string {
	blank := strings.Repeat(" ", annotationWidth)
	var l *callgraph.SourceLine
	if lineNum <= len(f.Lines) {
		l = f.Lines[lineNum-1]
	}
	if l == nil {
		return blank
	}
	a.executable++
	allLines := a.opt.AllLines
	var text []byte
	var calls uint64
	set := false
	// lastPrint is the count printed last on this line; a count of all
	// ones bits stands for "none yet", as in gprof.
	lastPrint := ^uint64(0)
	switch {
	case l.IsFunc:
		// A function entry is labelled whatever else happens.
		text = strconv.AppendUint(text, l.Calls, 10)
		a.lastCount = l.Calls
		lastPrint, calls, set = l.Calls, l.Calls, true
	case allLines && len(l.Blocks) > 0 && l.Blocks[0].Addr > l.Addr:
		// The line starts inside the block before it: repeat that count.
		text = strconv.AppendUint(text, a.lastCount, 10)
		lastPrint, calls, set = a.lastCount, a.lastCount, true
	}
	for _, b := range l.Blocks {
		a.lastCount = b.Count
		if !set {
			calls, set = 0, true
		}
		calls += b.Count
		if allLines && b.Count == lastPrint {
			continue
		}
		if len(text) > 0 {
			text = append(text, ',')
		}
		text = strconv.AppendUint(text, b.Count, 10)
		lastPrint = b.Count
	}
	if allLines && len(text) == 0 {
		text = strconv.AppendUint(text, a.lastCount, 10)
		calls, set = a.lastCount, true
	}
	if !set {
		return blank
	}
	a.executed++
	if calls < a.opt.MinCount {
		text = append(text[:0], "#####"...)
	}
	text = append(text, " -> "...)
	if len(text) >= annotationWidth {
		return string(text[:annotationWidth])
	}
	return blank[:annotationWidth-len(text)] + string(text)
}

// trailer writes the top lines and the execution summary of a file.
func (a *annotator) trailer(w *bufio.Writer, f *callgraph.SourceFile) {
	if n := a.opt.TableLength; n > 0 {
		fmt.Fprintf(w, "\n\nTop %d Lines:\n\n     Line      Count\n\n", n)
		for _, l := range f.TopLines(n) {
			fmt.Fprintf(w, "%9d %10d\n", l.Line, l.Calls)
		}
	}
	w.WriteString("\nExecution Summary:\n\n")
	fmt.Fprintf(w, "%9d   Executable lines in this file\n", a.executable)
	fmt.Fprintf(w, "%9d   Lines executed\n", a.executed)
	pct, avg := 100.0, 0.0
	if a.executable != 0 {
		pct = 100 * float64(a.executed) / float64(a.executable)
		avg = float64(f.Calls) / float64(a.executable)
	}
	fmt.Fprintf(w, "%s   Percent of the file executed\n", fixed(pct, 9, 2))
	fmt.Fprintf(w, "\n%9d   Total number of line executions\n", f.Calls)
	fmt.Fprintf(w, "%s   Average executions per line\n", fixed(avg, 9, 2))
}

// openSource opens a source file the way gprof looks for it. A relative
// path is tried as it is, then under each search directory; an absolute
// one only as it is. Then, if the path has a directory part, its base name
// is tried under each search directory. The error is that of the last
// attempt.
func openSource(name string, dirs []string) (*os.File, error) {
	f, err := os.Open(name)
	if err == nil {
		return f, nil
	}
	var tries []string
	if !strings.HasPrefix(name, "/") {
		for _, d := range dirs {
			tries = append(tries, d+"/"+name)
		}
	}
	if k := strings.LastIndexByte(name, '/'); k >= 0 {
		for _, d := range dirs {
			tries = append(tries, d+"/"+name[k+1:])
		}
	}
	for _, p := range tries {
		if f, err = os.Open(p); err == nil {
			return f, nil
		}
	}
	return nil, fmt.Errorf("opening source %s: %w", name, err)
}

// afterLastSlash is the part of a path after its last slash (all of it
// without one), as gprof takes a source's name for its annotation file.
func afterLastSlash(p string) string {
	if k := strings.LastIndexByte(p, '/'); k >= 0 {
		return p[k+1:]
	}
	return p
}

// writeFileSafely writes the file name in the current directory the way
// gprof -y writes an annotation file, but without ever leaving a partly
// written file or writing through a link: the content goes to a temporary
// file in the same directory, which is then renamed over name. An existing
// file keeps its permissions; a new one gets gprof's (0666 less the umask).
func writeFileSafely(name string, fill func(w io.Writer) error) (err error) {
	mode := fs.FileMode(0o666) &^ processUmask()
	if fi, statErr := os.Stat(name); statErr == nil {
		if fi.IsDir() {
			return &fs.PathError{Op: "open", Path: name, Err: syscall.EISDIR}
		}
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(".", "."+name+".tmp*")
	if err != nil {
		return fmt.Errorf("creating a temporary file for %s: %w", name, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = fill(tmp); err != nil {
		return fmt.Errorf("writing %s: %w", tmp.Name(), err)
	}
	if err = tmp.Chmod(mode); err != nil {
		return fmt.Errorf("setting the mode of %s: %w", tmp.Name(), err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", tmp.Name(), err)
	}
	if err = os.Rename(tmp.Name(), name); err != nil {
		return fmt.Errorf("replacing %s: %w", name, err)
	}
	return nil
}

// processUmask reads the process's file-creation mask from
// /proc/self/status without changing it (syscall.Umask can only read it by
// setting it, which would race with other goroutines creating files). When
// it cannot be read the usual 022 is assumed.
func processUmask() fs.FileMode {
	const usual = 0o022
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return usual
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "Umask:"); ok {
			m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32)
			if err != nil {
				return usual
			}
			return fs.FileMode(m) & fs.ModePerm
		}
	}
	return usual
}
