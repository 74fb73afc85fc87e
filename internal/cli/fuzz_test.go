package cli

import (
	"strings"
	"testing"
)

// FuzzSplitArgs feeds @FILE response files to the word splitter: never a
// panic, and no word holds unquoted white space.
func FuzzSplitArgs(f *testing.F) {
	f.Add("-b\n-p\nprog gmon.out")
	f.Add(`'quoted word' "double \"q\"" back\ slash`)
	f.Add("unterminated 'quote")
	f.Fuzz(func(t *testing.T, s string) {
		words := splitArgs(s)
		if !strings.ContainsAny(s, `'"\`) {
			for _, w := range words {
				if strings.ContainsAny(w, " \t\n\r\f\v") {
					t.Fatalf("word %q from %q", w, s)
				}
			}
		}
	})
}
