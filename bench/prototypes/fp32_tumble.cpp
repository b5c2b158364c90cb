// Diagnostic (issue 21, FP32 accuracy): the explicit MITC4 loop of a pure-shell model on the
// host with the element pass in precision TE and the node state in precision TS, the same
// host/device functions the GPU's FP32 build runs (mitc4_internal_force, integrate_node),
// reduced to what a free tumbling plate needs (no loads, supports or output). Prints the
// total energy's largest departure from the initial kinetic energy; relative=1 hands the
// element displacements relative to its corner 0, formed from the remainders as the GPU's
// strain_displacement does. Not part of the build (docs/performance.md, "FP32 on a tumbling
// plate", has its table):
//   g++ -O2 -std=c++20 -fopenmp -I src bench/prototypes/fp32_tumble.cpp -o fp32_tumble \
//       build-cpu/libhalfstep_lib.a -lcholmod   (-lcholmod where the build found CHOLMOD)
//   ./fp32_tumble DECK OMEGA CX CY CZ AX AY AZ T_END [te=f|d] [ts=f|d] [rem=0|1] [relative=0|1]
// e.g. the plate of tests/gpu/test_gpu_fp32_tumbling.cpp: DECK 20 0.5 0.5 0 1 2 3 0.3 f f 1 1
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "discretization/nodal_triads.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "dynamics/node_integrator.hpp"
#include "elements/mitc4.hpp"
#include "io/inp_reader.hpp"

using namespace halfstep;

template <class TE, class TS>
void run(const StructureSystem& sys, const StructureState& st0, Vec3<double> omega, Vec3<double> centre, double t_end,
         bool with_rem, bool relative) {
  const int nn = sys.num_nodes, ne = sys.num_elements;
  std::vector<TS> ux(nn, 0), uy(nn, 0), uz(nn, 0), dx(nn), dy(nn), dz(nn), t1x(nn), t1y(nn), t1z(nn), mass(nn), inertia(nn);
  std::vector<TS> v[6], rem[6];
  for (auto& a : v) a.assign(nn, 0);
  for (auto& a : rem) a.assign(nn, 0);
  for (int n = 0; n < nn; ++n) {
    dx[n] = TS(st0.dx[n]); dy[n] = TS(st0.dy[n]); dz[n] = TS(st0.dz[n]);
    rem[3][n] = TS(st0.dx[n] - double(dx[n])); rem[4][n] = TS(st0.dy[n] - double(dy[n])); rem[5][n] = TS(st0.dz[n] - double(dz[n]));
    t1x[n] = TS(st0.t1x[n]); t1y[n] = TS(st0.t1y[n]); t1z[n] = TS(st0.t1z[n]);
    mass[n] = TS(sys.mass[n]); inertia[n] = TS(sys.inertia[n]);
    const Vec3<double> r{sys.x0[n] - centre.x, sys.y0[n] - centre.y, sys.z0[n] - centre.z};
    const Vec3<double> vel = cross(omega, r);
    v[0][n] = TS(vel.x); v[1][n] = TS(vel.y); v[2][n] = TS(vel.z);
    const Vec3<double> t1{st0.t1x[n], st0.t1y[n], st0.t1z[n]}, d{st0.dx[n], st0.dy[n], st0.dz[n]};
    v[3][n] = TS(dot(omega, t1)); v[4][n] = TS(dot(omega, cross(d, t1)));
  }
  NodeStateView<TS> s{ux.data(), uy.data(), uz.data(), {v[0].data(), v[1].data(), v[2].data(), v[3].data(), v[4].data(), v[5].data()},
                      dx.data(), dy.data(), dz.data(), t1x.data(), t1y.data(), t1z.data()};
  if (with_rem) for (int i = 0; i < 6; ++i) s.rem[i] = rem[i].data();
  const NodeConstView<TS> c{mass.data(), inertia.data(), nullptr, nullptr};
  std::vector<TS> slot(20 * std::size_t(ne));
  std::vector<double> energy(ne);
  const double dt = 0.9 * sys.stable_dt;
  const long steps = std::lround(t_end / dt);
  double k0 = -1, worst = 0, last_total = 0, last_internal = 0;
  for (long i = 0; i <= steps; ++i) {
    // element pass in TE
#pragma omp parallel for
    for (int e = 0; e < ne; ++e) {
      Mitc4Nodes<TE> nodes;
      for (int k = 0; k < 4; ++k) {
        const int n = sys.conn[4 * e + k];
        nodes.X[k] = {TE(sys.x0[n]), TE(sys.y0[n]), TE(sys.z0[n])};
        if (relative) {  // displacements relative to corner 0, from the compensated pairs
          const int n0 = sys.conn[4 * e];
          nodes.u[k] = {TE((ux[n] - ux[n0]) + (rem[0][n] - rem[0][n0])), TE((uy[n] - uy[n0]) + (rem[1][n] - rem[1][n0])),
                        TE((uz[n] - uz[n0]) + (rem[2][n] - rem[2][n0]))};
        } else {
          nodes.u[k] = {TE(ux[n]), TE(uy[n]), TE(uz[n])};
        }
        nodes.V0[k] = {TE(sys.dir0x[n]), TE(sys.dir0y[n]), TE(sys.dir0z[n])};
        nodes.v[k] = {TE(dx[n]), TE(dy[n]), TE(dz[n])};
      }
      const SectionProps& sec = sys.sections[sys.section[e]];
      const TE a = TE(sec.thickness);
      Mitc4Ref<TE> ref;
      mitc4_reference(nodes.X, nodes.V0, a, ref);
      Vec3<TE> f[4], gv[4];
      const ShellElastic<TE> el = ShellElastic<TE>::from(sec.youngs, sec.poisson);
      energy[e] = double(mitc4_internal_force(ref, nodes, a, el, f, gv));
      for (int k = 0; k < 4; ++k) {
        const int n = sys.conn[4 * e + k];
        TE gen[5];
        mitc4_corner_generalized_force(f[k], gv[k], nodes.v[k], Vec3<TE>{TE(t1x[n]), TE(t1y[n]), TE(t1z[n])}, gen);
        for (int j = 0; j < 5; ++j) slot[20 * std::size_t(e) + 5 * k + j] = TS(gen[j]);
      }
    }
    double kinetic = 0;
    const HalfSteps<TS> h{i == 0 ? TS(0) : TS(0.5 * dt), TS(0.5 * dt)};
    const NodeDrive<TS> drive;
#pragma omp parallel for reduction(+ : kinetic)
    for (int n = 0; n < nn; ++n) {
      TS fi[5] = {0, 0, 0, 0, 0};
      const TS fp[3] = {0, 0, 0};
      for (int q = sys.node_slot_ptr[n]; q < sys.node_slot_ptr[n + 1]; ++q)
        for (int j = 0; j < 5; ++j) fi[j] += slot[5 * std::size_t(sys.node_slots[q]) + j];
      const NodeUpdateResult<TS> r = integrate_node<TS, 5>(n, fi, fp, 0, drive, h, true, s, c);
      kinetic += double(r.kinetic);
    }
    double internal = 0;
    for (double w : energy) internal += w;
    const double total = kinetic + internal;
    if (k0 < 0) k0 = total;
    worst = std::fmax(worst, std::fabs(total - k0));
    last_total = total;
    last_internal = internal;
  }
  std::printf("relative %d, elements %s, state %s, remainders %d: %ld increments, worst |total - k0|/k0 %.3e, final %.3e, internal/k0 %.3e\n",
              int(relative), sizeof(TE) == 4 ? "FP32" : "FP64", sizeof(TS) == 4 ? "FP32" : "FP64", int(with_rem), steps,
              worst / k0, (last_total - k0) / k0, last_internal / k0);
}

