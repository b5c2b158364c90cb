// The row families (FPM triangles, beams) in the CUDA tangent engine: each static family's
// arrays and sections on the device, the rows' converged and trial states (RowOperator's
// layout), and launches of the host/device bodies RowOperator runs on the CPU
// (discretization/row_tangent.hpp), so that both engines evaluate the same code.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "backends/cuda/device_memory.cuh"
#include "backends/cuda/forall.cuh"
#include "core/error.hpp"
#include "discretization/row_operator.hpp"
#include "discretization/structure_operator.hpp"
#include "discretization/row_tangent.hpp"

namespace halfstep::cuda {

/// One static row family on the device (absent: on = false).
template <class Mesh>
struct RowFamilyDevice {
  using Plain = typename Mesh::template Section<double>;
  using Dualized = typename Mesh::template Section<Dual<double>>;
  bool on = false;
  RowOperator::Part part{};
  typename Mesh::StaticView view{};
  DeviceArray<Plain> sections;
  DeviceArray<Dualized> dual_sections;
  std::vector<std::unique_ptr<DeviceArray<int>>> ints;  ///< the view's arrays
  std::vector<std::unique_ptr<DeviceArray<double>>> doubles;

  void upload(const Mesh& mesh, const RowOperator::Part& p) {
    on = true;
    part = p;
    if (mesh.state_size > kMaxRowState)
      throw RunError("CUDA tangent engine: " + std::to_string(mesh.state_size) + " state values per " + Mesh::kWhat +
                     ", at most " + std::to_string(kMaxRowState));
    view = mesh.static_view([&](const auto& v) {
      using V = typename std::decay_t<decltype(v)>::value_type;
      if constexpr (std::is_same_v<V, int>) {
        ints.push_back(std::make_unique<DeviceArray<int>>());
        ints.back()->assign(v);
        return static_cast<const int*>(ints.back()->get());
      } else {
        doubles.push_back(std::make_unique<DeviceArray<double>>());
        doubles.back()->assign(v);
        return static_cast<const double*>(doubles.back()->get());
      }
    });
    sections.assign(mesh.constants);
    std::vector<Dualized> d;
    for (const Plain& c : mesh.constants) d.push_back(Mesh::template section_as<Dual<double>>(c));
    dual_sections.assign(d);
  }
  /// The family's arguments at the configuration (u, t1, d) from the rows' converged state.
  RowArgs<Mesh> args(const double* u, const double* t1, const double* d, const double* old) const {
    return {view, u, t1, d, old + part.state_at, part.count};
  }
};

template <class Tuple>
struct RowFamilyDevices;
template <class... Mesh>
struct RowFamilyDevices<std::tuple<Mesh...>> {
  using type = std::tuple<RowFamilyDevice<Mesh>...>;
};

/// The static row families of an operator on the device.
class RowDevice {
 public:
  /// Uploads op's static row families and their node -> corner lists; the converged state
  /// starts as RowOperator::initial_states(rest).
  RowDevice(const StructureOperator& op, const Configuration& rest) {
    const RowOperator& rows = op.rows();
    for (const RowOperator::Part& p : rows.parts())
      for_each_row_family([&](auto index) {
        constexpr std::size_t i = decltype(index)::value;
        using Mesh = std::tuple_element_t<i, RowMeshes>;
        if constexpr (has_static_forces<Mesh>)
          if (p.family == i) std::get<i>(families_).upload(op.system().mesh<Mesh>(), p);
      });
    // Node n's corners in RowOperator::gather's order (for_each_element_at's).
    const int nn = op.system().num_nodes;
    std::vector<int> ptr(static_cast<std::size_t>(nn) + 1, 0), corners;
    for (int n = 0; n < nn; ++n) {
      rows.for_each_element_at(n, [&](int e, int a) { corners.push_back(static_cast<int>(rows.corner_index(e, a))); });
      ptr[static_cast<std::size_t>(n) + 1] = static_cast<int>(corners.size());
    }
    node_ptr_.assign(ptr);
    node_corners_.assign(corners);
    force_.resize(kFpmNodeDofs * rows.num_corners());
    const std::vector<double> s = rows.initial_states(rest);
    old_.assign(s);
    trial_.resize(s.size());
    work_.assign(static_cast<std::size_t>(rows.num_elements()), 0.0);
  }

