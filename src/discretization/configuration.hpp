// The configuration a static Newton iteration works on: displacements of every node and, for
// nodes that turn a director (MITC4's), the director and the first triad vector (rotations
// are not additive, so the driver turns these rather than summing rotation dofs).
#pragma once

#include <utility>
#include <vector>

#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "core/vec3.hpp"
#include "elements/rotation.hpp"

namespace halfstep {

/// Node-major positions of a configuration (3 values per node each).
struct Configuration {
  std::vector<double> u;       ///< displacements
  std::vector<double> d, t1;   ///< unit director and first triad vector (empty without director nodes)
  /// Per continuum element: its temperature change theta - theta_initial at the time of the
  /// configuration (StructureState::solid_thermal); empty when no temperature has changed.
  std::vector<double> thermal;

  /// The configuration of a model without director nodes displaced by u (3 per node).
  static Configuration displaced(std::vector<double> u) {
    Configuration c;
    c.u = std::move(u);
    return c;
  }

  /// The configuration of a state; with rotations (a model with director nodes), its
  /// directors and triads too.
  static Configuration of(const StructureState& st, bool rotations = true) {
    Configuration c;
    const std::size_t n = st.ux.size();
    c.u.resize(3 * n);
    const bool directors = rotations && !st.dx.empty();
    if (directors) {
      c.d.resize(3 * n);
      c.t1.resize(3 * n);
    }
    for (std::size_t i = 0; i < n; ++i) {
      c.u[3 * i] = st.ux[i];
      c.u[3 * i + 1] = st.uy[i];
      c.u[3 * i + 2] = st.uz[i];
      if (!directors) continue;
      c.d[3 * i] = st.dx[i];
      c.d[3 * i + 1] = st.dy[i];
      c.d[3 * i + 2] = st.dz[i];
      c.t1[3 * i] = st.t1x[i];
      c.t1[3 * i + 1] = st.t1y[i];
      c.t1[3 * i + 2] = st.t1z[i];
    }
    return c;
  }

  /// Writes displacements, directors and triads into st.
  void store(StructureState& st) const {
    const std::size_t n = st.ux.size();
    for (std::size_t i = 0; i < n; ++i) {
      st.ux[i] = u[3 * i];
      st.uy[i] = u[3 * i + 1];
      st.uz[i] = u[3 * i + 2];
      if (d.empty()) continue;
      st.dx[i] = d[3 * i];
      st.dy[i] = d[3 * i + 1];
      st.dz[i] = d[3 * i + 2];
      st.t1x[i] = t1[3 * i];
      st.t1y[i] = t1[3 * i + 1];
      st.t1z[i] = t1[3 * i + 2];
    }
  }

  /// Node n's vector of a 3-per-node array.
  static Vec3<double> at(const std::vector<double>& a, int n) {
    return {a[3 * static_cast<std::size_t>(n)], a[3 * static_cast<std::size_t>(n) + 1], a[3 * static_cast<std::size_t>(n) + 2]};
  }
  /// Sets node n's vector of a 3-per-node array.
  static void set(std::vector<double>& a, int n, const Vec3<double>& v) {
    a[3 * static_cast<std::size_t>(n)] = v.x;
    a[3 * static_cast<std::size_t>(n) + 1] = v.y;
    a[3 * static_cast<std::size_t>(n) + 2] = v.z;
  }
};

/// The configuration of a geometrically linear analysis about ref at the generalized dofs x
/// (q values per node: the translations, then the spins about ref's t1, d x t1 and, with
/// spins = 3, d) into c (sized as ref): u the translations, and each node n with
/// rotates(n) ref's frame turned by its spins (what a later step continues from).
template <class Rotates>
void linear_configuration(const Configuration& ref, const std::vector<double>& x, std::size_t q, int spins,
                          Rotates&& rotates, Configuration& c) {
  const std::size_t nn = c.u.size() / 3;
  for (std::size_t n = 0; n < nn; ++n)
    for (std::size_t k = 0; k < 3; ++k) c.u[3 * n + k] = x[q * n + k];
  if (ref.t1.empty()) return;
  for (std::size_t n = 0; n < nn; ++n) {
    const int i = static_cast<int>(n);
    if (!rotates(i)) continue;
    const Vec3<double> d0 = Configuration::at(ref.d, i), r1 = Configuration::at(ref.t1, i);
    const Vec3<double> theta =
        x[q * n + 3] * r1 + x[q * n + 4] * cross(d0, r1) + (spins == 3 ? x[q * n + 5] * d0 : Vec3<double>{0, 0, 0});
    Configuration::set(c.d, i, normalized(rotate(theta, d0)));
    Configuration::set(c.t1, i, normalized(rotate(theta, r1)));
  }
}

/// The spins about a reference frame's axes (r1, r2 = d0 x r1, d0) of the exact turn that
/// takes it to the frame (t1, d): what linear_configuration's turn of a node inverts to.
inline Vec3<double> frame_spins(Vec3<double> r1, Vec3<double> d0, Vec3<double> t1, Vec3<double> d) {
  const Vec3<double> r2 = cross(d0, r1), theta = rotation_vector(r1, r2, d0, t1, cross(d, t1), d);
  return {dot(theta, r1), dot(theta, r2), dot(theta, d0)};
}

/// linear_configuration's inverse: the generalized dofs of c about ref into x (q per node,
/// sized by the caller): the translations c.u, and for each node with rotates(n) (and ref
/// with frames) the spins (spins = 2: about t1 and t2; 3: also about d) of the exact turn
/// from ref's frame to c's.
template <class Rotates>
void linear_dofs(const Configuration& ref, const Configuration& c, std::size_t q, int spins, Rotates&& rotates,
                 std::vector<double>& x) {
  const std::size_t nn = c.u.size() / 3;
  for (std::size_t n = 0; n < nn; ++n)
    for (std::size_t k = 0; k < 3; ++k) x[q * n + k] = c.u[3 * n + k];
  if (ref.t1.empty() || c.t1.empty()) return;
  for (std::size_t n = 0; n < nn; ++n) {
    const int i = static_cast<int>(n);
    if (!rotates(i)) continue;
    const Vec3<double> w =
        frame_spins(Configuration::at(ref.t1, i), Configuration::at(ref.d, i), Configuration::at(c.t1, i), Configuration::at(c.d, i));
    x[q * n + 3] = w.x;
    x[q * n + 4] = w.y;
    if (spins == 3) x[q * n + 5] = w.z;
  }
}

}  // namespace halfstep
