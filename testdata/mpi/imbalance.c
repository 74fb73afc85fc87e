/* imbalance.c: a small MPI program with a deliberate load imbalance, for
 * egprof's rank aggregation test. Each rank calls imbalanced_work in
 * proportion to its rank number (rank r does r+1 units), balanced_work the
 * same number of times on every rank, and only rank 0 calls
 * report_on_rank0. The ranks meet in an MPI_Allreduce after each step, so
 * the fast ranks wait for the slow ones inside the MPI library (which the
 * profile does not see: it is a shared library, not built with -pg). */
#include <mpi.h>
#include <stdio.h>

#define STEPS 10
#define UNIT 4000000L /* iterations in one unit of work (about 10 ms) */

static volatile double sink;

/* Rank r does r+1 units per step: the imbalance. Each function has its
 * own loop, so that the samples land in it (self time). */
void imbalanced_work(int rank)
{
	double x = sink;
	for (long i = 0; i < (rank + 1) * UNIT; i++)
		x = x * 0.999999 + 1.0;
	sink = x;
}

/* Two units per step on every rank. */
void balanced_work(void)
{
	double x = sink;
	for (long i = 0; i < 2 * UNIT; i++)
		x = x * 0.999999 + 1.0;
	sink = x;
}

/* Combine the ranks' partial results. */
double exchange(double local)
{
	double global = 0;
	MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	return global;
}

/* Only rank 0 prints; the other ranks never run this function. */
void report_on_rank0(double total, int size)
{
	double x = sink;
	for (long i = 0; i < 3 * UNIT; i++)
		x = x * 0.999999 + 1.0;
	sink = x;
	printf("total %.3g over %d ranks\n", total, size);
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	double total = 0;
	for (int step = 0; step < STEPS; step++) {
		imbalanced_work(rank);
		balanced_work();
		total = exchange(sink);
	}
	if (rank == 0)
		report_on_rank0(total, size);
	MPI_Finalize();
	return 0;
}
