#include "solver/frequency_step.hpp"

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
#include "core/mat3.hpp"
#include "solver/static_problem.hpp"

#if HALFSTEP_HAVE_SPECTRA
#include <Spectra/SymGEigsShiftSolver.h>
#endif

namespace halfstep {

namespace {

/// Up to this many equations the eigenproblem is solved densely (every mode, exactly): a
/// Lanczos basis needs more vectors than such a model has unknowns.
constexpr int kDenseEquations = 64;

/// The most memory the Lanczos basis may take (bytes).
constexpr double kMaxBasisBytes = 16e9;

/// The mass in equation space, M_eq = T^T M T, applied to vectors: T spreads an equation
/// vector onto the dofs (a rigid body's slaves share their reference node's translations, a
/// *TIE or *EQUATION dependent is the weighted sum of its terms), M is the lumped mass, with
/// the quadratic solids' consistent mass in place of their lumped share
/// (elements/consistent_mass.hpp).
struct EquationMass {
  const StaticProblem& p;
  std::vector<double> m;  ///< lumped mass per dof
  std::shared_ptr<DofMass> dofs = std::make_shared<DofMass>();  ///< M on the dofs
  mutable std::vector<double> dof, out;

  EquationMass(const StaticProblem& problem, const Model& model, const StructureSystem& sys)
      : p(problem), m(lumped_dof_mass(model, sys, problem.q)),
        dofs(std::make_shared<DofMass>(dof_mass(sys, m, problem.q))), dof(problem.ndof) {}
  /// x_dof = T x (held dofs and held terms at zero: a mode moves no prescribed dof).
  void expand(const double* x, std::vector<double>& out) const { p.expand_equations(x, out); }
  /// y = T^T f for a dof vector f.
  void gather(const std::vector<double>& f, double* y) const { p.gather_equations(f, y); }
  /// f = M v for dof vectors (the lumped rest and the element masses).
  void apply_dofs(const std::vector<double>& v, std::vector<double>& f) const { dofs->apply(v, f); }
  /// y = M_eq x.
  void apply(const double* x, double* y) const {
    expand(x, dof);
    apply_dofs(dof, out);
    gather(out, y);
  }
  /// The diagonal of M_eq (a free equation without mass has an infinite frequency, which no
  /// shift-invert iteration can represent).
  std::vector<double> diagonal() const { return p.equation_diagonal(m); }
};

#if HALFSTEP_HAVE_SPECTRA
/// (K - sigma M)^-1 for Spectra: the engine's factorization, made with the shift sigma.
struct InverseStiffness {
  using Scalar = double;
  StaticProblem* p;
  double factored_shift = 0;  ///< the sigma the engine's matrix holds
  mutable std::vector<double> b, x;
  Eigen::Index rows() const { return p->neq; }
  Eigen::Index cols() const { return p->neq; }
  void set_shift(double sigma) {
    if (sigma != factored_shift) throw std::logic_error("frequency step: the tangent is factored with another shift");
  }
  void perform_op(const double* in, double* out) const {
    b.assign(in, in + p->neq);
    p->engine->solve(b, x);
    std::copy(x.begin(), x.end(), out);
  }
};

/// M_eq for Spectra.
struct MassProduct {
  using Scalar = double;
  const EquationMass* m;
  Eigen::Index rows() const { return m->p.neq; }
  Eigen::Index cols() const { return m->p.neq; }
  void perform_op(const double* in, double* out) const { m->apply(in, out); }
};
#endif

/// The eigenpairs (omega^2 ascending, vectors by column) of the nev lowest modes.
struct Modes {
  std::vector<double> lambda;
  Eigen::MatrixXd phi;
};

/// Every mode of a small model: the dense symmetric problem F M x = x / (omega^2 - sigma) with
/// F = (K - sigma M)^-1 (one solve per equation), sigma the factorization's shift.
Modes dense_modes(StaticProblem& p, const EquationMass& mass, double sigma) {
  const int n = p.neq;
  Eigen::MatrixXd F(n, n), M(n, n);
  std::vector<double> e(static_cast<std::size_t>(n)), x;
  for (int j = 0; j < n; ++j) {
    std::fill(e.begin(), e.end(), 0.0);
    e[static_cast<std::size_t>(j)] = 1;
    p.engine->solve(e, x);
    for (int i = 0; i < n; ++i) F(i, j) = x[static_cast<std::size_t>(i)];
    mass.apply(e.data(), &M(0, j));
  }
  F = 0.5 * (F + F.transpose());  // round-off of the solves
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> ges(M, F, Eigen::BAx_lx);
  if (ges.info() != Eigen::Success) throw RunError("frequency step: the dense eigensolver failed");
  Modes out;
  // mu = 1 / (omega^2 - sigma), ascending: the lowest frequencies are the last; a mu of zero
  // is a direction without mass (left out: diagonal() refused free ones already).
  const double mu_max = ges.eigenvalues().cwiseAbs().maxCoeff();
  for (int j = n - 1; j >= 0; --j) {
    const double mu = ges.eigenvalues()(j);
    if (!(std::fabs(mu) > 1e-13 * mu_max)) continue;
    out.lambda.push_back(sigma + 1.0 / mu);
  }
  out.phi.resize(n, static_cast<Eigen::Index>(out.lambda.size()));
  int c = 0;
  for (int j = n - 1; j >= 0; --j) {
    const double mu = ges.eigenvalues()(j);
    if (!(std::fabs(mu) > 1e-13 * mu_max)) continue;
    out.phi.col(c++) = ges.eigenvectors().col(j);
  }
  return out;
}

#if HALFSTEP_HAVE_SPECTRA
/// The nev lowest modes by shift-invert Lanczos (Spectra) on the factored tangent.
Modes lanczos_modes(StaticProblem& p, const EquationMass& mass, int nev, const Step& step, double sigma) {
  InverseStiffness op{&p, sigma, {}, {}};
  MassProduct bop{&mass};
  const int n = p.neq;
  const int ncv = std::min(n, std::max(2 * nev + 1, nev + 20));
  Spectra::SymGEigsShiftSolver<InverseStiffness, MassProduct, Spectra::GEigsMode::ShiftInvert> eigs(op, bop, nev, ncv, sigma);
  eigs.init();  // a fixed seed: the same modes on every run
  const Eigen::Index nconv = eigs.compute(Spectra::SortRule::LargestMagn, 1000, 1e-10, Spectra::SortRule::SmallestAlge);
  if (eigs.info() != Spectra::CompInfo::Successful || nconv < nev)
    throw RunError("frequency step '" + step.name + "': the Lanczos eigensolver converged " + std::to_string(nconv) +
                   " of " + std::to_string(nev) + " modes in " + std::to_string(eigs.num_iterations()) +
                   " restarts (ask for fewer modes)");
  Modes out;
  const Eigen::VectorXd lam = eigs.eigenvalues();
  const Eigen::MatrixXd vec = eigs.eigenvectors();
  std::vector<int> order(static_cast<std::size_t>(lam.size()));
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return lam(a) < lam(b); });
  out.phi.resize(n, lam.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    out.lambda.push_back(lam(order[i]));
    out.phi.col(static_cast<Eigen::Index>(i)) = vec.col(order[i]);
  }
  return out;
}
#endif

