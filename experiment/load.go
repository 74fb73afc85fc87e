package experiment

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/parallel"
	"github.com/egprof/egprof/ranks"
	"github.com/egprof/egprof/symtab"
)

// Function is one function of the union of the experiment's executables,
// aligned across builds by name as package diff aligns two builds.
type Function struct {
	Name   string           // raw (mangled) name
	Src    symtab.SourceLoc // source position (for a static, what tells it apart), when HasSrc
	HasSrc bool
	Static bool
}

// The base values of a function in one run.
const (
	baseSelf  = iota // self seconds
	baseCalls        // calls from other functions
	baseTotal        // self plus children seconds, as the call graph prints them
	numBases
)

// LoadOptions are the settings that decide how profiles are read.
type LoadOptions struct {
	Symtab symtab.Options // -a, -D
	Format gmon.Format    // -O
	// Workers is the number of profiles read at once; 0 means one per
	// processor.
	Workers int
	// Progress, if set, is told how many of the profiles have been read.
	Progress func(done, total int)
	// Rows, if set, replaces the reading of the rows' profiles on this
	// process's cores (for instance to share them among the processes of
	// an MPI job); it must hand consume every row's observations, in row
	// order, as the reading on this process's cores would make them.
	Rows RowSource
}

// A RowSource hands the observations of every one of an experiment's n
// rows to consume, in row order, and stops at the first failing row.
// Every row has the same number of values (obs.Base's length).
// read fills obs with row i's observations (it may run on any goroutine,
// for several rows at once, each with its own obs, even one read in
// another process: consume sets obs.Present from the row's executable).
type RowSource func(n, values int, read func(row int, obs *Observations) error,
	consume func(row int, obs *Observations)) error

// profiles is the experiment's executables and the alignment of their
// functions.
type profiles struct {
	tables []*symtab.Table
	tabOf  []int      // per row, its executable
	gid    [][]int    // per executable, per symbol: the function
	funcs  []Function // the union
	// present[t][f] reports whether executable t has function f.
	present [][]bool
}

// loadExecutables loads every executable the rows name and aligns their
// functions: the first executable's functions in address order, then each
// further one's paired by name with those before it, new names appended.
func loadExecutables(e *Experiment, opt LoadOptions) (*profiles, error) {
	ps := &profiles{tabOf: make([]int, len(e.Rows))}
	index := map[string]int{}
	for r := range e.Rows {
		path := e.Rows[r].Binary
		t, ok := index[path]
		if !ok {
			tab, err := symtab.Load(path, opt.Symtab)
			if err != nil {
				return nil, e.rowError(r, e.BinaryColumn, fmt.Errorf("cannot load the executable: %w", err))
			}
			t = len(ps.tables)
			index[path] = t
			ps.tables = append(ps.tables, tab)
		}
		ps.tabOf[r] = t
	}
	for k, tab := range ps.tables {
		ids := make([]int, len(tab.Syms))
		for i := range ids {
			ids[i] = -1
		}
		used := map[int]bool{}
		for j := 0; j < k; j++ {
			match := diff.AlignByName(tab, ps.tables[j])
			for i, m := range match {
				if ids[i] >= 0 || m < 0 {
					continue
				}
				if g := ps.gid[j][m]; !used[g] {
					ids[i], used[g] = g, true
				}
			}
		}
		for i := range ids {
			if ids[i] < 0 {
				ids[i] = len(ps.funcs)
				s := &tab.Syms[i]
				f := Function{Name: s.Name, Static: s.IsStatic}
				f.Src, f.HasSrc = tab.Source(i)
				ps.funcs = append(ps.funcs, f)
			}
		}
		ps.gid = append(ps.gid, ids)
	}
	for k := range ps.tables {
		pr := make([]bool, len(ps.funcs))
		for _, g := range ps.gid[k] {
			pr[g] = true
		}
		ps.present = append(ps.present, pr)
	}
	return ps, nil
}

// rowError locates err at row r, in column col (0: the whole row).
func (e *Experiment) rowError(r, col int, err error) error {
	name := ""
	if col > 0 && col <= len(e.Columns) {
		name = e.Columns[col-1]
	}
	if e.File == "" {
		col = 0
		// Without a table the file names the row, unless the error
		// names it already (a read or format error, the belonging check).
		if file := e.Rows[r].Gmon; !strings.Contains(err.Error(), file) {
			err = fmt.Errorf("%s: %w", file, err)
		}
	}
	return &TableError{File: e.File, Line: e.Rows[r].Line, Column: col, Name: name, Err: err}
}

