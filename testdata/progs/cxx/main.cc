// main.cc - a C++ workload for gprof: templates, namespaces, operators,
// virtual methods, an anonymous namespace, a lambda, overloads and std
// containers (std::vector, std::sort; std::string in geometry.h).
//
// Usage: prog BODIES STEPS SHAPES
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <vector>

#include "geometry.h"

namespace stats {

// Counts values into fixed-width bins held in a std::vector.
class Histogram {
public:
	explicit Histogram(double width) : width_(width) {}
	void add(double v);
	int mode() const;
	friend std::ostream &operator<<(std::ostream &os, const Histogram &h);

private:
	double width_;
	std::vector<double> bins_;
};

void Histogram::add(double v)
{
	std::size_t b = static_cast<std::size_t>(v / width_);
	if (b >= bins_.size())
		bins_.resize(b + 1);
	bins_[b] += 1;
}

int Histogram::mode() const
{
	int best = 0;
	for (std::size_t i = 1; i < bins_.size(); i++)
		if (bins_[i] > bins_[best])
			best = static_cast<int>(i);
	return best;
}

std::ostream &operator<<(std::ostream &os, const Histogram &h)
{
	return os << "histogram(mode " << h.mode() << ")";
}

} // namespace stats

namespace {

// A tiny random generator used as a function object.
struct Lcg {
	unsigned long state;
	explicit Lcg(unsigned long seed) : state(seed) {}
	double operator()()
	{
		state = state * 6364136223846793005ul + 1442695040888963407ul;
		return static_cast<double>(state >> 11) / 9007199254740992.0;
	}
};

// A fixed-size array of bodies (kept out of std containers so the profile
// stays readable).
template <typename T>
struct Bodies {
	int n;
	geo::Vec3<T> *pos, *vel;
	Bodies(int count, Lcg &rng) : n(count), pos(new geo::Vec3<T>[count]), vel(new geo::Vec3<T>[count])
	{
		for (int i = 0; i < n; i++)
			pos[i] = geo::Vec3<T>(T(rng()), T(rng()), T(rng()));
	}
	~Bodies()
	{
		delete[] pos;
		delete[] vel;
	}
};

// Gravity-like pairwise interaction: the hot loop of the program.
template <typename T>
void step(Bodies<T> &b, T dt)
{
	const geo::Vec3<T> *p = b.pos;
	for (int i = 0; i < b.n; i++) {
		T ax = 0, ay = 0, az = 0;
		for (int j = 0; j < b.n; j++) {
			T dx = p[j].x - p[i].x, dy = p[j].y - p[i].y, dz = p[j].z - p[i].z;
			T d2 = dx * dx + dy * dy + dz * dz + T(0.01);
			T inv = T(1) / (d2 * std::sqrt(d2));
			ax += dx * inv;
			ay += dy * inv;
			az += dz * inv;
		}
		b.vel[i] += geo::Vec3<T>(ax, ay, az) * dt;
	}
	for (int i = 0; i < b.n; i++)
		b.pos[i] += b.vel[i] * dt;
}

template <typename T>
T total_norm(const Bodies<T> &b)
{
	T s = 0;
	for (int i = 0; i < b.n; i++)
		s += b.pos[i].norm();
	return s;
}

} // namespace

// Overloads: same name, different parameter types.
double scale(double v) { return v * 1.5; }
int scale(int v) { return v * 3; }

extern "C" int plain_c_function(int v) { return v + 42; }

int main(int argc, char **argv)
{
	int bodies = argc > 1 ? std::atoi(argv[1]) : 100;
	int steps = argc > 2 ? std::atoi(argv[2]) : 20;
	int nshapes = argc > 3 ? std::atoi(argv[3]) : 300;
	Lcg rng(2024);

	Bodies<double> bd(bodies, rng);
	Bodies<float> bf(bodies / 2, rng);
	for (int s = 0; s < steps; s++) {
		step(bd, 0.001);
		step(bf, 0.001f);
	}

	stats::Histogram hist(10.0);
	std::vector<double> areas;
	double perim = 0;
	for (int i = 0; i < nshapes; i++) {
		geo::shapes::Shape *sh;
		if (i % 3 == 0)
			sh = new geo::shapes::Polygon(3 + i % 7, 1.0 + i % 5);
		else
			sh = new geo::shapes::Circle(0.5 + (i % 11));
		double a = sh->area();
		hist.add(a);
		areas.push_back(a);
		perim += sh->perimeter();
		delete sh;
	}
	std::sort(areas.data(), areas.data() + areas.size(), [](double a, double b) { return a > b; });

	std::cout << total_norm(bd) << " " << total_norm(bf) << " " << hist << " " << areas[0]
		  << " " << scale(perim) << " " << scale(7) << " " << plain_c_function(1) << "\n";
	return 0;
}
