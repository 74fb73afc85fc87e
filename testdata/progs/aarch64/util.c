/* A static function and a global one. */
static int inner(int x)
{
	int s = 0;
	for (int k = 0; k < 10; k++)
		s += x / (k + 1);
	return s;
}

int helper(int k)
{
	return inner(k) + 1;
}
