// Counts the floating-point operations of one MITC4 element evaluation, single thread
// (mitc4_reference + mitc4_internal_force, as the gather kernel does it) against the split by
// Gauss point (mitc4_split.hpp, all 4 lanes), by running both on a number type that counts.
// Not part of the CMake build; source-level counts (an FMA counts as a multiply and an add,
// as Nsight's dadd + dmul + 2 dfma does). Build and run:
//   g++ -std=c++17 -O1 -I src bench/prototypes/mitc4_split_flops.cpp -o /tmp/flops && /tmp/flops
#include <cmath>
#include <cstdio>

/// A double that counts the operations done on it (process-wide counters).
struct Counted {
  double v = 0.0;
  static inline long add = 0, mul = 0, div = 0, sqrt = 0;
  Counted() = default;
  explicit Counted(double x) : v(x) {}
};
inline Counted operator+(Counted a, Counted b) { ++Counted::add; return Counted(a.v + b.v); }
inline Counted operator-(Counted a, Counted b) { ++Counted::add; return Counted(a.v - b.v); }
inline Counted operator-(Counted a) { return Counted(-a.v); }
inline Counted operator*(Counted a, Counted b) { ++Counted::mul; return Counted(a.v * b.v); }
inline Counted operator/(Counted a, Counted b) { ++Counted::div; return Counted(a.v / b.v); }
inline Counted& operator+=(Counted& a, Counted b) { return a = a + b; }
inline Counted& operator-=(Counted& a, Counted b) { return a = a - b; }
inline Counted& operator*=(Counted& a, Counted b) { return a = a * b; }
inline bool operator<(Counted a, Counted b) { return a.v < b.v; }
inline bool operator>(Counted a, Counted b) { return a.v > b.v; }
inline bool operator!=(Counted a, Counted b) { return a.v != b.v; }
inline bool operator==(Counted a, Counted b) { return a.v == b.v; }
// vec3.hpp's norm calls std::sqrt by its qualified name, which finds only overloads declared
// in std; this measurement tool adds the one for its number type there.
namespace std {
inline Counted sqrt(Counted a) { ++Counted::sqrt; return Counted(std::sqrt(a.v)); }
}  // namespace std

#include "elements/mitc4.hpp"
#include "elements/mitc4_split.hpp"

using namespace halfstep;
using C = Counted;

namespace {

/// Clears the counters.
void reset() { Counted::add = Counted::mul = Counted::div = Counted::sqrt = 0; }
/// Prints the counters since the last reset under a label.
void report(const char* what) {
  std::printf("%-44s add/sub %5ld  mul %5ld  div %3ld  sqrt %3ld  total %5ld\n", what, Counted::add, Counted::mul,
              Counted::div, Counted::sqrt, Counted::add + Counted::mul + Counted::div + Counted::sqrt);
}

Vec3<C> vc(double x, double y, double z) { return {C(x), C(y), C(z)}; }

}  // namespace

int main() {
  // A skewed, warped, deformed element (the counts do not depend on the values, except the
  // local frame's rare fallback, which this element does not take).
  Mitc4Nodes<C> nodes;
  const double X[4][3] = {{0, 0, 0}, {2.0, 0.2, 0.1}, {2.3, 1.7, -0.05}, {-0.1, 1.2, 0.08}};
  for (int k = 0; k < 4; ++k) {
    nodes.X[k] = vc(X[k][0], X[k][1], X[k][2]);
    nodes.u[k] = vc(0.01 * k, -0.02, 0.03 * k);
    nodes.V0[k] = vc(0, 0, 1);
    const double t = 0.1 * (k + 1);
    nodes.v[k] = vc(std::sin(t), 0, std::cos(t));
  }
  ShellElastic<C> mat;
  mat.ebar = C(2.3e5);
  mat.nu = C(0.3);
  mat.shear = C(8.1e4);
  mat.kshear = C(6.7e4);
  const C a(0.1);
  const Vec3<C> t1 = vc(1, 0, 0);
  C gen[5];

  reset();
  Mitc4Ref<C> ref;
  mitc4_reference(nodes.X, nodes.V0, a, ref);
  report("single thread: mitc4_reference");
  reset();
  Vec3<C> f[4], gv[4];
  mitc4_internal_force(ref, nodes, a, mat, f, gv);
  report("single thread: mitc4_internal_force");
  reset();
  for (int k = 0; k < 4; ++k) mitc4_corner_generalized_force(f[k], gv[k], nodes.v[k], t1, gen);
  report("generalized forces (both)");

  reset();
  Mitc4SeqLanes::Val<Vec3<C>> fl, gl;
  mitc4_split_internal_force<C>(Mitc4SeqLanes{}, Mitc4NodesAccess<C>{nodes}, a, mat, nullptr, fl, gl);
  report("split, 4 lanes, reference recomputed");
  reset();
  mitc4_split_internal_force<C>(Mitc4SeqLanes{}, Mitc4NodesAccess<C>{nodes}, a, mat, &ref, fl, gl);
  report("split, 4 lanes, reference stored");
  return 0;
}
