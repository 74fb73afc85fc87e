package cli

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/testenv"
)

// The programs of the browser test: a profile with cycles, and a build
// against its -O2 build.
const (
	cyclesProg      = "testdata/progs/cycles/prog"
	cyclesGmon      = "testdata/progs/cycles/gmon.out"
	recursionProg   = "testdata/progs/recursion/prog"
	recursionGmon   = "testdata/progs/recursion/gmon.out"
	recursionO2Prog = "testdata/progs/recursion-O2/prog"
	recursionO2Gmon = "testdata/progs/recursion-O2/gmon.out"
)

var (
	domRowRE  = regexp.MustCompile(`(?s)<tr class="(row|parent|primary|child)"[^>]*>(.*?)</tr>`)
	domCellRE = regexp.MustCompile(`(?s)<td[^>]*>(.*?)</td>`)
	domTagRE  = regexp.MustCompile(`<[^>]*>`)
)

// domRows reads the table rows of a dumped DOM: each row's class and the
// text of its cells.
func domRows(dom string) (classes []string, rows [][]string) {
	for _, m := range domRowRE.FindAllStringSubmatch(dom, -1) {
		var cells []string
		for _, c := range domCellRE.FindAllStringSubmatch(m[2], -1) {
			cells = append(cells, html.UnescapeString(domTagRE.ReplaceAllString(c[1], "")))
		}
		classes = append(classes, m[1])
		rows = append(rows, cells)
	}
	return classes, rows
}

// reportTable reads a table of a text report: the lines from skip lines
// after the first line starting with heading up to a blank line, each
// split into cells by parse. A missing or empty table fails the test.
func reportTable(t *testing.T, report, heading string, skip int, parse func(string) []string) [][]string {
	t.Helper()
	lines := strings.Split(report, "\n")
	var rows [][]string
	for i, l := range lines {
		if !strings.HasPrefix(l, heading) || i+skip > len(lines) {
			continue
		}
		for _, r := range lines[i+skip:] {
			if r == "" {
				break
			}
			rows = append(rows, parse(r))
		}
		break
	}
	require.NotEmpty(t, rows, "no table after %q in the report", heading)
	return rows
}

// submatches splits a line into re's groups, failing the test when it
// does not match.
func submatches(t *testing.T, re *regexp.Regexp) func(string) []string {
	return func(l string) []string {
		m := re.FindStringSubmatch(l)
		require.NotNil(t, m, "%q does not match %s", l, re)
		return m[1:]
	}
}

// domTable is the table of a dumped DOM with the given id attribute.
func domTable(t *testing.T, dom, id string) string {
	t.Helper()
	k := strings.Index(dom, `id="`+id+`"`)
	require.GreaterOrEqual(t, k, 0, "no table %s in the DOM", id)
	end := strings.Index(dom[k:], "</table>")
	require.GreaterOrEqual(t, end, 0, "table %s does not end", id)
	return dom[k : k+end]
}

// checkLoaded fails the test unless the page's script ran to its end
// without an error.
func checkLoaded(t *testing.T, dom string) {
	t.Helper()
	m := regexp.MustCompile(`<body[^>]*>`).FindString(dom)
	require.NotEmpty(t, m, "no body in the DOM")
	assert.Contains(t, m, `data-errors=""`, "the page's script reported errors")
	assert.Contains(t, m, `data-ready="1"`, "the page's script did not finish")
}

