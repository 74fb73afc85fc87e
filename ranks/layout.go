package ranks

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"regexp"
	"strings"

	"github.com/egprof/egprof/internal/digest"
	"github.com/egprof/egprof/symtab"
)

// Computation is the activity of every function no other activity claims.
const Computation = "computation"

// Activity is a class of functions (the paper's activities: computation,
// point-to-point communication, ...), chosen by a regular expression that
// must match the function's name (raw or demangled).
type Activity struct {
	Name    string
	Pattern string
	re      *regexp.Regexp
}

// builtinActivities are the classes used when the user gives none, in
// report order. MPI names are matched with or without the PMPI_ profiling
// prefix, in C and Fortran spellings (any case, trailing underscores).
const (
	mpiPrefix = `(?i)^_*p?mpi_`
	mpiSuffix = `(_c|_init)?_*$`
)

// MaxActivities is the most activities a configuration may define.
const MaxActivities = 64

// DefaultActivities returns the built-in activity classes: MPI
// point-to-point, collective and synchronisation calls, the OpenMP
// runtime and I/O. Computation, for everything else, is implicit.
func DefaultActivities() []Activity {
	defs := [][2]string{
		{"point-to-point", mpiPrefix + `(i?b?r?s?send|i?recv|i?m?recv|sendrecv(_replace)?|i?m?probe|wait(all|any|some)?|test(all|any|some)?|start(all)?|cancel|request_free|r?put|r?get|r?accumulate|r?get_accumulate|fetch_and_op|compare_and_swap)` + mpiSuffix},
		{"collective", mpiPrefix + `(i?(allreduce|alltoall[vw]?|bcast|reduce|reduce_scatter(_block)?|gatherv?|scatterv?|allgatherv?|scan|exscan)|i?neighbor_(allgatherv?|alltoall[vw]?)|reduce_local)` + mpiSuffix},
		{"synchronisation", mpiPrefix + `(i?barrier|win_(fence|lock(_all)?|unlock(_all)?|post|start|complete|wait|test|flush(_local)?(_all)?|sync))` + mpiSuffix},
		{"openmp", `^(GOMP_|gomp_|omp_|__kmp|__kmpc_|kmp_|__omp_)`},
		{"io", `(?i)^_*p?mpi_file_|^(_IO_)?(f?read|f?write|p?readv?|p?writev?|open(64|at)?|close|fopen(64)?|fclose|fflush|f?sync|fdatasync|l?seek(64)?|fseeko?|ftello?|fgets|fputs|puts|v?f?printf|v?f?scanf|getline|H5[A-Z][A-Za-z_]*|nc_[a-z_]+)$`},
	}
	out := make([]Activity, len(defs))
	for i, d := range defs {
		out[i] = Activity{Name: d[0], Pattern: d[1], re: regexp.MustCompile(d[1])}
	}
	return out
}

// ParseActivity reads a --activity argument, NAME=REGEX.
func ParseActivity(s string) (Activity, error) {
	name, pat, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || pat == "" {
		return Activity{}, fmt.Errorf("activity %q: want NAME=REGEX", s)
	}
	return compileActivity(name, pat)
}

func compileActivity(name, pat string) (Activity, error) {
	re, err := regexp.Compile(pat)
	if err != nil {
		return Activity{}, fmt.Errorf("activity %s: %w", name, err)
	}
	return Activity{Name: name, Pattern: pat, re: re}, nil
}

// Config decides how functions are grouped: into which code region and
// which activity. Summaries can be merged only when made with equal
// configurations.
type Config struct {
	// Regions is "function" (each function is a region), "file" (the
	// DWARF source file of the function) or a regular expression: a
	// function whose name matches belongs to the region named by the first
	// capture group (the whole match without a group); others stay regions
	// of their own.
	Regions string
	// Activities are tried in order; Computation takes the rest. Empty
	// means DefaultActivities.
	Activities []Activity
	// Time is how a region's time is counted: TimeSelf (the default, also
	// "") or TimeInclusive.
	Time string
}

