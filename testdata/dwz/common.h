/* A list summed by two programs whose shared debug information dwz moves
   into common.debug. */
struct node {
	struct node *next;
	long val;
};
struct list {
	struct node *head;
	int n;
};
long walk(struct list *l, int k);
long step(struct node *n, int k);
void fill(struct list *l, int n);
