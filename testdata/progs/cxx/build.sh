#!/usr/bin/env bash
# cxx: C++ (g++ -pg): templates (Vec3<float>/Vec3<double>, Bodies<T>,
# step<T>, total_norm<T>), namespaces (geo, geo::shapes, stats), operators
# (+ - * += [] < << and Lcg::operator()), virtual methods, constructors and
# destructors, an anonymous namespace, a lambda passed to std::sort,
# overloads, extern "C", std::vector and std::string. -O0 with -g, PIE.
# cxx-O2 is the same source at -O2 without -g.
source "$(dirname "$0")/../../../scripts/build-lib.sh"

build g++ -pg -g -O0 -o "$D/prog" "$D/main.cc" "$D/geometry.cc"

profile gmon.out  600 200 3000
profile gmon2.out 400 350 6000
