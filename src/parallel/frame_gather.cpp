#include "parallel/frame_gather.hpp"

#include <algorithm>
#include <stdexcept>


namespace halfstep {

FrameGather::FrameGather(const Communicator& comm, const Subdomain& d, const StructureSystem& global,
                         const StructureSystem& local)
    : comm_(comm), d_(d), global_(global), local_(local), global_nodes_(global.num_nodes) {
  std::vector<int> ids;
  for (std::size_t n = 0; n < d.node_global.size(); ++n)
    if (d.owned[n]) {
      owned_nodes_.push_back(static_cast<int>(n));
      ids.push_back(d.node_global[n]);
    }
  node_ids_ = comm.gather(ids, 0);
  for (const ElementShare& share : d.elements) element_ids_.push_back(comm.gather(share.global, 0));
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
  f->prints_due = local.prints_due;
  const bool full = local.field || local.print;  // every node and element (printed tables too)
  f->energy = local.energy;
  f->record = local.record;
  f->discard = local.discard;
  f->state.time = local.state.time;
  // Contact totals per definition are summed over the ranks already (contact.csv).
  f->state.contact_pair_force = local.state.contact_pair_force;
  // Rigid bodies are whole on every rank, in the whole model's order: their rotations (the
  // reference nodes' UR) are every rank's.
  f->state.body_rotation = local.state.body_rotation;
  if (!full && !local.history) return comm_.rank() == 0 ? std::move(f) : nullptr;  // the record is global

  // Field frames: every owned node; history frames: the owned history nodes only.
  const StructureState& s = local.state;
  std::vector<const std::vector<double>*> rows = {&s.ux, &s.uy, &s.uz, &s.dx, &s.dy, &s.dz, &s.t1x, &s.t1y, &s.t1z};
  for (int i = 0; i < 6; ++i) rows.push_back(&local.full.v[i]);
  for (int i = 0; i < 6; ++i) rows.push_back(&local.full.rf[i]);
  for (int i = 0; i < 6; ++i) rows.push_back(&local.full.a[i]);
  const std::vector<int>& nodes = full ? owned_nodes_ : history_local_;
  const std::vector<double> mine = pack(rows, nodes, local.nodes.get());
  auto values = std::make_shared<std::vector<double>>(comm_.gather(mine, 0));
  std::shared_ptr<std::vector<std::vector<double>>> elements;  // per family: its elements' values
  std::shared_ptr<std::vector<double>> contact;
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
    // Each family's elements, element after element: energies and material state (stresses,
    // PEEQ, section forces and work come from them).
    elements = std::make_shared<std::vector<std::vector<double>>>();
    const std::vector<const BlockFamily*>& families = block_families();
    for (std::size_t f = 0; f < families.size(); ++f) {
      std::vector<double> mine_f;
      const int count = static_cast<int>(d_.elements[f].global.size());
      for (int e = 0; e < count; ++e) families[f]->frame_pack(local_, s, e, mine_f);
      elements->push_back(comm_.gather(mine_f, 0));
    }
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
        out.full.a[i] = std::move(rows_of[static_cast<std::size_t>(21 + i)]);
      }
    };
    return f;
  }
  // Scattering into whole-model rows is left to the writer thread (OutputFrame::complete).
  const std::vector<int>& ids = node_ids_;
  f->complete = [this, values, elements, contact, &ids, fill](OutputFrame& out) {
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
      out.full.a[i] = std::move(whole[static_cast<std::size_t>(21 + i)]);
    }
    if (!elements) return;
    const std::vector<const BlockFamily*>& families = block_families();
    for (std::size_t f = 0; f < families.size(); ++f) {
      families[f]->frame_size(global_, g);
      const std::vector<double>& v = (*elements)[f];
      std::size_t at = 0;
      for (int e : element_ids_[f]) {
        const std::size_t used = families[f]->frame_unpack(global_, e, v.data() + at, v.size() - at, g);
        if (used == 0 && at < v.size()) break;  // short of values: the packs disagree with the layout
        at += used;
      }
    }
  };
  return f;
}

}  // namespace halfstep
