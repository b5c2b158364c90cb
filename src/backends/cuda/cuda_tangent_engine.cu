#include "backends/cuda/cuda_tangent_engine.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusparse.h>
#ifndef HALFSTEP_HAVE_CUDSS
#define HALFSTEP_HAVE_CUDSS 0  // set for this file alone by CMake when cuDSS is found
#endif
#if HALFSTEP_HAVE_CUDSS
#include <cudss.h>
#endif

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/cuda/device_memory.cuh"
#include "backends/cuda/forall.cuh"
#include "backends/cuda/row_device.cuh"
#include "core/dual.hpp"
#include "core/error.hpp"
#include "core/lap_timer.hpp"
#include "discretization/configuration.hpp"
#include "discretization/continuum_element.hpp"
#include "discretization/shell_tangent.hpp"
#include "discretization/structure_operator.hpp"
#include "elements/registry.hpp"
#include "materials/material_tangent.hpp"
// Last: their bodies come after every header above, where they stood in this file.
#include "backends/cuda/tangent_kernels.cuh"
#include "backends/cuda/cudss_check.cuh"
#include "backends/cuda/jacobi_cg.cuh"

namespace halfstep {

bool cudss_built() { return HALFSTEP_HAVE_CUDSS != 0; }

namespace {

using cuda::check;
using cuda::DeviceArray;

constexpr int kBlock = 128;

/// Node n's generalized force summed over its slots in the host operator's order: continuum
/// slots (3 values), shell corners (5 values), then row elements' corners (6 values), into
/// ndn values per node.
struct NodeForceBody {
  const int *slot_ptr, *slots;
  const double* slot_force;
  const int *shell_ptr, *shell_slots;  ///< null without shells
  const double* shell_force;
  const int *row_ptr, *row_corners;    ///< null without row elements
  const double* row_force;
  int ndn;
  double* f;
  __device__ void operator()(int n) const {
    double g[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    if (slot_ptr) add_slot_forces3(slot_ptr, slots, slot_force, n, g);
    if (shell_ptr)
      for (int s = shell_ptr[n]; s < shell_ptr[n + 1]; ++s) {
        const std::size_t slot = static_cast<std::size_t>(shell_slots[s]);
        for (int k = 0; k < 5; ++k) g[k] += shell_force[5 * slot + k];
      }
    if (row_ptr)
      for (int s = row_ptr[n]; s < row_ptr[n + 1]; ++s) {
        const std::size_t corner = static_cast<std::size_t>(row_corners[s]);
        for (int k = 0; k < 6; ++k) g[k] += row_force[6 * corner + k];
      }
    for (int k = 0; k < ndn; ++k) f[static_cast<std::size_t>(ndn) * n + k] = g[k];
  }
};


/// The engine: mesh, element matrices, CSR tangent and solver state resident on one device.
class Engine final : public CudaTangentEngine {
 public:
  Engine(const StructureOperator& op, const std::vector<int>& equation, int equations, const TangentOptions& opt,
         const DofCombinations* combined)
      : op_(op), sys_(op.system()), opt_(opt), equation_(equation), n_(equations), ndn_(op.dofs_per_node()) {
    if (combined) combined_ = *combined;
    if (opt.solver != LinearSolverKind::Auto && opt.solver != LinearSolverKind::Cudss &&
        opt.solver != LinearSolverKind::GpuCg)
      throw RunError("the CUDA tangent engine solves with cudss or gpu-cg, not " + linear_solver_name(opt.solver));
    if (opt.solver == LinearSolverKind::Cudss && !cudss_built())
      throw RunError("--linear-solver cudss: this build of halfstep has no cuDSS (configure with "
                     "-DHALFSTEP_CUDSS_ROOT=<folder with include/cudss.h and lib/libcudss.so.1>)");
    check(cudaSetDevice(opt.device), "cudaSetDevice");
    cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, opt.device), "cudaGetDeviceProperties");
    gpu_name_ = prop.name;
    check(cudaStreamCreate(&stream_), "cudaStreamCreate");
    for (cudaEvent_t* e : {&ev_[0], &ev_[1], &ev_[2]}) check(cudaEventCreate(e), "cudaEventCreate");
    upload_mesh();
    bool direct = opt.solver == LinearSolverKind::Cudss || (opt.solver == LinearSolverKind::Auto && cudss_built());
    if (direct) {
      setup_map(true);
      direct = setup_cudss(opt.solver == LinearSolverKind::Cudss);
      if (!direct) release_cudss();
    }
    if (!direct) {
      setup_map(false);
      cg_.setup(stream_, n_);
      cg_.bind(row_ptr_.get(), col_.get(), val_.get(), static_cast<std::int64_t>(val_.size()));
      stats_.solver_bytes = cg_.bytes();
    }
    kind_ = direct ? LinearSolverKind::Cudss : LinearSolverKind::GpuCg;
  }

  ~Engine() override {
    release_cudss();
    for (cudaEvent_t e : ev_)
      if (e) cudaEventDestroy(e);
    if (stream_) cudaStreamDestroy(stream_);
  }

  std::string description() const override {
    std::string s = "CUDA " + gpu_name_ + ": GPU assembly, ";
    if (kind_ == LinearSolverKind::Cudss) {
      s += "cuDSS (Cholesky of the upper triangle, LDL^T when indefinite";
      s += mt_layer_ ? ", multi-threaded host layer)" : ")";
    } else {
      char tol[32];
      std::snprintf(tol, sizeof tol, "%.1e", opt_.cg_tolerance);
      s += std::string("Jacobi-preconditioned CG (cuSPARSE, tolerance ") + tol + ")";
    }
    return s;
  }

  LinearSolverKind solver() const override { return kind_; }

