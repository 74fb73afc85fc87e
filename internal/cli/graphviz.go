package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/internal/atomicfile"
	"github.com/egprof/egprof/render/graphfile"
)

// The call-graph files: GML and DOT are written by package graphfile, SVG
// and PNG are rendered from the DOT by the separate egprof-graphviz
// command, so that egprof itself does not link the WASM graphviz.

// graphFormat names a call-graph output format.
type graphFormat string

// The call-graph formats.
const (
	formatGML graphFormat = "gml"
	formatDOT graphFormat = "dot"
	formatSVG graphFormat = "svg"
	formatPNG graphFormat = "png"
)

// graphvizCommand is the name of the command that renders DOT as SVG or
// PNG, and graphvizInstall the command line that installs it.
const (
	graphvizCommand = "egprof-graphviz"
	graphvizInstall = "go install github.com/egprof/egprof/cmd/egprof-graphviz@latest"
)

// errNoGraphviz is returned (wrapped) when the egprof-graphviz command is
// neither next to the running executable nor on PATH.
var errNoGraphviz = errors.New(graphvizCommand + " not found")

// writeGraphFile writes the call graph of p to path in the given format,
// atomically: the file appears complete or not at all. SVG and PNG are
// rendered by the egprof-graphviz command (see renderGraphviz).
func writeGraphFile(path string, format graphFormat, p *diff.Profile, opt graphfile.Options) error {
	switch format {
	case formatGML:
		return withPath(path, atomicfile.Write(path, func(w io.Writer) error { return graphfile.WriteGML(w, p, opt) }))
	case formatDOT:
		return withPath(path, atomicfile.Write(path, func(w io.Writer) error { return graphfile.WriteDOT(w, p, opt) }))
	case formatSVG, formatPNG:
		var dot bytes.Buffer
		if err := graphfile.WriteDOT(&dot, p, opt); err != nil {
			return err
		}
		return renderGraphviz(dot.Bytes(), string(format), path)
	}
	return fmt.Errorf("unknown call-graph format %q", format)
}

// withPath makes sure an error of writing path names the file.
func withPath(path string, err error) error {
	if err == nil {
		return nil
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return err // already names the file
	}
	return fmt.Errorf("%s: %w", path, err)
}

// findGraphviz returns the path of the egprof-graphviz command: the one
// next to the running executable, else the one on PATH. The error wraps
// errNoGraphviz and says how to install it.
func findGraphviz() (string, error) {
	dir := ""
	if exe, err := os.Executable(); err == nil {
		if resolved, err := filepath.EvalSymlinks(exe); err == nil {
			exe = resolved
		}
		dir = filepath.Dir(exe)
	}
	return findGraphvizIn(dir)
}

// findGraphvizIn looks for egprof-graphviz in dir (unless dir is empty),
// then on PATH.
func findGraphvizIn(dir string) (string, error) {
	var looked []string
	if dir != "" {
		cand := filepath.Join(dir, graphvizCommand)
		if fi, err := os.Stat(cand); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return cand, nil
		}
		looked = append(looked, dir)
	}
	if path, err := exec.LookPath(graphvizCommand); err == nil {
		return path, nil
	}
	looked = append(looked, "PATH")
	return "", fmt.Errorf("%w (looked in %s); SVG and PNG need it, install it with: %s",
		errNoGraphviz, strings.Join(looked, " and "), graphvizInstall)
}

// renderGraphviz turns DOT into SVG or PNG (format "svg" or "png") by
// running the egprof-graphviz command, and writes the result to outPath
// atomically. egprof does not link graphviz itself: the WASM graphviz costs
// every start of a program that links it.
func renderGraphviz(dot []byte, format, outPath string) error {
	if format != string(formatSVG) && format != string(formatPNG) {
		return fmt.Errorf("graphviz output format %q: want svg or png", format)
	}
	tool, err := findGraphviz()
	if err != nil {
		return err
	}
	err = atomicfile.Write(outPath, func(w io.Writer) error {
		var stderr bytes.Buffer
		cmd := exec.Command(tool, "-T", format)
		cmd.Stdin = bytes.NewReader(dot)
		cmd.Stdout = w
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			msg := strings.TrimSpace(stderr.String())
			if i := strings.IndexByte(msg, '\n'); i >= 0 {
				msg = msg[:i]
			}
			if msg != "" {
				return fmt.Errorf("%s -T %s: %w: %s", tool, format, err, msg)
			}
			return fmt.Errorf("%s -T %s: %w", tool, format, err)
		}
		return nil
	})
	return withPath(outPath, err)
}
