/*
 * cycles.c - several call-graph cycles for gprof tests.
 *
 *   p <-> q <-> r      two interlocking cycles (p-q and q-r share q): gprof
 *                      merges them into one cycle; q is also self recursive.
 *                      Called from two outside callers, caller1 and caller2.
 *   x <-> y            a separate two-member cycle, called from main.
 *   a -> b -> c -> a   a three-member ring, called from main.
 *   cmp_a <-> cmp_b    comparison callbacks that call each other; they are
 *                      only ever called by qsort (uninstrumented libc), so the
 *                      cycle has no caller that gprof can see.
 *   burn               the leaf that does the actual work in every cycle.
 *
 * Usage: prog SCALE
 */
#include <stdio.h>
#include <stdlib.h>

static unsigned long sink;

/* Some work done inline by each cycle member, so members have self time. */
#define SPIN(k) do { for (volatile int i_ = 0; i_ < (k) * 40000; i_++) ; } while (0)

void burn(int k)
{
	unsigned long h = sink;
	for (int i = 0; i < k * 300; i++)
		h = (h << 5) + h + (unsigned long)i;
	sink = h;
}

/* --- p, q, r: two interlocking cycles --------------------------------- */
void q(int n);

void p(int n)
{
	SPIN(3);
	burn(300);
	if (n > 0)
		q(n - 1);
}

void r(int n)
{
	SPIN(4);
	burn(500);
	if (n > 0)
		q(n - 1);
}

void q(int n)
{
	SPIN(2);
	burn(200);
	if (n <= 0)
		return;
	switch (n % 5) {
	case 0:
	case 3:
		p(n - 1);
		break;
	case 1:
	case 4:
		r(n - 1);
		break;
	default:
		q(n - 1);	/* self call inside the cycle */
		break;
	}
}

void caller1(int n)
{
	for (int i = 0; i < n; i++)
		p(12);
}

void caller2(int n)
{
	for (int i = 0; i < n; i++)
		r(9);
}

/* --- x, y: a second, separate cycle ------------------------------------ */
void y(int n);

void x(int n)
{
	SPIN(2);
	burn(400);
	if (n > 0)
		y(n - 1);
}

void y(int n)
{
	SPIN(5);
	burn(100);
	if (n > 0)
		x(n - 1);
}

/* --- a -> b -> c -> a: a ring of three --------------------------------- */
void b(int n);
void c(int n);

void a(int n)
{
	SPIN(3);
	burn(150);
	if (n > 0)
		b(n - 1);
}

void b(int n)
{
	SPIN(2);
	burn(250);
	if (n > 0)
		c(n - 1);
}

void c(int n)
{
	SPIN(1);
	burn(350);
	if (n > 0)
		a(n - 1);
}

/* --- cmp_a <-> cmp_b: a cycle reached only through qsort --------------- */
static int flips;

int cmp_b(const void *l, const void *r);

int cmp_a(const void *l, const void *r)
{
	int u = *(const int *)l, v = *(const int *)r;
	burn(2);
	if (++flips % 2 == 0)
		return cmp_b(l, r);
	return (u > v) - (u < v);
}

int cmp_b(const void *l, const void *r)
{
	int u = *(const int *)l, v = *(const int *)r;
	burn(3);
	if (++flips % 5 == 0)
		return cmp_a(l, r);
	return (u > v) - (u < v);
}

static void sort_numbers(int count)
{
	int *v = malloc(sizeof *v * (size_t)count);
	unsigned s = 7;
	for (int i = 0; i < count; i++) {
		s = s * 1664525u + 1013904223u;
		v[i] = (int)(s >> 8);
	}
	qsort(v, (size_t)count, sizeof *v, cmp_a);
	sink += (unsigned long)v[count / 2];
	free(v);
}

int main(int argc, char **argv)
{
	int scale = argc > 1 ? atoi(argv[1]) : 10;

	caller1(30 * scale);
	caller2(20 * scale);
	for (int i = 0; i < 25 * scale; i++)
		x(10);
	for (int i = 0; i < 20 * scale; i++)
		a(11);
	sort_numbers(400 * scale);
	printf("%lu\n", sink);
	return 0;
}
