#include "parallel/frame_gather.hpp"

#include <algorithm>
#include <stdexcept>

#include "elements/registry.hpp"
#include "materials/j2_plane_stress.hpp"  // kJ2PlaneStateSize

namespace halfstep {

namespace {

/// Integration points of solid element e of sm.
int points_of(const SolidMesh& sm, int e) {
  return element_kind(sm.groups[static_cast<std::size_t>(sm.group_of(e))].kind).points;
}

/// Section points of shell e of sys (0 for elastic sections).
std::size_t shell_points_of(const StructureSystem& sys, int e) {
  return sys.shell.first_point[static_cast<std::size_t>(e) + 1] - sys.shell.first_point[static_cast<std::size_t>(e)];
}

/// The state of elements (local order) of a component-major store, element after element:
/// components values per element; empty when the store is not of that layout.
std::vector<double> pack_elements(const std::vector<double>& state, std::size_t count, int components) {
  std::vector<double> out;
  if (components == 0 || state.size() != static_cast<std::size_t>(components) * count) return out;
  out.reserve(state.size());
  for (std::size_t e = 0; e < count; ++e)
    for (int c = 0; c < components; ++c) out.push_back(state[static_cast<std::size_t>(c) * count + e]);
  return out;
}

/// Scatters values packed by pack_elements of the elements ids (rank after rank) into a
/// component-major store of count elements.
std::vector<double> unpack_elements(const std::vector<double>& values, const std::vector<int>& ids, std::size_t count,
                                    int components) {
  std::vector<double> out(static_cast<std::size_t>(components) * count, 0.0);
  if (values.size() != static_cast<std::size_t>(components) * ids.size()) return out;
  std::size_t at = 0;
  for (int e : ids)
    for (int c = 0; c < components; ++c) out[static_cast<std::size_t>(c) * count + static_cast<std::size_t>(e)] = values[at++];
  return out;
}

}  // namespace

FrameGather::FrameGather(const Communicator& comm, const Subdomain& d, const StructureSystem& global,
                         const StructureSystem& local)
    : comm_(comm), d_(d), global_(global), global_solid_(global.solid), local_shell_points_(local.shell.num_points),
      local_shell_first_(local.shell.first_point), global_nodes_(global.num_nodes), global_shells_(global.shell.num_elements),
      global_solids_(global.solid.num_elements) {
  for (int e : d.solid_global) local_points_ += static_cast<std::size_t>(points_of(global.solid, e));
  std::vector<int> ids;
  for (std::size_t n = 0; n < d.node_global.size(); ++n)
    if (d.owned[n]) {
      owned_nodes_.push_back(static_cast<int>(n));
      ids.push_back(d.node_global[n]);
    }
  node_ids_ = comm.gather(ids, 0);
  shell_ids_ = comm.gather(d.shell_global, 0);
  solid_ids_ = comm.gather(d.solid_global, 0);
  beam_ids_ = comm.gather(d.beam_global, 0);
  tri_ids_ = comm.gather(d.tri_global, 0);
}

std::vector<double> FrameGather::pack_shell_points(const std::vector<double>& state) const {
  std::vector<double> out;
  const std::size_t np = local_shell_points_;
  if (np == 0 || state.size() != static_cast<std::size_t>(kJ2PlaneStateSize) * np) return out;
  for (std::size_t i = 0; i < d_.shell_global.size(); ++i) {
    const std::size_t first = local_shell_first_[i], count = local_shell_first_[i + 1] - first;
    for (int c = 0; c < kJ2PlaneStateSize; ++c)
      for (std::size_t p = 0; p < count; ++p) out.push_back(state[static_cast<std::size_t>(c) * np + first + p]);
  }
  return out;
}

std::vector<double> FrameGather::pack_state(const std::vector<double>& state) const {
  const int nc = global_solid_.state_size;
  std::vector<double> out;
  if (nc == 0 || state.size() != static_cast<std::size_t>(nc) * local_points_) return out;
  std::size_t first = 0;  // the local mesh numbers the points in d.solid_global order
  for (int e : d_.solid_global) {
    const int np = points_of(global_solid_, e);
    for (int c = 0; c < nc; ++c)
      for (int p = 0; p < np; ++p) out.push_back(state[static_cast<std::size_t>(c) * local_points_ + first + p]);
    first += static_cast<std::size_t>(np);
  }
  return out;
}

std::vector<double> FrameGather::pack(const std::vector<const std::vector<double>*>& rows,
                                      const std::vector<int>& nodes, const std::vector<int>* held) {
  std::vector<double> out;
  out.reserve(nodes.size() * rows.size());
  for (int n : nodes) {
    std::size_t at = static_cast<std::size_t>(n);
    if (held) {
      const auto it = std::lower_bound(held->begin(), held->end(), n);
      if (it == held->end() || *it != n) throw std::logic_error("frame gather: the frame lacks a history node");
      at = static_cast<std::size_t>(it - held->begin());
    }
    for (const std::vector<double>* r : rows) out.push_back((*r)[at]);
  }
  return out;
}

std::vector<std::vector<double>> FrameGather::scatter(const std::vector<double>& values, const std::vector<int>& ids,
                                                      const std::vector<double>& fill) const {
  const std::size_t nr = fill.size();
  std::vector<std::vector<double>> out;
  for (std::size_t r = 0; r < nr; ++r) out.emplace_back(static_cast<std::size_t>(global_nodes_), fill[r]);
  for (std::size_t i = 0; i < ids.size(); ++i)
    for (std::size_t r = 0; r < nr; ++r) out[r][static_cast<std::size_t>(ids[i])] = values[i * nr + r];
  return out;
}

std::vector<std::vector<double>> FrameGather::gather_nodes(const std::vector<const std::vector<double>*>& rows,
                                                           const std::vector<double>& fill) const {
  const std::vector<double> all = comm_.gather(pack(rows, owned_nodes_, nullptr), 0);
  if (comm_.rank() != 0) return {};
  return scatter(all, node_ids_, fill);
}

void FrameGather::set_history_nodes(const std::vector<int>& global_nodes) {
  history_local_.clear();
  std::vector<int> ids;
  for (int g : global_nodes) {
    const int n = d_.node_local[static_cast<std::size_t>(g)];
    if (n >= 0 && d_.owned[static_cast<std::size_t>(n)]) history_local_.push_back(n);
  }
  std::sort(history_local_.begin(), history_local_.end());
  history_local_.erase(std::unique(history_local_.begin(), history_local_.end()), history_local_.end());
  for (int n : history_local_) ids.push_back(d_.node_global[static_cast<std::size_t>(n)]);
  history_ids_ = comm_.gather(ids, 0);
  std::vector<int> all = global_nodes;
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  history_row_.clear();
  for (int g : history_ids_)
    history_row_.push_back(static_cast<int>(std::lower_bound(all.begin(), all.end(), g) - all.begin()));
  history_global_ = std::make_shared<const std::vector<int>>(std::move(all));
}

std::unique_ptr<OutputFrame> FrameGather::gather(const OutputFrame& local) const {
  auto f = std::make_unique<OutputFrame>();
  f->field = local.field;
  f->history = local.history;
  f->print = local.print;
  f->print_cells = local.print_cells;
  f->step = local.step;
  f->increment = local.increment;
  f->step_end = local.step_end;
  const bool full = local.field || local.print;  // every node and element (printed tables too)
  f->energy = local.energy;
  f->record = local.record;
  f->discard = local.discard;
  f->state.time = local.state.time;
  // Contact totals per definition are summed over the ranks already (contact.csv).
  f->state.contact_pair_force = local.state.contact_pair_force;
  if (!full && !local.history) return comm_.rank() == 0 ? std::move(f) : nullptr;  // the record is global

  // Field frames: every owned node; history frames: the owned history nodes only.
  const StructureState& s = local.state;
  std::vector<const std::vector<double>*> rows = {&s.ux, &s.uy, &s.uz, &s.dx, &s.dy, &s.dz, &s.t1x, &s.t1y, &s.t1z};
  for (int i = 0; i < 6; ++i) rows.push_back(&local.full.v[i]);
  for (int i = 0; i < 6; ++i) rows.push_back(&local.full.rf[i]);
  const std::vector<int>& nodes = full ? owned_nodes_ : history_local_;
  const std::vector<double> mine = pack(rows, nodes, local.nodes.get());
  auto values = std::make_shared<std::vector<double>>(comm_.gather(mine, 0));
  std::vector<double> solid_rows;
  std::shared_ptr<std::vector<double>> shells, solids, points, beams, tris, shell_points, contact;
  if (full && !s.contact_normal.empty()) {
    // Nodal contact forces (whole on every holder): the owners' values, 6 per node.
    std::vector<double> forces;
    forces.reserve(6 * owned_nodes_.size());
    for (int n : owned_nodes_) {
      for (int d = 0; d < 3; ++d) forces.push_back(s.contact_normal[3 * static_cast<std::size_t>(n) + d]);
      for (int d = 0; d < 3; ++d) forces.push_back(s.contact_shear[3 * static_cast<std::size_t>(n) + d]);
    }
    contact = std::make_shared<std::vector<double>>(comm_.gather(forces, 0));
  }
  if (full) {
    for (std::size_t e = 0; e < d_.solid_global.size(); ++e) {
      solid_rows.push_back(s.solid_energy[e]);
      solid_rows.push_back(s.solid_hourglass[e]);
    }
    shells = std::make_shared<std::vector<double>>(comm_.gather(s.elem_energy, 0));
    solids = std::make_shared<std::vector<double>>(comm_.gather(solid_rows, 0));
    if (global_solid_.state_size > 0)  // stresses and PEEQ of plastic elements come from it
      points = std::make_shared<std::vector<double>>(comm_.gather(pack_state(s.solid_state), 0));
    // Beams and FPM triangles: their whole state (section forces, PEEQ, work come from it).
    if (global_.beam.num_elements > 0)
      beams = std::make_shared<std::vector<double>>(
          comm_.gather(pack_elements(s.beam_state, d_.beam_global.size(), global_.beam.state_size), 0));
    if (global_.tri.num_elements > 0)
      tris = std::make_shared<std::vector<double>>(
          comm_.gather(pack_elements(s.tri_state, d_.tri_global.size(), global_.tri.state_size), 0));
    if (global_.shell.num_points > 0)
      shell_points = std::make_shared<std::vector<double>>(comm_.gather(pack_shell_points(s.shell_state), 0));
  }
  if (comm_.rank() != 0) return nullptr;

  // Nodes no element uses keep the reference frame (director +z, t1 +x) and zero motion.
  std::vector<double> fill(rows.size(), 0.0);
  fill[5] = fill[6] = 1.0;
  if (!full) {
    // A history row: compact rows of the global history nodes (each owned by one rank, or by
    // none when no element uses it), put in place by the writer thread.
    f->nodes = history_global_ ? history_global_ : std::make_shared<const std::vector<int>>();
    f->complete = [this, values, fill](OutputFrame& out) {
      const std::size_t count = out.nodes->size(), nr = fill.size();
      std::vector<std::vector<double>> rows_of;
      for (std::size_t r = 0; r < nr; ++r) rows_of.emplace_back(count, fill[r]);
      for (std::size_t i = 0; i < history_row_.size() && (i + 1) * nr <= values->size(); ++i)
        for (std::size_t r = 0; r < nr; ++r) rows_of[r][static_cast<std::size_t>(history_row_[i])] = (*values)[i * nr + r];
      StructureState& g = out.state;
      std::vector<double>* state_rows[9] = {&g.ux, &g.uy, &g.uz, &g.dx, &g.dy, &g.dz, &g.t1x, &g.t1y, &g.t1z};
      for (int i = 0; i < 9; ++i) *state_rows[i] = std::move(rows_of[static_cast<std::size_t>(i)]);
      for (int i = 0; i < 6; ++i) {
        out.full.v[i] = std::move(rows_of[static_cast<std::size_t>(9 + i)]);
        out.full.rf[i] = std::move(rows_of[static_cast<std::size_t>(15 + i)]);
      }
    };
    return f;
  }
  // Scattering into whole-model rows is left to the writer thread (OutputFrame::complete).
  const std::vector<int>& ids = node_ids_;
  f->complete = [this, values, shells, solids, points, beams, tris, shell_points, contact, &ids, fill](OutputFrame& out) {
    std::vector<std::vector<double>> whole = scatter(*values, ids, fill);
    StructureState& g = out.state;
    if (contact) {
      g.contact_normal.assign(3 * static_cast<std::size_t>(global_nodes_), 0.0);
      g.contact_shear.assign(3 * static_cast<std::size_t>(global_nodes_), 0.0);
      for (std::size_t i = 0; i < node_ids_.size() && 6 * i + 5 < contact->size(); ++i)
        for (int d = 0; d < 3; ++d) {
          g.contact_normal[3 * static_cast<std::size_t>(node_ids_[i]) + d] = (*contact)[6 * i + d];
          g.contact_shear[3 * static_cast<std::size_t>(node_ids_[i]) + d] = (*contact)[6 * i + 3 + d];
        }
    }
    std::vector<double>* state_rows[9] = {&g.ux, &g.uy, &g.uz, &g.dx, &g.dy, &g.dz, &g.t1x, &g.t1y, &g.t1z};
    for (int i = 0; i < 9; ++i) *state_rows[i] = std::move(whole[static_cast<std::size_t>(i)]);
    for (int i = 0; i < 6; ++i) {
      out.full.v[i] = std::move(whole[static_cast<std::size_t>(9 + i)]);
      out.full.rf[i] = std::move(whole[static_cast<std::size_t>(15 + i)]);
    }
    g.elem_energy.assign(static_cast<std::size_t>(global_shells_), 0.0);
    g.solid_energy.assign(static_cast<std::size_t>(global_solids_), 0.0);
    g.solid_hourglass.assign(static_cast<std::size_t>(global_solids_), 0.0);
    if (!shells) return;
    for (std::size_t i = 0; i < shell_ids_.size(); ++i) g.elem_energy[static_cast<std::size_t>(shell_ids_[i])] = (*shells)[i];
    if (beams)
      g.beam_state = unpack_elements(*beams, beam_ids_, static_cast<std::size_t>(global_.beam.num_elements),
                                     global_.beam.state_size);
    if (tris)
      g.tri_state = unpack_elements(*tris, tri_ids_, static_cast<std::size_t>(global_.tri.num_elements),
                                    global_.tri.state_size);
    if (shell_points) {
      const std::size_t np_all = global_.shell.num_points;
      g.shell_state.assign(static_cast<std::size_t>(kJ2PlaneStateSize) * np_all, 0.0);
      std::size_t at = 0;
      for (int e : shell_ids_) {
        const std::size_t first = global_.shell.first_point[static_cast<std::size_t>(e)], count = shell_points_of(global_, e);
        for (int c = 0; c < kJ2PlaneStateSize; ++c)
          for (std::size_t p = 0; p < count && at < shell_points->size(); ++p)
            g.shell_state[static_cast<std::size_t>(c) * np_all + first + p] = (*shell_points)[at++];
      }
    }
    for (std::size_t i = 0; i < solid_ids_.size(); ++i) {
      g.solid_energy[static_cast<std::size_t>(solid_ids_[i])] = (*solids)[2 * i];
      g.solid_hourglass[static_cast<std::size_t>(solid_ids_[i])] = (*solids)[2 * i + 1];
    }
    if (!points) return;
    const int nc = global_solid_.state_size;
    const std::size_t np_all = global_solid_.num_points;
    g.solid_state.assign(static_cast<std::size_t>(nc) * np_all, 0.0);
    std::size_t at = 0;
    for (int e : solid_ids_) {
      const int np = points_of(global_solid_, e);
      const std::size_t first = global_solid_.first_point(e);
      for (int c = 0; c < nc; ++c)
        for (int p = 0; p < np && at < points->size(); ++p)
          g.solid_state[static_cast<std::size_t>(c) * np_all + first + p] = (*points)[at++];
    }
  };
  return f;
}

}  // namespace halfstep