// TestHTMLOption checks --html's file: written with -P -Q alone (nothing
// on stdout), the text report unchanged by it, and a bad path an error of
// one line.
func TestHTMLOption(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "p.html")
	stdout, stderr, code := runArgs(t, "-b", "-P", "-Q", "--html="+page, cyclesProg, cyclesGmon)
	require.Equal(t, 0, code, stderr)
	assert.Empty(t, stdout)
	data, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(data), "<!DOCTYPE html>"))

	plain, _, _ := runArgs(t, "-b", cyclesProg, cyclesGmon)
	with, _, code := runArgs(t, "-b", "--html="+page, cyclesProg, cyclesGmon)
	assert.Equal(t, 0, code)
	assert.Equal(t, plain, with, "--html changes the report")

	// The rank analysis writes the page of the summed profile; the
	// options of the pruned call graph apply to the page's.
	for _, args := range [][]string{
		{"-P", "-Q", "--ranks", "--html=" + page, "testdata/progs/ranks/prog", "testdata/progs/ranks/gmon.out", "testdata/progs/ranks/gmon2.out"},
		{"-P", "-Q", "--node-thres=1", "--graph-top=5", "--html=" + page, recursionProg, recursionGmon, "--diff=" + recursionO2Gmon, "--diff-exe=" + recursionO2Prog},
	} {
		require.NoError(t, os.Remove(page))
		_, stderr, code := runArgs(t, args...)
		require.Equal(t, 0, code, "%q: %s", args, stderr)
		_, err := os.Stat(page)
		assert.NoError(t, err, "%q wrote no page", args)
	}

	_, stderr, code = runArgs(t, "-b", "--html="+filepath.Join(dir, "no", "such", "dir", "p.html"), cyclesProg, cyclesGmon)
	assert.Equal(t, 1, code)
	assert.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
	assert.Contains(t, stderr, "--html=")
}

