// *MATERIAL with *ELASTIC, *HYPERELASTIC, *PLASTIC, *DENSITY, *DAMPING; *SHELL SECTION, *SOLID SECTION,
// *BEAM SECTION
// and *ORIENTATION.
#include "elements/registry.hpp"
#include "io/inp_parser.hpp"
#include "io/inp_text.hpp"
#include "materials/solid_material.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace halfstep::inp {

// A user subroutine is code the deck names, not data halfstep can read: refused, with what it
// would take, rather than left out (the law would silently be whatever else the material has).
void DeckParser::user_material_keyword(const Keyword& kw) {
  fail(kw.pos, "*USER MATERIAL (a UMAT/VUMAT subroutine) is not supported: halfstep runs no user code. Give the "
               "law with *ELASTIC (ISOTROPIC, ORTHOTROPIC, ENGINEERING CONSTANTS), *HYPERELASTIC, NEO HOOKE or "
               "*PLASTIC; a user-material interface would need a compiled library with a C entry point per "
               "integration point (stress, state and tangent from the strain increment) for the CPU and the GPU, "
               "which is not there");
}

void DeckParser::material_keyword(const Keyword& kw) {
  allow_params(kw, {"NAME"});
  const std::string name = upper(unquote(trim(required_param(kw, "NAME"))));
  const auto [it, inserted] = m_.materials.try_emplace(name);
  if (!inserted)
    fail(kw.pos, "material '" + name + "' is defined twice (first at " + it->second.loc.str() + ")");
  it->second.name = name;
  it->second.loc = loc(kw.pos);
  material_ = &it->second;
}

void DeckParser::elastic_keyword(const Keyword& kw) {
  allow_params(kw, {"TYPE", "MODULI"});
  const std::string type = squeeze_upper(param(kw, "TYPE"));
  if (type.empty() || type == "ISOTROPIC" || type == "ISO") material_->elastic_type = ElasticType::Isotropic;
  else if (type == "ENGINEERINGCONSTANTS") material_->elastic_type = ElasticType::EngineeringConstants;
  else if (type == "ORTHOTROPIC" || type == "ORTHO") material_->elastic_type = ElasticType::Orthotropic;  // ORTHO: the peer's name
  else if (type == "ANISOTROPIC" || type == "ANISO") material_->elastic_type = ElasticType::Anisotropic;
  else
    fail(kw.pos, "*ELASTIC, TYPE=" + upper(param(kw, "TYPE")) +
                     " is not supported (ISOTROPIC, ENGINEERING CONSTANTS, ORTHOTROPIC or ANISOTROPIC)");
  if (kw.find("MODULI") && squeeze_upper(param(kw, "MODULI")) != "LONGTERM")
    fail(kw.pos, "*ELASTIC, MODULI=" + param(kw, "MODULI") + " is not supported (LONG TERM only)");
  if (material_->has_elastic || material_->has_hyperelastic)
    fail(kw.pos, "material '" + material_->name + "' already has an *ELASTIC or *HYPERELASTIC definition");
  material_->elastic_loc = loc(kw.pos);
  elastic_values_.clear();
}

// A temperature column is read: Abaqus's constants at one temperature apply at every
// temperature, and so do equal constants at several. Constants that change with temperature
// are refused (temperature-dependent elasticity is not supported).
void DeckParser::elastic_data(const Line& line) {
  if (material_->elastic_type == ElasticType::Isotropic) {
    need_fields(line, 2, "E, nu");
    at_most_fields(line, 3, "E, nu[, temperature]");
    const double e = real(line.fields[0], "Young's modulus");
    const double nu = real(line.fields[1], "Poisson's ratio");
    if (line.fields.size() > 2 && !line.fields[2].empty()) (void)real(line.fields[2], "the temperature");
    if (block_lines_ > 1) {
      if (e != material_->youngs || nu != material_->poisson)
        fail(at_, "*ELASTIC: other constants at a second temperature: temperature-dependent elasticity is not "
                  "supported (give one line, or the same E and nu on every line)");
      return;
    }
    if (!(e > 0)) fail(at_, "Young's modulus must be positive, got '" + std::string(line.fields[0]) + "'");
    if (nu >= 0.5)
      fail(at_, "Poisson's ratio must be below 0.5, got '" + std::string(line.fields[1]) + "'");
    if (nu <= -1.0)
      fail(at_, "Poisson's ratio must be above -1, got '" + std::string(line.fields[1]) + "'");
    material_->youngs = e;
    material_->poisson = nu;
    material_->has_elastic = true;
    return;
  }
  // Nine constants (21 anisotropic), eight on a line (Abaqus's layout), then optionally the
  // temperature; any wrapping is accepted. Groups of ten (22) are the constants at successive
  // temperatures.
  const ElasticType type = material_->elastic_type;
  const bool engineering = type == ElasticType::EngineeringConstants;
  const std::size_t count = elastic_count(), group = count + 1;
  const char* name = engineering ? "ENGINEERING CONSTANTS" : type == ElasticType::Orthotropic ? "ORTHOTROPIC" : "ANISOTROPIC";
  const char* form = engineering ? "E1, E2, E3, nu12, nu13, nu23, G12, G13, G23"
                     : type == ElasticType::Orthotropic
                         ? "D1111, D1122, D2222, D1133, D2233, D3333, D1212, D1313, D2323"
                         : "D1111, D1122, D2222, D1133, D2233, D3333, D1112, D2212, D3312, D1212, D1113, D2213, D3313, "
                           "D1213, D1313, D1123, D2223, D3323, D1223, D1323, D2323";
  for (std::string_view f : line.fields) {
    if (f.empty()) continue;
    elastic_values_.push_back(real(f, elastic_values_.size() % group == count ? "the temperature" : "an elastic constant"));
    const std::size_t n = elastic_values_.size();
    const auto first = elastic_values_.begin();
    if (n > group && n % group == count && !std::equal(elastic_values_.end() - static_cast<long>(count), elastic_values_.end(), first))
      fail(at_, "*ELASTIC: other constants at a second temperature: temperature-dependent elasticity is not "
                "supported (give the " + std::to_string(count) + " constants once, or the same ones at every temperature)");
  }
  if (elastic_values_.size() < count || material_->has_elastic) return;
  std::copy(elastic_values_.begin(), elastic_values_.begin() + static_cast<long>(count), material_->elastic_constants.begin());
  try {  // the builders know which constants are admissible
    const Mat3<double> axes = scaled_identity(1.0);
    if (engineering) (void)orthotropic_engineering(material_->elastic_constants.data(), 1.0, axes);
    else if (type == ElasticType::Orthotropic) (void)orthotropic_stiffness(material_->elastic_constants.data(), 1.0, axes);
    else (void)anisotropic_stiffness(material_->elastic_constants.data(), 1.0, axes);
  } catch (const std::invalid_argument& e) {
    fail(at_, std::string("*ELASTIC, TYPE=") + name + ": " + e.what() + " (" + form + ")");
  }
  material_->has_elastic = true;
}