  double internal_force(const Configuration& c, std::vector<double>& f, ElementForceSums* sums) override {
    const auto t0 = std::chrono::steady_clock::now();
    const SolidMesh& sm = sys_.solid;
    const int nn = sys_.num_nodes;
    upload_configuration(c);
    if (sm.num_elements > 0) {
      cuda::forall(0, nn, 256, stream_, SplitBody{u_.get(), ux_.get(), uy_.get(), uz_.get()});
      ContinuumView<double> v{conn_.get(), material_.get(), materials_.get(), sm.hourglass_kappa,
                              x0_.get(), y0_.get(), z0_.get(), energy_.get(), hourglass_.get(),
                              nullptr, 0, edata_.get_or_null(), edata_ptr_.get_or_null()};
      v.thermal = thermal_on_ ? thermal_.get() : nullptr;
      v.state = state_on_ ? state_trial_.get() : nullptr;  // from the converged state, the trial's apart
      v.state_old = state_on_ ? state_old_.get() : nullptr;
      v.state_stride = sm.num_points;
      for (const SolidGroup& g : sm.groups)
        visit_continuum_kind(g.kind, [&](auto kind) {
          using K = decltype(kind);
          cuda::forall(0, g.count, kBlock, stream_,
                       ForceBody<K>{v, ux_.get(), uy_.get(), uz_.get(), slot_force_.get(), g.first, g.conn_offset,
                                    g.first_point});
        });
    }
    if (sys_.shell.num_elements > 0)
      cuda::forall(0, sys_.shell.num_elements, kBlock, stream_, ShellForceBody{shell_view(), shell_force_.get(), shell_energy_.get()});
    if (rows_) rows_->forces(stream_, u_.get(), t1_.get(), d_.get());
    cuda::forall(0, nn, 256, stream_, node_force_body());
    const int ne = sm.num_elements;
    const int blocks = (ne + kSumBlock * kSumPerThread - 1) / (kSumBlock * kSumPerThread);
    if (blocks > 0)
      block_sums<<<blocks, kSumBlock, 0, stream_>>>(energy_.get(), hourglass_.get(), ne, partial_.get());
    check(cudaGetLastError(), "internal force launch");
    f.resize(static_cast<std::size_t>(ndn_) * nn);
    std::vector<double> partial(static_cast<std::size_t>(blocks)), shell_energy(static_cast<std::size_t>(sys_.shell.num_elements));
    check(cudaMemcpyAsync(f.data(), f_.get(), f.size() * sizeof(double), cudaMemcpyDeviceToHost, stream_), "copy forces");
    if (blocks > 0)
      check(cudaMemcpyAsync(partial.data(), partial_.get(), partial.size() * sizeof(double), cudaMemcpyDeviceToHost,
                            stream_),
            "copy energies");
    if (!shell_energy.empty())
      check(cudaMemcpyAsync(shell_energy.data(), shell_energy_.get(), shell_energy.size() * sizeof(double),
                            cudaMemcpyDeviceToHost, stream_),
            "copy shell energies");
    check(cudaStreamSynchronize(stream_), "internal force");
    double w = 0;
    for (double p : partial) w += p;
    for (double p : shell_energy) w += p;
    if (rows_) w += rows_->work();
    // The continuum elements' nodal forces, as StructureOperator::internal_force sums them.
    if (sums && sm.num_elements > 0) add_abs_sums(stream_, abs_partial_, slot_force_.get(), 3 * sm.conn.size(), *sums);
    stats_.internal_force_seconds += seconds_since(t0);
    return w;
  }

  double linearized_force(const Configuration& ref, const std::vector<double>& x, std::vector<double>& f,
                          const std::vector<double>* thermal = nullptr) override {
    const auto t0 = std::chrono::steady_clock::now();
    const SolidMesh& sm = sys_.solid;
    const int nn = sys_.num_nodes;
    if (x.size() != static_cast<std::size_t>(ndn_) * nn) throw RunError("CUDA tangent engine: x of the wrong size");
    if (rows_)  // their linear theory writes their state: the small-strain path (set_small_strain)
      throw RunError("FPM beams and triangles in a geometrically linear static step run on the CPU's tangent engine "
                     "so far: run with --backend cpu, or give the step NLGEOM=YES");
    upload_configuration(ref);
    upload_thermal(thermal ? *thermal : std::vector<double>{});
    xlin_.resize(x.size());
    check(cudaMemcpyAsync(xlin_.get(), x.data(), x.size() * sizeof(double), cudaMemcpyHostToDevice, stream_), "copy x");
    for (const SolidGroup& g : sm.groups)
      visit_continuum_kind(g.kind, [&](auto kind) {
        using K = decltype(kind);
        cuda::forall(0, g.count, kBlock, stream_,
                     LinearForceBody<K>{conn_.get(), material_.get(), dual_materials_.get(), sm.hourglass_kappa,
                                        x0_.get(), y0_.get(), z0_.get(), xlin_.get(), ndn_, slot_force_.get(), g.first,
                                        g.conn_offset, edata_.get_or_null(), edata_ptr_.get_or_null(),
                                        thermal_on_ ? thermal_.get() : nullptr});
      });
    if (sys_.shell.num_elements > 0)
      cuda::forall(0, sys_.shell.num_elements, kBlock, stream_, ShellLinearBody{shell_view(), xlin_.get(), ndn_, shell_force_.get()});
    cuda::forall(0, nn, 256, stream_, node_force_body());
    check(cudaGetLastError(), "linearized force launch");
    f.resize(x.size());
    check(cudaMemcpyAsync(f.data(), f_.get(), f.size() * sizeof(double), cudaMemcpyDeviceToHost, stream_), "copy forces");
    check(cudaStreamSynchronize(stream_), "linearized force");
    double w = 0;
    for (std::size_t k = 0; k < f.size(); ++k) w += f[k] * x[k];
    stats_.internal_force_seconds += seconds_since(t0);
    return 0.5 * w;
  }

  void assemble_and_factor(const Configuration& c) override {
    assemble(c);
    const auto t0 = std::chrono::steady_clock::now();
    if (kind_ == LinearSolverKind::Cudss)
      factor_cudss();
    else
      cg_.precondition();
    stats_.factor_seconds += seconds_since(t0);
    ++stats_.factorizations;
  }

