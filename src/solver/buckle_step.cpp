#include "solver/buckle_step.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "core/lap_timer.hpp"
#include "solver/stress_stiffness.hpp"
#include "elements/registry.hpp"
#include "solver/static_problem.hpp"

#if HALFSTEP_HAVE_SPECTRA
#include <Spectra/SymGEigsSolver.h>
#endif

namespace halfstep {

namespace {

/// Up to this many equations the eigenproblem is solved densely.
constexpr int kDenseEquations = 64;

/// The most memory the Lanczos basis may take (bytes), as a frequency step's.
constexpr double kMaxBasisBytes = 16e9;

/// The amplitude, as a fraction of the model's size, of the central difference that gives K x
/// about a geometrically nonlinear base (exact for the cubic forces of St. Venant-Kirchhoff
/// solids, second order for the other laws, far above round-off).
constexpr double kAmplitude = 1e-4;

/// The buckling problem on the step's equations: B = K (the base state's tangent, factored by
/// the engine) and A = -K_sigma, the initial-stress stiffness of the stresses of u = K^-1 P
/// (solver/stress_stiffness.hpp). Then A phi = mu B phi with mu = 1 / lambda.
struct BucklingOperator {
  StaticProblem& p;
  const StressStiffness* ks = nullptr;
  Configuration c0;     ///< base configuration (a NLGEOM base's B)
  double phi_size = 1;  ///< the amplitude of B's central difference
  mutable std::vector<double> dof, f, g, sum, t3, f3;
  mutable Configuration c;

  /// y = A x = -K_sigma x on the equations.
  void apply_a(const double* x, double* y) const {
    p.expand_equations(x, dof);
    t3.assign(3 * p.nn, 0.0);
    for (std::size_t n = 0; n < p.nn; ++n)
      for (int k = 0; k < 3; ++k) t3[3 * n + k] = dof[p.q * n + k];
    ks->apply(t3, f3);
    sum.assign(p.ndof, 0.0);
    for (std::size_t n = 0; n < p.nn; ++n)
      for (int k = 0; k < 3; ++k) sum[p.q * n + k] = -f3[3 * n + k];
    p.gather_equations(sum, y);
  }

  /// Internal forces at the base displaced by b v (v: dofs).
  void forces_at(double b, const std::vector<double>& v, std::vector<double>& out) const {
    c = c0;
    for (std::size_t n = 0; n < p.nn; ++n)
      for (int k = 0; k < 3; ++k) c.u[3 * n + k] += b * v[p.q * n + k];
    p.engine->internal_force(c, out);
  }

