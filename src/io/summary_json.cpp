#include "io/summary_json.hpp"

#include "io/atomic_file.hpp"
#include "io/json_writer.hpp"

namespace halfstep {

void write_summary_json(const std::string& path, const std::string& deck, const RunSummary& s) {
  JsonObject o;
  o.add("deck", deck);
  o.add("nodes", s.nodes);
  o.add("elements", s.elements);
  o.add("steps", s.steps);
  o.add("time_increment", s.time_increment);
  o.add("stable_increment_estimate", s.stable_increment);
  o.add("controlling_element", s.controlling_element);
  o.add("final_time", s.final_time);
  o.add("wall_seconds", s.wall_seconds);
  o.add("solve_seconds", s.solve_seconds);
  o.add("element_steps_per_second", s.element_steps_per_second);
  o.add("backend", s.backend);
  o.add("precision", s.precision);
  o.add("backend_description", s.backend_description);
  o.add("device_bytes_per_element", s.device_bytes_per_element);
  o.add("threads", s.threads);
  o.add("frames", s.frames);
  o.add("energy_balance_error", s.energy_error);
  o.add("ranks", s.ranks);
  if (s.ranks > 1) {
    // Per rank: its elements and the wall seconds it spent exchanging and reducing.
    JsonObject d;
    d.add("mpi_library", s.mpi_library);
    d.add("interface_transport", s.transport);
    d.add("elements_per_rank", s.rank_elements);
    d.add("gpu_per_rank", s.rank_devices);
    d.add("communication_seconds_per_rank", s.rank_comm_seconds);
    std::vector<double> share;
    for (double c : s.rank_comm_seconds) share.push_back(c / s.solve_seconds);
    d.add("communication_share_of_solve", share);
    o.add("distributed", d);
  }
  write_file_atomically(path, o.dump() + "\n");
}

}  // namespace halfstep
