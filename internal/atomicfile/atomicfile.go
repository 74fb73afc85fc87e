// Package atomicfile replaces output files so that a reader never sees a
// partial or clobbered file, with the permissions and symbolic-link
// handling a C program's fopen(path, "w") would give.
//
// The rule, for a destination path:
//
//   - A symbolic link is followed (through every link of a chain, as the
//     kernel does) and the file it names is replaced; the link itself stays.
//     A dangling link makes the file it names, as fopen would.
//   - An existing regular file is replaced by a new one with the same
//     permission bits (and, where the process may, the same owner and
//     group). A new file gets 0666 less the process's umask. A file that
//     the process could not open for writing is not replaced: the error is
//     fopen's (permission denied).
//   - The content goes to a temporary file in the directory of the file
//     being replaced (so that the rename stays within one file system),
//     is flushed to disk with fsync, and is then renamed over the
//     destination; the directory is synced too (best effort). On any
//     failure the temporary file is removed and the destination keeps its
//     old content.
//   - A directory is not replaced: the error is EISDIR, as fopen's.
//   - A destination that is neither a regular file nor a directory (a
//     device such as /dev/null, a FIFO) cannot be replaced by renaming; it
//     is opened and written in place.
//   - A name of an open descriptor (/dev/stdout, /dev/fd/N,
//     /proc/self/fd/N: links in a /proc/PID/fd folder) is written in place
//     too, whatever the descriptor is open on: the user means the
//     descriptor, say a shell's redirection, not a file to replace.
//
// Where this differs from fopen: a hard-linked destination is replaced
// under this name only (its other names keep the old content), and the
// destination never exists half written, even when the program fails.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// maxLinks bounds the symbolic links followed, as the kernel's ELOOP does.
const maxLinks = 40

// bufferSize is the size of a File's write buffer.
const bufferSize = 64 << 10

// Write replaces the file at path with what write produces, by the rule of
// the package documentation. If write returns an error, nothing is
// replaced and that error is returned.
func Write(path string, write func(w io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Abort()
		return err
	}
	return f.Close()
}

// File is a replacement of a file under way. Its content is written with
// Write; Close makes it the destination's content, Abort discards it.
// A File is not safe for concurrent use.
type File struct {
	path    string   // the destination as named by the caller
	target  string   // the file replaced (path with its links followed)
	tmp     *os.File // the temporary file, or the destination written in place
	tmpPath string   // the temporary file's name (empty when in place)
	inPlace bool
	mode    fs.FileMode // the permission bits to give the new file
	keep    bool        // mode and owner come from the file replaced
	owner   owner       // the owner of the file replaced, when known
	buf     *bufio.Writer
	err     error // the first write error
	done    bool
}

// Create starts replacing the file at path. Errors name path; they are
// *fs.PathError values carrying the system's error number, as a failed
// open would return.
func Create(path string) (*File, error) {
	target, err := resolve(path)
	if err != nil {
		return nil, err
	}
	f := &File{path: path, target: target, mode: 0o666}
	fi, err := os.Stat(target)
	switch {
	case err == nil && fi.IsDir():
		return nil, &fs.PathError{Op: "open", Path: path, Err: syscall.EISDIR}
	case err == nil && (!fi.Mode().IsRegular() || isDescriptorLink(target)):
		out, err := os.OpenFile(target, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			return nil, renamed(err, "open", path)
		}
		f.tmp, f.inPlace = out, true
		f.buf = bufio.NewWriterSize(out, bufferSize)
		return f, nil
	case err == nil:
		// fopen would fail on a file it may not write; so does this.
		probe, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return nil, renamed(err, "open", path)
		}
		_ = probe.Close()
		f.mode, f.keep = fi.Mode().Perm(), true
		f.owner = ownerOf(fi)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, renamed(err, "open", path)
	}
	tmp, err := createTemp(target, f.mode)
	if err != nil {
		return nil, renamed(err, "open", path)
	}
	f.tmp, f.tmpPath = tmp, tmp.Name()
	f.buf = bufio.NewWriterSize(tmp, bufferSize)
	return f, nil
}

// Write writes p to the replacement. After the first error every Write
// returns it, and Close discards the replacement.
func (f *File) Write(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	if f.done {
		return 0, &fs.PathError{Op: "write", Path: f.path, Err: fs.ErrClosed}
	}
	n, err := f.buf.Write(p)
	if err != nil {
		f.err = renamed(err, "write", f.path)
		return n, f.err
	}
	return n, nil
}

