/* a.c - has its own static helper() and scale(); b.c has functions with
   the same names. */
static int scale(int x)
{
	return x * 3 + 1;
}

static long helper(int n)
{
	long acc = 0;
	for (int i = 0; i < n; i++)
		acc += (acc >> 3) ^ (long)((i & 15) ? i : scale(i));
	return acc;
}

long a_work(int rounds)
{
	long t = 0;
	for (int r = 0; r < rounds; r++)
		t += helper(20000);
	return t;
}
