#include "io/summary_json.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "io/atomic_file.hpp"

namespace halfstep {

namespace {

/// One record per step as it ran. The increment each step starts with: the stable estimate
/// times --dt-scale (or the deck's); it stays the step's increment unless --dt-update changes
/// it (increment_updates). A frequency step adds its eigenvalues and frequencies.
nlohmann::ordered_json step_records(const RunSummary& s) {
  nlohmann::ordered_json steps = nlohmann::ordered_json::array();
  for (const StepRecord& r : s.step_records) {
    nlohmann::ordered_json j;
    j["name"] = r.name;
    j["procedure"] = r.procedure;
    j["start_time"] = r.start_time;
    j["period"] = r.period;
    j["increment"] = r.increment;
    j["increments"] = r.increments;
    if (r.procedure == "frequency") {
      // The peer's table: eigenvalue omega^2, and the frequency in cycles per unit time.
      std::vector<double> f;
      for (double l : r.eigenvalues) f.push_back(l >= 0 ? std::sqrt(l) / (2 * M_PI) : 0.0);
      j["eigenvalues"] = r.eigenvalues;
      j["frequencies"] = f;
    }
    if (r.procedure == "buckle") j["buckling_factors"] = r.eigenvalues;
    steps.push_back(j);
  }
  return steps;
}

}  // namespace

void write_summary_json(const std::string& path, const std::string& deck, const RunSummary& s) {
  // ordered_json keeps the members in the order written, so the file reads top-down.
  nlohmann::ordered_json o;
  o["deck"] = deck;
  if (!s.job.empty()) o["job"] = s.job;
  if (!s.heading.empty()) o["heading"] = s.heading;
  o["status"] = s.status;
  o["nodes"] = s.nodes;
  o["elements"] = s.elements;
  if (!s.element_types.empty()) o["element_types"] = s.element_types;
  o["materials"] = s.materials;
  o["model_mass"] = s.model_mass;
  o["steps"] = s.steps;
  o["time_increment"] = s.time_increment;
  o["stable_increment_estimate"] = s.stable_increment;
  o["controlling_element"] = s.controlling_element;
  if (s.increment_updates > 0)
    o["increment_updates"] = {{"count", s.increment_updates}, {"smallest_increment", s.smallest_increment}};
  if (s.mass_scaled_elements > 0 || s.variable_scalings > 0) {
    o["mass_scaling"] = {{"elements", s.mass_scaled_elements},
                         {"added_mass", s.added_mass},
                         {"added_mass_fraction", s.added_mass_fraction},
                         {"stable_increment_unscaled", s.stable_increment_unscaled}};
    if (s.mass_scaling_skipped > 0) o["mass_scaling"]["elements_not_scaled"] = s.mass_scaling_skipped;
    // *VARIABLE MASS SCALING: its own keys (beyond the fixed scaling's mass, above).
    if (s.variable_scalings > 0)
      o["mass_scaling"]["variable"] = {{"re_evaluations", s.variable_scalings},
                                       {"elements_scaled", s.variable_scaled_elements},
                                       {"added_mass_now", s.variable_added_mass},
                                       {"added_mass_max", s.variable_added_mass_max},
                                       {"added_mass_fraction_max", s.variable_added_mass_fraction_max},
                                       {"mass_scaling_work", s.mass_scaling_work},
                                       {"smallest_increment", s.variable_smallest_increment}};
  }
  o["final_time"] = s.final_time;
  o["wall_seconds"] = s.wall_seconds;
  o["read_seconds"] = s.read_seconds;
  o["deck_bytes"] = s.deck_bytes;
  o["model_bytes_per_element"] = s.model_bytes_per_element;
  o["setup_seconds"] = s.setup_seconds;
  o["solve_seconds"] = s.solve_seconds;
  o["output_seconds"] = s.output_seconds;
  o["element_steps_per_second"] = s.element_steps_per_second;
  // --renumber: whether the nodes and elements were reordered, and the locality measure (the
  // mean spread of node indices within an element) of the deck's order and of the order run.
  o["renumbering"] = {{"applied", s.renumbered},
                      {"mean_node_span_deck", s.renumber_span_before},
                      {"mean_node_span_run", s.renumber_span_after},
                      {"seconds", s.renumber_seconds}};
  o["backend"] = s.backend;
  o["precision"] = s.precision;
  o["backend_description"] = s.backend_description;
  o["device_bytes_per_element"] = s.device_bytes_per_element;
  o["threads"] = s.threads;
  o["frames"] = s.frames;
  o["energy_balance_error"] = s.energy_error;
  o["energy_tolerance"] = s.energy_tolerance;
  o["ranks"] = s.ranks;
  o["warnings"] = s.warnings;
  o["step_records"] = step_records(s);
  if (!s.restart_file.empty() || !s.resumed_from.empty()) {
    nlohmann::ordered_json r;
    r["file"] = s.restart_file;
    r["written"] = s.restarts_written;
    r["latest_time"] = s.restart_time;
    r["seconds"] = s.restart_seconds;
    r["resumed_from"] = s.resumed_from;
    r["resumed_at"] = s.resumed_at;
    o["restart"] = r;
  }
  if (s.ranks > 1) {
    // Per rank: its elements and the wall seconds it spent exchanging and reducing.
    nlohmann::ordered_json d;
    d["mpi_library"] = s.mpi_library;
    d["interface_transport"] = s.transport;
    d["elements_per_rank"] = s.rank_elements;
    // Rank 0 alone builds the whole model; each rank holds the share it was sent.
    d["share_bytes_per_rank"] = s.rank_share_bytes;
    d["share_bytes_whole_model"] = s.whole_share_bytes;
    d["gpu_per_rank"] = s.rank_devices;
    d["communication_seconds_per_rank"] = s.rank_comm_seconds;
    std::vector<double> share;
    for (double c : s.rank_comm_seconds) share.push_back(c / s.solve_seconds);
    d["communication_share_of_solve"] = share;
    // Where each rank's increments went (the CPU backend times its phases; see docs/parallel.md).
    if (!s.rank_phase_seconds.empty()) {
      nlohmann::ordered_json ph = nlohmann::ordered_json::object();
      for (const auto& [name, per_rank] : s.rank_phase_seconds) ph[name] = per_rank;
      d["phase_seconds_per_rank"] = ph;
    }
    o["distributed"] = d;
  }
  if (s.statics.steps) {
    // Static steps: incrementation, and where the implicit work went (seconds summed).
    const StaticSummary& t = s.statics;
    nlohmann::ordered_json d;
    d["steps"] = t.steps;
    d["increments"] = t.increments;
    d["newton_iterations"] = t.iterations;
    d["cutbacks"] = t.cutbacks;
    d["equations"] = t.equations;
    d["engine"] = t.engine;
    d["linear_solver"] = t.linear_solver;
    if (!t.blas.empty()) d["blas"] = t.blas;
    d["seconds"] = t.seconds;
    d["setup_seconds"] = t.setup_seconds;
    d["output_seconds"] = t.output_seconds;
    d["internal_force_seconds"] = t.internal_force_seconds;
    d["element_matrix_seconds"] = t.element_seconds;
    d["assembly_seconds"] = t.assembly_seconds;
    d["analyze_seconds"] = t.analyze_seconds;
    d["factor_seconds"] = t.factor_seconds;
    d["linear_solve_seconds"] = t.solve_seconds;
    d["element_matrices"] = t.matrices;
    d["factorizations"] = t.factorizations;
    d["krylov_iterations"] = t.krylov_iterations;
    d["matrix_nonzeros"] = t.nonzeros;
    d["matrix_bytes"] = t.matrix_bytes;
    d["solver_bytes"] = t.solver_bytes;
    d["stabilization_energy"] = t.stabilization_energy;
    d["strain_energy"] = t.strain_energy;
    // Iterations of each increment attempt (the first 1000; a cut-back attempt counts too):
    // an attempt records the residual before each solve and the one that converged.
    std::vector<int> per_attempt;
    for (const std::vector<double>& r : t.residuals) per_attempt.push_back(std::max(0, static_cast<int>(r.size()) - 1));
    d["newton_iterations_per_attempt"] = per_attempt;
    o["static"] = d;
  }
  if (!s.job.empty()) o["files"] = s.files;
  // Non-finite numbers come out as null (JSON has none). A deck path that is not UTF-8 gets
  // U+FFFD in place of the bad bytes: the default, an exception, would fail a finished run.
  write_file_atomically(path, o.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
}

void write_failure_summary_json(const std::string& path, const std::string& deck, const std::string& reason,
                                const std::vector<std::string>& warnings, const std::string& job,
                                const std::vector<std::string>& files) {
  nlohmann::ordered_json o;
  o["deck"] = deck;
  if (!job.empty()) o["job"] = job;
  o["status"] = "failed: " + reason;
  o["warnings"] = warnings;
  if (!job.empty()) o["files"] = files;
  write_file_atomically(path, o.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
}

}  // namespace halfstep