  void solve(const std::vector<double>& b, std::vector<double>& x) override {
    if (b.size() != static_cast<std::size_t>(n_)) throw RunError("CUDA tangent engine: right-hand side of the wrong size");
    const auto t0 = std::chrono::steady_clock::now();
    check(cudaMemcpyAsync(b_.get(), b.data(), b.size() * sizeof(double), cudaMemcpyHostToDevice, stream_), "copy rhs");
    if (kind_ == LinearSolverKind::Cudss)
      solve_cudss();
    else
      stats_.iterations += cg_.solve(b_.get(), x_.get(), opt_.cg_tolerance,
                                     opt_.cg_max_iterations > 0 ? opt_.cg_max_iterations
                                                                : std::min<long long>(10LL * n_, 100000LL));
    x.resize(b.size());
    check(cudaMemcpyAsync(x.data(), x_.get(), x.size() * sizeof(double), cudaMemcpyDeviceToHost, stream_),
          "copy solution");
    check(cudaStreamSynchronize(stream_), "solve");
    stats_.solve_seconds += seconds_since(t0);
    ++stats_.solves;
  }

  const TangentStats& stats() const override { return stats_; }

  void element_matrices(const Configuration& c, std::vector<double>& k) override {
    upload_configuration(c);
    compute_matrices();
    k.resize(k_.size());
    check(cudaMemcpyAsync(k.data(), k_.get(), k_.bytes(), cudaMemcpyDeviceToHost, stream_), "copy element matrices");
    check(cudaStreamSynchronize(stream_), "element matrices");
  }

  void assemble(const Configuration& c) override {
    if (coupling_ && (coupling_->count() > 0 || grown_)) grow_pattern();  // before the gather: entries may move
    upload_configuration(c);
    check(cudaEventRecord(ev_[0], stream_), "cudaEventRecord");
    compute_matrices();
    check(cudaEventRecord(ev_[1], stream_), "cudaEventRecord");
    // Once coupling blocks grew the pattern, the element gather fills the base pattern's
    // values, which are scattered into the grown one with the blocks' sums added.
    double* gathered = grown_ ? base_val_.get() : val_.get();
    const int nnz = static_cast<int>(grown_ ? base_val_.size() : val_.size());
    if (index32_)
      cuda::forall(0, nnz, 256, stream_,
                   GatherBody<int>{src_ptr32_.get(), src32_.get(), k_.get(), gathered, weight_.get_or_null()});
    else
      cuda::forall(0, nnz, 256, stream_,
                   GatherBody<std::int64_t>{src_ptr64_.get(), src64_.get(), k_.get(), gathered, weight_.get_or_null()});
    check(cudaGetLastError(), "assembly launch");
    if (grown_) add_coupling();
    if (shifted_) {
      cuda::forall(0, n_, 256, stream_, DiagonalShiftBody{diag_.get(), shift_.get(), val_.get()});
      check(cudaGetLastError(), "diagonal shift launch");
    }
    check(cudaEventRecord(ev_[2], stream_), "cudaEventRecord");
    check(cudaEventSynchronize(ev_[2]), "assembly");
    float ms_elements = 0, ms_assembly = 0;
    check(cudaEventElapsedTime(&ms_elements, ev_[0], ev_[1]), "cudaEventElapsedTime");
    check(cudaEventElapsedTime(&ms_assembly, ev_[1], ev_[2]), "cudaEventElapsedTime");
    stats_.element_seconds += 1e-3 * ms_elements;
    stats_.assembly_seconds += 1e-3 * ms_assembly;
    stats_.matrices += op_.num_elements();
    if (reanalyze_) {  // the pattern grew: the solver's objects for it, on these values
      reanalyze_ = false;
      if (kind_ == LinearSolverKind::Cudss) reanalyze_cudss();
      else cg_.bind(row_ptr_.get(), col_.get(), val_.get(), static_cast<std::int64_t>(val_.size()));
    }
  }

  CsrMatrix matrix() const override {
    CsrMatrix a;
    const CsrMatrix& p = grown_ ? grown_->pattern() : map_.pattern;
    a.rows = p.rows;
    a.row_ptr = p.row_ptr;
    a.col = p.col;
    a.val.resize(val_.size());
    val_.copy_to(a.val.data(), a.val.size());
    return a;
  }

  void set_coupling(const CouplingBlocks* blocks) override { coupling_ = blocks; }

  void set_combination_weights(const std::vector<double>& term_weight) override {
    if (term_weight.size() != combined_.term_weight.size())
      throw std::logic_error("set_combination_weights: " + std::to_string(term_weight.size()) + " weights for " +
                             std::to_string(combined_.term_weight.size()) + " terms");
    combined_.term_weight = term_weight;
    if (map_.weight.empty()) return;  // the map is built later, with these weights
    reweight_csr_assembly(map_, combined_);
    weight_.assign(map_.weight);
  }

  void set_diagonal_shift(const std::vector<double>& s) override {
    if (s.empty()) {
      shifted_ = false;
      return;
    }
    if (s.size() != static_cast<std::size_t>(n_)) throw RunError("CUDA tangent engine: shift of the wrong size");
    if (diag_.size() == 0) find_diagonals();
    shift_.assign(s);
    shifted_ = true;
  }

  void set_element_mapping(ElementMapping m) override { mapping_ = m; }
  void set_matrix_block(int threads) override { matrix_block_ = threads > 0 ? threads : 64; }

 private:
  /// Each row's diagonal entry in the pattern (set_diagonal_shift's positions).
  void find_diagonals() {
    std::vector<int> d(static_cast<std::size_t>(n_), -1);
    const CsrMatrix& p = grown_ ? grown_->pattern() : map_.pattern;
    for (int r = 0; r < n_; ++r)
      for (std::int64_t k = p.row_ptr[static_cast<std::size_t>(r)]; k < p.row_ptr[static_cast<std::size_t>(r) + 1]; ++k)
        if (p.col[static_cast<std::size_t>(k)] == r) d[static_cast<std::size_t>(r)] = static_cast<int>(k);
    diag_.assign(d);
  }

