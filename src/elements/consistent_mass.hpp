// The consistent mass of the quadratic solids, M_ab = int rho N_a N_b dV (times the identity
// on each node pair's translations): what Abaqus/Standard and the peer use for second-order
// elements in frequency extraction and modal superposition, where the explicit scheme's HRZ
// lumping puts a thin section's mass on its corners (lower frequencies, most for torsion).
// C3D20 and C3D20R by 3 x 3 x 3 Gauss points (C3D20R FORMULATION=REDUCED MASS, the peer's, by
// its own 2 x 2 x 2 outside implicit dynamic steps), C3D10 by the 4 x 4 x 4 conical product, both
// exact for N_a N_b on straight-sided elements; CAX8 and CAX8R by 3 x 3 Gauss points on the
// ring's 2 pi R dA (exact for a rectangle's N_a N_b R). C3D10M keeps its lumped mass, as
// Abaqus's modified tetrahedron does; first-order kinds keep theirs (Abaqus/Standard's), except
// C3D8 FORMULATION=FULL, the peer's C3D8, which takes the peer's consistent mass (2 x 2 x 2
// Gauss points, exact on parallelepipeds); the planar 8-node kinds keep theirs too (their mass
// per unit thickness is not a matrix(X, rho) of the nodes alone).
#pragma once

#include <type_traits>

#include "elements/plane_quad8.hpp"
#include "elements/solid_hex.hpp"
#include "elements/solid_hex20.hpp"
#include "elements/solid_tet.hpp"

namespace halfstep {

/// Kind K's consistent mass, when it has one (kHas): matrix(X, rho, M) fills M (kNodes x
/// kNodes, row-major) and returns the volume, or the first non-positive w detJ when the
/// element is inverted or flat at a point (M then incomplete).
template <class K>
struct ConsistentMass {
  static constexpr bool kHas = false;
};

/// Whether ConsistentMass<K> has a transient_matrix (another mass for implicit dynamic steps).
template <class K, class = void>
struct HasTransientMass : std::false_type {};
template <class K>
struct HasTransientMass<K, std::void_t<decltype(&ConsistentMass<K>::transient_matrix)>> : std::true_type {};

namespace solid_detail {

/// Adds rho dv N_a N_b into M (n x n).
inline void add_mass_outer(int n, double rho_dv, const double* N, double* M) {
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) M[a * n + b] += rho_dv * N[a] * N[b];
}

/// The 20-node hexahedron's consistent mass with order^3 Gauss points (3: exact on straight
/// sides; 2: the reduced element's own points, rank 8).
inline double hex20_consistent_mass(const Vec3<double> X[20], double rho, double M[400], int order = 3) {
  for (int k = 0; k < 400; ++k) M[k] = 0;
  double vol = 0;
  for (int g = 0; g < order * order * order; ++g) {
    Vec3<double> b[20];
    double N[20];
    const double dv = hex20_gradients(X, order, g, b, N);
    if (!(dv > 0)) return dv;
    add_mass_outer(20, rho * dv, N, M);
    vol += dv;
  }
  return vol;
}

/// The 10-node tetrahedron's consistent mass (the conical-product rule of tet10_hrz).
inline double tet10_consistent_mass(const Vec3<double> X[10], double rho, double M[100]) {
  const double x[4] = {0.06943184420297371239, 0.33000947820757186760, 0.66999052179242813240, 0.93056815579702628761};
  const double w[4] = {0.17392742256872692869, 0.32607257743127307131, 0.32607257743127307131, 0.17392742256872692869};
  for (int k = 0; k < 100; ++k) M[k] = 0;
  double vol = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k) {
        const double p = x[i], q = x[j], r = x[k];
        const double L[4] = {1 - p - (1 - p) * q - (1 - p) * (1 - q) * r, p, (1 - p) * q, (1 - p) * (1 - q) * r};
        Vec3<double> dn[10];
        double N[10];
        tet10_natural(L, dn, N);
        Mat3<double> J = scaled_identity(0.0);
        for (int a = 0; a < 10; ++a) add_jacobian(J, X[a], dn[a]);
        const double dv = w[i] * w[j] * w[k] * (1 - p) * (1 - p) * (1 - q) * determinant(J);
        if (!(dv > 0)) return dv;
        add_mass_outer(10, rho * dv, N, M);
        vol += dv;
      }
  return vol;
}

