#include "io/result_writer.hpp"

#include <cstdio>

#include "elements/mitc4_section.hpp"
#include "elements/rotation.hpp"
#include "io/atomic_file.hpp"
#include "io/vtu_writer.hpp"

namespace halfstep {

ResultWriter::ResultWriter(const Model& model, const ShellSystem& sys, const std::string& dir, const std::string& job)
    : model_(model),
      sys_(sys),
      dir_(dir),
      job_(job),
      pvd_((make_directories(dir), dir), job),
      energy_(dir + "/energy.csv", {"time", "kinetic", "internal", "external_work", "damping_work", "total"}) {}

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
    histories_.push_back(std::move(h));
  }
}

void ResultWriter::rotations(const ShellState& st, std::vector<double>& out) const {
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

void ResultWriter::write_frame(const ShellState& st, const FullStepFields& full) {
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

  std::vector<double> sf(5 * ne), sm(3 * ne), stop(3 * ne), sbot(3 * ne), etop(3 * ne), ebot(3 * ne),
      mtop(ne), mbot(ne), eids(ne), energy_density(ne);
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
    eids[e] = static_cast<double>(model_.elements.id[e]);
    energy_density[e] = st.elem_energy[e] / sys_.area[e];
  }
  char name[64];
  std::snprintf(name, sizeof name, "%s_%06d.vtu", job_.c_str(), frame_);
  write_vtu(dir_ + "/" + name, nn, sys_.x0.data(), sys_.y0.data(), sys_.z0.data(), ne, sys_.conn.data(),
            {{"NodeId", 1, ids.data()},
             {"U", 3, u.data()},
             {"UR", 3, rot.data()},
             {"V", 3, vel.data()},
             {"VR", 3, angvel.data()},
             {"RF", 3, rf.data()},
             {"RM", 3, rm.data()}},
            {{"ElementId", 1, eids.data()},
             {"SF", 5, sf.data()},
             {"SM", 3, sm.data()},
             {"S_top", 3, stop.data()},
             {"S_bottom", 3, sbot.data()},
             {"E_top", 3, etop.data()},
             {"E_bottom", 3, ebot.data()},
             {"Mises_top", 1, mtop.data()},
             {"Mises_bottom", 1, mbot.data()},
             {"StrainEnergyDensity", 1, energy_density.data()}},
            {{"TimeValue", st.time}});
  pvd_.add_frame(st.time, name);
  ++frame_;
}

void ResultWriter::write_history(const ShellState& st, const FullStepFields& full) {
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
  }
}

void ResultWriter::write_energy(const EnergyRecord& e) {
  energy_.write_row({e.time, e.kinetic, e.internal, e.external_work, e.damping_work, e.total()});
}

}  // namespace halfstep
