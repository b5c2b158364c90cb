#include "solver/scaling_across_ranks.hpp"

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "discretization/constraints.hpp"
#include "discretization/contact.hpp"
#include "discretization/element_blocks.hpp"
#include "discretization/stable_increment.hpp"

namespace halfstep {
namespace {

/// Doubles appended to and read from a byte string (the communicator broadcasts strings).
void put(std::string& out, const double* v, std::size_t n) {
  out.append(reinterpret_cast<const char*>(v), n * sizeof(double));
}

/// Reads n doubles at *at into v, advancing *at.
void take(const std::string& in, std::size_t* at, double* v, std::size_t n) {
  if (*at + n * sizeof(double) > in.size()) throw std::logic_error("rescale_across_ranks: short message");
  std::memcpy(v, in.data() + *at, n * sizeof(double));
  *at += n * sizeof(double);
}

/// An array with its size first (the other ranks hold only an outline of the whole system).
void put_array(std::string& out, const std::vector<double>& v) {
  const double size = static_cast<double>(v.size());
  put(out, &size, 1);
  put(out, v.data(), v.size());
}

/// What put_array wrote.
std::vector<double> take_array(const std::string& in, std::size_t* at) {
  double size = 0;
  take(in, at, &size, 1);
  std::vector<double> v(static_cast<std::size_t>(size));
  take(in, at, v.data(), v.size());
  return v;
}

}  // namespace

VariableScalingResult rescale_across_ranks(VariableMassScaler& scaler, RunSetup& setup, const StructureState& st,
                                           const Communicator& comm) {
  Subdomain& d = *setup.domain;
  StructureSystem& local = setup.local;
  const std::vector<const BlockFamily*>& families = block_families();
  // This rank's elements' ratios, each with its family and its index in the whole family.
  const std::vector<std::vector<double>> ratio = deformed_bound_ratios(local, st);
  std::vector<int> where;
  std::vector<double> value;
  for (std::size_t f = 0; f < families.size(); ++f)
    for (std::size_t k = 0; k < ratio[f].size(); ++k) {
      where.push_back(static_cast<int>(f));
      where.push_back(d.elements[f].global[k]);
      value.push_back(ratio[f][k]);
    }
  const std::vector<int> all_where = comm.gather(where, 0);
  const std::vector<double> all_value = comm.gather(value, 0);
  VariableScalingResult out;
  std::string message;
  if (comm.rank() == 0) {
    StructureSystem& whole = setup.whole;
    std::vector<std::vector<double>> whole_ratio(families.size());
    for (std::size_t f = 0; f < families.size(); ++f)
      whole_ratio[f].assign(static_cast<std::size_t>(families[f]->count(whole)), 1.0);
    for (std::size_t i = 0; i < all_value.size(); ++i)
      whole_ratio[static_cast<std::size_t>(all_where[2 * i])][static_cast<std::size_t>(all_where[2 * i + 1])] = all_value[i];
    out = scaler.rescale_with(whole, whole_ratio, nullptr);
    for (const std::vector<double>* v : {&whole.mass, &whole.inertia, &whole.damp, &whole.damp_rot}) put_array(message, *v);
    for (const BlockFamily* f : families)
      if (f->has_density) put_array(message, f->element_dt(whole));
    // Rigid bodies, whole on every rank in the same order: their masses as rank 0 made them
    // (from the whole model, point inertias included).
    for (const std::vector<double>* v : {&whole.bodies.mass, &whole.bodies.first_moment, &whole.bodies.inertia})
      put_array(message, *v);
    const double scalars[5] = {whole.total_mass, whole.stable_dt, static_cast<double>(whole.controlling_element),
                               static_cast<double>(out.elements), out.added_mass};
    put(message, scalars, 5);
  }
  message = comm.broadcast(message, 0);
  // The whole model's arrays, then this rank's part of them; the kinetic energy the change
  // gives the nodes this rank owns, with their old masses.
  std::size_t at = 0;
  const std::vector<double> mass = take_array(message, &at), inertia = take_array(message, &at),
                            damp = take_array(message, &at), damp_rot = take_array(message, &at);
  double kinetic = 0;
  for (int i = 0; i < local.num_nodes; ++i) {
    const std::size_t k = static_cast<std::size_t>(i), g = static_cast<std::size_t>(d.node_global[k]);
    if (d.owned[k]) kinetic += added_kinetic_energy(local, st, i, mass.at(g), inertia.at(g));
    local.mass[k] = mass[g];
    local.inertia[k] = inertia[g];
    if (k < local.damp.size()) local.damp[k] = damp.at(g);
    if (k < local.damp_rot.size()) local.damp_rot[k] = damp_rot.at(g);
  }
  for (std::size_t f = 0; f < families.size(); ++f) {
    if (!families[f]->has_density) continue;
    const std::vector<double> dt = take_array(message, &at);
    std::vector<double>& mine = families[f]->element_dt(local);
    for (std::size_t k = 0; k < mine.size(); ++k) mine[k] = dt.at(static_cast<std::size_t>(d.elements[f].global[k]));
  }
  for (std::vector<double>* v : {&local.bodies.mass, &local.bodies.first_moment, &local.bodies.inertia}) {
    std::vector<double> whole_values = take_array(message, &at);
    if (whole_values.size() != v->size()) throw std::logic_error("rescale_across_ranks: rigid bodies differ between ranks");
    *v = std::move(whole_values);
  }
  // The other copies of the masses on this rank: the constraints' (every constraint node is a
  // local node of every rank, with the whole model's mass) and the contact springs' (numbered
  // by the contact nodes, ContactShare), made again as rebuild_mass_copies makes rank 0's.
  if (!local.constraints.empty()) set_constraint_masses(local.constraints, local.mass, local.inertia);
  if (!local.contact.empty()) {
    for (std::size_t c = 0; c < d.contact.mass.size(); ++c)
      d.contact.mass[c] = mass.at(static_cast<std::size_t>(d.contact.node_global[c]));
    set_spring_masses(local.contact, d.contact.mass);
  }
  double scalars[5];
  take(message, &at, scalars, 5);
  local.total_mass = scalars[0];
  local.stable_dt = scalars[1];
  local.controlling_element = static_cast<int>(scalars[2]);
  out.elements = static_cast<int>(scalars[3]);
  out.added_mass = scalars[4];
  comm.sum(&kinetic, 1);
  out.added_kinetic = kinetic;
  return out;
}

}  // namespace halfstep
