// Timing prototype (issue 21 item 2): the C3D8R element pass (gather sink: 3 values per
// element node slot) one element per thread, in four forms over the same 1 M-element block:
//   A  continuum_element<C3D8R> as solid_element_kernel runs it (every material law compiled in)
//   B  the same arithmetic with St. Venant-Kirchhoff only (the law's branches left out)
//   C  streaming: the uniform gradients b_a and hourglass vectors gamma_a are never stored;
//      q_i = sum_a h_ia u_a - (F - I) (sum_a h_ia X_a) (Flanagan-Belytschko's identity
//      gamma_ia = h_ia - (h_i . X) b_a), b_a formed again where a force is written; every law
//   D  C with St. Venant-Kirchhoff only
//   E  A with the block's slot forces staged in shared memory and stored coalesced.
// Not part of the CMake build. Registers: nvcc -arch=sm_90 -O3 -std=c++20 -Xptxas -v
// --expt-relaxed-constexpr -I src -o c3d8r bench/prototypes/c3d8r_kernels.cu; run ./c3d8r [n]
// for a 4n x n x n block (n = 63: 1,000,188 elements), 200 launches per form.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "discretization/continuum_element.hpp"
#include "elements/solid_kinds.hpp"

using namespace halfstep;

template <class T>
__global__ void form_a(ContinuumView<T> v, const T* ux, const T* uy, const T* uz, T* force, int count) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= count) return;
  SlotSink<T> sink{force};
  continuum_element<C3D8R>(v, ux, uy, uz, e, 8 * e, sink, std::size_t(e), (const T* const*)nullptr);
}

template <class T>
__global__ void form_b(ContinuumView<T> v, const T* ux, const T* uy, const T* uz, T* force, int count) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= count) return;
  Vec3<T> X[8], u[8], f[8];
  for (int a = 0; a < 8; ++a) {
    const int n = v.conn[8 * e + a];
    X[a] = {v.x0[n], v.y0[n], v.z0[n]};
    u[a] = {ux[n], uy[n], uz[n]};
  }
  Hex8Ref<T> r;
  hex8_reference(X, r);
  const SolidMaterial<T>& m = v.materials[v.material[e]];
  const T k = hex8_hourglass_stiffness(r, T(2) * m.mu, v.kappa);
  Mat3<T> F = scaled_identity(T(1));
  for (int a = 0; a < 8; ++a) {
    const T ua[3] = {u[a].x, u[a].y, u[a].z}, ba[3] = {r.b[a].x, r.b[a].y, r.b[a].z};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) F(i, j) += ua[i] * ba[j];
  }
  const Mat3<T> E = green_strain(F);
  const T tr = trace(E);
  const Mat3<T> VP = r.volume * (F * (scaled_identity(m.lambda * tr) + (T(2) * m.mu) * E));
  for (int a = 0; a < 8; ++a) f[a] = VP * r.b[a];
  T hg = T(0);
  for (int i = 0; i < 4; ++i) {
    Vec3<T> q{T(0), T(0), T(0)};
    for (int a = 0; a < 8; ++a) q += r.gamma[i][a] * u[a];
    hg += dot(q, q);
    for (int a = 0; a < 8; ++a) f[a] += (k * r.gamma[i][a]) * q;
  }
  for (int a = 0; a < 8; ++a) {
    T* o = force + 3 * (8 * static_cast<std::size_t>(e) + a);
    o[0] = f[a].x; o[1] = f[a].y; o[2] = f[a].z;
  }
  v.energy[e] = r.volume * (T(0.5) * m.lambda * tr * tr + m.mu * ddot(E, E));
  v.hourglass[e] = T(0.5) * k * hg;
}