std::size_t DeckParser::elastic_count() const {
  return material_->elastic_type == ElasticType::Anisotropic ? 21 : 9;
}

void DeckParser::elastic_end() {
  const bool iso = material_->elastic_type == ElasticType::Isotropic;
  const std::size_t count = iso ? 2 : elastic_count();
  const std::string what = std::to_string(count) + " elastic constants";
  const std::string expected = iso ? "E, nu" : "the " + what;
  need_data_line(expected.c_str());
  const std::size_t n = elastic_values_.size();
  if (!iso && n < count) fail(kw_.pos, kw_.display + " needs " + what + ", got " + std::to_string(n));
  if (!iso && n > count && n % (count + 1) != 0)
    fail(kw_.pos, kw_.display + ": expected " + what + " and a temperature per temperature, got " +
                      std::to_string(n) + " values");
}

void DeckParser::hyperelastic_keyword(const Keyword& kw) {
  if (!kw.find("NEOHOOKE"))
    fail(kw.pos, "*HYPERELASTIC: only NEO HOOKE with coefficients C10, D1 on the data line is supported");
  allow_params(kw, {"NEOHOOKE", "FORM"});
  // FORM= is a halfstep extension: Abaqus has one compressible Neo-Hookean, seed 004 another.
  const std::string form = squeeze_upper(param(kw, "FORM"));
  if (!form.empty() && form != "ABAQUS" && form != "LOG")
    fail(kw.pos, "*HYPERELASTIC, NEO HOOKE, FORM=" + upper(param(kw, "FORM")) +
                     " is not supported (ABAQUS: C10 (I1bar - 3) + (J - 1)^2 / D1, the default; LOG: mu/2 (I1 - 3) - "
                     "mu ln J + lambda/2 (ln J)^2)");
  if (material_->has_elastic || material_->has_hyperelastic)
    fail(kw.pos, "material '" + material_->name + "' already has an *ELASTIC or *HYPERELASTIC definition");
  material_->elastic_loc = loc(kw.pos);
  material_->hyperelastic_log = form == "LOG";
}

void DeckParser::hyperelastic_data(const Line& line) {
  if (block_lines_ > 1)
    fail(at_, "a second *HYPERELASTIC data line: temperature-dependent coefficients are not supported");
  need_fields(line, 2, "C10, D1");
  at_most_fields(line, 3, "C10, D1[, temperature] (temperature dependence is not supported)");
  if (line.fields.size() > 2 && !line.fields[2].empty())
    fail(at_, "temperature-dependent *HYPERELASTIC coefficients are not supported");
  const double c10 = real(line.fields[0], "C10");
  const double d1 = real(line.fields[1], "D1");
  if (!(c10 > 0)) fail(at_, "*HYPERELASTIC, NEO HOOKE: C10 must be positive, got '" + std::string(line.fields[0]) + "'");
  if (!(d1 > 0))
    fail(at_, "*HYPERELASTIC, NEO HOOKE: D1 must be positive (halfstep's Neo-Hookean is compressible), got '" +
                  std::string(line.fields[1]) + "'");
  material_->c10 = c10;
  material_->d1 = d1;
  material_->has_hyperelastic = true;
}

void DeckParser::hyperelastic_end() { need_data_line("C10, D1"); }

void DeckParser::plastic_keyword(const Keyword& kw) {
  allow_params(kw, {"HARDENING"});
  const std::string hardening = squeeze_upper(param(kw, "HARDENING"));
  if (!hardening.empty() && hardening != "ISOTROPIC")
    fail(kw.pos, "*PLASTIC, HARDENING=" + upper(param(kw, "HARDENING")) +
                     " is not supported (ISOTROPIC: J2 plasticity with a hardening table)");
  if (material_->plastic()) fail(kw.pos, "material '" + material_->name + "' has a second *PLASTIC");
  material_->plastic_loc = loc(kw.pos);
}

