// Package html writes one self-contained HTML page to explore a profile, a differential profile, an MPI job's ranks or an experiment.
package html

// The page is one file: its style and script are embedded in the binary
// (assets/) and written inline, and its data is one JSON blob in a
// <script type="application/json"> element that the script reads. The
// script is plain DOM, canvas and SVG code written for this page (a table
// that renders only the rows in view, an icicle chart on a canvas, a
// layered call graph in SVG): the libraries that do these jobs (d3,
// speedscope, ag-grid) weigh more than the page's whole script and would
// have to be adapted to gprof's numbers anyway.
//
// Every number the page shows is formatted here, in Go, the way egprof's
// text report formats it (render.Fixed), so that the page and the report
// print the same digits; the script only sorts, filters and draws.

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/ranks"
	"github.com/egprof/egprof/render"
	"github.com/egprof/egprof/stacks"
	"github.com/egprof/egprof/symtab"
)

//go:embed assets/page.css assets/page.js
var assets embed.FS

// DefaultMaxFlameNodes is how many frames the flame graph keeps at most
// when Options.MaxFlameNodes is 0: the heaviest ones (see Options). At
// about 40 bytes a frame it bounds the flame graph's share of the page
// to 2 MB, and a canvas redraws that many in a few milliseconds.
const DefaultMaxFlameNodes = 50000

// Side names one side of the page's profile: its executable and the
// profile files summed into it.
type Side struct {
	Exe   string
	Files []string
}

// Options say what the page shows and how.
type Options struct {
	// Naming spells the functions' names, as in egprof's other outputs.
	Naming symtab.Naming
	// Command is the command line that made the page, shown in its
	// header.
	Command []string
	// Plus is the profile (a differential profile's '+' side); Minus is
	// the '-' side of a differential profile.
	Plus, Minus Side
	// ShowZeros lists functions without time or calls too (gprof's -z).
	ShowZeros bool
	// Stacks are the bounds of the stack synthesis behind the flame
	// graph (as for the pprof export).
	Stacks stacks.Options
	// MaxFlameNodes bounds the flame graph: when the synthesised stacks
	// make more frames than this, only the heaviest are kept (a frame's
	// weight is its time on both sides, so every kept frame's callers
	// are kept too) and the page says how much was left out. 0 means
	// DefaultMaxFlameNodes.
	MaxFlameNodes int

	// LineNames, when set (-l), are the names the text report's
	// line-by-line flat profile prints, by call-graph entry
	// (render.Text.FlatName): the page shows the flat profile's rows under
	// them on a Lines tab instead of a Flat profile tab.
	LineNames []string
	// LineLocs are where those lines are, by entry as LineNames: a line
	// in one of Sources links to it.
	LineLocs []symtab.SourceLoc
	// Sources, when set (-A), are the annotated source files as the text
	// report prints them (render.AnnotatedFiles): the page shows them on
	// a Source tab. The command reads the files; the page only lays out
	// their text.
	Sources []render.AnnotatedFile

	// Ranks, when set, adds the rank analysis of an MPI job to a single
	// page (of its summed profile): the code regions with their indices
	// and a heatmap of the ranks' times in the most imbalanced ones; the
	// activities, the matrix of the top regions by the activities and the
	// clusters of regions; a chart of each rank's time in the top regions
	// and the clusters of ranks.
	Ranks *ranks.Report
	// RankTop is how many regions the text report lists in detail
	// (--rank-top; ranks.DefaultTop when 0): the page's spread table
	// lists as many.
	RankTop int

	// The differential page only.

	// ImpactRows are the functions the impact table lists, in its order
	// (render.DiffText.ImpactRows), and WithinNoise marks those whose
	// self delta is within sampling noise (render.DiffText.WithinNoise);
	// NoiseOff greys nothing in the flame graph (--noise=off).
	ImpactRows  []int
	WithinNoise func(i int) bool
	NoiseOff    bool
	// Scaling says how the two sides were made comparable.
	Scaling string
	// Graph, when set, is the pruned differential call graph to draw
	// (diff.Profile.SelectGraph).
	Graph *diff.GraphSelection
}