// The ways a region's time is counted (--rank-time).
const (
	// TimeSelf: a region holds the self time of its functions, and the
	// time of the activity functions it calls (the functions of an
	// activity other than computation pass their time to their callers
	// along the call graph, as gprof propagates a callee's time).
	TimeSelf = "self"
	// TimeInclusive: a region (one function) holds its self time and the
	// time of everything it calls, gprof's self plus children time, each
	// part in the activity of the function it was sampled in.
	TimeInclusive = "inclusive"
)

// CheckTime validates a --rank-time argument.
func CheckTime(s string) error {
	if s != TimeSelf && s != TimeInclusive {
		return fmt.Errorf("--rank-time takes self or inclusive, not %q", s)
	}
	return nil
}

// inclusive reports whether regions count their callees' time.
func (c Config) inclusive() bool { return c.Time == TimeInclusive }

// regionsRE returns the compiled region pattern, or nil for the named
// modes.
func (c Config) regionsRE() (*regexp.Regexp, error) {
	switch c.Regions {
	case "", "function", "file":
		return nil, nil
	}
	re, err := regexp.Compile(c.Regions)
	if err != nil {
		return nil, fmt.Errorf("--regions: %w", err)
	}
	return re, nil
}

// CheckRegions validates a --regions argument: "function", "file" or a
// regular expression.
func CheckRegions(s string) error {
	if s == "" {
		return fmt.Errorf("--regions needs function, file or a regular expression")
	}
	_, err := Config{Regions: s}.regionsRE()
	return err
}

// activities returns the effective activity list.
func (c Config) activities() []Activity {
	if len(c.Activities) == 0 {
		return DefaultActivities()
	}
	return c.Activities
}

// Equal reports whether two configurations group functions the same way.
func (c Config) Equal(o Config) bool { return c.String() == o.String() }

// String describes the configuration as command-line options would.
func (c Config) String() string {
	var b strings.Builder
	r := c.Regions
	if r == "" {
		r = "function"
	}
	fmt.Fprintf(&b, "--regions=%s", r)
	for _, a := range c.activities() {
		fmt.Fprintf(&b, " --activity=%s=%s", a.Name, a.Pattern)
	}
	if c.inclusive() {
		b.WriteString(" --rank-time=inclusive")
	}
	return b.String()
}

// Layout is the grouping of one executable's symbols into code regions and
// activities: the cells (region, activity) that the accumulators are kept
// for.
type Layout struct {
	Config     Config
	Regions    []string // region names (raw symbol names in function mode)
	Activities []string // activity names, Computation last
	Cells      []Cell   // each symbol's own (region, activity) pair
	// SymCell gives the cell of each symbol of the table (index into
	// Cells).
	SymCell []int32
	// Comp is the index of Computation in Activities: the functions of any
	// other activity pass their time on to their callers.
	Comp int
	// Fingerprint identifies the symbol table the layout was made from.
	Fingerprint [32]byte
}

// regionFileSep separates a static function's name from its source file in
// the region name of a function that shares its name with another.
const regionFileSep = "\x00"

// RegionNamed returns what spells a region's name: in function mode, the
// raw name of its function and, for a static that shares its name with
// another, its source file.
func RegionNamed(region string) symtab.Named {
	if name, file, ok := strings.Cut(region, regionFileSep); ok {
		return symtab.Named{Raw: name, Src: symtab.SourceLoc{File: file}, HasSrc: true, Static: true}
	}
	return symtab.Named{Raw: region}
}

// Cell is one (code region, activity) pair.
type Cell struct {
	Region, Activity int
}

// compareCells orders cells by region, then activity: the order summaries
// keep them in.
func compareCells(a, b Cell) int {
	return cmp.Or(cmp.Compare(a.Region, b.Region), cmp.Compare(a.Activity, b.Activity))
}

// passes reports whether symbol i belongs to an activity other than
// computation, whose time goes to the regions that call it.
func (l *Layout) passes(i int) bool { return l.Cells[l.SymCell[i]].Activity != l.Comp }

