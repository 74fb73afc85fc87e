package render

// The explanations printed after (or, with -T, before) each section unless
// -b is given. gprof's layout is kept (a blank line first, a form-feed line
// and a short notice last) so that scripts which split reports on form feeds
// find the same sections; the words are egprof's own.

const notice = `
egprof is free software under the Apache License 2.0. It reads the
profile data written by programs built with "gcc -pg" and reports it in
GNU gprof's layout.
`

// FlatBlurb explains the flat profile.
const FlatBlurb = `
 How to read the flat profile

 Each row is one function; rows come in order of decreasing self time,
 then decreasing call count, then name.

 % time      this function's share of all the samples taken while
             the program ran (its own code only, not its callees).

 cumulative  running sum of the self seconds of this row and every
 seconds     row above it.

 self        seconds of samples that landed in this function's own
 seconds     code. This is the column the rows are sorted by.

 calls       how many times the function was entered, as counted by
             the profiling hooks; blank when the function was compiled
             without -pg or was never called.

 self        average self time of one call, in the unit shown in the
 ms/call     heading (the unit adapts to the size of the numbers).

 total       average time of one call including the time of the
 ms/call     functions it called, in the same unit.

 name        the function. Ties in self time are ordered by calls and
             then alphabetically. In the traditional layout (-T) the
             name is followed by its index in the call graph.
` + "\f" + notice

// CallGraphBlurb explains the call graph.
const CallGraphBlurb = `
 How to read the call graph

 The report has one block per function, separated by dashed lines, in
 order of decreasing total time (own time plus time of its callees).
 The number in brackets on the block's own line is the function's index.

 On the function's own line (the one starting with the index):
     index        the function's number, used to cross-reference it.
     % time       share of the total run time spent in the function and
                  in what it called.
     self         seconds spent in the function's own code.
     children     seconds that its callees passed up to it.
     called       times it was called, and after a '+' the times it
                  called itself recursively.
     name         the function, its cycle if it is in one, and its index.

 Lines above it are its callers (parents), one per caller:
     self         the share of the function's self time charged to this
                  caller, in proportion to the calls it made.
     children     the share of the function's children time charged to
                  this caller, likewise.
     called       calls from this caller / all non-recursive calls.
     name         the caller and its index. A function whose callers
                  were not profiled shows <spontaneous> instead.

 Lines below it are its callees (children), one per callee:
     self         the callee's self time charged to this function.
     children     the callee's children time charged to this function.
     called       calls from this function / all non-recursive calls of
                  the callee.
     name         the callee and its index.

 Functions that call each other in a loop form a cycle. A cycle gets a
 block of its own, "<cycle N as a whole>", listing its members; calls
 between members show only their counts, since time cannot be split
 along them in a meaningful way.
` + "\f" + notice

// CallGraphBlurbBSD explains the call graph in the traditional (-T) layout.
const CallGraphBlurbBSD = `
 How to read the call graph (traditional layout)

 One block per function, in order of decreasing total time. The line
 starting with an index describes the function itself: its share of the
 run time, its own seconds, the seconds of its descendants, and how often
 it was called (non-recursive+recursive). The lines above it are its
 callers, with the part of its time charged to each and calls made by
 that caller/all calls; the lines below are its callees, likewise.
 Members of a cycle are listed under "<cycle N as a whole>".
` + "\f" + notice

// DiffFlatBlurb explains the differential flat profile.
const DiffFlatBlurb = `
 How to read the differential flat profile

 This is the profile of the '+' run minus the profile of the '-' run, in
 the layout of gprof's flat profile so that scripts still parse it. Rows
 come in order of decreasing absolute change of self time.

 % time      the row's share of all the change: its self-time change
             divided by the sum of the absolute changes of all rows,
             with its sign (positive: the '+' run spent more time).

 cumulative  running sum of the absolute changes down to this row.
 seconds

 self        change of the function's self seconds ('+' minus '-').
 seconds     A 0.00 row is a function present in both runs whose time
             did not change: that is information, so it is kept.

 calls       change of the call count; blank when neither run counted
             calls of the function.

 self/total  change of the time per call (self, and self plus
 per call    callees), shown only when both runs counted calls.
` + "\f" + notice

// ImpactBlurb explains the impact table.
const ImpactBlurb = `
 How to read the impact table

 One row per function, in order of decreasing absolute change of self
 time, then of calls. '+' is the baseline run (the positional profiles),
 '-' the run given with --diff, and every "diff" is '+' minus '-'.

 % impact    the function's share of the total absolute change, signed.
 +self/-self self seconds in each run; '-' when the run recorded no
 seconds     samples and no calls for it.
 +self/-self call counts in each run; '-' when the run counted none.
 calls
 sym +-      whether the function exists in the '+' and the '-'
             executable: X present, - absent.
 ~           (after the name) the change is within two standard errors
             of sampling noise: each run's sample count is treated as a
             Poisson count, so a change of a few samples is not
             evidence. --noise=off drops the marker.
` + "\f" + notice

// DiffCallGraphBlurb explains the differential call graph.
const DiffCallGraphBlurb = `
 How to read the differential call graph

 gprof's call graph layout, with every number a change ('+' minus '-').
 Blocks come in order of decreasing absolute change of total (self plus
 children) time. On a function's own line: % time is its change of total
 time as a share of all absolute self-time change; self and children are
 the changes of its own and its callees' time; called is the change of
 its call count (+ the change of its recursive calls). Caller and callee
 lines show the change of the time charged along each arc and the change
 of its call count / the change of the callee's calls. Cycles are not
 grouped, since the two runs may form different ones.
` + "\f" + notice
