/* A tiny program with symbols and DWARF line information: the seed of the
   executable fuzz targets (see build.sh). */
static int twice(int x) { return 2 * x; }

int work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += twice(i);
	return s;
}

void _start(void)
{
	work(3);
	for (;;)
		;
}
