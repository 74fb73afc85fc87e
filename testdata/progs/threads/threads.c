/*
 * threads.c - a pthreads program for gprof tests.
 *
 * SIGPROF samples whichever thread is running, so every thread's work is in
 * the histogram. Call counts can be slightly low: glibc's mcount drops a
 * call when another thread is inside mcount at the same moment.
 *
 *   worker_primes   thread start routine: counts primes with trial_divide()
 *   worker_matrix   thread start routine: repeated small matrix products
 *   worker_hash     thread start routine: hashes a buffer with mix()
 *   main_share      work done by the main thread while the workers run
 *
 * Thread start routines are called by libc (start_thread), so they show as
 * <spontaneous>.
 *
 * Usage: prog PRIME_LIMIT MATRIX_ROUNDS HASH_ROUNDS MAIN_ROUNDS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int prime_limit, matrix_rounds, hash_rounds, main_rounds;

int trial_divide(int n)
{
	if (n < 2)
		return 0;
	for (int d = 2; d * d <= n; d++)
		if (n % d == 0)
			return 0;
	return 1;
}

void *worker_primes(void *arg)
{
	long count = 0;
	(void)arg;
	for (int n = 0; n < prime_limit; n++)
		count += trial_divide(n);
	return (void *)count;
}

#define N 24
static void multiply(double a[N][N], double b[N][N], double c[N][N])
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			double s = 0;
			for (int k = 0; k < N; k++)
				s += a[i][k] * b[k][j];
			c[i][j] = s;
		}
}

void *worker_matrix(void *arg)
{
	static double a[N][N], b[N][N], c[N][N];
	(void)arg;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			a[i][j] = (i + j) % 7 * 0.25;
			b[i][j] = (i * j) % 5 * 0.5;
		}
	for (int r = 0; r < matrix_rounds; r++) {
		multiply(a, b, c);
		multiply(c, a, b);
	}
	return (void *)(long)(b[1][2] > 0);
}

unsigned long mix(unsigned long h, unsigned char byte)
{
	return (h ^ byte) * 1099511628211ul;
}

void *worker_hash(void *arg)
{
	static unsigned char buf[4096];
	unsigned long h = 1469598103934665603ul;
	(void)arg;
	for (int i = 0; i < (int)sizeof buf; i++)
		buf[i] = (unsigned char)(i * 31);
	for (int r = 0; r < hash_rounds; r++)
		for (int i = 0; i < (int)sizeof buf; i += 8)
			h = mix(h, buf[i]) + buf[i + 1];
	return (void *)(h & 1);
}

long main_share(int rounds)
{
	long acc = 0;
	for (int r = 0; r < rounds; r++)
		for (int i = 0; i < 100000; i++)
			acc += (i ^ r) & 3;
	return acc;
}

int main(int argc, char **argv)
{
	pthread_t t[3];
	void *res[3];

	prime_limit = argc > 1 ? atoi(argv[1]) : 200000;
	matrix_rounds = argc > 2 ? atoi(argv[2]) : 500;
	hash_rounds = argc > 3 ? atoi(argv[3]) : 500;
	main_rounds = argc > 4 ? atoi(argv[4]) : 500;

	pthread_create(&t[0], NULL, worker_primes, NULL);
	pthread_create(&t[1], NULL, worker_matrix, NULL);
	pthread_create(&t[2], NULL, worker_hash, NULL);
	long m = main_share(main_rounds);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], &res[i]);
	printf("%ld %ld %ld %ld\n", (long)res[0], (long)res[1], (long)res[2], m);
	return 0;
}