void DeckParser::plastic_data(const Line& line) {
  need_fields(line, 2, "yield stress, equivalent plastic strain");
  at_most_fields(line, 3, "yield stress, equivalent plastic strain[, temperature] (temperature dependence is not supported)");
  if (line.fields.size() > 2 && !line.fields[2].empty())
    fail(at_, "temperature-dependent *PLASTIC data is not supported");
  const double sy = real(line.fields[0], "the yield stress");
  const double ep = real(line.fields[1], "the equivalent plastic strain");
  if (!(sy > 0 && sy < 1e300)) fail(at_, "*PLASTIC: the yield stress must be a positive number, got '" + std::string(line.fields[0]) + "'");
  std::vector<double>& strain = material_->plastic_strain;
  if (strain.empty() && ep != 0.0)
    fail(at_, "*PLASTIC: the first data line is the initial yield stress, at equivalent plastic strain 0, got '" +
                  std::string(line.fields[1]) + "'");
  if (!strain.empty() && !(ep > strain.back() && ep < 1e300))
    fail(at_, "*PLASTIC: equivalent plastic strains must increase from line to line, got '" +
                  std::string(line.fields[1]) + "' after " + std::to_string(strain.back()));
  if (static_cast<int>(strain.size()) >= kMaxHardening)
    fail(at_, "*PLASTIC: at most " + std::to_string(kMaxHardening) + " hardening points are supported");
  material_->plastic_stress.push_back(sy);
  strain.push_back(ep);
}

void DeckParser::plastic_end() { need_data_line("yield stress, equivalent plastic strain"); }

void DeckParser::density_keyword(const Keyword& kw) {
  allow_params(kw, {});
  if (material_->has_density)
    fail(kw.pos, "material '" + material_->name + "' has a second *DENSITY");
}

// A temperature column is read, as *ELASTIC's: the same density on every line is constant in
// temperature; a density that changes with it is refused.
void DeckParser::density_data(const Line& line) {
  need_fields(line, 1, "the density");
  at_most_fields(line, 2, "the density[, temperature]");
  const double rho = real(line.fields[0], "the density");
  if (line.fields.size() > 1 && !line.fields[1].empty()) (void)real(line.fields[1], "the temperature");
  if (block_lines_ > 1) {
    if (rho != material_->density)
      fail(at_, "*DENSITY: another density at a second temperature: temperature-dependent density is not supported "
                "(give one line, or the same density on every line)");
    return;
  }
  if (!(rho > 0)) fail(at_, "density must be positive, got '" + std::string(line.fields[0]) + "'");
  material_->density = rho;
  material_->has_density = true;
}

void DeckParser::density_end() { need_data_line("the density"); }

void DeckParser::damping_keyword(const Keyword& kw) {
  allow_params(kw, {"ALPHA", "BETA"});
  const double alpha = real_param(kw, "ALPHA", 0.0), beta = real_param(kw, "BETA", 0.0);
  if (alpha < 0) fail(kw.pos, "*DAMPING, ALPHA must not be negative, got '" + param(kw, "ALPHA") + "'");
  if (beta < 0) fail(kw.pos, "*DAMPING, BETA must not be negative, got '" + param(kw, "BETA") + "'");
  material_->alpha = alpha;
  material_->beta = beta;
  material_->damping_loc = loc(kw.pos);
}

void DeckParser::section_keyword(const Keyword& kw) {
  allow_params(kw, {"ELSET", "MATERIAL", "SECTIONINTEGRATION", "OFFSET", "CONTROLS", "FORMULATION"});
  ShellSection s;
  s.elset = key(required_param(kw, "ELSET"));
  s.material = upper(unquote(trim(required_param(kw, "MATERIAL"))));
  s.loc = loc(kw.pos);
  if (kw.find("FORMULATION")) {
    s.formulation = squeeze_upper(required_param(kw, "FORMULATION"));
    if (!is_element_formulation(s.formulation))
      fail(kw.pos, "*SHELL SECTION, FORMULATION=" + param(kw, "FORMULATION") + " is not known: expected " +
                       supported_formulations() + ", or no FORMULATION for MITC4 (S4, S4R)");
  }
  const std::string rule = squeeze_upper(param(kw, "SECTIONINTEGRATION"));
  // MITC4: both rules integrate a linear elastic section exactly, so the choice does not
  // matter. FPM triangles integrate point by point with Simpson's rule.
  s.gauss = rule == "GAUSS";
  if (!rule.empty() && rule != "SIMPSON" && (rule != "GAUSS" || !s.formulation.empty()))
    fail(kw.pos, "*SHELL SECTION, SECTION INTEGRATION=" + param(kw, "SECTIONINTEGRATION") + " is not supported (" +
                     (s.formulation.empty() ? "SIMPSON or GAUSS" : "SIMPSON with FORMULATION=" + s.formulation) + ")");
  if (const Param* off = kw.find("OFFSET")) {
    const std::string v = squeeze_upper(off->value);
    const auto num = to_real(v);
    if (v != "MIDSURFACE" && !(num && *num == 0.0))
      fail(kw.pos, "*SHELL SECTION, OFFSET=" + off->value +
                       " is not supported (halfstep puts the reference surface at the mid-surface)");
  }
  // Section controls tune hourglass stabilisation of S4R, which MITC4 does not need.
  warn_ignored_param(kw, "CONTROLS");
  m_.sections.push_back(std::move(s));
  section_pos_.push_back(kw.pos);
}

