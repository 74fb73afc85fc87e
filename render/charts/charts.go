// Package charts draws the SVG charts of the rank analysis and of
// experiments, each to an io.Writer.
package charts

import (
	"io"
	"math"
)

// Chart is one chart, ready to draw.
type Chart struct {
	// Name is the name of the chart's file, such as "heatmap.svg".
	Name string
	// WriteSVG draws the chart and writes it to w as SVG.
	WriteSVG func(w io.Writer) error
}

// finite reports whether v is a number other than an infinity.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
