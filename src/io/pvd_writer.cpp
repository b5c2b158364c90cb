#include "io/pvd_writer.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>

#include "io/atomic_file.hpp"
#include "io/vtu_writer.hpp"

namespace halfstep {

PvdWriter::PvdWriter(std::string dir, std::string job, bool write_now)
    : path_((dir.empty() ? std::string(".") : dir) + "/" + job + ".pvd") {
  if (write_now) rewrite();
}

void PvdWriter::add_frame(double time, const std::string& vtu_file_relative_to_dir) {
  if (!std::isfinite(time)) throw std::invalid_argument("PvdWriter: non-finite frame time");
  char buf[32];
  // Shortest round-trip form, so ParaView's time matches the solver's to the last bit.
  const auto res = std::to_chars(buf, buf + sizeof buf, time);
  entries_ += "    <DataSet timestep=\"" + std::string(buf, res.ptr) +
              "\" group=\"\" part=\"0\" file=\"" + xml_escape(vtu_file_relative_to_dir) + "\"/>\n";
  rewrite();
}

void PvdWriter::rewrite() const {
  write_file_atomically(
      path_,
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
      "  <Collection>\n" +
          entries_ +
          "  </Collection>\n"
          "</VTKFile>\n");
}

}  // namespace halfstep
