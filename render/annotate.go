package render

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/internal/oserr"
)

// annotationWidth is the width of the count column in front of every
// source line.
const annotationWidth = 16

// AnnotateOptions are the settings of the annotated-source listing (-A).
type AnnotateOptions struct {
	// Files are the files to annotate, in the order to print them.
	Files []callgraph.SourceFile
	// OpenSource opens a source file by the name its debug information
	// gives (the command looks for it as gprof does, see -I); an error
	// that wraps fs.ErrNotExist means it could not be located.
	OpenSource func(name string) (io.ReadCloser, error)
	AllLines   bool   // -x: a count on every line that has a symbol
	MinCount   uint64 // -m: counts below it show as "#####"
	// TableLength is -t: rows of the "Top N Lines" table; 0 leaves the
	// table out.
	TableLength int
	// CreateFile, when set, is -y: each file is written to the writer
	// CreateFile returns for "<basename>-ann" (gprof creates it in the
	// current directory) instead of to the listing. The writer is closed
	// after the file's last line; an error from CreateFile, a write or
	// Close is reported and the listing goes on, as gprof does.
	CreateFile func(name string) (io.WriteCloser, error)
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
		src, ok := opt.open(f.Name)
		if !ok {
			continue
		}
		if opt.CreateFile != nil {
			name := afterLastSlash(f.Name) + "-ann"
			if err := a.separateFile(name, src, f); err != nil {
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

// separateFile writes one annotated file to its own file, name (-y).
func (a *annotator) separateFile(name string, src io.Reader, f *callgraph.SourceFile) error {
	out, err := a.opt.CreateFile(name)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(out)
	a.file(bw, src, f)
	err = bw.Flush()
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// open opens a source, reporting on o.Stderr as gprof does when it
// cannot.
func (o *AnnotateOptions) open(name string) (io.ReadCloser, bool) {
	src, err := o.OpenSource(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(o.Stderr, "%s: could not locate `%s'\n", o.Argv0, name)
		} else {
			fmt.Fprintf(o.Stderr, "%s: %s\n", name, oserr.Text(err))
		}
		return nil, false
	}
	return src, true
}

// AnnotatedFile is one file of the annotated-source listing as
// AnnotatedSource prints it.
type AnnotatedFile struct {
	// Name is the file's name as its debug information gives it.
	Name string
	// Lines are its lines, each with the 16 columns of its count in front
	// ("        4500 -> {"), without their newlines.
	Lines []string
	// Trailer is what follows the lines: the top lines (-t) and the
	// execution summary.
	Trailer string
}

// AnnotatedFiles returns the files AnnotatedSource would print for opt,
// each as it prints it, for outputs other than the text report (the HTML
// page). showZeros is -z (every file, not only those with calls).
// opt.CreateFile is ignored; a source that cannot be opened is left out
// and reported on opt.Stderr as AnnotatedSource reports it.
func AnnotatedFiles(opt AnnotateOptions, showZeros bool) []AnnotatedFile {
	a := annotator{opt: &opt, firstFile: true}
	var out []AnnotatedFile
	var buf bytes.Buffer
	for k := range opt.Files {
		f := &opt.Files[k]
		if !showZeros && f.Calls == 0 {
			continue
		}
		src, ok := opt.open(f.Name)
		if !ok {
			continue
		}
		buf.Reset()
		w := bufio.NewWriter(&buf)
		a.body(w, src, f)
		src.Close()
		w.Flush()
		text := buf.String()
		buf.Reset()
		a.trailer(w, f)
		w.Flush()
		af := AnnotatedFile{Name: f.Name, Trailer: buf.String()}
		if text != "" {
			af.Lines = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		}
		out = append(out, af)
	}
	return out
}

// file writes one annotated file and its trailer.
func (a *annotator) file(w *bufio.Writer, src io.Reader, f *callgraph.SourceFile) {
	a.body(w, src, f)
	a.trailer(w, f)
}

// body writes one file's lines, each with its count in front.
func (a *annotator) body(w *bufio.Writer, src io.Reader, f *callgraph.SourceFile) {
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

// afterLastSlash is the part of a path after its last slash (all of it
// without one), as gprof takes a source's name for its annotation file.
func afterLastSlash(p string) string {
	if k := strings.LastIndexByte(p, '/'); k >= 0 {
		return p[k+1:]
	}
	return p
}