// Stats describe the page written.
type Stats struct {
	// FlameNodes is the number of flame-graph frames written, FlameLeft
	// the number left out by MaxFlameNodes.
	FlameNodes, FlameLeft int
	// DataBytes is the size of the page's JSON data.
	DataBytes int
}

// Write writes the page of d: the single-profile page (flat profile, call
// graph, flame graph) when d has no '-' side, else the differential page
// (impact table, differential flame graph, pruned call graph).
func Write(w io.Writer, d *diff.Profile, opt Options) (Stats, error) {
	if d == nil || d.Plus == nil {
		return Stats{}, errors.New("html page: no profile")
	}
	if opt.MaxFlameNodes <= 0 {
		opt.MaxFlameNodes = DefaultMaxFlameNodes
	}
	var (
		p   *page
		st  Stats
		err error
	)
	if d.IsDiff() {
		p, st, err = diffPage(d, opt)
	} else {
		p, st, err = singlePage(d, opt)
	}
	if err != nil {
		return st, fmt.Errorf("html page: %w", err)
	}
	data, err := json.Marshal(p)
	if err != nil {
		return st, fmt.Errorf("html page: %w", err)
	}
	st.DataBytes = len(data)
	if err := writePage(w, p.Title, data); err != nil {
		return st, fmt.Errorf("html page: %w", err)
	}
	return st, nil
}

// page is the data the script reads. Rows are arrays, not objects, to
// keep the blob small: a 20,000-function profile has 100,000 arcs.
type page struct {
	Kind    string     `json:"kind"` // "single", "diff" or "experiment"
	Title   string     `json:"title"`
	Command string     `json:"command"`
	Sides   []sideJSON `json:"sides"`
	Notes   []string   `json:"notes,omitempty"`
	// Names are the functions' names by id: a single page's ids are call
	// graph entries (cycles included), a differential page's are
	// diff.Profile functions.
	Names  []string     `json:"names"`
	Flat   *flatJSON    `json:"flat,omitempty"`
	Lines  *flatJSON    `json:"lines,omitempty"`
	Source []sourceJSON `json:"source,omitempty"`
	CG     *cgJSON      `json:"cg,omitempty"`
	Impact *impactJSON  `json:"impact,omitempty"`
	Flame  *flameJSON   `json:"flame,omitempty"`
	Graph  *diffGraphJS `json:"graph,omitempty"`
	Ranks  *ranksJSON   `json:"ranks,omitempty"`
	// Experiment is an experiment page's analysis (kind "experiment").
	Experiment *experimentJSON `json:"experiment,omitempty"`
}

type sideJSON struct {
	Sign string `json:"sign"` // "", "+" or "-"
	Exe  string `json:"exe"`
	// Files are the first of the side's profiles and its last (at most
	// sideFilesShown in all), Count how many there are: an MPI job has
	// thousands.
	Files   []string `json:"files"`
	Count   int      `json:"count"`
	Seconds string   `json:"seconds"` // total time, as the report prints it
	HZ      uint32   `json:"hz"`
}

