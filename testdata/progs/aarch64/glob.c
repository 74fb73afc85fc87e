/* Only global functions: gprof meets this file through them, after the
   files it meets through static functions. */
int scaled(int x)
{
	int s = 0;
	for (int k = 0; k < 20; k++)
		s += (x + k) * 3;
	return s;
}

int mixed(int x)
{
	return scaled(x) ^ (x << 2);
}
