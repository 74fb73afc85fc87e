package experiment

import (
	"strings"
	"testing"
)

// FuzzParseTable feeds experiment tables (TSV or CSV) to the parser: it
// must never panic, and an error always names the table.
func FuzzParseTable(f *testing.F) {
	f.Add([]byte("gmon\tbinary\tprocs\twork\nrun1.out\tprog\t4\t100\n"))
	f.Add([]byte("gmon,library,nb\na.out,mpich,64\nb.out,lam,32\n"))
	f.Add([]byte("gmon\n\n#comment\n"))
	f.Add([]byte("procs\twork\n4\t100\n"))
	f.Add([]byte("gmon\tx\n\"a\tb\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := parseTable("/nonexistent/exp.tsv", data, TableOptions{Binary: "a.out"})
		if err != nil && !strings.Contains(err.Error(), "exp.tsv") {
			t.Fatalf("error does not name the table: %v", err)
		}
	})
}