/// A model free to move (StaticProblem::free_motion: no support holds some part) has rigid
/// modes at zero frequency and a singular K: the step factors K - sigma M with a shift below
/// the spectrum, small against the model's highest frequencies (omega_max ~ 2 / the explicit
/// stable increment), and the rigid modes come out at zero with the elastic ones. Sets the
/// engine's diagonal shift (the lumped rest) and coupling blocks (the element masses, into
/// blocks, which must outlive the factorization); returns sigma.
double free_motion_shift(StaticProblem& p, const EquationMass& mass, const StructureSystem& sys, const Step& step,
                         const StaticStepOptions& opt, CouplingBlocks& blocks) {
  if (p.contact)
    throw InputError(step.frequency->loc, "frequency step '" + step.name + "': a model free to move as a rigid body "
                                          "with contact is not supported (hold it with *BOUNDARY)");
  const double w2 = sys.stable_dt > 0 && std::isfinite(sys.stable_dt) ? 4.0 / (sys.stable_dt * sys.stable_dt) : 1.0;
  const double sigma = -1e-8 * w2;
  std::vector<double> diag(p.ndof);
  for (std::size_t k = 0; k < p.ndof; ++k) diag[k] = -sigma * mass.dofs->m_rest[k];
  p.engine->set_diagonal_shift(p.equation_diagonal(diag));
  if (mass.dofs->consistent()) {
    mass.dofs->element_blocks(-sigma, 0.0, blocks);
    p.engine->set_coupling(&blocks);
  }
  if (opt.progress)
    std::fprintf(stderr, "halfstep: frequency step '%s': a part of the model is free to move; its rigid modes are "
                         "found at zero frequency (K - sigma M factored, sigma %.3g)\n", step.name.c_str(), sigma);
  return sigma;
}