  /// The coupling blocks' entries that the pattern lacks added to it (the first time, the
  /// element gather moves to base_val_); the device pattern follows (new arrays), and the
  /// solver's objects are made again for it after the next assembly.
  void grow_pattern() {
    if (!grown_) {
      grown_ = std::make_unique<CouplingPattern>(map_, combined_);
      base_val_.resize(val_.size());
    }
    const bool grew = grown_->grow(*coupling_);
    if (!grew && base_pos_.size() > 0) return;
    const CsrMatrix& p = grown_->pattern();
    const std::vector<std::int64_t>& b = grown_->base_positions();
    base_pos_.assign(std::vector<int>(b.begin(), b.end()));
    if (!grew) return;  // the base pattern as it is
    if (p.col.size() >= static_cast<std::size_t>(INT_MAX)) throw RunError("GPU tangent: more than 2^31 stored matrix entries");
    row_ptr_.assign(std::vector<int>(p.row_ptr.begin(), p.row_ptr.end()));
    col_.assign(p.col);
    val_.resize(p.col.size());
    if (diag_.size() > 0) find_diagonals();
    stats_.nonzeros = static_cast<std::int64_t>(p.col.size());
    reanalyze_ = true;
  }

  /// val_ from the base values and the coupling blocks' sums (host-summed in block order,
  /// as the CPU engine adds them).
  void add_coupling() {
    val_.zero(stream_);
    cuda::forall(0, static_cast<int>(base_val_.size()), 256, stream_,
                 ScatterBody{base_pos_.get(), base_val_.get(), val_.get()});
    std::vector<std::int64_t> pos;
    std::vector<double> val;
    grown_->sums(*coupling_, pos, val);
    if (!pos.empty()) {
      add_pos_.assign(std::vector<int>(pos.begin(), pos.end()));
      add_val_.assign(val);
      cuda::forall(0, static_cast<int>(pos.size()), 256, stream_, AddAtBody{add_pos_.get(), add_val_.get(), val_.get()});
    }
    check(cudaGetLastError(), "coupling launch");
  }

  /// Reference coordinates, connectivity, materials and the work arrays, on the device.
  void upload_mesh() {
    const SolidMesh& sm = sys_.solid;
    x0_.assign(sys_.x0);
    y0_.assign(sys_.y0);
    z0_.assign(sys_.z0);
    conn_.assign(sm.conn);
    material_.assign(sm.material);
    materials_.assign(sm.materials);
    if (!sm.element_data_ptr.empty()) {
      edata_.assign(sm.element_data);
      edata_ptr_.assign(sm.element_data_ptr);
    }
    std::vector<SolidMaterial<D>> dual;
    for (const SolidMaterial<double>& m : sm.materials) dual.push_back(dual_material(m));
    dual_materials_.assign(dual);
    slot_ptr_.assign(sm.node_slot_ptr);
    slots_.assign(sm.node_slots);
    const std::size_t nn = static_cast<std::size_t>(sys_.num_nodes), ne = static_cast<std::size_t>(sm.num_elements);
    slot_force_.resize(3 * sm.conn.size());
    energy_.resize(ne);
    hourglass_.resize(ne);
    partial_.resize(std::max<std::size_t>(1, (ne + kSumBlock * kSumPerThread - 1) / (kSumBlock * kSumPerThread)));
    u_.resize(3 * nn);
    f_.resize(static_cast<std::size_t>(ndn_) * nn);
    if (sys_.shell.num_elements > 0 || op_.rows().num_elements() > 0) {  // node frames
      d_.resize(3 * nn);
      t1_.resize(3 * nn);
    }
    if (op_.rows().num_elements() > 0) rows_ = std::make_unique<cuda::RowDevice>(op_, op_.rest());
    if (sys_.shell.num_elements > 0) {
      const std::size_t ns = static_cast<std::size_t>(sys_.shell.num_elements);
      shell_conn_.assign(sys_.shell.conn);
      shell_ref_.assign(sys_.shell.ref);
      std::vector<double> thickness(ns);
      std::vector<ShellElastic<double>> elastic(ns);
      for (std::size_t e = 0; e < ns; ++e) {
        const SectionProps& sec = sys_.shell.sections[static_cast<std::size_t>(sys_.shell.section[e])];
        thickness[e] = sec.thickness;
        elastic[e] = sec.elastic;
      }
      shell_thickness_.assign(thickness);
      shell_elastic_.assign(elastic);
      if (has_plastic_shells(sys_)) {  // the sections' laws and points, the points' place in the state store
        std::vector<int> points;
        std::vector<SolidMaterial<double>> law;
        for (const SectionProps& sec : sys_.shell.sections) {
          points.push_back(sec.section_points);
          law.push_back(sec.law);
        }
        shell_section_.assign(sys_.shell.section);
        shell_points_.assign(points);
        shell_law_.assign(law);
        shell_first_.assign(sys_.shell.first_point.data(), ns);
      }
      std::vector<double> d0(3 * nn);
      for (std::size_t n = 0; n < nn; ++n) {
        d0[3 * n] = sys_.dir0x[n];
        d0[3 * n + 1] = sys_.dir0y[n];
        d0[3 * n + 2] = sys_.dir0z[n];
      }
      d0_.assign(d0);
      shell_slot_ptr_.assign(sys_.shell.node_slot_ptr);
      shell_slots_.assign(sys_.shell.node_slots);
      shell_force_.resize(20 * ns);
      shell_energy_.resize(ns);
    }
    ux_.resize(nn);
    uy_.resize(nn);
    uz_.resize(nn);
    const std::size_t kn = op_.matrix_offset(op_.num_elements());
    k_.resize(kn);
    // Planar kinds never write their z rows and columns: they stay the zeros set here.
    k_.zero(stream_);
  }

