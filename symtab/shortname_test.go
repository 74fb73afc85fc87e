package symtab

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestShortName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"main", "main"},
		{"helper (a.c)", "helper (a.c)"},
		{"dup (c.c) #2", "dup (c.c) #2"},
		{"std::sqrt(float)", "std::sqrt"},
		{"std::vector<int, std::allocator<int> >::push_back(int const&)", "std::vector::push_back"},
		{"void std::_Construct<geo::Vec<double, 3>>(geo::Vec<double, 3>*)", "void std::_Construct"},
		{"geo::Vec3<double>::Vec3(double, double, double)", "geo::Vec3::Vec3"},
		{"std::function<void (int)>::operator()(int) const", "std::function::operator() const"},
		{"geo::operator<<(std::ostream&, geo::Shape const&)", "geo::operator<<"},
		{"bool std::operator< <int>(std::pair<int, int> const&)", "bool std::operator<"},
		{"main::{lambda(int)#1}::operator()(int) const", "main::{lambda#1}::operator() const"},
		{"_ZN3geo4Vec3IdEC2Eddd", "_ZN3geo4Vec3IdEC2Eddd"},
		{"Grid::operator[](unsigned long)", "Grid::operator[]"},
		{"std::__cxx11::basic_string<char>::_M_create[abi:cxx11](unsigned long&)", "std::__cxx11::basic_string::_M_create[abi:cxx11]"},
		{"broken<(", "broken<("},
	} {
		assert.Equal(t, c.want, ShortName(c.in), c.in)
	}
}
