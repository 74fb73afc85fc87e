package cli

import (
	"fmt"
	"io"

	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/internal/atomicfile"
	"github.com/egprof/egprof/ranks"
	"github.com/egprof/egprof/render"
	"github.com/egprof/egprof/render/html"
)

// writeHTML writes --html's page of d atomically: a single profile's, or
// with dt (the differential report's renderer, which knows the impact
// table's rows and noise marks) a differential profile's with the pruned
// call graph the SVG would draw; scaling says how its sides compare. A
// rank analysis's report adds its tab to a single profile's page, and lines
// the Lines and Source tabs (-l, -A).
func (c *config) writeHTML(d *diff.Profile, dt *render.DiffText, scaling string, rep *ranks.Report, lines htmlLines, stderr io.Writer) int {
	if c.ext.html == "" {
		return 0
	}
	image := c.image
	if c.ext.diffExe != "" {
		image = c.ext.diffExe
	}
	opt := html.Options{
		Naming:    c.textOptions().Naming(),
		Command:   c.argv,
		Plus:      html.Side{Exe: c.image, Files: c.gmonFiles},
		ShowZeros: c.showZeros,
		NoiseOff:  c.ext.noiseOff,
		Ranks:     rep,
		RankTop:   c.ext.rank.top,
		LineNames: lines.names,
		LineLocs:  lines.locs,
		Sources:   lines.sources,
	}
	if d.IsDiff() && dt != nil {
		opt.Minus = html.Side{Exe: image, Files: c.ext.diffFiles}
		opt.ImpactRows = dt.ImpactRows()
		opt.WithinNoise = dt.WithinNoise
		opt.Scaling = scaling
		sel, err := c.graphSelection(d)
		if err != nil {
			fmt.Fprintf(stderr, "%s: --html=%s: %v\n", c.argv0, c.ext.html, err)
			return 1
		}
		g := d.SelectGraph(c.pictureSelection(sel))
		opt.Graph = &g
	}
	err := atomicfile.Write(c.ext.html, func(w io.Writer) error {
		_, err := html.Write(w, d, opt)
		return err
	})
	if err != nil {
		fmt.Fprintf(stderr, "%s: --html=%s: %v\n", c.argv0, c.ext.html, err)
		return 1
	}
	return 0
}