  /// The pattern and gather lists (upper: cuDSS's triangle), on the device.
  void setup_map(bool upper) {
    map_ = build_csr_assembly(op_, equation_, n_, upper, &combined_);
    if (map_.weight.empty()) weight_.release();
    else weight_.assign(map_.weight);
    const std::size_t nnz = map_.pattern.col.size();
    if (nnz >= static_cast<std::size_t>(INT_MAX)) throw RunError("GPU tangent: more than 2^31 stored matrix entries");
    index32_ = map_.source.size() < static_cast<std::size_t>(INT_MAX) && k_.size() < static_cast<std::size_t>(INT_MAX);
    if (index32_) {
      src_ptr32_.assign(std::vector<int>(map_.source_ptr.begin(), map_.source_ptr.end()));
      src32_.assign(std::vector<int>(map_.source.begin(), map_.source.end()));
      src_ptr64_.release();
      src64_.release();
    } else {
      src_ptr64_.assign(map_.source_ptr);
      src64_.assign(map_.source);
      src_ptr32_.release();
      src32_.release();
    }
    row_ptr_.assign(std::vector<int>(map_.pattern.row_ptr.begin(), map_.pattern.row_ptr.end()));
    col_.assign(map_.pattern.col);
    val_.resize(nnz);
    val_.zero(stream_);
    b_.resize(static_cast<std::size_t>(n_));
    x_.resize(static_cast<std::size_t>(n_));
    stats_.nonzeros = static_cast<std::int64_t>(nnz);
    stats_.matrix_bytes = static_cast<double>(val_.bytes() + col_.bytes() + row_ptr_.bytes() + k_.bytes() +
                                              src_ptr32_.bytes() + src32_.bytes() + src_ptr64_.bytes() + src64_.bytes());
  }

  /// Copies a configuration to the device (stream-ordered): displacements, and the directors
  /// and triads of a model with shells.
  void upload_configuration(const Configuration& c) {
    if (c.u.size() != u_.size()) throw RunError("CUDA tangent engine: displacement vector of the wrong size");
    check(cudaMemcpyAsync(u_.get(), c.u.data(), c.u.size() * sizeof(double), cudaMemcpyHostToDevice, stream_),
          "copy displacements");
    upload_thermal(c.thermal);
    if (sys_.shell.num_elements == 0 && !rows_) return;
    if (c.d.size() != d_.size() || c.t1.size() != t1_.size())
      throw RunError("CUDA tangent engine: a shell or FPM model's configuration needs directors and triads");
    check(cudaMemcpyAsync(d_.get(), c.d.data(), c.d.size() * sizeof(double), cudaMemcpyHostToDevice, stream_),
          "copy directors");
    check(cudaMemcpyAsync(t1_.get(), c.t1.data(), c.t1.size() * sizeof(double), cudaMemcpyHostToDevice, stream_),
          "copy triads");
  }

  void set_small_strain(const Configuration* ref) override {
    // The second-order dual kernels of every continuum kind took ptxas over 26 minutes for
    // this file (and had not finished): the device side is not built yet.
    if (ref)
      throw RunError(std::string(rows_ ? "FPM beams and triangles" : "plasticity") +
                     " in a geometrically linear static step (the small-strain theory) run on the CPU's tangent engine "
                     "so far: run with --backend cpu, or give the step NLGEOM=YES");
  }

  void set_material_state(const std::vector<double>& converged) override {
    // The operator's layout (StructureOperator::material_state): the continuum's points,
    // the plastic shells' section points, then the row elements' states.
    const SolidMesh& sm = sys_.solid;
    const std::size_t solid_n = static_cast<std::size_t>(sm.state_size) * sm.num_points;
    const std::size_t row_n = rows_ ? rows_->state_size() : 0;
    const std::size_t shell_n = op_.material_state_size() - solid_n - row_n;
    if (!converged.empty() && converged.size() != solid_n + shell_n + row_n)
      throw RunError("CUDA tangent engine: material state of the wrong size (" + std::to_string(converged.size()) +
                     " values for " + std::to_string(solid_n + shell_n + row_n) + ")");
    if (rows_ && !converged.empty()) rows_->set_state(converged.data() + solid_n + shell_n);
    if (sm.state_size > kMaxPointState)
      throw RunError("CUDA tangent engine: " + std::to_string(sm.state_size) + " state values per point, at most " +
                     std::to_string(kMaxPointState));
    state_on_ = !converged.empty() && solid_n > 0;
    if (state_on_) {
      state_old_.assign(converged.data(), solid_n);
      state_trial_.resize(solid_n);
    }
    shell_state_on_ = !converged.empty() && shell_n > 0;
    if (shell_state_on_) {
      shell_state_old_.assign(converged.data() + solid_n, shell_n);
      shell_state_trial_.resize(shell_n);
    }
  }

  void trial_material_state(std::vector<double>& s) override {
    const std::size_t solid_n = state_on_ ? state_trial_.size() : 0, shell_n = shell_state_on_ ? shell_state_trial_.size() : 0;
    const std::size_t row_n = rows_ ? rows_->state_size() : 0;
    s.resize(solid_n + shell_n + row_n);
    if (row_n) rows_->trial_state(s.data() + solid_n + shell_n, stream_);
    if (s.empty()) return;
    if (solid_n)
      check(cudaMemcpyAsync(s.data(), state_trial_.get(), solid_n * sizeof(double), cudaMemcpyDeviceToHost, stream_),
            "copy trial material state");
    if (shell_n)
      check(cudaMemcpyAsync(s.data() + solid_n, shell_state_trial_.get(), shell_n * sizeof(double),
                            cudaMemcpyDeviceToHost, stream_),
            "copy trial shell state");
    check(cudaStreamSynchronize(stream_), "trial material state");
  }

  /// The continuum elements' temperature changes (Configuration::thermal; empty: none).
  void upload_thermal(const std::vector<double>& thermal) {
    thermal_on_ = !thermal.empty();
    if (!thermal_on_) return;
    if (thermal.size() != static_cast<std::size_t>(sys_.solid.num_elements))
      throw RunError("CUDA tangent engine: temperature changes of the wrong size");
    thermal_.resize(thermal.size());
    check(cudaMemcpyAsync(thermal_.get(), thermal.data(), thermal.size() * sizeof(double), cudaMemcpyHostToDevice, stream_),
          "copy temperature changes");
  }

  /// The shells on the device at the last uploaded configuration.
  ShellView shell_view() {
    return ShellView{shell_conn_.get(), shell_ref_.get(), shell_thickness_.get(), shell_elastic_.get(), x0_.get(),
                     y0_.get(), z0_.get(), d0_.get(), u_.get(), d_.get(), t1_.get(),
                     shell_section_.get_or_null(), shell_points_.get_or_null(), shell_law_.get_or_null(),
                     shell_first_.get_or_null(), sys_.shell.num_points,
                     shell_state_on_ ? shell_state_old_.get() : nullptr,
                     shell_state_on_ ? shell_state_trial_.get() : nullptr};
  }

