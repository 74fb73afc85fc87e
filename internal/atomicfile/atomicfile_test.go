//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testUmask is the umask the tests run under: a new file gets 0666 &^ 027.
const (
	testUmask   = 0o027
	newFileMode = fs.FileMode(0o640)
)

// TestMain runs the tests under a known umask (it is process-wide, so no
// test here runs in parallel).
func TestMain(m *testing.M) {
	syscall.Umask(testUmask)
	os.Exit(m.Run())
}

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// failAfter writes s and then fails, as a writer that runs out of data or
// space half way.
func failAfter(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		if _, err := io.WriteString(w, s); err != nil {
			return err
		}
		return errors.New("boom")
	}
}

// entry is what a test expects of one name in its directory.
type entry struct {
	content string
	mode    fs.FileMode // permission bits of a regular file
	link    string      // the link's target, for a symbolic link
	dir     bool
}

func TestWrite(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T) // run in an empty current directory
		path  string
		write func(io.Writer) error
		err   error // the errno expected of the file system
		// failed: the write function's own error is expected back
		failed bool
		want   map[string]entry
	}{
		{
			name:  "new file gets 0666 less the umask",
			path:  "out",
			write: writeString("new"),
			want:  map[string]entry{"out": {content: "new", mode: newFileMode}},
		},
		{
			name:  "existing file keeps its mode",
			setup: func(t *testing.T) { writeFile(t, "out", "old", 0o604) },
			path:  "out",
			write: writeString("new"),
			want:  map[string]entry{"out": {content: "new", mode: 0o604}},
		},
		{
			name:  "a longer old file leaves no tail",
			setup: func(t *testing.T) { writeFile(t, "out", "old old old old", 0o600) },
			path:  "out",
			write: writeString("new"),
			want:  map[string]entry{"out": {content: "new", mode: 0o600}},
		},
		{
			name: "symbolic link: its target is written, the link stays",
			setup: func(t *testing.T) {
				writeFile(t, "real", "old", 0o660)
				symlink(t, "real", "out")
			},
			path:  "out",
			write: writeString("new"),
			want: map[string]entry{
				"real": {content: "new", mode: 0o660},
				"out":  {link: "real"},
			},
		},
		{
			name: "relative link in a subdirectory, and a chain of links",
			setup: func(t *testing.T) {
				require.NoError(t, os.Mkdir("sub", 0o755))
				writeFile(t, "real", "old", 0o600)
				symlink(t, "../real", "sub/hop")
				symlink(t, "hop", "sub/out")
			},
			path:  "sub/out",
			write: writeString("new"),
			want: map[string]entry{
				"real":    {content: "new", mode: 0o600},
				"sub":     {dir: true},
				"sub/hop": {link: "../real"},
				"sub/out": {link: "hop"},
			},
		},
		{
			name:  "dangling link: the file it names is made",
			setup: func(t *testing.T) { symlink(t, "made", "out") },
			path:  "out",
			write: writeString("new"),
			want: map[string]entry{
				"made": {content: "new", mode: newFileMode},
				"out":  {link: "made"},
			},
		},
		{
			name:  "link loop",
			setup: func(t *testing.T) { symlink(t, "b", "a"); symlink(t, "a", "b") },
			path:  "a",
			write: writeString("new"),
			err:   syscall.ELOOP,
			want:  map[string]entry{"a": {link: "b"}, "b": {link: "a"}},
		},
		{
			name:  "directory in the way",
			setup: func(t *testing.T) { require.NoError(t, os.Mkdir("out", 0o755)) },
			path:  "out",
			write: writeString("new"),
			err:   syscall.EISDIR,
			want:  map[string]entry{"out": {dir: true}},
		},
		{
			name:  "missing directory",
			path:  "nosuch/out",
			write: writeString("new"),
			err:   syscall.ENOENT,
			want:  map[string]entry{},
		},
		{
			name:   "failure mid-write leaves the old content and no temporary file",
			setup:  func(t *testing.T) { writeFile(t, "out", "old", 0o644) },
			path:   "out",
			failed: true,
			write:  failAfter("half of the new"),
			want:   map[string]entry{"out": {content: "old", mode: 0o644}},
		},
		{
			name:   "failure mid-write of a new file leaves nothing",
			path:   "out",
			failed: true,
			write:  failAfter("half of the new"),
			want:   map[string]entry{},
		},
		{
			name: "failure mid-write through a link leaves the target",
			setup: func(t *testing.T) {
				require.NoError(t, os.Mkdir("sub", 0o755))
				writeFile(t, "sub/real", "old", 0o644)
				symlink(t, "sub/real", "out")
			},
			path:   "out",
			failed: true,
			write:  failAfter("half"),
			want: map[string]entry{
				"sub":      {dir: true},
				"sub/real": {content: "old", mode: 0o644},
				"out":      {link: "sub/real"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			if tt.setup != nil {
				tt.setup(t)
			}
			err := Write(tt.path, tt.write)
			switch {
			case tt.err != nil:
				require.ErrorIs(t, err, tt.err)
				var pe *fs.PathError
				require.ErrorAs(t, err, &pe)
				assert.Equal(t, tt.path, pe.Path, "the error names the destination")
			case tt.failed:
				require.EqualError(t, err, "boom")
			default:
				require.NoError(t, err)
			}
			assert.Equal(t, tt.want, listTree(t, "."))
		})
	}
}

