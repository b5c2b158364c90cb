#include "discretization/nurbs_patch.hpp"

#include <cmath>
#include <sstream>
#include <utility>

namespace halfstep {

using nurbs::kNurbsMaxDegree;

namespace {

/// Throws the validation error with a common prefix so the user knows which object is meant.
[[noreturn]] void fail(const SourceLoc& where, const std::string& what) {
  throw InputError(where, "NURBS patch: " + what);
}

/// A value in a message, with enough digits to tell knots apart.
std::string num(double v) {
  std::ostringstream s;
  s.precision(12);
  s << v;
  return s.str();
}

/// One row of a linear map between control nets of one direction: new point = sum_k
/// coef[k] * old point (first + k). Rows are short bands, so a refinement costs O(n p).
struct Row {
  int first = 0;
  std::vector<double> coef;
};

/// a * r + b * s as a band row.
Row combine(double a, const Row& r, double b, const Row& s) {
  const int first = std::min(r.first, s.first);
  const int last = std::max(r.first + static_cast<int>(r.coef.size()), s.first + static_cast<int>(s.coef.size()));
  Row out;
  out.first = first;
  out.coef.assign(last - first, 0.0);
  for (size_t k = 0; k < r.coef.size(); ++k) out.coef[r.first - first + k] += a * r.coef[k];
  for (size_t k = 0; k < s.coef.size(); ++k) out.coef[s.first - first + k] += b * s.coef[k];
  return out;
}

/// A refinement of one direction: the new knot vector and degree, and each new control point
/// as a combination of the old ones (applied to homogeneous coordinates).
struct Refine1D {
  int degree = 0;
  std::vector<double> knots;
  std::vector<Row> rows;
};

/// Identity map on n points with knot vector U.
Refine1D identity_map(const std::vector<double>& U, int p) {
  Refine1D m;
  m.degree = p;
  m.knots = U;
  const int n = static_cast<int>(U.size()) - p - 1;
  m.rows.resize(n);
  for (int i = 0; i < n; ++i) m.rows[i] = Row{i, {1.0}};
  return m;
}

/// Boehm's insertion of one knot ub into the map's current knot vector: Q_i = a_i P_i +
/// (1 - a_i) P_(i-1) for the p points whose support contains ub, a_i = (ub - U_i)/(U_(i+p) - U_i).
void insert_one(Refine1D& m, double ub) {
  const int p = m.degree;
  const std::vector<double>& U = m.knots;
  const int n = static_cast<int>(m.rows.size());
  const int k = nurbs::find_span(n, p, ub, U.data());
  std::vector<Row> rows(n + 1);
  for (int i = 0; i <= n; ++i) {
    if (i <= k - p) {
      rows[i] = m.rows[i];
    } else if (i > k) {
      rows[i] = m.rows[i - 1];
    } else {
      const double a = (ub - U[i]) / (U[i + p] - U[i]);
      rows[i] = combine(a, m.rows[i], 1.0 - a, m.rows[i - 1]);
    }
  }
  m.rows = std::move(rows);
  m.knots.insert(m.knots.begin() + k + 1, ub);
}

/// The patch with the map applied along `direction`, in homogeneous coordinates (w x, w y, w z, w).
NurbsPatch apply_map(const NurbsPatch& in, int direction, const Refine1D& m) {
  NurbsPatch out = in;
  out.degree[direction] = m.degree;
  out.knots[direction] = m.knots;
  out.count[direction] = static_cast<int>(m.rows.size());
  const int total = out.points();
  out.x.assign(total, 0.0);
  out.y.assign(total, 0.0);
  out.z.assign(total, 0.0);
  out.w.assign(total, 0.0);
  // Strides of the old and the new net along `direction`; the other indices are unchanged.
  int stride = 1;
  for (int d = 0; d < direction; ++d) stride *= in.count[d];
  const int n_old = in.count[direction], n_new = out.count[direction];
  const int outer = in.points() / (stride * n_old);
  for (int o = 0; o < outer; ++o)
    for (int s = 0; s < stride; ++s) {
      const int base_old = o * stride * n_old + s, base_new = o * stride * n_new + s;
      for (int i = 0; i < n_new; ++i) {
        const Row& r = m.rows[i];
        double hx = 0, hy = 0, hz = 0, hw = 0;
        for (size_t k = 0; k < r.coef.size(); ++k) {
          const int j = base_old + (r.first + static_cast<int>(k)) * stride;
          const double c = r.coef[k] * in.w[j];
          hx += c * in.x[j];
          hy += c * in.y[j];
          hz += c * in.z[j];
          hw += c;
        }
        const int t = base_new + i * stride;
        out.w[t] = hw;
        out.x[t] = hx / hw;
        out.y[t] = hy / hw;
        out.z[t] = hz / hw;
      }
    }
  return out;
}

/// Multiplicity of the knot value U[i] in U.
int multiplicity(const std::vector<double>& U, double v) {
  int m = 0;
  for (double k : U) m += k == v;
  return m;
}

/// Solves A X = B in place for X (A: n x n, B: n x m, row-major), Gaussian elimination with
/// partial pivoting; the extraction operators it is used on are well conditioned.
void solve_dense(int n, int m, std::vector<double> A, std::vector<double>& B) {
  for (int c = 0; c < n; ++c) {
    int piv = c;
    for (int r = c + 1; r < n; ++r)
      if (std::fabs(A[r * n + c]) > std::fabs(A[piv * n + c])) piv = r;
    if (piv != c) {
      for (int k = 0; k < n; ++k) std::swap(A[c * n + k], A[piv * n + k]);
      for (int k = 0; k < m; ++k) std::swap(B[c * m + k], B[piv * m + k]);
    }
    for (int r = c + 1; r < n; ++r) {
      const double f = A[r * n + c] / A[c * n + c];
      if (f == 0.0) continue;
      for (int k = c; k < n; ++k) A[r * n + k] -= f * A[c * n + k];
      for (int k = 0; k < m; ++k) B[r * m + k] -= f * B[c * m + k];
    }
  }
  for (int c = n - 1; c >= 0; --c) {
    for (int k = 0; k < m; ++k) {
      double v = B[c * m + k];
      for (int j = c + 1; j < n; ++j) v -= A[c * n + j] * B[j * m + k];
      B[c * m + k] = v / A[c * n + c];
    }
  }
}

/// Binomial coefficient C(n, k) for the small n of Bézier elevation.
double binomial(int n, int k) {
  if (k < 0 || k > n) return 0.0;
  double r = 1.0;
  for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

/// Degree elevation of one direction by t. Each Bézier element's control points (C_e^T P)
/// are elevated with the Bernstein identity E_ij = C(p,j) C(t,i-j) / C(p+t,i); the new
/// knot vector (every multiplicity + t) has its own extraction C'_e, and its control points
/// on element e solve C'_e^T Q = E C_e^T P (C'_e is invertible: the element's B-splines are a
/// basis of the degree p+t polynomials). A point shared by elements takes its first element's
/// value; the others agree to round-off because the elevated curve lies in the new space.
Refine1D elevate_map(const std::vector<double>& U, int p, int t) {
  const int q = p + t;
  std::vector<double> V;
  for (size_t i = 0; i < U.size();) {
    size_t j = i;
    while (j < U.size() && U[j] == U[i]) ++j;
    for (size_t k = 0; k < j - i + static_cast<size_t>(t); ++k) V.push_back(U[i]);
    i = j;
  }
  const Extraction1D old_ext = extract_bezier_1d(U, p);
  const Extraction1D new_ext = extract_bezier_1d(V, q);
  const int np = p + 1, nq = q + 1;
  std::vector<double> E(nq * np, 0.0);
  for (int i = 0; i < nq; ++i)
    for (int j = 0; j < np; ++j) E[i * np + j] = binomial(p, j) * binomial(t, i - j) / binomial(q, i);
  Refine1D m;
  m.degree = q;
  m.knots = V;
  const int n_new = static_cast<int>(V.size()) - q - 1;
  m.rows.assign(n_new, Row{});
  std::vector<bool> done(n_new, false);
  for (int e = 0; e < old_ext.elements(); ++e) {
    const double* Co = old_ext.op(e);
    const double* Cn = new_ext.op(e);
    std::vector<double> rhs(nq * np, 0.0);  // E C_old^T
    for (int i = 0; i < nq; ++i)
      for (int a = 0; a < np; ++a) {
        double v = 0.0;
        for (int j = 0; j < np; ++j) v += E[i * np + j] * Co[a * np + j];
        rhs[i * np + a] = v;
      }
    std::vector<double> A(nq * nq);  // C_new^T
    for (int i = 0; i < nq; ++i)
      for (int j = 0; j < nq; ++j) A[i * nq + j] = Cn[j * nq + i];
    solve_dense(nq, np, A, rhs);
    const int first_old = old_ext.span[e] - p, first_new = new_ext.span[e] - q;
    for (int r = 0; r < nq; ++r) {
      if (done[first_new + r]) continue;
      done[first_new + r] = true;
      m.rows[first_new + r] = Row{first_old, std::vector<double>(rhs.begin() + r * np, rhs.begin() + (r + 1) * np)};
    }
  }
  return m;
}

void check_direction(const NurbsPatch& patch, int direction, const char* what) {
  if (direction < 0 || direction >= patch.dim)
    throw InputError({}, std::string("NURBS patch: ") + what + ": direction " + std::to_string(direction) +
                             " is not one of the patch's " + std::to_string(patch.dim) + " parametric directions");
}

}  // namespace

int NurbsPatch::points() const {
  int n = 1;
  for (int d = 0; d < dim; ++d) n *= count[d];
  return n;
}

void validate(const NurbsPatch& patch, const SourceLoc& where) {
  if (patch.dim < 1 || patch.dim > 3)
    fail(where, "parametric dimension must be 1, 2 or 3, got " + std::to_string(patch.dim));
  for (int d = 0; d < patch.dim; ++d) {
    const std::string dir = "direction " + std::to_string(d + 1);
    const int p = patch.degree[d], n = patch.count[d];
    const std::vector<double>& U = patch.knots[d];
    if (p < 1 || p > kNurbsMaxDegree)
      fail(where, dir + ": degree " + std::to_string(p) + " is not supported (degrees 1 to " +
                      std::to_string(kNurbsMaxDegree) + ")");
    if (n < p + 1)
      fail(where, dir + ": " + std::to_string(n) + " control points, a degree " + std::to_string(p) +
                      " direction needs at least " + std::to_string(p + 1));
    if (static_cast<int>(U.size()) != n + p + 1)
      fail(where, dir + ": knot vector has wrong length " + std::to_string(U.size()) + ", expected n + p + 1 = " +
                      std::to_string(n) + " + " + std::to_string(p) + " + 1 = " + std::to_string(n + p + 1));
    for (size_t i = 0; i < U.size(); ++i)
      if (!std::isfinite(U[i])) fail(where, dir + ": knot " + std::to_string(i + 1) + " is not finite");
    for (size_t i = 1; i < U.size(); ++i)
      if (U[i] < U[i - 1])
        fail(where, dir + ": knot vector is not non-decreasing: knot " + std::to_string(i + 1) + " (" + num(U[i]) +
                        ") is below knot " + std::to_string(i) + " (" + num(U[i - 1]) + ")");
    if (!(U.front() < U.back())) fail(where, dir + ": knot vector has zero length (all knots equal)");
    for (int i = 1; i <= p; ++i)
      if (U[i] != U[0] || U[U.size() - 1 - i] != U.back())
        fail(where, dir + ": knot vector is not open (clamped): its first and last p + 1 = " + std::to_string(p + 1) +
                        " knots must be equal (only open knot vectors are supported)");
    if (!(U[p] < U[p + 1]) || !(U[n - 1] < U[n]))
      fail(where, dir + ": an end knot of the knot vector appears more than p + 1 = " + std::to_string(p + 1) +
                      " times");
    for (size_t i = p + 1; i < U.size() - p - 1;) {
      size_t j = i;
      while (j < U.size() - p - 1 && U[j] == U[i]) ++j;
      if (static_cast<int>(j - i) > p)
        fail(where, dir + ": interior knot " + num(U[i]) + " has multiplicity " + std::to_string(j - i) +
                        ", more than the degree p = " + std::to_string(p));
      i = j;
    }
  }
  const size_t total = static_cast<size_t>(patch.points());
  std::string net = std::to_string(patch.count[0]);
  for (int d = 1; d < patch.dim; ++d) net += " x " + std::to_string(patch.count[d]);
  const std::pair<const char*, const std::vector<double>*> arrays[] = {
      {"x", &patch.x}, {"y", &patch.y}, {"z", &patch.z}, {"w (weights)", &patch.w}};
  for (const auto& a : arrays)
    if (a.second->size() != total)
      fail(where, std::string("control net size mismatch: ") + a.first + " has " + std::to_string(a.second->size()) +
                      " values, the " + net + " net needs " + std::to_string(total));
  for (size_t i = 0; i < total; ++i) {
    if (!(patch.w[i] > 0.0) || !std::isfinite(patch.w[i]))
      fail(where, "weight of control point " + std::to_string(i + 1) + " is " + num(patch.w[i]) +
                      "; weights must be positive and finite");
    if (!std::isfinite(patch.x[i]) || !std::isfinite(patch.y[i]) || !std::isfinite(patch.z[i]))
      fail(where, "control point " + std::to_string(i + 1) + " has a coordinate that is not finite");
  }
}

std::array<double, 3> evaluate(const NurbsPatch& patch, const double* u) { return evaluate(patch, u, nullptr); }

std::array<double, 3> evaluate(const NurbsPatch& patch, const double* u, std::array<double, 3>* jac) {
  const int D = patch.dim;
  double N[3][nurbs::kMaxBasis1D], dN[3][nurbs::kMaxBasis1D];
  int first[3] = {0, 0, 0}, len[3] = {1, 1, 1};
  for (int d = 0; d < D; ++d) {
    const int p = patch.degree[d];
    const int span = nurbs::find_span(patch.count[d], p, u[d], patch.knots[d].data());
    nurbs::bspline_basis(span, u[d], p, patch.knots[d].data(), N[d], dN[d]);
    first[d] = span - p;
    len[d] = p + 1;
  }
  for (int d = D; d < 3; ++d) N[d][0] = 1.0, dN[d][0] = 0.0;
  // Homogeneous sums: S = sum w N P, W = sum w N, and their derivatives.
  double S[3] = {0, 0, 0}, W = 0, dS[3][3] = {}, dW[3] = {0, 0, 0};
  for (int k = 0; k < len[2]; ++k)
    for (int j = 0; j < len[1]; ++j)
      for (int i = 0; i < len[0]; ++i) {
        const int idx[3] = {i, j, k};
        const int c = patch.index(first[0] + i, first[1] + j, first[2] + k);
        const double P[3] = {patch.x[c], patch.y[c], patch.z[c]};
        const double v = N[0][i] * N[1][j] * N[2][k];
        W += patch.w[c] * v;
        for (int a = 0; a < 3; ++a) S[a] += patch.w[c] * v * P[a];
        for (int g = 0; g < D; ++g) {
          double dv = 1.0;
          for (int d = 0; d < 3; ++d) dv *= d == g ? dN[d][idx[d]] : N[d][idx[d]];
          dW[g] += patch.w[c] * dv;
          for (int a = 0; a < 3; ++a) dS[g][a] += patch.w[c] * dv * P[a];
        }
      }
  std::array<double, 3> x{{S[0] / W, S[1] / W, S[2] / W}};
  if (jac)
    for (int g = 0; g < D; ++g)
      for (int a = 0; a < 3; ++a) jac[g][a] = (dS[g][a] - x[a] * dW[g]) / W;
  return x;
}

NurbsPatch insert_knot(const NurbsPatch& patch, int direction, double u, int times) {
  check_direction(patch, direction, "knot insertion");
  const std::vector<double>& U = patch.knots[direction];
  const int p = patch.degree[direction];
  if (!(u > U.front() && u < U.back()))
    throw InputError({}, "NURBS patch: knot insertion: " + num(u) + " is not inside the knot vector's interval (" +
                             num(U.front()) + ", " + num(U.back()) + ")");
  if (times < 1 || multiplicity(U, u) + times > p)
    throw InputError({}, "NURBS patch: knot insertion: inserting " + num(u) + " " + std::to_string(times) +
                             " time(s) gives multiplicity " + std::to_string(multiplicity(U, u) + times) +
                             ", the degree p = " + std::to_string(p) + " allows at most p (and at least one insertion)");
  Refine1D m = identity_map(U, p);
  for (int i = 0; i < times; ++i) insert_one(m, u);
  return apply_map(patch, direction, m);
}

NurbsPatch elevate_degree(const NurbsPatch& patch, int direction, int t) {
  check_direction(patch, direction, "degree elevation");
  const int p = patch.degree[direction];
  if (t < 1 || p + t > kNurbsMaxDegree)
    throw InputError({}, "NURBS patch: degree elevation by " + std::to_string(t) + " from degree " + std::to_string(p) +
                             " is not supported: the elevation must be at least 1 and the degree at most " +
                             std::to_string(kNurbsMaxDegree));
  return apply_map(patch, direction, elevate_map(patch.knots[direction], p, t));
}

NurbsPatch refine_uniform(const NurbsPatch& patch, int per_span) {
  if (per_span < 0) throw InputError({}, "NURBS patch: uniform refinement needs 0 or more knots per span");
  NurbsPatch out = patch;
  for (int d = 0; d < patch.dim; ++d) {
    const std::vector<double> U = out.knots[d];
    Refine1D m = identity_map(U, out.degree[d]);
    for (size_t i = 0; i + 1 < U.size(); ++i) {
      if (!(U[i] < U[i + 1])) continue;
      for (int j = 1; j <= per_span; ++j) insert_one(m, U[i] + (U[i + 1] - U[i]) * j / (per_span + 1));
    }
    out = apply_map(out, d, m);
  }
  return out;
}

double refined_point_count(const NurbsPatch& patch, int per_span) {
  double points = 1;
  for (int d = 0; d < patch.dim; ++d) {
    const std::vector<double>& U = patch.knots[d];
    double spans = 0;
    for (size_t i = 0; i + 1 < U.size(); ++i) spans += U[i] < U[i + 1] ? 1 : 0;
    points *= patch.count[d] + static_cast<double>(per_span) * spans;
  }
  return points;
}

NurbsPatch boundary(const NurbsPatch& patch, int direction, int side, std::vector<int>* points) {
  check_direction(patch, direction, "boundary");
  if (patch.dim < 2 || (side != 0 && side != 1))
    throw InputError({}, "NURBS patch: boundary: needs a surface or solid patch and side 0 or 1 (got dimension " +
                             std::to_string(patch.dim) + ", side " + std::to_string(side) + ")");
  NurbsPatch b;
  b.dim = patch.dim - 1;
  int k = 0;  // the remaining directions keep their order
  for (int d = 0; d < patch.dim; ++d) {
    if (d == direction) continue;
    b.degree[k] = patch.degree[d];
    b.count[k] = patch.count[d];
    b.knots[k] = patch.knots[d];
    ++k;
  }
  for (; k < 3; ++k) b.degree[k] = 0, b.count[k] = 1, b.knots[k].clear();
  const int layer = side == 0 ? 0 : patch.count[direction] - 1;
  if (points) points->clear();
  const int n1 = patch.dim > 1 ? patch.count[1] : 1, n2 = patch.dim > 2 ? patch.count[2] : 1;
  for (int i2 = 0; i2 < n2; ++i2)
    for (int i1 = 0; i1 < n1; ++i1)
      for (int i0 = 0; i0 < patch.count[0]; ++i0) {
        const int idx[3] = {i0, i1, i2};
        if (idx[direction] != layer) continue;
        const int c = patch.index(i0, i1, i2);
        b.x.push_back(patch.x[c]);
        b.y.push_back(patch.y[c]);
        b.z.push_back(patch.z[c]);
        b.w.push_back(patch.w[c]);
        if (points) points->push_back(c);
      }
  return b;
}

Extraction1D extract_bezier_1d(const std::vector<double>& U, int p) {
  // Borden et al.'s sweep over the knot vector: each element starts from the identity; every
  // interior knot of multiplicity mult < p is (virtually) inserted r = p - mult times. Each
  // insertion mixes the element's last columns (C[:,k] = a C[:,k] + (1-a) C[:,k-1]), and the
  // column it completes that belongs to the next element is copied there (rows shifted by mult).
  Extraction1D ext;
  ext.degree = p;
  const int m = static_cast<int>(U.size());
  const int np = p + 1;
  int nel = 0;
  for (int i = p; i + 1 < m - p; ++i) nel += U[i] < U[i + 1];
  ext.operators.assign(static_cast<size_t>(nel) * np * np, 0.0);
  auto at = [&](int e, int r, int c) -> double& { return ext.operators[(static_cast<size_t>(e) * np + r) * np + c]; };
  for (int e = 0; e < nel; ++e)
    for (int r = 0; r < np; ++r) at(e, r, r) = 1.0;
  int a = p, b = p + 1, e = 0;
  std::vector<double> alpha(p + 2, 0.0);
  while (b < m && e < nel) {
    ext.span.push_back(a);
    ext.lower.push_back(U[a]);
    ext.upper.push_back(U[b]);
    const int i = b;
    while (b + 1 < m && U[b + 1] == U[b]) ++b;
    const int mult = b - i + 1;
    if (mult < p) {
      const double numer = U[b] - U[a];
      for (int k = p; k > mult; --k) alpha[k] = numer / (U[a + k] - U[a]);  // by offset in the original knots
      const int r = p - mult;
      for (int j = 1; j <= r; ++j) {
        const int s = mult + j;
        // After j - 1 insertions the knot at offset k is the original one at offset k - j + 1.
        for (int k = p; k >= s; --k) {
          const double al = alpha[k - j + 1];
          for (int row = 0; row < np; ++row) at(e, row, k) = al * at(e, row, k) + (1.0 - al) * at(e, row, k - 1);
        }
        if (e + 1 < nel) {
          const int save = r - j;
          for (int q = 0; q <= j; ++q) at(e + 1, save + q, save) = at(e, p - j + q, p);
        }
      }
    }
    ++e;
    a = b;
    b = b + 1;
  }
  return ext;
}

BezierMesh extract_bezier(const NurbsPatch& patch, bool dense) {
  BezierMesh mesh;
  mesh.dim = patch.dim;
  mesh.degree = patch.degree;
  mesh.nb = 1;
  mesh.elements = 1;
  for (int d = 0; d < patch.dim; ++d) {
    mesh.dir[d] = extract_bezier_1d(patch.knots[d], patch.degree[d]);
    mesh.elements_per_dir[d] = mesh.dir[d].elements();
    mesh.nb *= patch.degree[d] + 1;
    mesh.elements *= mesh.elements_per_dir[d];
  }
  for (int d = patch.dim; d < 3; ++d) mesh.degree[d] = 0;
  const int D = patch.dim, nb = mesh.nb;
  const int n0 = mesh.degree[0] + 1, n1 = mesh.degree[1] + 1, n2 = mesh.degree[2] + 1;
  mesh.connectivity.resize(static_cast<size_t>(mesh.elements) * nb);
  if (dense) mesh.extraction.resize(static_cast<size_t>(mesh.elements) * nb * nb);
  mesh.lower.resize(static_cast<size_t>(mesh.elements) * D);
  mesh.upper.resize(static_cast<size_t>(mesh.elements) * D);
  mesh.dir_element.resize(static_cast<size_t>(mesh.elements) * D);
  int e = 0;
  const int ne1 = D > 1 ? mesh.elements_per_dir[1] : 1, ne2 = D > 2 ? mesh.elements_per_dir[2] : 1;
  for (int e2 = 0; e2 < ne2; ++e2)
    for (int e1 = 0; e1 < ne1; ++e1)
      for (int e0 = 0; e0 < mesh.elements_per_dir[0]; ++e0, ++e) {
        const int ed[3] = {e0, e1, e2};
        int first[3] = {0, 0, 0};
        const double* C1[3] = {nullptr, nullptr, nullptr};
        for (int d = 0; d < D; ++d) {
          const Extraction1D& x = mesh.dir[d];
          first[d] = x.span[ed[d]] - x.degree;
          C1[d] = x.op(ed[d]);
          mesh.lower[e * D + d] = x.lower[ed[d]];
          mesh.upper[e * D + d] = x.upper[ed[d]];
          mesh.dir_element[e * D + d] = ed[d];
        }
        int* conn = mesh.connectivity.data() + static_cast<size_t>(e) * nb;
        double* C = dense ? mesh.extraction.data() + static_cast<size_t>(e) * nb * nb : nullptr;
        for (int a = 0; a < nb; ++a) {
          const int ia[3] = {a % n0, (a / n0) % n1, a / (n0 * n1)};
          conn[a] = patch.index(first[0] + ia[0], first[1] + ia[1], first[2] + ia[2]);
          for (int c = 0; c < nb && dense; ++c) {
            const int ic[3] = {c % n0, (c / n0) % n1, c / (n0 * n1)};
            double v = 1.0;  // Kronecker product entry
            for (int d = 0; d < D; ++d) v *= C1[d][ia[d] * (mesh.degree[d] + 1) + ic[d]];
            C[a * nb + c] = v;
          }
        }
      }
  (void)n2;
  return mesh;
}

NurbsPatch patch_of(const Model& model, const NurbsPatchDef& d) {
  NurbsPatch p;
  p.dim = d.dim;
  p.degree = d.degree;
  p.count = d.count;
  p.knots = d.knots;
  p.w = d.weights;
  for (const int n : d.nodes) {
    p.x.push_back(model.nodes.x[static_cast<std::size_t>(n)]);
    p.y.push_back(model.nodes.y[static_cast<std::size_t>(n)]);
    p.z.push_back(model.nodes.z[static_cast<std::size_t>(n)]);
  }
  return p;
}

}  // namespace halfstep
