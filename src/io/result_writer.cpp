#include "io/result_writer.hpp"

#include <cstdio>
#include <limits>

#include "elements/mitc4_section.hpp"
#include "elements/rotation.hpp"
#include "io/atomic_file.hpp"
#include "io/vtu_writer.hpp"
#include "solver/solid_results.hpp"

namespace halfstep {

ResultWriter::ResultWriter(const Model& model, const StructureSystem& sys, const std::string& dir, const std::string& job)
    : model_(model),
      sys_(sys),
      dir_(dir),
      job_(job),
      pvd_((make_directories(dir), dir), job),
      energy_(dir + "/energy.csv", {"time", "kinetic", "internal", "external_work", "damping_work", "total", "hourglass"}) {
  // VTK cells, the same in every frame: shells (quads) first, then the solid groups.
  const int ne = sys.num_elements, nc = ne + sys.solid.num_elements;
  cell_conn_ = sys.conn;
  cell_conn_.insert(cell_conn_.end(), sys.solid.conn.begin(), sys.solid.conn.end());
  cell_offsets_.resize(nc);
  cell_types_.assign(nc, 9);  // VTK_QUAD
  for (int e = 0; e < ne; ++e) cell_offsets_[e] = 4 * (e + 1);
  for (const SolidGroup& g : sys.solid.groups)
    for (int e = g.first; e < g.first + g.count; ++e) {
      cell_offsets_[ne + e] = ne * 4 + g.conn_offset + (e - g.first + 1) * g.nodes_per_element;
      // VTK_TETRA, VTK_QUADRATIC_TETRA, VTK_HEXAHEDRON: Abaqus's node orders are VTK's.
      cell_types_[ne + e] = g.type == ElementType::C3D4 ? 10 : g.type == ElementType::C3D10M ? 24 : 12;
    }
}

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

void ResultWriter::rotations(const StructureState& st, std::vector<double>& out) const {
  const int nn = sys_.num_nodes;
  out.assign(3 * nn, 0.0);
  for (int n = 0; n < nn; ++n) {
    const Vec3<double> d0{sys_.dir0x[n], sys_.dir0y[n], sys_.dir0z[n]};
    const Vec3<double> r1{st.r1x[n], st.r1y[n], st.r1z[n]};
    const Vec3<double> d{st.dx[n], st.dy[n], st.dz[n]};
    const Vec3<double> t1{st.t1x[n], st.t1y[n], st.t1z[n]};
    const Vec3<double> th = rotation_vector(r1, cross(d0, r1), d0, t1, cross(d, t1), d);
    out[3 * n] = th.x;
    out[3 * n + 1] = th.y;
    out[3 * n + 2] = th.z;
  }
}

void ResultWriter::write_frame(const StructureState& st, const FullStepFields& full) {
  const int nn = sys_.num_nodes, ne = sys_.num_elements;
  auto interleave = [nn](const std::vector<double>* comp, std::vector<double>& out) {
    out.resize(3 * nn);
    for (int n = 0; n < nn; ++n)
      for (int i = 0; i < 3; ++i) out[3 * n + i] = comp[i][n];
  };
  std::vector<double> u(3 * nn), rot, vel, angvel, rf, rm, ids(nn);
  for (int n = 0; n < nn; ++n) {
    u[3 * n] = st.ux[n];
    u[3 * n + 1] = st.uy[n];
    u[3 * n + 2] = st.uz[n];
    ids[n] = static_cast<double>(model_.nodes.id[n]);
  }
  rotations(st, rot);
  interleave(&full.v[0], vel);
  interleave(&full.v[3], angvel);
  interleave(&full.rf[0], rf);
  interleave(&full.rf[3], rm);

  // Cells: shells (quads) first, then solids; a field of one family is NaN on the other's cells.
  const int ns = sys_.solid.num_elements, nc = ne + ns;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> sf(5 * nc, nan), sm(3 * nc, nan), stop(3 * nc, nan), sbot(3 * nc, nan), etop(3 * nc, nan),
      ebot(3 * nc, nan), mtop(nc, nan), mbot(nc, nan), eids(nc), energy_density(nc);
  for (int e = 0; e < ne; ++e) {
    const SectionProps& sec = sys_.sections[sys_.section[e]];
    const Mitc4SectionResults<double> r =
        mitc4_section_results(sys_.ref[e], gather_element_nodes(sys_, st, e), sec.thickness, sec.elastic);
    for (int i = 0; i < 5; ++i) sf[5 * e + i] = r.sf[i];
    for (int i = 0; i < 3; ++i) {
      sm[3 * e + i] = r.sm[i];
      stop[3 * e + i] = r.s_top[i];
      sbot[3 * e + i] = r.s_bottom[i];
      etop[3 * e + i] = r.e_top[i];
      ebot[3 * e + i] = r.e_bottom[i];
    }
    mtop[e] = r.mises_top;
    mbot[e] = r.mises_bottom;
    eids[e] = static_cast<double>(model_.elements.id[sys_.shell_model_element[e]]);
    energy_density[e] = st.elem_energy[e] / sys_.area[e];
  }
  std::vector<double> s6, e6, mises, hg;
  if (ns > 0) {
    s6.assign(6 * nc, nan);
    e6.assign(6 * nc, nan);
    mises.assign(nc, nan);
    hg.assign(nc, nan);
    const std::vector<SolidCellResult> solid = solid_cell_results(sys_, st);
    for (int e = 0; e < ns; ++e) {
      const int c = ne + e;
      for (int i = 0; i < 6; ++i) {
        s6[6 * c + i] = solid[e].stress[i];
        e6[6 * c + i] = solid[e].strain[i];
      }
      mises[c] = solid[e].mises;
      eids[c] = static_cast<double>(model_.elements.id[sys_.solid.model_element[e]]);
      energy_density[c] = st.solid_energy[e] / sys_.solid.volume[e];
      hg[c] = st.solid_hourglass[e] / sys_.solid.volume[e];
    }
  }
  std::vector<VtuField> cell_fields = {{"ElementId", 1, eids.data()}};
  if (ne > 0)
    cell_fields.insert(cell_fields.end(), {{"SF", 5, sf.data()},
                                           {"SM", 3, sm.data()},
                                           {"S_top", 3, stop.data()},
                                           {"S_bottom", 3, sbot.data()},
                                           {"E_top", 3, etop.data()},
                                           {"E_bottom", 3, ebot.data()},
                                           {"Mises_top", 1, mtop.data()},
                                           {"Mises_bottom", 1, mbot.data()}});
  if (ns > 0)
    cell_fields.insert(cell_fields.end(), {{"S", 6, s6.data()},
                                           {"E", 6, e6.data()},
                                           {"Mises", 1, mises.data()},
                                           {"HourglassEnergyDensity", 1, hg.data()}});
  cell_fields.push_back({"StrainEnergyDensity", 1, energy_density.data()});
  char name[64];
  std::snprintf(name, sizeof name, "%s_%06d.vtu", job_.c_str(), frame_);
  write_vtu(dir_ + "/" + name, nn, sys_.x0.data(), sys_.y0.data(), sys_.z0.data(),
            VtuCells{nc, cell_conn_.data(), cell_offsets_.data(), cell_types_.data()},
            {{"NodeId", 1, ids.data()},
             {"U", 3, u.data()},
             {"UR", 3, rot.data()},
             {"V", 3, vel.data()},
             {"VR", 3, angvel.data()},
             {"RF", 3, rf.data()},
             {"RM", 3, rm.data()}},
            cell_fields, {{"TimeValue", st.time}});
  pvd_.add_frame(st.time, name);
  ++frame_;
}

void ResultWriter::write_history(const StructureState& st, const FullStepFields& full) {
  if (histories_.empty()) return;
  std::vector<double> rot;
  rotations(st, rot);
  std::vector<double> row;
  for (History& h : histories_) {
    for (int n : h.nodes) {
      // Layout: time, node id, then the requested values.
      row.assign({st.time, static_cast<double>(model_.nodes.id[n])});
      if (h.u) row.insert(row.end(), {st.ux[n], st.uy[n], st.uz[n], rot[3 * n], rot[3 * n + 1], rot[3 * n + 2]});
      if (h.v)
        for (int i = 0; i < 6; ++i) row.push_back(full.v[i][n]);
      if (h.rf)
        for (int i = 0; i < 6; ++i) row.push_back(full.rf[i][n]);
      h.csv->write_row(row);
    }
    if (h.total) {
      row.assign(7, 0.0);
      row[0] = st.time;
      for (int n : h.nodes)
        for (int i = 0; i < 6; ++i) row[1 + i] += full.rf[i][n];
      h.total->write_row(row);
    }
  }
}

void ResultWriter::write_energy(const EnergyRecord& e) {
  energy_.write_row({e.time, e.kinetic, e.internal, e.external_work, e.damping_work, e.total(), e.hourglass});
}

}  // namespace halfstep