template <class T, bool kSvk>
__global__ void form_cd(ContinuumView<T> v, const T* ux, const T* uy, const T* uz, T* force, int count) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= count) return;
  const int* conn = v.conn + 8 * e;
  Vec3<T> c[7], hx[4], hu[4];
  for (int m = 0; m < 7; ++m) c[m] = {T(0), T(0), T(0)};
  for (int i = 0; i < 4; ++i) hx[i] = hu[i] = {T(0), T(0), T(0)};
  for (int a = 0; a < 8; ++a) {
    const int s0 = hex8_sign(a, 0), s1 = hex8_sign(a, 1), s2 = hex8_sign(a, 2);
    const T h[7] = {T(1), T(s0), T(s1), T(s2), T(s0 * s1), T(s1 * s2), T(s2 * s0)};
    const int n = conn[a];
    const Vec3<T> X{v.x0[n], v.y0[n], v.z0[n]}, U{ux[n], uy[n], uz[n]};
    for (int m = 1; m < 7; ++m) c[m] += (h[m] / T(8)) * X;
    const T g[4] = {T(s0 * s1), T(s1 * s2), T(s2 * s0), T(s0 * s1 * s2)};
    for (int i = 0; i < 4; ++i) {
      hx[i] += g[i] * X;
      hu[i] += g[i] * U;
    }
  }
  const T third = T(8) / T(3);
  const Vec3<T> c23 = cross(c[2], c[3]), c46 = cross(c[4], c[6]);
  const T vol = T(8) * dot(c[1], c23) + third * (dot(c[1], c46) + dot(c[4], cross(c[2], c[5])) + dot(c[6], cross(c[5], c[3])));
  Vec3<T> dv[7];
  dv[1] = T(8) * c23 + third * c46;
  dv[2] = T(8) * cross(c[3], c[1]) + third * cross(c[5], c[4]);
  dv[3] = T(8) * cross(c[1], c[2]) + third * cross(c[6], c[5]);
  dv[4] = third * (cross(c[6], c[1]) + cross(c[2], c[5]));
  dv[5] = third * (cross(c[4], c[2]) + cross(c[3], c[6]));
  dv[6] = third * (cross(c[1], c[4]) + cross(c[5], c[3]));
  const T scale = T(1) / (T(8) * vol);
  auto b_of = [&](int a) {
    const int s0 = hex8_sign(a, 0), s1 = hex8_sign(a, 1), s2 = hex8_sign(a, 2);
    const T h[7] = {T(1), T(s0), T(s1), T(s2), T(s0 * s1), T(s1 * s2), T(s2 * s0)};
    Vec3<T> g{T(0), T(0), T(0)};
    for (int m = 1; m < 7; ++m) g += h[m] * dv[m];
    return scale * g;
  };
  Mat3<T> F = scaled_identity(T(1));
  T bb = T(0);
  for (int a = 0; a < 8; ++a) {
    const Vec3<T> b = b_of(a);
    const int n = conn[a];
    const T ua[3] = {ux[n], uy[n], uz[n]}, ba[3] = {b.x, b.y, b.z};
    bb += dot(b, b);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) F(i, j) += ua[i] * ba[j];
  }
  const SolidMaterial<T>& m = v.materials[v.material[e]];
  SolidStress<T> s;
  if constexpr (kSvk) {
    const Mat3<T> E = green_strain(F);
    const T tr = trace(E);
    s = {scaled_identity(m.lambda * tr) + (T(2) * m.mu) * E, T(0.5) * m.lambda * tr * tr + m.mu * ddot(E, E)};
  } else {
    s = point_stress(m, F, ElementState<T>{}, 0);
  }
  const T k = v.kappa * hourglass_modulus(m) * vol * bb / T(8);
  const Mat3<T> H = F - scaled_identity(T(1));
  T hg = T(0);
  for (int i = 0; i < 4; ++i) {
    hu[i] = hu[i] - H * hx[i];  // q_i
    hg += dot(hu[i], hu[i]);
  }
  const Mat3<T> VP = vol * (F * s.S);
  for (int a = 0; a < 8; ++a) {
    const Vec3<T> b = b_of(a);
    const int s0 = hex8_sign(a, 0), s1 = hex8_sign(a, 1), s2 = hex8_sign(a, 2);
    const T g[4] = {T(s0 * s1), T(s1 * s2), T(s2 * s0), T(s0 * s1 * s2)};
    Vec3<T> f = VP * b;
    for (int i = 0; i < 4; ++i) f += (k * (g[i] - dot(hx[i], b))) * hu[i];
    T* o = force + 3 * (8 * static_cast<std::size_t>(e) + a);
    o[0] = f.x; o[1] = f.y; o[2] = f.z;
  }
  v.energy[e] = vol * s.energy;
  v.hourglass[e] = T(0.5) * k * hg;
}

/// A with the slot forces staged in shared memory: the slots of a block's elements are one
/// contiguous range, so thread t stores values t, t + block, ... coalesced, instead of each
/// thread storing its own 24 values 192 B apart (a quarter of each 32-byte sector used).
template <class T>
__global__ void form_e(ContinuumView<T> v, const T* ux, const T* uy, const T* uz, T* force, int count) {
  extern __shared__ unsigned char raw[];
  T* smem = reinterpret_cast<T*>(raw);
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < count) {
    struct Sink {
      T* out;
      __device__ void operator()(int slot, int, const Vec3<T>& f) const {
        T* o = out + 3 * (slot & 7);
        o[0] = f.x; o[1] = f.y; o[2] = f.z;
      }
    } sink{smem + 24 * threadIdx.x};
    continuum_element<C3D8R>(v, ux, uy, uz, e, 8 * e, sink, std::size_t(e), (const T* const*)nullptr);
  }
  __syncthreads();
  const int first = blockIdx.x * blockDim.x;
  const int n = 24 * (min(count, first + (int)blockDim.x) - first);
  T* out = force + 24 * static_cast<std::size_t>(first);
  for (int k = threadIdx.x; k < n; k += blockDim.x) out[k] = smem[k];
}