int main(int argc, char** argv) {
  if (argc < 10) {
    std::fprintf(stderr, "usage: %s DECK OMEGA CX CY CZ AX AY AZ T_END [te] [ts] [rem]\n", argv[0]);
    return 2;
  }
  const Model model = read_inp(argv[1]);
  const StructureSystem sys = build_structure_system(model);
  StructureState st;
  st.initialize(sys);
  initialize_triads(st);
  const double w = std::atof(argv[2]);
  const Vec3<double> centre{std::atof(argv[3]), std::atof(argv[4]), std::atof(argv[5])};
  Vec3<double> axis{std::atof(argv[6]), std::atof(argv[7]), std::atof(argv[8])};
  axis = (1.0 / std::sqrt(dot(axis, axis))) * axis;
  const double t_end = std::atof(argv[9]);
  const char te = argc > 10 ? argv[10][0] : 'f', ts = argc > 11 ? argv[11][0] : 'f';
  const bool rem = argc > 12 ? std::atoi(argv[12]) != 0 : true;
  const bool relative = argc > 13 ? std::atoi(argv[13]) != 0 : false;
  const Vec3<double> omega = w * axis;
  if (te == 'f' && ts == 'f') run<float, float>(sys, st, omega, centre, t_end, rem, relative);
  if (te == 'd' && ts == 'f') run<double, float>(sys, st, omega, centre, t_end, rem, relative);
  if (te == 'f' && ts == 'd') run<float, double>(sys, st, omega, centre, t_end, false, relative);
  if (te == 'd' && ts == 'd') run<double, double>(sys, st, omega, centre, t_end, false, relative);
  return 0;
}