// NewLayout groups the symbols of tab according to cfg. demangle turns a
// raw name into the one activities are also matched against (it may be
// nil).
func NewLayout(tab *symtab.Table, cfg Config, demangle func(string) string) (*Layout, error) {
	re, err := cfg.regionsRE()
	if err != nil {
		return nil, err
	}
	switch cfg.Time {
	case "":
		cfg.Time = TimeSelf
	case TimeSelf:
	case TimeInclusive:
		if cfg.Regions != "" && cfg.Regions != "function" {
			return nil, fmt.Errorf("--rank-time=inclusive needs one region per function, not --regions=%s: a region of several functions has no inclusive time of its own", cfg.Regions)
		}
	default:
		return nil, CheckTime(cfg.Time)
	}
	acts := cfg.activities()
	if len(acts) > MaxActivities {
		return nil, fmt.Errorf("%d activities, more than %d", len(acts), MaxActivities)
	}
	if len(cfg.Activities) == 0 {
		cfg.Activities = acts
	}
	if cfg.Regions == "" {
		cfg.Regions = "function"
	}
	l := &Layout{Config: cfg, SymCell: make([]int32, len(tab.Syms)), Fingerprint: Fingerprint(tab)}
	compIdx := -1
	for i, a := range acts {
		l.Activities = append(l.Activities, a.Name)
		if a.Name == Computation {
			compIdx = i
		}
	}
	if compIdx < 0 {
		compIdx = len(l.Activities)
		l.Activities = append(l.Activities, Computation)
	}
	l.Comp = compIdx
	regionIdx := map[string]int{}
	cellIdx := map[Cell]int{}
	sameName := map[string]int{}
	for i := range tab.Syms {
		sameName[tab.Syms[i].Name]++
	}
	for i := range tab.Syms {
		s := &tab.Syms[i]
		name := s.Name
		act := compIdx
		shown := name
		if demangle != nil {
			shown = demangle(name)
		}
		for k, a := range acts {
			if a.re.MatchString(name) || (shown != name && a.re.MatchString(shown)) {
				act = k
				break
			}
		}
		region := name
		switch {
		case cfg.Regions == "function" && s.IsStatic && sameName[name] > 1:
			// Same-named statics are regions of their own, told apart by
			// their source file (see RegionName).
			if loc, ok := tab.Source(i); ok {
				region = name + regionFileSep + loc.File
			}
		case cfg.Regions == "file":
			region = "<no source file>"
			if loc, ok := tab.SymbolSource(i); ok && loc.File != "" {
				region = loc.File
			}
		case re != nil:
			if m := re.FindStringSubmatch(name); m != nil {
				region = m[0]
				if len(m) > 1 {
					region = m[1]
				}
			}
		}
		r, ok := regionIdx[region]
		if !ok {
			r = len(l.Regions)
			regionIdx[region] = r
			l.Regions = append(l.Regions, region)
		}
		c := Cell{r, act}
		ci, ok := cellIdx[c]
		if !ok {
			ci = len(l.Cells)
			cellIdx[c] = ci
			l.Cells = append(l.Cells, c)
		}
		l.SymCell[i] = int32(ci)
	}
	return l, nil
}

// Fingerprint returns a digest of the symbol table (names, addresses,
// kinds, text range): two profiles can be merged only when they come from
// executables with the same fingerprint.
func Fingerprint(tab *symtab.Table) [32]byte {
	h := digest.New()
	var buf [8]byte
	put := func(v uint64) {
		binary.LittleEndian.PutUint64(buf[:], v)
		h.Write(buf[:])
	}
	put(uint64(tab.Target.AddrSize))
	put(tab.TextLow)
	put(tab.TextEnd)
	for i := range tab.Syms {
		s := &tab.Syms[i]
		put(uint64(len(s.Name)))
		h.Write([]byte(s.Name))
		put(s.Addr)
		put(s.End)
		var flags uint64
		if s.IsFunc {
			flags |= 1
		}
		if s.IsStatic {
			flags |= 2
		}
		if s.IsLine {
			flags |= 4
		}
		put(flags)
	}
	return h.Sum256()
}