// TestHTMLInBrowser loads each kind of page (single, differential, rank
// analysis) in headless Chromium and checks that its script runs without an
// error and that the numbers it shows equal those egprof's text report
// prints for the same command.
func TestHTMLInBrowser(t *testing.T) {
	browser := testenv.Browser(t)
	dir := t.TempDir()
	single := filepath.Join(dir, "single.html")
	diffPage := filepath.Join(dir, "diff.html")
	singleArgs := []string{cyclesProg, cyclesGmon}
	diffArgs := []string{recursionProg, recursionGmon, "--diff=" + recursionO2Gmon, "--diff-exe=" + recursionO2Prog}
	_, stderr, code := runArgs(t, append([]string{"-P", "-Q", "--html=" + single}, singleArgs...)...)
	require.Equal(t, 0, code, stderr)
	_, stderr, code = runArgs(t, append([]string{"-P", "-Q", "--html=" + diffPage}, diffArgs...)...)
	require.Equal(t, 0, code, stderr)
	// A program built with -g, for -l and -A.
	linesArgs := []string{"testdata/progs/multifile/prog", "testdata/progs/multifile/gmon.out"}
	rankPage := filepath.Join(dir, "ranks.html")
	rankReport, stderr, code := runArgs(t, "-b", "-P", "-Q", "--html="+rankPage,
		"--ranks", "testdata/progs/ranks/prog", "testdata/progs/ranks/gmon.out", "testdata/progs/ranks/gmon2.out")
	require.Equal(t, 0, code, stderr)

	t.Run("flat", func(t *testing.T) {
		t.Parallel()
		dom := testenv.DumpDOM(t, browser, single, "flat")
		checkLoaded(t, dom)
		report, _, _ := runArgs(t, append([]string{"-b", "-p"}, singleArgs...)...)
		want, err := testenv.ParseFlat(report)
		require.NoError(t, err)
		_, rows := domRows(dom)
		// The page renders the rows in view: at 900 pixels, more than 14.
		require.Len(t, rows, len(want)+0, "rows in the DOM")
		for k, w := range want {
			r := rows[k]
			require.Len(t, r, 7, "row %d", k)
			assert.Equal(t, w.Name, r[6], "row %d", k)
			for _, c := range []struct {
				got  string
				want float64
			}{{r[0], w.Percent}, {r[1], w.Cumulative}, {r[2], w.Self}} {
				assert.Equal(t, fixed2(c.want), c.got, "%s", w.Name)
			}
			if w.HasCalls {
				assert.Equal(t, []string{uitoa(w.Calls), fixed2(w.SelfPerCall), fixed2(w.TotalPerCall)}, r[3:6], "%s", w.Name)
			} else {
				assert.Equal(t, []string{"", "", ""}, r[3:6], "%s", w.Name)
			}
		}
	})
	t.Run("callgraph", func(t *testing.T) {
		t.Parallel()
		report, _, _ := runArgs(t, append([]string{"-b", "-q"}, singleArgs...)...)
		entries, err := testenv.ParseCallGraph(report)
		require.NoError(t, err)
		// burn [1], with callers in cycles, and a member of a cycle.
		for _, index := range []int{1, 3} {
			var want testenv.CallGraphEntry
			for _, e := range entries {
				if e.Index == index {
					want = e
				}
			}
			require.Equal(t, index, want.Index, "no entry [%d] in the report", index)
			dom := testenv.DumpDOM(t, browser, single, "cg="+uitoa(uint64(index)))
			checkLoaded(t, dom)
			classes, rows := domRows(dom)
			var parents, children [][]string
			var primary []string
			for k, cl := range classes {
				switch cl {
				case "parent":
					if rows[k][5] != "<spontaneous>" {
						parents = append(parents, rows[k])
					}
				case "child":
					children = append(children, rows[k])
				case "primary":
					primary = rows[k]
				}
			}
			require.NotNil(t, primary, "[%d]: no primary line", index)
			assert.Equal(t, []string{"[" + uitoa(uint64(index)) + "]", fixed1(want.Percent), fixed2(want.Self), fixed2(want.Children), want.Called}, primary[:5])
			assert.True(t, strings.HasPrefix(primary[5], want.Name+" "), "%q", primary[5])
			require.Len(t, parents, len(want.Callers), "[%d] callers", index)
			require.Len(t, children, len(want.Callees), "[%d] callees", index)
			check := func(ln testenv.CallGraphLine, r []string) {
				assert.True(t, strings.HasPrefix(r[5], ln.Name+" "), "%q against %q", r[5], ln.Name)
				called := uitoa(ln.Count)
				if ln.HasTotal {
					called += "/" + uitoa(ln.Total)
				}
				assert.Equal(t, called, r[4], "%s", ln.Name)
				if ln.HasTimes {
					assert.Equal(t, []string{fixed2(ln.Self), fixed2(ln.Children)}, r[2:4], "%s", ln.Name)
				}
			}
			for k, ln := range want.Callers {
				check(ln, parents[k])
			}
			for k, ln := range want.Callees {
				check(ln, children[k])
			}
		}
	})
	t.Run("lines", func(t *testing.T) {
		t.Parallel()
		// -l: the line-by-line flat profile, cell for cell as the report
		// prints it (a line's name has spaces).
		page := filepath.Join(t.TempDir(), "lines.html")
		_, stderr, code := runArgs(t, append([]string{"-P", "-Q", "-l", "--html=" + page}, linesArgs...)...)
		require.Equal(t, 0, code, stderr)
		report, _, _ := runArgs(t, append([]string{"-b", "-l", "-p"}, linesArgs...)...)
		row := regexp.MustCompile(`^\s*(\S+)\s+(\S+)\s+(\S+)\s+(?:(\d+)\s+(\S+)\s+(\S+)\s+)?(\S.*)$`)
		want := reportTable(t, report, " time   seconds", 1, submatches(t, row))
		dom := testenv.DumpDOM(t, browser, page, "lines")
		checkLoaded(t, dom)
		assert.NotContains(t, dom, `id="tabbtn-flat"`, "a Flat profile tab next to Lines")
		_, rows := domRows(dom)
		require.Len(t, rows, len(want), "rows in the DOM")
		for k, w := range want {
			assert.Equal(t, w, rows[k], "row %d", k)
			assert.Contains(t, w[6], ".c:", "row %d names no line", k)
		}
		// With -A too, each line links to its file's line on the Source
		// tab, which shows it marked.
		_, stderr, code = runArgs(t, append([]string{"-P", "-Q", "-l", "-A", "--html=" + page}, linesArgs...)...)
		require.Equal(t, 0, code, stderr)
		dom = testenv.DumpDOM(t, browser, page, "lines")
		checkLoaded(t, dom)
		report, _, _ = runArgs(t, append([]string{"-b", "-A"}, linesArgs...)...)
		files := annotatedFiles(report)
		links := regexp.MustCompile(`<a href="#source=(\d+):(\d+)"[^>]*>([^<]*)</a>`).FindAllStringSubmatch(dom, -1)
		require.Len(t, links, len(want), "links to the source")
		at := regexp.MustCompile(`\(([^ ]+):(\d+) @ [0-9a-f]+\)$`)
		for k, l := range links {
			name := html.UnescapeString(l[3])
			assert.Equal(t, want[k][6], name)
			m := at.FindStringSubmatch(name)
			require.NotNil(t, m, "%q", name)
			file, err := strconv.Atoi(l[1])
			require.NoError(t, err)
			require.Less(t, file, len(files))
			assert.True(t, strings.HasSuffix(files[file].name, "/"+m[1]), "%s links to %s", name, files[file].name)
			assert.Equal(t, m[2], l[2], "%s", name)
		}
		// The Source tab's seconds of each line are the Lines rows' at it.
		self := map[string]string{}
		for _, w := range want {
			m := at.FindStringSubmatch(w[6])
			require.NotNil(t, m, "%q", w[6])
			if key := m[1] + ":" + m[2]; w[2] != "0.00" {
				if self[key] != "" {
					self[key] += "+"
				}
				self[key] += w[2]
			}
		}
		seen := 0
		for k, f := range files {
			dom := testenv.DumpDOM(t, browser, page, "source="+strconv.Itoa(k))
			checkLoaded(t, dom)
			_, rows := domRows(dom)
			require.Len(t, rows, len(f.lines), "%s: lines in the DOM", f.name)
			for i, r := range rows {
				require.Len(t, r, 4, "%s line %d", f.name, i+1)
				key := f.name[strings.LastIndexByte(f.name, '/')+1:] + ":" + strconv.Itoa(i+1)
				assert.Equal(t, self[key], r[2], "%s seconds", key)
				if r[2] != "" {
					seen++
				}
			}
		}
		assert.Equal(t, len(self), seen, "lines with seconds")
		dom = testenv.DumpDOM(t, browser, page, "source="+links[0][1]+":"+links[0][2])
		checkLoaded(t, dom)
		hit := regexp.MustCompile(`<tr class="row hit"[^>]*><td[^>]*>(\d+)</td>`).FindAllStringSubmatch(dom, -1)
		require.Len(t, hit, 1, "marked lines")
		assert.Equal(t, links[0][2], hit[0][1])
	})
	t.Run("source", func(t *testing.T) {
		t.Parallel()
		// -A: each file's lines and the count in front of each, as the
		// report prints them.
		page := filepath.Join(t.TempDir(), "source.html")
		_, stderr, code := runArgs(t, append([]string{"-P", "-Q", "-A", "--html=" + page}, linesArgs...)...)
		require.Equal(t, 0, code, stderr)
		report, _, _ := runArgs(t, append([]string{"-b", "-A"}, linesArgs...)...)
		files := annotatedFiles(report)
		require.Len(t, files, 3, "files in the report")
		for k, f := range files {
			dom := testenv.DumpDOM(t, browser, page, "source="+strconv.Itoa(k))
			checkLoaded(t, dom)
			assert.Contains(t, dom, ">"+html.EscapeString(f.name)+"</option>")
			_, rows := domRows(dom)
			require.Len(t, rows, len(f.lines), "%s: lines in the DOM", f.name)
			counted := 0
			for i, l := range f.lines {
				count := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(l[:16]), "->"))
				if count != "" {
					counted++
				}
				assert.Equal(t, []string{strconv.Itoa(i + 1), count, l[16:]}, rows[i], "%s line %d", f.name, i+1)
			}
			assert.NotZero(t, counted, "%s: no counts", f.name)
		}
	})
	t.Run("flame", func(t *testing.T) {
		t.Parallel()
		dom := testenv.DumpDOM(t, browser, single, "flame")
		checkLoaded(t, dom)
		assert.Contains(t, dom, "<canvas")
	})
	t.Run("impact", func(t *testing.T) {
		t.Parallel()
		dom := testenv.DumpDOM(t, browser, diffPage, "impact")
		checkLoaded(t, dom)
		report, _, _ := runArgs(t, append([]string{"-b", "--impact", "-Q"}, diffArgs...)...)
		var want [][]string
		for _, l := range strings.Split(report, "\n") {
			if f := strings.Fields(l); len(f) >= 9 && regexp.MustCompile(`^-?\d+\.\d\d$`).MatchString(f[0]) {
				want = append(want, f)
			}
		}
		require.NotEmpty(t, want)
		_, rows := domRows(dom)
		require.Len(t, rows, len(want))
		for k, w := range want {
			r := rows[k]
			require.Len(t, r, 9)
			noise := w[len(w)-1] == "~"
			if noise {
				w = w[:len(w)-1]
			}
			assert.Equal(t, w[:8], r[:8], "row %d", k)
			name := strings.Join(w[8:], " ")
			if noise {
				name += "~" // the mark, a span after the name
			}
			assert.Equal(t, name, r[8], "row %d", k)
		}
	})
	t.Run("ranks", func(t *testing.T) {
		t.Parallel()
		// The report's table of code regions.
		row := regexp.MustCompile(`^\s*(\S+)\s+(\S+)\s+(\S+)\s+(\S+%)\s+(.*?)\s+(\d+)\s+(\S+)\s+(\S.*)$`)
		want := reportTable(t, rankReport, "Code regions, most costly imbalance", 3, submatches(t, row))
		dom := testenv.DumpDOM(t, browser, rankPage, "ranks")
		checkLoaded(t, dom)
		assert.Contains(t, dom, `id="rank-heatmap"`)
		_, rows := domRows(dom)
		require.Len(t, rows, len(want))
		for k, w := range want {
			assert.Equal(t, w, rows[k], "region row %d", k)
		}
	})
	t.Run("rank-activities", func(t *testing.T) {
		t.Parallel()
		// The report's table of activities (heaviest and lightest region
		// apart by two spaces or more) and its matrix of regions by
		// activities (names without spaces here).
		act := regexp.MustCompile(`^(\S+(?: \*)?)\s+(\S+)\s+(\S+%)\s+(\S+)\s+(\S+)\s+(\d+)\s+(\S.*?)\s{2,}(\S.*)$`)
		activities := reportTable(t, rankReport, "Activities, most costly imbalance", 3, submatches(t, act))
		matrix := reportTable(t, rankReport, "index of dispersion over the ranks (ID_ij", 4, strings.Fields)
		dom := testenv.DumpDOM(t, browser, rankPage, "activities")
		checkLoaded(t, dom)
		for _, c := range []struct {
			id   string
			want [][]string
		}{{"rank-activities", activities}, {"rank-matrix", matrix}} {
			_, rows := domRows(domTable(t, dom, c.id))
			require.Len(t, rows, len(c.want), c.id)
			for k, w := range c.want {
				assert.Equal(t, w, rows[k], "%s row %d", c.id, k)
			}
		}
		dom = testenv.DumpDOM(t, browser, rankPage, "rankchart")
		checkLoaded(t, dom)
		assert.Contains(t, dom, `id="rank-chart"`)
		_, rows := domRows(domTable(t, dom, "rank-clusters"))
		assert.Equal(t, [][]string{{"1", "2", "0-1", ""}}, rows, "the report's one cluster of ranks")
		spread := reportTable(t, rankReport, "Spread of the ranks' times", 3, strings.Fields)
		_, rows = domRows(domTable(t, dom, "rank-spread"))
		require.Len(t, rows, len(spread), "spread rows")
		for k, w := range spread {
			// (a name and its mark ~ are one cell on the page)
			assert.Equal(t, w, strings.Fields(strings.Join(rows[k], " ")), "spread row %d", k)
		}
	})
	t.Run("experiment", func(t *testing.T) {
		t.Parallel()
		// A table of the checked-in profiles with SCALA's columns and a
		// build to compare, and runs of one program.
		table := []string{"--experiment=testdata/experiment/scala.tsv", "--compare-dim=build", "--over=work"}
		runs := []string{"--runs", "testdata/progs/ranks/prog", "testdata/progs/ranks/gmon.out", "testdata/progs/ranks/gmon2.out"}
		textOf := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
		for _, args := range [][]string{table, runs} {
			page := filepath.Join(t.TempDir(), "experiment.html")
			report, stderr, code := runArgs(t, append([]string{"-b", "--html=" + page}, args...)...)
			require.Equal(t, 0, code, stderr)
			// The page's cells, split at spaces as the report's line.
			fields := func(row []string) []string { return strings.Fields(strings.Join(row, " ")) }
			// The PERDAC table renders the rows in view, 40 or more at
			// 900 pixels.
			want := reportTable(t, report, "function ", 1, strings.Fields)
			dom := testenv.DumpDOM(t, browser, page, "perdac1")
			checkLoaded(t, dom)
			_, rows := domRows(domTable(t, dom, "exp-perdac1-perdac"))
			require.GreaterOrEqual(t, len(rows), min(len(want), 40), "%q: PERDAC rows in the DOM", args)
			require.LessOrEqual(t, len(rows), len(want), "%q: PERDAC rows in the DOM", args)
			for k, r := range rows {
				assert.Equal(t, want[k], fields(r), "%q: PERDAC row %d", args, k)
			}
			if args[0] != table[0] {
				continue
			}
			dom = testenv.DumpDOM(t, browser, page, "scala1")
			checkLoaded(t, dom)
			assert.Contains(t, dom, `class="chart"`)
			for _, c := range []struct{ id, heading string }{
				{"exp-scala1-psi", "psi(p, p')   p'="},
				{"exp-scala1-functions", "function  time s"},
			} {
				want := reportTable(t, report, c.heading, 1, strings.Fields)
				_, rows := domRows(domTable(t, dom, c.id))
				require.Len(t, rows, len(want), c.id)
				for k, r := range rows {
					assert.Equal(t, want[k], fields(r), "%s row %d", c.id, k)
				}
			}
			dom = testenv.DumpDOM(t, browser, page, "ranges1")
			checkLoaded(t, dom)
			want = reportTable(t, report, "p'  Phi(p,p')", 1, strings.Fields)
			_, rows = domRows(domTable(t, dom, "exp-ranges1-steps"))
			require.Len(t, rows, len(want), "range steps")
			for k, r := range rows {
				assert.Equal(t, want[k], fields(r), "range step %d", k)
			}
			for _, l := range strings.Split(report, "\n") {
				if strings.HasPrefix(l, "smallest scaled crossing point:") || strings.HasPrefix(l, "initial state:") {
					assert.Contains(t, dom, textOf.Replace(l))
				}
			}
		}
	})
	t.Run("diff-flame-graph", func(t *testing.T) {
		t.Parallel()
		for _, tab := range []string{"flame", "graph"} {
			dom := testenv.DumpDOM(t, browser, diffPage, tab)
			checkLoaded(t, dom)
		}
	})
}

// annotatedFile is one file of an -A listing: its name and its lines,
// each with the 16 columns of its count in front.
type annotatedFile struct {
	name  string
	lines []string
}

// annotatedFiles reads the files of a brief -A listing: each from its
// "*** File NAME:" line to the blank line before its summary.
func annotatedFiles(report string) []annotatedFile {
	var files []annotatedFile
	in := false
	for _, l := range strings.Split(report, "\n") {
		switch {
		case strings.HasPrefix(l, "*** File ") && strings.HasSuffix(l, ":"):
			files = append(files, annotatedFile{name: strings.TrimSuffix(strings.TrimPrefix(l, "*** File "), ":")})
			in = true
		case l == "":
			in = false
		case in:
			files[len(files)-1].lines = append(files[len(files)-1].lines, l)
		}
	}
	return files
}

func fixed2(v float64) string { return strconvFixed(v, 2) }
func fixed1(v float64) string { return strconvFixed(v, 1) }

// strconvFixed formats a number read from the report back as the report
// printed it.
func strconvFixed(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }

func uitoa(v uint64) string { return strconv.FormatUint(v, 10) }