#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { std::printf("%s: %s\n", #x, cudaGetErrorString(err_)); std::exit(1); } } while (0)

template <class T>
T* upload(const std::vector<T>& h) {
  T* d;
  CHECK(cudaMalloc(&d, h.size() * sizeof(T)));
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <class T>
void run(int n) {
  const int nx = 4 * n, ny = n, nz = n, ne = nx * ny * nz;
  const int nn = (nx + 1) * (ny + 1) * (nz + 1);
  auto id = [&](int i, int j, int k) { return i + (nx + 1) * (j + (ny + 1) * k); };
  std::vector<T> x(nn), y(nn), z(nn), ux(nn), uy(nn), uz(nn);
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) {
        const int p = id(i, j, k);
        x[p] = T(i) / n; y[p] = T(j) / n; z[p] = T(k) / n;
        ux[p] = T(1e-3) * std::sin(T(p)); uy[p] = T(1e-3) * std::cos(T(p)); uz[p] = T(1e-3) * std::sin(T(3 * p));
      }
  std::vector<int> conn(8 * std::size_t(ne)), mat(ne, 0);
  int e = 0;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i, ++e) {
        const int c[8] = {id(i, j, k), id(i + 1, j, k), id(i + 1, j + 1, k), id(i, j + 1, k),
                          id(i, j, k + 1), id(i + 1, j, k + 1), id(i + 1, j + 1, k + 1), id(i, j + 1, k + 1)};
        for (int a = 0; a < 8; ++a) conn[8 * std::size_t(e) + a] = c[a];
      }
  SolidMaterial<T> m;
  m.lambda = T(121153.8); m.mu = T(80769.2); m.density = T(7.8e-9);
  ContinuumView<T> v{};
  v.conn = upload(conn); v.material = upload(mat); v.materials = upload(std::vector<SolidMaterial<T>>{m});
  v.kappa = T(0.1);
  v.x0 = upload(x); v.y0 = upload(y); v.z0 = upload(z);
  std::vector<T> zero(ne, T(0));
  v.energy = upload(zero); v.hourglass = upload(zero);
  const T *dux = upload(ux), *duy = upload(uy), *duz = upload(uz);
  T* force;
  CHECK(cudaMalloc(&force, 24 * std::size_t(ne) * sizeof(T)));
  std::vector<T> ref(24 * std::size_t(ne)), got(ref.size());
  cudaEvent_t t0, t1;
  cudaEventCreate(&t0); cudaEventCreate(&t1);
  const char* names[5] = {"A generic", "B svk", "C streaming generic", "D streaming svk", "E A + staged stores"};
  for (int form = 0; form < 5; ++form) {
    for (int block : {64, 128, 256}) {
      const int grid = (ne + block - 1) / block;
      auto launch = [&] {
        if (form == 0) form_a<T><<<grid, block>>>(v, dux, duy, duz, force, ne);
        if (form == 1) form_b<T><<<grid, block>>>(v, dux, duy, duz, force, ne);
        if (form == 2) form_cd<T, false><<<grid, block>>>(v, dux, duy, duz, force, ne);
        if (form == 3) form_cd<T, true><<<grid, block>>>(v, dux, duy, duz, force, ne);
        if (form == 4) form_e<T><<<grid, block, 24 * block * sizeof(T)>>>(v, dux, duy, duz, force, ne);
      };
      for (int w = 0; w < 5; ++w) launch();
      CHECK(cudaDeviceSynchronize());
      cudaEventRecord(t0);
      const int reps = 200;
      for (int r = 0; r < reps; ++r) launch();
      cudaEventRecord(t1);
      CHECK(cudaEventSynchronize(t1));
      float ms;
      cudaEventElapsedTime(&ms, t0, t1);
      CHECK(cudaMemcpy(form == 0 ? ref.data() : got.data(), force, ref.size() * sizeof(T), cudaMemcpyDeviceToHost));
      double diff = 0, scale = 0;
      if (form > 0)
        for (std::size_t i = 0; i < ref.size(); ++i) {
          diff = std::max(diff, double(std::fabs(got[i] - ref[i])));
          scale = std::max(scale, double(std::fabs(ref[i])));
        }
      std::printf("%-4s %-22s block %3d: %8.1f us/pass  %.3e elements/s  max|f - f_A|/max|f_A| %.2e\n",
                  sizeof(T) == 8 ? "FP64" : "FP32", names[form], block, 1e3 * ms / reps, ne / (1e-3 * ms / reps),
                  form > 0 ? diff / scale : 0.0);
    }
  }
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 63;
  run<double>(n);
  run<float>(n);
  return 0;
}
