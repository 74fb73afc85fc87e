package demangle

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLookupOperator finds every operator by its code (the search needs
// the table in byte order of the codes) and no operator for codes that
// mangle none.
func TestLookupOperator(t *testing.T) {
	for i := range operators {
		op := &operators[i]
		require.Same(t, op, lookupOperator(op.code[0], op.code[1]), "operator %q", op.code)
	}
	for _, code := range []string{"AA", "aM", "zz", "sy", "ab"} {
		require.Nil(t, lookupOperator(code[0], code[1]), "code %q", code)
	}
}
