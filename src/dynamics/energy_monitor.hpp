// The energy balance of the explicit scheme, kept where the time loop runs: on the host for
// the CPU backend, in the last block of a kernel on the GPU. One host/device code path, so
// both backends stop at the same increment for the same reason.
#pragma once

#include <cstdint>

#include "core/host_device.hpp"

namespace halfstep {

/// Energy totals at one time (see docs/theory.md for the balance).
struct EnergyRecord {
  double time = 0, kinetic = 0, internal = 0, external_work = 0, damping_work = 0;
  double hourglass = 0;  ///< C3D8R hourglass energy, part of internal
  double plastic_dissipation = 0;  ///< plastic work dissipated so far, part of internal (ALLPD)
  double contact = 0;              ///< energy stored in the contact penalty springs
  double friction_dissipation = 0;  ///< frictional work dissipated so far (ALLFD)
  /// Work the bulk viscosity dissipated so far (Abaqus counts it in ALLVD, beside damping_work).
  double viscous_dissipation = 0;
  /// Kinetic energy that mass scaling during the run gave the nodes (velocities are kept when
  /// their mass changes): booked like work done on the model.
  double mass_scaling_work = 0;
  /// Work the temperature changes of expanding elements did on the model so far: the strain
  /// energy their thermal strain stores or releases at fixed deformation, booked like work.
  double thermal_work = 0;
  /// The run's energy check at this instant: the largest |total - total0| / scale so far
  /// (summary.json's energy_balance_error at the end), for status lines.
  double balance_error = 0;
  /// kinetic + internal + contact + friction_dissipation + damping_work + viscous_dissipation
  /// - external_work - mass_scaling_work - thermal_work.
  HS_HD double total() const {
    return kinetic + internal + contact + friction_dissipation + damping_work + viscous_dissipation - external_work -
           mass_scaling_work - thermal_work;
  }
};

/// Index of each sum a node pass produces.
enum NodeSum { kKinetic, kWorkPrev, kWorkNext, kDampPrev, kDampNext, kNonFinite, kNumNodeSums };

/// Why a run stopped early.
/// kNonFiniteEnergy: the balance itself is not a number while the state is (its work or
/// dissipation sums, e.g. read from a damaged restart): the drift cannot be judged.
enum MonitorStatus : int {
  kRunning = 0,
  kNonFiniteNode = 1,
  kNonFiniteElement = 2,
  kEnergyDrift = 3,
  kNonFiniteEnergy = 4
};

/// Running energy balance and stop flag of a run (plain data: lives in device memory too).
struct EnergyMonitor {
  double tolerance = 0.05;    ///< allowed |total - total0| / scale
  double noise_energy = 0;    ///< energy scale floor (round-off of the precision in use)
  double internal = 0;        ///< strain energy of the latest element pass (t^n)
  double hourglass = 0;       ///< its hourglass part
  double dissipation = 0;     ///< its plastic dissipation part
  double work = 0, damping = 0;  ///< external and damping work up to t^n
  double contact = 0;         ///< contact spring energy of the latest contact pass (t^n)
  double friction = 0;        ///< frictional dissipation up to t^(n-1)
  double friction_step = 0;   ///< that of the latest contact pass's slip (t^(n-1) to t^n)
  double mass_work = 0;       ///< kinetic energy added by mass changes so far (EnergyRecord::mass_scaling_work)
  double viscous = 0;         ///< bulk viscosity work dissipated up to the latest element pass
  double viscous_time = 0;    ///< that pass's time
  int viscous_started = 0;    ///< whether an element pass has set viscous_time
  double thermal = 0;         ///< thermal work up to t^(n-1) (EnergyRecord::thermal_work)
  double thermal_step = 0;    ///< that of the latest element pass (t^(n-1) to t^n), set, not added: a
                              ///< distributed run's host replays a pass's sums more than once
  double total0 = 0, scale = 0, max_drift = 0;
  int have_total0 = 0;
  /// Committed increments after which a drift stops the run: 100 after the run's start and
  /// after each rebase (monitor_rebase), when the energies of a ramp are still vanishing.
  std::int64_t check_from = 100;
  int status = kRunning;
  std::int64_t steps = 0;      ///< committed increments
  std::int64_t fail_step = 0;  ///< increment (1-based) at which status was set
  double fail_time = 0, fail_drift = 0, fail_scale = 0;
  EnergyRecord record;         ///< totals at the latest output sample
};

/// After an element pass: energy is the total strain energy at the new configuration
/// (hourglass energy and plastic dissipation included), hourglass and dissipation those parts,
/// viscous_power the power of the bulk viscosity at this pass (from the velocities of the
/// interval that led here), which dissipates it over that interval (from the previous pass;
/// a pass at the same time adds nothing); thermal_work the work of the temperature changes
/// since the previous pass (counted once, when the increment is committed).
HS_HD void monitor_element_pass(EnergyMonitor& m, double energy, double time, double hourglass = 0.0,
                                double dissipation = 0.0, double viscous_power = 0.0, double thermal_work = 0.0) {
  m.internal = energy;
  m.thermal_step = thermal_work;
  m.hourglass = hourglass;
  m.dissipation = dissipation;
  if (!m.viscous_started) {
    m.viscous_time = time;
    m.viscous_started = 1;
  } else if (time > m.viscous_time) {
    m.viscous += viscous_power * (time - m.viscous_time);
    m.viscous_time = time;
  }
  if (!(energy - energy == 0.0) && m.status == kRunning) {
    m.status = kNonFiniteElement;
    m.fail_step = m.steps;
    m.fail_time = time;
  }
}

/// After a contact pass at t^n: the springs' energy and the dissipation of the slip that
/// led to t^n (counted once, when the increment is committed).
HS_HD void monitor_contact(EnergyMonitor& m, double stored, double dissipated) {
  m.contact = stored;
  m.friction_step = dissipated;
}

/// After the edge-to-edge contact pass at t^n (which follows the node records'
/// monitor_contact): adds its springs' energy and dissipation.
HS_HD void monitor_contact_add(EnergyMonitor& m, double stored, double dissipated) {
  m.contact += stored;
  m.friction_step += dissipated;
}

/// After a committed node pass at t^n (time): checks the balance at t^n, then adds the work
/// of the interval [t^(n-1/2), t^(n+1/2)]. sums are indexed by NodeSum.
HS_HD void monitor_commit(EnergyMonitor& m, const double* sums, double time) {
  if (m.status != kRunning) return;
  if (sums[kNonFinite] != 0.0 || !(sums[kKinetic] - sums[kKinetic] == 0.0)) {
    m.status = kNonFiniteNode;
    m.fail_step = m.steps + 1;
    m.fail_time = time;
    return;
  }
  const double total = sums[kKinetic] + m.internal + m.contact + m.friction + m.friction_step + m.damping +
                       sums[kDampPrev] + m.viscous - m.work - sums[kWorkPrev] - m.mass_work - m.thermal - m.thermal_step;
  // NaN compares false: without this a non-finite balance would pass the drift test below
  // and the run would say "completed" over non-finite energies.
  if (!(total - total == 0.0) || (m.have_total0 && !(m.total0 - m.total0 == 0.0))) {
    m.status = kNonFiniteEnergy;
    m.fail_step = m.steps + 1;
    m.fail_time = time;
    return;
  }
  const double w = m.work + sums[kWorkPrev];
  double s = m.scale;
  if (m.noise_energy > s) s = m.noise_energy;
  if (sums[kKinetic] > s) s = sums[kKinetic];
  // The stored energy's magnitude: adhesion stores a negative energy (-W per unit area at the
  // rest gap), whose round-off is no smaller for being below zero.
  if ((m.internal < 0 ? -m.internal : m.internal) > s) s = m.internal < 0 ? -m.internal : m.internal;
  if ((w < 0 ? -w : w) > s) s = w < 0 ? -w : w;
  m.scale = s;
  if (m.have_total0) {
    // Relative to the energy scale reached so far; the first increments of a ramp have
    // vanishing energies, so the check starts after 100 increments.
    const double drift = total > m.total0 ? total - m.total0 : m.total0 - total;
    if (drift > m.max_drift) m.max_drift = drift;
    if (m.steps > m.check_from && drift > m.tolerance * m.scale) {
      m.status = kEnergyDrift;
      m.fail_step = m.steps;
      m.fail_time = time;
      m.fail_drift = drift;
      m.fail_scale = m.scale;
      return;
    }
  }
  m.work += sums[kWorkPrev] + sums[kWorkNext];
  m.damping += sums[kDampPrev] + sums[kDampNext];
  m.friction += m.friction_step;
  m.friction_step = 0;
  m.thermal += m.thermal_step;
  m.thermal_step = 0;
  ++m.steps;
}

/// Starts the balance afresh: the next sample fixes total0, and drifts stop the run only 100
/// increments on. At the start of every explicit step after the first: a load or temperature
/// applied at once there makes the central difference's kinetic energy at t^n (from
/// (v^(n-1/2) + v^(n+1/2)) / 2) hold h^2 f^2 / 2m that no work accounts for, a constant offset
/// after that increment, which the run's first sample absorbs the same way at its start.
HS_HD void monitor_rebase(EnergyMonitor& m) {
  m.have_total0 = 0;
  m.check_from = m.steps + 100;
}

/// After a sampling node pass at t^n: the record for output; the first one fixes total0.
HS_HD void monitor_sample(EnergyMonitor& m, const double* sums, double time) {
  m.record.time = time;
  m.record.kinetic = sums[kKinetic];
  m.record.internal = m.internal;
  m.record.hourglass = m.hourglass;
  m.record.plastic_dissipation = m.dissipation;
  m.record.external_work = m.work + sums[kWorkPrev];
  m.record.damping_work = m.damping + sums[kDampPrev];
  m.record.contact = m.contact;
  m.record.friction_dissipation = m.friction + m.friction_step;
  m.record.mass_scaling_work = m.mass_work;
  m.record.viscous_dissipation = m.viscous;
  m.record.thermal_work = m.thermal + m.thermal_step;
  m.record.balance_error = m.scale > 0 ? m.max_drift / m.scale : 0.0;
  if (!m.have_total0) {
    m.total0 = m.record.total();
    m.have_total0 = 1;
  }
}

/// Between increments, after the nodal masses changed with the velocities kept: added is the
/// kinetic energy that gave the model (negative where mass was taken away).
HS_HD void monitor_mass_change(EnergyMonitor& m, double added) { m.mass_work += added; }

}  // namespace halfstep
