// Package wire carries chart requests from egprof to the egprof-charts
// command and the drawn charts back, in a compact binary form of their
// own (see codec.go), so that egprof itself does not link the plotting
// library (whose fonts cost every start), nor encoding/gob, whose
// initialisation alone costs a fifth of a millisecond at every start.
package wire

import (
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
	return write(w, requestSignature, r, "the chart request")
}

// ReadRequest decodes a request from rd.
func ReadRequest(rd io.Reader) (*Request, error) {
	var r Request
	if err := read(rd, requestSignature, &r, "the chart request"); err != nil {
		return nil, err
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
	return write(w, replySignature, r, "the charts")
}

// ReadReply decodes drawn charts from rd. A chart whose name is not a
// plain file name is refused: the names become files in the plot folder.
func ReadReply(rd io.Reader) (*Reply, error) {
	var r Reply
	if err := read(rd, replySignature, &r, "the charts"); err != nil {
		return nil, err
	}
	for _, c := range r.Charts {
		if !plainName(c.Name) {
			return nil, fmt.Errorf("chart name %q is not a plain file name", c.Name)
		}
	}
	return &r, nil
}

// The signatures of the two messages (8 bytes each).
const (
	requestSignature = "EGPCREQ\x00"
	replySignature   = "EGPCREP\x00"
)

// write encodes v (a *Request or *Reply) to w as a message with the given
// signature; what names the message in errors.
func write(w io.Writer, signature string, v any, what string) error {
	data, err := marshal(signature, v)
	if err == nil {
		_, err = w.Write(data)
	}
	if err != nil {
		return fmt.Errorf("encoding %s: %w", what, err)
	}
	return nil
}

// read decodes the message with the given signature that rd holds, up to
// its end, into v (a *Request or *Reply); what names the message in
// errors.
func read(rd io.Reader, signature string, v any, what string) error {
	data, err := io.ReadAll(rd)
	if err == nil {
		err = unmarshal(data, "message", signature, v)
	}
	if err != nil {
		return fmt.Errorf("decoding %s: %w", what, err)
	}
	return nil
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
