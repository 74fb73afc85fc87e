package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

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

// renderGraphviz turns DOT into SVG or PNG (format "svg" or "png") by
// running the egprof-graphviz command, and writes the result to outPath
// atomically. egprof does not link graphviz itself: the WASM graphviz costs
// every start of a program that links it.
func renderGraphviz(dot []byte, format, outPath string) error {
	if format != string(formatSVG) && format != string(formatPNG) {
		return fmt.Errorf("graphviz output format %q: want svg or png", format)
	}
	// Looked for first, so that a missing helper leaves outPath alone.
	tool, err := graphvizHelper.find()
	if err != nil {
		return err
	}
	err = atomicfile.Write(outPath, func(w io.Writer) error {
		return graphvizHelper.runAt(tool, []string{"-T", format}, bytes.NewReader(dot), w)
	})
	return withPath(outPath, err)
}