  /// Values of the rows' state.
  std::size_t state_size() const { return old_.size(); }
  /// The converged state (host values, RowOperator's layout).
  void set_state(const double* s) { old_.assign(s, old_.size()); }
  /// The last evaluation's trial state, copied out (stream-ordered; the caller synchronizes).
  void trial_state(double* s, cudaStream_t st) const {
    check(cudaMemcpyAsync(s, trial_.get(), trial_.bytes(), cudaMemcpyDeviceToHost, st), "copy trial row state");
  }

  /// Generalized forces at the configuration (device u, t1, d; 3 values per node each) from
  /// the converged state into the trial state, and the trial state's work values queued for
  /// copying out (work() after the stream's synchronization).
  void forces(cudaStream_t st, const double* u, const double* t1, const double* d) {
    std::apply([&](auto&... f) { (launch_forces(f, st, u, t1, d), ...); }, families_);
    check(cudaGetLastError(), "row force launch");
  }
  /// The elements' work after forces() (summed in element order, as RowOperator does).
  double work() const {
    double w = 0;
    for (double v : work_) w += v;
    return w;
  }
  /// Element matrices at the configuration into k (the rows' first matrix).
  void matrices(cudaStream_t st, const double* u, const double* t1, const double* d, double* k, int block) {
    std::apply([&](auto&... f) { (launch_matrices(f, st, u, t1, d, k, block), ...); }, families_);
    check(cudaGetLastError(), "row matrix launch");
  }

  /// Node -> corners (CSR) and the corners' forces (6 each): the node gather's row part.
  const int* node_ptr() const { return node_ptr_.get(); }
  const int* node_corners() const { return node_corners_.get(); }
  const double* corner_forces() const { return force_.get(); }

 private:
  template <class Mesh>
  void launch_forces(RowFamilyDevice<Mesh>& f, cudaStream_t st, const double* u, const double* t1, const double* d) {
    if (!f.on) return;
    const RowOperator::Part& p = f.part;
    forall(0, p.count, 128, st,
           RowForceBody<Mesh>{f.args(u, t1, d, old_.get()), f.sections.get(), trial_.get() + p.state_at,
                              force_.get() + kFpmNodeDofs * p.corner_at});
    // The work component is one contiguous row of the component-major state.
    check(cudaMemcpyAsync(work_.data() + p.first, trial_.get() + p.state_at + static_cast<std::size_t>(Mesh::kWorkState) * p.count,
                          static_cast<std::size_t>(p.count) * sizeof(double), cudaMemcpyDeviceToHost, st),
          "copy row work");
  }

  template <class Mesh>
  void launch_matrices(RowFamilyDevice<Mesh>& f, cudaStream_t st, const double* u, const double* t1, const double* d,
                       double* k, int block) {
    if (!f.on) return;
    const RowOperator::Part& p = f.part;
    constexpr int size = RowColumnBody<Mesh>::kSize;
    double* km = k + p.matrix_at;
    forall(0, p.count * size, block, st, RowColumnBody<Mesh>{f.args(u, t1, d, old_.get()), f.dual_sections.get(), km});
    forall(0, p.count, 128, st, RowSymmetrizeBody<size>{km});
  }

  typename RowFamilyDevices<RowMeshes>::type families_;
  DeviceArray<int> node_ptr_, node_corners_;
  DeviceArray<double> force_, old_, trial_;
  std::vector<double> work_;  ///< per element, RowOperator's numbering (host; filled by forces())
};

}  // namespace halfstep::cuda
