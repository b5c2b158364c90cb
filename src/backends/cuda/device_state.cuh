// The CUDA backend's state to and from the host: upload and download of a StructureState,
// the list of the device arrays restart files hold (save and load walk the same list), and
// the staging of output frames. CudaBackend's members, included by cuda_backend.cu after the
// class (the class and its headers come from there).
#pragma once

namespace halfstep {
namespace {

/// Nine state rows of the staging area, component-major: u (3), director (3), t1 (3), of
/// count nodes: row k of node list[k] (a compact frame's nodes), or of node k without list.
/// With by_slot (element-local scheme) the state is read from each node's first slot.
template <class T>
__global__ void stage_state_kernel(cuda::MeshView<T> m, NodeStateView<T> s, bool by_slot, const int* list, int count,
                                   T* out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const int n = list ? list[k] : k;
  const T* src[9] = {s.ux, s.uy, s.uz, s.dx, s.dy, s.dz, s.t1x, s.t1y, s.t1z};
  const bool used = !by_slot || m.slot_ptr[n + 1] > m.slot_ptr[n];
  const int at = !by_slot ? n : (used ? m.slots[m.slot_ptr[n]] : 0);
  for (int i = 0; i < 9; ++i) out[static_cast<std::size_t>(i) * count + k] = used ? src[i][at] : T(0);
}

template <class T>
void CudaBackend<T>::upload(const StructureState& st) {
  sync("before upload");
  const std::vector<double>* src[15] = {&st.ux, &st.uy, &st.uz, &st.v[0], &st.v[1], &st.v[2], &st.v[3], &st.v[4],
                                        &st.dx, &st.dy, &st.dz, &st.t1x, &st.t1y, &st.t1z, &st.v[5]};
  DeviceArray<T>* dst[15] = {&ux_, &uy_, &uz_, &v_[0], &v_[1], &v_[2], &v_[3], &v_[4],
                             &dx_, &dy_, &dz_, &t1x_, &t1y_, &t1z_, &v_[5]};
  const bool local = scheme_ == GpuScheme::ElementLocal;
  std::vector<T> buf;
  for (int i = 0; i < 15; ++i) {
    if (i == 14 && sys_.node_dofs != 6) continue;
    if (local) {  // every element corner gets its own copy of the node
      buf.resize(sys_.shell.conn.size());
      for (std::size_t s = 0; s < sys_.shell.conn.size(); ++s) buf[s] = T((*src[i])[sys_.shell.conn[s]]);
    } else {
      buf.assign(src[i]->begin(), src[i]->end());
    }
    dst[i]->assign(buf);
  }
  if (compensated()) {  // the remainders start as what the conversion to FP32 rounded off
    const std::vector<double>* whole[6] = {&st.ux, &st.uy, &st.uz, &st.dx, &st.dy, &st.dz};
    for (int i = 0; i < 6; ++i) {
      buf.resize(whole[i]->size());
      for (std::size_t n = 0; n < buf.size(); ++n) buf[n] = T((*whole[i])[n] - double(T((*whole[i])[n])));
      rem_[i].assign(buf);
    }
  }
  if (!sys_.bodies.empty()) {  // rotation and angular velocity (the reference node's v[3..5]) of each body
    const RigidBodies& rb = sys_.bodies;
    buf.assign(st.body_rotation.begin(), st.body_rotation.end());
    body_rotation_.assign(buf);
    buf.clear();
    for (int r : rb.ref_node)
      for (int k = 3; k < 6; ++k) buf.push_back(T(st.v[k][r]));
    body_omega_.assign(buf);
  }
  // The element and contact state (material state, section forces and frames, friction
  // springs) goes on from the host's: the arrays the list mirrors in.
  for_each_device_array([&](const std::string& name, auto& a, const StateMirror& m) {
    if constexpr (std::is_same_v<std::decay_t<decltype(a)>, DeviceArray<T>>) {
      if (!m.in) return;
      // host is an accessor for reading and writing; upload only reads.
      const std::vector<double>& h = m.host(const_cast<StructureState&>(st));
      if (m.sized && a.size() == 0) return;
      if (m.sized && h.size() != a.size())
        throw std::logic_error("upload: the state's " + name + " has " + std::to_string(h.size()) +
                               " values, the device's " + std::to_string(a.size()));
      if (h.empty()) return;
      buf.assign(h.begin(), h.end());
      a.assign(buf);
    }
  });
  if (host_contact_ && contact_.ct_history_.size() > 0) hc_history_ = st.contact_history;  // distributed: the host pass keeps it
}

template <class T>
void CudaBackend<T>::download(StructureState& st) {
  sync("download");
  std::vector<double>* dst[15] = {&st.ux, &st.uy, &st.uz, &st.v[0], &st.v[1], &st.v[2], &st.v[3], &st.v[4],
                                  &st.dx, &st.dy, &st.dz, &st.t1x, &st.t1y, &st.t1z, &st.v[5]};
  const DeviceArray<T>* src[15] = {&ux_, &uy_, &uz_, &v_[0], &v_[1], &v_[2], &v_[3], &v_[4],
                                   &dx_, &dy_, &dz_, &t1x_, &t1y_, &t1z_, &v_[5]};
  const bool local = scheme_ == GpuScheme::ElementLocal;
  std::vector<T> buf;
  for (int i = 0; i < 15; ++i) {
    if (i == 14 && sys_.node_dofs != 6) continue;
    buf.resize(src[i]->size());
    src[i]->copy_to(buf.data(), buf.size());
    if (local) {
      for (int n = 0; n < sys_.num_nodes; ++n)
        if (sys_.shell.node_slot_ptr[n + 1] > sys_.shell.node_slot_ptr[n])
          (*dst[i])[n] = double(buf[sys_.shell.node_slots[sys_.shell.node_slot_ptr[n]]]);
    } else {
      dst[i]->assign(buf.begin(), buf.end());
    }
  }
  if (compensated()) {  // the compensated values: the array's plus its remainder
    std::vector<double>* whole[6] = {&st.ux, &st.uy, &st.uz, &st.dx, &st.dy, &st.dz};
    for (int i = 0; i < 6; ++i) {
      buf.resize(rem_[i].size());
      rem_[i].copy_to(buf.data(), buf.size());
      for (std::size_t n = 0; n < buf.size(); ++n) (*whole[i])[n] += double(buf[n]);
    }
  }
  if (!sys_.bodies.empty()) {
    const RigidBodies& rb = sys_.bodies;
    buf.resize(body_rotation_.size());
    body_rotation_.copy_to(buf.data(), buf.size());
    st.body_rotation.assign(buf.begin(), buf.end());
    buf.resize(body_omega_.size());
    body_omega_.copy_to(buf.data(), buf.size());
    for (int b = 0; b < rb.num_bodies; ++b)
      for (int k = 0; k < 3; ++k) st.v[3 + k][rb.ref_node[b]] = double(buf[3 * b + k]);
  }
  // Energies, element and contact state: the arrays the list mirrors out.
  for_each_device_array([&](const std::string&, auto& a, const StateMirror& m) {
    if constexpr (std::is_same_v<std::decay_t<decltype(a)>, DeviceArray<T>>) {
      if (!m.out || a.size() == 0) return;
      buf.resize(a.size());
      a.copy_to(buf.data(), buf.size());
      m.host(st).assign(buf.begin(), buf.end());
    }
  });
  if (host_contact_ && contact_.ct_history_.size() > 0) st.contact_history = hc_history_;
}

template <class T>
void CudaBackend<T>::stage_frame_arrays(Staging<T>& s, int ne, int ns, std::size_t npts, std::size_t nshell,
                                        const std::array<std::size_t, cuda::kMaxSlotFamilies>& nfam,
                                        std::size_t ncon, std::size_t npair, std::size_t nbody) {
  if (ne > 0)
    check(cudaMemcpyAsync(s.energy.host(), elem_energy_.get(), ne * sizeof(T), cudaMemcpyDeviceToHost, stream_),
          "copy energies");
  if (nshell > 0)
    check(cudaMemcpyAsync(s.shell_points.host(), shell_state_.get(), nshell * sizeof(T), cudaMemcpyDeviceToHost,
                          stream_),
          "copy shell state");
  if (ns > 0) {
    check(cudaMemcpyAsync(s.energy.host() + ne, solid_energy_.get(), ns * sizeof(T), cudaMemcpyDeviceToHost, stream_),
          "copy solid energies");
    check(cudaMemcpyAsync(s.energy.host() + ne + ns, solid_hourglass_.get(), ns * sizeof(T), cudaMemcpyDeviceToHost,
                          stream_),
          "copy hourglass energies");
    if (npts > 0)
      check(cudaMemcpyAsync(s.points.host(), solid_state_.get(), npts * sizeof(T), cudaMemcpyDeviceToHost, stream_),
            "copy material state");
  }
  for (std::size_t k = 0; k < families_.size(); ++k)
    if (nfam[k] > 0)
      check(cudaMemcpyAsync(s.family_state[k].host(), families_[k]->sampled_state().array->get(), nfam[k] * sizeof(T),
                            cudaMemcpyDeviceToHost, stream_),
            "copy element family state");
  if (ncon > 0) {
    check(cudaMemcpyAsync(s.contact.host(), contact_.ct_normal_.get(), ncon * sizeof(T), cudaMemcpyDeviceToHost,
                          stream_),
          "copy contact forces");
    check(cudaMemcpyAsync(s.contact.host() + ncon, contact_.ct_shear_.get(), ncon * sizeof(T),
                          cudaMemcpyDeviceToHost, stream_),
          "copy contact forces");
  }
  // The totals per definition go to every row, also those that carry no nodal contact
  // forces (history and energy rows: contact.csv).
  if (npair > 0)
    check(cudaMemcpyAsync(s.contact.host() + 2 * ncon, contact_.ct_pair_force_.get(), npair * sizeof(T),
                          cudaMemcpyDeviceToHost, stream_),
          "copy contact totals");
  if (nbody > 0)
    check(cudaMemcpyAsync(s.bodies.host(), body_rotation_.get(), nbody * sizeof(T), cudaMemcpyDeviceToHost, stream_),
          "copy body rotations");
}

template <class T>
void CudaBackend<T>::sample(const Increment& inc, OutputFrame& frame) {
  const int nn = sys_.num_nodes;
  // Element energies and material states only for frames that write cells (field frames,
  // printed tables): a history or energy row needs the nodes, and copying 1 M plastic
  // shells' section points to the host for each one made those rows cost 6x the increment
  // (docs/performance.md).
  const bool cells = frame.field || frame.print;
  const int ne = cells ? sys_.shell.num_elements : 0, ns = cells ? sys_.solid.num_elements : 0;
  // A history row stages its nodes only, an energy row none (OutputFrame::nodes): at 10 M
  // elements staging every node made a history row of two small sets cost 2.8 s against
  // 7 ms of solve (docs/performance.md, "History rows carry only their nodes").
  const std::vector<int>* subset = frame.nodes.get();
  const int rows = subset ? static_cast<int>(subset->size()) : nn;
  if (rows > 0 && subset && frame.nodes != frame_nodes_) {
    // Once per step (the solver hands every history row of a step one list): the node pass's
    // node -> row map and the state staging's node list. An earlier frame's kernels may
    // still read the old ones.
    sync("output nodes");
    std::vector<int> row(static_cast<std::size_t>(nn), -1);
    for (int k = 0; k < rows; ++k) row[static_cast<std::size_t>((*subset)[k])] = k;
    frame_row_.assign(row);
    frame_list_.assign(*subset);
    frame_nodes_ = frame.nodes;
  }
  const int b = acquire_staging();
  Staging<T>& s = staging_[b];
  s.full.reserve(kFullStepValues * static_cast<std::size_t>(rows));
  s.state.reserve(9 * static_cast<std::size_t>(rows));
  s.energy.reserve(static_cast<std::size_t>(ne) + 2 * static_cast<std::size_t>(ns));  // shells | solids | hourglass
  s.monitor.reserve(1);
  const std::size_t npts = cells ? solid_state_.size() : 0, nshell = cells ? shell_state_.size() : 0;
  s.points.reserve(npts);
  // Each device family's element state (FPM beams' section forces and fibres, triangles'
  // stresses and frames), into the host array it mirrors.
  std::array<std::size_t, cuda::kMaxSlotFamilies> nfam{};
  std::array<std::vector<double>& (*)(StructureState&), cuda::kMaxSlotFamilies> fam_host{};
  for (std::size_t k = 0; k < families_.size(); ++k) {
    const cuda::FamilyArray<T> a = families_[k]->sampled_state();
    nfam[k] = cells ? a.array->size() : 0;
    fam_host[k] = a.mirror.host;
    s.family_state[k].reserve(nfam[k]);
  }
  s.shell_points.reserve(nshell);
  // Nodal contact forces are field output; the per-definition totals go to every energy row.
  const std::size_t ncon = subset ? 0 : contact_.ct_normal_.size(), npair = contact_.ct_pair_force_.size();
  s.contact.reserve(2 * ncon + npair);
  const std::size_t nbody = body_rotation_.size();
  s.bodies.reserve(nbody);
  if (!s.ready) check(cudaEventCreateWithFlags(&s.ready, cudaEventDisableTiming), "cudaEventCreate");
  // The sample kernel streams the frame straight into mapped pinned memory: no device copy
  // of the frame exists, so output costs no GPU memory (see docs/performance.md).
  // The node pass sums the energy over every node whatever the frame holds.
  const cuda::FrameOut<T> out{rows > 0 ? s.full.device() : nullptr, subset ? frame_row_.get() : nullptr, rows};
  launch_nodes(inc, NodeMode::Sample, out, block_node_);
  if (rows > 0) {
    stage_state_kernel<T><<<blocks(rows, 256), 256, 0, stream_>>>(
        mesh(), state(), scheme_ == GpuScheme::ElementLocal, subset ? frame_list_.get() : nullptr, rows,
        s.state.device());
    check(cudaGetLastError(), "stage launch");
  }
  stage_frame_arrays(s, ne, ns, npts, nshell, nfam, ncon, npair, nbody);
  check(cudaMemcpyAsync(s.monitor.host(), monitor_.get(), sizeof(EnergyMonitor), cudaMemcpyDeviceToHost, stream_),
        "copy monitor");
  check(cudaEventRecord(s.ready, stream_), "cudaEventRecord");
  // Distributed: the record is the sums over the ranks (this waits for the sample pass).
  const bool global = dist_ != nullptr;
  EnergyRecord record;
  bool failed = false;
  if (global) {
    double pub[cuda::kPubValues];
    read_published(cuda::kPubSample, pub);
    monitor_element_pass(host_monitor_, pub[0], inc.time, pub[1], pub[2], pub[3], pub[4]);
    monitor_sample(host_monitor_, pub + cuda::kElementSums, inc.time);
    record = host_monitor_.record;
    failed = host_monitor_.status != kRunning;
    frame.record = record;  // also for frames that are never completed (energy only)
    frame.discard = failed;
  }
  // Released when the frame is written or dropped.
  std::shared_ptr<void> hold(nullptr, [this, b](void*) { release_staging(b); });
  const double time = inc.time, tau = inc.tau;
  frame.complete = [this, b, hold, time, rows, ne, ns, npts, nfam, fam_host, nshell, ncon, npair, nbody, global, record,
                    failed, thermal = ns > 0 ? host_thermal_ : nullptr, tau](OutputFrame& f) {
    Staging<T>& st = staging_[b];
    check(cudaEventSynchronize(st.ready), "output frame");
    std::vector<double>* state_rows[9] = {&f.state.ux, &f.state.uy, &f.state.uz, &f.state.dx, &f.state.dy,
                                          &f.state.dz, &f.state.t1x, &f.state.t1y, &f.state.t1z};
    // Row i of a staging block: the frame's nodes (every node, or a compact frame's).
    const auto take = [&](const T* block, int i, std::vector<double>& out) {
      if (rows == 0) {
        out.clear();
        return;
      }
      const T* row = block + i * std::size_t(rows);
      out.assign(row, row + rows);
    };
    for (int i = 0; i < 9; ++i) take(st.state.host(), i, *state_rows[i]);
    for (int i = 0; i < kFullStepValues; ++i)  // v, rf, a: full_step_output's rows
      take(st.full.host(), i, (i < 6 ? f.full.v : i < 12 ? f.full.rf : f.full.a)[i % 6]);
    f.state.elem_energy.assign(st.energy.host(), st.energy.host() + ne);
    f.state.solid_energy.assign(st.energy.host() + ne, st.energy.host() + ne + ns);
    f.state.solid_hourglass.assign(st.energy.host() + ne + ns, st.energy.host() + ne + 2 * ns);
    f.state.solid_state.assign(st.points.host(), st.points.host() + npts);
    // Temperature changes are a function of the step time: evaluated here rather than staged.
    f.state.solid_thermal = thermal ? thermal_changes(*thermal, ns, tau) : std::vector<double>{};
    for (std::size_t k = 0; k < nfam.size(); ++k)
      if (fam_host[k]) fam_host[k](f.state).assign(st.family_state[k].host(), st.family_state[k].host() + nfam[k]);
    f.state.shell_state.assign(st.shell_points.host(), st.shell_points.host() + nshell);
    f.state.contact_normal.assign(st.contact.host(), st.contact.host() + ncon);
    f.state.contact_shear.assign(st.contact.host() + ncon, st.contact.host() + 2 * ncon);
    f.state.contact_pair_force.assign(st.contact.host() + 2 * ncon, st.contact.host() + 2 * ncon + npair);
    f.state.body_rotation.assign(st.bodies.host(), st.bodies.host() + nbody);
    f.record = global ? record : st.monitor.host()->record;
    f.discard = global ? failed : st.monitor.host()->status != kRunning;
    f.state.time = time;
  };
}

// Every device array a later increment reads is saved bit for bit in the backend's own
// precision and layout (element-local corner copies, gather slots), so a resumed run
// repeats the saved one's increments exactly; scratch arrays are saved too, rather than
// trusting that every kernel rewrites them before reading.
template <class T>
void CudaBackend<T>::save_restart(RestartBlob& blob) {
  if (!restart_unsupported().empty()) throw RunError(restart_unsupported());
  sync("restart");
  restart_host_.clear();
  for_each_device_array([&](const std::string& name, auto& a, const StateMirror&) {
    using V = typename std::decay_t<decltype(a)>::value_type;
    std::vector<char>& h = restart_host_.emplace_back(a.bytes());
    a.copy_to(reinterpret_cast<V*>(h.data()), a.size());
    blob.put_view("cuda." + name, h.data(), h.size());
  });
  blob.put_value("cuda.cur", cur_);
  blob.put_value("cuda.blocks", std::array<int, 2>{block_element_, block_node_});
  // Distributed: the whole model's energy balance and the host contact pass's friction
  // springs live on the host (the interface sums are device arrays, listed above).
  if (pending_commit_) throw std::logic_error("restart with an energy commit pending");
  blob.put_value("cuda.host_monitor", host_monitor_);
  blob.put_view("cuda.host_contact_history", hc_history_);
}

template <class T>
void CudaBackend<T>::load_restart(const RestartBlob& blob) {
  if (!restart_unsupported().empty()) throw RunError(restart_unsupported());
  sync("restart");
  for_each_device_array([&](const std::string& name, auto& a, const StateMirror&) {
    using V = typename std::decay_t<decltype(a)>::value_type;
    std::vector<V> h;
    blob.get_vector("cuda." + name, h, static_cast<long long>(a.size()));
    a.assign(h);
  });
  cur_ = blob.get_value<int>("cuda.cur");
  host_monitor_ = blob.get_value<EnergyMonitor>("cuda.host_monitor");
  blob.get_vector("cuda.host_contact_history", hc_history_, static_cast<long long>(hc_history_.size()));
  // The launch shapes the saved run used: sums reduce in the same order only with them.
  const auto blocks = blob.get_value<std::array<int, 2>>("cuda.blocks");
  block_element_ = blocks[0];
  block_node_ = blocks[1];
  tuned_ = true;
}

/// Applies f(name, array, mirror) to every device array that kernels write: restart files
/// hold each under its name, in this order; upload and download copy the ones that mirror a
/// StructureState array (the nodal arrays, which the element-local scheme and FP32
/// remainders copy by their own rules, mirror none here).
template <class T>
template <class F>
void CudaBackend<T>::for_each_device_array(F&& f) {
  const StateMirror none;
  const auto state = [](std::vector<double>& (*host)(StructureState&), bool in, bool sized = true) {
    return StateMirror{host, in, true, sized};
  };
  const char* xyz[] = {"x", "y", "z"};
  DeviceArray<T>* nodal[9] = {&ux_, &uy_, &uz_, &dx_, &dy_, &dz_, &t1x_, &t1y_, &t1z_};
  const char* nodal_names[9] = {"ux", "uy", "uz", "dx", "dy", "dz", "t1x", "t1y", "t1z"};
  for (int i = 0; i < 9; ++i) f(nodal_names[i], *nodal[i], none);
  for (int i = 0; i < 6; ++i) f("rem_" + std::string(nodal_names[i]), rem_[i], none);
  for (int d = 0; d < kMaxNodeDofs; ++d) f("v" + std::to_string(d), v_[d], none);
  for (int i = 0; i < 6; ++i) f("fi" + std::to_string(i), fi_[i], none);
  for (int i = 0; i < 3; ++i) f(std::string("fp") + xyz[i], fp_[i], none);
  for (int i = 0; i < 2; ++i) {
    f("level_force" + std::to_string(i), level_force_[i], none);
    f("level_pressure" + std::to_string(i), level_pressure_[i], none);
  }
  f("slot_force", slot_force_, none);
  f("slot_pressure", slot_pressure_, none);
  f("elem_energy", elem_energy_, state(&state_array<&StructureState::elem_energy>, false));
  f("solid_force", solid_force_, none);
  f("solid_energy", solid_energy_, state(&state_array<&StructureState::solid_energy>, false));
  f("solid_hourglass", solid_hourglass_, state(&state_array<&StructureState::solid_hourglass>, false));
  f("face_force", face_force_, none);
  f("solid_state", solid_state_, state(&state_array<&StructureState::solid_state>, true));
  f("solid_thermal_last", solid_thermal_last_, state(&state_array<&StructureState::solid_thermal_last>, true));
  f("solid_thermal_slope", solid_thermal_slope_, state(&state_array<&StructureState::solid_thermal_slope>, true));
  f("shell_state", shell_state_, state(&state_array<&StructureState::shell_state>, true));
  for (auto& family : families_)
    for (const cuda::FamilyArray<T>& a : family->arrays()) f(a.name, *a.array, a.mirror);
  f("hex_increment", hex_increment_, none);
  f("hex_result", hex_result_, none);
  f("con_force", con_force_, none);
  f("body_rotation", body_rotation_, none);
  f("body_omega", body_omega_, none);
  f("body_out", body_out_, none);
  f("body_sums", body_sums_, none);
  contact_.for_each_device_array(f);
  f("monitor", monitor_, none);
  f("sums", sums_, none);
  f("tickets", tickets_, none);
  f("halo_buf", halo_buf_, none);
  f("send_buf", send_buf_, none);
  f("halo_total", halo_total_, none);
  f("publish", publish_, none);
}

template <class T>
int CudaBackend<T>::acquire_staging() {
  std::unique_lock<std::mutex> lock(staging_mutex_);
  staging_free_.wait(lock, [&] { return !staging_[0].in_use || !staging_[1].in_use; });
  const int b = staging_[0].in_use ? 1 : 0;
  staging_[b].in_use = true;
  return b;
}

template <class T>
void CudaBackend<T>::release_staging(int b) {
  {
    std::lock_guard<std::mutex> lock(staging_mutex_);
    staging_[b].in_use = false;
  }
  staging_free_.notify_all();
}

}  // namespace
}  // namespace halfstep