// read reads every row's profile, several at once, and hands its
// observations (the base values of every function of the union, the
// profile's total time) to consume in row order. At most a few profiles
// wait in memory at any time, whatever the number of rows, and their
// buffers are reused once consumed. The first failing row (in row order)
// stops the reading and its error is returned.
func (ps *profiles) read(e *Experiment, opt LoadOptions, consume func(row int, obs *Observations)) error {
	if opt.Rows != nil {
		return opt.Rows(len(e.Rows), numBases*len(ps.funcs),
			func(row int, obs *Observations) error {
				if len(obs.Base) != numBases*len(ps.funcs) {
					obs.Bases, obs.Base = numBases, make([]float64, numBases*len(ps.funcs))
				}
				return ps.readRow(e, opt, row, obs)
			},
			func(row int, obs *Observations) {
				obs.Present = ps.present[ps.tabOf[row]]
				consume(row, obs)
			})
	}
	free := make(chan *Observations, 2*parallel.Workers(opt.Workers, len(e.Rows)))
	return parallel.Map(context.Background(), e.Rows, parallel.Options{Workers: opt.Workers, Progress: opt.Progress},
		func(_, i int, _ Row) (*Observations, error) {
			var obs *Observations
			select {
			case obs = <-free:
			default:
				obs = &Observations{Bases: numBases, Base: make([]float64, numBases*len(ps.funcs))}
			}
			return obs, ps.readRow(e, opt, i, obs)
		},
		func(i int, obs *Observations) error {
			consume(i, obs)
			select {
			case free <- obs:
			default:
			}
			return nil
		})
}

// readRow reads row i's profile into obs.
func (ps *profiles) readRow(e *Experiment, opt LoadOptions, i int, obs *Observations) error {
	row := &e.Rows[i]
	t := ps.tabOf[i]
	tab := ps.tables[t]
	data, err := os.ReadFile(row.Gmon)
	if err != nil {
		return e.rowError(i, e.GmonColumn, err)
	}
	prof := gmon.NewProfile(tab.Target, opt.Format)
	if err := addProfile(prof, tab, data, row.Gmon); err != nil {
		return e.rowError(i, e.GmonColumn, err)
	}
	if !prof.HasHist {
		return e.rowError(i, e.GmonColumn, gmon.NoHistogramError(row.Gmon, len(data)))
	}
	g := callgraph.Build(tab, prof, callgraph.Options{ModelOnly: true})
	if err := callgraph.CheckBelongs(prof, g.Syms); err != nil {
		col := e.BinaryColumn
		if col == 0 {
			col = e.GmonColumn
		}
		return e.rowError(i, col, fmt.Errorf("%s and %s do not belong together: %w", row.Gmon, row.Binary, err))
	}
	base := obs.Base
	clear(base)
	hz := float64(g.HZ)
	ids := ps.gid[t]
	for s := 0; s < g.NumSyms; s++ {
		en := &g.Entries[s]
		if en.Ticks == 0 && en.NCalls == 0 && en.PropSelf == 0 && en.PropChild == 0 {
			continue
		}
		b := base[ids[s]*numBases : (ids[s]+1)*numBases]
		b[baseCalls] = float64(en.NCalls)
		if hz > 0 {
			b[baseSelf] = en.Ticks / hz
			if g.HasArcs {
				b[baseTotal] = (en.PropSelf + en.PropChild) / hz
			} else {
				b[baseTotal] = b[baseSelf]
			}
		}
	}
	obs.Present = ps.present[t]
	// The run's samples, each counted once: the count its noise is of.
	obs.Total = g.SampledSeconds()
	obs.HZ = hz
	return nil
}

// addProfile adds the data of a gmon file, or of a rank summary (the
// summed profile of its ranks, as gprof -s would sum their files), to
// prof.
func addProfile(prof *gmon.Profile, tab *symtab.Table, data []byte, name string) error {
	if !ranks.IsSummary(data) {
		_, err := prof.AddData(data, name)
		return err
	}
	sum, err := ranks.DecodeSummary(data, name)
	switch {
	case err != nil:
		return err
	case sum.Fingerprint != ranks.Fingerprint(tab):
		return fmt.Errorf("a rank summary made for another executable (%s) or with other -a/-D options", sum.Exe)
	case sum.Classic == nil:
		return fmt.Errorf("a rank summary that keeps no summed profile")
	}
	_, err = sum.Classic.AddTo(prof, name)
	return err
}
