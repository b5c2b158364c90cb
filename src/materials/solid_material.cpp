#include "materials/solid_material.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>

namespace halfstep {

namespace {

/// Leading principal minors of a symmetric 3x3 matrix all positive.
bool positive_definite(const Mat3<double>& a) {
  return a(0, 0) > 0 && a(0, 0) * a(1, 1) - a(0, 1) * a(1, 0) > 0 && determinant(a) > 0;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

SolidMaterial<double> svk_isotropic(double youngs, double poisson, double density) {
  if (!(youngs > 0)) throw std::invalid_argument("Young's modulus must be positive, got " + num(youngs));
  if (!(poisson > -1 && poisson < 0.5))
    throw std::invalid_argument("Poisson's ratio must lie in (-1, 0.5) for a solid, got " + num(poisson));
  SolidMaterial<double> m;
  m.model = law_id<SvkIsotropic>;
  m.density = density;
  m.lambda = youngs * poisson / ((1 + poisson) * (1 - 2 * poisson));
  m.mu = youngs / (2 * (1 + poisson));
  return m;
}

SolidMaterial<double> j2_plastic(double youngs, double poisson, double density, const double* stress,
                                 const double* strain, int n) {
  SolidMaterial<double> m = svk_isotropic(youngs, poisson, density);
  if (n < 1 || n > kMaxHardening)
    throw std::invalid_argument("a hardening table needs 1 to " + std::to_string(kMaxHardening) + " points, got " +
                                std::to_string(n));
  if (strain[0] != 0.0) throw std::invalid_argument("the first hardening point must be at plastic strain 0");
  for (int k = 0; k < n; ++k) {
    if (!(stress[k] > 0)) throw std::invalid_argument("yield stresses must be positive, got " + num(stress[k]));
    if (k > 0 && !(strain[k] > strain[k - 1]))
      throw std::invalid_argument("plastic strains of the hardening table must increase");
  }
  m.model = law_id<J2Plastic>;
  m.hardening_points = n;
  for (int k = 0; k < n; ++k) {
    m.yield_stress[k] = stress[k];
    m.yield_strain[k] = strain[k];
  }
  return m;
}

SolidMaterial<double> neo_hookean(double c10, double d1, double density) {
  if (!(c10 > 0)) throw std::invalid_argument("NEO HOOKE C10 must be positive, got " + num(c10));
  if (!(d1 > 0))
    throw std::invalid_argument("NEO HOOKE D1 must be positive (an explicit solver needs a compressible material), got " +
                                num(d1));
  SolidMaterial<double> m;
  m.model = law_id<NeoHookean>;
  m.density = density;
  m.c10 = c10;
  m.d1 = d1;
  return m;
}

SolidMaterial<double> neo_hookean_log(double c10, double d1, double density) {
  const SolidMaterial<double> abaqus = neo_hookean(c10, d1, density);  // the same checks
  SolidMaterial<double> m;
  m.model = law_id<NeoHookeanLog>;
  m.density = abaqus.density;
  m.mu = 2 * c10;
  m.lambda = 2 / d1 - 2 * m.mu / 3;
  return m;
}

SolidMaterial<double> orthotropic_engineering(const double c[9], double density, const Mat3<double>& axes) {
  const double e1 = c[0], e2 = c[1], e3 = c[2], n12 = c[3], n13 = c[4], n23 = c[5];
  for (int i : {0, 1, 2, 6, 7, 8})
    if (!(c[i] > 0))
      throw std::invalid_argument("engineering constant " + std::to_string(i + 1) + " (a modulus) must be positive, got " +
                                  num(c[i]));
  // Compliance of the normal components; nu_ji / E_j = nu_ij / E_i keeps it symmetric.
  Mat3<double> s{{1 / e1, -n12 / e1, -n13 / e1, -n12 / e1, 1 / e2, -n23 / e2, -n13 / e1, -n23 / e2, 1 / e3}};
  if (!positive_definite(s))
    throw std::invalid_argument("the engineering constants give a compliance that is not positive definite "
                                "(check the Poisson's ratios against the moduli)");
  const Mat3<double> d = inverse(s);
  const double stiff[9] = {d(0, 0), d(0, 1), d(1, 1), d(0, 2), d(1, 2), d(2, 2), c[6], c[7], c[8]};
  return orthotropic_stiffness(stiff, density, axes);
}

SolidMaterial<double> anisotropic_stiffness(const double d[21], double density, const Mat3<double>& axes) {
  // Positive definite: a Cholesky factorization of the 6 x 6 stiffness runs to the end with
  // positive pivots.
  double c[6][6];
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) c[i][j] = solid_detail::aniso_entry(d, i, j);
  for (int k = 0; k < 6; ++k) {
    for (int p = 0; p < k; ++p) c[k][k] -= c[k][p] * c[k][p];
    if (!(c[k][k] > 0)) throw std::invalid_argument("the anisotropic stiffness is not positive definite");
    c[k][k] = std::sqrt(c[k][k]);
    for (int i = k + 1; i < 6; ++i) {
      for (int p = 0; p < k; ++p) c[i][k] -= c[i][p] * c[k][p];
      c[i][k] /= c[k][k];
    }
  }
  SolidMaterial<double> m;
  m.model = law_id<SvkAnisotropic>;
  m.density = density;
  for (int i = 0; i < 21; ++i) m.d[i] = d[i];
  m.axes = axes;
  return m;
}

SolidMaterial<double> orthotropic_stiffness(const double d[9], double density, const Mat3<double>& axes) {
  const Mat3<double> normal{{d[0], d[1], d[3], d[1], d[2], d[4], d[3], d[4], d[5]}};
  if (!positive_definite(normal) || !(d[6] > 0) || !(d[7] > 0) || !(d[8] > 0))
    throw std::invalid_argument("the orthotropic stiffness is not positive definite");
  SolidMaterial<double> m;
  m.model = law_id<SvkOrthotropic>;
  m.density = density;
  for (int i = 0; i < 9; ++i) m.d[i] = d[i];
  m.axes = axes;
  return m;
}

}  // namespace halfstep