void DeckParser::section_data(const Line& line) {
  if (block_lines_ > 1)
    fail(at_, "a second *SHELL SECTION data line: composite layups are not supported");
  need_fields(line, 1, "thickness[, number of integration points]");
  at_most_fields(line, 2, "thickness[, number of integration points]");
  const double t = real(line.fields[0], "the thickness");
  if (!(t > 0))
    fail(at_, "shell thickness must be positive, got '" + std::string(line.fields[0]) + "'");
  ShellSection& s = m_.sections.back();
  s.thickness = t;
  if (line.fields.size() > 1 && !line.fields[1].empty()) {
    const std::int64_t n = integer(line.fields[1], "the number of integration points");
    // One point would give a section without bending stiffness.
    if (s.formulation.empty() && (n < 2 || n > 99))
      fail(at_, "number of integration points through the thickness must be 2 to 99, got " +
                    std::to_string(n));
    // FPM triangles integrate the stresses at these points with Simpson's rule: an odd count.
    if (!s.formulation.empty() && (n < 3 || n > kFpmMaxSectionPoints || n % 2 == 0))
      fail(at_, "*SHELL SECTION, FORMULATION=" + s.formulation + ": the number of Simpson points through the "
                    "thickness must be odd, 3 to " + std::to_string(kFpmMaxSectionPoints) + ", got " + std::to_string(n));
    s.thickness_points = static_cast<int>(n);
  }
}

void DeckParser::section_end() { need_data_line("the thickness"); }

void DeckParser::solid_section_keyword(const Keyword& kw) {
  allow_params(kw, {"ELSET", "MATERIAL", "ORIENTATION", "CONTROLS", "FORMULATION", "OFFSET"});
  // The peer's OFFSET (of plane elements' mid-plane, which its 3-D expansion uses): zero is
  // the plane itself, what halfstep's planar elements are.
  if (kw.find("OFFSET") && real_param(kw, "OFFSET", 0.0) != 0.0)
    fail(kw.pos, "*SOLID SECTION, OFFSET=" + param(kw, "OFFSET") +
                     " is not supported (the section lies on the elements' plane: OFFSET=0)");
  SolidSection s;
  s.elset = key(required_param(kw, "ELSET"));
  s.material = upper(unquote(trim(required_param(kw, "MATERIAL"))));
  if (kw.find("FORMULATION")) {
    s.formulation = squeeze_upper(required_param(kw, "FORMULATION"));
    if (!is_element_formulation(s.formulation))
      fail(kw.pos, "*SOLID SECTION, FORMULATION=" + param(kw, "FORMULATION") +
                       " is not known: expected " + supported_formulations() +
                       ", or no FORMULATION for the element's own formulation");
  }
  if (kw.find("ORIENTATION")) {
    s.orientation = upper(unquote(trim(required_param(kw, "ORIENTATION"))));
    if (!inst_.name.empty()) s.orientation = inst_.name + "." + s.orientation;
  }
  s.loc = loc(kw.pos);
  // Section controls choose among hourglass formulations; halfstep has one (docs/theory.md).
  warn_ignored_param(kw, "CONTROLS");
  m_.solid_sections.push_back(std::move(s));
  solid_section_pos_.push_back(kw.pos);
}

void DeckParser::solid_section_data(const Line& line) {
  // The optional data line is the thickness of planar elements (unused for 3D solids); more
  // is a mistake. Its sign is checked where a planar element uses it (the model build).
  if (block_lines_ > 1) fail(at_, "a second *SOLID SECTION data line: solid sections take at most one");
  at_most_fields(line, 1, "nothing, or one value (the thickness of planar elements, unused for 3D solids)");
  if (!line.fields.empty() && !line.fields[0].empty()) {
    SolidSection& s = m_.solid_sections.back();
    s.thickness = real(line.fields[0], "the section thickness");
    s.thickness_loc = loc(at_);
  }
}

void DeckParser::beam_section_keyword(const Keyword& kw) {
  allow_params(kw, {"ELSET", "MATERIAL", "SECTION", "FORMULATION"});
  BeamSection s;
  s.elset = key(required_param(kw, "ELSET"));
  s.material = upper(unquote(trim(required_param(kw, "MATERIAL"))));
  const std::string shape = squeeze_upper(required_param(kw, "SECTION"));
  if (shape == "RECT" || shape == "RECTANGULAR") s.shape = BeamSection::Shape::Rect;  // RECTANGULAR: the peer's
  else if (shape == "CIRC") s.shape = BeamSection::Shape::Circ;
  else fail(kw.pos, "*BEAM SECTION, SECTION=" + param(kw, "SECTION") + " is not supported (RECT or CIRC)");
  // The FPM beam is B31's only formulation here, so FORMULATION=FPM may be left out.
  if (kw.find("FORMULATION") && squeeze_upper(param(kw, "FORMULATION")) != "FPM")
    fail(kw.pos, "*BEAM SECTION, FORMULATION=" + param(kw, "FORMULATION") + " is not supported (FPM)");
  s.loc = loc(kw.pos);
  m_.beam_sections.push_back(std::move(s));
  beam_section_pos_.push_back(kw.pos);
}