  /// The node pass over the continuum slot forces and the shell corner forces into f_.
  NodeForceBody node_force_body() {
    const bool solids = sys_.solid.num_elements > 0, shells = sys_.shell.num_elements > 0;
    return NodeForceBody{solids ? slot_ptr_.get() : nullptr, slots_.get(), slot_force_.get(),
                         shells ? shell_slot_ptr_.get() : nullptr, shell_slots_.get(), shell_force_.get(),
                         rows_ ? rows_->node_ptr() : nullptr, rows_ ? rows_->node_corners() : nullptr,
                         rows_ ? rows_->corner_forces() : nullptr, ndn_, f_.get()};
  }

  /// Launches the element-matrix kernel of every group into k_.
  void compute_matrices() {
    const SolidMesh& sm = sys_.solid;
    for (const SolidGroup& g : sm.groups)
      visit_continuum_kind(g.kind, [&](auto kind) {
        using K = decltype(kind);
        constexpr int evaluated = (K::kDimension == 2 ? 2 : 3) * K::kNodes;
        const bool by_column =
            mapping_ == ElementMapping::Column && static_cast<long long>(g.count) * evaluated < INT_MAX;
        const int parts = by_column ? evaluated : 1;
        // Laws with state take the stateful instantiation (the converged state in duals).
        const auto launch = [&](auto stateful) {
          const MatrixBody<K, decltype(stateful)::value> body{
              conn_.get(), material_.get(), dual_materials_.get(), sm.hourglass_kappa, x0_.get(), y0_.get(), z0_.get(),
              u_.get(), k_.get() + op_.matrix_offset(g.first), g.first, g.conn_offset, parts, by_column ? 1 : evaluated,
              edata_.get_or_null(), edata_ptr_.get_or_null(), thermal_on_ ? thermal_.get() : nullptr,
              state_old_.get_or_null(), sm.num_points, g.first_point, sm.state_size};
          cuda::forall(0, g.count * parts, matrix_block_, stream_, body);
        };
        if (state_on_) launch(std::true_type{});
        else launch(std::false_type{});
      });
    double* shell_k = k_.get() + op_.matrix_offset(op_.num_solids());
    if (sys_.shell.num_elements > 0 && has_plastic_shells(sys_))
      cuda::forall(0, 20 * sys_.shell.num_elements, matrix_block_, stream_, ShellMatrixBody<true>{shell_view(), shell_k});
    else if (sys_.shell.num_elements > 0)
      cuda::forall(0, 20 * sys_.shell.num_elements, matrix_block_, stream_, ShellMatrixBody<false>{shell_view(), shell_k});
    if (rows_)
      rows_->matrices(stream_, u_.get(), t1_.get(), d_.get(), k_.get() + op_.matrix_offset(op_.first_row()), matrix_block_);
    check(cudaGetLastError(), "element matrix launch");
  }

  // --- cuDSS ----------------------------------------------------------------------------------

#if HALFSTEP_HAVE_CUDSS
  /// Creates the solver objects and runs the analysis on the tangent at rest. Returns false
  /// (Auto only: required = false) when the factor would not fit in the free device memory.
  bool setup_cudss(bool required) {
    check_dss(cudssCreate(&dss_), "cudssCreate");
    check_dss(cudssSetStream(dss_, stream_), "cudssSetStream");
#ifdef HALFSTEP_CUDSS_MTLAYER
    // The host side of the analysis (reordering) runs threaded when the layer is there.
    if (std::ifstream(HALFSTEP_CUDSS_MTLAYER).good())
      mt_layer_ = cudssSetThreadingLayer(dss_, HALFSTEP_CUDSS_MTLAYER) == CUDSS_STATUS_SUCCESS;
#endif
    check_dss(cudssConfigCreate(&dss_config_), "cudssConfigCreate");
    // Run to run the same bits (the brief's determinism contract): without it the factor's
    // round-off varied between two runs of one deck, and Newton then took other iterations
    // (a plastic strip's curvature 3.4e-7 apart, H100, 2026-12-07). cudss_settings may undo it.
    int deterministic = 1;
    check_dss(cudssConfigSet(dss_config_, CUDSS_CONFIG_DETERMINISTIC_MODE, &deterministic, sizeof deterministic),
              "cudssConfigSet(DETERMINISTIC_MODE)");
    for (const auto& [param, value] : opt_.cudss_settings) {
      int v = value;
      check_dss(cudssConfigSet(dss_config_, static_cast<cudssConfigParam_t>(param), &v, sizeof v), "cudssConfigSet");
    }
    check_dss(cudssDataCreate(dss_, &dss_data_), "cudssDataCreate");
    check_dss(cudssMatrixCreateCsr(&dss_a_, n_, n_, static_cast<std::int64_t>(val_.size()), row_ptr_.get(), nullptr,
                                   col_.get(), val_.get(), CUDA_R_32I, CUDA_R_32I, CUDA_R_64F, CUDSS_MTYPE_SPD,
                                   CUDSS_MVIEW_UPPER, CUDSS_BASE_ZERO),
              "cudssMatrixCreateCsr");
    check_dss(cudssMatrixCreateDn(&dss_b_, n_, 1, n_, b_.get(), CUDA_R_64F, CUDSS_LAYOUT_COL_MAJOR),
              "cudssMatrixCreateDn");
    check_dss(cudssMatrixCreateDn(&dss_x_, n_, 1, n_, x_.get(), CUDA_R_64F, CUDSS_LAYOUT_COL_MAJOR),
              "cudssMatrixCreateDn");
    // Analysis on the tangent at rest: the pattern is all it needs, real values keep it honest.
    assemble(op_.rest());
    const auto t0 = std::chrono::steady_clock::now();
    const cudssStatus_t s = cudssExecute(dss_, CUDSS_PHASE_ANALYSIS, dss_config_, dss_data_, dss_a_, dss_x_, dss_b_);
    check(cudaStreamSynchronize(stream_), "cuDSS analysis");
    stats_.analyze_seconds += seconds_since(t0);
    if (s == CUDSS_STATUS_ALLOC_FAILED && !required) return false;
    check_dss(s, "analysis");
    std::int64_t est[16] = {};
    std::size_t written = 0;
    if (cudssDataGet(dss_, dss_data_, CUDSS_DATA_MEMORY_ESTIMATES, est, sizeof est, &written) == CUDSS_STATUS_SUCCESS) {
      std::size_t free_b = 0, total_b = 0;
      check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
      // est[1]: peak device memory of the factorization (est[0]: what the factor keeps).
      stats_.solver_bytes = static_cast<double>(est[0]);
      if (!required && static_cast<double>(est[1]) > 0.9 * static_cast<double>(free_b)) return false;
    }
    return true;
  }

