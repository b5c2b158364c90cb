// CUDA backend, first scheme: "gather". One kernel computes every element's internal and
// pressure forces into a per-element buffer (20 + 12 values); a second kernel gives each node
// its corners' contributions through the CSR node -> corner map (the same order as the CPU,
// so the FP64 sums match it to round-off) and integrates it with integrate_node(). The
// element and the integrator are the host/device functions the CPU backend calls.
#include "backends/cuda/cuda_backend.hpp"

#include <cuda_runtime.h>

#include <cstdio>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "elements/mitc4.hpp"
#include "solver/node_integrator.hpp"

namespace halfstep {

namespace {

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw RunError(std::string("CUDA: ") + what + ": " + cudaGetErrorString(err));
}

/// Owning device array of n values of V.
template <class V>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t n) { resize(n); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() {
    if (ptr_) cudaFree(ptr_);
  }
  void resize(std::size_t n) {
    if (ptr_) cudaFree(ptr_);
    ptr_ = nullptr;
    size_ = n;
    if (n == 0) return;
    const cudaError_t err = cudaMalloc(&ptr_, n * sizeof(V));
    if (err != cudaSuccess) {
      std::size_t free_b = 0, total_b = 0;
      cudaGetLastError();
      cudaMemGetInfo(&free_b, &total_b);
      throw RunError("GPU out of memory: " + std::to_string(n * sizeof(V) >> 20) + " MiB more requested with " +
                     std::to_string(free_b >> 20) + " MiB free of " + std::to_string(total_b >> 20) +
                     " MiB; run a smaller model or use --backend cpu");
    }
  }
  void upload(const V* host, std::size_t n) {
    if (n) check(cudaMemcpy(ptr_, host, n * sizeof(V), cudaMemcpyHostToDevice), "copy to device");
  }
  void upload(const std::vector<V>& host) {
    if (host.size() != size_) resize(host.size());
    upload(host.data(), host.size());
  }
  void download(V* host, std::size_t n) const {
    if (n) check(cudaMemcpy(host, ptr_, n * sizeof(V), cudaMemcpyDeviceToHost), "copy to host");
  }
  void download(std::vector<V>& host) const {
    host.resize(size_);
    download(host.data(), size_);
  }
  V* get() { return ptr_; }
  const V* get() const { return ptr_; }
  std::size_t size() const { return size_; }

 private:
  V* ptr_ = nullptr;
  std::size_t size_ = 0;
};

constexpr int kSums = 6;  // kinetic, work_prev, work_next, damp_prev, damp_next, non-finite count

/// Read-only mesh and section data as seen by the kernels.
template <class T>
struct MeshView {
  int ne, nn;
  const int* conn;
  const int* section;
  const Mitc4Ref<T>* ref;
  const T* thickness;
  const ShellElastic<T>* elastic;
  const T *x0, *y0, *z0, *d0x, *d0y, *d0z;
  const int *slot_ptr, *slots;
};

__device__ inline double warp_sum(double v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

/// Block-wide sum of one value per thread into *out (one atomic per warp).
__device__ inline void block_accumulate(double v, double* out) {
  v = warp_sum(v);
  if ((threadIdx.x & 31) == 0 && v != 0.0) atomicAdd(out, v);
}

template <class T>
__global__ void element_kernel(MeshView<T> m, NodeStateView<T> s, T* elem_force, T* elem_energy, const T* pressure,
                               T* elem_pressure, double* energy) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  double w = 0.0;
  if (e < m.ne) {
    Mitc4Nodes<T> nodes;
    int c[4];
    for (int k = 0; k < 4; ++k) {
      const int n = c[k] = m.conn[4 * e + k];
      nodes.X[k] = {m.x0[n], m.y0[n], m.z0[n]};
      nodes.u[k] = {s.ux[n], s.uy[n], s.uz[n]};
      nodes.V0[k] = {m.d0x[n], m.d0y[n], m.d0z[n]};
      nodes.v[k] = {s.dx[n], s.dy[n], s.dz[n]};
    }
    const int sec = m.section[e];
    Vec3<T> f[4], gv[4];
    const T energy_e = mitc4_internal_force(m.ref[e], nodes, m.thickness[sec], m.elastic[sec], f, gv);
    elem_energy[e] = energy_e;
    w = energy_e;
    T* out = elem_force + 20 * e;
    for (int k = 0; k < 4; ++k) {
      const int n = c[k];
      mitc4_corner_generalized_force(f[k], gv[k], nodes.v[k], Vec3<T>{s.t1x[n], s.t1y[n], s.t1z[n]}, out + 5 * k);
    }
    if (pressure) {
      T* pf = elem_pressure + 12 * e;
      const T p = pressure[e];
      if (p != T(0)) {
        Vec3<T> x[4], fp[4];
        for (int k = 0; k < 4; ++k) x[k] = nodes.X[k] + nodes.u[k];
        mitc4_pressure_force(x, p, fp);
        for (int k = 0; k < 4; ++k) {
          pf[3 * k] = fp[k].x;
          pf[3 * k + 1] = fp[k].y;
          pf[3 * k + 2] = fp[k].z;
        }
      } else {
        for (int i = 0; i < 12; ++i) pf[i] = T(0);
      }
    }
  }
  block_accumulate(w, energy);
}

