#!/usr/bin/env bash
# dwz: two programs sharing lib.c, whose common debug information
# `dwz -m common.debug` moves into a file of its own that both name in
# .gnu_debugaltlink (DW_FORM_GNU_ref_alt and DW_FORM_GNU_strp_alt point
# into it). egprof and gprof read that file beside prog; the tests also
# move it away, where egprof warns that it was not found.
# Only prog is profiled; other is built for dwz and not kept.
source "$(dirname "$0")/../../scripts/build-lib.sh"
need_tools dwz dwz

build gcc -pg -g -gdwarf-4 -O2 -o "$D/prog" "$D/main.c" "$D/lib.c"
build gcc -pg -g -gdwarf-4 -O2 -o "$D/other" "$D/other.c" "$D/lib.c"
( cd "$D" && dwz -m common.debug prog other )
rm -f "$D/other"

profile gmon.out
