#include "backends/cpu_backend.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/permute.hpp"
#include "core/lap_timer.hpp"
#include "core/threads.hpp"
#include "core/forall.hpp"
#include "discretization/element_blocks.hpp"
#include "discretization/continuum_pass.hpp"
#include "elements/mitc4.hpp"
#include "parallel/halo_sum.hpp"
#include "dynamics/node_integrator.hpp"
#include "dynamics/constraint_pass.hpp"
#include "dynamics/rigid_body.hpp"

namespace halfstep {

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

std::string CpuBackend::restart_unsupported() const { return ""; }

// The friction history is in st_; the contact pass's other arrays are rebuilt at every pass.
// Distributed runs save each rank's part alike (the solver joins them in one file).
// The node, contact, constraint and body passes read the masses from sys_ itself: nothing to
// copy, only the energy to book (a distributed run's sys_ holds the whole model's masses of
// its nodes, and added_kinetic is the sum over the ranks already).
void CpuBackend::update_masses(const StructureSystem& sys, double added_kinetic) {
  if (&sys != &sys_) throw std::logic_error("update_masses: only the system the backend runs");
  monitor_mass_change(monitor_, added_kinetic);
}

void CpuBackend::save_restart(RestartBlob& blob) {
  if (!restart_unsupported().empty()) throw RunError(restart_unsupported());
  save_state(st_, "backend.", blob);
  blob.put_value("backend.monitor", monitor_);
  blob.put_vector("backend.face_force", face_force_);
  blob.put_vector("backend.dep_force", dep_force_);
  // Distributed: the interface nodes' forces summed over the ranks in the latest element pass
  // (the next node pass reads them; the neighbours' parts are not in st_).
  blob.put_view("backend.halo_total", halo_total_);
}

void CpuBackend::load_restart(const RestartBlob& blob) {
  if (!restart_unsupported().empty()) throw RunError(restart_unsupported());
  load_state(blob, "backend.", st_);
  monitor_ = blob.get_value<EnergyMonitor>("backend.monitor");
  blob.get_finite_vector("backend.face_force", face_force_, static_cast<long long>(face_force_.size()));
  blob.get_finite_vector("backend.dep_force", dep_force_);
  blob.get_finite_vector("backend.halo_total", halo_total_, static_cast<long long>(halo_total_.size()));
}

void CpuBackend::begin_step(const StepDrive& drive) {
  drive_ = drive;
  for (const BlockFamily* f : block_families()) f->begin_step(sys_, st_, drive_.has_pressure());
  face_force_.assign(3 * kFaceMaxNodes * static_cast<std::size_t>(drive_.num_faces), 0.0);
}

void CpuBackend::element_forces(ElementRange range, double tau, double half_dt, double sums[kElementSumCount]) {
  const StructureSystem& sys = sys_;
  if (range != ElementRange::Interior) {
    // Face pressures are few: all of them go with the first range, before any exchange.
    forall(0, drive_.num_faces, threads_,
           FaceForceBody<double>{host_view(drive_), tau, sys.x0.data(), sys.y0.data(), sys.z0.data(), st_.ux.data(),
                                 st_.uy.data(), st_.uz.data(), face_force_.data(), nullptr});
  }
  const HostPass pass{sys_, st_, host_view(drive_), drive_.has_pressure(), tau, threads_, half_dt};
  for (const BlockFamily* f : block_families()) {
    const ElementSums s = f->host_forces(pass, range);
    for (int i = 0; i < kElementSumCount; ++i) sums[i] += s[i];
  }
}

std::vector<std::pair<std::string, double>> CpuBackend::phase_seconds() const {
  if (!halo_) return {};
  static const char* names[kNumPhases] = {"contact",         "node_pass",       "node_reductions",
                                          "interface_elements", "pack_and_send", "interior_elements",
                                          "exchange_wait",   "interface_sum",   "energy_reductions"};
  std::vector<std::pair<std::string, double>> out;
  for (int i = 0; i < kNumPhases; ++i) out.emplace_back(names[i], phase_[i]);
  return out;
}

void CpuBackend::element_pass(double tau, double time, double half_dt) {
  // Strain energy (hourglass and dissipation included), hourglass energy, plastic dissipation,
  // bulk viscosity power, thermal work (ElementSums).
  double sums[kElementSumCount] = {0, 0, 0, 0, 0};
  if (!halo_) {
    element_forces(ElementRange::All, tau, half_dt, sums);
  } else {
    // Elements on the interface first; their nodes' partial sums travel while the
    // interior elements are computed.
    LapTimer lap;
    element_forces(ElementRange::Boundary, tau, half_dt, sums);
    phase_[kInterfaceElements] += lap();
    start_exchange();
    phase_[kPack] += lap();
    element_forces(ElementRange::Interior, tau, half_dt, sums);
    phase_[kInteriorElements] += lap();
    halo_->finish();
    phase_[kWait] += lap();
    finish_exchange();
    phase_[kInterfaceSum] += lap();
    halo_->sum(sums, kElementSumCount);
    phase_[kEnergySums] += lap();
  }
  monitor_element_pass(monitor_, sums[0], time, sums[1], sums[2], sums[3], sums[4]);
}

void CpuBackend::local_forces(int n, double fi[6], double fp[3], bool contact) const {
  // A fixed order over the families and each node's slots (the GPU node pass's order:
  // elements, then face pressures, then contact): deterministic sums.
  const StructureState& st = st_;
  for (int d = 0; d < kMaxNodeDofs; ++d) fi[d] = 0.0;
  for (int d = 0; d < 3; ++d) fp[d] = 0.0;
  for (const BlockFamily* f : block_families()) f->gather(sys_, st, n, fi, fp);
  if (drive_.num_faces > 0) {
    const DriveView dv = host_view(drive_);
    gather_face_forces(dv, face_force_.data(), n, fp);
  }
  if (contact && !st.contact_normal.empty())  // contact forces act like internal ones: no external work
    for (int d = 0; d < 3; ++d) fi[d] -= st.contact_normal[3 * n + d] + st.contact_shear[3 * n + d];
}

void CpuBackend::node_forces(int n, double fi[6], double fp[3]) const {
  if (n >= sys_.num_interface) {
    local_forces(n, fi, fp);
    return;
  }
  const StructureState& st = st_;
  const double* t = &halo_total_[static_cast<std::size_t>(kHaloValues) * n];
  for (int d = 0; d < kMaxNodeDofs; ++d) fi[d] = t[d];
  for (int d = 0; d < 3; ++d) fp[d] = t[kHaloPressure + d];
  if (!st.contact_normal.empty())  // the whole contact force (reduced over the ranks in contact_pass)
    for (int d = 0; d < 3; ++d) fi[d] -= st.contact_normal[3 * n + d] + st.contact_shear[3 * n + d];
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
  const Subdomain& d = *dist_->domain;
  for (int k = 0; k < d.num_interface; ++k)
    sum_halo_node(d.sum_ptr.data(), d.sum_src.data(), halo_buf_.data(), k, halo_total_.data() + kHaloValues * k);
}

std::array<double, kNumNodeSums> CpuBackend::node_pass(const Increment& inc, bool commit, FullStepFields* full,
                                                       const int* row) {
  LapTimer node_lap;
  const StructureSystem& sys = sys_;
  StructureState& st = st_;
  const int nn = sys.num_nodes;
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
      node_forces(n, fi, fp);
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
    node_forces(n, fi, fp);  // a shared node: the sum over every rank holding it
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
    const int at = row ? row[n] : n;
    if (full && at >= 0) {
      double out[kFullStepValues];
      full_step_output(r, out);
      for (int i = 0; i < 6; ++i) {
        full->v[i][at] = out[i];
        full->rf[i][at] = out[6 + i];
        full->a[i][at] = out[12 + i];
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
      const int at = row ? row[lc.dep_node[k]] : lc.dep_node[k];
      if (full && at >= 0) {
        double* const vf[6] = {full->v[0].data(), full->v[1].data(), full->v[2].data(),
                               full->v[3].data(), full->v[4].data(), full->v[5].data()};
        double* const af[6] = {full->a[0].data(), full->a[1].data(), full->a[2].data(),
                               full->a[3].data(), full->a[4].data(), full->a[5].data()};
        full->v[lc.dep_dof[k]][at] = row ? dependent_value(cview, k, vf, row) : dependent_value(cview, k, vf);
        full->a[lc.dep_dof[k]][at] = row ? dependent_value(cview, k, af, row) : dependent_value(cview, k, af);
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
  if (bodies) body_pass(inc, commit, full, row, kinetic, wp, wn, bad);
  std::array<double, kNumNodeSums> sums{kinetic, wp, wn, dp, dn, static_cast<double>(bad)};
  if (halo_) {
    phase_[kNodes] += node_lap();
    halo_->sum(sums.data(), kNumNodeSums);
    phase_[kNodeSums] += node_lap();
  }
  return sums;
}

void CpuBackend::body_pass(const Increment& inc, bool commit, FullStepFields* full, const int* row, double& kinetic,
                           double& wp, double& wn, int& bad) {
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
      node_forces(n, fi, fp);
      NodeDriveValues<double> values;
      const NodeDrive<double> drive = node_drive(dv, n, inc.tau, inc.dt_next, values);
      add_body_node(f, x_of(n) - xr, fi, fp, drive, rotates, reference);
    };
    add_node(r, six && sys.has_rotations(r), true);
    for (int i = rb.slave_ptr[b]; i < rb.slave_ptr[b + 1]; ++i) add_node(rb.slave_node[i], rb.slave_rot[i] != 0, false);
    // Held or prescribed translations of the reference node, as integrate_node takes them.
    NodeDriveValues<double> values;
    const NodeDrive<double> drive = node_drive(dv, r, inc.tau, inc.dt_next, values);
    const unsigned held = dv.held[r] & 0x3Fu;  // translations, and rotations held at rest
    const double u_now[3] = {st.ux[r], st.uy[r], st.uz[r]};
    double imposed[3];
    body_imposed_velocity(held, drive, u_now, h.h_next, imposed);
    double* R = &st.body_rotation[9 * static_cast<std::size_t>(b)];
    const Vec3<double> v_half{st.v[0][r], st.v[1][r], st.v[2][r]}, w_half{st.v[3][r], st.v[4][r], st.v[5][r]};
    const BodyStep<double> s = rigid_body_step(rb.mass[b], &rb.first_moment[3 * static_cast<std::size_t>(b)],
                                               &rb.inertia[9 * static_cast<std::size_t>(b)], R, v_half, w_half, f,
                                               held, imposed, h);
    if (sys.owned.empty() || sys.owned[static_cast<std::size_t>(r)]) {  // every rank runs the body; one counts it
      k += s.kinetic;
      p += s.work_prev;
      q += s.work_next;
    }
    if (!s.finite) ++nonfinite;
    if (full) {  // v^n of every node of the body, the support reaction at the reference node
      const auto row_of = [row](int n) { return row ? row[n] : n; };
      const double vr[6] = {s.v_full.x, s.v_full.y, s.v_full.z, s.w_full.x, s.w_full.y, s.w_full.z};
      const double re[6] = {s.reaction.x,        s.reaction.y,        s.reaction.z,
                            s.reaction_moment.x, s.reaction_moment.y, s.reaction_moment.z};
      const BodyAcceleration<double> acc = body_acceleration(s, v_half, w_half, h);
      const double ar[6] = {acc.a.x, acc.a.y, acc.a.z, acc.alpha.x, acc.alpha.y, acc.alpha.z};
      if (const int at = row_of(r); at >= 0) {
        for (int d = 0; d < 6; ++d) full->v[d][at] = vr[d], full->a[d][at] = ar[d];
        for (int d = 0; d < 6; ++d) full->rf[d][at] = re[d];
      }
      for (int i = rb.slave_ptr[b]; i < rb.slave_ptr[b + 1]; ++i) {
        const int at = row_of(rb.slave_node[i]);
        if (at < 0) continue;
        const Vec3<double> off = mat_vec(R, Vec3<double>{rb.offset[3 * i], rb.offset[3 * i + 1], rb.offset[3 * i + 2]});
        const Vec3<double> v = s.v_full + cross(s.w_full, off);
        const Vec3<double> a = body_point_acceleration(s, acc, off);
        full->v[0][at] = v.x, full->v[1][at] = v.y, full->v[2][at] = v.z;
        full->a[0][at] = a.x, full->a[1][at] = a.y, full->a[2][at] = a.z;
        if (rb.slave_rot[i]) {
          full->v[3][at] = s.w_full.x, full->v[4][at] = s.w_full.y, full->v[5][at] = s.w_full.z;
          full->a[3][at] = acc.alpha.x, full->a[4][at] = acc.alpha.y, full->a[5][at] = acc.alpha.z;
        }
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

void CpuBackend::contact_pass(const Increment& inc, bool commit) {
  StructureState& st = st_;
  if (!contact_) contact_ = std::make_unique<HostContact>(sys_, dist_, halo_.get(), threads_);
  const HostContactNodes in{{st.ux.data(), st.uy.data(), st.uz.data()},
                            {st.v[0].data(), st.v[1].data(), st.v[2].data()},
                            host_view(drive_).held};
  const std::array<double, 2> energy = contact_->run(
      inc, commit, in,
      {st.contact_history.data(), st.contact_normal.data(), st.contact_shear.data(), st.contact_pair_force.data()});
  monitor_contact(monitor_, energy[0], energy[1]);
}

void CpuBackend::advance(const Increment& inc) {
  if (monitor_.status != kRunning) return;
  LapTimer lap;
  if (!sys_.contact.empty()) contact_pass(inc, true);
  phase_[kContact] += lap();
  const auto sums = node_pass(inc, true, nullptr);
  monitor_commit(monitor_, sums.data(), inc.time);
  if (monitor_.status != kRunning) return;
  element_pass(inc.tau + inc.dt_next, inc.time + inc.dt_next, 0.5 * inc.dt_next);
}

void CpuBackend::sample(const Increment& inc, OutputFrame& frame) {
  if (!sys_.contact.empty()) contact_pass(inc, false);
  if (!frame.nodes) {
    frame.full.resize(sys_.num_nodes);
    const auto sums = node_pass(inc, false, &frame.full);
    monitor_sample(monitor_, sums.data(), inc.time);
    copy_output_fields(st_, frame.state, frame.field || frame.print);
  } else {
    // A history or energy row: the node pass still integrates every node (the energy sums),
    // but writes and copies only the frame's nodes.
    const std::vector<int>& nodes = *frame.nodes;
    const bool none = nodes.empty();  // an energy row: no map (it would be rebuilt every frame)
    if (!none && frame_nodes_ != frame.nodes) {
      frame_row_.assign(static_cast<std::size_t>(sys_.num_nodes), -1);
      for (std::size_t k = 0; k < nodes.size(); ++k) frame_row_[static_cast<std::size_t>(nodes[k])] = static_cast<int>(k);
      frame_nodes_ = frame.nodes;
    }
    frame.full.resize(static_cast<int>(nodes.size()));
    const auto sums = node_pass(inc, false, none ? nullptr : &frame.full, none ? nullptr : frame_row_.data());
    monitor_sample(monitor_, sums.data(), inc.time);
    StructureState& to = frame.state;
    const std::vector<double>* from[9] = {&st_.ux, &st_.uy, &st_.uz, &st_.dx, &st_.dy, &st_.dz, &st_.t1x, &st_.t1y, &st_.t1z};
    std::vector<double>* rows[9] = {&to.ux, &to.uy, &to.uz, &to.dx, &to.dy, &to.dz, &to.t1x, &to.t1y, &to.t1z};
    for (int i = 0; i < 9; ++i) *rows[i] = gathered(*from[i], nodes, 1);
    to.contact_pair_force = st_.contact_pair_force;  // the energy row's contact totals
    to.body_rotation = st_.body_rotation;             // a ROT NODE's output (output_fields)
  }
  frame.record = monitor_.record;
  frame.discard = monitor_.status != kRunning;
  frame.state.time = inc.time;
}

}  // namespace halfstep
