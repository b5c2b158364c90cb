// The normal law of contact (issue 45 item 4; docs/theory.md, "Softened contact"): hard
// contact's penalty spring, or a softened pressure-overclosure law (*SURFACE BEHAVIOR,
// PRESSURE-OVERCLOSURE=LINEAR, TABULAR, EXPONENTIAL) times the area the slave node stands for,
// as host/device functions that the contact pass calls once per touching record.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/host_device.hpp"

namespace halfstep {

/// The definitions' pressure-overclosure laws as the contact pass reads them (ContactSystem's
/// law_* arrays and slave_area; kind null: every definition is hard).
template <class T>
struct NormalLawView {
  const std::uint8_t* kind = nullptr;  ///< per definition: Overclosure (0: hard)
  const int* ptr = nullptr;            ///< per definition (CSR): its values
  const T* values = nullptr;
  const T* clearance = nullptr;        ///< per definition: where its pressure starts (in the records' offsets)
  const T* area = nullptr;             ///< per slave record
};

/// Overclosure kinds as the pass reads them (model/model.hpp's Overclosure; the pass does not
/// include the model).
inline constexpr int kLawHard = 0, kLawLinear = 1, kLawTabular = 2, kLawExponential = 3, kLawExponentialPeer = 4;

/// Exponential law's pressure per p0 over (e - 1) at u = h / c0 + 1 (h the overclosure):
/// u (e^u - 1); its slope per unit u, e^u - 1 + u e^u; and its integral over [0, u],
/// (u - 1) e^u - u^2 / 2 + 1.
template <class T>
HS_HD void exponential_shape(T u, T& p, T& slope, T& integral) {
  const T eu = std::exp(u);
  p = u * (eu - T(1));
  slope = eu - T(1) + u * eu;
  integral = (u - T(1)) * eu - T(0.5) * u * u + T(1);
}

/// Normal force of a softened spring at overclosure h (negative: clearance) for a node of
/// `area`, and its stored energy (the force's integral from where it starts): the law's
/// pressure times the area wherever the spring's stiffness (area times the law's slope) stays
/// below k_cap, and k_cap beyond, so that no softened spring is stiffer than the hard one the
/// stable increment allows (docs/theory.md, "Softened contact"). v: the law's values (count nv).
template <class T>
HS_HD T softened_force(int kind, const T* v, int nv, T h, T area, T k_cap, T& energy) {
  energy = T(0);
  if (kind == kLawLinear) {
    if (!(h > T(0))) return T(0);
    const T k = area * v[0] < k_cap ? area * v[0] : k_cap;
    energy = T(0.5) * k * h * h;
    return k * h;
  }
  if (kind == kLawTabular) {
    const int points = nv / 2;
    if (points < 2 || !(h > v[0])) return T(0);
    T f = T(0);
    for (int j = 0; j + 1 < points; ++j) {
      const T h0 = v[2 * j], h1 = v[2 * j + 2];
      const T law = area * (v[2 * j + 3] - v[2 * j + 1]) / (h1 - h0);
      const T s = law < k_cap ? law : k_cap;
      const bool last = j + 2 == points;  // the last segment goes on with its slope
      const T top = (last || h < h1) ? h : h1;
      const T dh = top - h0;
      energy += f * dh + T(0.5) * s * dh * dh;
      f += s * dh;
      if (top == h) break;
    }
    return f;
  }
  if (kind == kLawExponential) {
    const T c0 = v[0], p0 = v[1];
    T cap = k_cap;
    if (nv > 2 && v[2] > T(0) && area * v[2] < cap) cap = area * v[2];
    const T u = h / c0 + T(1);
    if (!(u > T(0))) return T(0);
    const T scale = area * p0 / (std::exp(T(1)) - T(1));  // force per unit shape
    T p, slope, integral;
    exponential_shape(u, p, slope, integral);
    if (scale * slope / c0 <= cap) {
      energy = scale * c0 * integral;
      return scale * p;
    }
    // Past the knee u*, where the spring's stiffness reaches the cap: bisection (the slope
    // rises monotonically with u).
    T lo = T(0), hi = u;
    for (int it = 0; it < 60; ++it) {
      const T mid = T(0.5) * (lo + hi);
      exponential_shape(mid, p, slope, integral);
      (scale * slope / c0 <= cap ? lo : hi) = mid;
    }
    exponential_shape(lo, p, slope, integral);
    const T f_knee = scale * p, dh = c0 * (u - lo);
    energy = scale * c0 * integral + f_knee * dh + T(0.5) * cap * dh * dh;
    return f_knee + cap * dh;
  }
  if (kind == kLawExponentialPeer) {
    // CalculiX's law: p = p0 e^(beta h), beta = ln 100 / c0, its spring made at the clearance
    // c0 (h = -c0, where p is 1 % of p0) and none beyond; its stiffness beta p capped at k_cap
    // from the knee h* on (a straight line there, as the other laws).
    const T c0 = v[0], p0 = v[1];
    if (!(h > -c0)) return T(0);
    const T beta = T(4.605170185988091) / c0;  // ln 100
    const T scale = area * p0;
    const T start = scale * std::exp(-beta * c0) / beta;  // the integral's value at h = -c0
    T knee = h;
    if (scale * beta * std::exp(beta * h) > k_cap) {
      knee = std::log(k_cap / (scale * beta)) / beta;
      if (knee < -c0) knee = -c0;
    }
    const T f_knee = scale * std::exp(beta * knee), dh = h - knee;
    energy = f_knee / beta - start + f_knee * dh + T(0.5) * k_cap * dh * dh;
    return f_knee + (dh > T(0) ? k_cap * dh : T(0));
  }
  return T(0);
}

/// Normal force of slave record i of definition `pair` at penetration pen (of its offset
/// reach: the law's overclosure is pen less the definition's clearance) and its stored
/// energy: hard contact's spring k * pen, or the definition's softened law capped at k.
template <class T>
HS_HD T normal_contact_force(const NormalLawView<T>& law, int pair, int i, T pen, T k, T& energy) {
  const int kind = law.kind ? law.kind[pair] : kLawHard;
  if (kind == kLawHard) {
    const T f = k * pen;
    energy = T(0.5) * f * pen;
    return f;
  }
  const int first = law.ptr[pair];
  return softened_force(kind, law.values + first, law.ptr[pair + 1] - first, pen - law.clearance[pair], law.area[i], k,
                        energy);
}

/// Whether definition `pair` has a softened law (its springs count the whole overclosure:
/// no excess is set aside, docs/theory.md "Softened contact").
template <class T>
HS_HD bool softened_contact(const NormalLawView<T>& law, int pair) {
  return law.kind && law.kind[pair] != kLawHard;
}

}  // namespace halfstep
