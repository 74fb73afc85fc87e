package wire

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/experiment"
	"github.com/egprof/egprof/ranks"
)

// Requests and charts survive the trip; malformed ones are refused with
// what is wrong.
func TestRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	req := &Request{Ranks: &ranks.Report{Exe: "prog", P: 3, TotalSeconds: 1.5}}
	require.NoError(t, WriteRequest(&buf, req))
	got, err := ReadRequest(&buf)
	require.NoError(t, err)
	assert.Equal(t, req, got)

	assert.Error(t, WriteRequest(&buf, &Request{}))
	assert.Error(t, WriteRequest(&buf, &Request{Ranks: &ranks.Report{}, Experiment: &experiment.Result{}}))
	_, err = ReadRequest(bytes.NewReader([]byte("junk")))
	assert.ErrorContains(t, err, "decoding the chart request")

	reply := &Reply{Charts: []Chart{{Name: "heatmap.svg", SVG: []byte("<svg/>")}}, Skipped: []string{"psi.svg: nothing bracketed"}}
	buf.Reset()
	require.NoError(t, WriteReply(&buf, reply))
	back, err := ReadReply(&buf)
	require.NoError(t, err)
	assert.Equal(t, reply, back)

	for _, name := range []string{"", "..", "../x.svg", "a/b.svg"} {
		buf.Reset()
		require.NoError(t, WriteReply(&buf, &Reply{Charts: []Chart{{Name: name}}}))
		_, err := ReadReply(&buf)
		assert.ErrorContains(t, err, "plain file name", "%q", name)
	}
}
