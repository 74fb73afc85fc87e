package experiment

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/symtab"
)

// Function is one function of the union of the experiment's executables,
// aligned across builds by name as package diff aligns two builds.
type Function struct {
	Name   string // raw (mangled) name
	File   string // source file of a static function, when known
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
}

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
				if s.IsStatic {
					if loc, ok := tab.SymbolSource(i); ok {
						f.File = loc.File
					}
				}
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
		err = fmt.Errorf("%s: %w", e.Rows[r].Gmon, err)
	}
	return &TableError{File: e.File, Line: e.Rows[r].Line, Column: col, Name: name, Err: err}
}

// read reads every row's profile, several at once, and hands its
// observations (the base values of every function of the union, the
// profile's total time) to consume in row order. At most a few profiles wait in memory at any time,
// whatever the number of rows. The first failing row (in row order) stops
// the reading and its error is returned.
func (ps *profiles) read(e *Experiment, opt LoadOptions, consume func(row int, obs *Observations)) error {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, len(e.Rows))
	window := 2 * workers
	type result struct {
		obs *Observations
		err error
	}
	done := make([]chan result, len(e.Rows))
	for i := range done {
		done[i] = make(chan result, 1)
	}
	free := make(chan *Observations, window+workers)
	slots := make(chan struct{}, window)
	jobs := make(chan int)
	stop := make(chan struct{})
	go func() {
		defer close(jobs)
		for i := range e.Rows {
			select {
			case slots <- struct{}{}:
			case <-stop:
				return
			}
			select {
			case jobs <- i:
			case <-stop:
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				var obs *Observations
				select {
				case obs = <-free:
				default:
					obs = &Observations{Bases: numBases, Base: make([]float64, numBases*len(ps.funcs))}
				}
				err := ps.readRow(e, opt, i, obs)
				done[i] <- result{obs, err}
			}
		}()
	}
	var err error
	for i := range e.Rows {
		res := <-done[i]
		<-slots
		if res.err != nil {
			err = res.err
			break
		}
		consume(i, res.obs)
		if opt.Progress != nil {
			opt.Progress(i+1, len(e.Rows))
		}
		select {
		case free <- res.obs:
		default:
		}
	}
	close(stop)
	wg.Wait()
	return err
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
	if _, err := prof.AddData(data, row.Gmon); err != nil {
		return e.rowError(i, e.GmonColumn, err)
	}
	g := callgraph.Build(tab, prof, callgraph.Options{ModelOnly: true})
	if err := mismatch(prof, g); err != nil {
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
	obs.Total = 0
	if hz > 0 {
		obs.Total = g.TotalTime / hz
	}
	return nil
}

// mismatch tells when a profile cannot have been written by the
// executable: it has samples but none falls inside a symbol and no arc
// joins two symbols, or most of its first arcs enter their callee far
// from the callee's start (gcc -pg calls mcount in the prologue, a few
// bytes in).
func mismatch(prof *gmon.Profile, g *callgraph.Graph) error {
	samples := 0.0
	for _, h := range prof.Hists {
		for _, b := range h.Bins {
			samples += float64(b)
		}
	}
	if samples > 0 && g.CreditedSamples == 0 && len(g.Arcs) == 0 {
		return fmt.Errorf("none of its %.0f samples falls inside the executable's functions", samples)
	}
	if len(prof.Arcs) > 0 && len(g.Arcs) == 0 && g.DroppedArcs > 0 {
		return errors.New("none of its call arcs joins two of the executable's functions")
	}
	// The first arcs suffice to tell; looking up all of them would cost
	// as much as the call graph itself.
	const prologue, sample = 64, 256
	far, seen := 0, 0
	for _, a := range prof.Arcs[:min(len(prof.Arcs), sample)] {
		s := g.Syms.Lookup(a.SelfPC)
		if s < 0 {
			continue
		}
		seen++
		if a.SelfPC-g.Syms.Syms[s].Addr > prologue {
			far++
		}
	}
	if seen >= 4 && 2*far > seen {
		return fmt.Errorf("%d of its %d call arcs enter their callee more than %d bytes past its start, where no profiling call is", far, seen, prologue)
	}
	return nil
}
