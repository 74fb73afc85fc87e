package render

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
)

// -r and -R print their names one per line, with no heading and no
// section separator even after another section.
func TestOrderingPrinters(t *testing.T) {
	var buf bytes.Buffer
	tx := NewText(&buf, &callgraph.Graph{}, TextOptions{Brief: true})
	tx.MarkPrinted()
	tx.FunctionOrdering([]string{"main", "f"})
	tx.FileOrdering([]string{"a.o", "b.o"})
	require.NoError(t, tx.Flush())
	assert.Equal(t, "main\nf\na.o\nb.o\n", buf.String())
}
