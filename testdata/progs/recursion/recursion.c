/*
 * recursion.c - self recursion and mutual recursion for gprof tests.
 *
 *   fib        naive doubly recursive Fibonacci (deep self recursion)
 *   ackermann  Ackermann's function A(2, n) and A(3, n): very many nested calls
 *   is_even / is_odd   mutual recursion (a two-function cycle)
 *   hanoi      Towers of Hanoi, self recursive, with a little work per move
 *   checksum   a leaf with a real loop, so some samples land outside mcount
 *   tiny       called a few times, does almost nothing: calls but no samples
 *   unused     never called at all (shows only with -z)
 *
 * Usage: prog FIB_N ACK_N PARITY_N HANOI_DISCS
 */
#include <stdio.h>
#include <stdlib.h>

static long moves;
static unsigned long mixed;

/* Each call does a little busy work of its own, so that the recursive
   functions collect samples themselves and not only inside mcount. */
long fib(int n)
{
	volatile int work = 0;
	for (int i = 0; i < 12; i++)
		work += i;
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

long ackermann(long m, long n)
{
	volatile int work = 0;
	for (int i = 0; i < 8; i++)
		work += i;
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ackermann(m - 1, 1);
	return ackermann(m - 1, ackermann(m, n - 1));
}

int is_odd(unsigned n);

int is_even(unsigned n)
{
	volatile int work = 0;
	for (int i = 0; i < 4; i++)
		work += i;
	if (n == 0)
		return 1;
	return is_odd(n - 1);
}

int is_odd(unsigned n)
{
	if (n == 0)
		return 0;
	return is_even(n - 1);
}

unsigned long checksum(unsigned long x, int rounds)
{
	for (int i = 0; i < rounds; i++)
		x = (x ^ (x >> 7)) * 0x9e3779b97f4a7c15ul + (unsigned long)i;
	return x;
}

static void hanoi(int discs, int from, int to, int via)
{
	if (discs == 0)
		return;
	hanoi(discs - 1, from, via, to);
	moves++;
	mixed = checksum(mixed + (unsigned long)(from * 3 + to), 600);
	hanoi(discs - 1, via, to, from);
}

int tiny(int x)
{
	return x + 1;
}

int unused(int x)
{
	return x * 2;
}

int main(int argc, char **argv)
{
	int fib_n = argc > 1 ? atoi(argv[1]) : 24;
	int ack_n = argc > 2 ? atoi(argv[2]) : 6;
	int par_n = argc > 3 ? atoi(argv[3]) : 2000;
	int discs = argc > 4 ? atoi(argv[4]) : 14;
	long evens = 0;

	printf("fib(%d) = %ld\n", fib_n, fib(fib_n));
	printf("A(2,%d) = %ld\n", ack_n * 10, ackermann(2, ack_n * 10));
	printf("A(3,%d) = %ld\n", ack_n, ackermann(3, ack_n));
	for (int i = 0; i < par_n; i++)
		evens += is_even((unsigned)i);
	printf("%ld even numbers below %d\n", evens, par_n);
	hanoi(discs, 1, 3, 2);
	printf("%ld moves, mix %lx\n", moves, mixed);
	printf("tiny: %d\n", tiny(tiny(tiny(0))));
	return 0;
}
