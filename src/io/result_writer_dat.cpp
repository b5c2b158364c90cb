// The .dat tables of ResultWriter: *NODE PRINT, *EL PRINT, *ENERGY PRINT and the eigenvalue
// table of frequency steps, in the peer's (CalculiX's) layout where it has one.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include <unistd.h>

#include "core/frame3.hpp"
#include "elements/kind_info.hpp"
#include "io/result_writer.hpp"

namespace halfstep {

// The .dat file is opened with the first step that prints, before its solve: an unwritable
// folder is reported before the work, not after it.
void ResultWriter::open_prints(const std::vector<PrintRequest>& requests) {
  prints_ = requests;
  if (!prints_.empty()) open_dat();
}

std::FILE* ResultWriter::open_dat() {
  if (!dat_) {
    const std::string path = dir_ + "/" + job_ + ".dat";
    dat_ = std::fopen(path.c_str(), "w");
    if (!dat_) throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
  }
  return dat_;
}

void ResultWriter::flush_dat() {
  if (std::fflush(dat_) != 0 || std::ferror(dat_))
    throw std::runtime_error("cannot write '" + dir_ + "/" + job_ + ".dat': " + std::strerror(errno != 0 ? errno : EIO));
}

// The cells are ordered shells first, then solids (the run's fixed mesh), so the map is
// built once, from the first frame's ElementId.
const std::vector<int>& ResultWriter::cell_of(const FieldSet& fields) {
  if (cell_of_.empty()) {
    const FieldArray* ids = fields.find_cell("ElementId");
    if (!ids) throw std::logic_error("frame without element ids");
    cell_of_.assign(static_cast<std::size_t>(model_.elements.size()), -1);
    for (std::size_t c = 0; c < ids->values.size(); ++c) {
      const auto it = model_.elements.index.find(static_cast<std::int64_t>(ids->values[c]));
      if (it != model_.elements.index.end()) cell_of_[static_cast<std::size_t>(it->second)] = static_cast<int>(c);
    }
  }
  return cell_of_;
}

namespace {

/// x as Fortran's E14.7 writes it (0.1234567E+01; digits = 13: E20.13), the peer's .dat
/// number format.
std::string fortran_e(double x, int digits = 7) {
  if (!std::isfinite(x)) return std::isnan(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity";
  char buf[64];
  const double scale = std::pow(10.0, digits);
  if (x == 0) {
    std::snprintf(buf, sizeof buf, "0.%0*dE+00", digits, 0);
    return buf;
  }
  int e = static_cast<int>(std::floor(std::log10(std::fabs(x)))) + 1;
  double mant = x / std::pow(10.0, e);
  // Rounding to the digits may carry into a new decade (0.99999999 -> 1.0000000).
  if (std::fabs(std::round(mant * scale)) >= scale) {
    mant /= 10;
    ++e;
  }
  std::snprintf(buf, sizeof buf, "%s0.%0*.0fE%c%02d", mant < 0 ? "-" : "", digits, std::fabs(mant) * scale,
                e < 0 ? '-' : '+', std::abs(e));
  return buf;
}

}  // namespace

void ResultWriter::write_eigenvalues(const ResultFrame& frame) {
  const std::vector<double>& lambda = frame.eigenvalues;
  std::FILE* f = open_dat();
  errno = 0;
  std::fprintf(f, "\n     E I G E N V A L U E   O U T P U T\n\n"
                  " MODE NO    EIGENVALUE                       FREQUENCY   \n"
                  "                                     REAL PART            IMAGINARY PART\n"
                  "                           (RAD/TIME)      (CYCLES/TIME     (RAD/TIME)\n\n");
  for (std::size_t i = 0; i < lambda.size(); ++i) {
    // A negative eigenvalue (a structure that buckles under its base state) oscillates with
    // an imaginary frequency: the peer prints its root as the imaginary part.
    const double l = lambda[i];
    const double omega = l >= 0 ? std::sqrt(l) : 0.0, imag = l < 0 ? std::sqrt(-l) : 0.0;
    std::fprintf(f, "%7zu   %s   %s   %s   %s\n", i + 1, fortran_e(l).c_str(), fortran_e(omega).c_str(),
                 fortran_e(omega / (2 * M_PI)).c_str(), fortran_e(imag).c_str());
  }
  // The peer's participation factors, effective modal masses (with their sums) and the
  // model's total effective masses.
  const char* head = "MODE NO.   X-COMPONENT     Y-COMPONENT     Z-COMPONENT     X-ROTATION      Y-ROTATION      Z-ROTATION\n\n";
  const auto row6 = [&](const double* v) {
    for (int k = 0; k < 6; ++k) std::fprintf(f, "   %s", fortran_e(v[k]).c_str());
    std::fprintf(f, "\n");
  };
  if (frame.participation.size() == 6 * lambda.size() && frame.effective_mass.size() == 6 * lambda.size()) {
    std::fprintf(f, "\n     P A R T I C I P A T I O N   F A C T O R S\n\n%s", head);
    for (std::size_t i = 0; i < lambda.size(); ++i) {
      std::fprintf(f, "%7zu", i + 1);
      row6(&frame.participation[6 * i]);
    }
    std::fprintf(f, "\n     E F F E C T I V E   M O D A L   M A S S\n\n%s", head);
    double sum[6] = {0, 0, 0, 0, 0, 0};
    for (std::size_t i = 0; i < lambda.size(); ++i) {
      std::fprintf(f, "%7zu", i + 1);
      row6(&frame.effective_mass[6 * i]);
      for (int k = 0; k < 6; ++k) sum[k] += frame.effective_mass[6 * i + static_cast<std::size_t>(k)];
    }
    std::fprintf(f, "TOTAL  ");
    row6(sum);
  }
  if (frame.total_mass.size() == 6) {
    std::fprintf(f, "\n     T O T A L   E F F E C T I V E   M A S S\n\n%s       ", head);
    row6(frame.total_mass.data());
  }
  flush_dat();
}

void ResultWriter::write_buckling_factors(const ResultFrame& frame) {
  std::FILE* f = open_dat();
  errno = 0;
  std::fprintf(f, "\n     B U C K L I N G   F A C T O R   O U T P U T\n\n"
                  " MODE NO       BUCKLING\n"
                  "                FACTOR\n\n");
  for (std::size_t i = 0; i < frame.buckling_factors.size(); ++i)
    std::fprintf(f, "%7zu   %s\n", i + 1, fortran_e(frame.buckling_factors[i]).c_str());
  flush_dat();
}

void ResultWriter::write_steady_state_factors(const ResultFrame& frame) {
  std::FILE* f = open_dat();
  errno = 0;
  std::fprintf(f, "\nP A R T I C I P A T I O N   F A C T O R S   F O R   F R E Q U E N C Y    %s (CYCLES/TIME)\n\n"
                  " MODE NO    FREQUENCY               FACTOR\n"
                  "           (CYCLES/TIME)      REAL        IMAGINARY\n\n",
               fortran_e(frame.steady_state_frequency, 13).c_str());
  const std::vector<double>& q = frame.steady_state_factors;
  for (std::size_t j = 0; 3 * j + 2 < q.size(); ++j)
    std::fprintf(f, "%7zu  %14s  %14s  %14s\n", j + 1, fortran_e(q[3 * j]).c_str(), fortran_e(q[3 * j + 1]).c_str(),
                 fortran_e(q[3 * j + 2]).c_str());
  flush_dat();
}

namespace {

/// The energy table of frame (*ENERGY PRINT).
void write_energy_table(std::FILE* f, const ResultFrame& frame) {
  const EnergyRow& e = frame.energy_row;
  std::fprintf(f,
               "\n energies (kinetic, internal, external work, damping work, total, plastic dissipation, "
               "viscous dissipation) at time %14.6E\n\n",
               frame.time);
  std::fprintf(f, " %14.6E %14.6E %14.6E %14.6E %14.6E %14.6E %14.6E\n", e.kinetic, e.internal, e.external_work,
               e.damping_work, e.total, e.plastic_dissipation, e.viscous_dissipation);
}

/// Node n's row of a printed vector table (array a, 3 per node), added to sum: in the node's
/// *TRANSFORM system unless global (Abaqus's GLOBAL=NO default), component j the projection
/// on local axis j (ResultMesh::axes_of); f null: summed, not printed.
void node_row(std::FILE* f, long long id, const std::vector<double>& a, int n, const ResultMesh& mesh, bool global,
              double sum[3]) {
  const auto k = static_cast<std::size_t>(n);
  double v[3] = {a[3 * k], a[3 * k + 1], a[3 * k + 2]};
  const int ax = global || mesh.axes_of.empty() ? -1 : mesh.axes_of[k];
  if (ax >= 0) to_local3(&mesh.axes[9 * static_cast<std::size_t>(ax)], v);
  if (f) std::fprintf(f, " %10lld %14.6E %14.6E %14.6E\n", id, v[0], v[1], v[2]);
  for (int c = 0; c < 3; ++c) sum[c] += v[c];
}

/// Whether print request p (the step's i-th) prints at frame: the frame's mask where it has
/// one (TIME POINTS in an implicit step), else every frequency-th increment, or every frame
/// for a request on points (a frequency or steady-state step's modes and frequencies).
bool print_due(const PrintRequest& p, std::size_t i, const ResultFrame& frame) {
  if (i < frame.prints_due.size()) return frame.prints_due[i] != 0;
  return !p.time_points.empty() || p.due(frame.increment, frame.step_end);
}

}  // namespace

void ResultWriter::write_node_tables(std::FILE* f, const PrintRequest& p, const ResultFrame& frame, const Model& model,
                       const ResultMesh& mesh) {
  const auto set_name = [](const std::string& s, const char* all) { return s.empty() ? std::string(all) : s; };
  std::vector<int> all;
  const std::vector<int>* nodes = nullptr;
  if (p.set.empty()) {
    // Every node in the deck's order (Model::renumbering).
    const Renumbering& r = model.renumbering;
    all.resize(static_cast<std::size_t>(model.nodes.size()));
    for (std::size_t i = 0; i < all.size(); ++i)
      all[r.applied ? static_cast<std::size_t>(r.node_deck[i]) : i] = static_cast<int>(i);
    nodes = &all;
  } else {
    nodes = &model.nsets.at(p.set).members;
  }
  for (const std::string& var : p.vars) {
    const char* what = var == "U"   ? "displacements (vx,vy,vz)"
                       : var == "V" ? "velocities (vx,vy,vz)"
                       : var == "A" ? "accelerations (ax,ay,az)"
                                    : "forces (fx,fy,fz)";
    // RF prints the nodes' internal forces where the frame has them: the peer's "forces".
    const bool internal = var == "RF" && frame.fields.find_point(kNodalForceArray);
    const std::vector<double>& a = nodal(frame.fields, internal ? kNodalForceArray : var.c_str());
    double sum[3] = {0, 0, 0};
    if (p.totals_only) {  // the peer's "total" table: the sums alone
      for (int n : *nodes)
        node_row(nullptr, static_cast<long long>(model.nodes.id[static_cast<std::size_t>(n)]), a, n, mesh, p.global, sum);
      std::fprintf(f, "\n total %s for set %s and time %14.6E\n\n %14.6E %14.6E %14.6E\n",
                   var == "RF" ? "force (fx,fy,fz)" : what,
                   set_name(p.set, "ALL NODES").c_str(), frame.time, sum[0], sum[1], sum[2]);
      continue;
    }
    std::fprintf(f, "\n %s for set %s and time %14.6E\n\n", what, set_name(p.set, "ALL NODES").c_str(), frame.time);
    for (int n : *nodes)
      node_row(f, static_cast<long long>(model.nodes.id[static_cast<std::size_t>(n)]), a, n, mesh, p.global, sum);
    if (p.totals) std::fprintf(f, "\n total %14.6E %14.6E %14.6E\n", sum[0], sum[1], sum[2]);
  }
}

void ResultWriter::write_prints(const ResultFrame& frame) {
  if (prints_.empty() || !dat_) return;
  std::FILE* f = dat_;
  // Where this frame's tables begin: a write that fails cuts the file back there, so the
  // .dat ends with whole tables (what the CSV writers do for their rows).
  const long start = std::ftell(f);
  errno = 0;
  std::fprintf(f, "\n                        S T E P %6d     I N C R E M E N T %8lld     T I M E %14.6E\n",
               frame.step, frame.increment, frame.time);
  const auto set_name = [](const std::string& s, const char* all) { return s.empty() ? std::string(all) : s; };
  for (std::size_t i = 0; i < prints_.size(); ++i) {
    const PrintRequest& p = prints_[i];
    if (!print_due(p, i, frame)) continue;
    if (p.kind == PrintRequest::Kind::Energy) {
      write_energy_table(f, frame);
      continue;
    }
    if (p.kind == PrintRequest::Kind::Node) {
      write_node_tables(f, p, frame, model_, mesh_);
      continue;
    }
    const std::vector<int>& cell_of = this->cell_of(frame.fields);
    std::vector<int> all;
    const std::vector<int>* elems = nullptr;
    if (p.set.empty()) {
      const Renumbering& r = model_.renumbering;  // every element in the deck's order
      all.resize(cell_of.size());
      for (std::size_t i = 0; i < all.size(); ++i)
        all[r.applied ? static_cast<std::size_t>(r.element_deck[i]) : i] = static_cast<int>(i);
      elems = &all;
    } else {
      elems = &model_.elsets.at(p.set).members;
    }
    const bool use_points = !p.centroidal && !frame.fields.ip.empty();
    for (const std::string& var : p.vars) {
      const bool peeq = var == "PEEQ";
      const char* name = peeq ? "PEEQ" : var == "S" ? "S" : "E";
      const FieldArray* solid = frame.fields.find_cell(name);
      const FieldArray* at_points = use_points ? frame.fields.find_ip(name) : nullptr;
      const std::vector<std::int64_t>& first = frame.fields.ip_first;
      const auto points_of = [&](int c) {
        return at_points ? static_cast<int>(first[static_cast<std::size_t>(c) + 1] - first[static_cast<std::size_t>(c)]) : 0;
      };
      const auto id_of = [&](int e) { return static_cast<long long>(model_.elements.id[static_cast<std::size_t>(e)]); };
      // Elements with integration-point values: a row per point, numbered as Abaqus numbers them.
      if (at_points) {
        const char* what = peeq ? "equivalent plastic strain (elem, integ.pnt.,pe)"
                           : var == "S" ? "stresses (elem, integ.pnt.,sxx,syy,szz,sxy,sxz,syz)"
                                        : "strains (elem, integ.pnt.,exx,eyy,ezz,exy,exz,eyz)";
        bool header = false;
        const auto k = static_cast<std::size_t>(at_points->components);
        for (int e : *elems) {
          const int c = cell_of[static_cast<std::size_t>(e)];
          if (c < 0 || points_of(c) == 0) continue;
          if (!header) {
            std::fprintf(f, "\n %s for set %s and time %14.6E\n\n", what, set_name(p.set, "ALL ELEMENTS").c_str(),
                         frame.time);
            header = true;
          }
          for (int q = 0; q < points_of(c); ++q) {
            const std::size_t at = static_cast<std::size_t>(first[static_cast<std::size_t>(c)]) + static_cast<std::size_t>(q);
            std::fprintf(f, " %10lld %3d", id_of(e), q + 1);
            for (std::size_t j = 0; j < k; ++j) std::fprintf(f, " %14.6E", at_points->values[k * at + j]);
            std::fprintf(f, "\n");
          }
        }
      }
      // The other elements (all of them with POSITION=CENTROIDAL): a row each.
      const char* what = peeq ? "equivalent plastic strain (elem, peeq)"
                         : var == "S" ? "stresses (elem, sxx,syy,szz,sxy,sxz,syz)"
                                      : "strains (elem, exx,eyy,ezz,exy,exz,eyz)";
      bool header = false;
      for (int e : *elems) {
        const int c = cell_of[static_cast<std::size_t>(e)];
        if (c < 0 || points_of(c) > 0) continue;
        const auto row_start = [&] {
          if (!header) {
            std::fprintf(f, "\n %s at the centroid for set %s and time %14.6E\n\n", what,
                         set_name(p.set, "ALL ELEMENTS").c_str(), frame.time);
            header = true;
          }
        };
        const ElementKindInfo& kind = element_kind(model_.elements.kind[static_cast<std::size_t>(e)]);
        if (kind.section_forces && (kind.mid_surface || !peeq)) {
          // Beams and shells: section forces and moments for S (beams and FPM triangles
          // SF1-SF3, MITC4 SF1-SF5; SM1-SM3); no strains, no PEEQ of shells.
          const FieldArray* sf = frame.fields.find_cell("SF");
          const FieldArray* sm = frame.fields.find_cell("SM");
          if (var == "S" && sf && sm) {
            row_start();
            const auto ks = static_cast<std::size_t>(sf->components), km = static_cast<std::size_t>(sm->components);
            std::fprintf(f, " %10lld  SF", id_of(e));
            for (std::size_t k = 0; k < ks; ++k) std::fprintf(f, " %14.6E", sf->values[ks * static_cast<std::size_t>(c) + k]);
            std::fprintf(f, "  SM");
            for (std::size_t k = 0; k < km; ++k) std::fprintf(f, " %14.6E", sm->values[km * static_cast<std::size_t>(c) + k]);
            std::fprintf(f, "\n");
          }
          continue;
        }
        if (!solid) continue;  // PEEQ of a model without plasticity: nothing to print
        row_start();
        std::fprintf(f, " %10lld", id_of(e));
        for (int k = 0; k < solid->components; ++k)
          std::fprintf(f, " %14.6E", solid->values[static_cast<std::size_t>(solid->components) * c + k]);
        std::fprintf(f, "\n");
      }
    }
  }
  // stdio keeps the first failed write's error in the stream; the run must stop on it (exit
  // 4) rather than report completed with a table cut mid-line.
  if (std::fflush(f) != 0 || std::ferror(f)) {
    const int err = errno != 0 ? errno : EIO;
    if (start >= 0) {
      std::clearerr(f);
      if (::ftruncate(::fileno(f), static_cast<off_t>(start)) == 0) std::fseek(f, start, SEEK_SET);
    }
    throw std::runtime_error("cannot write '" + dir_ + "/" + job_ + ".dat': " + std::strerror(err));
  }
}

}  // namespace halfstep