// TestFileAbortAndWriteError covers the io.WriteCloser side: a File that
// is aborted, or whose Write failed, replaces nothing.
func TestFileAbortAndWriteError(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "out", "old", 0o644)

	f, err := Create("out")
	require.NoError(t, err)
	_, err = io.WriteString(f, "discarded")
	require.NoError(t, err)
	f.Abort()
	require.NoError(t, f.Close(), "closing an aborted file")
	assert.Equal(t, map[string]entry{"out": {content: "old", mode: 0o644}}, listTree(t, "."))

	f, err = Create("out")
	require.NoError(t, err)
	f.err = &fs.PathError{Op: "write", Path: "out", Err: syscall.ENOSPC} // as a full disk would
	_, err = io.WriteString(f, "more")
	require.ErrorIs(t, err, syscall.ENOSPC)
	require.ErrorIs(t, f.Close(), syscall.ENOSPC)
	assert.Equal(t, map[string]entry{"out": {content: "old", mode: 0o644}}, listTree(t, "."))

	f, err = Create("out")
	require.NoError(t, err)
	_, err = io.WriteString(f, "kept")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	require.NoError(t, f.Close(), "closing twice")
	f.Abort() // after Close: nothing happens
	assert.Equal(t, map[string]entry{"out": {content: "kept", mode: 0o644}}, listTree(t, "."))
}

// TestWriteDevice writes to /dev/null, directly and through a link; it
// cannot be renamed over, so it is written in place and stays a device.
func TestWriteDevice(t *testing.T) {
	fi, err := os.Stat(os.DevNull)
	if err != nil || fi.Mode()&fs.ModeDevice == 0 {
		t.Skip("no null device")
	}
	t.Chdir(t.TempDir())
	symlink(t, os.DevNull, "out")
	for _, path := range []string{os.DevNull, "out"} {
		require.NoError(t, Write(path, writeString("discarded")), path)
		fi, err = os.Stat(os.DevNull)
		require.NoError(t, err)
		assert.NotZero(t, fi.Mode()&fs.ModeDevice, "written through %s", path)
	}
	assert.Equal(t, map[string]entry{"out": {link: os.DevNull}}, listTree(t, "."))
}

// TestWriteDescriptor writes through the names of open descriptors, as
// `egprof --dot=/dev/stdout | dot -Tsvg` does: a pipe gets the content, and
// a descriptor open on a regular file (a shell's `> out.dot`) is written in
// place, so that the descriptor sees it, instead of a new file being renamed
// over the name the descriptor was opened with.
func TestWriteDescriptor(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd")
	}
	t.Chdir(t.TempDir())

	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	fd := w.Fd()
	for _, path := range []string{fmt.Sprintf("/proc/self/fd/%d", fd), fmt.Sprintf("/dev/fd/%d", fd)} {
		require.NoError(t, Write(path, writeString("through "+path+"\n")), path)
	}
	require.NoError(t, w.Close())
	got, err := io.ReadAll(r)
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprintf("through /proc/self/fd/%d\nthrough /dev/fd/%d\n", fd, fd), string(got))

	f, err := os.Create("redirected")
	require.NoError(t, err)
	defer f.Close()
	before, err := f.Stat()
	require.NoError(t, err)
	require.NoError(t, Write(fmt.Sprintf("/proc/self/fd/%d", f.Fd()), writeString("in place")))
	after, err := os.Stat("redirected")
	require.NoError(t, err)
	assert.True(t, os.SameFile(before, after), "the file the descriptor is open on was replaced")
	content, err := os.ReadFile("redirected")
	require.NoError(t, err)
	assert.Equal(t, "in place", string(content))
}

// TestWriteReadOnlyFile: a file fopen could not open for writing is not
// replaced either.
func TestWriteReadOnlyFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write any file")
	}
	t.Chdir(t.TempDir())
	writeFile(t, "out", "old", 0o444)
	err := Write("out", writeString("new"))
	require.ErrorIs(t, err, syscall.EACCES)
	assert.Equal(t, map[string]entry{"out": {content: "old", mode: 0o444}}, listTree(t, "."))
}

func writeFile(t *testing.T, name, content string, mode fs.FileMode) {
	t.Helper()
	require.NoError(t, os.WriteFile(name, []byte(content), mode))
	require.NoError(t, os.Chmod(name, mode)) // past the umask
}

func symlink(t *testing.T, target, name string) {
	t.Helper()
	require.NoError(t, os.Symlink(target, name))
}

// listTree describes every name under root, recursively, temporary files
// included.
func listTree(t *testing.T, root string) map[string]entry {
	t.Helper()
	out := map[string]entry{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.IsDir():
			out[p] = entry{dir: true}
		case fi.Mode()&fs.ModeSymlink != 0:
			dest, err := os.Readlink(p)
			if err != nil {
				return err
			}
			out[p] = entry{link: dest}
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[p] = entry{content: string(b), mode: fi.Mode().Perm()}
		}
		return nil
	})
	require.NoError(t, err)
	return out
}

// TestWriteKeepsOwner replaces a file owned by another user and group: the
// new file has the old one's owner and mode, as a rewrite in place would.
// Only a privileged process may give files away, so it runs as root.
func TestWriteKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root may give a file to another user")
	}
	t.Chdir(t.TempDir())
	writeFile(t, "out", "old", 0o604)
	require.NoError(t, os.Chown("out", 4242, 4343))
	require.NoError(t, Write("out", writeString("new")))
	fi, err := os.Stat("out")
	require.NoError(t, err)
	st, ok := fi.Sys().(*syscall.Stat_t)
	require.True(t, ok)
	assert.Equal(t, [2]uint32{4242, 4343}, [2]uint32{st.Uid, st.Gid})
	assert.Equal(t, map[string]entry{"out": {content: "new", mode: 0o604}}, listTree(t, "."))
}
