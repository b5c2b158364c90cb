// Tests of the shares rank 0 sends the other ranks of a distributed run
// (src/parallel/run_share.hpp, core/byte_archive.hpp): on the parallel test decks (shells on
// solids with every load kind and amplitudes, beams, FPM triangles, plastic shells and solids,
// contact with edges and an analytical surface) split over 2 and 3 ranks, the share read back
// from its bytes holds what restrict_system, restrict_step and restrict_state made, array by
// array; the outline keeps what the time loop reads; truncated and corrupted bytes give an
// ArchiveError, never a crash or a huge allocation.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/byte_archive.hpp"
#include "discretization/step_loads.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "io/inp_reader.hpp"
#include "parallel/partition.hpp"
#include "parallel/run_share.hpp"
#include "parallel/subdomain.hpp"

namespace halfstep {
namespace {

/// A deck's whole model, system, steps and a state with distinct values in every array.
struct Whole {
  std::string name;
  Model model;
  StructureSystem sys;
  std::vector<StepLoads> steps;
  StructureState st;
};

/// Fills every array of st with values that differ from node to node and array to array, so
/// that a value landing at the wrong place is seen.
void fill_state(StructureState& st) {
  double next = 1;
  const auto fill = [&](std::vector<double>& v) {
    for (double& x : v) x = (next += 0.25);
  };
  for (auto* v : {&st.ux, &st.uy, &st.uz, &st.dx, &st.dy, &st.dz, &st.t1x, &st.t1y, &st.t1z, &st.r1x, &st.r1y,
                  &st.r1z, &st.row<BeamMesh>().state, &st.row<TriMesh>().state, &st.shell_state, &st.solid_state})
    fill(*v);
  for (auto& v : st.v) fill(v);
  st.time = 0.125;
  st.half_dt_prev = 0.0625;
}

const std::vector<Whole>& decks() {
  static const std::vector<Whole> all = [] {
    std::vector<Whole> out;
    for (const char* path :
         {"/tests/parallel/decks/mixed.inp", "/tests/parallel/decks/stiffened_plate.inp",
          "/tests/parallel/decks/plastic_bar.inp", "/tests/parallel/decks/lee_frame.inp",
          "/tests/parallel/decks/contact_tube.inp", "/tests/parallel/decks/contact_hertz.inp",
          "/tests/parallel/decks/contact_wall.inp", "/tests/gpu/decks/shell_dome_j2.inp",
          "/tests/gpu/decks/tri_dome_j2.inp", "/tests/gpu/decks/solid_c3d10m_svk.inp"}) {
      Whole w;
      w.name = path;
      w.model = read_inp(std::string(HALFSTEP_SOURCE_DIR) + path);
      w.sys = build_structure_system(w.model);
      w.steps = build_step_loads(w.model, w.sys);
      w.st.initialize(w.sys);
      fill_state(w.st);
      out.push_back(std::move(w));
    }
    return out;
  }();
  return all;
}

/// Rank q's share as rank 0 makes it.
RunShare make_share(const Whole& w, const std::vector<int>& part, int q, int ranks) {
  RunShare s = rank_part(w.sys, w.steps, w.st, part, q, ranks);
  s.outline = model_outline(w.model);
  s.whole = system_outline(w.sys);
  return s;
}

/// Runs check(deck, sent share, received share, bytes) for every deck and rank of 2 and 3.
template <class F>
void for_each_share(F&& check) {
  for (const Whole& w : decks())
    for (int ranks : {2, 3}) {
      const std::vector<int> part = partition_elements(w.model, ranks);
      for (int q = 0; q < ranks; ++q) {
        SCOPED_TRACE(testing::Message() << w.name << ", rank " << q << " of " << ranks);
        const RunShare sent = make_share(w, part, q, ranks);
        const std::string bytes = serialize_share(sent);
        const RunShare got = parse_share(bytes, "test share");
        check(w, sent, got, bytes);
      }
    }
}

/// Bytes of a trivially copyable value, to compare structures that travel as their bytes.
template <class T>
std::string raw(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

TEST(RunShare, SubdomainArrivesArrayByArray) {
  for_each_share([](const Whole&, const RunShare& a, const RunShare& b, const std::string&) {
    const Subdomain &x = a.domain, &y = b.domain;
    EXPECT_EQ(x.rank, y.rank);
    EXPECT_EQ(x.ranks, y.ranks);
    EXPECT_EQ(x.node_global, y.node_global);
    EXPECT_EQ(x.node_local, y.node_local);
    ASSERT_EQ(x.elements.size(), y.elements.size());
    for (std::size_t f = 0; f < x.elements.size(); ++f) {
      EXPECT_EQ(x.elements[f].global, y.elements[f].global) << "family " << f;
      EXPECT_EQ(x.elements[f].local, y.elements[f].local) << "family " << f;
      EXPECT_EQ(x.elements[f].boundary, y.elements[f].boundary) << "family " << f;
    }
    EXPECT_EQ(x.num_interface, y.num_interface);
    EXPECT_EQ(x.owned, y.owned);
    EXPECT_EQ(x.neighbors, y.neighbors);
    EXPECT_EQ(x.send_ptr, y.send_ptr);
    EXPECT_EQ(x.send_nodes, y.send_nodes);
    EXPECT_EQ(x.sum_ptr, y.sum_ptr);
    EXPECT_EQ(x.sum_src, y.sum_src);
    EXPECT_EQ(x.elements_per_rank, y.elements_per_rank);
    const ContactShare &c = x.contact, &d = y.contact;
    EXPECT_EQ(c.node_global, d.node_global);
    EXPECT_EQ(c.node_local, d.node_local);
    EXPECT_EQ(c.fills, d.fills);
    EXPECT_EQ(c.records, d.records);
    EXPECT_EQ(c.edge_records, d.edge_records);
    EXPECT_EQ(c.holder_ptr, d.holder_ptr);
    EXPECT_EQ(c.holders, d.holders);
    EXPECT_EQ(c.x0, d.x0);
    EXPECT_EQ(c.mass, d.mass);
    EXPECT_EQ(c.system.facet_nodes, d.system.facet_nodes);
    EXPECT_EQ(c.system.slave_node, d.system.slave_node);
    EXPECT_EQ(c.system.edge_nodes, d.system.edge_nodes);
    EXPECT_EQ(c.system.analytic_seg, d.system.analytic_seg);
    EXPECT_EQ(c.system.analytic_name, d.system.analytic_name);
    EXPECT_EQ(c.system.node_area, d.system.node_area);
    EXPECT_EQ(c.system.reach, d.system.reach);
  });
}

TEST(RunShare, SystemArrivesArrayByArray) {
  for_each_share([](const Whole&, const RunShare& a, const RunShare& b, const std::string&) {
    const StructureSystem &x = a.system, &y = b.system;
    EXPECT_EQ(x.num_nodes, y.num_nodes);
    EXPECT_EQ(x.shell.num_elements, y.shell.num_elements);
    EXPECT_EQ(x.x0, y.x0);
    EXPECT_EQ(x.y0, y.y0);
    EXPECT_EQ(x.z0, y.z0);
    EXPECT_EQ(x.shell.model_element, y.shell.model_element);
    EXPECT_EQ(x.shell.conn, y.shell.conn);
    EXPECT_EQ(x.shell.section, y.shell.section);
    ASSERT_EQ(x.shell.sections.size(), y.shell.sections.size());
    for (std::size_t i = 0; i < x.shell.sections.size(); ++i) {
      EXPECT_EQ(x.shell.sections[i].name, y.shell.sections[i].name);
      EXPECT_EQ(x.shell.sections[i].thickness, y.shell.sections[i].thickness);
      EXPECT_EQ(x.shell.sections[i].section_points, y.shell.sections[i].section_points);
      EXPECT_EQ(0, std::memcmp(&x.shell.sections[i].law, &y.shell.sections[i].law, sizeof x.shell.sections[i].law));
    }
    EXPECT_EQ(raw(x.shell.ref), raw(y.shell.ref));
    EXPECT_EQ(x.dir0x, y.dir0x);
    EXPECT_EQ(x.mass, y.mass);
    EXPECT_EQ(x.inertia, y.inertia);
    EXPECT_EQ(x.damp, y.damp);
    EXPECT_EQ(x.damp_rot, y.damp_rot);
    EXPECT_EQ(x.shell.area, y.shell.area);
    EXPECT_EQ(x.shell.element_dt, y.shell.element_dt);
    EXPECT_EQ(x.shell.node_slot_ptr, y.shell.node_slot_ptr);
    EXPECT_EQ(x.shell.node_slots, y.shell.node_slots);
    EXPECT_EQ(x.shell.first_point, y.shell.first_point);
    EXPECT_EQ(x.shell.num_points, y.shell.num_points);
    EXPECT_EQ(x.total_mass, y.total_mass);
    EXPECT_EQ(x.energy_per_unit_strain, y.energy_per_unit_strain);
    EXPECT_EQ(x.stable_dt, y.stable_dt);
    EXPECT_EQ(x.controlling_element, y.controlling_element);
    EXPECT_EQ(x.node_rotates, y.node_rotates);
    EXPECT_EQ(x.any_director_nodes, y.any_director_nodes);
    EXPECT_EQ(x.node_dofs, y.node_dofs);
    EXPECT_EQ(x.num_interface, y.num_interface);
    EXPECT_EQ(x.shell.boundary, y.shell.boundary);
    EXPECT_EQ(x.owned, y.owned);
    const SolidMesh &s = x.solid, &t = y.solid;
    EXPECT_EQ(s.num_elements, t.num_elements);
    EXPECT_EQ(s.model_element, t.model_element);
    EXPECT_EQ(s.conn, t.conn);
    EXPECT_EQ(s.material, t.material);
    EXPECT_EQ(raw(s.materials), raw(t.materials));
    EXPECT_EQ(s.material_name, t.material_name);
    EXPECT_EQ(raw(s.groups), raw(t.groups));
    EXPECT_EQ(s.volume, t.volume);
    EXPECT_EQ(s.node_slots, t.node_slots);
    EXPECT_EQ(s.planar, t.planar);
    EXPECT_EQ(s.state_size, t.state_size);
    EXPECT_EQ(s.num_points, t.num_points);
    EXPECT_EQ(s.element_data, t.element_data);
    EXPECT_EQ(s.element_data_ptr, t.element_data_ptr);
    EXPECT_EQ(x.mesh<BeamMesh>().conn, y.mesh<BeamMesh>().conn);
    EXPECT_EQ(raw(x.mesh<BeamMesh>().constants), raw(y.mesh<BeamMesh>().constants));
    EXPECT_EQ(x.mesh<BeamMesh>().n1x, y.mesh<BeamMesh>().n1x);
    EXPECT_EQ(x.mesh<BeamMesh>().length0, y.mesh<BeamMesh>().length0);
    EXPECT_EQ(x.mesh<BeamMesh>().boundary, y.mesh<BeamMesh>().boundary);
    EXPECT_EQ(x.mesh<TriMesh>().conn, y.mesh<TriMesh>().conn);
    EXPECT_EQ(raw(x.mesh<TriMesh>().constants), raw(y.mesh<TriMesh>().constants));
    EXPECT_EQ(x.mesh<TriMesh>().edge3z, y.mesh<TriMesh>().edge3z);
    EXPECT_EQ(x.mesh<TriMesh>().area0, y.mesh<TriMesh>().area0);
    EXPECT_EQ(x.mesh<TriMesh>().boundary, y.mesh<TriMesh>().boundary);
    EXPECT_EQ(x.contact.num_slaves, y.contact.num_slaves);
    EXPECT_EQ(x.contact.slave_node, y.contact.slave_node);
    EXPECT_EQ(x.contact.edge_facets, y.contact.edge_facets);
    EXPECT_EQ(x.contact.mu_static, y.contact.mu_static);
  });
}

TEST(RunShare, StepsArriveWithTheirAmplitudes) {
  for_each_share([](const Whole&, const RunShare& a, const RunShare& b, const std::string&) {
    ASSERT_EQ(a.steps.size(), b.steps.size());
    for (std::size_t i = 0; i < a.steps.size(); ++i) {
      const StepLoads &x = a.steps[i], &y = b.steps[i];
      EXPECT_EQ(x.name, y.name);
      EXPECT_EQ(x.period, y.period);
      EXPECT_EQ(x.fixed_increment, y.fixed_increment);
      EXPECT_EQ(x.load_node, y.load_node);
      EXPECT_EQ(x.load_dof, y.load_dof);
      EXPECT_EQ(x.load_amp, y.load_amp);
      EXPECT_EQ(x.load_value, y.load_value);
      EXPECT_EQ(x.pressure_elem, y.pressure_elem);
      EXPECT_EQ(x.pressure_value, y.pressure_value);
      EXPECT_EQ(x.face_elem, y.face_elem);
      EXPECT_EQ(x.face_label, y.face_label);
      EXPECT_EQ(x.motion_node, y.motion_node);
      EXPECT_EQ(x.motion_value, y.motion_value);
      EXPECT_EQ(x.motion_velocity, y.motion_velocity);
      EXPECT_EQ(x.frame_node, y.frame_node);
      EXPECT_EQ(x.frame_q, y.frame_q);
      EXPECT_EQ(x.fixed_translation, y.fixed_translation);
      EXPECT_EQ(x.fixed_rotation, y.fixed_rotation);
      ASSERT_EQ(x.outputs.size(), y.outputs.size());
      for (std::size_t k = 0; k < x.outputs.size(); ++k) {
        EXPECT_EQ(x.outputs[k].nset, y.outputs[k].nset);
        EXPECT_EQ(x.outputs[k].node_vars, y.outputs[k].node_vars);
        EXPECT_EQ(x.outputs[k].time_interval, y.outputs[k].time_interval);
      }
      // Each named amplitude is the received outline's, with the deck's values.
      ASSERT_EQ(x.amplitudes.named.size(), y.amplitudes.named.size());
      for (std::size_t k = 0; k < x.amplitudes.named.size(); ++k) {
        const Amplitude* g = y.amplitudes.named[k];
        EXPECT_EQ(g, &b.outline.amplitudes.at(g->name));
        EXPECT_EQ(g->name, x.amplitudes.named[k]->name);
        EXPECT_EQ(g->time, x.amplitudes.named[k]->time);
        EXPECT_EQ(g->value, x.amplitudes.named[k]->value);
        EXPECT_EQ(g->kind, x.amplitudes.named[k]->kind);
      }
    }
  });
}

TEST(RunShare, StateArrivesArrayByArray) {
  for_each_share([](const Whole&, const RunShare& a, const RunShare& b, const std::string&) {
    const StructureState &x = a.state, &y = b.state;
    EXPECT_EQ(x.ux, y.ux);
    EXPECT_EQ(x.uy, y.uy);
    EXPECT_EQ(x.uz, y.uz);
    for (int k = 0; k < kMaxNodeDofs; ++k) EXPECT_EQ(x.v[k], y.v[k]);
    EXPECT_EQ(x.dx, y.dx);
    EXPECT_EQ(x.t1y, y.t1y);
    EXPECT_EQ(x.r1z, y.r1z);
    EXPECT_EQ(x.elem_force.size(), y.elem_force.size());
    EXPECT_EQ(x.solid_force.size(), y.solid_force.size());
    EXPECT_EQ(x.solid_state, y.solid_state);
    EXPECT_EQ(x.shell_state, y.shell_state);
    EXPECT_EQ(x.row<BeamMesh>().state, y.row<BeamMesh>().state);
    EXPECT_EQ(x.row<TriMesh>().state, y.row<TriMesh>().state);
    EXPECT_EQ(x.contact_history.size(), y.contact_history.size());
    EXPECT_EQ(x.time, y.time);
    EXPECT_EQ(x.half_dt_prev, y.half_dt_prev);
  });
}

TEST(RunShare, EveryFieldSurvivesTheRoundTrip) {
  // Written again from what was read, the share gives the same bytes: no field of any list is
  // lost or changed on the way (the lists' completeness is guarded by their sizes).
  for_each_share([](const Whole&, const RunShare&, const RunShare& b, const std::string& bytes) {
    EXPECT_EQ(serialize_share(b), bytes);
  });
}

TEST(RunShare, OutlineKeepsWhatTheTimeLoopReads) {
  for (const Whole& w : decks()) {
    SCOPED_TRACE(w.name);
    const Model o = model_outline(w.model);
    EXPECT_EQ(o.deck_path, w.model.deck_path);
    EXPECT_EQ(o.source_hash, w.model.source_hash);
    EXPECT_EQ(o.nodes.size(), 0);
    EXPECT_EQ(o.elements.size(), 0);
    ASSERT_EQ(o.steps.size(), w.model.steps.size());
    for (std::size_t s = 0; s < o.steps.size(); ++s) {
      EXPECT_EQ(o.steps[s].name, w.model.steps[s].name);
      EXPECT_EQ(o.steps[s].procedure, w.model.steps[s].procedure);
      EXPECT_EQ(o.steps[s].prints.size(), w.model.steps[s].prints.size());
      EXPECT_TRUE(o.steps[s].boundaries.empty());
      for (const OutputRequest& r : w.model.steps[s].outputs) {
        if (r.kind == OutputRequest::Kind::History && !r.nset.empty()) {
          EXPECT_EQ(o.nsets.at(r.nset).members, w.model.nsets.at(r.nset).members);
        }
      }
    }
    EXPECT_EQ(o.amplitudes.size(), w.model.amplitudes.size());
    const StructureSystem g = system_outline(w.sys);
    EXPECT_EQ(g.num_nodes, w.sys.num_nodes);
    EXPECT_EQ(g.total_elements(), w.sys.total_elements());
    EXPECT_EQ(g.stable_dt, w.sys.stable_dt);
    EXPECT_EQ(g.total_mass, w.sys.total_mass);
    EXPECT_TRUE(g.x0.empty() && g.shell.conn.empty() && g.solid.conn.empty() && g.shell.first_point.empty());
  }
}

TEST(RunShare, ARankHoldsAboutItsPartOfTheModel) {
  // The point of sending shares: each of 2 ranks holds about half of what one process holds.
  const Whole& w = decks()[1];  // stiffened plate: shells, beams and triangles
  const std::vector<int> part = partition_elements(w.model, 2);
  const RunShare one = make_share(w, partition_elements(w.model, 1), 0, 1);
  const double whole = static_cast<double>(serialize_share(one).size());
  for (int q = 0; q < 2; ++q) {
    const RunShare s = make_share(w, part, q, 2);
    const double bytes = static_cast<double>(serialize_share(s).size());
    EXPECT_EQ(bytes, static_cast<double>(share_bytes(s.outline, s.whole, s.domain, s.system, s.steps, s.state)));
    EXPECT_LT(bytes, 0.7 * whole) << "rank " << q;
    EXPECT_GT(bytes, 0.3 * whole) << "rank " << q;
  }
}

TEST(RunShare, TruncatedBytesAreRefused) {
  const Whole& w = decks()[0];
  const RunShare s = make_share(w, partition_elements(w.model, 2), 1, 2);
  const std::string bytes = serialize_share(s);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{8}, bytes.size() / 3,
                        bytes.size() / 2, bytes.size() - 8, bytes.size() - 1}) {
    SCOPED_TRACE(n);
    try {
      parse_share(bytes.substr(0, n), "a cut share");
      ADD_FAILURE() << "a share cut to " << n << " of " << bytes.size() << " bytes was read";
    } catch (const ArchiveError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("a cut share"), std::string::npos) << msg;
      EXPECT_TRUE(msg.find("truncated") != std::string::npos) << msg;
    }
  }
  EXPECT_THROW(parse_share(bytes + "x", "a longer share"), ArchiveError);
}

