package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// helperCommand is a command egprof runs for work that needs a heavy
// library (graphviz, the plotting library), kept out of egprof so that
// they cost nothing to runs that do not draw.
type helperCommand struct {
	name    string // the command's file name
	install string // the command line that installs it
	purpose string // what needs it, for the error when it is missing
}

// The helper commands.
var (
	graphvizHelper = helperCommand{
		name:    "egprof-graphviz",
		install: "go install github.com/egprof/egprof/cmd/egprof-graphviz@latest",
		purpose: "SVG and PNG need it",
	}
	chartsHelper = helperCommand{
		name:    "egprof-charts",
		install: "go install github.com/egprof/egprof/cmd/egprof-charts@latest",
		purpose: "--rank-plots and --plots need it",
	}
)

// errNoHelper is returned (wrapped) when a helper command is neither next
// to the running executable nor on PATH.
var errNoHelper = errors.New("helper command not found")

// find returns the path of the helper: the one next to the running
// executable, else the one on PATH.
func (h helperCommand) find() (string, error) {
	dir := ""
	if exe, err := os.Executable(); err == nil {
		if resolved, err := filepath.EvalSymlinks(exe); err == nil {
			exe = resolved
		}
		dir = filepath.Dir(exe)
	}
	return h.findIn(dir)
}

// findIn looks for the helper in dir (unless dir is empty), then on PATH.
// The error names both places and says how to install it.
func (h helperCommand) findIn(dir string) (string, error) {
	var looked []string
	if dir != "" {
		cand := filepath.Join(dir, h.name)
		// Windows runs files by their .exe name and has no
		// permission bits that say a file may be run.
		runnable := func(fi os.FileInfo) bool { return fi.Mode().Perm()&0o111 != 0 }
		if runtime.GOOS == "windows" {
			cand += ".exe"
			runnable = func(os.FileInfo) bool { return true }
		}
		if fi, err := os.Stat(cand); err == nil && fi.Mode().IsRegular() && runnable(fi) {
			return cand, nil
		}
		looked = append(looked, dir)
	}
	if path, err := exec.LookPath(h.name); err == nil {
		return path, nil
	}
	looked = append(looked, "PATH")
	return "", fmt.Errorf("%s: %w (looked in %s); %s, install it with: %s",
		h.name, errNoHelper, strings.Join(looked, " and "), h.purpose, h.install)
}

// run runs the helper with args, stdin as its input and its output written
// to stdout. A failure carries the first line the helper wrote to its
// standard error.
func (h helperCommand) run(args []string, stdin io.Reader, stdout io.Writer) error {
	tool, err := h.find()
	if err != nil {
		return err
	}
	return h.runAt(tool, args, stdin, stdout)
}

// runAt is run with the helper found at tool.
func (h helperCommand) runAt(tool string, args []string, stdin io.Reader, stdout io.Writer) error {
	var stderr bytes.Buffer
	cmd := exec.Command(tool, args...)
	cmd.Stdin = stdin
	cmd.Stdout = stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		where := strings.Join(append([]string{tool}, args...), " ")
		if msg != "" {
			return fmt.Errorf("%s: %w: %s", where, err, msg)
		}
		return fmt.Errorf("%s: %w", where, err)
	}
	return nil
}