/// An axisymmetric 8-node quadrilateral's consistent mass (3 x 3 Gauss points, each point
/// weighing its ring, 2 pi R w detJ).
template <class K>
double quad8_ring_consistent_mass(const Vec3<double> X[8], double rho, double M[64]) {
  for (int k = 0; k < 64; ++k) M[k] = 0;
  double vol = 0;
  for (int g = 0; g < 9; ++g) {
    Vec3<double> b[8];
    double N[8], radius;
    const double dv = K::point_weight(X, 3, g, b, N, radius);
    if (!(dv > 0)) return dv;
    add_mass_outer(8, rho * dv, N, M);
    vol += dv;
  }
  return vol;
}

}  // namespace solid_detail

/// C3D8 FORMULATION=FULL: the trilinear hexahedron's consistent mass (2 x 2 x 2 points), as
/// the peer uses for its C3D8 in implicit procedures.
template <>
struct ConsistentMass<C3D8Full> {
  static constexpr bool kHas = true;
  static double matrix(const Vec3<double> X[8], double rho, double* M) {
    for (int k = 0; k < 64; ++k) M[k] = 0;
    double vol = 0;
    for (int g = 0; g < 8; ++g) {
      Vec3<double> b[8];
      double N[8];
      solid_detail::hex8_natural(solid_detail::hex8_gauss<double>(g, 0), solid_detail::hex8_gauss<double>(g, 1),
                                 solid_detail::hex8_gauss<double>(g, 2), b, N);
      const double dv = solid_detail::hex8_gradients(X, b);
      if (!(dv > 0)) return dv;
      solid_detail::add_mass_outer(8, rho * dv, N, M);
      vol += dv;
    }
    return vol;
  }
};

/// C3D20: its consistent mass.
template <>
struct ConsistentMass<C3D20> {
  static constexpr bool kHas = true;
  static double matrix(const Vec3<double> X[20], double rho, double* M) {
    return solid_detail::hex20_consistent_mass(X, rho, M);
  }
};

/// C3D20R: its consistent mass (the full rule: the mass has no hourglass modes to spare).
template <>
struct ConsistentMass<C3D20R> {
  static constexpr bool kHas = true;
  static double matrix(const Vec3<double> X[20], double rho, double* M) {
    return solid_detail::hex20_consistent_mass(X, rho, M);
  }
};

/// C3D10: its consistent mass.
/// C3D20R FORMULATION=REDUCED MASS (the peer's C3D20R): the mass at the element's own 2 x 2 x 2
/// points, singular element by element (rank 8 of 20; a mesh's assembled mass need not be), and
/// so its body loads; transient_matrix is the full rule's, for the implicit dynamic step, whose
/// start solves M a = f (the peer's agrees with that there: its beamimpdy1 to 4e-5).
template <>
struct ConsistentMass<C3D20RReducedMass> {
  static constexpr bool kHas = true;
  static double matrix(const Vec3<double> X[20], double rho, double* M) {
    return solid_detail::hex20_consistent_mass(X, rho, M, 2);
  }
  static double transient_matrix(const Vec3<double> X[20], double rho, double* M) {
    return solid_detail::hex20_consistent_mass(X, rho, M, 3);
  }
};

template <>
struct ConsistentMass<C3D10> {
  static constexpr bool kHas = true;
  static double matrix(const Vec3<double> X[10], double rho, double* M) {
    return solid_detail::tet10_consistent_mass(X, rho, M);
  }
};

/// CAX8: its consistent mass (totals around the ring, as its lumped mass).
template <>
struct ConsistentMass<CAX8> {
  static constexpr bool kHas = true;
  static double matrix(const Vec3<double> X[8], double rho, double* M) {
    return solid_detail::quad8_ring_consistent_mass<CAX8>(X, rho, M);
  }
};

/// CAX8R: its consistent mass (the full rule, as C3D20R's).
template <>
struct ConsistentMass<CAX8R> {
  static constexpr bool kHas = true;
  static double matrix(const Vec3<double> X[8], double rho, double* M) {
    return solid_detail::quad8_ring_consistent_mass<CAX8R>(X, rho, M);
  }
};

}  // namespace halfstep
