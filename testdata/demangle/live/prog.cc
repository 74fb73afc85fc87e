// A C++ program for the live demangling test (internal/cli's
// TestLiveDemangleCXX): it is built with g++ -pg, run, and profiled by GNU
// gprof and egprof, whose outputs must be the same bytes. It exercises the
// names that C++'s standard library and templates produce: class and
// function templates, variadic packs (empty ones too), lambdas (generic
// and in templates), inheriting constructors, std::map, std::unique_ptr,
// std::function, std::tuple and std::shared_ptr.
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace geo {

template <typename T, int N>
struct Vec {
  T v[N];
  Vec() : v() {}
  explicit Vec(T x) {
    for (int i = 0; i < N; ++i) v[i] = x;
  }
  template <typename U>
  Vec<T, N> scaled(U k) const {
    Vec<T, N> r;
    for (int i = 0; i < N; ++i) r.v[i] = static_cast<T>(v[i] * k);
    return r;
  }
};

struct Shape {
  explicit Shape(int id) : id(id) {}
  virtual ~Shape() = default;
  virtual double area() const = 0;
  int id;
};

struct Square : Shape {
  using Shape::Shape;  // an inheriting constructor
  double side = 2.0;
  double area() const override { return side * side; }
};

template <typename Base>
struct Tagged : Base {
  using Base::Base;  // an inheriting constructor of a template
  const char *tag = "t";
};

}  // namespace geo

// A variadic function template: sums any number of arguments.
template <typename... Ts>
double sum_all(Ts... xs) {
  double s = 0;
  ((s += static_cast<double>(xs)), ...);
  return s;
}

// Calls f with each of the pack's values; an empty pack calls nothing.
template <typename F, typename... Args>
double apply_each(F f, Args &&...args) {
  double s = 0;
  ((s += f(std::forward<Args>(args))), ...);
  return s;
}

template <typename K, typename V>
V total(const std::map<K, V> &m) {
  V t{};
  for (const auto &kv : m) t += kv.second;
  return t;
}

template <typename... Ts>
std::tuple<Ts...> make_row(Ts... xs) {
  return std::tuple<Ts...>(xs...);
}

double burn(int n) {
  double x = 0;
  for (int i = 0; i < n; ++i) x += (i % 7) * 0.5 + (i % 3);
  return x;
}

int main() {
  double acc = 0;
  std::map<std::string, double> m;
  std::vector<std::unique_ptr<geo::Shape>> shapes;
  std::function<double(int)> work = [](int n) { return burn(n); };
  auto generic = [&acc](auto x) { acc += x; return x * 2; };
  for (int round = 0; round < 300; ++round) {
    shapes.push_back(std::make_unique<geo::Square>(round));
    shapes.push_back(std::make_unique<geo::Tagged<geo::Square>>(round));
    auto sp = std::make_shared<geo::Tagged<geo::Square>>(round);
    acc += sp->area();
    geo::Vec<double, 3> v(1.5);
    acc += v.scaled(2).v[0] + v.scaled(0.5f).v[1];
    m["k" + std::to_string(round % 10)] += sum_all(1, 2.0, 3.0f, 'c');
    acc += sum_all();
    acc += apply_each([](auto x) { return burn(20000) + x; }, 1, 2.5, 3L);
    acc += apply_each([](int x) { return x; });
    acc += generic(round) + generic(0.5);
    acc += work(200000);
    auto row = make_row(round, 1.0, std::string("x"));
    acc += std::get<0>(row);
  }
  for (const auto &s : shapes) acc += s->area();
  acc += total(m);
  std::printf("%g\n", acc);
  return 0;
}
