package getopt_test

import (
	"fmt"

	"github.com/egprof/egprof/internal/getopt"
)

// The caller acts on the options in order and looks at the error only after
// them, so an option that exits (here -v) wins if it comes before the error.
func Example() {
	p := &getopt.Parser{
		Shorts: "bp::vw:",
		Longs: []getopt.LongOption{
			{Name: "brief", Arg: getopt.None, Short: 'b'},
			{Name: "flat-profile", Arg: getopt.Optional, Short: 'p'},
			{Name: "version", Arg: getopt.None, Short: 'v'},
			{Name: "width", Arg: getopt.Required, Short: 'w'},
		},
	}
	run := func(args ...string) {
		opts, operands, err := p.Parse(args)
		for _, o := range opts {
			if o.Short == 'v' {
				fmt.Println("version, exit 0")
				return
			}
			fmt.Printf("-%c %q  ", o.Short, o.Arg)
		}
		if err != nil {
			fmt.Println("gprof: " + err.Error() + ", exit 1")
			return
		}
		fmt.Printf("operands %q\n", operands)
	}
	run("-v", "--bogus")
	run("--bogus", "-v")
	run("prog", "-bw", "40", "gmon.out", "--flat=main", "-pb")
	run("--w")
	// Output:
	// version, exit 0
	// gprof: unrecognized option '--bogus', exit 1
	// -b ""  -w "40"  -p "main"  -p "b"  operands ["prog" "gmon.out"]
	// gprof: option '--width' requires an argument, exit 1
}
