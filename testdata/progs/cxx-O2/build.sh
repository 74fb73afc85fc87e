#!/usr/bin/env bash
# cxx-O2: the sources of ../cxx built with g++ -O2 and no -g (so no line
# information). Most std:: helpers are inlined away; clones such as
# .constprop/.isra/.part and .cold appear. (With -g, gprof 2.40 -l aborts on
# such C++ -O2 binaries with "somebody miscounted", which is why there is no -g.)
source "$(dirname "$0")/../../../scripts/build-lib.sh"

build g++ -pg -O2 -o "$D/prog" testdata/progs/cxx/main.cc testdata/progs/cxx/geometry.cc

profile gmon.out  900 200 3000
profile gmon2.out 700 300 6000
