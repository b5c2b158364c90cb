#include "io/result_writer.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <set>
#include <stdexcept>

#include <unistd.h>

#include "core/restart_blob.hpp"
#include "io/atomic_file.hpp"
#include "io/vtu_writer.hpp"

namespace halfstep {

namespace {

const std::vector<std::string>& energy_columns() {
  static const std::vector<std::string> c = {"time",      "kinetic",   "internal",           "external_work",
                                             "damping_work", "total",  "hourglass",          "plastic_dissipation",
                                             "contact",   "friction_dissipation", "mass_scaling_work",
                                             "viscous_dissipation", "thermal_work"};
  return c;
}

const std::vector<std::string>& contact_columns() {
  static const std::vector<std::string> c = {"time", "definition", "CFN1", "CFN2", "CFN3", "CFS1", "CFS2", "CFS3"};
  return c;
}

const std::vector<std::string>& total_columns() {
  static const std::vector<std::string> c = {"time", "RF1", "RF2", "RF3", "RM1", "RM2", "RM3"};
  return c;
}

}  // namespace

ResultWriter::ResultWriter(const Model& model, const ResultMesh& mesh, const std::string& dir, const std::string& job)
    : ResultWriter(model, mesh, dir, job, false) {}

ResultWriter::ResultWriter(const Model& model, const ResultMesh& mesh, const std::string& dir, const std::string& job,
                           bool resuming)
    : model_(model),
      mesh_(mesh),
      dir_(dir),
      job_(job),
      pvd_((make_directories(dir), dir), job, !resuming),
      bezier_pvd_(mesh.bezier ? std::make_unique<PvdWriter>(dir, job + "_nurbs", !resuming) : nullptr),
      energy_(resuming ? nullptr : std::make_unique<CsvWriter>(dir + "/energy.csv", energy_columns())) {}

// A set name becomes a file name inside OUTDIR/history: characters other than letters,
// digits, '_', '-' and '.' become '_', a leading '.' too (no "..", no path, no hidden file),
// and a name that two sets would share gets a number.
std::string ResultWriter::file_name_for(const std::string& set) {
  std::string f;
  for (char c : set) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '-' || c == '.';
    f += ok ? c : '_';
  }
  if (f.empty() || f[0] == '.') f.insert(f.begin(), '_');
  if (f.size() > 120) f.resize(120);
  std::string unique = f;
  for (int k = 2; used_files_.count(unique); ++k) unique = f + "_" + std::to_string(k);
  used_files_.insert(unique);
  return unique;
}

std::vector<std::string> ResultWriter::history_columns(const History& h) {
  std::vector<std::string> cols = {"time", "node"};
  auto add = [&](bool on, const char* a, const char* b) {
    if (!on) return;
    for (int i = 1; i <= 3; ++i) cols.push_back(a + std::to_string(i));
    for (int i = 1; i <= 3; ++i) cols.push_back(b + std::to_string(i));
  };
  add(h.u, "U", "UR");
  add(h.v, "V", "VR");
  add(h.rf, "RF", "RM");
  add(h.a, "A", "AR");
  return cols;
}

void ResultWriter::open_histories(const std::vector<OutputRequest>& requests) {
  field_vars_.clear();
  subset_ = FrameSubset{};
  bool whole = false;  // a request without a set asks for the whole model
  for (const OutputRequest& r : requests)
    if (r.kind == OutputRequest::Kind::Field) {
      for (const std::string& v : r.node_vars) field_vars_.push_back(v);
      for (const std::string& v : r.element_vars) field_vars_.push_back(v);
      if (!r.node_vars.empty()) {
        if (r.nset.empty()) whole = true;
        else subset_.nsets.push_back(r.nset);
      }
      if (!r.element_vars.empty()) {
        if (r.elset.empty()) whole = true;
        else subset_.elsets.push_back(r.elset);
      }
    }
  subset_.active = !whole && (!subset_.nsets.empty() || !subset_.elsets.empty());
  for (const OutputRequest& r : requests) {
    if (r.kind != OutputRequest::Kind::History || r.nset.empty()) continue;
    bool exists = false;
    for (const History& h : histories_) exists |= h.nset == r.nset;
    if (exists) continue;
    History h;
    h.nset = r.nset;
    h.nodes = model_.nsets.at(r.nset).members;
    for (const std::string& var : r.node_vars) {
      h.u |= var == "U";
      h.v |= var == "V";
      h.rf |= var == "RF";
      h.a |= var == "A";
    }
    make_directories(dir_ + "/history");
    const std::string file = file_name_for(r.nset);
    h.file = file;
    h.csv = std::make_unique<CsvWriter>(dir_ + "/history/" + file + ".csv", history_columns(h));
    if (h.rf) h.total = std::make_unique<CsvWriter>(dir_ + "/history/" + file + "_total.csv", total_columns());
    histories_.push_back(std::move(h));
    history_rows_ = nullptr;  // the new set's rows are still to be found
  }
}

