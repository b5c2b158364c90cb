#include "materials/plane_stress.hpp"

#include <cmath>
#include <stdexcept>

namespace halfstep {

Mat3<double> plane_stress_stiffness(const SolidMaterial<double>& m) {
  double C[6][6], q[3][3];
  solid_tangent(m, scaled_identity(1.0), C);
  condense_plane_stress(C, q);
  return {{q[0][0], q[0][1], q[0][2], q[1][0], q[1][1], q[1][2], q[2][0], q[2][1], q[2][2]}};
}

PlaneIsotropicConstants plane_isotropic_constants(const SolidMaterial<double>& m) {
  const Mat3<double> q = plane_stress_stiffness(m);
  double C[6][6];
  solid_tangent(m, scaled_identity(1.0), C);
  // Round-off of the condensation and of rotating orthotropic axes is ~1e-15 of the moduli;
  // 1e-10 accepts exactly the materials whose in-plane behaviour one (E, nu) describes.
  const double tol = 1e-10 * q(0, 0);
  const double ebar = q(0, 0), nu = q(0, 1) / q(0, 0), shear = q(2, 2);
  const bool isotropic = std::fabs(q(1, 1) - ebar) <= tol && std::fabs(q(1, 0) - q(0, 1)) <= tol &&
                         std::fabs(q(0, 2)) <= tol && std::fabs(q(1, 2)) <= tol && std::fabs(q(2, 0)) <= tol &&
                         std::fabs(q(2, 1)) <= tol && std::fabs(shear - 0.5 * (ebar - q(0, 1))) <= tol &&
                         std::fabs(C[4][4] - C[5][5]) <= tol && std::fabs(C[4][5]) <= tol;
  if (!isotropic)
    throw std::invalid_argument("the shell section needs a material that is isotropic in the shell plane "
                                "(orthotropic shell materials are not supported)");
  return {ebar, nu, shear, C[4][4]};
}

}  // namespace halfstep