TEST(RunShare, CorruptBytesGiveAnErrorNotACrash) {
  const Whole& w = decks()[0];
  const RunShare s = make_share(w, partition_elements(w.model, 2), 1, 2);
  const std::string bytes = serialize_share(s);
  // A count of 2^62 (the deck path's length, the first field): refused before allocating.
  std::string huge = bytes;
  const std::uint64_t count = std::uint64_t{1} << 62;
  std::memcpy(huge.data(), &count, sizeof count);
  try {
    parse_share(huge, "a corrupt share");
    ADD_FAILURE() << "a corrupt count was read";
  } catch (const ArchiveError& e) {
    EXPECT_NE(std::string(e.what()).find("corrupt"), std::string::npos) << e.what();
  }
  // Any changed byte: either read (a changed value) or refused with an ArchiveError.
  std::mt19937 rng(21);
  int refused = 0;
  for (int i = 0; i < 300; ++i) {
    std::string b = bytes;
    const std::size_t at = std::uniform_int_distribution<std::size_t>(0, b.size() - 1)(rng);
    b[at] = static_cast<char>(b[at] ^ (1 << (i % 8)) ^ 0x40);
    try {
      parse_share(b, "a changed share");
    } catch (const ArchiveError&) {
      ++refused;
    }
  }
  EXPECT_GT(refused, 0);
}

TEST(ByteArchive, ValuesComeBackAsWritten) {
  std::string text = "deck.inp";
  std::vector<double> v{1.5, -2.25};
  std::optional<int> some = 7, none;
  std::map<std::string, std::vector<int>> m{{"a", {1, 2}}, {"b", {}}};
  std::vector<std::string> words{"", "x", "yz"};
  ArchiveWriter w;
  w(text, v, some, none, m, words);
  ArchiveCounter c;
  c(text, v, some, none, m, words);
  EXPECT_EQ(c.count(), w.str().size());
  std::string text2;
  std::vector<double> v2;
  std::optional<int> some2, none2 = 3;
  std::map<std::string, std::vector<int>> m2;
  std::vector<std::string> words2;
  const std::string bytes = w.str();
  ArchiveReader r(bytes, "test");
  r(text2, v2, some2, none2, m2, words2);
  r.expect_end();
  EXPECT_EQ(text2, text);
  EXPECT_EQ(v2, v);
  EXPECT_EQ(some2, some);
  EXPECT_FALSE(none2.has_value());
  EXPECT_EQ(m2, m);
  EXPECT_EQ(words2, words);
}

}  // namespace
}  // namespace halfstep
