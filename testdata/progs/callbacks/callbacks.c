/*
 * callbacks.c - functions that gprof sees without a caller, or never runs.
 *
 * Called only from uninstrumented code (libc), so gprof records no arc
 * into them and lists them as <spontaneous>:
 *   by_value      qsort comparison function
 *   by_key        bsearch comparison function
 *   visit_node    twalk callback
 *   setup_tables  a constructor, run by the C runtime before main
 *   on_signal     a signal handler (raise(SIGUSR1))
 *   at_exit_report / teardown   an atexit handler and a destructor
 * Called through function pointers from instrumented code (arcs recorded):
 *   op_add, op_xor, op_rot  via apply_ops
 * Called, but too quick to collect samples:  rarely
 * Never called (only listed with -z):        never_called, never_static
 *
 * Usage: prog COUNT ROUNDS
 */
#include <search.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#define TABLE 4096

static unsigned table[TABLE];
static unsigned long seen;
static volatile sig_atomic_t signals;

__attribute__((constructor)) void setup_tables(void)
{
	unsigned s = 1;
	for (int round = 0; round < 12000; round++)
		for (int i = 0; i < TABLE; i++) {
			s = s * 1103515245u + 12345u;
			table[i] ^= s >> 7;
		}
}

__attribute__((destructor)) void teardown(void)
{
	seen ^= table[0];
}

void at_exit_report(void)
{
	printf("seen %lu, %d signal(s)\n", seen, (int)signals);
}

void on_signal(int sig)
{
	(void)sig;
	signals++;
}

int by_value(const void *l, const void *r)
{
	unsigned a = *(const unsigned *)l, b = *(const unsigned *)r;
	unsigned ha = a, hb = b;
	for (int i = 0; i < 60; i++) {
		ha = (ha ^ (ha >> 3)) * 2654435761u;
		hb = (hb ^ (hb >> 3)) * 2654435761u;
	}
	return (ha > hb) - (ha < hb);
}

int by_key(const void *key, const void *elem)
{
	unsigned a = *(const unsigned *)key, b = *(const unsigned *)elem;
	return (a > b) - (a < b);
}

int cmp_plain(const void *l, const void *r)
{
	unsigned a = *(const unsigned *)l, b = *(const unsigned *)r;
	return (a > b) - (a < b);
}

void visit_node(const void *node, VISIT which, int depth)
{
	(void)depth;
	if (which == postorder || which == leaf)
		seen += **(const unsigned *const *)node;
}

unsigned op_add(unsigned a, unsigned b) { return a + b; }
unsigned op_xor(unsigned a, unsigned b) { return a ^ b; }
unsigned op_rot(unsigned a, unsigned b) { return (a << (b & 31)) | (a >> ((32 - (b & 31)) & 31)); }

unsigned apply_ops(unsigned (*const ops[])(unsigned, unsigned), int nops, int rounds)
{
	unsigned acc = 1;
	for (int r = 0; r < rounds; r++)
		for (int i = 0; i < nops; i++)
			acc = ops[i](acc, table[(r + i) % TABLE]);
	return acc;
}

int rarely(int x)
{
	return x ^ 1;
}

int never_called(int x)
{
	return x * 3;
}

__attribute__((used)) static int never_static(int x)
{
	return x * 5;
}

int main(int argc, char **argv)
{
	int count = argc > 1 ? atoi(argv[1]) : 20000;
	int rounds = argc > 2 ? atoi(argv[2]) : 100000;
	unsigned *v = malloc(sizeof *v * (size_t)count);
	unsigned (*const ops[])(unsigned, unsigned) = { op_add, op_xor, op_rot, op_add };
	void *root = NULL;

	atexit(at_exit_report);
	signal(SIGUSR1, on_signal);
	for (int i = 0; i < count; i++)
		v[i] = table[i % TABLE] + (unsigned)i;
	qsort(v, (size_t)count, sizeof *v, by_value);
	qsort(v, (size_t)count, sizeof *v, cmp_plain);
	for (int i = 0; i < count; i += 3) {
		unsigned key = v[(i * 7) % count];
		if (bsearch(&key, v, (size_t)count, sizeof *v, by_key))
			seen++;
	}
	for (int i = 0; i < count && i < 2000; i++)
		tsearch(&v[i], &root, by_key);
	twalk(root, visit_node);
	seen += apply_ops(ops, 4, rounds);
	raise(SIGUSR1);
	seen += (unsigned long)rarely(rarely(rarely(1)));
	return 0;
}
