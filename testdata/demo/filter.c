/*
 * filter.c - a tiny image pipeline, written to be profiled with gprof.
 *
 *   make_image  fills a greyscale picture with smooth waves plus noise
 *   blur        a 3x3 box blur, applied PASSES times (the hot loop)
 *   sharpen     an unsharp mask that uses clamp() on every pixel
 *   count_blobs thresholds the picture and labels bright regions with a
 *               recursive flood fill (fill calls itself)
 *
 * Usage: prog [passes]     (default 12)
 */
#include <stdio.h>
#include <stdlib.h>

#define W 256
#define H 256

static unsigned char img[H][W];
static unsigned char tmp[H][W];
static int label[H][W];

static unsigned int seed = 12345;

/* A small linear congruential generator: deterministic noise. */
static int noise(void)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 16) & 31;
}

int clamp(int v)
{
	if (v < 0)
		return 0;
	if (v > 255)
		return 255;
	return v;
}

void make_image(void)
{
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int wave = ((x * 7) ^ (y * 5)) & 127;
			img[y][x] = (unsigned char)(wave + noise() * 3);
		}
}

/* One pass of a 3x3 box blur; the border is left unchanged. */
void blur(void)
{
	for (int y = 1; y < H - 1; y++)
		for (int x = 1; x < W - 1; x++) {
			int sum = 0;
			for (int dy = -1; dy <= 1; dy++)
				for (int dx = -1; dx <= 1; dx++)
					sum += img[y + dy][x + dx];
			tmp[y][x] = (unsigned char)(sum / 9);
		}
	for (int y = 1; y < H - 1; y++)
		for (int x = 1; x < W - 1; x++)
			img[y][x] = tmp[y][x];
}

void sharpen(void)
{
	for (int y = 1; y < H - 1; y++)
		for (int x = 1; x < W - 1; x++) {
			int edge = 5 * img[y][x] - img[y - 1][x] - img[y + 1][x]
				 - img[y][x - 1] - img[y][x + 1];
			tmp[y][x] = (unsigned char)clamp(edge);
		}
	for (int y = 1; y < H - 1; y++)
		for (int x = 1; x < W - 1; x++)
			img[y][x] = tmp[y][x];
}

/* Recursive flood fill: label every bright pixel connected to (x, y). */
static int fill(int x, int y, int id, int threshold)
{
	if (x < 0 || y < 0 || x >= W || y >= H)
		return 0;
	if (label[y][x] != 0 || img[y][x] < threshold)
		return 0;
	label[y][x] = id;
	return 1 + fill(x + 1, y, id, threshold) + fill(x - 1, y, id, threshold)
		 + fill(x, y + 1, id, threshold) + fill(x, y - 1, id, threshold);
}

int count_blobs(int threshold)
{
	int blobs = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			label[y][x] = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			if (fill(x, y, blobs + 1, threshold) > 0)
				blobs++;
	return blobs;
}

int main(int argc, char **argv)
{
	int passes = argc > 1 ? atoi(argv[1]) : 12;

	make_image();
	for (int i = 0; i < passes; i++) {
		blur();
		if (i % 4 == 3)
			sharpen();
	}
	printf("%d passes, %d blobs\n", passes, count_blobs(140));
	return 0;
}
