#include "solver/step_drive.hpp"

namespace halfstep {

namespace {

/// CSR of entries grouped by key, keeping their order within a key.
void group(const std::vector<int>& key, int num_keys, std::vector<int>& ptr, std::vector<int>& order) {
  ptr.assign(num_keys + 1, 0);
  for (int k : key) ++ptr[k + 1];
  for (int i = 0; i < num_keys; ++i) ptr[i + 1] += ptr[i];
  order.assign(key.size(), 0);
  std::vector<int> next(ptr.begin(), ptr.end() - 1);
  for (std::size_t i = 0; i < key.size(); ++i) order[next[key[i]]++] = static_cast<int>(i);
}

template <class V>
std::vector<V> permute(const std::vector<V>& v, const std::vector<int>& order) {
  std::vector<V> out(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) out[i] = v[order[i]];
  return out;
}

}  // namespace

DriveView host_view(const StepDrive& d) {
  return {d.held.data(),
          d.special.data(),
          d.period,
          static_cast<int>(d.amp_ptr.size()) - 1,
          d.amp_ptr.data(),
          d.amp_smooth.data(),
          d.amp_time.data(),
          d.amp_value.data(),
          d.load_ptr.data(),
          d.load_dof.data(),
          d.load_amp.data(),
          d.load_value.data(),
          d.motion_ptr.data(),
          d.motion_dof.data(),
          d.motion_amp.data(),
          d.motion_value.data(),
          d.motion_velocity.data(),
          d.has_pressure() ? d.pressure_ptr.data() : nullptr,
          d.pressure_amp.data(),
          d.pressure_value.data()};
}

StepDrive build_step_drive(const ShellSystem& sys, const StepLoads& step, const std::vector<std::uint8_t>& held_rot) {
  StepDrive d;
  const int nn = sys.num_nodes;
  d.held.assign(nn, 0);
  for (int n = 0; n < nn; ++n) {
    d.held[n] = static_cast<std::uint8_t>(step.fixed_translation[n] | (held_rot[n] << 3));
    if (sys.node_slot_ptr[n + 1] == sys.node_slot_ptr[n]) d.held[n] = 0x1f;  // unused node: no mass
  }
  d.special.assign(nn, -1);
  auto mark = [&](int n) {
    if (d.special[n] < 0) d.special[n] = d.num_special++;
  };
  for (int n : step.load_node) mark(n);
  for (int n : step.motion_node) mark(n);
  d.period = step.period;

  d.amp_ptr.push_back(0);
  for (const Amplitude* a : step.amplitudes.named) {
    d.amp_smooth.push_back(a->kind == Amplitude::Kind::SmoothStep ? 1 : 0);
    if (a->time.empty()) {  // no points: constant 1
      d.amp_time.push_back(0.0);
      d.amp_value.push_back(1.0);
    } else {
      d.amp_time.insert(d.amp_time.end(), a->time.begin(), a->time.end());
      d.amp_value.insert(d.amp_value.end(), a->value.begin(), a->value.end());
    }
    d.amp_ptr.push_back(static_cast<int>(d.amp_time.size()));
  }

  std::vector<int> key, order;
  for (int n : step.load_node) key.push_back(d.special[n]);
  group(key, d.num_special, d.load_ptr, order);
  d.load_dof = permute(step.load_dof, order);
  d.load_amp = permute(step.load_amp, order);
  d.load_value = permute(step.load_value, order);

  key.clear();
  for (int n : step.motion_node) key.push_back(d.special[n]);
  group(key, d.num_special, d.motion_ptr, order);
  d.motion_dof = permute(step.motion_dof, order);
  d.motion_amp = permute(step.motion_amp, order);
  d.motion_value = permute(step.motion_value, order);
  d.motion_velocity = permute(step.motion_velocity, order);

  if (!step.pressure_elem.empty()) {
    group(step.pressure_elem, sys.num_elements, d.pressure_ptr, order);
    d.pressure_amp = permute(step.pressure_amp, order);
    d.pressure_value = permute(step.pressure_value, order);
  }
  // Device copies of empty tables still need a valid pointer.
  for (auto* v : {&d.load_dof, &d.load_amp, &d.motion_dof, &d.motion_amp, &d.amp_smooth})
    if (v->empty()) v->push_back(0);
  for (auto* v : {&d.load_value, &d.motion_value, &d.amp_time, &d.amp_value})
    if (v->empty()) v->push_back(0.0);
  if (d.motion_velocity.empty()) d.motion_velocity.push_back(0);
  return d;
}

}  // namespace halfstep