  /// Destroys the cuDSS objects (safe on partly built ones).
  void release_cudss() {
    if (dss_a_) cudssMatrixDestroy(dss_a_);
    if (dss_b_) cudssMatrixDestroy(dss_b_);
    if (dss_x_) cudssMatrixDestroy(dss_x_);
    if (dss_data_) cudssDataDestroy(dss_, dss_data_);
    if (dss_config_) cudssConfigDestroy(dss_config_);
    if (dss_) cudssDestroy(dss_);
    dss_a_ = dss_b_ = dss_x_ = nullptr;
    dss_data_ = nullptr;
    dss_config_ = nullptr;
    dss_ = nullptr;
    factored_ = false;
  }

  /// Global equation of cuDSS's pivot `pivot` (0-based, elimination order), or -1.
  int pivot_equation(long long pivot) {
    if (pivot < 0 || pivot >= n_) return -1;
    std::vector<int> perm(static_cast<std::size_t>(n_));
    std::size_t written = 0;
    if (cudssDataGet(dss_, dss_data_, CUDSS_DATA_PERM_REORDER_ROW, perm.data(), perm.size() * sizeof(int), &written) !=
        CUDSS_STATUS_SUCCESS)
      return static_cast<int>(pivot);
    return perm[static_cast<std::size_t>(pivot)];
  }

  /// Numeric factorization: the first after the analysis, refactorizations after that.
  void factor_cudss() {
    const int phase = factored_ ? CUDSS_PHASE_REFACTORIZATION : CUDSS_PHASE_FACTORIZATION;
    const cudssStatus_t s = cudssExecute(dss_, phase, dss_config_, dss_data_, dss_a_, dss_x_, dss_b_);
    check(cudaStreamSynchronize(stream_), "cuDSS factorization");
    if (s == CUDSS_STATUS_ALLOC_FAILED) throw cuda::out_of_memory(0);
    if (s != CUDSS_STATUS_SUCCESS) {
      factored_ = false;
      throw SingularStiffness(-1, "cuDSS could not factor the tangent (" + cudss_status_name(s) + ")");
    }
    int info = 0;
    std::size_t written = 0;
    check_dss(cudssDataGet(dss_, dss_data_, CUDSS_DATA_INFO, &info, sizeof info, &written), "CUDSS_DATA_INFO");
    if (info != 0 && !indefinite_) {
      // A Newton iterate away from equilibrium can have an indefinite tangent (a rolled shell's
      // trial configuration, a buckling path): from here on the step factors LDL^T (cuDSS's
      // symmetric type, after a new analysis); a singular tangent still fails below.
      factored_ = false;
      switch_to_indefinite();
      factor_cudss();
      return;
    }
    if (info != 0) {
      // The factorization stopped at a zero pivot; cuDSS reports its position (1-based) in
      // elimination order.
      const int eq = pivot_equation(static_cast<long long>(info) - 1);
      factored_ = false;
      throw SingularStiffness(eq, "the tangent stiffness is singular or not positive definite: cuDSS found a "
                                  "non-positive pivot (info " + std::to_string(info) + ", equation " +
                                      std::to_string(eq) + ")");
    }
    check_pivots();
    factored_ = true;
  }

  /// Rigid-body modes can leave round-off pivots of either sign: a pivot that small against
  /// the largest one (the factor's diagonal as cuDSS reports it) means a singular tangent.
  void check_pivots() {
    std::vector<double> diag(static_cast<std::size_t>(n_));
    std::size_t written = 0;
    if (cudssDataGet(dss_, dss_data_, CUDSS_DATA_DIAG, diag.data(), diag.size() * sizeof(double), &written) !=
            CUDSS_STATUS_SUCCESS ||
        written == 0)
      return;
    double dmax = 0;
    for (double d : diag) dmax = std::max(dmax, std::fabs(d));
    for (std::size_t i = 0; i < diag.size(); ++i)
      if (!((indefinite_ ? std::fabs(diag[i]) : diag[i]) > kPivotRatio * dmax)) {
        const int eq = pivot_equation(static_cast<long long>(i));
        throw SingularStiffness(eq, "the tangent stiffness is singular: pivot " + std::to_string(diag[i]) +
                                        " against a largest " + std::to_string(dmax) + " (equation " +
                                        std::to_string(eq) + ")",
                                    dmax);
      }
  }

  /// Replaces the Cholesky set-up by cuDSS's symmetric indefinite one (LDL^T with pivoting
  /// inside the supernodes) and analyses the pattern again.
  void switch_to_indefinite() {
    analyze_cudss(true);
    indefinite_ = true;
  }

  /// analyze_cudss in the factorization's current kind.
  void reanalyze_cudss() { analyze_cudss(indefinite_); }

  /// New matrix and data objects on the current pattern (Cholesky, or LDL^T when indefinite)
  /// and their analysis; the next factorization is a first one.
  void analyze_cudss(bool indefinite) {
    if (dss_a_) cudssMatrixDestroy(dss_a_);
    if (dss_data_) cudssDataDestroy(dss_, dss_data_);
    dss_a_ = nullptr;
    dss_data_ = nullptr;
    factored_ = false;
    check_dss(cudssDataCreate(dss_, &dss_data_), "cudssDataCreate");
    check_dss(cudssMatrixCreateCsr(&dss_a_, n_, n_, static_cast<std::int64_t>(val_.size()), row_ptr_.get(), nullptr,
                                   col_.get(), val_.get(), CUDA_R_32I, CUDA_R_32I, CUDA_R_64F,
                                   indefinite ? CUDSS_MTYPE_SYMMETRIC : CUDSS_MTYPE_SPD, CUDSS_MVIEW_UPPER,
                                   CUDSS_BASE_ZERO),
              "cudssMatrixCreateCsr");
    const auto t0 = std::chrono::steady_clock::now();
    check_dss(cudssExecute(dss_, CUDSS_PHASE_ANALYSIS, dss_config_, dss_data_, dss_a_, dss_x_, dss_b_), "analysis");
    check(cudaStreamSynchronize(stream_), "cuDSS analysis");
    stats_.analyze_seconds += seconds_since(t0);
  }

