// The explicit scheme's side of a step's loads (discretization/loads.hpp): a node's drive for
// the node integrator and the face-pressure pass that stops with a failed run.
#pragma once

#include "discretization/loads.hpp"
#include "dynamics/energy_monitor.hpp"
#include "dynamics/node_integrator.hpp"

namespace halfstep {

/// Drive of node n for integrate_node(): loads and motions evaluated into values when the node
/// is special, empty otherwise. values must outlive the returned drive.
template <class T>
HS_HD NodeDrive<T> node_drive(const DriveView& d, int n, double tau, double dt_next, NodeDriveValues<T>& values) {
  NodeDrive<T> drive;
  const int sp = d.special[n];
  if (sp >= 0) {
    values = evaluate_node_drive<T>(d, sp, tau, dt_next);
    drive = {values.load, values.motion, values.moving, values.by_velocity};
    if (values.has_frame) drive.frame = values.frame;
  }
  return drive;
}

/// Forall body of the face-pressure pass (CPU forall and cuda::forall alike): face f's nodal
/// forces into out (3 kFaceMaxNodes per face). On a GPU, monitor skips the work once the run
/// has failed.
template <class T>
struct FaceForceBody {
  DriveView d;
  double tau;
  const T *x0, *y0, *z0, *ux, *uy, *uz;
  T* out;
  const EnergyMonitor* monitor;  ///< null: always evaluate
  HS_HD void operator()(int f) const {
    if (monitor && monitor->status != kRunning) return;
    evaluate_face_force(d, f, tau, x0, y0, z0, ux, uy, uz, out + 3 * kFaceMaxNodes * static_cast<long long>(f));
  }
};

}  // namespace halfstep
