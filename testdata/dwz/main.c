#include <stdio.h>
#include "common.h"

int main(void)
{
	struct list l = {0};
	long s = 0;
	fill(&l, 1000);
	for (int r = 0; r < 3000; r++)
		s += walk(&l, 100);
	printf("%ld\n", s);
	return 0;
}
