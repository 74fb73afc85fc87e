package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"

	"github.com/egprof/egprof/internal/atomicfile"
	"github.com/egprof/egprof/render/charts/wire"
)

// drawCharts has the egprof-charts command draw the charts of req.
func drawCharts(req *wire.Request) (*wire.Reply, error) {
	var in, out bytes.Buffer
	if err := wire.WriteRequest(&in, req); err != nil {
		return nil, err
	}
	if err := chartsHelper.run(nil, &in, &out); err != nil {
		return nil, err
	}
	return wire.ReadReply(&out)
}

// writeCharts writes each chart as an SVG file of its name in dir, which
// is created if needed, atomically, and returns the files' paths. An error
// names the file it is about.
func writeCharts(dir string, cs []wire.Chart) ([]string, error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	var files []string
	for _, c := range cs {
		path := filepath.Join(dir, c.Name)
		svg := c.SVG
		if err := atomicfile.Write(path, func(w io.Writer) error { _, err := w.Write(svg); return err }); err != nil {
			return files, withPath(path, err)
		}
		files = append(files, path)
	}
	return files, nil
}
