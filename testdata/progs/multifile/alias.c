/* alias.c - functions known under more than one symbol name. */
#include <stdio.h>

/* A global function and a weak alias of it: both symbols have one address. */
long sum_impl(const int *v, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += v[i] * (i & 7);
	return s;
}
long fast_sum(const int *v, int n) __attribute__((weak, alias("sum_impl")));

/* A static function with a global alias. */
static long mix_impl(long x)
{
	for (int i = 0; i < 2000; i++)
		x = x * 6364136223846793005l + 1442695040888963407l;
	return x;
}
long mix(long x) __attribute__((alias("mix_impl")));

/* Two global names; one starts with an underscore. */
unsigned _checksum(const unsigned char *p, int n)
{
	unsigned h = 2166136261u;
	for (int i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}
unsigned checksum(const unsigned char *p, int n) __attribute__((alias("_checksum")));

/* A weak definition that nothing overrides. */
__attribute__((weak)) void report_hook(const char *what, long value)
{
	printf("%s = %ld\n", what, value);
}