void DeckParser::beam_section_data(const Line& line) {
  BeamSection& s = m_.beam_sections.back();
  const bool rect = s.shape == BeamSection::Shape::Rect;
  if (block_lines_ == 1) {
    // The peer reads CIRC's number as the diameter (and takes a second one: an ellipse's).
    const bool peer = dialect_ == Dialect::CalculiX;
    const char* form = rect   ? "a, b (RECT: width along n1, height along n2)"
                       : peer ? "d[, d] (CIRC, as the peer reads it: the diameter)"
                              : "r (CIRC: the radius)";
    need_fields(line, 1, form);
    at_most_fields(line, rect || peer ? 2 : 1, form);
    s.a = real(line.fields[0], rect ? "the width a" : peer ? "the diameter d" : "the radius r");
    if (rect) {
      need_fields(line, 2, form);
      s.b = real(line.fields[1], "the height b");
    } else if (peer) {
      if (line.fields.size() > 1 && !line.fields[1].empty() &&
          real(line.fields[1], "the second diameter") != s.a)
        fail(at_, "*BEAM SECTION, SECTION=CIRC with two different diameters (an ellipse) is not supported");
      s.a *= 0.5;
    }
    if (!(s.a > 0 && s.a < 1e300) || (rect && !(s.b > 0 && s.b < 1e300)))
      fail(at_, std::string("*BEAM SECTION: ") + (rect ? "a and b" : peer ? "the diameter" : "the radius") +
                    " must be positive, got " + std::string(line.fields[0]) +
                    (rect ? ", " + std::string(line.fields[1]) : std::string()));
    return;
  }
  if (block_lines_ > 2)
    fail(at_, "*BEAM SECTION takes at most two data lines (the dimensions, then n1); section point counts are "
              "not supported (RECT uses 5 x 5 points, CIRC 3 rings x 8 angles)");
  need_fields(line, 3, "n1x, n1y, n1z (the approximate n1 direction)");
  at_most_fields(line, 3, "n1x, n1y, n1z (the approximate n1 direction)");
  for (int i = 0; i < 3; ++i)
    s.n1[static_cast<std::size_t>(i)] = real(line.fields[static_cast<std::size_t>(i)], "a component of n1");
  const double len = std::sqrt(s.n1[0] * s.n1[0] + s.n1[1] * s.n1[1] + s.n1[2] * s.n1[2]);
  if (!(len > 0 && len < 1e300)) fail(at_, "*BEAM SECTION: the n1 direction must be a nonzero vector");
  if (inst_.moved) {  // a part's beam axes turn with its instance
    const std::array<double, 3> p = s.n1;
    for (int i = 0; i < 3; ++i)
      s.n1[static_cast<std::size_t>(i)] = inst_.R[i][0] * p[0] + inst_.R[i][1] * p[1] + inst_.R[i][2] * p[2];
  }
  s.n1_given = true;
  s.n1_loc = loc(at_);
}

void DeckParser::beam_section_end() {
  need_data_line(m_.beam_sections.back().shape == BeamSection::Shape::Rect ? "a, b" : "the radius");
}

void DeckParser::orientation_keyword(const Keyword& kw) {
  allow_params(kw, {"NAME", "SYSTEM", "DEFINITION"});
  const std::string system = squeeze_upper(param(kw, "SYSTEM"));
  if (!system.empty() && system != "RECTANGULAR")
    fail(kw.pos, "*ORIENTATION, SYSTEM=" + param(kw, "SYSTEM") + " is not supported (RECTANGULAR only)");
  const std::string def = squeeze_upper(param(kw, "DEFINITION"));
  if (!def.empty() && def != "COORDINATES")
    fail(kw.pos, "*ORIENTATION, DEFINITION=" + param(kw, "DEFINITION") + " is not supported (COORDINATES only)");
  std::string name = upper(unquote(trim(required_param(kw, "NAME"))));
  if (!inst_.name.empty()) name = inst_.name + "." + name;  // one per instance of its part
  const auto [it, inserted] = m_.orientations.try_emplace(name);
  if (!inserted)
    fail(kw.pos, "orientation '" + name + "' is defined twice (first at " + it->second.loc.str() + ")");
  it->second.name = name;
  it->second.loc = loc(kw.pos);
  orientation_ = &it->second;
}

void DeckParser::orientation_data(const Line& line) {
  Orientation& o = *orientation_;
  if (block_lines_ == 1) {
    need_fields(line, 6, "a1, a2, a3, b1, b2, b3 (point a on local axis 1, point b in the local 1-2 plane)");
    at_most_fields(line, 9, "a1, a2, a3, b1, b2, b3[, c1, c2, c3]");
    for (int i = 0; i < 3; ++i) {
      o.a[static_cast<std::size_t>(i)] = real(line.fields[static_cast<std::size_t>(i)], "a coordinate of point a");
      o.b[static_cast<std::size_t>(i)] = real(line.fields[static_cast<std::size_t>(3 + i)], "a coordinate of point b");
    }
    // Origin c other than 0 is allowed by Abaqus; the axes are then a - c and b - c.
    if (line.fields.size() > 6) {
      need_fields(line, 9, "a1, a2, a3, b1, b2, b3, c1, c2, c3");
      for (int i = 0; i < 3; ++i) {
        const double c = real(line.fields[static_cast<std::size_t>(6 + i)], "a coordinate of point c");
        o.a[static_cast<std::size_t>(i)] -= c;
        o.b[static_cast<std::size_t>(i)] -= c;
      }
    }
    const auto& a = o.a;
    const auto& b = o.b;
    const double cx = a[1] * b[2] - a[2] * b[1], cy = a[2] * b[0] - a[0] * b[2], cz = a[0] * b[1] - a[1] * b[0];
    const double la = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    const double lb = std::sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
    if (!(std::sqrt(cx * cx + cy * cy + cz * cz) > 1e-10 * la * lb))
      fail(at_, "*ORIENTATION: points a and b must be nonzero and not on one line through the origin");
    return;
  }
  if (block_lines_ > 2) fail(at_, "*ORIENTATION takes at most two data lines");
  need_fields(line, 1, "the local axis of the additional rotation (1, 2 or 3)[, angle in degrees]");
  at_most_fields(line, 2, "the local axis of the additional rotation (1, 2 or 3)[, angle in degrees]");
  const std::int64_t axis = integer(line.fields[0], "the axis of the additional rotation");
  if (axis < 0 || axis > 3) fail(at_, "*ORIENTATION: the additional rotation axis must be 1, 2 or 3, got " + std::to_string(axis));
  o.extra_axis = static_cast<int>(axis);
  o.extra_angle = line.fields.size() > 1 ? real_or(line.fields[1], 0.0, "the additional rotation angle") : 0.0;
}

