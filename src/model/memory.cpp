#include "model/memory.hpp"

namespace halfstep {

namespace {

template <class T>
std::size_t bytes_of(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

}  // namespace

std::size_t model_host_bytes(const Model& m) {
  std::size_t n = bytes_of(m.nodes.id) + bytes_of(m.nodes.x) + bytes_of(m.nodes.y) + bytes_of(m.nodes.z) +
                  m.nodes.loc.bytes() + m.nodes.index.bytes();
  const Elements& e = m.elements;
  n += bytes_of(e.id) + bytes_of(e.kind) + bytes_of(e.section) +
       bytes_of(e.conn) + bytes_of(e.conn_ptr) + e.abaqus_type.bytes() + e.loc.bytes() + e.index.bytes();
  for (const auto* sets : {&m.nsets, &m.elsets})
    for (const auto& [name, set] : *sets) n += bytes_of(set.members) + sizeof(set) + name.capacity();
  return n;
}

}  // namespace halfstep
