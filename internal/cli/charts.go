package cli

import (
	"github.com/egprof/egprof/internal/atomicfile"
	"os"
	"path/filepath"

	"github.com/egprof/egprof/render/charts"
)

// writeCharts writes each chart as an SVG file of its name in dir, which
// is created if needed, atomically, and returns the files' paths. An error
// names the file it is about.
func writeCharts(dir string, cs []charts.Chart) ([]string, error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	var files []string
	for _, c := range cs {
		path := filepath.Join(dir, c.Name)
		if err := atomicfile.Write(path, c.WriteSVG); err != nil {
			return files, withPath(path, err)
		}
		files = append(files, path)
	}
	return files, nil
}