const std::vector<double>& ResultWriter::nodal(const FieldSet& fields, const char* name) {
  const FieldArray* a = fields.find_point(name);
  if (!a) throw std::logic_error(std::string("frame without the nodal array ") + name);
  return a->values;
}

void ResultWriter::write(const ResultFrame& frame) {
  const auto t0 = std::chrono::steady_clock::now();
  if (frame.field) write_frame(frame.time, frame.fields, &frame.bezier);
  if (frame.nodes && (frame.field || frame.print))
    throw std::logic_error("a frame of some nodes only cannot be written as a field frame or printed");
  if (frame.history) write_history(frame.time, frame.fields, frame.nodes);
  if (frame.energy) write_energy(frame.energy_row);
  if (frame.energy && !frame.contact_force.empty()) write_contact(frame.time, frame.contact_force);
  if (!frame.eigenvalues.empty()) write_eigenvalues(frame);
  if (!frame.buckling_factors.empty()) write_buckling_factors(frame);
  if (!frame.steady_state_factors.empty()) write_steady_state_factors(frame);
  if (frame.print) write_prints(frame);
  if (seconds_)
    *seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

ResultWriter::~ResultWriter() {
  if (dat_) std::fclose(dat_);
  if (files_out_) {
    try {
      *files_out_ = files();
    } catch (const std::exception&) {  // out of memory while unwinding: the summary lists none
    }
  }
}

std::vector<std::string> ResultWriter::files() const {
  const std::string prefix = dir_ + "/";
  const auto relative = [&prefix](const std::string& path) {
    return path.compare(0, prefix.size(), prefix) == 0 ? path.substr(prefix.size()) : path;
  };
  std::vector<std::string> f{relative(pvd_.path())};
  if (bezier_pvd_) f.push_back(relative(bezier_pvd_->path()));
  if (energy_) f.push_back(relative(energy_->path()));
  for (const History& h : histories_) {
    f.push_back(relative(h.csv->path()));
    if (h.total) f.push_back(relative(h.total->path()));
  }
  if (contact_) f.push_back(relative(contact_->path()));
  if (dat_) f.push_back(job_ + ".dat");
  return f;
}


namespace {

/// The output variable an array belongs to ("" for those always written: ids, energy densities).
std::string variable_of(const std::string& array) {
  if (array == "U" || array == "UR") return "U";
  if (array == "V" || array == "VR") return "V";
  if (array == "RF" || array == "RM") return "RF";
  if (array == "A" || array == "AR") return "A";
  // AxialForce (trusses, springs, dashpots) goes with S, as Abaqus reports their force as S11.
  if (array == "S" || array == "Mises" || array == "AxialForce" || array.rfind("S_", 0) == 0 ||
      array.rfind("Mises_", 0) == 0)
    return "S";
  if (array == "E" || array.rfind("E_", 0) == 0) return "E";
  if (array == "SF" || array == "SM" || array == "PEEQ") return array;
  return "";
}

}  // namespace

// The frames' points are the model's nodes and their cells come in blocks of one element
// kind (MITC4 shells, each continuum kind, beams, triangles), each block in model element
// order. A run of the deck's order writes the same blocks, each in the deck's order; so a
// renumbered model's cells are put back by sorting each block by the deck's element order.
void ResultWriter::build_output_order(const FieldSet& fields) {
  const int np = mesh_.num_points, nc = mesh_.num_cells();
  const Renumbering& r = model_.renumbering;
  point_order_.resize(static_cast<std::size_t>(np));
  cell_order_.resize(static_cast<std::size_t>(nc));
  for (int c = 0; c < nc; ++c) cell_order_[static_cast<std::size_t>(c)] = c;
  if (!r.applied) {
    for (int p = 0; p < np; ++p) point_order_[static_cast<std::size_t>(p)] = p;
    return;
  }
  if (r.node_deck.size() != static_cast<std::size_t>(np) || np != model_.nodes.size())
    throw std::logic_error("renumbered model: frames of " + std::to_string(np) + " points for " +
                           std::to_string(model_.nodes.size()) + " nodes");
  for (int p = 0; p < np; ++p) point_order_[static_cast<std::size_t>(r.node_deck[static_cast<std::size_t>(p)])] = p;
  const FieldArray* ids = fields.find_cell("ElementId");
  if (!ids) throw std::logic_error("frame without element ids");
  // Per cell: its model element's kind and deck position (-1: no model element, kept in place).
  std::vector<int> kind(static_cast<std::size_t>(nc), -1), deck(static_cast<std::size_t>(nc), -1);
  for (int c = 0; c < nc; ++c) {
    const auto it = model_.elements.index.find(static_cast<std::int64_t>(ids->values[static_cast<std::size_t>(c)]));
    if (it == model_.elements.index.end()) continue;
    kind[static_cast<std::size_t>(c)] = model_.elements.kind[static_cast<std::size_t>(it->second)];
    deck[static_cast<std::size_t>(c)] = r.element_deck[static_cast<std::size_t>(it->second)];
  }
  for (int b = 0; b < nc;) {
    int end = b + 1;
    while (end < nc && kind[static_cast<std::size_t>(end)] == kind[static_cast<std::size_t>(b)]) ++end;
    if (kind[static_cast<std::size_t>(b)] >= 0) {
      // A block whose deck positions are a run of consecutive numbers (one element kind
      // written in one piece, the usual deck) is put in order by placing each cell at its
      // position; otherwise sorted.
      const auto [lo, hi] = std::minmax_element(deck.begin() + b, deck.begin() + end);
      if (*hi - *lo == end - b - 1) {
        for (int c = b; c < end; ++c) cell_order_[static_cast<std::size_t>(b + deck[static_cast<std::size_t>(c)] - *lo)] = c;
      } else {
        std::sort(cell_order_.begin() + b, cell_order_.begin() + end,
                  [&deck](int x, int y) { return deck[static_cast<std::size_t>(x)] < deck[static_cast<std::size_t>(y)]; });
      }
    }
    b = end;
  }
  // The whole mesh in that order, for write_frame's gather path.
  FrameSubset& s = deck_order_;
  s.points = point_order_;
  s.cells = cell_order_;
  std::vector<int> new_index(static_cast<std::size_t>(np));
  for (int k = 0; k < np; ++k) new_index[static_cast<std::size_t>(point_order_[static_cast<std::size_t>(k)])] = k;
  for (int c : s.cells) {
    for (std::int64_t k = c == 0 ? 0 : mesh_.offsets[static_cast<std::size_t>(c) - 1]; k < mesh_.offsets[static_cast<std::size_t>(c)]; ++k)
      s.conn.push_back(new_index[static_cast<std::size_t>(mesh_.conn[static_cast<std::size_t>(k)])]);
    s.offsets.push_back(static_cast<std::int64_t>(s.conn.size()));
    s.types.push_back(mesh_.types[static_cast<std::size_t>(c)]);
  }
  s.built = true;
}

// Kept: the cells of the element sets, the cells whose every node is in a node set (so a
// node set that covers a region still shows as a surface), the points of both; a point of a
// node set that no kept cell uses becomes a vertex cell.
void ResultWriter::build_subset(const FieldSet& fields) {
  FrameSubset& s = subset_;
  const int np = mesh_.num_points, nc = mesh_.num_cells();
  if (point_order_.empty()) build_output_order(fields);
  std::vector<char> in_nset(static_cast<std::size_t>(np), 0), keep_cell(static_cast<std::size_t>(nc), 0);
  for (const std::string& n : s.nsets)
    for (int p : model_.nsets.at(n).members) in_nset[static_cast<std::size_t>(p)] = 1;
  const std::vector<int>& cell_of = this->cell_of(fields);
  for (const std::string& n : s.elsets)
    for (int e : model_.elsets.at(n).members)
      if (cell_of[static_cast<std::size_t>(e)] >= 0) keep_cell[static_cast<std::size_t>(cell_of[static_cast<std::size_t>(e)])] = 1;
  const auto first = [this](int c) { return c == 0 ? std::int64_t{0} : mesh_.offsets[static_cast<std::size_t>(c) - 1]; };
  if (!s.nsets.empty())
    for (int c = 0; c < nc; ++c) {
      bool all = true;
      for (std::int64_t k = first(c); k < mesh_.offsets[static_cast<std::size_t>(c)] && all; ++k)
        all = in_nset[static_cast<std::size_t>(mesh_.conn[static_cast<std::size_t>(k)])] != 0;
      if (all) keep_cell[static_cast<std::size_t>(c)] = 1;
    }
  // Kept points and cells in the written order (the deck's: point_order_, cell_order_).
  std::vector<char> used(static_cast<std::size_t>(np), 0);
  for (int c : cell_order_)
    if (keep_cell[static_cast<std::size_t>(c)]) {
      s.cells.push_back(c);
      for (std::int64_t k = first(c); k < mesh_.offsets[static_cast<std::size_t>(c)]; ++k)
        used[static_cast<std::size_t>(mesh_.conn[static_cast<std::size_t>(k)])] = 1;
    }
  std::vector<int> new_index(static_cast<std::size_t>(np), -1);
  std::vector<int> lone;
  for (int p : point_order_)
    if (used[static_cast<std::size_t>(p)] || in_nset[static_cast<std::size_t>(p)]) {
      new_index[static_cast<std::size_t>(p)] = static_cast<int>(s.points.size());
      s.points.push_back(p);
      if (!used[static_cast<std::size_t>(p)]) lone.push_back(p);
    }
  for (int c : s.cells) {
    for (std::int64_t k = first(c); k < mesh_.offsets[static_cast<std::size_t>(c)]; ++k)
      s.conn.push_back(new_index[static_cast<std::size_t>(mesh_.conn[static_cast<std::size_t>(k)])]);
    s.offsets.push_back(static_cast<std::int64_t>(s.conn.size()));
    s.types.push_back(mesh_.types[static_cast<std::size_t>(c)]);
  }
  constexpr std::uint8_t kVtkVertex = 1;
  for (int p : lone) {
    s.conn.push_back(new_index[static_cast<std::size_t>(p)]);
    s.offsets.push_back(static_cast<std::int64_t>(s.conn.size()));
    s.types.push_back(kVtkVertex);
  }
  s.vertex_cells = static_cast<int>(lone.size());
  s.built = true;
}

// Only what the step's field requests name: smaller frames (an empty list, from a sink that
// was never told the requests, writes everything).
bool ResultWriter::wanted(const std::string& array) const {
  if (array == kNodalForceArray) return false;  // the .dat's only
  const std::string v = variable_of(array);
  return v.empty() || field_vars_.empty() || std::find(field_vars_.begin(), field_vars_.end(), v) != field_vars_.end();
}

namespace {

/// from's entries at rows, in that order (a frame's point coordinates).
std::vector<double> pick(const std::vector<double>& from, const std::vector<int>& rows) {
  std::vector<double> out(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) out[i] = from[static_cast<std::size_t>(rows[i])];
  return out;
}

/// a as a field of the .vtu writer (borrowing its values and component names), gathered
/// through rows when given.
VtuField vtu_field(const FieldArray& a, const std::vector<int>* rows = nullptr) {
  VtuField f{a.name, a.components, a.values.data()};
  if (rows) {
    f.rows = rows->data();
    f.row_count = rows->size();
    f.gathered = true;  // an empty row list writes NaN rows, not data's rows in order
  }
  f.symmetric_tensor = a.symmetric_tensor;
  f.component_names = &a.component_names;
  return f;
}

/// The arrays that wanted(name) keeps, as fields the writer gathers through rows as it writes
/// them (no copy of each array).
template <class Wanted>
void add_row_fields(const std::vector<FieldArray>& arrays, const std::vector<int>& rows, Wanted&& wanted,
                    std::vector<VtuField>& out) {
  for (const FieldArray& a : arrays)
    if (wanted(a.name)) out.push_back(vtu_field(a, &rows));
}

}  // namespace

void ResultWriter::write_frame(double time, const FieldSet& fields, const FieldSet* bezier) {
  std::vector<VtuField> point, cell;
  char name[64];
  std::snprintf(name, sizeof name, "%s_%06d.vtu", job_.c_str(), frame_);
  if (point_order_.empty()) build_output_order(fields);
  if (!subset_.active && !model_.renumbering.applied) {
    for (const FieldArray& a : fields.point)
      if (wanted(a.name)) point.push_back(vtu_field(a));
    for (const FieldArray& a : fields.cell)
      if (wanted(a.name)) cell.push_back(vtu_field(a));
    write_vtu(dir_ + "/" + name, mesh_.num_points, mesh_.x.data(), mesh_.y.data(), mesh_.z.data(),
              VtuCells{mesh_.num_cells(), mesh_.conn.data(), mesh_.offsets.data(), mesh_.types.data()}, point, cell,
              {{"TimeValue", time}});
  } else {
    // The requested part only, or a renumbered model's whole mesh in the deck's order:
    // arrays gathered to the kept points and cells (vertex cells of lone points carry NaN,
    // as a field of one family does on another family's cells).
    if (subset_.active && !subset_.built) build_subset(fields);
    const FrameSubset& s = subset_.active ? subset_ : deck_order_;
    const std::size_t kp = s.points.size(), kc = s.cells.size() + static_cast<std::size_t>(s.vertex_cells);
    const std::vector<double> x = pick(mesh_.x, s.points), y = pick(mesh_.y, s.points), z = pick(mesh_.z, s.points);
    const auto keep = [this](const std::string& n) { return wanted(n); };
    add_row_fields(fields.point, s.points, keep, point);
    add_row_fields(fields.cell, s.cells, keep, cell);
    write_vtu(dir_ + "/" + name, static_cast<int>(kp), x.data(), y.data(), z.data(),
              VtuCells{static_cast<int>(kc), s.conn.data(), s.offsets.data(), s.types.data()}, point, cell,
              {{"TimeValue", time}});
  }
  if (bezier_pvd_ && bezier && !bezier->point.empty()) write_bezier_frame(time, fields, *bezier);
  pvd_.add_frame(time, name);
  ++frame_;
}

// A Bézier cell is kept with its element: the frame subset's cells name the elements by
// their ElementId, and so do the Bézier cells.
void ResultWriter::build_bezier_subset(const FieldSet& fields, const FieldSet& bezier) {
  FrameSubset& s = subset_;
  const ResultMesh& m = *mesh_.bezier;
  const FieldArray* ids = fields.find_cell("ElementId");
  const FieldArray* bezier_ids = bezier.find_cell("ElementId");
  if (!ids || !bezier_ids) throw std::logic_error("frame without element ids");
  std::set<double> kept;
  for (int c : s.cells) kept.insert(ids->values[static_cast<std::size_t>(c)]);
  std::vector<int> new_index(static_cast<std::size_t>(m.num_points), -1);
  for (int c = 0; c < m.num_cells(); ++c) {
    if (!kept.count(bezier_ids->values[static_cast<std::size_t>(c)])) continue;
    s.bezier_cells.push_back(c);
    for (std::int64_t k = c == 0 ? 0 : m.offsets[static_cast<std::size_t>(c) - 1]; k < m.offsets[static_cast<std::size_t>(c)]; ++k) {
      int& to = new_index[static_cast<std::size_t>(m.conn[static_cast<std::size_t>(k)])];
      if (to < 0) {
        to = static_cast<int>(s.bezier_points.size());
        s.bezier_points.push_back(m.conn[static_cast<std::size_t>(k)]);
      }
      s.bezier_conn.push_back(to);
    }
    s.bezier_offsets.push_back(static_cast<std::int64_t>(s.bezier_conn.size()));
    s.bezier_types.push_back(m.types[static_cast<std::size_t>(c)]);
  }
  s.bezier_built = true;
}

void ResultWriter::write_bezier_frame(double time, const FieldSet& fields, const FieldSet& bezier) {
  const ResultMesh& m = *mesh_.bezier;
  char name[80];
  std::snprintf(name, sizeof name, "%s_nurbs_%06d.vtu", job_.c_str(), frame_);
  std::vector<VtuField> point, cell;
  if (!subset_.active) {
    for (const FieldArray& a : bezier.point)
      if (wanted(a.name)) point.push_back(vtu_field(a));
    for (const FieldArray& a : bezier.cell)
      if (wanted(a.name)) cell.push_back(vtu_field(a));
    write_vtu(dir_ + "/" + name, m.num_points, m.x.data(), m.y.data(), m.z.data(),
              VtuCells{m.num_cells(), m.conn.data(), m.offsets.data(), m.types.data()}, point, cell,
              {{"TimeValue", time}});
  } else {
    if (!subset_.bezier_built) build_bezier_subset(fields, bezier);
    const FrameSubset& s = subset_;
    if (s.bezier_cells.empty()) return;  // the requested part holds no NURBS element
    const std::size_t kp = s.bezier_points.size(), kc = s.bezier_cells.size();
    const std::vector<double> x = pick(m.x, s.bezier_points), y = pick(m.y, s.bezier_points), z = pick(m.z, s.bezier_points);
    const auto keep = [this](const std::string& n) { return wanted(n); };
    add_row_fields(bezier.point, s.bezier_points, keep, point);
    add_row_fields(bezier.cell, s.bezier_cells, keep, cell);
    write_vtu(dir_ + "/" + name, static_cast<int>(kp), x.data(), y.data(), z.data(),
              VtuCells{static_cast<int>(kc), s.bezier_conn.data(), s.bezier_offsets.data(), s.bezier_types.data()}, point,
              cell, {{"TimeValue", time}});
  }
  bezier_pvd_->add_frame(time, name);
}

void ResultWriter::write_history(double time, const FieldSet& fields, const std::shared_ptr<const std::vector<int>>& nodes) {
  if (histories_.empty()) return;
  if (nodes && nodes != history_rows_) {
    // Each set's nodes in the frame's list (ascending); a node missing there is the caller's
    // error, reported rather than read out of bounds.
    for (History& h : histories_) {
      h.rows.clear();
      for (int n : h.nodes) {
        const auto at = std::lower_bound(nodes->begin(), nodes->end(), n);
        if (at == nodes->end() || *at != n)
          throw std::logic_error("history frame without node " + std::to_string(model_.nodes.id[n]) + " of set " +
                                 h.nset);
        h.rows.push_back(static_cast<int>(at - nodes->begin()));
      }
    }
    history_rows_ = nodes;
  }
  const std::vector<double>& u = nodal(fields, "U");
  const std::vector<double>& ur = nodal(fields, "UR");
  const std::vector<double>& v = nodal(fields, "V");
  const std::vector<double>& vr = nodal(fields, "VR");
  const std::vector<double>& rf = nodal(fields, "RF");
  const std::vector<double>& rm = nodal(fields, "RM");
  const std::vector<double>& acc = nodal(fields, "A");
  const std::vector<double>& accr = nodal(fields, "AR");
  std::vector<double> row;
  const auto add3 = [&row](const std::vector<double>& a, int n) {
    row.insert(row.end(), {a[3 * n], a[3 * n + 1], a[3 * n + 2]});
  };
  for (History& h : histories_) {
    // Node i of the set is entity at(i) of the arrays: itself, or its row in a compact frame.
    const auto at = [&](std::size_t i) { return nodes ? h.rows[i] : h.nodes[i]; };
    for (std::size_t i = 0; i < h.nodes.size(); ++i) {
      // Layout: time, node id, then the requested values.
      const int n = at(i);
      row.assign({time, static_cast<double>(model_.nodes.id[h.nodes[i]])});
      if (h.u) add3(u, n), add3(ur, n);
      if (h.v) add3(v, n), add3(vr, n);
      if (h.rf) add3(rf, n), add3(rm, n);
      if (h.a) add3(acc, n), add3(accr, n);
      h.csv->write_row(row);
    }
    if (h.total) {
      row.assign(7, 0.0);
      row[0] = time;
      for (std::size_t k = 0; k < h.nodes.size(); ++k) {
        const int n = at(k);
        for (int i = 0; i < 3; ++i) {
          row[1 + i] += rf[3 * n + i];
          row[4 + i] += rm[3 * n + i];
        }
      }
      h.total->write_row(row);
    }
  }
}

void ResultWriter::write_contact(double time, const std::vector<double>& force) {
  if (!contact_) {
    make_directories(dir_ + "/history");
    contact_ = std::make_unique<CsvWriter>(dir_ + "/history/contact.csv", contact_columns());
  }
  for (std::size_t p = 0; 6 * p + 5 < force.size(); ++p) {
    std::vector<double> row{time, static_cast<double>(p + 1)};
    row.insert(row.end(), force.begin() + static_cast<std::ptrdiff_t>(6 * p),
               force.begin() + static_cast<std::ptrdiff_t>(6 * p + 6));
    contact_->write_row(row);
  }
}

void ResultWriter::write_energy(const EnergyRow& e) {
  energy_->write_row(
      {e.time, e.kinetic, e.internal, e.external_work, e.damping_work, e.total, e.hourglass, e.plastic_dissipation,
       e.contact, e.friction_dissipation, e.mass_scaling_work, e.viscous_dissipation, e.thermal_work});
}

namespace {

/// Whether name is one file_name_for could have given (a plain name inside OUTDIR/history):
/// a restart's names are checked before any of them becomes a path.
bool history_file_name(const std::string& name) {
  if (name.empty() || name[0] == '.' || name.size() > 200) return false;
  for (char c : name) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '-' || c == '.';
    if (!ok) return false;
  }
  return true;
}

/// The frame files a .pvd's restored entries list, checked against the names the writer
/// gives (prefix NNNNNN.vtu, NNNNNN below frames) and present in dir; fails through b otherwise.
void check_listed_frames(const RestartBlob& b, const std::string& entries, const std::string& dir,
                         const std::string& prefix, int frames) {
  const std::string attr = "file=\"";
  for (std::size_t at = entries.find(attr); at != std::string::npos; at = entries.find(attr, at)) {
    at += attr.size();
    const std::size_t end = entries.find('"', at);
    if (end == std::string::npos) b.fail("a frame list entry without its end");
    const std::string file = entries.substr(at, end - at);
    // prefix, a frame number (at least 6 digits, below frames), ".vtu": the names write_frame gives.
    const std::string want = xml_escape(prefix);
    bool ours = file.size() >= want.size() + 10 && file.compare(0, want.size(), want) == 0 &&
                file.compare(file.size() - 4, 4, ".vtu") == 0;
    long long number = 0;
    for (std::size_t k = want.size(); ours && k + 4 < file.size(); ++k) {
      ours = file[k] >= '0' && file[k] <= '9' && number < frames;
      number = 10 * number + (file[k] - '0');
    }
    if (!ours || number >= frames) b.fail("it lists a frame '" + file + "' that this run's writer never names");
    // The name on disk (the list holds it xml_escape'd).
    const std::string path = dir + "/" + prefix + file.substr(want.size());
    if (::access(path.c_str(), F_OK) != 0)
      throw RestartError(path, "this frame, written before the restart point, is missing: the folder does not hold "
                               "the results the restart continues (resume in the folder the restart was written in, "
                               "or a whole copy of it)");
    at = end;
  }
}

}  // namespace

