// geometry.cc - out-of-line members of the shape classes. The area
// functions integrate numerically on purpose, so they take real time.
#include "geometry.h"

namespace geo {
namespace shapes {

double Circle::area() const
{
	// Midpoint rule over a quarter circle.
	const int steps = 2000;
	double sum = 0;
	for (int i = 0; i < steps; i++) {
		double x = (i + 0.5) * r_ / steps;
		sum += std::sqrt(r_ * r_ - x * x);
	}
	return 4 * sum * r_ / steps;
}

double Circle::perimeter() const
{
	return 2 * M_PI * r_;
}

double Polygon::area() const
{
	double a = 0;
	for (int k = 0; k < 400; k++)
		a += n_ * s_ * s_ / (4 * std::tan(M_PI / n_));
	return a / 400;
}

double Polygon::perimeter() const
{
	return n_ * s_;
}

} // namespace shapes
} // namespace geo
