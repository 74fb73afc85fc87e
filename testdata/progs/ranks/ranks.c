/*
 * ranks.c - an "MPI-like" program: one binary started once per rank, each
 * rank writing its own profile. There is no real MPI here; the rank number
 * only decides which share of the work a process does, so the two profiles
 * (rank 0 -> gmon.out, rank 1 -> gmon2.out) differ on purpose:
 *
 *   rank 0 (the root)  scatter_input, relax_rows (fewer rows), a convergence
 *                      check every iteration (gather_results -> local_norm),
 *                      write_report
 *   other ranks        relax_rows (more rows), exchange_halo, local_norm
 *
 * relax_rows is a Jacobi relaxation over this rank's rows of a grid: the
 * hot loop shared by every rank.
 *
 * Usage: prog RANK NRANKS ITERATIONS
 */
#include <stdio.h>
#include <stdlib.h>

#define COLS 256
#define ROWS 256

static double grid[ROWS][COLS];
static double next[ROWS][COLS];

void scatter_input(int nranks)
{
	for (int r = 0; r < ROWS; r++)
		for (int c = 0; c < COLS; c++)
			grid[r][c] = ((r * 31 + c * 17 + nranks) % 97) / 97.0;
}

void relax_rows(int first, int last)
{
	for (int r = first; r < last; r++) {
		if (r == 0 || r == ROWS - 1)
			continue;
		for (int c = 1; c < COLS - 1; c++)
			next[r][c] = 0.25 * (grid[r - 1][c] + grid[r + 1][c] + grid[r][c - 1] + grid[r][c + 1]);
	}
	for (int r = first; r < last; r++) {
		if (r == 0 || r == ROWS - 1)
			continue;
		for (int c = 1; c < COLS - 1; c++)
			grid[r][c] = next[r][c];
	}
}

/* Stand-in for sending and receiving boundary rows: copies them around. */
void exchange_halo(int first, int last)
{
	static double halo[2][COLS];
	for (int c = 0; c < COLS; c++) {
		halo[0][c] = grid[first][c];
		halo[1][c] = grid[last - 1][c];
	}
	for (int c = 0; c < COLS; c++) {
		grid[first][c] = 0.5 * (grid[first][c] + halo[1][c]);
		grid[last - 1][c] = 0.5 * (grid[last - 1][c] + halo[0][c]);
	}
}

double local_norm(int first, int last)
{
	double s = 0;
	for (int r = first; r < last; r++)
		for (int c = 0; c < COLS; c++)
			s += grid[r][c] * grid[r][c];
	return s;
}

double gather_results(void)
{
	return local_norm(0, ROWS);
}

void write_report(int rank, double norm)
{
	printf("rank %d: norm %.6f\n", rank, norm);
}

int main(int argc, char **argv)
{
	int rank = argc > 1 ? atoi(argv[1]) : 0;
	int nranks = argc > 2 ? atoi(argv[2]) : 2;
	int iters = argc > 3 ? atoi(argv[3]) : 100;
	double norm = 0;

	if (rank == 0) {
		/* The root prepares the data and does a smaller share of rows. */
		scatter_input(nranks);
		for (int it = 0; it < iters; it++) {
			relax_rows(0, ROWS / (2 * nranks));
			norm = gather_results();	/* convergence check */
		}
		write_report(rank, norm);
	} else {
		int first = ROWS / (2 * nranks);
		scatter_input(nranks);
		for (int it = 0; it < iters; it++) {
			relax_rows(first, ROWS);
			exchange_halo(first, ROWS);
			if (it % 10 == 0)
				norm += local_norm(first, ROWS);
		}
		printf("rank %d: %.6f\n", rank, norm);
	}
	return 0;
}