/// Step inputs of the node kernel.
template <class T>
struct DriveView {
  const std::uint8_t* held;
  const int* special;
  const T* load;
  const T* motion;
  const std::uint8_t* moving;
  const std::uint8_t* by_velocity;
};

template <class T>
__global__ void node_kernel(MeshView<T> m, NodeStateView<T> s, NodeConstView<T> c, const T* elem_force,
                            const T* elem_pressure, DriveView<T> dv, HalfSteps<T> h, bool commit, T* full,
                            double* sums) {
  const int n = blockIdx.x * blockDim.x + threadIdx.x;
  double acc[kSums] = {0, 0, 0, 0, 0, 0};
  if (n < m.nn) {
    T fi[5] = {T(0), T(0), T(0), T(0), T(0)};
    T fp[3] = {T(0), T(0), T(0)};
    for (int i = m.slot_ptr[n]; i < m.slot_ptr[n + 1]; ++i) {
      const int slot = m.slots[i];
      const T* f = elem_force + 5 * slot;
      for (int d = 0; d < 5; ++d) fi[d] += f[d];
      if (elem_pressure) {
        const T* p = elem_pressure + 3 * slot;
        fp[0] += p[0];
        fp[1] += p[1];
        fp[2] += p[2];
      }
    }
    NodeDrive<T> drive;
    const int sp = dv.special[n];
    if (sp >= 0) {
      drive.load = dv.load + 6 * sp;
      drive.motion = dv.motion + 3 * sp;
      drive.moving = dv.moving[sp];
      drive.by_velocity = dv.by_velocity[sp];
    }
    const NodeUpdateResult<T> r = integrate_node(n, fi, fp, dv.held[n], drive, h, commit, s, c);
    acc[0] = r.kinetic;
    acc[1] = r.work_prev;
    acc[2] = r.work_next;
    acc[3] = r.damp_prev;
    acc[4] = r.damp_next;
    acc[5] = r.finite ? 0.0 : 1.0;
    if (full) {
      const int nn = m.nn;
      for (int d = 0; d < 3; ++d) {
        full[d * nn + n] = r.v_full[d];
        full[(6 + d) * nn + n] = r.reaction[d];
      }
      const Vec3<T> w = r.v_full[3] * r.t1 + r.v_full[4] * r.t2;
      const Vec3<T> mo = r.reaction[3] * r.t1 + r.reaction[4] * r.t2;
      full[3 * nn + n] = w.x;
      full[4 * nn + n] = w.y;
      full[5 * nn + n] = w.z;
      full[9 * nn + n] = mo.x;
      full[10 * nn + n] = mo.y;
      full[11 * nn + n] = mo.z;
    }
  }
  for (int i = 0; i < kSums; ++i) block_accumulate(acc[i], sums + i);
}

