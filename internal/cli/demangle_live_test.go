package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/progen"
	"github.com/egprof/egprof/internal/testenv"
)

// liveCXXSource is the C++ program TestLiveDemangleCXX builds: templates,
// variadic packs (empty ones too), generic lambdas and lambdas in template
// arguments, inheriting constructors, and the standard library's
// std::map, std::unique_ptr, std::shared_ptr, std::function and std::tuple.
var liveCXXSource = filepath.Join("testdata", "demangle", "live", "prog.cc")

// TestLiveDemangleCXX builds a C++ program with g++ -pg, runs it, and
// checks that egprof prints the same bytes as GNU gprof on its gmon.out,
// C++ names included, for the live test's option sets and the demangling
// options, at -O0 and at -O2 -g.
func TestLiveDemangleCXX(t *testing.T) {
	gxx := testenv.Tool(t, "g++")
	gprof := testenv.Gprof(t)
	src, err := os.ReadFile(liveCXXSource)
	require.NoError(t, err)

	sets := liveOptionSets()
	for _, demangle := range []string{"--demangle", "--demangle=gnu-v3", "--no-demangle"} {
		sets = append(sets, liveOptionSet{args: []string{"-b", "-q", demangle}})
	}
	for _, build := range []progen.BuildOptions{{Opt: "-O0"}, {Opt: "-O2", Debug: true}} {
		t.Run(strings.Join(strings.Fields(build.String()), ""), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "prog.cc"), src, 0o666))
			argv := append([]string{"g++", "-std=c++17"}, build.Args(nil, "prog.cc", "prog")...)
			testenv.Run(ctx, t, gxx, dir, argv).OK(t)
			gmon, err := progen.RunForProfile(ctx, dir, filepath.Join(dir, "prog"))
			require.NoError(t, err)
			for _, set := range sets {
				if set.needDebug && !build.Debug {
					continue
				}
				argv := append(append([]string{"gprof"}, set.args...), filepath.Join(dir, "prog"), gmon)
				want := testenv.Run(ctx, t, gprof, dir, argv)
				got := testenv.RunMain(run, argv...)
				compareResults(t, fmt.Sprintf("gprof %s on %s built with g++ %s", strings.Join(set.args, " "), liveCXXSource, build), want, got)
			}
		})
	}
}