// writePage writes the HTML around the data. "</" cannot end the data's
// script element early: json.Marshal escapes '<' and '>'.
func writePage(w io.Writer, title string, data []byte) error {
	css, err := assets.ReadFile("assets/page.css")
	if err != nil {
		return err
	}
	js, err := assets.ReadFile("assets/page.js")
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.Grow(len(data) + len(css) + len(js) + 1024)
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	// No request leaves the page: scripts and styles are inline, nothing
	// is fetched.
	b.WriteString("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n")
	b.WriteString("<title>" + escape(title) + "</title>\n<style>\n")
	b.Write(css)
	b.WriteString("</style>\n</head>\n<body data-errors=\"\">\n")
	// Errors are recorded in the DOM first, so that a headless browser's
	// dump of it shows them.
	b.WriteString("<script>window.addEventListener('error',function(e){var b=document.body;" +
		"b.dataset.errors=(b.dataset.errors?b.dataset.errors+'\\n':'')+(e.message||'error')+' at '+(e.lineno||0)+':'+(e.colno||0);});</script>\n")
	b.WriteString("<noscript>This page needs JavaScript.</noscript>\n")
	b.WriteString("<script type=\"application/json\" id=\"egprof-data\">")
	b.Write(data)
	b.WriteString("</script>\n<script>\n")
	b.Write(js)
	b.WriteString("</script>\n</body>\n</html>\n")
	_, err = w.Write(b.Bytes())
	return err
}

// escape escapes text for HTML.
func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// secs formats seconds as the report does (two decimals).
func secs(v float64) string { return render.Fixed(v, 2) }

// title is the page's title: the executable's name.
func title(kind string, opt Options) string {
	name := func(p string) string {
		if k := strings.LastIndexByte(p, '/'); k >= 0 {
			return p[k+1:]
		}
		return p
	}
	if kind == "diff" {
		plus, minus := name(opt.Plus.Exe), name(opt.Minus.Exe)
		if opt.Plus.Exe == opt.Minus.Exe {
			// One executable: the profiles tell the sides apart.
			return "egprof: " + plus + ", " + files(opt.Plus.Files) + " minus " + files(opt.Minus.Files)
		}
		if plus == minus {
			// Two builds of one name: their directories tell them apart.
			plus, minus = lastTwo(opt.Plus.Exe), lastTwo(opt.Minus.Exe)
		}
		return "egprof: " + plus + " minus " + minus
	}
	return "egprof: " + name(opt.Plus.Exe)
}

// files names a side's profiles in a title: the first one's base name,
// and how many more.
func files(list []string) string {
	switch len(list) {
	case 0:
		return "nothing"
	case 1:
		return path.Base(list[0])
	}
	return fmt.Sprintf("%s and %d more", path.Base(list[0]), len(list)-1)
}

// lastTwo is a path's last two elements.
func lastTwo(p string) string {
	parts := strings.Split(p, "/")
	if len(parts) < 2 {
		return p
	}
	return strings.Join(parts[len(parts)-2:], "/")
}

// sideFilesShown is how many of a side's profile files the header names,
// and commandShown how many words of the command line.
const (
	sideFilesShown = 6
	commandShown   = 16
)

// shortList is list when it has at most n elements, else its first n-1
// and its last.
func shortList(list []string, n int) []string {
	if len(list) <= n {
		return append([]string{}, list...)
	}
	return append(append([]string{}, list[:n-1]...), list[len(list)-1])
}

// commandLine spells the command line with shell quoting where needed; a
// long one (thousands of rank files) keeps its first words and its last,
// and says how many it leaves out.
func commandLine(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=,:+@%", r))
		}) < 0 {
			out[i] = a
			continue
		}
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	if len(out) > commandShown {
		left := len(out) - (commandShown - 1)
		out = append(out[:commandShown-2:commandShown-2], fmt.Sprintf("... (%d more) ...", left), out[len(out)-1])
	}
	return strings.Join(out, " ")
}

// graphSide describes a side of the profile for the header; seconds is
// the side's total (diff.Profile's PlusTotal or MinusTotal).
func graphSide(sign string, s Side, g *callgraph.Graph, seconds float64) sideJSON {
	sd := sideJSON{Sign: sign, Exe: s.Exe, Files: shortList(s.Files, sideFilesShown), Count: len(s.Files)}
	if g != nil {
		sd.HZ = g.HZ
		sd.Seconds = secs(seconds)
	}
	return sd
}

// itoa formats a count.
func itoa(v uint64) string { return strconv.FormatUint(v, 10) }