/// FP64 gather scheme.
class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(const ShellSystem& sys) : sys_(sys) {
    const int ne = sys.num_elements, nn = sys.num_nodes;
    std::size_t free_before = 0, total = 0;
    check(cudaMemGetInfo(&free_before, &total), "cudaMemGetInfo");
    conn_.upload(sys.conn);
    section_.upload(sys.section);
    ref_.upload(sys.ref);
    std::vector<double> thick;
    std::vector<ShellElastic<double>> el;
    for (const SectionProps& p : sys.sections) {
      thick.push_back(p.thickness);
      el.push_back(p.elastic);
    }
    thickness_.upload(thick);
    elastic_.upload(el);
    x0_.upload(sys.x0);
    y0_.upload(sys.y0);
    z0_.upload(sys.z0);
    d0x_.upload(sys.dir0x);
    d0y_.upload(sys.dir0y);
    d0z_.upload(sys.dir0z);
    slot_ptr_.upload(sys.node_slot_ptr);
    slots_.upload(sys.node_slots);
    mass_.upload(sys.mass);
    inertia_.upload(sys.inertia);
    damp_.upload(sys.damp);
    damp_rot_.upload(sys.damp_rot);
    for (auto* a : {&ux_, &uy_, &uz_, &dx_, &dy_, &dz_, &t1x_, &t1y_, &t1z_}) a->resize(nn);
    for (auto& a : v_) a.resize(nn);
    elem_force_.resize(20 * static_cast<std::size_t>(ne));
    elem_energy_.resize(ne);
    sums_.resize(kSums + 1);
    held_.resize(nn);
    special_.resize(nn);
    cudaDeviceProp prop{};
    int dev = 0;
    check(cudaGetDevice(&dev), "cudaGetDevice");
    check(cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties");
    device_name_ = prop.name;
    std::size_t free_after = 0;
    check(cudaMemGetInfo(&free_after, &total), "cudaMemGetInfo");
    device_bytes_ = static_cast<double>(free_before - free_after);
  }

  double device_bytes() const override { return device_bytes_; }

  std::string name() const override { return "cuda"; }
  int threads() const override { return 1; }
  std::string description() const override { return "CUDA on " + device_name_ + ", FP64, gather scheme"; }

  void upload(const ShellState& st) override {
    ux_.upload(st.ux);
    uy_.upload(st.uy);
    uz_.upload(st.uz);
    for (int d = 0; d < kShellDofs; ++d) v_[d].upload(st.v[d]);
    dx_.upload(st.dx);
    dy_.upload(st.dy);
    dz_.upload(st.dz);
    t1x_.upload(st.t1x);
    t1y_.upload(st.t1y);
    t1z_.upload(st.t1z);
  }

  void download(ShellState& st) override {
    ux_.download(st.ux);
    uy_.download(st.uy);
    uz_.download(st.uz);
    for (int d = 0; d < kShellDofs; ++d) v_[d].download(st.v[d]);
    dx_.download(st.dx);
    dy_.download(st.dy);
    dz_.download(st.dz);
    t1x_.download(st.t1x);
    t1y_.download(st.t1y);
    t1z_.download(st.t1z);
    elem_energy_.download(st.elem_energy);
  }

  void set_step_inputs(const NodalInputs& in) override {
    held_.upload(in.held);
    special_.upload(in.special);
    moving_.upload(in.moving);
    by_velocity_.upload(in.by_velocity);
    load_.resize(in.load.size());
    motion_.resize(in.motion.size());
  }

  double element_forces(ShellState&, const double* pressure) override {
    const int ne = sys_.num_elements;
    if (pressure) {
      if (pressure_.size() != static_cast<std::size_t>(ne)) {
        pressure_.resize(ne);
        elem_pressure_.resize(12 * static_cast<std::size_t>(ne));
      }
      pressure_.upload(pressure, ne);
    }
    check(cudaMemset(sums_.get() + kSums, 0, sizeof(double)), "memset");
    const int block = 128;
    element_kernel<double><<<(ne + block - 1) / block, block>>>(mesh(), state(), elem_force_.get(), elem_energy_.get(),
                                                                pressure ? pressure_.get() : nullptr,
                                                                pressure ? elem_pressure_.get() : nullptr,
                                                                sums_.get() + kSums);
    check(cudaGetLastError(), "element kernel launch");
    have_pressure_ = pressure != nullptr;
    double energy = 0;
    check(cudaMemcpy(&energy, sums_.get() + kSums, sizeof(double), cudaMemcpyDeviceToHost), "element kernel");
    return energy;
  }

