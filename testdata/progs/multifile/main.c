/*
 * multifile - several translation units, for gprof tests.
 *
 *   a.c, b.c   each has a static function called `helper' (same name,
 *              different files and work) and a static `scale'.
 *   alias.c    one function body with several names:
 *                sum_impl  + fast_sum  (a weak alias of a global function)
 *                mix_impl  (static) + mix (a global alias)
 *                _checksum + checksum  (both global; gprof keeps the name
 *                            without the leading underscore)
 *              and report_hook, a weak function that is actually used.
 *
 * Usage: prog ROUNDS_A ROUNDS_B
 */
#include <stdio.h>
#include <stdlib.h>

long a_work(int rounds);
long b_work(int rounds);
long fast_sum(const int *v, int n);
long mix(long x);
unsigned checksum(const unsigned char *p, int n);
void report_hook(const char *what, long value);

static int data[4096];

int main(int argc, char **argv)
{
	int ra = argc > 1 ? atoi(argv[1]) : 100;
	int rb = argc > 2 ? atoi(argv[2]) : 100;
	long total = 0;

	for (int i = 0; i < 4096; i++)
		data[i] = (i * 37) % 101;
	total += a_work(ra);
	total += b_work(rb);
	for (int i = 0; i < ra + rb; i++) {
		total += fast_sum(data, 4096);
		total = mix(total);
		total += checksum((const unsigned char *)data, (int)sizeof data);
	}
	report_hook("total", total);
	return 0;
}
