/* activities.c: a stand-in for one rank of an MPI job whose code regions
 * perform several activities, for egprof's attribution of activity time to
 * the calling regions (no MPI library needed: each process is one rank,
 * and the "communication" functions do their work in the program, as
 * user-level wrappers or a statically linked library would).
 *
 *   main -> step  -> compute          (computation, r+1 times the work on rank r)
 *                 -> exchange_halo    (point-to-point)
 *        -> solve -> exchange_halo x2
 *                 -> reduce_all       (collective)
 *   exchange_halo -> pack_buffer      (computation, called by an activity)
 *                 -> wait_neighbours  (synchronisation: the ranks with less
 *                                      to compute wait longer)
 *
 * Analysed with --activity=point-to-point=^exchange_
 * --activity=collective=^reduce_ --activity=synchronisation=^wait_, the
 * regions step and solve hold the point-to-point, synchronisation and
 * collective time of the calls they make, shared in proportion to the
 * calls; pack_buffer keeps its own time.
 *
 * Usage: activities RANK NRANKS (with GMON_OUT_PREFIX set per rank). */
#include <stdio.h>
#include <stdlib.h>

#define STEPS 10
#define UNIT 500000L /* iterations in one unit of work (a few ms at -O0) */

static volatile double sink;

/* units runs n units of work in the calling function's own loop. */
#define WORK(n)                                   \
	do {                                      \
		double x = sink;                  \
		for (long i = 0; i < (n) * UNIT; i++) \
			x = x * 0.999999 + 1.0;   \
		sink = x;                         \
	} while (0)

void pack_buffer(void) { WORK(1); }

void wait_neighbours(int rank, int nranks) { WORK(nranks - rank); }

void exchange_halo(int rank, int nranks)
{
	WORK(1);
	pack_buffer();
	wait_neighbours(rank, nranks);
}

void reduce_all(int rank) { WORK(1 + rank % 2); }

void compute(int rank) { WORK(2 * (rank + 1)); }

void step(int rank, int nranks)
{
	WORK(2);
	compute(rank);
	exchange_halo(rank, nranks);
}

void solve(int rank, int nranks)
{
	WORK(2);
	exchange_halo(rank, nranks);
	exchange_halo(rank, nranks);
	reduce_all(rank);
}

int main(int argc, char **argv)
{
	int rank = argc > 1 ? atoi(argv[1]) : 0;
	int nranks = argc > 2 ? atoi(argv[2]) : 4;
	for (int s = 0; s < STEPS; s++) {
		step(rank, nranks);
		solve(rank, nranks);
	}
	printf("rank %d: %g\n", rank, sink);
	return 0;
}
