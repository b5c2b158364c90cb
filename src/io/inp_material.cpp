// *MATERIAL with *ELASTIC, *DENSITY, *DAMPING, and *SHELL SECTION.
#include "io/inp_parser.hpp"
#include "io/inp_text.hpp"

namespace halfstep::inp {

void DeckParser::material_keyword(const Keyword& kw) {
  require_model_data(kw);
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
  if (!material_) fail(kw.pos, "*ELASTIC must follow a *MATERIAL (it defines that material)");
  allow_params(kw, {"TYPE"});
  const std::string type = squeeze_upper(param(kw, "TYPE"));
  if (!type.empty() && type != "ISOTROPIC")
    fail(kw.pos, "*ELASTIC, TYPE=" + upper(param(kw, "TYPE")) +
                     " is not supported (halfstep supports isotropic elasticity only)");
  if (material_->has_elastic)
    fail(kw.pos, "material '" + material_->name + "' has a second *ELASTIC");
  block_ = Block::Elastic;
}

void DeckParser::elastic_data(const Line& line) {
  if (block_lines_ > 1)
    fail(at_, "a second *ELASTIC data line: temperature-dependent elasticity is not supported");
  need_fields(line, 2, "E, nu");
  at_most_fields(line, 2, "E, nu (temperature-dependent elasticity is not supported)");
  const double e = real(line.fields[0], "Young's modulus");
  const double nu = real(line.fields[1], "Poisson's ratio");
  if (!(e > 0)) fail(at_, "Young's modulus must be positive, got '" + std::string(line.fields[0]) + "'");
  if (nu >= 0.5)
    fail(at_, "Poisson's ratio must be below 0.5 for plane stress shells, got '" +
                  std::string(line.fields[1]) + "'");
  if (nu <= -1.0)
    fail(at_, "Poisson's ratio must be above -1, got '" + std::string(line.fields[1]) + "'");
  material_->youngs = e;
  material_->poisson = nu;
  material_->has_elastic = true;
}

void DeckParser::density_keyword(const Keyword& kw) {
  if (!material_) fail(kw.pos, "*DENSITY must follow a *MATERIAL (it defines that material)");
  allow_params(kw, {});
  if (material_->has_density)
    fail(kw.pos, "material '" + material_->name + "' has a second *DENSITY");
  block_ = Block::Density;
}

void DeckParser::density_data(const Line& line) {
  if (block_lines_ > 1)
    fail(at_, "a second *DENSITY data line: temperature-dependent density is not supported");
  need_fields(line, 1, "the density");
  at_most_fields(line, 1, "the density (temperature-dependent density is not supported)");
  const double rho = real(line.fields[0], "the density");
  if (!(rho > 0)) fail(at_, "density must be positive, got '" + std::string(line.fields[0]) + "'");
  material_->density = rho;
  material_->has_density = true;
}

void DeckParser::damping_keyword(const Keyword& kw) {
  if (!material_) fail(kw.pos, "*DAMPING must follow a *MATERIAL (it defines that material)");
  allow_params(kw, {"ALPHA", "BETA"});
  const double alpha = real_param(kw, "ALPHA", 0.0);
  if (real_param(kw, "BETA", 0.0) != 0.0)
    fail(kw.pos, "*DAMPING, BETA: stiffness-proportional damping is not supported "
                 "(halfstep supports mass-proportional damping, ALPHA, only)");
  if (alpha < 0) fail(kw.pos, "*DAMPING, ALPHA must not be negative, got '" + param(kw, "ALPHA") + "'");
  material_->alpha = alpha;
}

void DeckParser::section_keyword(const Keyword& kw) {
  require_model_data(kw);
  allow_params(kw, {"ELSET", "MATERIAL", "SECTIONINTEGRATION", "OFFSET", "CONTROLS"});
  ShellSection s;
  s.elset = key(required_param(kw, "ELSET"));
  s.material = upper(unquote(trim(required_param(kw, "MATERIAL"))));
  s.loc = loc(kw.pos);
  const std::string rule = squeeze_upper(param(kw, "SECTIONINTEGRATION"));
  // Both rules integrate a linear elastic section exactly, so the choice does not matter.
  if (!rule.empty() && rule != "SIMPSON" && rule != "GAUSS")
    fail(kw.pos, "*SHELL SECTION, SECTION INTEGRATION=" + param(kw, "SECTIONINTEGRATION") +
                     " is not supported (SIMPSON or GAUSS)");
  if (const Param* off = kw.find("OFFSET")) {
    const std::string v = squeeze_upper(off->value);
    const auto num = to_real(v);
    if (v != "MIDSURFACE" && !(num && *num == 0.0))
      fail(kw.pos, "*SHELL SECTION, OFFSET=" + off->value +
                       " is not supported (halfstep puts the reference surface at the mid-surface)");
  }
  // Section controls tune hourglass stabilisation of S4R, which MITC4 does not need.
  if (kw.find("CONTROLS") && !warned_.count("SHELLSECTION,CONTROLS")) {
    warned_.emplace("SHELLSECTION,CONTROLS", kw.pos);
    m_.warnings.push_back("parameter CONTROLS of *SHELL SECTION is not supported and was ignored (first at " +
                          loc(kw.pos).str() + ")");
  }
  m_.sections.push_back(std::move(s));
  section_pos_.push_back(kw.pos);
  block_ = Block::ShellSection;
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
    if (n < 2 || n > 99)
      fail(at_, "number of integration points through the thickness must be 2 to 99, got " +
                    std::to_string(n));
    s.thickness_points = static_cast<int>(n);
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
  }
}

}  // namespace halfstep::inp
