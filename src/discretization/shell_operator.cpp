#include "discretization/shell_operator.hpp"

#include <omp.h>

#include "core/dual.hpp"
#include "core/forall.hpp"
#include "elements/mitc4.hpp"

namespace halfstep {

namespace {

using D = Dual<double>;

/// A constant (zero-derivative) copy of the reference constants, for dual evaluations.
Mitc4Ref<D> dual_ref(const Mitc4Ref<double>& r) {
  Mitc4Ref<D> d;
  for (int g = 0; g < 4; ++g) {
    d.wj[g] = D(r.wj[g]);
    d.cr1[g] = D(r.cr1[g]);
    d.cr2[g] = D(r.cr2[g]);
    d.cs1[g] = D(r.cs1[g]);
    d.cs2[g] = D(r.cs2[g]);
    d.cz3[g] = D(r.cz3[g]);
  }
  return d;
}

/// The same for the section constants.
ShellElastic<D> dual_elastic(const ShellElastic<double>& m) {
  ShellElastic<D> d;
  d.ebar = D(m.ebar);
  d.nu = D(m.nu);
  d.shear = D(m.shear);
  d.kshear = D(m.kshear);
  return d;
}

/// A constant dual vector.
Vec3<D> dual(const Vec3<double>& v) { return {D(v.x), D(v.y), D(v.z)}; }

}  // namespace

ShellOperator::ShellOperator(const StructureSystem& sys, int threads)
    : sys_(sys), threads_(threads > 0 ? threads : omp_get_max_threads()) {}

double ShellOperator::element_forces(const StructureState& st, std::vector<double>& out) const {
  out.assign(20 * static_cast<std::size_t>(sys_.num_elements), 0.0);
  std::vector<double> energy(static_cast<std::size_t>(sys_.num_elements));
  forall(0, sys_.num_elements, threads_, [&](int e) {
    const SectionProps& sec = sys_.sections[static_cast<std::size_t>(sys_.section[e])];
    const Mitc4Nodes<double> nodes = gather_element_nodes(sys_, st, e);
    Vec3<double> f[4], gv[4];
    energy[static_cast<std::size_t>(e)] =
        mitc4_internal_force(sys_.ref[static_cast<std::size_t>(e)], nodes, sec.thickness, sec.elastic, f, gv);
    const int* c = &sys_.conn[4 * static_cast<std::size_t>(e)];
    for (int k = 0; k < 4; ++k) {
      const int n = c[k];
      mitc4_corner_generalized_force(f[k], gv[k], nodes.v[k], Vec3<double>{st.t1x[n], st.t1y[n], st.t1z[n]},
                                     &out[20 * static_cast<std::size_t>(e) + 5 * static_cast<std::size_t>(k)]);
    }
  });
  double w = 0;
  for (double x : energy) w += x;
  return w;
}

void ShellOperator::element_matrices(const StructureState& st, std::vector<double>& k) const {
  k.assign(400 * static_cast<std::size_t>(sys_.num_elements), 0.0);
  forall(0, sys_.num_elements, threads_, [&](int e) {
    const SectionProps& sec = sys_.sections[static_cast<std::size_t>(sys_.section[e])];
    const Mitc4Nodes<double> plain = gather_element_nodes(sys_, st, e);
    const Mitc4Ref<D> ref = dual_ref(sys_.ref[static_cast<std::size_t>(e)]);
    const ShellElastic<D> mat = dual_elastic(sec.elastic);
    const int* c = &sys_.conn[4 * static_cast<std::size_t>(e)];
    Vec3<double> t1[4];
    for (int a = 0; a < 4; ++a) t1[a] = {st.t1x[c[a]], st.t1y[c[a]], st.t1z[c[a]]};
    double* ke = &k[400 * static_cast<std::size_t>(e)];
    for (int j = 0; j < 20; ++j) {  // column j: the derivative along corner j / 5's dof j % 5
      const int a = j / 5, q = j % 5;
      Mitc4Nodes<D> nodes;
      Vec3<D> tri[4];
      for (int b = 0; b < 4; ++b) {
        nodes.X[b] = dual(plain.X[b]);
        nodes.u[b] = dual(plain.u[b]);
        nodes.V0[b] = dual(plain.V0[b]);
        nodes.v[b] = dual(plain.v[b]);
        tri[b] = dual(t1[b]);
      }
      if (q < 3) {
        D& seed = q == 0 ? nodes.u[a].x : q == 1 ? nodes.u[a].y : nodes.u[a].z;
        seed.d = 1.0;
      } else {
        // A rotation about t1 (q = 3) or t2 = v x t1 (q = 4) moves the director and the triad
        // by theta x (.) to first order.
        const Vec3<double> theta = q == 3 ? t1[a] : cross(plain.v[a], t1[a]);
        const Vec3<double> dv = cross(theta, plain.v[a]), dt = cross(theta, t1[a]);
        nodes.v[a] = {D(plain.v[a].x, dv.x), D(plain.v[a].y, dv.y), D(plain.v[a].z, dv.z)};
        tri[a] = {D(t1[a].x, dt.x), D(t1[a].y, dt.y), D(t1[a].z, dt.z)};
      }
      Vec3<D> f[4], gv[4];
      mitc4_internal_force(ref, nodes, D(sec.thickness), mat, f, gv);
      for (int b = 0; b < 4; ++b) {
        D g[5];
        mitc4_corner_generalized_force(f[b], gv[b], nodes.v[b], tri[b], g);
        for (int r = 0; r < 5; ++r) ke[(5 * b + r) * 20 + j] = g[r].d;
      }
    }
  });
}

}  // namespace halfstep
