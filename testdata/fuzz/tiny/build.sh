#!/bin/sh
# Builds the tiny seed executable of the fuzz targets: no C library, no
# build ID, debug information for its one file (a few KB in all).
cd "$(dirname "$0")" && gcc -g -O0 -nostdlib -static -fno-asynchronous-unwind-tables -Wl,--build-id=none,-N -o prog tiny.c
