#include <stdlib.h>
#include "common.h"

long step(struct node *n, int k)
{
	long s = 0;
	for (int i = 0; i < k; i++)
		s += n->val * i ^ (s >> 3);
	return s;
}

long walk(struct list *l, int k)
{
	long s = 0;
	for (struct node *n = l->head; n; n = n->next)
		s += step(n, k);
	return s;
}

void fill(struct list *l, int n)
{
	for (int i = 0; i < n; i++) {
		struct node *x = malloc(sizeof *x);
		x->val = i;
		x->next = l->head;
		l->head = x;
		l->n++;
	}
}
