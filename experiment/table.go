// Package experiment analyses many profiles as one experiment: PERDAC statistics over any dimension and SCALA isospeed scalability across process counts.
package experiment

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/egprof/egprof/ranks"
)

// Dimension is a named column of the experiment table other than gmon and
// binary: a library, a block size, a process count, a rank...
type Dimension struct {
	Name string
	// Numeric reports that every value parses as a number; the values are
	// then in ascending numeric order, otherwise in order of first
	// appearance.
	Numeric bool
	Values  []string
	Nums    []float64 // parallel to Values when Numeric
	// Implicit marks the rank dimension added for rows whose gmon cell is
	// a glob pattern, when the table has no column of that name.
	Implicit bool
}

// Index returns the position of value v, or -1.
func (d *Dimension) Index(v string) int {
	return slices.Index(d.Values, v)
}

// Row is one profile of the experiment.
type Row struct {
	// Line is the row's line in the table (its position on the command
	// line for --runs).
	Line int
	// Gmon is the profile's path, resolved against the table's folder.
	Gmon string
	// Binary is the executable's path, resolved against the table's
	// folder, or the executable given on the command line.
	Binary string
	// Values holds, for each dimension, the index of this row's value in
	// Dimension.Values.
	Values []int
}

// Experiment is a validated experiment table: its dimensions and one row
// per profile, every file known to exist and every row telling itself
// apart from the others by its dimension values.
type Experiment struct {
	// File is the table's path; empty for the --runs quick form.
	File string
	Dims []Dimension
	Rows []Row
	// Columns are the table's column names (header order); GmonColumn and
	// BinaryColumn are 1-based positions in it, 0 when absent.
	Columns                  []string
	GmonColumn, BinaryColumn int
	// dimColumn is the 1-based column of each dimension (0 if implicit).
	dimColumn []int
}

// Dim returns the index of the dimension called name, or -1.
func (e *Experiment) Dim(name string) int {
	for i := range e.Dims {
		if e.Dims[i].Name == name {
			return i
		}
	}
	return -1
}

// Value returns row r's value of dimension d.
func (e *Experiment) Value(r, d int) string {
	return e.Dims[d].Values[e.Rows[r].Values[d]]
}

// TableError is a problem of the experiment, located in its table.
type TableError struct {
	File   string // the table; empty for the --runs quick form
	Line   int    // 1-based; 0 when no one line is concerned
	Column int    // 1-based column; 0 when the whole row is concerned
	Name   string // the column's name
	Err    error
}

func (e *TableError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	}
	if e.Column > 0 {
		fmt.Fprintf(&b, "column %d (%s): ", e.Column, e.Name)
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *TableError) Unwrap() error { return e.Err }

// TableOptions control how a table is read.
type TableOptions struct {
	// Binary is the executable of rows that name none (the command
	// line's); relative to the current directory.
	Binary string
	// RankDim names the dimension that tells apart the files a glob
	// pattern expands to ("rank" if empty).
	RankDim string
}

// globMeta are the characters that make a gmon cell a pattern.
const globMeta = "*?["

// ReadTable reads and validates an experiment table: TSV when its header
// holds a tab, CSV otherwise; a header row naming the columns; a gmon
// column (globs expand to one row per file, told apart by the rank
// dimension); an optional binary column; every other column a dimension.
// Empty lines and lines starting with '#' are skipped. Relative paths are
// relative to the table's folder. Every file must exist and no two rows
// may have the same dimension values.
func ReadTable(path string, opt TableOptions) (*Experiment, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &TableError{File: path, Err: fmt.Errorf("cannot read the experiment table: %w", err)}
	}
	return parseTable(path, data, opt)
}

