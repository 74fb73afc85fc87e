// Package wire carries chart requests from egprof to the egprof-charts
// command and the drawn charts back, as gob streams, so that egprof itself
// does not link the plotting library (whose fonts cost every start).
package wire

import (
	"encoding/gob"
	"errors"
	"fmt"
	"io"

	"github.com/egprof/egprof/experiment"
	"github.com/egprof/egprof/ranks"
)

// Request asks for the charts of one analysis: exactly one of its fields
// is set.
type Request struct {
	Ranks      *ranks.Report
	Experiment *experiment.Result
}

// Chart is one drawn chart.
type Chart struct {
	// Name is the name of the chart's file, such as "heatmap.svg".
	Name string
	// SVG is the picture.
	SVG []byte
}

// errRequest is returned for a request that names no analysis or two.
var errRequest = errors.New("a chart request needs exactly one of a rank report and an experiment result")

// Check reports whether r names exactly one analysis.
func (r *Request) Check() error {
	if (r.Ranks == nil) == (r.Experiment == nil) {
		return errRequest
	}
	return nil
}

// WriteRequest encodes r to w.
func WriteRequest(w io.Writer, r *Request) error {
	if err := r.Check(); err != nil {
		return err
	}
	if err := gob.NewEncoder(w).Encode(r); err != nil {
		return fmt.Errorf("encoding the chart request: %w", err)
	}
	return nil
}

// ReadRequest decodes a request from rd.
func ReadRequest(rd io.Reader) (*Request, error) {
	var r Request
	if err := gob.NewDecoder(rd).Decode(&r); err != nil {
		return nil, fmt.Errorf("decoding the chart request: %w", err)
	}
	if err := r.Check(); err != nil {
		return nil, err
	}
	return &r, nil
}

// Reply is what the egprof-charts command sends back.
type Reply struct {
	// Charts are the drawn charts.
	Charts []Chart
	// Skipped says, one line each, which charts were not drawn and why.
	Skipped []string
}

// WriteReply encodes the drawn charts to w.
func WriteReply(w io.Writer, r *Reply) error {
	if err := gob.NewEncoder(w).Encode(r); err != nil {
		return fmt.Errorf("encoding the charts: %w", err)
	}
	return nil
}

// ReadReply decodes drawn charts from rd. A chart whose name is not a
// plain file name is refused: the names become files in the plot folder.
func ReadReply(rd io.Reader) (*Reply, error) {
	var r Reply
	if err := gob.NewDecoder(rd).Decode(&r); err != nil {
		return nil, fmt.Errorf("decoding the charts: %w", err)
	}
	for _, c := range r.Charts {
		if !plainName(c.Name) {
			return nil, fmt.Errorf("chart name %q is not a plain file name", c.Name)
		}
	}
	return &r, nil
}

// plainName reports whether name is a file name without a directory.
func plainName(name string) bool {
	if name == "" || name == "." || name == ".." {
		return false
	}
	for i := 0; i < len(name); i++ {
		if name[i] == '/' || name[i] == '\\' || name[i] == 0 {
			return false
		}
	}
	return true
}
