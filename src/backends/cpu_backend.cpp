#include "backends/cpu_backend.hpp"

#include <omp.h>

#include <cmath>

#include "elements/mitc4.hpp"
#include "solver/node_integrator.hpp"

namespace halfstep {


CpuBackend::CpuBackend(const ShellSystem& sys, int threads)
    : sys_(sys), threads_(threads > 0 ? threads : omp_get_max_threads()) {}

std::string CpuBackend::description() const {
  return "CPU, OpenMP, " + std::to_string(threads_) + (threads_ == 1 ? " thread" : " threads");
}

double CpuBackend::element_forces(ShellState& st, const double* pressure) {
  const ShellSystem& sys = sys_;
  const int ne = sys.num_elements;
  if (pressure && st.elem_pressure.size() != static_cast<std::size_t>(12 * ne)) st.elem_pressure.assign(12 * ne, 0.0);
  double energy = 0;
#pragma omp parallel for num_threads(threads_) schedule(static) reduction(+ : energy)
  for (int e = 0; e < ne; ++e) {
    const int* c = &sys.conn[4 * e];
    const SectionProps& sec = sys.sections[sys.section[e]];
    const Mitc4Nodes<double> nodes = gather_element_nodes(sys, st, e);
    Vec3<double> f[4], gv[4];
    const double w = mitc4_internal_force(sys.ref[e], nodes, sec.thickness, sec.elastic, f, gv);
    st.elem_energy[e] = w;
    energy += w;
    double* out = &st.elem_force[20 * e];
    for (int k = 0; k < 4; ++k) {
      const int n = c[k];
      mitc4_corner_generalized_force(f[k], gv[k], nodes.v[k], Vec3<double>{st.t1x[n], st.t1y[n], st.t1z[n]}, out + 5 * k);
    }
    if (pressure) {
      double* pf = &st.elem_pressure[12 * e];
      if (pressure[e] != 0.0) {
        Vec3<double> x[4], fp[4];
        for (int k = 0; k < 4; ++k) x[k] = nodes.X[k] + nodes.u[k];
        mitc4_pressure_force(x, pressure[e], fp);
        for (int k = 0; k < 4; ++k) {
          pf[3 * k] = fp[k].x;
          pf[3 * k + 1] = fp[k].y;
          pf[3 * k + 2] = fp[k].z;
        }
      } else {
        for (int i = 0; i < 12; ++i) pf[i] = 0.0;
      }
    }
  }
  return energy;
}

NodeSums CpuBackend::node_update(ShellState& st, const NodalInputs& in, HalfSteps<double> h, bool commit,
                                 FullStepFields* full) {
  const ShellSystem& sys = sys_;
  const int nn = sys.num_nodes;
  const bool have_pressure = !st.elem_pressure.empty();
  NodeStateView<double> view{st.ux.data(), st.uy.data(), st.uz.data(), {}, st.dx.data(), st.dy.data(), st.dz.data(),
                             st.t1x.data(), st.t1y.data(), st.t1z.data()};
  for (int d = 0; d < kShellDofs; ++d) view.v[d] = st.v[d].data();
  const NodeConstView<double> cv{sys.mass.data(), sys.inertia.data(), sys.damp.data(), sys.damp_rot.data()};
  double kinetic = 0, wp = 0, wn = 0, dp = 0, dn = 0;
  int bad = 0;
#pragma omp parallel for num_threads(threads_) schedule(static) \
    reduction(+ : kinetic, wp, wn, dp, dn, bad)
  for (int n = 0; n < nn; ++n) {
    // Gather this node's share of the element forces, in a fixed order (deterministic sums).
    double fi[kShellDofs] = {0, 0, 0, 0, 0};
    double fp[3] = {0, 0, 0};
    for (int i = sys.node_slot_ptr[n]; i < sys.node_slot_ptr[n + 1]; ++i) {
      const int slot = sys.node_slots[i];
      const double* f = &st.elem_force[5 * slot];
      for (int d = 0; d < kShellDofs; ++d) fi[d] += f[d];
      if (have_pressure) {
        const double* p = &st.elem_pressure[3 * slot];
        fp[0] += p[0];
        fp[1] += p[1];
        fp[2] += p[2];
      }
    }
    NodeDrive<double> drive;
    const int sp = in.special[n];
    if (sp >= 0) {
      drive.load = &in.load[6 * sp];
      drive.motion = &in.motion[3 * sp];
      drive.moving = in.moving[sp];
      drive.by_velocity = in.by_velocity[sp];
    }
    const NodeUpdateResult<double> r = integrate_node(n, fi, fp, in.held[n], drive, h, commit, view, cv);
    kinetic += r.kinetic;
    wp += r.work_prev;
    wn += r.work_next;
    dp += r.damp_prev;
    dn += r.damp_next;
    if (!r.finite) ++bad;
    if (full) {
      for (int d = 0; d < 3; ++d) {
        full->v[d][n] = r.v_full[d];
        full->rf[d][n] = r.reaction[d];
      }
      const Vec3<double> w = r.v_full[3] * r.t1 + r.v_full[4] * r.t2;
      const Vec3<double> m = r.reaction[3] * r.t1 + r.reaction[4] * r.t2;
      full->v[3][n] = w.x;
      full->v[4][n] = w.y;
      full->v[5][n] = w.z;
      full->rf[3][n] = m.x;
      full->rf[4][n] = m.y;
      full->rf[5][n] = m.z;
    }
  }
  NodeSums s;
  s.kinetic = kinetic;
  s.work_prev = wp;
  s.work_next = wn;
  s.damp_prev = dp;
  s.damp_next = dn;
  s.finite = bad == 0 && std::isfinite(kinetic);
  return s;
}

}  // namespace halfstep
