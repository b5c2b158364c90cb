// Output quantities of a MITC4 element: section forces and surface stresses, averaged over
// the four Gauss points; for a plastic section, from the stored state of its section points,
// with PEEQ.
#pragma once

#include <cmath>

#include "elements/mitc4.hpp"
#include "elements/mitc4_plastic.hpp"

namespace halfstep {

/// Element-average results in the element's local frame (Abaqus' default shell directions).
template <class T>
struct Mitc4SectionResults {
  T sf[5];                     ///< SF1..SF5: N11, N22, N12, Q13, Q23 (force per length)
  T sm[3];                     ///< SM1..SM3: M11, M22, M12 (moment per length)
  T s_top[3], s_bottom[3];     ///< S11, S22, S12 at the director-side and opposite surfaces
  T e_top[3], e_bottom[3];     ///< strains E11, E22, engineering E12 at the same surfaces
  T mises_top, mises_bottom;   ///< plane-stress von Mises at the surfaces
};

/// Plane-stress von Mises stress.
template <class T>
HS_HD T plane_mises(const T s[3]) {
  using std::sqrt;  // unqualified: Dual<T> (the linearised section results) finds its own
  return sqrt(s[0] * s[0] - s[0] * s[1] + s[1] * s[1] + T(3) * s[2] * s[2]);
}

/// Evaluates section forces and surface stresses for the current configuration.
template <class T>
HS_HD Mitc4SectionResults<T> mitc4_section_results(const Mitc4Ref<T>& ref, const Mitc4Nodes<T>& nodes, T a,
                                                  const ShellElastic<T>& mat) {
  Mitc4Strain<T> eps[4];
  mitc4_strains(ref, nodes, a, eps);
  Mitc4SectionResults<T> out{};
  const T w = T(0.25);
  for (int g = 0; g < 4; ++g) {
    const Mitc4Resultants<T> r = mitc4_resultants(eps[g], a, mat);
    for (int i = 0; i < 3; ++i) {
      out.sf[i] += w * r.n[i];
      out.sm[i] += w * r.m[i];
      out.e_top[i] += w * (eps[g].mem[i] + T(0.5) * a * eps[g].bend[i]);
      out.e_bottom[i] += w * (eps[g].mem[i] - T(0.5) * a * eps[g].bend[i]);
    }
    out.sf[3] += w * r.q[0];
    out.sf[4] += w * r.q[1];
  }
  mat.plane_stress(out.e_top, out.s_top);
  mat.plane_stress(out.e_bottom, out.s_bottom);
  out.mises_top = plane_mises(out.s_top);
  out.mises_bottom = plane_mises(out.s_bottom);
  return out;
}

/// Section results of a plastic element from its converged state (read, not written): the
/// stresses C (E - E_p) at every section point integrated as the element does, S top and
/// bottom the outer section points' stresses averaged over the in-plane points, and into
/// *peeq the largest over the section points of the in-plane mean of PEEQ (the through-
/// thickness maximum: for bending, a surface).
template <class T>
HS_HD Mitc4SectionResults<T> mitc4_plastic_section_results_at(const Mitc4Strain<T> eps[4], T a, const SolidMaterial<T>& law,
                                                             T kshear, int points, const ElementState<T>& state, T* peeq);

template <class T>
HS_HD Mitc4SectionResults<T> mitc4_plastic_section_results(const Mitc4Ref<T>& ref, const Mitc4Nodes<T>& nodes, T a,
                                                          const SolidMaterial<T>& law, T kshear, int points,
                                                          const ElementState<T>& state, T* peeq) {
  Mitc4Strain<T> eps[4];
  mitc4_strains(ref, nodes, a, eps);
  return mitc4_plastic_section_results_at(eps, a, law, kshear, points, state, peeq);
}

/// The same from the generalized strains eps of the four in-plane points (a geometrically
/// linear step's: the linearized strains).
template <class T>
HS_HD Mitc4SectionResults<T> mitc4_plastic_section_results_at(const Mitc4Strain<T> eps[4], T a, const SolidMaterial<T>& law,
                                                             T kshear, int points, const ElementState<T>& state, T* peeq) {
  Mitc4SectionResults<T> out{};
  const T wg = T(0.25);
  T alpha[kMaxShellSectionPoints] = {};
  for (int g = 0; g < 4; ++g) {
    const Mitc4Strain<T>& e = eps[g];
    for (int k = 0; k < points; ++k) {
      T z, w;
      shell_section_point(k, points, a, z, w);
      const T strain[3] = {e.mem[0] + z * e.bend[0], e.mem[1] + z * e.bend[1], e.mem[2] + z * e.bend[2]};
      T st[kJ2PlaneStateSize] = {};
      const StateSlice<const T> from = state.old_at(g * points + k);
      for (int c = 0; c < kJ2PlaneStateSize; ++c) st[c] = from.p ? from[c] : T(0);
      T s[3];
      j2_plane_stress_of_state(law, strain, st, s);
      for (int i = 0; i < 3; ++i) {
        out.sf[i] += wg * w * s[i];
        out.sm[i] += wg * w * z * s[i];
        if (k == points - 1) out.s_top[i] += wg * s[i];
        if (k == 0) out.s_bottom[i] += wg * s[i];
      }
      alpha[k] += wg * st[kJ2PlaneAlpha];
    }
    for (int i = 0; i < 3; ++i) {
      out.e_top[i] += wg * (e.mem[i] + T(0.5) * a * e.bend[i]);
      out.e_bottom[i] += wg * (e.mem[i] - T(0.5) * a * e.bend[i]);
    }
    out.sf[3] += wg * kshear * a * e.shear[0];
    out.sf[4] += wg * kshear * a * e.shear[1];
  }
  out.mises_top = plane_mises(out.s_top);
  out.mises_bottom = plane_mises(out.s_bottom);
  T worst = T(0);
  for (int k = 0; k < points; ++k) worst = alpha[k] > worst ? alpha[k] : worst;
  *peeq = worst;
  return out;
}

}  // namespace halfstep
