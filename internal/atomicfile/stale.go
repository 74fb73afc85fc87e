package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// A temporary file is named "." + the destination's base name + ".tmp-" +
// tempRandomLen random characters of tempAlphabet (base32's: A-Z, 2-7), so
// that the temporary files of one destination can be told from every
// other file, those of other destinations included.
const (
	tempInfix     = ".tmp-"
	tempRandomLen = 12
	tempAlphabet  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
)

// tempPrefix is the start of the name of every temporary file made to
// replace a file whose base name is base.
func tempPrefix(base string) string {
	return "." + base + tempInfix
}

// isTempOf reports whether name is the name of a temporary file made to
// replace a file whose base name is base.
func isTempOf(name, base string) bool {
	random, ok := strings.CutPrefix(name, tempPrefix(base))
	if !ok || len(random) != tempRandomLen {
		return false
	}
	for _, r := range random {
		if !strings.ContainsRune(tempAlphabet, r) {
			return false
		}
	}
	return true
}

// Target returns the file that Create(path) replaces: path with its
// symbolic links followed. The file need not exist.
func Target(path string) (string, error) {
	return resolve(path)
}

// RemoveStale removes the temporary files that replacements of the file at
// path left behind (a process killed between Create and Close leaves its
// temporary file), and only those, and returns their names. It must be
// called only while no replacement of path may be under way, for example
// under a lock that every writer of path holds.
func RemoveStale(path string) ([]string, error) {
	target, err := resolve(path)
	if err != nil {
		return nil, err
	}
	dir := target[:strings.LastIndexByte(target, os.PathSeparator)+1]
	base := target[len(dir):]
	listDir := dir
	if listDir == "" {
		listDir = "."
	}
	entries, err := os.ReadDir(listDir)
	if err != nil {
		return nil, fmt.Errorf("looking for temporary files of %s: %w", path, err)
	}
	var removed []string
	var errs []error
	for _, e := range entries {
		if !e.Type().IsRegular() || !isTempOf(e.Name(), base) {
			continue
		}
		name := dir + e.Name()
		if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, name)
	}
	return removed, errors.Join(errs...)
}
