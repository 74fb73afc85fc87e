/* aarch64 test program: see build.sh. */
#include <stdio.h>
#include <stdlib.h>

static int square(int x) { return x * x; }
int scaled(int x);
int mixed(int x);
int helper(int k);

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	long t = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < 300; j++)
			t += square(j) + scaled(i + j) + mixed(j) + helper(i ^ j);
	printf("%ld\n", t);
	return 0;
}