  /// y = B x = K x on the equations: K(ref) x of a geometrically linear base, else the
  /// central difference of the internal forces about the base.
  void apply_b(const double* x, double* y) const {
    p.expand_equations(x, dof);
    if (!p.step.nlgeom) {
      p.engine->linearized_force(p.ref, dof, sum);
    } else {
      double big = 0;
      for (std::size_t i = 0; i < p.ndof; ++i) big = std::max(big, std::fabs(dof[i]));
      if (!(big > 0)) {
        std::fill(y, y + p.neq, 0.0);
        return;
      }
      const double s = phi_size / big;
      forces_at(s, dof, g);
      forces_at(-s, dof, f);
      sum.resize(p.ndof);
      for (std::size_t i = 0; i < p.ndof; ++i) sum[i] = (g[i] - f[i]) * 0.5 / s;
    }
    p.gather_equations(sum, y);
  }
};

#if HALFSTEP_HAVE_SPECTRA
/// A for Spectra.
struct AProduct {
  using Scalar = double;
  const BucklingOperator* b;
  Eigen::Index rows() const { return b->p.neq; }
  Eigen::Index cols() const { return b->p.neq; }
  void perform_op(const double* in, double* out) const { b->apply_a(in, out); }
};

/// B and B^-1 (the engine's factorization) for Spectra.
struct BProduct {
  using Scalar = double;
  const BucklingOperator* b;
  mutable std::vector<double> r, x;
  Eigen::Index rows() const { return b->p.neq; }
  Eigen::Index cols() const { return b->p.neq; }
  void perform_op(const double* in, double* out) const { b->apply_b(in, out); }
  void solve(const double* in, double* out) const {
    r.assign(in, in + b->p.neq);
    b->p.engine->solve(r, x);
    std::copy(x.begin(), x.end(), out);
  }
};
#endif

/// Buckling factors (smallest magnitude first) and their modes by column.
struct Buckling {
  std::vector<double> lambda;
  Eigen::MatrixXd phi;
};

/// Keeps the nev pairs of largest |mu| as factors 1 / mu, smallest |lambda| first.
Buckling from_mu(const Eigen::VectorXd& mu, const Eigen::MatrixXd& vec, int nev, double mu_floor) {
  std::vector<int> order;
  for (Eigen::Index i = 0; i < mu.size(); ++i)
    if (std::fabs(mu(i)) > mu_floor) order.push_back(static_cast<int>(i));
  std::sort(order.begin(), order.end(), [&](int a, int b) { return std::fabs(mu(a)) > std::fabs(mu(b)); });
  if (static_cast<int>(order.size()) > nev) order.resize(static_cast<std::size_t>(nev));
  Buckling out;
  out.phi.resize(vec.rows(), static_cast<Eigen::Index>(order.size()));
  for (std::size_t j = 0; j < order.size(); ++j) {
    out.lambda.push_back(1.0 / mu(order[j]));
    out.phi.col(static_cast<Eigen::Index>(j)) = vec.col(order[j]);
  }
  return out;
}

/// Every factor of a small model: A and B formed column by column, then the dense
/// generalized problem A x = mu B x.
Buckling dense_buckling(const BucklingOperator& op, int nev) {
  const int n = op.p.neq;
  Eigen::MatrixXd A(n, n), B(n, n);
  std::vector<double> e(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) {
    std::fill(e.begin(), e.end(), 0.0);
    e[static_cast<std::size_t>(j)] = 1;
    op.apply_a(e.data(), &A(0, j));
    op.apply_b(e.data(), &B(0, j));
  }
  A = 0.5 * (A + A.transpose());  // round-off of the differences
  B = 0.5 * (B + B.transpose());
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> ges(A, B, Eigen::Ax_lBx);
  if (ges.info() != Eigen::Success) throw RunError("buckle step: the dense eigensolver failed");
  const double mu_max = ges.eigenvalues().cwiseAbs().maxCoeff();
  return from_mu(ges.eigenvalues(), ges.eigenvectors(), nev, 1e-10 * mu_max);
}

#if HALFSTEP_HAVE_SPECTRA
/// The nev factors of smallest magnitude by Lanczos in B's inner product (Spectra's regular
/// inverse mode on the engine's factorization of K).
Buckling lanczos_buckling(const BucklingOperator& op, int nev, const Step& step) {
  AProduct a{&op};
  BProduct b{&op, {}, {}};
  const int n = op.p.neq;
  const int ncv = std::min(n, std::max(2 * nev + 1, nev + 20));
  Spectra::SymGEigsSolver<AProduct, BProduct, Spectra::GEigsMode::RegularInverse> eigs(a, b, nev, ncv);
  eigs.init();  // a fixed seed: the same modes on every run
  const Eigen::Index nconv = eigs.compute(Spectra::SortRule::LargestMagn, 1000, 1e-10, Spectra::SortRule::LargestMagn);
  if (eigs.info() != Spectra::CompInfo::Successful || nconv < nev)
    throw RunError("buckle step '" + step.name + "': the Lanczos eigensolver converged " + std::to_string(nconv) + " of " +
                   std::to_string(nev) + " buckling factors in " + std::to_string(eigs.num_iterations()) +
                   " restarts (ask for fewer)");
  const Eigen::VectorXd mu = eigs.eigenvalues();
  return from_mu(mu, eigs.eigenvectors(), nev, 0.0);
}
#endif

}  // namespace

void check_buckle_step(const Step& step, const StructureSystem& sys) {
  const SourceLoc& at = step.buckle->loc;
  if (sys.node_dofs > 3)
    throw InputError(at, "*BUCKLE in a model with shells or beams (nodes with rotations): not supported yet; "
                         "continuum, planar, axisymmetric, truss and spring models run");
  for (const SolidGroup& g : sys.solid.groups)
    if (!StressStiffness::supports(g.kind))
      throw InputError(at, std::string("*BUCKLE in a model with ") + element_kind(g.kind).name +
                               " elements: not supported yet (their stress stiffness); models of " +
                               StressStiffness::supported_names() + " run");
  if (!sys.contact.empty())
    throw InputError(at, "*BUCKLE in a model with contact: not supported (the buckling of a contact state "
                         "needs its active set in the tangent)");
}

void check_buckle_equations(const StaticProblem& p) {
  if (p.neq < 2)
    throw InputError(p.step.buckle->loc, "buckle step '" + p.step.name + "': the model has fewer than two free dofs");
}

std::vector<double> run_buckle_step(const Model& model, const Step& step, const StructureSystem& sys,
                                    const StepLoads& loads, StructureState& st, const StaticStepOptions& opt,
                                    StaticSummary& summary) {
  const auto t_step = std::chrono::steady_clock::now();
  const BuckleRequest& req = *step.buckle;
  check_implicit_step_start(step, sys, loads);
  check_buckle_step(step, sys);
  StaticProblem p(model, step, sys, loads, st, opt);
  check_buckle_equations(p);
  if (opt.progress)
    std::fprintf(stderr, "halfstep: buckle step '%s' (%d equations, %d factors asked for): %s\n", step.name.c_str(), p.neq,
                 req.modes, p.engine->description().c_str());
  // The base: the reference of a geometrically linear run, else the current configuration
  // with its stresses (in K and in the differences).
  BucklingOperator op{p, nullptr, {}, 1, {}, {}, {}, {}, {}, {}, {}};
  op.c0 = p.step.nlgeom ? p.start.cfg : p.ref;
  op.c0.thermal = p.start.cfg.thermal;
  op.phi_size = kAmplitude * p.model_size;
  // The perturbation load P: the step's loads less the base's (a static step ramps from
  // these to those), on the base configuration.
  std::vector<double> f1, f0;
  p.external(1.0, op.c0, f1);
  p.external(0.0, op.c0, f0);
  for (std::size_t i = 0; i < p.ndof; ++i) f1[i] -= f0[i];
  std::vector<double> b(static_cast<std::size_t>(p.neq)), ueq, u;
  p.gather_equations(f1, b.data());
  double load = 0;
  for (double v : b) load = std::max(load, std::fabs(v));
  if (!(load > 0))
    throw InputError(req.loc, "buckle step '" + step.name + "': the step applies no load on a free dof (give the "
                              "loads whose buckling factors are wanted: *CLOAD, *DLOAD, *DSLOAD in the step)");
  p.factor(p.start, true);
  p.solve(b, ueq);
  p.expand_equations(ueq.data(), u);
  std::vector<double> u3(3 * p.nn);
  double big = 0;
  for (std::size_t n = 0; n < p.nn; ++n)
    for (int k = 0; k < 3; ++k) big = std::max(big, std::fabs(u3[3 * n + k] = u[p.q * n + k]));
  if (!(big > 0) || !std::isfinite(big))
    throw RunError("buckle step '" + step.name + "': the displacements of the step's loads are " +
                   (std::isfinite(big) ? "zero" : "not finite"));
  std::unique_ptr<StressStiffness> ks;
  try {
    ks = std::make_unique<StressStiffness>(sys, u3, opt.tangent.threads);
  } catch (const std::runtime_error& e) {
    throw RunError("buckle step '" + step.name + "': " + e.what());
  }
  op.ks = ks.get();
  const int nev = std::min(req.modes, p.neq - 1);
  Buckling modes;
  if (p.neq <= kDenseEquations) {
    modes = dense_buckling(op, nev);
  } else {
#if HALFSTEP_HAVE_SPECTRA
    // The basis holds about 2 nev + 20 vectors of the model's size: a request that would not
    // fit is refused here rather than failing in the allocator.
    const double basis_bytes = 8.0 * p.neq * (2.0 * nev + 21);
    if (basis_bytes > kMaxBasisBytes)
      throw InputError(req.loc, "*BUCKLE asks for " + std::to_string(req.modes) + " buckling factors of a model of " +
                                    std::to_string(p.neq) + " equations: the Lanczos basis would take " +
                                    std::to_string(static_cast<long long>(basis_bytes / 1e9)) +
                                    " GB (at most 16); ask for fewer");
    modes = lanczos_buckling(op, nev, step);
#else
    throw InputError(req.loc, "*BUCKLE on a model of " + std::to_string(p.neq) +
                                  " equations needs halfstep built with Spectra (Debian: libspectra-dev)");
#endif
  }
  if (modes.lambda.empty())
    throw RunError("buckle step '" + step.name + "': the loads do not change the stiffness (no buckling factor)");
  // Abaqus's largest eigenvalue of interest.
  if (req.max_factor > 0) {
    std::size_t keep = 0;
    while (keep < modes.lambda.size() && std::fabs(modes.lambda[keep]) <= req.max_factor) ++keep;
    modes.lambda.resize(keep);
    modes.phi.conservativeResize(Eigen::NoChange, static_cast<Eigen::Index>(keep));
  }
  // Each mode with its largest displacement 1 and that component positive.
  std::vector<std::vector<double>> shapes;
  for (Eigen::Index j = 0; j < modes.phi.cols(); ++j) {
    std::vector<double>& dof = shapes.emplace_back();
    p.expand_equations(modes.phi.col(j).data(), dof);
    double top = 0;
    for (std::size_t n = 0; n < p.nn; ++n)
      for (int k = 0; k < 3; ++k) {
        const double v = dof[p.q * n + k];
        if (std::fabs(v) > std::fabs(top)) top = v;
      }
    if (top != 0)
      for (double& v : dof) v /= top;
  }
  if (opt.progress) {
    std::fprintf(stderr, "halfstep: buckle step '%s': %zu factors", step.name.c_str(), modes.lambda.size());
    if (!modes.lambda.empty()) std::fprintf(stderr, ", lowest %.6g", modes.lambda.front());
    else std::fprintf(stderr, " (none up to the largest of interest, %.6g)", req.max_factor);
    std::fprintf(stderr, "\n");
  }
  if (opt.emit) {
    const auto t_emit = std::chrono::steady_clock::now();
    bool want_field = false;
    for (const OutputRequest& r : loads.outputs) want_field = want_field || r.kind == OutputRequest::Kind::Field;
    const int step_number = static_cast<int>(&step - model.steps.data()) + 1;
    for (std::size_t j = 0; j < shapes.size() || (j == 0 && shapes.empty()); ++j) {
      auto frame = std::make_unique<OutputFrame>();
      frame->step = step_number;
      frame->increment = static_cast<long long>(j) + 1;
      frame->step_end = j + 1 >= shapes.size();
      if (j == 0) frame->buckling_factors = modes.lambda;
      if (j < shapes.size()) {
        frame->field = want_field;
        frame->print = !step.prints.empty();
        frame->print_cells = frame->print && prints_need_cells(step.prints);
        frame->small_strain = true;
        mode_frame_state(p, shapes[j], frame->field || frame->print_cells, frame->state);
      }
      frame->state.time = st.time + static_cast<double>(j + 1);
      frame->full.resize(sys.num_nodes);
      opt.emit(std::move(frame));
    }
    summary.output_seconds += seconds_since(t_emit);
  }
  add_engine_account(p, summary);
  summary.seconds += seconds_since(t_step);
  return modes.lambda;
}

}  // namespace halfstep