// The checkpoint is itself a RestartBlob (a section of the restart file). Files are named
// relative to OUTDIR (history files by their plain names), never by path, so a copied or
// moved folder resumes in place and a resume writes only inside its own folder; each
// appended file's size and the hash of its bytes so far let resume() check that the folder
// holds the results the restart continues before it cuts anything.
std::string ResultWriter::checkpoint() const {
  RestartBlob b;
  b.put_value("frame", frame_);
  b.put_text("pvd", pvd_.entries());
  if (bezier_pvd_) b.put_text("bezier_pvd", bezier_pvd_->entries());
  b.put_value("energy", energy_->size());
  b.put_value("energy_hash", energy_->content_hash());
  if (contact_) {
    b.put_value("contact", contact_->size());
    b.put_value("contact_hash", contact_->content_hash());
  }
  b.put_value("histories", static_cast<std::uint64_t>(histories_.size()));
  for (std::size_t i = 0; i < histories_.size(); ++i) {
    const History& h = histories_[i];
    const std::string k = "history" + std::to_string(i) + ".";
    b.put_text(k + "nset", h.nset);
    b.put_text(k + "file", h.file);
    const std::uint8_t flags[4] = {h.u, h.v, h.rf, h.a};
    b.put(k + "flags", flags, 4);
    b.put_value(k + "csv_size", h.csv->size());
    b.put_value(k + "csv_hash", h.csv->content_hash());
    if (h.total) {
      b.put_value(k + "total_size", h.total->size());
      b.put_value(k + "total_hash", h.total->content_hash());
    }
  }
  std::string used;
  for (const std::string& f : used_files_) used += f + '\n';
  b.put_text("used_files", used);
  if (dat_) {
    std::fflush(dat_);
    const long at = std::ftell(dat_);
    if (at < 0) throw std::runtime_error("cannot tell the size of '" + dir_ + "/" + job_ + ".dat'");
    // The bytes printed since the last checkpoint join the running hash (the .dat is a FILE*).
    if (static_cast<std::uint64_t>(at) > dat_hashed_) {
      const std::string path = dir_ + "/" + job_ + ".dat";
      std::FILE* in = std::fopen(path.c_str(), "rb");
      if (!in || std::fseek(in, static_cast<long>(dat_hashed_), SEEK_SET) != 0) {
        if (in) std::fclose(in);
        throw std::runtime_error("cannot read back '" + path + "'");
      }
      char buf[1 << 14];
      std::uint64_t left = static_cast<std::uint64_t>(at) - dat_hashed_;
      while (left > 0) {
        const std::size_t got = std::fread(buf, 1, static_cast<std::size_t>(std::min<std::uint64_t>(left, sizeof buf)), in);
        if (got == 0) break;
        dat_hash_.update(buf, got);
        left -= got;
      }
      std::fclose(in);
      if (left > 0) throw std::runtime_error("cannot read back '" + path + "'");
      dat_hashed_ = static_cast<std::uint64_t>(at);
    }
    b.put_value("dat", static_cast<std::int64_t>(at));
    b.put_value("dat_hash", dat_hash_.value());
  }
  return b.serialize();
}

