package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/testenv"
	"github.com/egprof/egprof/ranks"
	"github.com/egprof/egprof/render/charts/wire"
)

// withChartsHelper builds the egprof-charts command for this test process
// and puts it first on PATH.
func withChartsHelper(t *testing.T) {
	t.Helper()
	bin := testenv.GoBinary(t, testenv.EgprofPackage+"/cmd/egprof-charts")
	t.Setenv("PATH", filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// Without egprof-charts, plots fail with an error that says how to install
// it, and no folder is made.
func TestDrawChartsMissingHelper(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := drawCharts(&wire.Request{Ranks: &ranks.Report{}})
	require.Error(t, err)
	assert.True(t, errors.Is(err, errNoHelper))
	assert.Contains(t, err.Error(), chartsHelper.install)
}

// A helper that fails half-way: its message reaches the error, and a
// helper that writes garbage is refused.
func TestDrawChartsHelperFails(t *testing.T) {
	for _, tt := range []struct{ name, script, want string }{
		{"failure", "#!/bin/sh\ncat >/dev/null\necho 'cannot draw' >&2\nexit 3\n", "cannot draw"},
		{"garbage", "#!/bin/sh\ncat >/dev/null\necho 'not a gob stream'\n", "decoding the charts"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bin := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(bin, chartsHelper.name), []byte(tt.script), 0o755))
			t.Setenv("PATH", bin+string(os.PathListSeparator)+"/usr/bin:/bin")
			_, err := drawCharts(&wire.Request{Ranks: &ranks.Report{}})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// The charts a helper sends back are written as they came, one file each.
func TestWriteCharts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plots")
	cs := []wire.Chart{{Name: "a.svg", SVG: []byte("<svg>a</svg>")}, {Name: "b.svg", SVG: []byte("<svg>b</svg>")}}
	files, err := writeCharts(dir, cs)
	require.NoError(t, err)
	require.Len(t, files, 2)
	for i, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(cs[i].SVG, data), f)
	}
}