/// Sign and scale of each mode: unit generalized mass (or largest displacement 1), and its
/// largest component positive, so that runs agree on the shapes' signs.
void normalize(Modes& modes, const EquationMass& mass, bool mass_normalized) {
  const Eigen::Index n = modes.phi.rows();
  Eigen::VectorXd mx(n);
  std::vector<double> dof;
  for (Eigen::Index j = 0; j < modes.phi.cols(); ++j) {
    auto v = modes.phi.col(j);
    Eigen::Index big = 0;
    v.cwiseAbs().maxCoeff(&big);
    if (v(big) < 0) v = -v;
    if (mass_normalized) {
      mass.apply(v.data(), mx.data());
      v /= std::sqrt(v.dot(mx));
    } else {
      mass.expand(v.data(), dof);
      double largest = 0;
      for (double d : dof) largest = std::max(largest, std::fabs(d));
      if (largest > 0) v /= largest;
    }
  }
}

/// The kept modes as a ModeSet of frequency step `step` (1-based): their shapes as dof
/// vectors and generalized masses phi . M phi, what the frames, the modal masses and a later
/// modal step read.
ModeSet mode_set(const Modes& kept, const EquationMass& mass, int step) {
  const StaticProblem& p = mass.p;
  ModeSet set;
  set.lambda = kept.lambda;
  set.dofs_per_node = p.q;
  set.held = p.held;
  set.step = step;
  Eigen::VectorXd mx(p.neq);
  for (Eigen::Index j = 0; j < kept.phi.cols(); ++j) {
    const auto v = kept.phi.col(j);
    mass.apply(v.data(), mx.data());
    set.modal_mass.push_back(v.dot(mx));
    mass.expand(v.data(), set.shapes.emplace_back());
    std::vector<double>& turn = set.body_turns.emplace_back(p.body_eq.size(), 0.0);
    for (std::size_t i = 0; i < p.body_eq.size(); ++i)
      if (p.body_eq[i] >= 0) turn[i] = v[p.body_eq[i]] / p.model_size;
  }
  set.mass = mass.dofs;
  return set;
}