// parseTable is ReadTable on the table's contents.
func parseTable(path string, data []byte, opt TableOptions) (*Experiment, error) {
	if opt.RankDim == "" {
		opt.RankDim = "rank"
	}
	fail := func(line, col int, name string, format string, args ...any) error {
		return &TableError{File: path, Line: line, Column: col, Name: name, Err: fmt.Errorf(format, args...)}
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.Comment = '#'
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	if sep := separator(data); sep == '\t' {
		r.Comma = '\t'
	} else {
		r.TrimLeadingSpace = true
	}
	header, err := r.Read()
	if err == io.EOF {
		return nil, fail(0, 0, "", "the experiment table is empty: it needs a header row and one row per profile")
	}
	if err != nil {
		return nil, csvError(path, err)
	}
	headerLine, _ := r.FieldPos(0)
	e := &Experiment{File: path}
	dir := filepath.Dir(path)
	seen := map[string]int{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		col := i + 1
		if h == "" {
			return nil, fail(headerLine, col, "", "the header names no column here")
		}
		if prev, dup := seen[strings.ToLower(h)]; dup {
			return nil, fail(headerLine, col, h, "the header names %q twice (also column %d)", h, prev)
		}
		seen[strings.ToLower(h)] = col
		e.Columns = append(e.Columns, h)
		switch strings.ToLower(h) {
		case "gmon":
			e.GmonColumn = col
		case "binary":
			e.BinaryColumn = col
		default:
			e.Dims = append(e.Dims, Dimension{Name: h})
			e.dimColumn = append(e.dimColumn, col)
		}
	}
	if e.GmonColumn == 0 {
		if len(header) == 1 && slices.Contains(strings.Fields(header[0]), "gmon") {
			return nil, fail(headerLine, 0, "", "the header is one column %q: separate columns with tabs or commas, not spaces", strings.TrimSpace(header[0]))
		}
		return nil, fail(headerLine, 0, "", "the header has no gmon column (the profile of each row)")
	}
	rankCol := -1 // dimension index of an explicit rank column
	for d := range e.Dims {
		if e.Dims[d].Name == opt.RankDim {
			rankCol = d
		}
	}

	type cell struct {
		line int
		text []string // per dimension
	}
	var cells []cell
	implicitRank := false
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(path, err)
		}
		line, _ := r.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // a line of blanks
		}
		if len(rec) != len(header) {
			col := min(len(rec), len(header)) + 1
			name := "beyond the header"
			if col <= len(header) {
				name = e.Columns[col-1]
			}
			return nil, fail(line, col, name, "the row has %d fields but the header has %d", len(rec), len(header))
		}
		for i := range rec {
			rec[i] = strings.TrimSpace(rec[i])
		}
		gcell := rec[e.GmonColumn-1]
		if gcell == "" {
			return nil, fail(line, e.GmonColumn, "gmon", "the row names no gmon file")
		}
		binary := opt.Binary
		if e.BinaryColumn > 0 && rec[e.BinaryColumn-1] != "" {
			binary = resolve(dir, rec[e.BinaryColumn-1])
		}
		if binary == "" {
			return nil, fail(line, e.BinaryColumn, "binary", "the row names no executable and none was given on the command line")
		}
		if err := checkFile(binary); err != nil {
			col, name := e.BinaryColumn, "binary"
			if col == 0 || rec[col-1] == "" {
				col, name = 0, ""
			}
			return nil, fail(line, col, name, "executable %w", err)
		}
		dimText := make([]string, len(e.Dims))
		for d := range e.Dims {
			dimText[d] = rec[e.dimColumn[d]-1]
		}
		files := []string{resolve(dir, gcell)}
		var ranks []string
		if strings.ContainsAny(gcell, globMeta) {
			matches, err := filepath.Glob(files[0])
			if err != nil {
				return nil, fail(line, e.GmonColumn, "gmon", "bad pattern %q: %w", gcell, err)
			}
			matches = slices.DeleteFunc(matches, func(m string) bool { return checkFile(m) != nil })
			if len(matches) == 0 {
				return nil, fail(line, e.GmonColumn, "gmon", "%s matches no file", files[0])
			}
			if rankCol >= 0 && dimText[rankCol] != "" && dimText[rankCol] != "*" {
				return nil, fail(line, e.dimColumn[rankCol], opt.RankDim,
					"a glob pattern in the gmon column takes each file's %s from its name: leave this cell empty", opt.RankDim)
			}
			files, ranks = matches, ranksOf(matches)
			implicitRank = implicitRank || rankCol < 0
		} else if err := checkFile(files[0]); err != nil {
			return nil, fail(line, e.GmonColumn, "gmon", "profile %w", err)
		}
		for k, f := range files {
			t := dimText
			if ranks != nil {
				t = slices.Clone(dimText)
				if rankCol >= 0 {
					t[rankCol] = ranks[k]
				} else {
					t = append(t, ranks[k])
				}
			}
			cells = append(cells, cell{line, t})
			e.Rows = append(e.Rows, Row{Line: line, Gmon: f, Binary: binary})
		}
	}
	if len(e.Rows) == 0 {
		return nil, fail(headerLine, 0, "", "the experiment table has a header but no rows")
	}
	if implicitRank {
		e.Dims = append(e.Dims, Dimension{Name: opt.RankDim, Implicit: true})
		e.dimColumn = append(e.dimColumn, 0)
		for i := range cells {
			if len(cells[i].text) < len(e.Dims) {
				cells[i].text = append(cells[i].text, "0") // a row naming one file is rank 0
			}
		}
	}
	if len(e.Dims) == 0 {
		return nil, fail(headerLine, 0, "", "the table has no dimension: add a column (run, library, procs...) that tells the rows apart")
	}
	texts := make([][]string, len(cells))
	lines := make([]int, len(cells))
	for i, c := range cells {
		texts[i], lines[i] = c.text, c.line
	}
	if err := e.index(texts); err != nil {
		return nil, err
	}
	if err := e.checkUnique(lines); err != nil {
		return nil, err
	}
	return e, nil
}

