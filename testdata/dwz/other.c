#include <stdio.h>
#include "common.h"

int main(int argc, char **argv)
{
	struct list l = {0};
	fill(&l, 10);
	printf("%ld\n", walk(&l, argc));
	return 0;
}