void DeckParser::orientation_end() {
  need_data_line("a1, a2, a3, b1, b2, b3");
  if (!inst_.moved || !orientation_) return;
  // A part's orientation turns with its instance: a and b are directions from the origin c.
  for (auto* v : {&orientation_->a, &orientation_->b}) {
    const std::array<double, 3> p = *v;
    for (int i = 0; i < 3; ++i) (*v)[static_cast<std::size_t>(i)] = inst_.R[i][0] * p[0] + inst_.R[i][1] * p[1] + inst_.R[i][2] * p[2];
  }
}

// Sections may be written before their element set or material, so names are checked here.
void DeckParser::resolve_sections() {
  for (std::size_t i = 0; i < m_.sections.size(); ++i) {
    const ShellSection& s = m_.sections[i];
    if (!m_.elsets.count(s.elset))
      fail(section_pos_[i], "*SHELL SECTION: element set '" + s.elset + "' is not defined");
    if (!m_.materials.count(s.material))
      fail(section_pos_[i], "*SHELL SECTION: material '" + s.material + "' is not defined");
    if (!s.formulation.empty()) {
      apply_formulation(s.elset, s.formulation, "*SHELL SECTION", section_pos_[i]);
      continue;
    }
    // Kinds that exist only as a formulation (S3, S3R: the FPM triangle) run as it by default,
    // beside the section's S4/S4R, with its thickness, points and material: the points must
    // then suit the triangle's Simpson rule.
    ShellSection& section = m_.sections[i];
    for (int e : m_.elsets.at(s.elset).members) {
      const auto k = static_cast<std::size_t>(e);
      const ElementKindInfo& kind = element_kind(m_.elements.kind[k]);
      if (!*kind.formulation) continue;
      const std::string who = "element " + std::to_string(m_.elements.id[k]) + " of type " +
                              m_.elements.abaqus_type[k] + " (run as halfstep's " + kind.formulation + " triangle)";
      if (section.gauss)
        fail(section_pos_[i], "*SHELL SECTION, SECTION INTEGRATION=GAUSS on " + who +
                                  ": the triangle integrates with Simpson's rule; leave SECTION INTEGRATION out or "
                                  "give SIMPSON");
      const int n = section.thickness_points;
      if (n < 3 || n > kFpmMaxSectionPoints || n % 2 == 0)
        fail(section_pos_[i], "*SHELL SECTION with " + who + ": the number of Simpson points through the thickness "
                                  "must be odd, 3 to " + std::to_string(kFpmMaxSectionPoints) + ", got " +
                                  std::to_string(n));
      m_.elements.kind[k] = find_element_kind(kind.name, kind.formulation);
      section.formulation_only_kinds = true;
    }
  }
  for (std::size_t i = 0; i < m_.beam_sections.size(); ++i) {
    const BeamSection& s = m_.beam_sections[i];
    if (!m_.elsets.count(s.elset))
      fail(beam_section_pos_[i], "*BEAM SECTION: element set '" + s.elset + "' is not defined");
    if (!m_.materials.count(s.material))
      fail(beam_section_pos_[i], "*BEAM SECTION: material '" + s.material + "' is not defined");
  }
  for (std::size_t i = 0; i < m_.solid_sections.size(); ++i) {
    const SolidSection& s = m_.solid_sections[i];
    if (!m_.elsets.count(s.elset))
      fail(solid_section_pos_[i], "*SOLID SECTION: element set '" + s.elset + "' is not defined");
    if (!m_.materials.count(s.material))
      fail(solid_section_pos_[i], "*SOLID SECTION: material '" + s.material + "' is not defined");
    if (!s.orientation.empty() && !m_.orientations.count(s.orientation))
      fail(solid_section_pos_[i], "*SOLID SECTION: orientation '" + s.orientation + "' is not defined");
    if (!s.formulation.empty()) apply_formulation(s.elset, s.formulation, "*SOLID SECTION", solid_section_pos_[i]);
    else if (dialect_ == Dialect::CalculiX) apply_peer_formulations(s.elset);
  }
}

void DeckParser::apply_peer_formulations(const std::string& elset) {
  // The peer's C3D8 integrates every Gauss point with its own volume change; Abaqus's (and
  // halfstep's default) averages it over the element (F-bar). The peer's C3D20R integrates its
  // mass, and so its body loads, at its own 2 x 2 x 2 points.
  static const int c3d8 = find_element_kind("C3D8", ""), full = find_element_kind("C3D8", "FULL");
  static const int c3d20r = find_element_kind("C3D20R", ""), reduced = find_element_kind("C3D20R", "REDUCEDMASS");
  Elements& el = m_.elements;
  for (int e : m_.elsets.at(elset).members) {
    int& kind = el.kind[static_cast<std::size_t>(e)];
    if (kind == c3d8) kind = full;
    else if (kind == c3d20r) kind = reduced;
  }
}

// The section's elements become the registry's kind for (their deck kind, FORMULATION=).
void DeckParser::apply_formulation(const std::string& elset, const std::string& formulation, const char* keyword,
                                   Pos pos) {
  Elements& el = m_.elements;
  for (int e : m_.elsets.at(elset).members) {
    const auto k = static_cast<std::size_t>(e);
    const int kind = find_element_kind(element_kind(el.kind[k]).name, formulation);
    if (kind < 0)
      fail(pos, std::string(keyword) + ", FORMULATION=" + formulation + " does not apply to element " +
                    std::to_string(el.id[k]) + " of type " + el.abaqus_type[k] + " (" + formulation +
                    " is available for " + formulation_kinds(formulation) + " only)");
    el.kind[k] = kind;
  }
}

}  // namespace halfstep::inp

