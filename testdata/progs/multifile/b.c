/* b.c - its static helper() does different work from the one in a.c;
   its static scale() is never called (only visible with -z). */
static int scale(int x)
{
	return x * 5 - 2;
}

static long helper(int n)
{
	double acc = 1.0;
	for (int i = 1; i < n; i++)
		acc = acc * 1.0000001 + 1.0 / i;
	return (long)acc;
}

long b_work(int rounds)
{
	long t = 0;
	for (int r = 0; r < rounds; r++)
		t += helper(30000);
	return t;
}

long b_unused(int x)
{
	return scale(x);
}
