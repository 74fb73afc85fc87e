package symtab

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestShortName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"main", "main"},
		{"helper (a.c)", "helper (a.c)"},
		{"dup (c.c) #2", "dup (c.c) #2"},
		{"std::sqrt(float)", "std::sqrt"},
		{"std::vector<int, std::allocator<int> >::push_back(int const&)", "std::vector::push_back"},
		{"void std::_Construct<geo::Vec<double, 3>>(geo::Vec<double, 3>*)", "std::_Construct"},
		{"geo::Vec3<double>::Vec3(double, double, double)", "geo::Vec3::Vec3"},
		{"std::function<void (int)>::operator()(int) const", "std::function::operator()"},
		{"geo::operator<<(std::ostream&, geo::Shape const&)", "geo::operator<<"},
		{"bool std::operator< <int>(std::pair<int, int> const&)", "std::operator<"},
		{"main::{lambda(int)#1}::operator()(int) const", "main::{lambda#1}::operator()"},
		// From ninja built -O0 with g++ 12.
		{"bool __gnu_cxx::operator!=<Node* const*, std::vector<Node*, std::allocator<Node*> > >(__gnu_cxx::__normal_iterator<Node* const*, std::vector<Node*, std::allocator<Node*> > > const&, __gnu_cxx::__normal_iterator<Node* const*, std::vector<Node*, std::allocator<Node*> > > const&)", "__gnu_cxx::operator!="},
		{"Node::in_edge() const", "Node::in_edge"},
		{"(anonymous namespace)::real_main(int, char**)", "(anonymous namespace)::real_main"},
		{"std::pair<std::_Rb_tree_iterator<Edge*>, bool> std::_Rb_tree<Edge*, Edge*, std::_Identity<Edge*>, EdgeCmp, std::allocator<Edge*> >::_M_insert_unique<Edge* const&>(Edge* const&)", "std::_Rb_tree::_M_insert_unique"},
		{"std::basic_ostream<char, std::char_traits<char> >& std::operator<< <std::char_traits<char> >(std::basic_ostream<char, std::char_traits<char> >&, char const*)", "std::operator<<"},
		{"unsigned long Hash(char const*)", "Hash"},
		{"Vec::operator new(unsigned long)", "Vec::operator new"},
		{"Fraction::operator double() const", "Fraction::operator double"},
		{"std::vector<int>::operator=(std::vector<int>&&) &", "std::vector::operator="},
		{"std::operator<=><int>(int const&, int const&)", "std::operator<=>"},
		{"ptr::operator->() const", "ptr::operator->"},
		{"static_fn (two words.c)", "static_fn (two words.c)"},
		{"int helper(int) (a.c) #2", "helper (a.c) #2"},
		{"_ZN3geo4Vec3IdEC2Eddd", "_ZN3geo4Vec3IdEC2Eddd"},
		{"Grid::operator[](unsigned long)", "Grid::operator[]"},
		{"std::__cxx11::basic_string<char>::_M_create[abi:cxx11](unsigned long&)", "std::__cxx11::basic_string::_M_create[abi:cxx11]"},
		{"broken<(", "broken<("},
	} {
		assert.Equal(t, c.want, ShortName(c.in), c.in)
	}
}

func TestBoxNames(t *testing.T) {
	assert.Equal(t,
		[]string{
			"main", "(anonymous namespace)::step<float>", "(anonymous namespace)::step<double>", "Vec3::Vec3(double)", "Vec3::Vec3(float)",
			"std::vector::size", "geo::operator<< <float>", "geo::operator<< <double>",
			"std::_Rb_tree<Edge*>::_M_lower_bound", "std::_Rb_tree<Edge const*>::_M_lower_bound",
			"std::map<int, int, std::less<int>, A>::find", "std::map<int, int, std::less<int>, B>::find",
		},
		BoxNames([]string{
			"main",
			"void (anonymous namespace)::step<float>(geo::Bodies<float>&, float)",
			"void (anonymous namespace)::step<double>(geo::Bodies<double>&, double)",
			"Vec3::Vec3(double)",
			"Vec3::Vec3(float)",
			"std::vector<int, std::allocator<int> >::size() const",
			"std::ostream& geo::operator<< <float>(std::ostream&, geo::Vec3<float> const&)",
			"std::ostream& geo::operator<< <double>(std::ostream&, geo::Vec3<double> const&)",
			// From ninja built -O0 with g++ 12.
			"std::_Rb_tree<Edge*, std::pair<Edge* const, Plan::Want>, std::_Select1st<std::pair<Edge* const, Plan::Want> >, std::less<Edge*>, std::allocator<std::pair<Edge* const, Plan::Want> > >::_M_lower_bound(std::_Rb_tree_node<std::pair<Edge* const, Plan::Want> >*, std::_Rb_tree_node_base*, Edge* const&)",
			"std::_Rb_tree<Edge const*, std::pair<Edge const* const, int>, std::_Select1st<std::pair<Edge const* const, int> >, std::less<Edge const*>, std::allocator<std::pair<Edge const* const, int> > >::_M_lower_bound(std::_Rb_tree_node<std::pair<Edge const* const, int> >*, std::_Rb_tree_node_base*, Edge const* const&)",
			"std::map<int, int, std::less<int>, A>::find(int const&)",
			"std::map<int, int, std::less<int>, B>::find(int const&)",
		}))
}

func TestCutMiddle(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"std::_Rb_tree<Edge*>::_M_lower_bound", 20, "std::_Rb...wer_bound"},
		{"caf\u00e9caf\u00e9caf\u00e9", 8, "ca...f\u00e9"}, // 2 bytes, then 3 (f and a 2-byte \u00e9), never half a rune
	} {
		got := CutMiddle(c.in, c.max)
		assert.Equal(t, c.want, got, c.in)
		assert.LessOrEqual(t, len(got), c.max)
		assert.True(t, utf8.ValidString(got), got)
	}
}

// Labels stay apart: C++ names are shortened to their scope and
// function, a long one is cut in its middle, and names that would still
// look alike keep more of themselves, or a number.
func TestLabels(t *testing.T) {
	long := "numerics::solvers::multigrid::Smoother<double>::"
	got := Labels([]string{
		"geo::Mesh<double, 3>::refine(geo::Cell<double, 3>&, int)",
		"geo::Mesh<float, 3>::refine(geo::Cell<float, 3>&, int)",
		"solver::apply(int)",
		"solver::apply(double)",
		"main",
		long + "relax_red_black_lines(numerics::Grid&)",
		"prefix_that_is_rather_long_" + strings.Repeat("a", 30) + "_and_a_long_common_ending",
		"prefix_that_is_rather_long_" + strings.Repeat("b", 30) + "_and_a_long_common_ending",
	}, 40)
	assert.Equal(t, []string{
		// Alike once shortened: the first template argument tells them apart.
		"geo::Mesh<double>::refine",
		"geo::Mesh<float>::refine",
		// Overloads: the whole names, short enough.
		"solver::apply(int)",
		"solver::apply(double)",
		"main",
		// Shortened to numerics::solvers::multigrid::Smoother::relax_red_black_lines, then cut.
		"numerics::solvers:...lax_red_black_lines",
		// Alike at both ends whatever is kept: numbered.
		"prefix_that_is_rat..._long_common_ending",
		"prefix_that_is_rat..._long_common_ending #2",
	}, got)
	seen := map[string]bool{}
	for _, l := range got {
		assert.False(t, seen[l], "%q twice", l)
		seen[l] = true
		assert.LessOrEqual(t, len(strings.TrimSuffix(l, " #2")), 40)
	}
}