void ResultWriter::resume(const std::string& checkpoint, const std::string& restart_file) {
  const RestartBlob b = RestartBlob::parse(checkpoint, restart_file);
  // Everything is read and checked first: names, then every file's bytes up to the restart
  // point; only then is anything cut back or rewritten, so a refused resume leaves the folder
  // as it was.
  const int frames = b.get_value<int>("frame");
  if (frames < 0) b.fail("a negative frame count");
  check_listed_frames(b, b.bytes("pvd"), dir_, job_ + "_", frames);
  if (bezier_pvd_ && b.has("bezier_pvd")) check_listed_frames(b, b.bytes("bezier_pvd"), dir_, job_ + "_nurbs_", frames);
  struct Continued {
    std::string path;
    std::uint64_t size;
    Hasher64 prefix;
  };
  const auto continued = [&](const std::string& path, const std::string& size_key, const std::string& hash_key) {
    const auto size = b.get_value<std::uint64_t>(size_key);
    return Continued{path, size, check_prefix(path, size, b.get_value<std::uint64_t>(hash_key))};
  };
  const Continued energy = continued(dir_ + "/energy.csv", "energy", "energy_hash");
  std::optional<Continued> contact;
  if (b.has("contact")) contact = continued(dir_ + "/history/contact.csv", "contact", "contact_hash");
  const auto n = b.get_value<std::uint64_t>("histories");
  if (n > model_.nsets.size()) b.fail("more history sets than this deck has node sets");
  std::vector<History> histories;
  std::vector<Continued> csv, total;
  std::vector<bool> has_total;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::string k = "history" + std::to_string(i) + ".";
    History h;
    h.nset = b.bytes(k + "nset");
    const auto it = model_.nsets.find(h.nset);
    if (it == model_.nsets.end()) b.fail("history set '" + h.nset + "' is not in this deck");
    h.nodes = it->second.members;
    h.file = b.bytes(k + "file");
    if (!history_file_name(h.file))
      b.fail("history file name '" + h.file + "' is not a plain file name inside OUTDIR/history");
    const std::string& flags = b.bytes(k + "flags");
    // Three flags: a restart written before accelerations could be asked for.
    if (flags.size() != 3 && flags.size() != 4) b.fail("history flags of the wrong size");
    h.u = flags[0] != 0;
    h.v = flags[1] != 0;
    h.rf = flags[2] != 0;
    h.a = flags.size() == 4 && flags[3] != 0;
    if (b.has(k + "total_size") != h.rf) b.fail("history set '" + h.nset + "' has its total file without RF, or not");
    csv.push_back(continued(dir_ + "/history/" + h.file + ".csv", k + "csv_size", k + "csv_hash"));
    if (h.rf) total.push_back(continued(dir_ + "/history/" + h.file + "_total.csv", k + "total_size", k + "total_hash"));
    histories.push_back(std::move(h));
  }
  std::set<std::string> used;
  const std::string& used_text = b.bytes("used_files");
  for (std::size_t at = 0; at < used_text.size();) {
    const std::size_t nl = used_text.find('\n', at);
    const std::string name = used_text.substr(at, nl - at);
    if (!history_file_name(name)) b.fail("history file name '" + name + "' is not a plain file name");
    used.insert(name);
    at = nl == std::string::npos ? used_text.size() : nl + 1;
  }
  for (const History& h : histories)
    if (!used.count(h.file)) b.fail("history file name '" + h.file + "' is not among the names given out");
  std::optional<Continued> dat;
  if (b.has("dat")) {
    const auto size = b.get_value<std::int64_t>("dat");
    if (size < 0) b.fail("a negative .dat size");
    const std::string path = dir_ + "/" + job_ + ".dat";
    dat = Continued{path, static_cast<std::uint64_t>(size),
                    check_prefix(path, static_cast<std::uint64_t>(size), b.get_value<std::uint64_t>("dat_hash"))};
  }

  // Checked: continue every file from its restart point.
  frame_ = frames;
  pvd_.restore(b.bytes("pvd"));
  if (bezier_pvd_) bezier_pvd_->restore(b.has("bezier_pvd") ? b.bytes("bezier_pvd") : std::string());
  energy_ = std::make_unique<CsvWriter>(energy.path, energy_columns(), energy.size, energy.prefix);
  if (contact) contact_ = std::make_unique<CsvWriter>(contact->path, contact_columns(), contact->size, contact->prefix);
  histories_.clear();
  history_rows_ = nullptr;
  for (std::size_t i = 0, t = 0; i < histories.size(); ++i) {
    History& h = histories[i];
    h.csv = std::make_unique<CsvWriter>(csv[i].path, history_columns(h), csv[i].size, csv[i].prefix);
    if (h.rf) {
      h.total = std::make_unique<CsvWriter>(total[t].path, total_columns(), total[t].size, total[t].prefix);
      ++t;
    }
    histories_.push_back(std::move(h));
  }
  used_files_ = std::move(used);
  if (dat) {
    if (::truncate(dat->path.c_str(), static_cast<off_t>(dat->size)) != 0)
      throw std::runtime_error("cannot cut back '" + dat->path + "' to its restart point");
    dat_ = std::fopen(dat->path.c_str(), "a");
    if (!dat_) throw std::runtime_error("cannot reopen '" + dat->path + "'");
    dat_hash_ = dat->prefix;
    dat_hashed_ = dat->size;
  }
}

}  // namespace halfstep
