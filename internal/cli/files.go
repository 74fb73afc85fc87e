package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/egprof/egprof/internal/oserr"
)

// profileFiles returns the profile data files of a run: the operands,
// each glob pattern among them (quoted, so that egprof sees it) replaced
// by the files it matches, then the paths listed in each --files-from
// file. A pattern names its matches in sorted order; an operand that
// exists under its own name, or a pattern that matches nothing, stays as
// it is, so that gprof's command lines and errors are unchanged. Lists
// are for runs with more files than a command line holds: one path a line,
// taken as it is (no pattern expansion, no quoting), blank lines skipped.
// Operands that stand for themselves alone are returned as they are, not
// copied.
func profileFiles(operands, lists []string, stdin io.Reader) ([]string, error) {
	if len(lists) == 0 && !slices.ContainsFunc(operands, isPattern) {
		return operands, nil
	}
	var listed [][]string
	total := len(operands)
	for _, list := range lists {
		var data []byte
		var err error
		if list == "-" {
			data, err = io.ReadAll(stdin)
		} else {
			data, err = os.ReadFile(list)
		}
		if err != nil {
			return nil, fmt.Errorf("--files-from=%s: %s", list, oserr.Text(err))
		}
		paths, err := readFileList(data)
		if err != nil {
			return nil, fmt.Errorf("--files-from=%s: %w", list, err)
		}
		listed = append(listed, paths)
		total += len(paths)
	}
	if len(operands) == 0 && len(listed) == 1 {
		return listed[0], nil
	}
	files := make([]string, 0, total)
	for _, op := range operands {
		files = appendOperand(files, op)
	}
	for _, paths := range listed {
		files = append(files, paths...)
	}
	return files, nil
}

// appendOperand appends the files a data-file operand stands for.
func appendOperand(files []string, op string) []string {
	if !isPattern(op) {
		return append(files, op)
	}
	if _, err := os.Lstat(op); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return append(files, op)
	}
	matches, err := filepath.Glob(op)
	if err != nil || len(matches) == 0 {
		return append(files, op)
	}
	return append(files, matches...)
}

// isPattern reports whether an operand holds a glob pattern's special
// characters (it may still name a file, or match nothing).
func isPattern(op string) bool { return strings.ContainsAny(op, "*?[") }

// readFileList splits a --files-from list into paths: one a line, a
// trailing carriage return dropped, blank lines skipped. A NUL byte,
// which no path holds, means the file is not a list. The paths share one
// string: a job's list can name hundreds of thousands of files.
func readFileList(data []byte) ([]string, error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		line := 1 + bytes.Count(data[:i], []byte{'\n'})
		return nil, fmt.Errorf("line %d: a NUL byte: not a list of paths", line)
	}
	text := string(data)
	paths := make([]string, 0, strings.Count(text, "\n")+1)
	for line := range strings.Lines(text) {
		p := strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if strings.TrimSpace(p) == "" {
			continue
		}
		paths = append(paths, p)
	}
	return paths, nil
}