  NodeSums node_update(ShellState&, const NodalInputs& in, HalfSteps<double> h, bool commit,
                       FullStepFields* full) override {
    const int nn = sys_.num_nodes;
    load_.upload(in.load.data(), in.load.size());
    motion_.upload(in.motion.data(), in.motion.size());
    if (full && full_.size() != 12 * static_cast<std::size_t>(nn)) full_.resize(12 * static_cast<std::size_t>(nn));
    check(cudaMemset(sums_.get(), 0, kSums * sizeof(double)), "memset");
    const DriveView<double> dv{held_.get(), special_.get(), load_.get(), motion_.get(), moving_.get(), by_velocity_.get()};
    const int block = 128;
    node_kernel<double><<<(nn + block - 1) / block, block>>>(
        mesh(), state(), NodeConstView<double>{mass_.get(), inertia_.get(), damp_.get(), damp_rot_.get()},
        elem_force_.get(), have_pressure_ ? elem_pressure_.get() : nullptr, dv, h, commit, full ? full_.get() : nullptr,
        sums_.get());
    check(cudaGetLastError(), "node kernel launch");
    double s[kSums];
    check(cudaMemcpy(s, sums_.get(), sizeof(s), cudaMemcpyDeviceToHost), "node kernel");
    if (full) {
      std::vector<double> host(12 * static_cast<std::size_t>(nn));
      full_.download(host.data(), host.size());
      for (int i = 0; i < 6; ++i) {
        full->v[i].assign(host.begin() + i * nn, host.begin() + (i + 1) * nn);
        full->rf[i].assign(host.begin() + (6 + i) * nn, host.begin() + (7 + i) * nn);
      }
    }
    NodeSums r;
    r.kinetic = s[0];
    r.work_prev = s[1];
    r.work_next = s[2];
    r.damp_prev = s[3];
    r.damp_next = s[4];
    r.finite = s[5] == 0.0 && std::isfinite(s[0]);
    return r;
  }

 private:
  MeshView<double> mesh() const {
    return {sys_.num_elements, sys_.num_nodes, conn_.get(), section_.get(), ref_.get(), thickness_.get(), elastic_.get(),
            x0_.get(), y0_.get(), z0_.get(), d0x_.get(), d0y_.get(), d0z_.get(), slot_ptr_.get(), slots_.get()};
  }
  NodeStateView<double> state() {
    NodeStateView<double> s{ux_.get(), uy_.get(), uz_.get(), {}, dx_.get(), dy_.get(), dz_.get(),
                            t1x_.get(), t1y_.get(), t1z_.get()};
    for (int d = 0; d < kShellDofs; ++d) s.v[d] = v_[d].get();
    return s;
  }

  const ShellSystem& sys_;
  std::string device_name_;
  DeviceArray<int> conn_, section_, slot_ptr_, slots_, special_;
  DeviceArray<Mitc4Ref<double>> ref_;
  DeviceArray<ShellElastic<double>> elastic_;
  DeviceArray<double> thickness_, x0_, y0_, z0_, d0x_, d0y_, d0z_, mass_, inertia_, damp_, damp_rot_;
  DeviceArray<double> ux_, uy_, uz_, dx_, dy_, dz_, t1x_, t1y_, t1z_, v_[kShellDofs];
  DeviceArray<double> elem_force_, elem_energy_, elem_pressure_, pressure_, sums_, load_, motion_, full_;
  DeviceArray<std::uint8_t> held_, moving_, by_velocity_;
  bool have_pressure_ = false;
  double device_bytes_ = 0;  ///< memory taken at construction (allocation granularity included)
};

}  // namespace

bool cuda_device_present(std::string* why_not) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    if (why_not)
      *why_not = err != cudaSuccess ? std::string("no usable GPU (") + cudaGetErrorString(err) + ")"
                                    : std::string("no CUDA device found");
    cudaGetLastError();
    return false;
  }
  return true;
}

std::unique_ptr<Backend> make_cuda_backend(const ShellSystem& sys) { return std::make_unique<CudaBackend>(sys); }

}  // namespace halfstep
