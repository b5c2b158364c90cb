#include "backends/cpu_backend.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/threads.hpp"
#include "core/forall.hpp"
#include "discretization/beam_pass.hpp"
#include "discretization/continuum_pass.hpp"
#include "dynamics/shell_pass.hpp"
#include "dynamics/tri_pass.hpp"
#include "elements/mitc4.hpp"
#include "parallel/halo_sum.hpp"
#include "dynamics/node_integrator.hpp"
#include "dynamics/constraint_pass.hpp"
#include "dynamics/rigid_body.hpp"
#include "dynamics/contact_pass.hpp"

namespace halfstep {
namespace {

/// Counting sort of items 0 .. key.size() into the broad phase's buckets: key[i] is item i's
/// bucket (-1: left out); start gets buckets + 1 offsets and items the item indices bucket
/// by bucket, in item order within a bucket (deterministic).
void place_in_buckets(const std::vector<int>& key, int buckets, std::vector<int>& start, std::vector<int>& items) {
  start.assign(static_cast<std::size_t>(buckets) + 1, 0);
  for (int b : key)
    if (b >= 0) ++start[static_cast<std::size_t>(b) + 1];
  for (int b = 0; b < buckets; ++b) start[b + 1] += start[b];
  items.resize(key.size());
  std::vector<int> fill(start.begin(), start.end() - 1);
  for (std::size_t i = 0; i < key.size(); ++i)
    if (key[i] >= 0) items[static_cast<std::size_t>(fill[static_cast<std::size_t>(key[i])]++)] = static_cast<int>(i);
}

}  // namespace

CpuBackend::CpuBackend(const StructureSystem& sys, const BackendOptions& opt)
    : sys_(sys), threads_(opt.threads > 0 ? opt.threads : default_threads()),
      monitor_(initial_monitor(sys, opt)), dist_(opt.distributed) {
  if (dist_) {
    const Subdomain& d = *dist_->domain;
    halo_ = std::make_unique<HaloExchange>(*dist_->comm, d.neighbors, message_sizes(d, kHaloValues), false);
    halo_buf_.assign(static_cast<std::size_t>(kHaloValues) * d.num_interface + halo_->total(), 0.0);
    send_buf_.assign(halo_->total(), 0.0);
    halo_total_.assign(static_cast<std::size_t>(kHaloValues) * d.num_interface, 0.0);
  }
}

std::string CpuBackend::description() const {
  return "CPU, OpenMP, " + std::to_string(threads_) + (threads_ == 1 ? " thread" : " threads");
}

double CpuBackend::communication_seconds() const { return halo_ ? halo_->seconds() : 0.0; }

void CpuBackend::download(StructureState& st) {
  const auto r1x = st.r1x, r1y = st.r1y, r1z = st.r1z;  // host-side triad pull-backs stay
  const double time = st.time, h = st.half_dt_prev;
  st = st_;
  st.r1x = r1x;
  st.r1y = r1y;
  st.r1z = r1z;
  st.time = time;
  st.half_dt_prev = h;
}

void CpuBackend::begin_step(const StepDrive& drive) {
  drive_ = drive;
  if (drive_.has_pressure()) {
    st_.elem_pressure.assign(12 * static_cast<std::size_t>(sys_.num_elements), 0.0);
    st_.tri_pressure.assign(9 * static_cast<std::size_t>(sys_.tri.num_elements), 0.0);
  } else {
    st_.elem_pressure.clear();
    st_.tri_pressure.clear();
  }
  face_force_.assign(3 * kFaceMaxNodes * static_cast<std::size_t>(drive_.num_faces), 0.0);
}

std::array<double, 2> CpuBackend::shell_forces(int begin, int end, double tau) {
  double sum[2];
  forall_sum<2>(begin, end, threads_,
                ShellElementBody{sys_, st_, host_view(drive_), drive_.has_pressure(), tau, sys_.shell_global_moments()},
                sum);
  return {sum[0], sum[1]};
}

std::array<double, 3> CpuBackend::solid_forces(ElementRange range, double tau) {
  const StructureSystem& sys = sys_;
  if (range != ElementRange::Interior) {
    // Face pressures are few: all of them go with the first range, before any exchange.
    forall(0, drive_.num_faces, threads_,
           FaceForceBody<double>{host_view(drive_), tau, sys.x0.data(), sys.y0.data(), sys.z0.data(), st_.ux.data(),
                                 st_.uy.data(), st_.uz.data(), face_force_.data(), nullptr});
  }
  if (sys.solid.num_elements == 0) return {0.0, 0.0, 0.0};
  // The latest half-station velocities, for the dashpots.
  const double* const vel[3] = {st_.v[0].data(), st_.v[1].data(), st_.v[2].data()};
  const SolidEnergy<double> se =
      continuum_pass(sys.solid, sys.x0.data(), sys.y0.data(), sys.z0.data(), st_.ux.data(), st_.uy.data(),
                     st_.uz.data(), st_.solid_force.data(), st_.solid_energy.data(), st_.solid_hourglass.data(),
                     threads_, range, st_.solid_state.data(), vel);
  return {se.strain + se.hourglass, se.hourglass, se.dissipation};
}

std::array<double, 2> CpuBackend::beam_forces(int begin, int end) {
  const BeamMesh& b = sys_.beam;
  if (end <= begin) return {0.0, 0.0};
  const BeamView<double> v{b.num_elements, b.conn.data(), b.section.data(), b.constants.data(), b.chord0x.data(),
                           b.chord0y.data(), b.chord0z.data(), st_.ux.data(), st_.uy.data(), st_.uz.data(),
                           st_.t1x.data(), st_.t1y.data(), st_.t1z.data(), st_.dx.data(), st_.dy.data(), st_.dz.data(),
                           st_.beam_state.data(), st_.beam_force.data()};
  double sum[2];
  forall_sum<2>(begin, end, threads_, BeamElementBody<double>{v}, sum);
  return {sum[0], sum[1]};
}

std::array<double, 2> CpuBackend::tri_forces(int begin, int end, double tau) {
  const TriMesh& t = sys_.tri;
  if (end <= begin) return {0.0, 0.0};
  const TriView<double> v{t.num_elements, t.conn.data(), t.section.data(), t.constants.data(), t.edge2x.data(),
                          t.edge2y.data(), t.edge2z.data(), t.edge3x.data(), t.edge3y.data(), t.edge3z.data(),
                          st_.ux.data(), st_.uy.data(), st_.uz.data(), st_.t1x.data(), st_.t1y.data(), st_.t1z.data(),
                          st_.dx.data(), st_.dy.data(), st_.dz.data(), st_.tri_state.data(), st_.tri_force.data(),
                          st_.tri_pressure.empty() ? nullptr : st_.tri_pressure.data(), sys_.num_elements};
  double sum[2];
  if (t.any_plastic())
    forall_sum<2>(begin, end, threads_, TriElementBody<double, true>{v, host_view(drive_), tau}, sum);
  else
    forall_sum<2>(begin, end, threads_, TriElementBody<double, false>{v, host_view(drive_), tau}, sum);
  return {sum[0], sum[1]};
}

void CpuBackend::element_pass(double tau, double time) {
  // Strain energy (hourglass and dissipation included), hourglass energy, plastic dissipation.
  double sums[3] = {0, 0, 0};
  const auto add_solid = [&](const std::array<double, 3>& s) {
    for (int i = 0; i < 3; ++i) sums[i] += s[i];
  };
  const auto add = [&](const std::array<double, 2>& s) {  // internal work and its plastic part
    sums[0] += s[0];
    sums[2] += s[1];
  };
  if (!halo_) {
    add(shell_forces(0, sys_.num_elements, tau));
    add_solid(solid_forces(ElementRange::All, tau));
    add(beam_forces(0, sys_.beam.num_elements));
    add(tri_forces(0, sys_.tri.num_elements, tau));
  } else {
    // Elements on the interface first; their nodes' partial sums travel while the
    // interior elements are computed.
    add(shell_forces(0, sys_.boundary_shells, tau));
    add_solid(solid_forces(ElementRange::Boundary, tau));
    add(beam_forces(0, sys_.beam.boundary));
    add(tri_forces(0, sys_.tri.boundary, tau));
    start_exchange();
    add(shell_forces(sys_.boundary_shells, sys_.num_elements, tau));
    add_solid(solid_forces(ElementRange::Interior, tau));
    add(beam_forces(sys_.beam.boundary, sys_.beam.num_elements));
    add(tri_forces(sys_.tri.boundary, sys_.tri.num_elements, tau));
    finish_exchange();
    halo_->sum(sums, 3);
  }
  monitor_element_pass(monitor_, sums[0], time, sums[1], sums[2]);
}

void CpuBackend::local_forces(int n, double fi[6], double fp[3], bool contact) const {
  // A fixed order over the node's slots: deterministic sums.
  const StructureSystem& sys = sys_;
  const StructureState& st = st_;
  for (int d = 0; d < kMaxNodeDofs; ++d) fi[d] = 0.0;
  for (int d = 0; d < 3; ++d) fp[d] = 0.0;
  const bool have_pressure = !st.elem_pressure.empty();
  const int per_corner = sys.shell_corner_values();  // 5, or 6 with global moments
  for (int i = sys.node_slot_ptr[n]; i < sys.node_slot_ptr[n + 1]; ++i) {
    const int slot = sys.node_slots[i];
    const double* f = &st.elem_force[per_corner * static_cast<std::size_t>(slot)];
    for (int d = 0; d < per_corner; ++d) fi[d] += f[d];
    if (have_pressure) {
      const double* p = &st.elem_pressure[3 * slot];
      fp[0] += p[0];
      fp[1] += p[1];
      fp[2] += p[2];
    }
  }
  if (drive_.num_faces > 0) {
    const DriveView dv = host_view(drive_);
    gather_face_forces(dv, face_force_.data(), n, fp);
  }
  if (sys.solid.num_elements > 0)
    add_slot_forces3(sys.solid.node_slot_ptr.data(), sys.solid.node_slots.data(), st.solid_force.data(), n, fi);
  if (contact && !st.contact_normal.empty())  // contact forces act like internal ones: no external work
    for (int d = 0; d < 3; ++d) fi[d] -= st.contact_normal[3 * n + d] + st.contact_shear[3 * n + d];
  if (sys.beam.num_elements > 0)
    add_slot_forces6(sys.beam.node_slot_ptr.data(), sys.beam.node_slots.data(), st.beam_force.data(), n, fi);
  if (sys.tri.num_elements > 0) {
    add_slot_forces6(sys.tri.node_slot_ptr.data(), sys.tri.node_slots.data(), st.tri_force.data(), n, fi);
    if (!st.tri_pressure.empty())
      add_slot_forces3(sys.tri.node_slot_ptr.data(), sys.tri.node_slots.data(), st.tri_pressure.data(), n, fp);
  }
}

void CpuBackend::start_exchange() {
  const Subdomain& d = *dist_->domain;
  const int nif = d.num_interface;
  double* own = halo_buf_.data();
#pragma omp parallel for num_threads(threads_for(nif, threads_)) schedule(static)
  for (int k = 0; k < nif; ++k) {
    double fi[kMaxNodeDofs], fp[3];
    // Without contact: every holder adds a shared node's whole contact force itself (node_pass).
    local_forces(k, fi, fp, false);
    for (int d = 0; d < kMaxNodeDofs; ++d) own[kHaloValues * k + d] = fi[d];
    for (int d = 0; d < 3; ++d) own[kHaloValues * k + kHaloPressure + d] = fp[d];
  }
  for (std::size_t i = 0; i < d.send_nodes.size(); ++i)
    for (int c = 0; c < kHaloValues; ++c) send_buf_[kHaloValues * i + c] = own[kHaloValues * d.send_nodes[i] + c];
  halo_->start(send_buf_.data(), own + static_cast<std::size_t>(kHaloValues) * nif);
}

void CpuBackend::finish_exchange() {
  halo_->finish();
  const Subdomain& d = *dist_->domain;
  for (int k = 0; k < d.num_interface; ++k)
    sum_halo_node(d.sum_ptr.data(), d.sum_src.data(), halo_buf_.data(), k, halo_total_.data() + kHaloValues * k);
}

std::array<double, kNumNodeSums> CpuBackend::node_pass(const Increment& inc, bool commit, FullStepFields* full) {
  const StructureSystem& sys = sys_;
  StructureState& st = st_;
  const int nn = sys.num_nodes;
  const int nif = sys.num_interface;  // 0 unless distributed
  const std::uint8_t* owned = sys.owned.empty() ? nullptr : sys.owned.data();
  const DriveView dv = host_view(drive_);
  NodeStateView<double> view{st.ux.data(), st.uy.data(), st.uz.data(), {}, st.dx.data(), st.dy.data(), st.dz.data(),
                             st.t1x.data(), st.t1y.data(), st.t1z.data()};
  for (int d = 0; d < kMaxNodeDofs; ++d) view.v[d] = st.v[d].data();
  const LinearConstraints& lc = sys.constraints;
  const bool constrained = !lc.empty();
  const RigidBodies& rb = sys.bodies;
  const bool bodies = !rb.empty();
  const NodeConstView<double> cv{sys.mass.data(), sys.inertia.data(), sys.damp.data(), sys.damp_rot.data(),
                                 constrained ? lc.mass3.data() : nullptr,
                                 constrained && !lc.inertia3.empty() ? lc.inertia3.data() : nullptr};
  const HalfSteps<double> h{inc.h_prev, 0.5 * inc.dt_next};
  const int dofs = sys.node_dofs;  // 3 (continuum only), 5 (shells) or 6 (beams), for every node
  ConstraintView<double> cview{};
  if (constrained) {
    // The dependent dofs' forces first: their independent nodes gather them below.
    dep_force_.resize(2 * static_cast<std::size_t>(lc.num_dependent));
    cview = {lc.num_dependent,      lc.dep_node.data(),       lc.dep_dof.data(),  lc.term_ptr.data(),
             lc.term_node.data(),   lc.term_dof.data(),       lc.term_weight.data(), lc.dependent.data(),
             lc.recv_ptr.data(),    lc.recv_dependent.data(), lc.recv_dof.data(), lc.recv_weight.data(),
             dep_force_.data(),     static_cast<int>(lc.rot_node.size()), lc.rot_node.data()};
#pragma omp parallel for num_threads(threads_for(lc.num_dependent, threads_)) schedule(static)
    for (int k = 0; k < lc.num_dependent; ++k) {
      const int n = lc.dep_node[k];
      double fi[kMaxNodeDofs], fp[3];
      local_forces(n, fi, fp);
      NodeDriveValues<double> values;
      const NodeDrive<double> drive = node_drive(dv, n, inc.tau, inc.dt_next, values);
      store_dependent_force(cview, k, fi, fp, drive.load);
    }
  }
  double kinetic = 0, wp = 0, wn = 0, dp = 0, dn = 0;
  int bad = 0;
#pragma omp parallel for num_threads(threads_for(nn, threads_)) schedule(static) reduction(+ : kinetic, wp, wn, dp, dn, bad)
  for (int n = 0; n < nn; ++n) {
    double fi[kMaxNodeDofs], fp[3];
    if (n < nif) {  // shared node: the sum over every rank holding it
      const double* t = &halo_total_[static_cast<std::size_t>(kHaloValues) * n];
      for (int d = 0; d < kMaxNodeDofs; ++d) fi[d] = t[d];
      for (int d = 0; d < 3; ++d) fp[d] = t[kHaloPressure + d];
      if (!st.contact_normal.empty())  // the whole contact force (reduced over the ranks in contact_pass)
        for (int d = 0; d < 3; ++d) fi[d] -= st.contact_normal[3 * n + d] + st.contact_shear[3 * n + d];
    } else {
      local_forces(n, fi, fp);
    }
    NodeDriveValues<double> values;
    NodeDrive<double> drive = node_drive(dv, n, inc.tau, inc.dt_next, values);
    if (constrained) {
      add_received_forces(cview, n, fi, fp);
      drive.skip = lc.dependent[n];
    }
    if (bodies) drive.skip |= rb.skip[n];  // moved by the body pass below
    const NodeUpdateResult<double> r =
        dofs == 6   ? integrate_node<double, 6>(n, fi, fp, dv.held[n], drive, h, commit, view, cv)
        : dofs == 5 ? integrate_node<double, 5>(n, fi, fp, dv.held[n], drive, h, commit, view, cv)
                    : integrate_node<double, 3>(n, fi, fp, dv.held[n], drive, h, commit, view, cv);
    if (!r.finite) ++bad;
    if (!owned || owned[n]) {  // a shared node's energy is counted by one rank
      kinetic += r.kinetic;
      wp += r.work_prev;
      wn += r.work_next;
      dp += r.damp_prev;
      dn += r.damp_next;
    }
    if (full) {
      double out[12];
      full_step_output(r, out);
      for (int i = 0; i < 6; ++i) {
        full->v[i][n] = out[i];
        full->rf[i][n] = out[6 + i];
      }
    }
  }
  if (constrained) {
    // Dependent dofs from their (now integrated) independent ones; no chains, so the terms
    // read only values final above.
    double* v[6];
    for (int d = 0; d < 6; ++d) v[d] = st.v[d].empty() ? nullptr : st.v[d].data();
    double* const u[3] = {st.ux.data(), st.uy.data(), st.uz.data()};
#pragma omp parallel for num_threads(threads_for(lc.num_dependent, threads_)) schedule(static)
    for (int k = 0; k < lc.num_dependent; ++k) {
      if (commit) update_dependent(cview, k, v, u);
      if (full) {
        double* const vf[6] = {full->v[0].data(), full->v[1].data(), full->v[2].data(),
                               full->v[3].data(), full->v[4].data(), full->v[5].data()};
        full->v[lc.dep_dof[k]][lc.dep_node[k]] = dependent_value(cview, k, vf);
      }
    }
    if (commit) {  // frames of the nodes with dependent rotations, from their final w
      const int nr = static_cast<int>(lc.rot_node.size());
#pragma omp parallel for num_threads(threads_for(nr, threads_)) schedule(static)
      for (int i = 0; i < nr; ++i)
        turn_dependent_frame(cview, i, 2 * h.h_next, v, st.dx.data(), st.dy.data(), st.dz.data(), st.t1x.data(),
                             st.t1y.data(), st.t1z.data());
    }
  }
  if (bodies) body_pass(inc, commit, full, kinetic, wp, wn, bad);
  std::array<double, kNumNodeSums> sums{kinetic, wp, wn, dp, dn, static_cast<double>(bad)};
  if (halo_) halo_->sum(sums.data(), kNumNodeSums);
  return sums;
}

void CpuBackend::body_pass(const Increment& inc, bool commit, FullStepFields* full, double& kinetic, double& wp,
                           double& wn, int& bad) {
  const StructureSystem& sys = sys_;
  StructureState& st = st_;
  const RigidBodies& rb = sys.bodies;
  const DriveView dv = host_view(drive_);
  const HalfSteps<double> h{inc.h_prev, 0.5 * inc.dt_next};
  const bool six = sys.node_dofs == 6;
  double k = 0, p = 0, q = 0;
  int nonfinite = 0;
#pragma omp parallel for num_threads(threads_for(rb.num_bodies, threads_)) schedule(static) reduction(+ : k, p, q, nonfinite)
  for (int b = 0; b < rb.num_bodies; ++b) {
    const int r = rb.ref_node[b];
    const auto x_of = [&](int n) { return Vec3<double>{sys.x0[n] + st.ux[n], sys.y0[n] + st.uy[n], sys.z0[n] + st.uz[n]}; };
    const Vec3<double> xr = x_of(r);
    BodyLoads<double> f;
    // Forces and moments of every node of the body about the reference node, at t^n.
    const auto add_node = [&](int n, bool rotates, bool reference) {
      double fi[kMaxNodeDofs], fp[3];
      local_forces(n, fi, fp);
      NodeDriveValues<double> values;
      const NodeDrive<double> drive = node_drive(dv, n, inc.tau, inc.dt_next, values);
      add_body_node(f, x_of(n) - xr, fi, fp, drive, rotates, reference);
    };
    add_node(r, six && sys.has_rotations(r), true);
    for (int i = rb.slave_ptr[b]; i < rb.slave_ptr[b + 1]; ++i) add_node(rb.slave_node[i], rb.slave_rot[i] != 0, false);
    // Held or prescribed translations of the reference node, as integrate_node takes them.
    NodeDriveValues<double> values;
    const NodeDrive<double> drive = node_drive(dv, r, inc.tau, inc.dt_next, values);
    const unsigned held = dv.held[r] & 7u;
    const double u_now[3] = {st.ux[r], st.uy[r], st.uz[r]};
    double imposed[3];
    body_imposed_velocity(held, drive, u_now, h.h_next, imposed);
    double* R = &st.body_rotation[9 * static_cast<std::size_t>(b)];
    const Vec3<double> v_half{st.v[0][r], st.v[1][r], st.v[2][r]}, w_half{st.v[3][r], st.v[4][r], st.v[5][r]};
    const BodyStep<double> s = rigid_body_step(rb.mass[b], &rb.first_moment[3 * static_cast<std::size_t>(b)],
                                               &rb.inertia[9 * static_cast<std::size_t>(b)], R, v_half, w_half, f,
                                               held, imposed, h);
    k += s.kinetic;
    p += s.work_prev;
    q += s.work_next;
    if (!s.finite) ++nonfinite;
    if (full) {  // v^n of every node of the body, the support reaction at the reference node
      const double vr[6] = {s.v_full.x, s.v_full.y, s.v_full.z, s.w_full.x, s.w_full.y, s.w_full.z};
      const double re[3] = {s.reaction.x, s.reaction.y, s.reaction.z};
      for (int d = 0; d < 6; ++d) full->v[d][r] = vr[d];
      for (int d = 0; d < 3; ++d) full->rf[d][r] = re[d];
      for (int i = rb.slave_ptr[b]; i < rb.slave_ptr[b + 1]; ++i) {
        const int n = rb.slave_node[i];
        const Vec3<double> off = mat_vec(R, Vec3<double>{rb.offset[3 * i], rb.offset[3 * i + 1], rb.offset[3 * i + 2]});
        const Vec3<double> v = s.v_full + cross(s.w_full, off);
        full->v[0][n] = v.x, full->v[1][n] = v.y, full->v[2][n] = v.z;
        if (rb.slave_rot[i]) full->v[3][n] = s.w_full.x, full->v[4][n] = s.w_full.y, full->v[5][n] = s.w_full.z;
      }
    }
    if (!commit) continue;
    const double dt = 2 * h.h_next;
    st.v[0][r] = s.v_next.x, st.v[1][r] = s.v_next.y, st.v[2][r] = s.v_next.z;
    st.v[3][r] = s.w_next.x, st.v[4][r] = s.w_next.y, st.v[5][r] = s.w_next.z;
    st.ux[r] += dt * s.v_next.x;
    st.uy[r] += dt * s.v_next.y;
    st.uz[r] += dt * s.v_next.z;
    const Vec3<double> theta = dt * s.w_next;
    turn_rotation(R, theta);
    const auto turn_frame = [&](int n) {
      const Vec3<double> nd = normalized(rotate(theta, Vec3<double>{st.dx[n], st.dy[n], st.dz[n]}));
      Vec3<double> nt = rotate(theta, Vec3<double>{st.t1x[n], st.t1y[n], st.t1z[n]});
      nt = normalized(nt - dot(nt, nd) * nd);
      st.dx[n] = nd.x, st.dy[n] = nd.y, st.dz[n] = nd.z;
      st.t1x[n] = nt.x, st.t1y[n] = nt.y, st.t1z[n] = nt.z;
    };
    if (six && sys.has_rotations(r)) turn_frame(r);
    const Vec3<double> xr_next{sys.x0[r] + st.ux[r], sys.y0[r] + st.uy[r], sys.z0[r] + st.uz[r]};
    for (int i = rb.slave_ptr[b]; i < rb.slave_ptr[b + 1]; ++i) {
      const int n = rb.slave_node[i];
      const Vec3<double> x = xr_next + mat_vec(R, Vec3<double>{rb.offset[3 * i], rb.offset[3 * i + 1], rb.offset[3 * i + 2]});
      const Vec3<double> u{x.x - sys.x0[n], x.y - sys.y0[n], x.z - sys.z0[n]};
      st.v[0][n] = (u.x - st.ux[n]) / dt, st.v[1][n] = (u.y - st.uy[n]) / dt, st.v[2][n] = (u.z - st.uz[n]) / dt;
      st.ux[n] = u.x, st.uy[n] = u.y, st.uz[n] = u.z;
      if (rb.slave_rot[i]) {
        st.v[3][n] = s.w_next.x, st.v[4][n] = s.w_next.y, st.v[5][n] = s.w_next.z;
        turn_frame(n);
      }
    }
  }
  kinetic += k;
  wp += p;
  wn += q;
  bad += nonfinite;
}

void CpuBackend::share_contact_motion(const ContactShare& share) {
  const int nc = share.num_nodes();
  const ContactSystem& cs = sys_.contact;
  const Communicator& comm = *dist_->comm;
  const int ranks = comm.size(), me = comm.rank();
  const StructureState& st = st_;
  const std::uint8_t* held = host_view(drive_).held;
  contact_motion_.assign(6 * static_cast<std::size_t>(nc), 0.0);
  contact_known_.assign(static_cast<std::size_t>(nc), 0);
  contact_held_.assign(static_cast<std::size_t>(nc), 0);
  const double* const from[6] = {st.ux.data(), st.uy.data(), st.uz.data(), st.v[0].data(), st.v[1].data(), st.v[2].data()};
  for (int k = 0; k < nc; ++k) {
    const int l = share.node_local[static_cast<std::size_t>(k)];
    if (l >= 0 && held) contact_held_[static_cast<std::size_t>(k)] = held[l];  // read for this rank's slaves only
    if (!share.fills[static_cast<std::size_t>(k)]) continue;
    for (int j = 0; j < 6; ++j) contact_motion_[static_cast<std::size_t>(j) * nc + k] = from[j][l];
    contact_known_[static_cast<std::size_t>(k)] = 1;
  }
  const auto x_of = [&](int k, int d) {
    const double* x0 = d == 0 ? share.x0.data() : d == 1 ? share.y0.data() : share.z0.data();
    return x0[k] + contact_motion_[static_cast<std::size_t>(d) * nc + k];
  };
  // This rank's search box (its records' slave nodes and its edge records' first nodes,
  // which it owns) and the largest box edges of the facets and feature edges whose nodes it
  // holds (every facet and edge belongs to some rank's element): slot `me` of a sum over the
  // ranks, zeros elsewhere, gives every rank every box exactly.
  constexpr int kBox = 10;  // lowest, highest corner, largest master facet, own facet, edge, edge facet box edge
  std::vector<double> boxes(kBox * static_cast<std::size_t>(ranks), 0.0);
  double* mine = &boxes[kBox * static_cast<std::size_t>(me)];
  for (int d = 0; d < 3; ++d) mine[d] = std::numeric_limits<double>::infinity(), mine[3 + d] = -mine[d];
  const auto widen = [&](int k) {
    for (int d = 0; d < 3; ++d) {
      mine[d] = std::min(mine[d], x_of(k, d));
      mine[3 + d] = std::max(mine[3 + d], x_of(k, d));
    }
  };
  for (int i : share.records) widen(cs.slave_node[static_cast<std::size_t>(i)]);
  for (int e : share.edge_records) widen(cs.edge_nodes[2 * static_cast<std::size_t>(e)]);
  // Box edges of the facets whose corners this rank holds: the master facets (the broad
  // phase's cell follows their largest) and the slaves' own facets (they hold their slave,
  // so their corners lie within their edge of it); likewise of the feature edges (the edge
  // broad phase's cell) and of the facets orienting them.
  const double* const u_local[3] = {st.ux.data(), st.uy.data(), st.uz.data()};
  const auto held_extent = [&](const int* fn, int count = 4) {
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, e = 0;
    for (int c = 0; c < count; ++c) {
      if (fn[c] < 0) continue;
      const int l = share.node_local[static_cast<std::size_t>(fn[c])];
      if (l < 0) return 0.0;  // another rank holds the whole facet
      for (int d = 0; d < 3; ++d) {
        const double* x0 = d == 0 ? share.x0.data() : d == 1 ? share.y0.data() : share.z0.data();
        const double x = x0[fn[c]] + u_local[d][l];
        lo[d] = c == 0 ? x : std::min(lo[d], x);
        hi[d] = c == 0 ? x : std::max(hi[d], x);
      }
    }
    for (int d = 0; d < 3; ++d) e = std::max(e, hi[d] - lo[d]);
    return e;
  };
  double extent = 0, own_extent = 0;
  for (int f = 0; f < cs.num_facets; ++f) extent = std::max(extent, held_extent(&cs.facet_nodes[4 * static_cast<std::size_t>(f)]));
  for (std::size_t j = 0; 4 * j < cs.slave_facet_nodes.size(); ++j)
    own_extent = std::max(own_extent, held_extent(&cs.slave_facet_nodes[4 * j]));
  double edge_extent = 0, edge_facet_extent = 0;
  for (int e = 0; e < cs.num_edges; ++e) {
    edge_extent = std::max(edge_extent, held_extent(&cs.edge_nodes[2 * static_cast<std::size_t>(e)], 2));
    for (int f = 0; f < 2; ++f)
      edge_facet_extent = std::max(edge_facet_extent, held_extent(&cs.edge_facets[8 * static_cast<std::size_t>(e) + 4 * f]));
  }
  mine[6] = extent;
  mine[7] = own_extent;
  mine[8] = edge_extent;
  mine[9] = edge_facet_extent;
  halo_->sum(boxes.data(), static_cast<int>(boxes.size()));
  contact_extent_ = 0;
  contact_edge_extent_ = 0;
  double own_max = 0, edge_facet_max = 0;
  for (int r = 0; r < ranks; ++r) {
    contact_extent_ = std::max(contact_extent_, boxes[kBox * static_cast<std::size_t>(r) + 6]);
    own_max = std::max(own_max, boxes[kBox * static_cast<std::size_t>(r) + 7]);
    contact_edge_extent_ = std::max(contact_edge_extent_, boxes[kBox * static_cast<std::size_t>(r) + 8]);
    edge_facet_max = std::max(edge_facet_max, boxes[kBox * static_cast<std::size_t>(r) + 9]);
  }
  // Ghost surfaces: to each rank, the contact nodes this rank supplies that lie within two
  // broad-phase cells of its box (every corner of a facet one of its slaves can touch lies
  // within extent + reach of the slave, docs/architecture.md) or within the largest own facet
  // (the facing test reads the slaves' own facets), and the analytical surfaces' reference
  // nodes; 7 values per node (index, u, v). With feature edges also within two edge cells,
  // an edge and an edge facet of its edge records' first nodes: every edge an edge record
  // searches (midpoint in a cell next to the record's midpoint's) has its nodes and its
  // facets' corners there, and so has the record itself.
  double margin = std::max(2 * contact_cell_edge(contact_extent_, cs.reach), 1.01 * own_max);
  if (cs.num_edges > 0)
    margin = std::max(margin, 1.01 * (2 * contact_cell_edge(contact_edge_extent_, cs.reach) + contact_edge_extent_ + edge_facet_max));
  std::vector<std::vector<double>> send(static_cast<std::size_t>(ranks));
  for (int q = 0; q < ranks; ++q) {
    if (q == me) continue;
    const double* box = &boxes[kBox * static_cast<std::size_t>(q)];
    if (!(box[0] <= box[3])) continue;  // no records there
    std::vector<double>& out = send[static_cast<std::size_t>(q)];
    const auto put = [&](int k) {
      out.push_back(static_cast<double>(k));
      for (int j = 0; j < 6; ++j) out.push_back(contact_motion_[static_cast<std::size_t>(j) * nc + k]);
    };
    for (int k = 0; k < nc; ++k) {
      if (!share.fills[static_cast<std::size_t>(k)]) continue;
      bool inside = true;
      for (int d = 0; d < 3 && inside; ++d) inside = x_of(k, d) >= box[d] - margin && x_of(k, d) <= box[3 + d] + margin;
      if (inside) put(k);
    }
    for (int k : cs.analytic_ref)
      if (share.fills[static_cast<std::size_t>(k)]) put(k);
  }
  const std::vector<std::vector<double>> recv = comm.exchange(send);
  for (int q = 0; q < ranks; ++q) {
    if (q == me) continue;
    const std::vector<double>& in = recv[static_cast<std::size_t>(q)];
    for (std::size_t at = 0; at + 7 <= in.size(); at += 7) {
      const int k = static_cast<int>(in[at]);
      for (int j = 0; j < 6; ++j) contact_motion_[static_cast<std::size_t>(j) * nc + k] = in[at + 1 + j];
      contact_known_[static_cast<std::size_t>(k)] = 1;
    }
  }
  // The facing test reads the slaves' own facets: their corners must all be here (the margin
  // covers them); a gap would be a bug in the margin, not bad input.
  for (int i : share.records)
    for (int j = 4 * cs.slave_facet_ptr[static_cast<std::size_t>(i)]; j < 4 * cs.slave_facet_ptr[static_cast<std::size_t>(i) + 1]; ++j) {
      const int k = cs.slave_facet_nodes[static_cast<std::size_t>(j)];
      if (k >= 0 && !contact_known_[static_cast<std::size_t>(k)])
        throw std::logic_error("distributed contact: a slave's own facet corner did not arrive");
    }
  // Likewise an edge record's nodes and its facets' corners.
  for (int e : share.edge_records) {
    bool known = true;
    for (int k = 0; k < 2; ++k) known = known && contact_known_[static_cast<std::size_t>(cs.edge_nodes[2 * static_cast<std::size_t>(e) + k])];
    for (int k = 0; k < 8; ++k) {
      const int n = cs.edge_facets[8 * static_cast<std::size_t>(e) + k];
      known = known && (n < 0 || contact_known_[static_cast<std::size_t>(n)]);
    }
    if (!known) throw std::logic_error("distributed contact: a node of an edge record or of its facets did not arrive");
  }
}

void CpuBackend::contact_pass(const Increment& inc, bool commit) {
  const ContactSystem& cs = sys_.contact;  // distributed: numbered by contact nodes (ContactShare)
  StructureState& st = st_;
  const int nf = cs.num_facets, ns = cs.num_slaves;
  const ContactShare* share = dist_ && !dist_->domain->contact.node_global.empty() ? &dist_->domain->contact : nullptr;
  // Where the pass reads the nodes: this process's arrays, or (distributed) every contact
  // node's motion gathered from the ranks owning them.
  const double *x0 = sys_.x0.data(), *y0 = sys_.y0.data(), *z0 = sys_.z0.data(), *mass = sys_.mass.data();
  const double* u[3] = {st.ux.data(), st.uy.data(), st.uz.data()};
  const double* vel[3] = {st.v[0].data(), st.v[1].data(), st.v[2].data()};
  const std::uint8_t* held = host_view(drive_).held;
  int nc = sys_.num_nodes;
  if (share) {
    share_contact_motion(*share);
    nc = share->num_nodes();
    x0 = share->x0.data(), y0 = share->y0.data(), z0 = share->z0.data(), mass = share->mass.data();
    for (int j = 0; j < 3; ++j) {
      u[j] = contact_motion_.data() + static_cast<std::size_t>(j) * nc;
      vel[j] = contact_motion_.data() + static_cast<std::size_t>(3 + j) * nc;
    }
    held = held ? contact_held_.data() : nullptr;
  }
  // The penalty follows the stable increment estimate, not the increment in use: a step's
  // shorter last increment must not stiffen the springs (their energy would jump).
  const double dt = sys_.stable_dt;
  ContactView<double> c{x0,
                        y0,
                        z0,
                        u[0],
                        u[1],
                        u[2],
                        {vel[0], vel[1], vel[2]},
                        mass,
                        ns,
                        cs.facet_nodes.data(),
                        cs.facet_pair.data(),
                        cs.facet_offset.data(),
                        cs.facet_depth.data(),
                        cs.facet_two_sided.data(),
                        cs.slave_node.data(),
                        cs.slave_pair.data(),
                        cs.slave_offset.data(),
                        cs.spring_mass.data(),
                        cs.slave_facet_ptr.data(),
                        cs.slave_facet_nodes.data(),
                        cs.mu_static.data(),
                        cs.mu_kinetic.data(),
                        cs.decay.data(),
                        cs.self.data(),
                        cs.mirrored.data(),
                        held,
                        sys_.bodies.skip.empty() ? nullptr : sys_.bodies.skip.data(),
                        dt > 0 ? cs.penalty_scale * kContactPenaltyFraction / (dt * dt) : 0.0,
                        2 * inc.h_prev,
                        {},
                        st.contact_history.data(),
                        nullptr,
                        nullptr,
                        nullptr,
                        commit,
                        analytic_view(cs),
                        cs.near_ptr.data(),
                        cs.near_nodes.empty() ? nullptr : cs.near_nodes.data()};
  // Broad phase: facets by the cell of their box centre, in facet order within a bucket.
  // Each facet's plane once (the narrow phase's cheap rejection reads it; distributed: only
  // the searched facets' are read).
  facet_geom_.resize(static_cast<std::size_t>(kFacetGeom) * nf);
  c.facet_geom = facet_geom_.data();
  // The per-facet work (corner gathers) runs in parallel; the reductions after it are
  // plain scans in facet order (deterministic).
  facet_extent_.resize(static_cast<std::size_t>(nf));
  forall(0, nf, threads_, [&](int f) {
    facet_extent_[static_cast<std::size_t>(f)] = facet_geometry(c, f, c.facet_geom + static_cast<std::size_t>(kFacetGeom) * f);
  });
  // Distributed: the extent over all facets comes from their holders, and only the facets
  // whose corners all arrived (the ghost surface near this rank's slaves) are searched.
  double extent = share ? contact_extent_ : 0.0;
  if (!share)
    for (int f = 0; f < nf; ++f) extent = std::max(extent, facet_extent_[static_cast<std::size_t>(f)]);
  const auto searched = [&](int f) {
    if (!share) return true;
    for (int k = 0; k < 4; ++k) {
      const int n = cs.facet_nodes[4 * static_cast<std::size_t>(f) + k];
      if (n >= 0 && !contact_known_[static_cast<std::size_t>(n)]) return false;
    }
    return true;
  };
  int buckets = 1;
  while (buckets < 2 * nf) buckets *= 2;
  const double cell = contact_cell_edge(extent, cs.reach);
  facet_bucket_.resize(static_cast<std::size_t>(nf));
  forall(0, nf, threads_, [&](int f) { facet_bucket_[f] = searched(f) ? facet_bucket(c, f, cell, buckets - 1) : -1; });
  place_in_buckets(facet_bucket_, buckets, bucket_start_, bucket_facets_);
  c.grid = {cell, buckets - 1, bucket_start_.data(), bucket_facets_.data()};
  contact_force_.resize(6 * static_cast<std::size_t>(ns));
  contact_weight_.resize(4 * static_cast<std::size_t>(ns));
  contact_facet_.resize(static_cast<std::size_t>(ns));
  c.force = contact_force_.data();
  c.weight = contact_weight_.data();
  c.facet_of = contact_facet_.data();
  double sums[2];
  const auto add = [](double* a, int k, double v) { a[k] += v; };
  // Edge-to-edge contact: every edge by the cell of its midpoint, then one record per edge
  // (distributed: only the edges whose nodes and facets' corners all arrived are bucketed;
  // every edge an edge record of this rank searches is among them, and the cell follows the
  // largest edge of all ranks, so the choice is the one-process one).
  const int ne = cs.num_edges;
  if (ne > 0) {
    c.num_edges = ne;
    c.edge_nodes = cs.edge_nodes.data();
    c.edge_pair = cs.edge_pair.data();
    c.edge_role = cs.edge_role.data();
    c.edge_facets = cs.edge_facets.data();
    c.edge_offset = cs.edge_offset.data();
    c.edge_depth = cs.edge_depth.data();
    c.edge_spring_mass = cs.edge_spring_mass.data();
    c.edge_near_ptr = cs.edge_near_ptr.data();
    c.edge_near_nodes = cs.edge_near_nodes.empty() ? nullptr : cs.edge_near_nodes.data();
    double edge_len = share ? contact_edge_extent_ : 0.0;
    if (!share)
      for (int e = 0; e < ne; ++e) edge_len = std::max(edge_len, edge_extent(c, e));
    edge_searched_.assign(static_cast<std::size_t>(ne), 1);
    if (share)
      for (int e = 0; e < ne; ++e) {
        std::uint8_t known = 1;
        for (int k = 0; k < 2; ++k) known &= contact_known_[static_cast<std::size_t>(cs.edge_nodes[2 * static_cast<std::size_t>(e) + k])];
        for (int k = 0; k < 8; ++k) {
          const int n = cs.edge_facets[8 * static_cast<std::size_t>(e) + k];
          if (n >= 0) known &= contact_known_[static_cast<std::size_t>(n)];
        }
        edge_searched_[static_cast<std::size_t>(e)] = known;
      }
    int edge_buckets = 1;
    while (edge_buckets < 2 * ne) edge_buckets *= 2;
    const double edge_cell = contact_cell_edge(edge_len, cs.reach);
    edge_bucket_.resize(static_cast<std::size_t>(ne));
    for (int e = 0; e < ne; ++e)
      edge_bucket_[e] = edge_searched_[static_cast<std::size_t>(e)] ? edge_bucket(c, e, edge_cell, edge_buckets - 1) : -1;
    place_in_buckets(edge_bucket_, edge_buckets, edge_start_, edge_list_);
    c.edge_grid = {edge_cell, edge_buckets - 1, edge_start_.data(), edge_list_.data()};
    edge_force_.resize(3 * static_cast<std::size_t>(ne));
    edge_param_.resize(2 * static_cast<std::size_t>(ne));
    edge_of_.resize(static_cast<std::size_t>(ne));
    c.edge_force = edge_force_.data();
    c.edge_param = edge_param_.data();
    c.edge_of = edge_of_.data();
  }
  if (!share) {
    forall_sum<2>(0, ns, threads_, ContactNodeBody<double>{c}, sums);
    if (ne > 0) {
      double edge_sums[2];
      forall_sum<2>(0, ne, threads_, ContactEdgeBody<double>{c}, edge_sums);
      sums[0] += edge_sums[0];
    }
    // Nodal forces in record order: deterministic sums.
    std::fill(st.contact_normal.begin(), st.contact_normal.end(), 0.0);
    std::fill(st.contact_shear.begin(), st.contact_shear.end(), 0.0);
    std::fill(st.contact_pair_force.begin(), st.contact_pair_force.end(), 0.0);
    for (int i = 0; i < ns; ++i)
      scatter_contact(c, i, st.contact_normal.data(), st.contact_shear.data(), st.contact_pair_force.data(), add);
    for (int i = 0; i < ne; ++i) scatter_edge_contact(c, i, st.contact_normal.data(), st.contact_pair_force.data(), add);
    monitor_contact(monitor_, sums[0], sums[1]);
    return;
  }
  // Distributed: this rank computes the records of the slave nodes it owns and the edge
  // records of the edges whose first node it owns, and sends the results of those in contact
  // (force, weights, facet; edges: force, parameters, edge) to every rank holding a node they
  // push. Each rank scatters the records it has in record order, slave records then edge
  // records, as one process does: a node gets every record that pushes it, in the same
  // order, so the same bits on every holder (docs/architecture.md, "Distributed contact").
  // The per-definition totals and the energies are summed per rank in record order, then
  // over the ranks.
  const std::vector<int>& mine = share->records;
  const int nr = static_cast<int>(mine.size());
  const Communicator& comm = *dist_->comm;
  const int ranks = comm.size(), me = comm.rank();
  const ContactNodeBody<double> body{c};
  contact_energy_.assign(2 * static_cast<std::size_t>(nr), 0.0);
  forall(0, nr, threads_, [&](int k) { body(mine[static_cast<std::size_t>(k)], &contact_energy_[2 * static_cast<std::size_t>(k)]); });
  const std::vector<int>& mine_edges = share->edge_records;
  const int ner = ne > 0 ? static_cast<int>(mine_edges.size()) : 0;
  edge_energy_.assign(static_cast<std::size_t>(ner), 0.0);
  if (ner > 0) {
    const ContactEdgeBody<double> edge_body{c};
    forall(0, ner, threads_, [&](int k) { edge_body(mine_edges[static_cast<std::size_t>(k)], &edge_energy_[static_cast<std::size_t>(k)]); });
  }
  const int np = cs.num_pairs;
  contact_reduce_.assign(6 * static_cast<std::size_t>(np) + 2, 0.0);
  double* pair = contact_reduce_.data();
  // record, force 6, weights 4, facet; an edge record: -1 - edge, force 3, parameters 2,
  // 5 unused, edge touched (one message layout, one exchange)
  constexpr int kValues = 12;
  std::vector<std::vector<double>> send(static_cast<std::size_t>(ranks));
  contact_list_.clear();
  std::vector<int> dest;
  const auto add_holders = [&](int node) {
    for (int j = share->holder_ptr[static_cast<std::size_t>(node)]; j < share->holder_ptr[static_cast<std::size_t>(node) + 1]; ++j)
      dest.push_back(share->holders[static_cast<std::size_t>(j)]);
  };
  for (int k = 0; k < nr; ++k) {
    const int i = mine[static_cast<std::size_t>(k)];
    pair[6 * np] += contact_energy_[2 * static_cast<std::size_t>(k)];
    pair[6 * np + 1] += contact_energy_[2 * static_cast<std::size_t>(k) + 1];
    const int f = contact_facet_[static_cast<std::size_t>(i)];
    if (f < 0) continue;
    const double* force = &contact_force_[6 * static_cast<std::size_t>(i)];
    for (int j = 0; j < 6; ++j) pair[6 * cs.slave_pair[static_cast<std::size_t>(i)] + j] += force[j];
    dest.clear();
    add_holders(cs.slave_node[static_cast<std::size_t>(i)]);
    if (f >= nf) {
      add_holders(cs.analytic_ref[static_cast<std::size_t>(f - nf)]);
    } else {
      for (int j = 0; j < 4; ++j)
        if (cs.facet_nodes[4 * static_cast<std::size_t>(f) + j] >= 0) add_holders(cs.facet_nodes[4 * static_cast<std::size_t>(f) + j]);
    }
    std::sort(dest.begin(), dest.end());
    dest.erase(std::unique(dest.begin(), dest.end()), dest.end());
    for (int q : dest) {
      if (q == me) {
        contact_list_.push_back(i);
        continue;
      }
      std::vector<double>& out = send[static_cast<std::size_t>(q)];
      out.push_back(static_cast<double>(i));
      out.insert(out.end(), force, force + 6);
      for (int j = 0; j < 4; ++j) out.push_back(contact_weight_[4 * static_cast<std::size_t>(i) + j]);
      out.push_back(static_cast<double>(f));
    }
  }
  edge_list_mine_.clear();
  for (int k = 0; k < ner; ++k) {
    const int e = mine_edges[static_cast<std::size_t>(k)];
    pair[6 * np] += edge_energy_[static_cast<std::size_t>(k)];
    const int j = edge_of_[static_cast<std::size_t>(e)];
    if (j < 0) continue;
    const double* force = &edge_force_[3 * static_cast<std::size_t>(e)];
    for (int d = 0; d < 3; ++d) pair[6 * cs.edge_pair[static_cast<std::size_t>(e)] + d] += force[d];
    dest.clear();
    for (int m = 0; m < 2; ++m) {
      add_holders(cs.edge_nodes[2 * static_cast<std::size_t>(e) + m]);
      add_holders(cs.edge_nodes[2 * static_cast<std::size_t>(j) + m]);
    }
    std::sort(dest.begin(), dest.end());
    dest.erase(std::unique(dest.begin(), dest.end()), dest.end());
    for (int q : dest) {
      if (q == me) {
        edge_list_mine_.push_back(e);
        continue;
      }
      std::vector<double>& out = send[static_cast<std::size_t>(q)];
      out.push_back(-1.0 - e);
      out.insert(out.end(), force, force + 3);
      out.push_back(edge_param_[2 * static_cast<std::size_t>(e)]);
      out.push_back(edge_param_[2 * static_cast<std::size_t>(e) + 1]);
      out.insert(out.end(), 5, 0.0);
      out.push_back(static_cast<double>(j));
    }
  }
  const std::vector<std::vector<double>> recv = comm.exchange(send);
  for (int q = 0; q < ranks; ++q) {
    if (q == me) continue;
    const std::vector<double>& in = recv[static_cast<std::size_t>(q)];
    for (std::size_t at = 0; at + kValues <= in.size(); at += kValues) {
      if (in[at] < 0) {
        const int e = -1 - static_cast<int>(in[at]);
        for (int d = 0; d < 3; ++d) edge_force_[3 * static_cast<std::size_t>(e) + d] = in[at + 1 + d];
        edge_param_[2 * static_cast<std::size_t>(e)] = in[at + 4];
        edge_param_[2 * static_cast<std::size_t>(e) + 1] = in[at + 5];
        edge_of_[static_cast<std::size_t>(e)] = static_cast<int>(in[at + 11]);
        edge_list_mine_.push_back(e);
        continue;
      }
      const int i = static_cast<int>(in[at]);
      for (int j = 0; j < 6; ++j) contact_force_[6 * static_cast<std::size_t>(i) + j] = in[at + 1 + j];
      for (int j = 0; j < 4; ++j) contact_weight_[4 * static_cast<std::size_t>(i) + j] = in[at + 7 + j];
      contact_facet_[static_cast<std::size_t>(i)] = static_cast<int>(in[at + 11]);
      contact_list_.push_back(i);
    }
  }
  std::sort(contact_list_.begin(), contact_list_.end());
  contact_node_force_.assign(6 * static_cast<std::size_t>(nc), 0.0);
  double* normal = contact_node_force_.data();
  double* shear = normal + 3 * static_cast<std::size_t>(nc);
  contact_pair_scratch_.assign(6 * static_cast<std::size_t>(np), 0.0);  // the totals come from the owners (above)
  for (int i : contact_list_) scatter_contact(c, i, normal, shear, contact_pair_scratch_.data(), add);
  std::sort(edge_list_mine_.begin(), edge_list_mine_.end());
  for (int e : edge_list_mine_) scatter_edge_contact(c, e, normal, contact_pair_scratch_.data(), add);
  std::fill(st.contact_normal.begin(), st.contact_normal.end(), 0.0);
  std::fill(st.contact_shear.begin(), st.contact_shear.end(), 0.0);
  for (int k = 0; k < nc; ++k) {
    const int l = share->node_local[static_cast<std::size_t>(k)];
    if (l < 0) continue;
    for (int d = 0; d < 3; ++d) {
      st.contact_normal[3 * static_cast<std::size_t>(l) + d] = normal[3 * static_cast<std::size_t>(k) + d];
      st.contact_shear[3 * static_cast<std::size_t>(l) + d] = shear[3 * static_cast<std::size_t>(k) + d];
    }
  }
  halo_->sum(pair, 6 * np + 2);
  st.contact_pair_force.assign(pair, pair + 6 * np);
  monitor_contact(monitor_, pair[6 * np], pair[6 * np + 1]);
}

void CpuBackend::advance(const Increment& inc) {
  if (monitor_.status != kRunning) return;
  if (!sys_.contact.empty()) contact_pass(inc, true);
  const auto sums = node_pass(inc, true, nullptr);
  monitor_commit(monitor_, sums.data(), inc.time);
  if (monitor_.status != kRunning) return;
  element_pass(inc.tau + inc.dt_next, inc.time + inc.dt_next);
}

void CpuBackend::sample(const Increment& inc, OutputFrame& frame) {
  frame.full.resize(sys_.num_nodes);
  if (!sys_.contact.empty()) contact_pass(inc, false);
  const auto sums = node_pass(inc, false, &frame.full);
  monitor_sample(monitor_, sums.data(), inc.time);
  frame.record = monitor_.record;
  frame.discard = monitor_.status != kRunning;
  copy_output_fields(st_, frame.state, frame.field || frame.print);
  frame.state.time = inc.time;
}

}  // namespace halfstep
