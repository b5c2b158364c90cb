#include "backends/cpu_backend.hpp"

#include <omp.h>

#include <cmath>

#include "elements/mitc4.hpp"
#include "elements/rotation.hpp"

namespace halfstep {

void FullStepFields::resize(int nn) {
  for (auto& a : v) a.assign(nn, 0.0);
  for (auto& a : rf) a.assign(nn, 0.0);
}

CpuBackend::CpuBackend(const ShellSystem& sys, int threads)
    : sys_(sys), threads_(threads > 0 ? threads : omp_get_max_threads()) {}

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
      // Director gradient to moments about the triad: dV = dtheta x V.
      const int n = c[k];
      const Vec3<double> t1{st.t1x[n], st.t1y[n], st.t1z[n]};
      const Vec3<double> t2 = cross(nodes.v[k], t1);
      out[5 * k + 0] = f[k].x;
      out[5 * k + 1] = f[k].y;
      out[5 * k + 2] = f[k].z;
      out[5 * k + 3] = -dot(gv[k], t2);
      out[5 * k + 4] = dot(gv[k], t1);
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
  const double dt = h.h_next * 2.0;
  double kinetic = 0, wp = 0, wn = 0, dp = 0, dn = 0;
  int bad = 0;
#pragma omp parallel for num_threads(threads_) schedule(static) \
    reduction(+ : kinetic, wp, wn, dp, dn, bad)
  for (int n = 0; n < nn; ++n) {
    // Gather this node's share of the element forces, in a fixed order (deterministic sums).
    double fi[kShellDofs] = {0, 0, 0, 0, 0};
    double fe[kShellDofs] = {0, 0, 0, 0, 0};
    for (int i = sys.node_slot_ptr[n]; i < sys.node_slot_ptr[n + 1]; ++i) {
      const int slot = sys.node_slots[i];
      const double* f = &st.elem_force[5 * slot];
      for (int d = 0; d < kShellDofs; ++d) fi[d] += f[d];
      if (have_pressure) {
        const double* p = &st.elem_pressure[3 * slot];
        fe[0] += p[0];
        fe[1] += p[1];
        fe[2] += p[2];
      }
    }
    const Vec3<double> dir{st.dx[n], st.dy[n], st.dz[n]};
    const Vec3<double> t1{st.t1x[n], st.t1y[n], st.t1z[n]};
    const Vec3<double> t2 = cross(dir, t1);
    const int sp = in.special[n];
    if (sp >= 0) {
      const double* l = &in.load[6 * sp];
      fe[0] += l[0];
      fe[1] += l[1];
      fe[2] += l[2];
      const Vec3<double> moment{l[3], l[4], l[5]};
      fe[3] += dot(moment, t1);
      fe[4] += dot(moment, t2);
    }
    const std::uint8_t held = in.held[n];
    double v_full[kShellDofs], v_next[kShellDofs], reaction[kShellDofs];
    for (int d = 0; d < kShellDofs; ++d) {
      const bool rot = d >= 3;
      const double m = rot ? sys.inertia[n] : sys.mass[n];
      const double c = rot ? sys.damp_rot[n] : sys.damp[n];
      const double v_half = st.v[d][n];
      DofUpdate<double> u;
      if (held & (1u << d)) {
        double imposed = 0;
        if (sp >= 0 && d < 3 && (in.moving[sp] & (1u << d))) imposed = in.motion[3 * sp + d];
        u = constrained_dof(m, c, fe[d], fi[d], v_half, imposed, h);
      } else {
        u = free_dof(m, c, fe[d], fi[d], v_half, h);
      }
      // Constrained dofs: the support force does work too (prescribed motions).
      const double f_applied = fe[d] + u.reaction;
      kinetic += 0.5 * m * u.v_full * u.v_full;
      wp += f_applied * h.h_prev * v_half;
      wn += f_applied * h.h_next * u.v_next;
      dp += c * u.v_full * h.h_prev * v_half;
      dn += c * u.v_full * h.h_next * u.v_next;
      v_full[d] = u.v_full;
      v_next[d] = u.v_next;
      reaction[d] = u.reaction;
    }
    if (!std::isfinite(v_next[0] + v_next[1] + v_next[2] + v_next[3] + v_next[4])) ++bad;
    if (full) {
      for (int d = 0; d < 3; ++d) {
        full->v[d][n] = v_full[d];
        full->rf[d][n] = reaction[d];
      }
      const Vec3<double> w = v_full[3] * t1 + v_full[4] * t2;
      const Vec3<double> r = reaction[3] * t1 + reaction[4] * t2;
      full->v[3][n] = w.x;
      full->v[4][n] = w.y;
      full->v[5][n] = w.z;
      full->rf[3][n] = r.x;
      full->rf[4][n] = r.y;
      full->rf[5][n] = r.z;
    }
    if (commit) {
      for (int d = 0; d < kShellDofs; ++d) st.v[d][n] = v_next[d];
      st.ux[n] += dt * v_next[0];
      st.uy[n] += dt * v_next[1];
      st.uz[n] += dt * v_next[2];
      if (v_next[3] != 0.0 || v_next[4] != 0.0) {
        // Finite rotation of the whole triad about an axis in the tangent plane (eq. 3.4 for
        // rotational dofs): no drilling is introduced and the frame stays orthonormal.
        const Vec3<double> theta = (dt * v_next[3]) * t1 + (dt * v_next[4]) * t2;
        const Vec3<double> nd = normalized(rotate(theta, dir));
        Vec3<double> nt = rotate(theta, t1);
        nt = normalized(nt - dot(nt, nd) * nd);
        st.dx[n] = nd.x;
        st.dy[n] = nd.y;
        st.dz[n] = nd.z;
        st.t1x[n] = nt.x;
        st.t1y[n] = nt.y;
        st.t1z[n] = nt.z;
      }
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
