// The MITC4 element pass's per-element work on the host, as a forall body: internal forces
// as 5 generalized forces per corner (6, force and global moment, on the 6-dof nodes of a
// model mixed with beams or FPM triangles) (the per-slot buffer the node pass gathers in a fixed
// order) and follower pressure forces. The CPU backend only launches it; the CUDA backend
// runs the same mitc4_* functions from its own kernels (backends/cuda/assembled_kernels.cuh).
#pragma once

#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "discretization/loads.hpp"
#include "elements/mitc4.hpp"
#include "elements/mitc4_plastic.hpp"

namespace halfstep {

/// Corner forces (4 x 3 values) of shell e's pressure at step time tau on the corner positions
/// x (zeros when the step puts no pressure on it).
template <class T>
HS_HD void evaluate_shell_pressure_force(const DriveView& d, int e, double tau, const Vec3<T> x[4], T out[12]) {
  const T p = T(evaluate_pressure(d, e, tau));
  if (p == T(0)) {
    for (int i = 0; i < 12; ++i) out[i] = T(0);
    return;
  }
  Vec3<T> fp[4];
  mitc4_pressure_force(x, p, fp);
  for (int k = 0; k < 4; ++k) {
    out[3 * k] = fp[k].x;
    out[3 * k + 1] = fp[k].y;
    out[3 * k + 2] = fp[k].z;
  }
}


/// Shell e's forces into st.elem_force (20, or 24 with global_moments) and, with pressures,
/// st.elem_pressure (12); its
/// internal energy (strain energy, plus the dissipation of plastic sections) into
/// st.elem_energy and sum[0], the dissipated part into sum[1].
struct ShellElementBody {
  const StructureSystem& sys;
  StructureState& st;
  DriveView drive;
  bool have_pressure;
  double tau;
  bool global_moments;  ///< StructureSystem::shell_global_moments()

  void operator()(int e, double* sum) const {
    const int* c = &sys.shell.conn[4 * static_cast<std::size_t>(e)];
    const SectionProps& sec = sys.shell.sections[sys.shell.section[e]];
    const Mitc4Nodes<double> nodes = gather_element_nodes(sys, st, e);
    Vec3<double> f[4], gv[4];
    // Plastic sections integrate through the thickness and update their points' state in
    // place; elastic ones keep the closed-form section.
    double dissipation = 0.0;
    const double w = sec.section_points > 0
                         ? mitc4_plastic_internal_force(sys.shell.ref[e], nodes, sec.thickness, sec.law, sec.elastic.kshear,
                                                        sec.section_points, shell_element_state(sys, st, e), f, gv,
                                                        &dissipation)
                         : mitc4_internal_force(sys.shell.ref[e], nodes, sec.thickness, sec.elastic, f, gv);
    st.elem_energy[e] = w;
    sum[0] += w;
    sum[1] += dissipation;
    if (global_moments) {  // 6-dof nodes (mixed with beams or FPM triangles): global moments
      double* out = &st.elem_force[24 * static_cast<std::size_t>(e)];
      for (int k = 0; k < 4; ++k) mitc4_corner_global_force(f[k], gv[k], nodes.v[k], out + 6 * k);
    } else {
      double* out = &st.elem_force[20 * static_cast<std::size_t>(e)];
      for (int k = 0; k < 4; ++k) {
        const int n = c[k];
        mitc4_corner_generalized_force(f[k], gv[k], nodes.v[k], Vec3<double>{st.t1x[n], st.t1y[n], st.t1z[n]},
                                       out + 5 * k);
      }
    }
    if (!have_pressure) return;
    Vec3<double> x[4];
    for (int k = 0; k < 4; ++k) x[k] = nodes.X[k] + nodes.u[k];
    evaluate_shell_pressure_force(drive, e, tau, x, &st.elem_pressure[12 * static_cast<std::size_t>(e)]);
  }
};

}  // namespace halfstep
