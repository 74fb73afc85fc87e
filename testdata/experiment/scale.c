/*
 * scale.c - a stand-in for one rank of a bulk-synchronous parallel job,
 * for egprof's experiment tests. There is no MPI here: the test starts
 * NPROCS copies, one per rank, and each does its share of the work.
 *
 *   compute_block   SIZE*SIZE/NPROCS units of arithmetic per step: the
 *                   part that scales
 *   exchange        a stand-in for communication whose cost grows with
 *                   NPROCS: the part that does not
 *   reduce_tree     log2(NPROCS) rounds of a small combine
 *   mix             a small static helper an optimising build inlines
 *                   (so it exists only in the -O0 build)
 *   write_report    rank 0 only
 *
 * Usage: prog SIZE NPROCS RANK
 *
 * Built with mpicc -DUSE_MPI it is a real MPI program instead: the process
 * count and the rank come from MPI (usage: mpirun -np P prog SIZE), and
 * the ranks meet at a barrier after every step.
 */
#include <stdio.h>
#include <stdlib.h>
#ifdef USE_MPI
#include <mpi.h>
#endif

#define STEPS 40

volatile double sink;

__attribute__((noinline)) void compute_block(long units)
{
	unsigned long acc = 0;
	for (long i = 0; i < units; i++)
		acc += ((unsigned long)i * 2654435761u) >> 7;
	sink += (double)acc;
}

__attribute__((noinline)) void exchange(int nprocs)
{
	for (long i = 0; i < 640000L * nprocs; i++)
		sink += 1.0;
}

static double mix(double a, double b)
{
	return 0.5 * (a + b);
}

__attribute__((noinline)) void reduce_tree(int nprocs)
{
	for (int r = 1; r < nprocs; r *= 2)
		for (int k = 0; k < 20000; k++)
			sink = mix(sink, (double)k);
}

__attribute__((noinline)) void write_report(long size)
{
	for (long i = 0; i < 200000; i++)
		sink += (double)size;
}

int main(int argc, char **argv)
{
#ifdef USE_MPI
	MPI_Init(&argc, &argv);
	int nprocs, rank;
	MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (argc != 2) {
		fprintf(stderr, "usage: mpirun -np P %s SIZE\n", argv[0]);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	long size = atol(argv[1]);
#else
	if (argc != 4) {
		fprintf(stderr, "usage: %s SIZE NPROCS RANK\n", argv[0]);
		return 2;
	}
	long size = atol(argv[1]);
	int nprocs = atoi(argv[2]);
	int rank = atoi(argv[3]);
#endif
	if (size < 1 || nprocs < 1 || rank < 0 || rank >= nprocs) {
		fprintf(stderr, "%s: bad arguments\n", argv[0]);
		return 2;
	}
	for (int s = 0; s < STEPS; s++) {
		compute_block(size * size / nprocs);
		exchange(nprocs);
		reduce_tree(nprocs);
#ifdef USE_MPI
		MPI_Barrier(MPI_COMM_WORLD);
#endif
	}
	if (rank == 0)
		write_report(size);
#ifdef USE_MPI
	MPI_Finalize();
#endif
	return 0;
}
