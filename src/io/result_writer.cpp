#include "io/result_writer.hpp"

#include <cstdio>
#include <stdexcept>

#include "io/atomic_file.hpp"
#include "io/vtu_writer.hpp"

namespace halfstep {

ResultWriter::ResultWriter(const Model& model, const ResultMesh& mesh, const std::string& dir, const std::string& job)
    : model_(model),
      mesh_(mesh),
      dir_(dir),
      job_(job),
      pvd_((make_directories(dir), dir), job),
      energy_(dir + "/energy.csv", {"time", "kinetic", "internal", "external_work", "damping_work", "total", "hourglass"}) {}

void ResultWriter::open_histories(const std::vector<OutputRequest>& requests) {
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
    }
    std::vector<std::string> cols = {"time", "node"};
    auto add = [&](bool on, const char* a, const char* b) {
      if (!on) return;
      for (int i = 1; i <= 3; ++i) cols.push_back(a + std::to_string(i));
      for (int i = 1; i <= 3; ++i) cols.push_back(b + std::to_string(i));
    };
    add(h.u, "U", "UR");
    add(h.v, "V", "VR");
    add(h.rf, "RF", "RM");
    make_directories(dir_ + "/history");
    h.csv = std::make_unique<CsvWriter>(dir_ + "/history/" + r.nset + ".csv", cols);
    if (h.rf)
      h.total = std::make_unique<CsvWriter>(dir_ + "/history/" + r.nset + "_total.csv",
                                            std::vector<std::string>{"time", "RF1", "RF2", "RF3", "RM1", "RM2", "RM3"});
    histories_.push_back(std::move(h));
  }
}

namespace {

/// The nodal array called name of a history frame (it must carry it).
const std::vector<double>& nodal(const FieldSet& fields, const char* name) {
  const FieldArray* a = fields.find_point(name);
  if (!a) throw std::logic_error(std::string("history frame without the nodal array ") + name);
  return a->values;
}

}  // namespace

void ResultWriter::write(const ResultFrame& frame) {
  if (frame.field) write_frame(frame.time, frame.fields);
  if (frame.history) write_history(frame.time, frame.fields);
  if (frame.energy) write_energy(frame.energy_row);
}

void ResultWriter::write_frame(double time, const FieldSet& fields) {
  std::vector<VtuField> point, cell;
  for (const FieldArray& a : fields.point) point.push_back({a.name, a.components, a.values.data()});
  for (const FieldArray& a : fields.cell) cell.push_back({a.name, a.components, a.values.data()});
  char name[64];
  std::snprintf(name, sizeof name, "%s_%06d.vtu", job_.c_str(), frame_);
  write_vtu(dir_ + "/" + name, mesh_.num_points, mesh_.x.data(), mesh_.y.data(), mesh_.z.data(),
            VtuCells{mesh_.num_cells(), mesh_.conn.data(), mesh_.offsets.data(), mesh_.types.data()}, point, cell,
            {{"TimeValue", time}});
  pvd_.add_frame(time, name);
  ++frame_;
}

void ResultWriter::write_history(double time, const FieldSet& fields) {
  if (histories_.empty()) return;
  const std::vector<double>& u = nodal(fields, "U");
  const std::vector<double>& ur = nodal(fields, "UR");
  const std::vector<double>& v = nodal(fields, "V");
  const std::vector<double>& vr = nodal(fields, "VR");
  const std::vector<double>& rf = nodal(fields, "RF");
  const std::vector<double>& rm = nodal(fields, "RM");
  std::vector<double> row;
  const auto add3 = [&row](const std::vector<double>& a, int n) {
    row.insert(row.end(), {a[3 * n], a[3 * n + 1], a[3 * n + 2]});
  };
  for (History& h : histories_) {
    for (int n : h.nodes) {
      // Layout: time, node id, then the requested values.
      row.assign({time, static_cast<double>(model_.nodes.id[n])});
      if (h.u) add3(u, n), add3(ur, n);
      if (h.v) add3(v, n), add3(vr, n);
      if (h.rf) add3(rf, n), add3(rm, n);
      h.csv->write_row(row);
    }
    if (h.total) {
      row.assign(7, 0.0);
      row[0] = time;
      for (int n : h.nodes)
        for (int i = 0; i < 3; ++i) {
          row[1 + i] += rf[3 * n + i];
          row[4 + i] += rm[3 * n + i];
        }
      h.total->write_row(row);
    }
  }
}

void ResultWriter::write_energy(const EnergyRow& e) {
  energy_.write_row({e.time, e.kinetic, e.internal, e.external_work, e.damping_work, e.total, e.hourglass});
}

}  // namespace halfstep
