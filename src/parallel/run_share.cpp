#include "parallel/run_share.hpp"

#include <cstdio>
#include <cstdlib>
#include <new>
#include <type_traits>

#include "core/byte_archive.hpp"

namespace halfstep {

// The field lists: one per structure, walked by the writer and the reader. Each is guarded by
// the structure's size (x86-64, libstdc++): a field added to a structure changes it and stops
// the build here, so that the new field is added to its list (or, for the model, left out of
// the outline on purpose). Update the size together with the list. The element meshes' lists,
// guards and count checks are beside their structs (discretization/*_mesh.hpp), walked through
// StructureSystem::for_each_mesh.
#define HALFSTEP_SHARE_FIELDS(Type, bytes)                                                                      \
  static_assert(sizeof(Type) == (bytes), #Type " changed: add the new field to serialize(Ar&, " #Type "&) in " \
                                         "parallel/run_share.cpp, then update the size here")

template <class Ar>
void serialize(Ar& ar, SourceLoc& l) {
  ar(l.file, l.line);
}
HALFSTEP_SHARE_FIELDS(SourceLoc, 40);

template <class Ar>
void serialize(Ar& ar, LinearConstraints& c) {
  ar(c.num_dependent, c.dep_node, c.dep_dof, c.dep_loc, c.term_ptr, c.term_node, c.term_dof, c.term_weight,
     c.dependent, c.recv_ptr, c.recv_dependent, c.recv_dof, c.recv_weight, c.mass3, c.inertia3, c.rot_node);
}

template <class Ar>
void serialize(Ar& ar, RigidBodies& b) {
  ar(b.num_bodies, b.ref_node, b.mass, b.first_moment, b.inertia, b.slave_ptr, b.slave_node, b.offset, b.slave_rot,
     b.skip, b.loc);
}

template <class Ar>
void serialize(Ar& ar, ContactSystem& c) {
  ar(c.num_pairs, c.num_facets, c.num_slaves, c.facet_nodes, c.facet_pair, c.facet_offset, c.facet_depth,
     c.facet_two_sided, c.slave_node, c.slave_pair, c.slave_offset, c.spring_mass, c.slave_facet_ptr,
     c.slave_facet_nodes, c.near_ptr, c.near_nodes, c.mu_static, c.mu_kinetic, c.decay, c.stick_slope, c.law_kind, c.law_ptr,
     c.law_values, c.law_clearance, c.slave_area, c.self, c.mirrored,
     c.num_analytic, c.analytic_ref, c.analytic_frame, c.analytic_seg_ptr, c.analytic_seg, c.analytic_name,
     c.pair_surface, c.node_area_ptr, c.node_area, c.num_edges, c.edge_nodes, c.edge_pair, c.edge_role,
     c.edge_facets, c.edge_offset, c.edge_depth, c.edge_spring_mass, c.edge_near_ptr, c.edge_near_nodes,
     c.penalty_scale, c.reach);
}

template <class Ar>
void serialize(Ar& ar, StructureSystem& s) {
  ar(s.num_nodes, s.x0, s.y0, s.z0, s.dir0x, s.dir0y, s.dir0z, s.mass, s.inertia, s.damp, s.damp_rot, s.total_mass,
     s.energy_per_unit_strain, s.stable_dt, s.controlling_element);
  s.for_each_mesh([&ar](auto& mesh) { ar(mesh); });  // each mesh's list is beside its struct
  ar(s.constraints, s.bodies, s.contact, s.node_rotates, s.any_director_nodes, s.node_dofs, s.num_interface, s.owned, s.used);
}

template <class Ar>
void serialize(Ar& ar, ContactShare& c) {
  ar(c.node_global, c.node_local, c.fills, c.records, c.edge_records, c.holder_ptr, c.holders, c.x0, c.y0, c.z0,
     c.mass, c.system);
}

template <class Ar>
void serialize(Ar& ar, ElementShare& s) {
  ar(s.global, s.local, s.boundary);
}

template <class Ar>
void serialize(Ar& ar, Subdomain& d) {
  ar(d.rank, d.ranks, d.node_global, d.node_local, d.num_interface, d.owned, d.elements, d.neighbors, d.send_ptr,
     d.send_nodes, d.sum_ptr, d.sum_src, d.elements_per_rank, d.contact);
}

/// The arrays restrict_state carries over from the whole state (kStateShared in
/// for_each_state_array, the list restarts read too). The rest is what
/// StructureState::initialize gives the rank's system: the reader initializes the state
/// before reading these over it, so the zeros never travel.
template <class Ar>
void serialize(Ar& ar, StructureState& s) {
  for_each_state_array(s, [&](const std::string&, std::vector<double>& a, unsigned flags) {
    if (flags & kStateShared) ar(a);
  });
  ar(s.time, s.half_dt_prev);
}

template <class Ar>
void serialize(Ar& ar, OutputRequest& r) {
  ar(r.kind, r.number_interval, r.time_interval, r.nset, r.elset, r.node_vars, r.element_vars, r.time_points,
     r.points_total, r.loc);
}

template <class Ar>
void serialize(Ar& ar, PrintRequest& r) {
  ar(r.kind, r.set, r.vars, r.frequency, r.totals, r.totals_only, r.global, r.centroidal, r.time_points, r.points_total, r.loc);
}

template <class Ar>
void serialize(Ar& ar, Amplitude& a) {
  ar(a.name, a.kind, a.time, a.value, a.loc);
}

template <class Ar>
void serialize(Ar& ar, IndexSet& s) {
  ar(s.name, s.members, s.loc);
}

template <class Ar>
void serialize(Ar& ar, Boundary& b) {
  ar(b.nodes, b.first_dof, b.last_dof, b.value, b.amplitude, b.velocity, b.fixed, b.loc);
}

template <class Ar>
void serialize(Ar& ar, ConcentratedLoad& c) {
  ar(c.nodes, c.dof, c.magnitude, c.amplitude, c.loc, c.imaginary);
}

template <class Ar>
void serialize(Ar& ar, DistributedLoad& d) {
  ar(d.elements, d.face, d.magnitude, d.amplitude, d.loc, d.direction, d.point, d.point_masses);
}

template <class Ar>
void serialize(Ar& ar, MassScaling& m) {
  ar(m.factor, m.dt, m.uniform, m.elset, m.loc);
}

template <class Ar>
void serialize(Ar& ar, VariableMassScaling& v) {
  ar(v.scaling, v.frequency, v.number_interval);
}

template <class Ar>
void serialize(Ar& ar, BulkViscosityLine& b) {
  ar(b.linear, b.quadratic, b.loc);
}

template <class Ar>
void serialize(Ar& ar, TemperatureLine& t) {
  ar(t.nodes, t.value, t.amplitude, t.loc);
}

template <class Ar>
void serialize(Ar& ar, FrequencyRequest& f) {
  ar(f.modes, f.min_frequency, f.max_frequency, f.mass_normalized, f.loc);
}

template <class Ar>
void serialize(Ar& ar, BuckleRequest& b) {
  ar(b.modes, b.accuracy, b.max_factor, b.loc);
}

template <class Ar>
void serialize(Ar& ar, ImplicitDynamics& d) {
  ar(d.alpha, d.loc);
}

template <class Ar>
void serialize(Ar& ar, ModalDampingRange& r) {
  ar(r.first, r.last, r.ratio, r.loc);
}

template <class Ar>
void serialize(Ar& ar, ModalDynamics& d) {
  ar(d.damping, d.rayleigh, d.rayleigh_alpha, d.rayleigh_beta, d.loc, d.steady_state, d.low_frequency,
     d.high_frequency, d.bias, d.points, d.deltmx, d.min_increment, d.max_increment);
}

template <class Ar>
void serialize(Ar& ar, Step& s) {
  ar(s.name, s.procedure, s.nlgeom, s.controls, s.frequency, s.dynamic, s.modal, s.buckle, s.time_period, s.fixed_increment, s.boundaries, s.cloads, s.dloads,
     s.outputs, s.prints, s.mass_scaling, s.variable_mass_scaling, s.bulk_viscosity, s.temperatures, s.boundary_op_new,
     s.cload_op_new, s.dload_op_new, s.temperature_op_new, s.loc);
}

template <class Ar>
void serialize(Ar& ar, Model::RestartRequest& r) {
  ar(r.frequency, r.number_interval, r.loc);
}

template <class Ar>
void serialize(Ar& ar, Renumbering& r) {
  ar(r.applied, r.node_deck, r.element_deck, r.span_before, r.span_after, r.seconds);
}

/// The outline's fields (model_outline): the mesh, sets other than history sets, materials,
/// sections, surfaces, constraints and contact stay on rank 0, which builds the system.
template <class Ar>
void serialize(Ar& ar, ExpandedNode& x) {
  ar(x.node, x.bricks);
}

template <class Ar>
void serialize(Ar& ar, Model& m) {
  ar(m.deck_path, m.source_hash, m.source_bytes, m.nsets, m.amplitudes, m.steps, m.restart, m.renumbering,
     m.expanded_nodes);
}

/// An ArchiveReader that also finds the steps' amplitudes, which travel by name (a pointer
/// means nothing in another process), in the outline read before them.
class ShareReader : public ArchiveBase<ShareReader> {
 public:
  static constexpr bool kReading = true;
  ShareReader(const std::string& data, const std::string& what) : in(data, what) {}
  void bytes(void* p, std::size_t n) { in.bytes(p, n); }
  std::size_t checked_count(std::uint64_t n, std::size_t each) const { return in.checked_count(n, each); }
  ArchiveReader in;
  const std::map<std::string, Amplitude>* amplitudes = nullptr;
};

template <class Ar>
void serialize(Ar& ar, AmplitudeTable& t) {
  std::vector<std::string> names;
  for (const Amplitude* a : t.named) names.push_back(a->name);
  ar(names);
  if constexpr (Ar::kReading) {
    t.named.clear();
    for (const std::string& n : names) {
      if (!ar.amplitudes) throw ArchiveError("share corrupt: steps before the model outline");
      const auto it = ar.amplitudes->find(n);
      if (it == ar.amplitudes->end())
        throw ArchiveError("share corrupt: amplitude '" + n + "' is not in the model outline");
      t.named.push_back(&it->second);
    }
  }
}

template <class Ar>
void serialize(Ar& ar, StepLoads& s) {
  ar(s.name, s.period, s.fixed_increment, s.amplitudes, s.bulk_linear, s.bulk_quadratic, s.load_node, s.load_dof, s.load_amp, s.load_value,
     s.pressure_elem, s.pressure_amp, s.pressure_value, s.face_elem, s.face_label, s.face_amp, s.face_value,
     s.thermal_elem, s.thermal_amp, s.thermal_value, s.motion_node, s.motion_dof, s.motion_amp, s.motion_value, s.motion_velocity, s.rotation_node, s.rotation_dof,
     s.rotation_amp, s.rotation_value, s.spin_node, s.spin_from, s.spin_axis, s.spin_amp, s.spin_value, s.spin_axes, s.frame_node,
     s.frame_q, s.fixed_translation, s.fixed_rotation, s.keep_translation, s.outputs);
}

HALFSTEP_SHARE_FIELDS(LinearConstraints, 368);
HALFSTEP_SHARE_FIELDS(RigidBodies, 248);
HALFSTEP_SHARE_FIELDS(ContactSystem, 1032);
HALFSTEP_SHARE_FIELDS(StructureSystem, 3424);
HALFSTEP_SHARE_FIELDS(ContactShare, 1296);
HALFSTEP_SHARE_FIELDS(ElementShare, 72);
HALFSTEP_SHARE_FIELDS(Subdomain, 1552);
// 928: solid_thermal is left out on purpose: it is derived from the step's loads at the
// state's time (the element pass refills it), so neither restarts nor shares carry it.
static_assert(sizeof(StructureState) == 976, "StructureState changed: add the new array to for_each_state_array in "
                                            "discretization/structure_state.hpp (restarts and shares read it), then "
                                            "update the size here");
HALFSTEP_SHARE_FIELDS(OutputRequest, 216);
HALFSTEP_SHARE_FIELDS(PrintRequest, 144);
HALFSTEP_SHARE_FIELDS(Amplitude, 128);
HALFSTEP_SHARE_FIELDS(IndexSet, 96);
HALFSTEP_SHARE_FIELDS(Boundary, 120);
HALFSTEP_SHARE_FIELDS(ConcentratedLoad, 120);
HALFSTEP_SHARE_FIELDS(DistributedLoad, 168);
HALFSTEP_SHARE_FIELDS(MassScaling, 96);
HALFSTEP_SHARE_FIELDS(VariableMassScaling, 112);
HALFSTEP_SHARE_FIELDS(BulkViscosityLine, 56);
HALFSTEP_SHARE_FIELDS(TemperatureLine, 104);
HALFSTEP_SHARE_FIELDS(FrequencyRequest, 72);
HALFSTEP_SHARE_FIELDS(BuckleRequest, 64);
HALFSTEP_SHARE_FIELDS(ImplicitDynamics, 48);
HALFSTEP_SHARE_FIELDS(ModalDampingRange, 56);
HALFSTEP_SHARE_FIELDS(ModalDynamics, 152);
HALFSTEP_SHARE_FIELDS(Step, 792);
HALFSTEP_SHARE_FIELDS(Model::RestartRequest, 56);
HALFSTEP_SHARE_FIELDS(Renumbering, 80);
HALFSTEP_SHARE_FIELDS(ExpandedNode, 32);
HALFSTEP_SHARE_FIELDS(Model, 1672);  // initial_temperatures: rank 0 builds the step loads
HALFSTEP_SHARE_FIELDS(AmplitudeTable, 24);
HALFSTEP_SHARE_FIELDS(StepLoads, 936);
// Values that travel as their bytes must stay free of pointers and owning members (the meshes'
// own values are checked beside their field lists).
static_assert(std::is_trivially_copyable_v<StaticControls>,
              "a structure that travels as bytes gained an owning member: give it a field list");

#undef HALFSTEP_SHARE_FIELDS

namespace {

/// The parts of a share in the order they travel (the outline first: the steps' amplitudes
/// are found in it).
/// Refuses a received system whose counts disagree with its arrays, or whose initial state
/// would take more than 64 times the share's bytes: the state is sized from those counts
/// (StructureState::initialize), and a corrupt one would otherwise ask for any amount of memory.
void check_state_counts(const StructureSystem& s, const ArchiveReader& in) {
  const auto size = [](const auto& v) { return static_cast<long long>(v.size()); };
  // Every count as a signed 64-bit value: a corrupt unsigned one beyond that shows as negative.
  const auto count = [](auto c) { return static_cast<long long>(c); };
  if (s.num_nodes < 0 || s.num_nodes != size(s.x0)) in.fail("node count " + std::to_string(s.num_nodes));
  const long long bytes = static_cast<long long>(in.size());
  s.for_each_mesh([&](const auto& mesh) {
    if (const std::string why = implausible_counts(mesh, bytes); !why.empty()) in.fail(why);
  });
  if (!s.used.empty() && size(s.used) != s.num_nodes) in.fail("node count " + std::to_string(s.num_nodes));
  if (count(s.bodies.num_bodies) < 0 || count(s.bodies.num_bodies) > bytes) in.fail("a count out of range");
  if (StructureState::bytes_for(s) + 9 * sizeof(double) * static_cast<std::size_t>(s.bodies.num_bodies) >
      64 * in.size() + (std::size_t{1} << 20))
    in.fail("its counts ask for a state of " + std::to_string(StructureState::bytes_for(s)) + " bytes");
}

template <class Ar, class Model_, class System, class Domain, class Steps, class State>
void walk_share(Ar& ar, Model_& outline, System& whole, Domain& domain, System& system, Steps& steps, State& state) {
  ar(outline);
  if constexpr (Ar::kReading) ar.amplitudes = &outline.amplitudes;
  ar(whole, domain, system, steps);
  if constexpr (Ar::kReading) {
    check_state_counts(system, ar.in);
    state.initialize(system);  // what serialize(Ar&, StructureState&) leaves out
  }
  ar(state);
}

/// Status message kinds: the exception rank 0 met, by exit code.
constexpr char kStatusOk = 'O', kStatusInput = 'I', kStatusRun = 'R', kStatusOther = 'E';
/// The run ended on rank 0 before any share was sent (its static steps were all the deck, or it
/// was interrupted in them): the message is the exit code.
constexpr char kStatusEnded = 'D';

}  // namespace

Model model_outline(const Model& model) {
  Model m;
  m.deck_path = model.deck_path;
  m.source_hash = model.source_hash;
  m.source_bytes = model.source_bytes;
  m.amplitudes = model.amplitudes;
  m.restart = model.restart;
  m.renumbering.applied = model.renumbering.applied;
  for (const Step& s : model.steps) {
    Step o = s;
    o.boundaries.clear();  // in the StepLoads, restricted to the rank
    o.cloads.clear();
    o.dloads.clear();
    m.steps.push_back(std::move(o));
    for (const OutputRequest& r : s.outputs)
      if (r.kind == OutputRequest::Kind::History && !r.nset.empty()) {
        const auto it = model.nsets.find(r.nset);
        if (it != model.nsets.end()) m.nsets.emplace(it->first, it->second);
      }
  }
  return m;
}

StructureSystem system_outline(const StructureSystem& g) {
  StructureSystem s;
  s.num_nodes = g.num_nodes;
  s.take_whole_model_scalars(g);
  s.for_each_mesh([&g](auto& mesh) { mesh = mesh_outline(g.mesh<std::decay_t<decltype(mesh)>>()); });
  return s;
}

std::string serialize_share(const RunShare& share) {
  // The field lists take references they may write through; the writer only reads them.
  RunShare& s = const_cast<RunShare&>(share);
  ArchiveWriter w;
  // One allocation of the final size: a string grown by doubling copies and faults in
  // about twice the share's bytes.
  w.str().reserve(share_bytes(s.outline, s.whole, s.domain, s.system, s.steps, s.state));
  walk_share(w, s.outline, s.whole, s.domain, s.system, s.steps, s.state);
  return std::move(w.str());
}

std::uint64_t share_bytes(const Model& outline, const StructureSystem& whole, const Subdomain& domain,
                          const StructureSystem& system, const std::vector<StepLoads>& steps,
                          const StructureState& state) {
  ArchiveCounter c;
  walk_share(c, const_cast<Model&>(outline), const_cast<StructureSystem&>(whole), const_cast<Subdomain&>(domain),
             const_cast<StructureSystem&>(system), const_cast<std::vector<StepLoads>&>(steps),
             const_cast<StructureState&>(state));
  return c.count();
}

RunShare rank_part(const StructureSystem& whole, const std::vector<StepLoads>& steps, const StructureState& state,
                   const std::vector<int>& part, int q, int ranks) {
  RunShare s;
  s.domain = build_subdomain(whole, part, q, ranks);
  s.system = restrict_system(whole, s.domain);
  for (const StepLoads& w : steps) s.steps.push_back(restrict_step(w, s.domain));
  s.state = restrict_state(state, whole, s.system, s.domain);
  return s;
}

RunShare parse_share(const std::string& bytes, const std::string& what) {
  RunShare s;
  ShareReader r(bytes, what);
  walk_share(r, s.outline, s.whole, s.domain, s.system, s.steps, s.state);
  r.in.expect_end();
  return s;
}

void announce_setup_ok(const Communicator& comm) {
  for (int q = 1; q < comm.size(); ++q) comm.send_bytes(std::string(1, kStatusOk), q);
}

void announce_setup_failure(const Communicator& comm, const std::exception& e) {
  char kind = kStatusOther;
  if (dynamic_cast<const InputError*>(&e)) kind = kStatusInput;
  else if (dynamic_cast<const RunError*>(&e) || dynamic_cast<const std::bad_alloc*>(&e)) kind = kStatusRun;
  // Point to point, not a broadcast: the other ranks wait for it without spinning.
  for (int q = 1; q < comm.size(); ++q) comm.send_bytes(kind + std::string(e.what()), q);
}

void announce_run_ended(const Communicator& comm, int code) {
  for (int q = 1; q < comm.size(); ++q) comm.send_bytes(kStatusEnded + std::to_string(code), q);
}

RunShare receive_share(const Communicator& comm) {
  // Rank 0 reads and builds meanwhile, maybe on this host's cores: wait without spinning.
  comm.wait_for_bytes(0);
  const std::string status = comm.receive_bytes(0);
  const char kind = status.empty() ? kStatusOther : status[0];
  const std::string msg = status.empty() ? std::string() : status.substr(1);
  if (kind == kStatusEnded) throw CollectiveSetupError("", msg.empty() ? 4 : std::atoi(msg.c_str()));
  if (kind == kStatusInput) throw InputError(SourceLoc{}, msg);
  if (kind == kStatusRun) throw CollectiveSetupError(msg, 3);
  if (kind != kStatusOk) throw CollectiveSetupError(msg, 4);
  try {
    comm.wait_for_bytes(0);  // rank 0 builds the shares of the ranks before this one first
    return parse_share(comm.receive_bytes(0), "the share rank " + std::to_string(comm.rank()) + " received");
  } catch (const std::exception& e) {
    // Rank 0 goes on to the time loop and would wait for this rank in its first collective.
    std::fprintf(stderr, "halfstep: rank %d of %d failed: %s\n", comm.rank(), comm.size(), e.what());
    std::fflush(stderr);
    comm.abort(dynamic_cast<const std::bad_alloc*>(&e) ? 3 : 4);
  }
}

}  // namespace halfstep