  /// Forward and back substitution of b_ into x_.
  void solve_cudss() {
    if (!factored_) throw RunError("cuDSS solve without a factored tangent");
    check_dss(cudssExecute(dss_, CUDSS_PHASE_SOLVE, dss_config_, dss_data_, dss_a_, dss_x_, dss_b_), "solve");
  }

  static constexpr double kPivotRatio = 1e-13;
  bool indefinite_ = false;  ///< factoring LDL^T (a tangent was not positive definite)
  cudssHandle_t dss_ = nullptr;
  cudssConfig_t dss_config_ = nullptr;
  cudssData_t dss_data_ = nullptr;
  cudssMatrix_t dss_a_ = nullptr, dss_b_ = nullptr, dss_x_ = nullptr;
#else
  // Without cuDSS the constructor never selects it (Cudss is refused, Auto takes GPU CG).
  bool setup_cudss(bool) { return false; }
  void reanalyze_cudss() {}
  void release_cudss() {}
  void factor_cudss() { throw RunError("this build of halfstep has no cuDSS"); }
  void solve_cudss() { throw RunError("this build of halfstep has no cuDSS"); }
#endif

  const StructureOperator& op_;
  const StructureSystem& sys_;
  TangentOptions opt_;
  std::vector<int> equation_;
  DofCombinations combined_;  ///< dofs eliminated into weighted terms (static *TIE, *EQUATION)
  DeviceArray<double> weight_;  ///< CsrAssemblyMap::weight (empty: all 1)
  int n_;
  int ndn_;  ///< dofs per node of the operator's layout
  LinearSolverKind kind_ = LinearSolverKind::GpuCg;
  ElementMapping mapping_ = ElementMapping::Column;
  // 64 threads per block: 2.21e8 CPS4 matrices/s on the H200 against 2.17e8 at 128 and 2.10e8
  // at 256 (bench/tangent_bench; the dual-number body is register-bound).
  int matrix_block_ = 64;
  std::string gpu_name_;
  bool mt_layer_ = false, factored_ = false, index32_ = true;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t ev_[3] = {nullptr, nullptr, nullptr};
  TangentStats stats_;
  CsrAssemblyMap map_;

  DeviceArray<double> x0_, y0_, z0_, energy_, hourglass_, slot_force_, partial_, u_, f_, ux_, uy_, uz_, k_;
  DeviceArray<double> abs_partial_;  ///< add_abs_sums' block sums
  DeviceArray<int> conn_, material_, slot_ptr_, slots_;
  DeviceArray<double> edata_;            ///< SolidMesh::element_data (NURBS elements)
  DeviceArray<double> thermal_;          ///< per continuum element: the uploaded temperature changes
  bool thermal_on_ = false;              ///< thermal_ holds the last configuration's (else none)
  DeviceArray<double> state_old_, state_trial_;  ///< material state: converged, and the last internal force's
  bool state_on_ = false;                ///< the model's laws have state and it was set
  DeviceArray<std::size_t> edata_ptr_;
  DeviceArray<SolidMaterial<double>> materials_;
  DeviceArray<SolidMaterial<D>> dual_materials_;
  DeviceArray<int> src_ptr32_, src32_, row_ptr_, col_;
  DeviceArray<std::int64_t> src_ptr64_, src64_;
  DeviceArray<double> val_, b_, x_;
  DeviceArray<int> diag_;      ///< each equation's diagonal entry in val_ (set_diagonal_shift)
  const CouplingBlocks* coupling_ = nullptr;  ///< added at each assembly (null: none)
  std::unique_ptr<CouplingPattern> grown_;    ///< map_'s pattern grown by the blocks (null: never needed)
  DeviceArray<double> base_val_, add_val_;    ///< the element gather's values; the blocks' sums
  DeviceArray<int> base_pos_, add_pos_;       ///< their positions in the grown pattern
  bool reanalyze_ = false;                    ///< the pattern grew since the solver analyzed it
  DeviceArray<double> shift_;  ///< added to the diagonal after each assembly while shifted_
  bool shifted_ = false;
  // Shells (empty without): connectivity, reference constants, sections, reference directors,
  // the configuration's directors and triads, node -> corner slots, forces and energies.
  DeviceArray<int> shell_conn_, shell_slot_ptr_, shell_slots_;
  DeviceArray<Mitc4Ref<double>> shell_ref_;
  DeviceArray<double> shell_thickness_, d0_, d_, t1_, shell_force_, shell_energy_, xlin_;
  DeviceArray<ShellElastic<double>> shell_elastic_;
  // Plastic shells (empty without): element -> section, section -> points and law, element ->
  // first section point, and the points' converged and trial state (StructureState::shell_state).
  DeviceArray<int> shell_section_, shell_points_;
  DeviceArray<SolidMaterial<double>> shell_law_;
  DeviceArray<std::size_t> shell_first_;
  DeviceArray<double> shell_state_old_, shell_state_trial_;
  bool shell_state_on_ = false;  ///< the model has plastic shells and a state was set
  std::unique_ptr<cuda::RowDevice> rows_;  ///< the row elements (FPM triangles, beams; null without)

  JacobiCg cg_;  ///< the iterative solver (gpu-cg)
};

}  // namespace

std::unique_ptr<TangentEngine> make_cuda_tangent_engine(const StructureOperator& op, const std::vector<int>& equation,
                                                        int equations, const TangentOptions& opt,
                                                        const DofCombinations* combined) {
  return std::make_unique<Engine>(op, equation, equations, opt, combined);
}

}  // namespace halfstep
