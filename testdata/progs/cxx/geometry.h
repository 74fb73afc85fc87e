// geometry.h - a small vector template and a shape hierarchy.
#ifndef GEOMETRY_H
#define GEOMETRY_H

#include <cmath>
#include <string>

namespace geo {

template <typename T>
struct Vec3 {
	T x, y, z;

	Vec3() : x(0), y(0), z(0) {}
	Vec3(T a, T b, T c) : x(a), y(b), z(c) {}

	Vec3 operator+(const Vec3 &o) const { return Vec3(x + o.x, y + o.y, z + o.z); }
	Vec3 operator-(const Vec3 &o) const { return Vec3(x - o.x, y - o.y, z - o.z); }
	Vec3 operator*(T k) const { return Vec3(x * k, y * k, z * k); }
	Vec3 &operator+=(const Vec3 &o)
	{
		x += o.x;
		y += o.y;
		z += o.z;
		return *this;
	}
	T &operator[](int i) { return i == 0 ? x : i == 1 ? y : z; }
	T dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
	T norm() const { return std::sqrt(dot(*this)); }
};

template <typename T>
bool operator<(const Vec3<T> &a, const Vec3<T> &b)
{
	return a.dot(a) < b.dot(b);
}

namespace shapes {

class Shape {
public:
	explicit Shape(std::string name) : name_(std::move(name)) {}
	virtual ~Shape() {}
	virtual double area() const = 0;
	virtual double perimeter() const = 0;
	const std::string &name() const { return name_; }

private:
	std::string name_;
};

class Circle : public Shape {
public:
	explicit Circle(double r) : Shape("circle"), r_(r) {}
	double area() const override;
	double perimeter() const override;

private:
	double r_;
};

class Polygon : public Shape {
public:
	Polygon(int sides, double side) : Shape("polygon"), n_(sides), s_(side) {}
	double area() const override;
	double perimeter() const override;

private:
	int n_;
	double s_;
};

} // namespace shapes
} // namespace geo

#endif