// Close finishes the replacement: the content is flushed and synced to
// disk and renamed over the destination. If a Write failed, or any of
// these steps fails, the replacement is discarded, the destination keeps
// its old content and the error is returned. Closing twice returns nil.
func (f *File) Close() error {
	if f.done {
		return nil
	}
	if f.err != nil {
		f.Abort()
		return f.err
	}
	if f.inPlace {
		f.done = true
		err := f.buf.Flush()
		if cerr := f.tmp.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return renamed(err, "write", f.path)
		}
		return nil
	}
	if err := f.commit(); err != nil {
		f.Abort()
		return err
	}
	f.done = true
	// Make the rename itself durable; failing to is not worth an error.
	if d, err := os.Open(filepath.Dir(f.target)); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

// commit writes out, syncs and closes the temporary file and renames it
// over the target.
func (f *File) commit() error {
	if err := f.buf.Flush(); err != nil {
		return renamed(err, "write", f.path)
	}
	if f.keep {
		// Users who may not give a file away (chown) keep their own
		// ownership, as for any file they create.
		f.owner.apply(f.tmp)
		// The umask applied at creation; restore the old file's mode
		// (after the chown, which may clear set-id bits).
		if err := f.tmp.Chmod(f.mode); err != nil {
			return renamed(err, "chmod", f.path)
		}
	}
	if err := f.tmp.Sync(); err != nil {
		return renamed(err, "write", f.path)
	}
	err := f.tmp.Close()
	f.tmp = nil
	if err != nil {
		return renamed(err, "write", f.path)
	}
	if err := os.Rename(f.tmpPath, f.target); err != nil {
		return renamed(err, "rename", f.path)
	}
	return nil
}

// Abort discards the replacement and removes its temporary file; the
// destination keeps its old content. A destination written in place (a
// device, a FIFO) keeps what was written to it. Aborting a closed File
// does nothing.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	if f.tmp != nil {
		_ = f.tmp.Close()
	}
	if f.tmpPath != "" {
		_ = os.Remove(f.tmpPath)
	}
}

// resolve follows the symbolic links of path to the file they name, which
// need not exist. A relative link target is taken relative to the link's
// directory without cleaning the path, so ".." means what the kernel
// makes of it.
func resolve(path string) (string, error) {
	cur := path
	for range maxLinks {
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return cur, nil
		}
		if err != nil {
			return "", renamed(err, "open", path)
		}
		if fi.Mode()&fs.ModeSymlink == 0 || isDescriptorLink(cur) {
			return cur, nil
		}
		dest, err := os.Readlink(cur)
		if err != nil {
			return "", renamed(err, "open", path)
		}
		if !filepath.IsAbs(dest) {
			dest = cur[:strings.LastIndexByte(cur, filepath.Separator)+1] + dest
		}
		cur = dest
	}
	return "", &fs.PathError{Op: "open", Path: path, Err: syscall.ELOOP}
}

// isDescriptorLink reports whether path is an entry of a /proc/PID/fd
// folder (reached as /dev/stdout, /dev/fd/N or /proc/self/fd/N): such a
// link names an open descriptor, and what readlink says of it ("pipe:[7]",
// or a file's path at the time it was opened) is no path to follow.
func isDescriptorLink(path string) bool {
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	return err == nil && strings.HasPrefix(dir, "/proc/") && filepath.Base(dir) == "fd"
}

// createTemp creates a new, empty file next to target. os.CreateTemp would
// force mode 0600; here the umask applies to mode, as for any new file.
func createTemp(target string, mode fs.FileMode) (*os.File, error) {
	dir := target[:strings.LastIndexByte(target, filepath.Separator)+1]
	base := target[len(dir):]
	for range 100 {
		name := dir + tempPrefix(base) + randomSuffix()
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, mode)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("creating a temporary file next to %s: %w", target, fs.ErrExist)
}

// randomSuffix returns tempRandomLen random characters of tempAlphabet.
// A temporary name must only be unlikely to be taken (O_EXCL catches a
// clash and another name is drawn), not unpredictable, so math/rand/v2's
// generator, seeded by the runtime, does; crypto/rand would link Go's
// crypto module, whose initialisation every run pays for.
func randomSuffix() string {
	var b [tempRandomLen]byte
	for i := range b {
		b[i] = tempAlphabet[rand.IntN(len(tempAlphabet))]
	}
	return string(b[:])
}

// renamed reports err as an error of op on path: the system's error
// number is kept, the temporary file's name (which the user never gave)
// is not shown.
func renamed(err error, op, path string) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return &fs.PathError{Op: op, Path: path, Err: err}
}