namespace halfstep::inp {

namespace {

/// A value as a deck would write it (shortest of %g), for messages.
std::string number_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

}  // namespace

// *SPRING and *DASHPOT: linear only. Their data lines depend on the kind of the set's
// elements (a dof line for the 1- and 2-dof kinds), which may be defined later in the deck:
// the values are kept and read when the model data ends (resolve_discrete_sections).
void DeckParser::discrete_keyword(const Keyword& kw) {
  allow_params(kw, {"ELSET", "NONLINEAR", "ORIENTATION", "DEPENDENCIES", "RTOL"});
  if (kw.find("NONLINEAR") && kw.name == "DASHPOT")
    fail(kw.pos, "*DASHPOT, NONLINEAR is not supported: halfstep's dashpots are linear (one coefficient)");
  if (kw.find("ORIENTATION"))
    fail(kw.pos, kw.display + ", ORIENTATION is not supported: the dofs of SPRING1/2 and DASHPOT1/2 are global");
  if (kw.find("DEPENDENCIES"))
    fail(kw.pos, kw.display + ", DEPENDENCIES is not supported (field-variable dependence)");
  warn_ignored_param(kw, "RTOL");
  PendingDiscrete p;
  p.elset = key(required_param(kw, "ELSET"));
  p.dashpot = kw.name == "DASHPOT";
  p.nonlinear = kw.find("NONLINEAR") != nullptr;
  p.pos = kw.pos;
  pending_discrete_.push_back(std::move(p));
}

void DeckParser::discrete_data(const Line& line) {
  if (line.fields.empty()) return;  // the blank first line of SPRINGA / DASHPOTA
  std::vector<double> values;
  for (std::string_view f : line.fields)
    values.push_back(f.empty() ? std::numeric_limits<double>::quiet_NaN() : real(f, "a value"));
  pending_discrete_.back().lines.emplace_back(std::move(values), at_);
}

void DeckParser::discrete_end() {
  if (pending_discrete_.back().lines.empty())
    fail(kw_.pos, kw_.display + std::string(" needs data lines: the dofs (SPRING1/2, DASHPOT1/2), then the ") +
                      (pending_discrete_.back().dashpot ? "dashpot coefficient" : "stiffness"));
}

void DeckParser::resolve_discrete_sections() {
  for (const PendingDiscrete& p : pending_discrete_) {
    const char* keyword = p.dashpot ? "*DASHPOT" : "*SPRING";
    const char* value_name = p.dashpot ? "the dashpot coefficient" : "the spring stiffness";
    const auto set = m_.elsets.find(p.elset);
    if (set == m_.elsets.end()) fail(p.pos, std::string(keyword) + ": element set '" + p.elset + "' is not defined");
    if (set->second.members.empty()) fail(p.pos, std::string(keyword) + ": element set '" + p.elset + "' is empty");
    int dofs = -1;
    std::string kind_name;
    for (int e : set->second.members) {
      const auto k = static_cast<std::size_t>(e);
      const ElementKindInfo& info = element_kind(m_.elements.kind[k]);
      if (info.discrete != (p.dashpot ? 2 : 1))
        fail(p.pos, std::string(keyword) + " on element " + std::to_string(m_.elements.id[k]) + " of type " +
                        m_.elements.abaqus_type[k] + ": " + keyword + " applies to " +
                        (p.dashpot ? "DASHPOTA, DASHPOT1 and DASHPOT2" : "SPRINGA, SPRING1 and SPRING2") + " elements");
      if (dofs >= 0 && info.discrete_dofs != dofs)
        fail(p.pos, std::string(keyword) + ": element set '" + p.elset + "' mixes " + kind_name + " and " + info.name +
                        " elements, whose data lines differ: give each kind its own set");
      dofs = info.discrete_dofs;
      kind_name = info.name;
    }
    const std::size_t want = dofs > 0 ? 2 : 1;
    if (p.nonlinear) {
      // The dof line, then "force, relative displacement" lines, displacements ascending.
      const std::size_t first = dofs > 0 ? 1 : 0;
      if (p.lines.size() < first + 2)
        fail(p.lines.empty() ? p.pos : p.lines.back().second,
             std::string(keyword) + ", NONLINEAR for " + kind_name + " elements takes " +
                 (dofs > 0 ? "the dof line, then " : "") + "at least two lines of force, relative displacement");
      if (p.lines.size() - first > static_cast<std::size_t>(kMaxHardening))
        fail(p.lines[first + kMaxHardening].second, std::string(keyword) + ", NONLINEAR: at most " +
                                                        std::to_string(kMaxHardening) + " force, displacement pairs");
    } else if (p.lines.size() != want) {
      const Pos at = p.lines.size() > want ? p.lines[want].second : p.pos;
      fail(at, std::string(keyword) + " for " + kind_name + " elements takes " +
                   (dofs > 0 ? "two data lines: the dof" + std::string(dofs == 2 ? "s (i, j)" : "") + ", then " +
                                   value_name
                             : "one data line: " + std::string(value_name)) +
                   "; got " + std::to_string(p.lines.size()));
    }
    DiscreteSection d;
    d.elset = p.elset;
    d.dashpot = p.dashpot;
    d.loc = loc(p.pos);
    if (dofs > 0) {
      const auto& [v, at] = p.lines[0];
      if (v.size() != static_cast<std::size_t>(dofs))
        fail(at, std::string(keyword) + " for " + kind_name + " elements: the first data line takes " +
                     (dofs == 1 ? "one dof" : "two dofs (i of the first node, j of the second)") + ", got " +
                     std::to_string(v.size()) + " fields");
      int got[2] = {0, 0};
      for (int i = 0; i < dofs; ++i) {
        const double x = v[static_cast<std::size_t>(i)];
        if (!(x >= 1 && x <= 6) || x != std::floor(x))
          fail(at, std::string(keyword) + ": dof '" + (std::isnan(x) ? std::string("(blank)") : number_text(x)) +
                       "' is not a dof number: expected 1, 2 or 3 (ux, uy, uz)");
        if (x > 3)
          fail(at, std::string(keyword) + ": dof " + std::to_string(static_cast<int>(x)) +
                       " is a rotation: springs and dashpots act on translations (1, 2, 3) only");
        got[i] = static_cast<int>(x);
      }
      d.dof1 = got[0];
      d.dof2 = got[1];
    }
    if (p.nonlinear) {
      for (std::size_t i = dofs > 0 ? 1 : 0; i < p.lines.size(); ++i) {
        const auto& [v, at] = p.lines[i];
        if (v.size() < 2 || std::isnan(v[0]) || std::isnan(v[1]))
          fail(at, std::string(keyword) + ", NONLINEAR: expected force, relative displacement");
        for (std::size_t c = 2; c < v.size(); ++c)
          if (!std::isnan(v[c]))
            fail(at, std::string(keyword) + ", NONLINEAR: temperature-dependent data are not supported; field " +
                         std::to_string(c + 1) + " must be blank");
        if (!std::isfinite(v[0]) || !std::isfinite(v[1]))
          fail(at, std::string(keyword) + ", NONLINEAR: force and displacement must be finite numbers");
        if (!d.table_disp.empty() && !(v[1] > d.table_disp.back()))
          fail(at, std::string(keyword) + ", NONLINEAR: the relative displacements must increase from line to line, got " +
                       number_text(v[1]) + " after " + number_text(d.table_disp.back()));
        d.table_force.push_back(v[0]);
        d.table_disp.push_back(v[1]);
      }
      m_.discrete_sections.push_back(std::move(d));
      continue;
    }
    // Abaqus: *SPRING's value is the first field (the second is not used); *DASHPOT's first
    // field is not used and the coefficient is the second (a lone first field is taken too).
    const auto& [v, at] = p.lines.back();
    double value = std::numeric_limits<double>::quiet_NaN();
    std::size_t used = 1;
    if (p.dashpot && v.size() >= 2) {
      value = v[1];
      used = 2;
    } else if (!v.empty()) {
      value = v[0];
      used = p.dashpot ? 1 : 2;  // the spring's second field is "not used"
    }
    for (std::size_t i = used; i < v.size(); ++i)
      if (!std::isnan(v[i]))
        fail(at, std::string(keyword) + ": only " + value_name +
                     " is read (temperature- and frequency-dependent data are not supported); field " +
                     std::to_string(i + 1) + " must be blank");
    if (std::isnan(value)) fail(at, std::string(keyword) + ": missing " + value_name);
    if (!(value >= 0) || !std::isfinite(value))
      fail(at, std::string(keyword) + ": " + value_name + " must be a non-negative number, got " + number_text(value));
    d.value = value;
    m_.discrete_sections.push_back(std::move(d));
  }
}

void DeckParser::add_solid_section(const std::string& elset, const std::string& material, const SourceLoc& loc, Pos pos) {
  SolidSection solid;
  solid.elset = elset;
  solid.material = material;
  solid.loc = loc;
  m_.solid_sections.push_back(std::move(solid));
  solid_section_pos_.push_back(pos);
}

// Each *BEAM SECTION of B32/B32R (inp_b32_expansion.cpp) becomes a *SOLID SECTION; its
// rectangle and n1 go to the beam nodes' frames.
std::vector<int> DeckParser::take_b32_sections(std::vector<B32Section>& sections) {
  const Elements& el = m_.elements;
  std::vector<int> section_of(static_cast<std::size_t>(el.size()), -1);
  for (std::size_t i = 0; i < m_.beam_sections.size();) {
    const BeamSection& s = m_.beam_sections[i];
    const std::vector<int>& members = m_.elsets.at(s.elset).members;
    const auto n = std::count_if(members.begin(), members.end(), [&](int e) { return expanded_b32(e); });
    if (n == 0) {
      ++i;
      continue;
    }
    if (n != static_cast<std::ptrdiff_t>(members.size()))
      fail(beam_section_pos_[i], "*BEAM SECTION on element set '" + s.elset +
                                     "' holds B32/B32R elements, which run as quadratic bricks around their axis, and "
                                     "other elements: give the B32/B32R elements a *BEAM SECTION of their own");
    for (int e : members) {
      if (section_of[static_cast<std::size_t>(e)] >= 0)
        fail(beam_section_pos_[i], s8_element_name(e) + " already has a *BEAM SECTION");
      section_of[static_cast<std::size_t>(e)] = static_cast<int>(sections.size());
    }
    const bool circ = s.shape == BeamSection::Shape::Circ;
    sections.push_back(circ ? B32Section{2 * s.a, 2 * s.a, s.n1, true} : B32Section{s.a, s.b, s.n1, false});
    add_solid_section(s.elset, s.material, s.loc, beam_section_pos_[i]);
    m_.beam_sections.erase(m_.beam_sections.begin() + static_cast<std::ptrdiff_t>(i));
    beam_section_pos_.erase(beam_section_pos_.begin() + static_cast<std::ptrdiff_t>(i));
  }
  return section_of;
}

}  // namespace halfstep::inp