// FromRuns builds the experiment of the --runs quick form: one dimension,
// run, labelled by each file's name as given.
func FromRuns(binary string, files []string) (*Experiment, error) {
	e := &Experiment{Columns: []string{"gmon", "run"}, GmonColumn: 1, Dims: []Dimension{{Name: "run"}}, dimColumn: []int{0}}
	if err := checkFile(binary); err != nil {
		return nil, &TableError{Err: fmt.Errorf("executable %s: %w", binary, err)}
	}
	texts := make([][]string, len(files))
	lines := make([]int, len(files))
	for i, f := range files {
		if err := checkFile(f); err != nil {
			return nil, &TableError{Err: fmt.Errorf("profile %w", err)}
		}
		e.Rows = append(e.Rows, Row{Line: i + 1, Gmon: f, Binary: binary})
		texts[i], lines[i] = []string{f}, i+1
	}
	if len(files) < 2 {
		return nil, &TableError{Err: errors.New("--runs needs the executable and at least two profiles")}
	}
	if err := e.index(texts); err != nil {
		return nil, err
	}
	return e, e.checkUnique(lines)
}

// index recognises numeric dimensions, orders every dimension's values and
// sets each row's value indexes. texts holds each row's value per
// dimension.
func (e *Experiment) index(texts [][]string) error {
	for d := range e.Dims {
		dim := &e.Dims[d]
		dim.Numeric = true
		for _, t := range texts {
			if _, err := strconv.ParseFloat(t[d], 64); err != nil {
				dim.Numeric = false
				break
			}
		}
		if dim.Numeric {
			// Equal numbers spelt differently ("8", "8.0") are one value;
			// the first spelling names it.
			byNum := map[float64]string{}
			for _, t := range texts {
				v, _ := strconv.ParseFloat(t[d], 64)
				if _, ok := byNum[v]; !ok {
					byNum[v] = t[d]
					dim.Nums = append(dim.Nums, v)
				}
			}
			slices.Sort(dim.Nums)
			for _, v := range dim.Nums {
				dim.Values = append(dim.Values, byNum[v])
			}
			continue
		}
		for _, t := range texts {
			if !slices.Contains(dim.Values, t[d]) {
				dim.Values = append(dim.Values, t[d])
			}
		}
	}
	pos := make([]map[string]int, len(e.Dims))
	for d := range e.Dims {
		pos[d] = make(map[string]int, len(e.Dims[d].Values))
		for i, v := range e.Dims[d].Values {
			pos[d][v] = i
		}
	}
	for r, t := range texts {
		vals := make([]int, len(e.Dims))
		for d := range e.Dims {
			if e.Dims[d].Numeric {
				v, _ := strconv.ParseFloat(t[d], 64)
				vals[d], _ = slices.BinarySearch(e.Dims[d].Nums, v)
			} else {
				vals[d] = pos[d][t[d]]
			}
		}
		e.Rows[r].Values = vals
	}
	return nil
}

// checkUnique refuses two rows with the same dimension values.
func (e *Experiment) checkUnique(lines []int) error {
	first := make(map[string]int, len(e.Rows))
	for r := range e.Rows {
		k := valuesKey(e.Rows[r].Values, -1)
		if prev, dup := first[k]; dup {
			var desc []string
			for d := range e.Dims {
				desc = append(desc, e.Dims[d].Name+"="+e.Value(r, d))
			}
			what := "line"
			if e.File == "" {
				what = "profile"
			}
			err := fmt.Errorf("the same dimension values (%s) as %s %d: every row needs its own", strings.Join(desc, ", "), what, lines[prev])
			if e.File == "" {
				err = fmt.Errorf("%s is given twice: %w", e.Rows[r].Gmon, err)
			}
			return &TableError{File: e.File, Line: lines[r], Err: err}
		}
		first[k] = r
	}
	return nil
}

// valuesKey encodes value indexes as a map key, leaving out dimension
// skip (-1 keeps all).
func valuesKey(vals []int, skip int) string {
	b := make([]byte, 0, 4*len(vals))
	for d, v := range vals {
		if d != skip {
			b = strconv.AppendInt(b, int64(v), 36)
			b = append(b, ',')
		}
	}
	return string(b)
}

// ranksOf labels the files a glob matched: the rank number in each name
// (ranks.RankInName, as --ranks reads them) when every name has one, else
// the position in the sorted list.
func ranksOf(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		n, ok := ranks.RankInName(f)
		if !ok {
			for j := range out {
				out[j] = strconv.Itoa(j)
			}
			return out
		}
		out[i] = strconv.Itoa(n)
	}
	return out
}

// resolve makes a relative path from the table relative to its folder.
func resolve(dir, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

// checkFile reports why path cannot be read as a regular file.
func checkFile(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return fmt.Errorf("%s: %w", path, pe.Err)
		}
		return err
	}
	if fi.IsDir() {
		return fmt.Errorf("%s: is a directory", path)
	}
	return nil
}

// separator tells TSV from CSV: a tab in the first line that is neither
// empty nor a comment.
func separator(data []byte) rune {
	for line := range bytes.Lines(data) {
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		if bytes.IndexByte(line, '\t') >= 0 {
			return '\t'
		}
		return ','
	}
	return ','
}

// csvError turns a CSV parse error into a TableError with its line and
// column.
func csvError(path string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &TableError{File: path, Line: pe.Line, Err: fmt.Errorf("character %d: %w", pe.Column, pe.Err)}
	}
	return &TableError{File: path, Err: err}
}
