package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/egprof/egprof/internal/atomicfile"
	"github.com/egprof/egprof/internal/filelock"
	"github.com/egprof/egprof/internal/oserr"
)

// The files that accumulate runs (gmon.sum under -s, a rank summary under
// --save-summary) are often among their own inputs: "egprof -s prog
// gmon.sum gmon.out" reads the old sum, adds a run and replaces the sum.
// Two such runs at the same time would both read the same old sum, and the
// second rename would throw the first run away. So every run that writes
// one of these files holds an exclusive flock(2) lock from before it reads
// its inputs until the command ends.
//
// The lock is held on a lock file beside the destination, ".NAME.lock"
// (next to the file symbolic links lead to, so that every name of the
// destination shares one lock), not on the destination: the destination
// is replaced by renaming a new file over it, and a lock held on the old
// file's inode would not stop a process that opens the new one. The lock
// file is never removed: a run waiting on it would go on to hold a lock on
// a file no longer named, while a newcomer locked a new one.
//
// Runs that write the file without reading it take the lock too: only
// then is a temporary file found under the lock certain to be a killed
// writer's, which the holder removes.
//
// Where the file system has no locks (ENOLCK, as on NFS without a lock
// manager; EOPNOTSUPP) egprof says so once on stderr and goes on without
// the lock, as GNU gprof always does.

// lockAccumulated takes the locks of the files this command line
// accumulates into and removes their stale temporary files; the returned
// function releases the locks. It is called before any input is read.
func (c *config) lockAccumulated(stderr io.Writer) (release func()) {
	var dests []string
	if c.style&styleSum != 0 && c.ext.mode != modeExperiment {
		dests = append(dests, "gmon.sum")
	}
	if c.ext.mode == modeRanks && c.ext.rank.saveSummary != "" {
		dests = append(dests, c.ext.rank.saveSummary)
	}
	// One lock per lock file (flock locks of one process on two
	// descriptors of a file exclude each other), taken in name order so
	// that two runs writing the same two files cannot deadlock.
	byLock := map[string]string{}
	for _, d := range dests {
		lockPath, ok := lockFileOf(d)
		if _, seen := byLock[lockPath]; ok && !seen {
			byLock[lockPath] = d
		}
	}
	lockPaths := make([]string, 0, len(byLock))
	for p := range byLock {
		lockPaths = append(lockPaths, p)
	}
	sort.Strings(lockPaths)

	var held []*filelock.Lock
	warned := false
	for _, p := range lockPaths {
		dest := byLock[p]
		l, err := filelock.Acquire(p)
		if err != nil {
			if _, statErr := os.Lstat(p); !filelock.Unsupported(err) && errors.Is(statErr, fs.ErrNotExist) {
				// The directory takes no new file: writing the
				// destination fails too, and says why.
				continue
			}
			if !warned {
				fmt.Fprintf(stderr, "%s: warning: cannot lock %s (%s: %s); runs accumulated into it at the same time may be lost\n",
					c.argv0, dest, p, oserr.Text(err))
				warned = true
			}
			continue
		}
		held = append(held, l)
		// A killed writer's temporary file is of no use to anyone.
		_, _ = atomicfile.RemoveStale(dest)
	}
	return func() {
		for _, l := range held {
			_ = l.Release()
		}
	}
}

// lockFileOf returns the lock file of the output file dest, ".NAME.lock"
// beside the file dest's links lead to, and false when dest is not
// replaced by renaming (a device, a FIFO, a directory) or cannot be
// resolved: the write reports the latter.
func lockFileOf(dest string) (string, bool) {
	target, err := atomicfile.Target(dest)
	if err != nil {
		return "", false
	}
	if fi, err := os.Stat(target); err == nil && !fi.Mode().IsRegular() {
		return "", false
	}
	abs, err := filepath.Abs(target)
	if err != nil {
		return "", false
	}
	dir, base := filepath.Split(abs)
	return dir + "." + base + ".lock", true
}