/// The peer's modal masses of the kept modes: for the rigid-body motions r_k (unit
/// translations along x, y, z; unit rotations about the global axes through the origin, the
/// spins of 5-dof nodes as the rotation's components on their reference triads), each mode's
/// participation factor phi . M r_k / m and effective mass (phi . M r_k)^2 / m (m = phi . M
/// phi), and the model's r_k . M r_k (the peer's total effective mass); r_k is zero at the
/// held dofs (what the supports keep from moving counts for neither).
void modal_masses(const ModeSet& modes, const EquationMass& mass, const StructureSystem& sys, OutputFrame& frame) {
  const StaticProblem& p = mass.p;
  const std::size_t nm = modes.lambda.size();
  const std::vector<std::vector<double>>& shapes = modes.shapes;
  const std::vector<double>& modal = modes.modal_mass;
  frame.participation.assign(6 * nm, 0.0);
  frame.effective_mass.assign(6 * nm, 0.0);
  frame.total_mass.assign(6, 0.0);
  std::vector<double> r(p.ndof), mr;
  for (int k = 0; k < 6; ++k) {
    std::fill(r.begin(), r.end(), 0.0);
    const Vec3<double> axis{k % 3 == 0 ? 1.0 : 0.0, k % 3 == 1 ? 1.0 : 0.0, k % 3 == 2 ? 1.0 : 0.0};
    for (std::size_t n = 0; n < p.nn; ++n) {
      const Vec3<double> x{sys.x0[n], sys.y0[n], sys.z0[n]};
      const Vec3<double> u = k < 3 ? axis : cross(axis, x);
      r[p.q * n] = u.x;
      r[p.q * n + 1] = u.y;
      r[p.q * n + 2] = u.z;
      if (k >= 3 && p.q >= 5 && sys.has_rotations(static_cast<int>(n))) {  // spins about t1, t2
        const Vec3<double> d0{sys.dir0x[n], sys.dir0y[n], sys.dir0z[n]}, t1{p.st.r1x[n], p.st.r1y[n], p.st.r1z[n]};
        r[p.q * n + 3] = dot(axis, t1);
        r[p.q * n + 4] = dot(axis, cross(d0, t1));
      }
    }
    for (std::size_t i = 0; i < p.ndof; ++i)
      if (p.held[i]) r[i] = 0;
    mass.apply_dofs(r, mr);
    double total = 0;
    for (std::size_t i = 0; i < p.ndof; ++i) total += r[i] * mr[i];
    frame.total_mass[static_cast<std::size_t>(k)] = total;
    for (std::size_t j = 0; j < nm; ++j) {
      double g = 0;
      for (std::size_t i = 0; i < p.ndof; ++i) g += shapes[j][i] * mr[i];
      frame.participation[6 * j + static_cast<std::size_t>(k)] = g / modal[j];
      frame.effective_mass[6 * j + static_cast<std::size_t>(k)] = g * g / modal[j];
    }
  }
}

}  // namespace

void check_frequency_step(const Step& step, const StructureSystem& sys) {
  const SourceLoc& at = step.frequency->loc;
  if (sys.node_dofs > 5)
    throw InputError(at, "*FREQUENCY in a model with beams or FPM triangles (6-dof nodes): not supported yet "
                         "(their rotary inertia is the explicit scheme's, scaled for its stable increment); "
                         "continuum, MITC4 shell, planar, axisymmetric, truss, spring and point-mass models run");
  // 5-dof nodes (MITC4): a mode's section forces and rotations would need its spins applied
  // to the nodal directors.
  if (sys.node_dofs > 3)
    for (const PrintRequest& r : step.prints)
      if (r.kind == PrintRequest::Kind::Element)
        throw InputError(r.loc, "*EL PRINT in a frequency step of a model with shells: not supported yet (a mode's "
                                "section forces need its rotations); *NODE PRINT prints the shapes");
}

namespace {

/// check_frequency_masses on the equations' mass diagonal d (EquationMass::diagonal()).
void check_equation_masses(const StaticProblem& p, const std::vector<double>& d) {
  for (int i = 0; i < p.neq; ++i)
    if (!(d[static_cast<std::size_t>(i)] > 0))
      throw InputError(p.step.frequency->loc, "frequency step '" + p.step.name + "': " + p.equation_name(i) +
                                                  " is free but has no mass (give its elements a *DENSITY, add a "
                                                  "*MASS, or hold it with *BOUNDARY)");
}

}  // namespace

void check_frequency_masses(const StaticProblem& p) {
  check_equation_masses(p, p.equation_diagonal(lumped_dof_mass(p.model, p.sys, p.q)));
}

std::vector<double> run_frequency_step(const Model& model, const Step& step, const StructureSystem& sys,
                                       const StepLoads& loads, StructureState& st, const StaticStepOptions& opt,
                                       StaticSummary& summary, ModeSet* keep) {
  const auto t_step = std::chrono::steady_clock::now();
  const FrequencyRequest& req = *step.frequency;
  check_implicit_step_start(step, sys, loads);
  check_frequency_step(step, sys);
  StaticProblem p(model, step, sys, loads, st, opt);
  const EquationMass mass(p, model, sys);
  check_equation_masses(p, mass.diagonal());
  if (opt.progress)
    std::fprintf(stderr, "halfstep: frequency step '%s' (%d equations, %d modes asked for): %s\n", step.name.c_str(),
                 p.neq, req.modes, p.engine->description().c_str());
  // K about the base state: the reference under NLGEOM=NO, else the current configuration
  // with its stresses (a prestressed structure's frequencies). Contact adds its springs as the
  // base state left them (docs/theory.md, "Natural frequencies"): the normal springs of the
  // records that carry force (not those resting at zero gap: a first frequency step of two
  // beams laid on each other has them apart, as the peer does), frictional ones' stick or
  // slip stiffness from the friction forces the last static step ended with.
  if (p.contact) {
    std::vector<double> f;
    p.contact->set_resting_springs(false);
    p.contact->begin_attempt(p.translations(p.start.x));
    p.internal(p.start.x, p.start.cfg, f);
  }
  CouplingBlocks shift_blocks;
  const double sigma = p.free_motion ? free_motion_shift(p, mass, sys, step, opt, shift_blocks) : 0.0;
  p.factor(p.start, true);
  Modes modes;
  // The rigid modes' eigenvalues are zero to round-off, which may be slightly negative.
  const double lambda_min = req.min_frequency > 0 ? std::pow(2 * M_PI * req.min_frequency, 2) : -1e-6 * std::fabs(sigma);
  if (p.neq <= kDenseEquations) {
    modes = dense_modes(p, mass, sigma);
  } else {
#if HALFSTEP_HAVE_SPECTRA
    // The Lanczos basis holds about 2 nev + 20 vectors of the model's size: a request that
    // would not fit in memory is refused here rather than failing in the allocator.
    const double basis_bytes = 8.0 * p.neq * (2.0 * std::min(req.modes, p.neq) + 21);
    if (basis_bytes > kMaxBasisBytes)
      throw InputError(req.loc, "*FREQUENCY asks for " + std::to_string(req.modes) + " modes of a model of " +
                                    std::to_string(p.neq) + " equations: the Lanczos basis would take " +
                                    std::to_string(static_cast<long long>(basis_bytes / 1e9)) +
                                    " GB (at most 16); ask for fewer modes");
    // Modes below the lowest frequency of interest do not count: ask again for as many more.
    int nev = std::min(req.modes, p.neq - 2);
    for (int pass = 0; pass < 4; ++pass) {
      modes = lanczos_modes(p, mass, nev, step, sigma);
      int below = 0;
      for (double l : modes.lambda) below += l < lambda_min;
      const int want = std::min(req.modes + below, p.neq - 2);
      if (below == 0 || want <= nev) break;
      nev = want;
    }
#else
    throw InputError(req.loc, "*FREQUENCY on a model of " + std::to_string(p.neq) +
                                  " equations needs halfstep built with Spectra (Debian: libspectra-dev)");
#endif
  }
  // Keep the modes in the range of interest, at most as many as asked for.
  Modes kept;
  std::vector<int> cols;
  for (std::size_t j = 0; j < modes.lambda.size() && static_cast<int>(cols.size()) < req.modes; ++j) {
    const double l = modes.lambda[j];
    if (l < lambda_min) continue;
    if (req.max_frequency > 0 && l > std::pow(2 * M_PI * req.max_frequency, 2)) break;
    cols.push_back(static_cast<int>(j));
    kept.lambda.push_back(l);
  }
  kept.phi.resize(p.neq, static_cast<Eigen::Index>(cols.size()));
  for (std::size_t j = 0; j < cols.size(); ++j) kept.phi.col(static_cast<Eigen::Index>(j)) = modes.phi.col(cols[j]);
  normalize(kept, mass, req.mass_normalized);
  ModeSet set = mode_set(kept, mass, static_cast<int>(&step - model.steps.data()) + 1);
  if (opt.progress) {
    std::fprintf(stderr, "halfstep: frequency step '%s': %zu modes", step.name.c_str(), kept.lambda.size());
    if (!kept.lambda.empty())
      std::fprintf(stderr, ", %.6g to %.6g cycles/time", std::sqrt(std::max(kept.lambda.front(), 0.0)) / (2 * M_PI),
                   std::sqrt(std::max(kept.lambda.back(), 0.0)) / (2 * M_PI));
    std::fprintf(stderr, "\n");
  }
  // A frame per mode: U is the shape; the element results are its small-strain ones. A shell
  // model's frames are not written yet: their rotations and section forces come from the
  // nodal directors, which a mode's spins (at the scale of unit modal mass) do not turn; its
  // shapes are in *NODE PRINT's U.
  if (opt.emit) {
    const auto t_emit = std::chrono::steady_clock::now();
    bool want_field = false;
    for (const OutputRequest& r : loads.outputs) want_field = want_field || r.kind == OutputRequest::Kind::Field;
    if (sys.node_dofs > 3) {
      if (want_field && opt.progress)
        std::fprintf(stderr, "halfstep: frequency step '%s': mode frames of shell models are not written yet (their "
                             "rotations); *NODE PRINT U prints the shapes\n", step.name.c_str());
      want_field = false;
    }
    const int step_number = set.step;
    for (std::size_t j = 0; j < kept.lambda.size() || (j == 0 && kept.lambda.empty()); ++j) {
      auto frame = std::make_unique<OutputFrame>();
      frame->step = step_number;
      frame->increment = static_cast<long long>(j) + 1;
      frame->step_end = j + 1 >= kept.lambda.size();
      if (j == 0) {
        frame->eigenvalues = kept.lambda;
        modal_masses(set, mass, sys, *frame);
      }
      if (j < kept.lambda.size()) {
        frame->field = want_field;
        frame->print = !step.prints.empty();
        frame->print_cells = frame->print && prints_need_cells(step.prints) && sys.node_dofs <= 3;
        frame->small_strain = true;
        mode_frame_state(p, set.shapes[j], frame->field || frame->print_cells, frame->state);
        // A mode turns a body by its small rotation (free components; the given ones are
        // zero in a mode): shown as it is, at the mode's scale, which may pass pi.
        const Mat3<double> unturned = scaled_identity(1.0);
        for (std::size_t b = 0; b + 9 <= frame->state.body_rotation.size(); b += 9)
          std::copy(unturned.a, unturned.a + 9, &frame->state.body_rotation[b]);
        frame->body_turn = set.body_turns[j];
      }
      frame->state.time = st.time + static_cast<double>(j + 1);
      frame->full.resize(sys.num_nodes);
      opt.emit(std::move(frame));
    }
    summary.output_seconds += seconds_since(t_emit);
  }
  add_engine_account(p, summary);
  summary.seconds += seconds_since(t_step);
  if (keep) *keep = std::move(set);
  return kept.lambda;
}

}  // namespace halfstep
