#include "model/validate.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace halfstep {

namespace {

void check_nodes(const Nodes& n) {
  for (int i = 0; i < n.size(); ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (!std::isfinite(n.x[k]) || !std::isfinite(n.y[k]) || !std::isfinite(n.z[k]))
      throw InputError(n.loc[k], "node " + std::to_string(n.id[k]) + " has a non-finite coordinate");
  }
}

// Area from the diagonals: |d1 x d2| / 2 is exact for a flat quadrilateral and a
// robust measure for a warped one. Relative tolerance, so units do not matter.
// Solids are checked for positive volume when the system is built (the element functions
// know their shapes); here only repeated nodes.
void check_elements(const Elements& e, const Nodes& n) {
  for (int i = 0; i < e.size(); ++i) {
    const auto k = static_cast<std::size_t>(i);
    const int* c = e.nodes_of(i);
    const int count = e.count_of(i);
    const auto name = [&] { return "element " + std::to_string(e.id[k]); };  // for messages only
    for (int a = 0; a < count; ++a)
      for (int b = a + 1; b < count; ++b)
        if (c[a] == c[b])
          throw InputError(e.loc[k], name() + " is degenerate: node " +
                                         std::to_string(n.id[static_cast<std::size_t>(c[a])]) +
                                         " appears twice");
    const auto p = [&](int j, int axis) {
      const auto idx = static_cast<std::size_t>(c[j]);
      return axis == 0 ? n.x[idx] : axis == 1 ? n.y[idx] : n.z[idx];
    };
    if (e.section[k] == SectionKeyword::Beam) {
      // Relative to the coordinates' size: two nodes that differ only in round-off are one point.
      double l2 = 0, size2 = 0;
      for (int ax = 0; ax < 3; ++ax) {
        l2 += (p(1, ax) - p(0, ax)) * (p(1, ax) - p(0, ax));
        size2 += p(0, ax) * p(0, ax) + p(1, ax) * p(1, ax);
      }
      if (!(l2 > 1e-24 * size2))
        throw InputError(e.loc[k], name() + " is degenerate: zero length (nodes " +
                                       std::to_string(n.id[static_cast<std::size_t>(c[0])]) + " and " +
                                       std::to_string(n.id[static_cast<std::size_t>(c[1])]) + " coincide)");
      continue;
    }
    if (e.section[k] != SectionKeyword::Shell) continue;
    if (count == 3) {  // FPM triangle: a positive area, relative to its longest edge
      double a[3], b[3], l2 = 0;
      for (int ax = 0; ax < 3; ++ax) {
        a[ax] = p(1, ax) - p(0, ax);
        b[ax] = p(2, ax) - p(0, ax);
      }
      for (int j = 0; j < 3; ++j) {
        double edge2 = 0;
        for (int ax = 0; ax < 3; ++ax) edge2 += (p((j + 1) % 3, ax) - p(j, ax)) * (p((j + 1) % 3, ax) - p(j, ax));
        l2 = std::max(l2, edge2);
      }
      const double cx = a[1] * b[2] - a[2] * b[1], cy = a[2] * b[0] - a[0] * b[2], cz = a[0] * b[1] - a[1] * b[0];
      if (!(0.5 * std::sqrt(cx * cx + cy * cy + cz * cz) > 1e-12 * l2))
        throw InputError(e.loc[k], name() + " is degenerate: zero area (its three nodes lie on one line)");
      continue;
    }
    double d1[3], d2[3];
    for (int a = 0; a < 3; ++a) {
      d1[a] = p(2, a) - p(0, a);
      d2[a] = p(3, a) - p(1, a);
    }
    const double cx = d1[1] * d2[2] - d1[2] * d2[1];
    const double cy = d1[2] * d2[0] - d1[0] * d2[2];
    const double cz = d1[0] * d2[1] - d1[1] * d2[0];
    const double area = 0.5 * std::sqrt(cx * cx + cy * cy + cz * cz);
    const double l2 = std::max(d1[0] * d1[0] + d1[1] * d1[1] + d1[2] * d1[2],
                               d2[0] * d2[0] + d2[1] * d2[1] + d2[2] * d2[2]);
    if (area <= 1e-12 * l2) throw InputError(e.loc[k], name() + " is degenerate: zero area");
    // A collapsed quad (two corners at one point) passes the area test but has a zero-length
    // edge, which would make the element's characteristic length, and so the stable time
    // increment, zero.
    for (int a = 0; a < 4; ++a) {
      const int b = (a + 1) % 4;
      double edge2 = 0;
      for (int ax = 0; ax < 3; ++ax) edge2 += (p(b, ax) - p(a, ax)) * (p(b, ax) - p(a, ax));
      if (edge2 <= 1e-20 * l2)
        throw InputError(e.loc[k], name() + " is degenerate: nodes " +
                                       std::to_string(n.id[static_cast<std::size_t>(c[a])]) + " and " +
                                       std::to_string(n.id[static_cast<std::size_t>(c[b])]) +
                                       " coincide (collapsed quadrilaterals are not supported)");
    }
  }
}

/// *DAMPING, BETA (stiffness-proportional damping) where it would be dropped: on shells and
/// beams (the continuum elements' stiffness is what it scales), and in a deck with an explicit
/// step (the implicit *DYNAMIC step takes it; the explicit scheme does not yet).
void check_stiffness_damping(const Model& m, const Material& mat, const char* keyword, bool continuum) {
  if (!(mat.beta > 0)) return;
  const std::string what = "*DAMPING, BETA of material '" + mat.name + "' (stiffness-proportional damping)";
  if (!continuum)
    throw InputError(mat.damping_loc, what + " on elements of a " + keyword +
                                          ": not supported yet (continuum elements take it; use ALPHA, or *DAMPING "
                                          "without BETA)");
  for (const Step& s : m.steps)
    if (s.procedure == Procedure::ExplicitDynamic)
      throw InputError(mat.damping_loc, what + " and the explicit step '" + s.name + "' (" + s.loc.str() +
                                            "): the explicit scheme does not take it yet (implicit *DYNAMIC steps do)");
}

/// Material checks that depend on the element kind using it.
/// needs_mass: the deck has a dynamic step, explicit or implicit (a static analysis needs no
/// density).
void check_section_material(const Material& mat, const SourceLoc& loc, const char* keyword, bool shell,
                            bool needs_mass, bool temperatures) {
  const std::string where = "material '" + mat.name + "' used by this " + keyword;
  if (shell && temperatures && mat.has_expansion)
    throw InputError(mat.expansion_loc, where + " expands (*EXPANSION) and the deck changes temperatures "
                                               "(*TEMPERATURE): thermal strain in shells is not supported yet "
                                               "(continuum elements take it)");
  if (needs_mass && !mat.has_density)
    throw InputError(loc, where + " has no *DENSITY (dynamic steps need the mass)");
  if (mat.plastic()) {
    if (mat.has_hyperelastic || mat.elastic_type != ElasticType::Isotropic)
      throw InputError(mat.plastic_loc, "material '" + mat.name + "': *PLASTIC needs isotropic *ELASTIC (E, nu)");
  }
  if (shell) {
    if (mat.has_hyperelastic)
      throw InputError(loc, where + " is *HYPERELASTIC: shells support isotropic *ELASTIC only");
    if (!mat.has_elastic) throw InputError(loc, where + " has no *ELASTIC");
    if (mat.elastic_type != ElasticType::Isotropic)
      throw InputError(loc, where + " is orthotropic or anisotropic: shells support isotropic *ELASTIC only");
  } else if (!mat.has_elastic && !mat.has_hyperelastic) {
    throw InputError(loc, where + " has no *ELASTIC or *HYPERELASTIC");
  }
}

/// What a section with FORMULATION=FPM (the FPM hexahedra, incremental) allows: isotropic
/// *ELASTIC, with or without *PLASTIC, in explicit steps and in *STATIC steps (NLGEOM=YES: each
/// static increment one FPM increment from the last converged state, its tangent the
/// dual-number derivative of the same update; NLGEOM=NO: the small-strain theory).
void check_formulation(const Model& m, const SolidSection& sec, const Material& mat) {
  const std::string what = "*SOLID SECTION, FORMULATION=" + sec.formulation;
  if (mat.has_hyperelastic || !mat.has_elastic || mat.elastic_type != ElasticType::Isotropic)
    throw InputError(sec.loc, "material '" + mat.name + "' used by this " + what + " is " +
                                  (mat.has_hyperelastic ? "*HYPERELASTIC" : !mat.has_elastic ? "without *ELASTIC" : "orthotropic") +
                                  ": " + sec.formulation + " elements take isotropic *ELASTIC (E, nu), with or without *PLASTIC");
  for (const Step& s : m.steps) {
    if (s.procedure == Procedure::ExplicitDynamic) continue;
    if (!(s.frequency || s.buckle || s.dynamic || s.modal)) continue;
    throw InputError(sec.loc, what + ", and step '" + s.name + "' (" + s.loc.str() +
                                  ") is not *STATIC or *DYNAMIC, EXPLICIT: " + sec.formulation +
                                  " elements run in explicit dynamic steps and in *STATIC steps only");
  }
}

/// What an FPM shell section (triangles, incremental) allows beyond any shell's material
/// checks: explicit steps and *STATIC steps (NLGEOM=NO: the linear theory about the reference).
void check_shell_formulation(const Model& m, const ShellSection& sec, const Material& mat) {
  const std::string what = "*SHELL SECTION, ELSET=" + sec.elset +
                           (sec.formulation.empty() ? std::string(" (its S3/S3R run as FPM triangles)")
                                                    : ", FORMULATION=" + sec.formulation);
  for (const Step& s : m.steps) {
    if (s.procedure == Procedure::ExplicitDynamic) continue;
    const std::string step = ", and step '" + s.name + "' (" + s.loc.str() + ")";
    if (s.frequency || s.buckle || s.dynamic || s.modal)
      throw InputError(sec.loc, what + step + " is not *STATIC or *DYNAMIC, EXPLICIT: FPM triangles run in explicit "
                                             "dynamic steps and *STATIC steps only");
  }
}

void check_sections(const Model& m) {
  bool needs_mass = false, temperatures = false;
  for (const Step& s : m.steps) {
    needs_mass = needs_mass || s.procedure == Procedure::ExplicitDynamic || s.dynamic;
    temperatures = temperatures || !s.temperatures.empty();
  }
  // The section that took each element, by pointer: a SourceLoc copy per element would cost a
  // string each.
  std::vector<const SourceLoc*> owner(static_cast<std::size_t>(m.elements.size()), nullptr);
  std::vector<char> owned(owner.size(), 0);
  // Every element gets exactly one section, of the keyword its kind takes.
  const auto claim = [&](const std::string& elset, const SourceLoc& loc, SectionKeyword taken) {
    const char* const keyword = section_keyword_name(taken);
    const auto set = m.elsets.find(elset);
    if (set == m.elsets.end())
      throw InputError(loc, std::string(keyword) + ": element set '" + elset + "' is not defined");
    for (int e : set->second.members) {
      const auto k = static_cast<std::size_t>(e);
      const auto name = [&] { return "element " + std::to_string(m.elements.id[k]); };  // for messages only
      static const char* const kinds[6] = {"solid", "shell", "beam", "spring", "dashpot", "adhesion edge"};
      const SectionKeyword own = m.elements.section[k];
      if (own != taken)
        throw InputError(loc, std::string(keyword) + " on " + name() + " of type " + m.elements.abaqus_type[k] + ": " +
                                  kinds[static_cast<int>(own)] + " elements take a " + section_keyword_name(own));
      if (owned[k]) throw InputError(loc, name() + " already has a section (at " + owner[k]->str() + ")");
      owned[k] = 1;
      owner[k] = &loc;
    }
  };
  for (const ShellSection& sec : m.sections) {
    const auto mat = m.materials.find(sec.material);
    if (mat == m.materials.end())
      throw InputError(sec.loc, "*SHELL SECTION: material '" + sec.material + "' is not defined");
    if (sec.has_fpm()) check_shell_formulation(m, sec, mat->second);
    check_section_material(mat->second, sec.loc, "*SHELL SECTION", true, needs_mass, temperatures);
    check_stiffness_damping(m, mat->second, "*SHELL SECTION", false);
    if (!(sec.thickness > 0) || !std::isfinite(sec.thickness))
      throw InputError(sec.loc, "shell thickness must be positive and finite");
    // A yielding section is integrated by Simpson's rule through the thickness (elastic ones
    // in closed form, where the count has no effect).
    if (mat->second.plastic() && (sec.thickness_points < 3 || sec.thickness_points > 15 || sec.thickness_points % 2 == 0))
      throw InputError(sec.loc, "*SHELL SECTION with *PLASTIC material '" + sec.material +
                                    "': the number of section points through the thickness must be odd, 3 to 15 "
                                    "(Simpson's rule; default 5), got " + std::to_string(sec.thickness_points));
    claim(sec.elset, sec.loc, SectionKeyword::Shell);
  }
  for (const SolidSection& sec : m.solid_sections) {
    const auto mat = m.materials.find(sec.material);
    if (mat == m.materials.end())
      throw InputError(sec.loc, "*SOLID SECTION: material '" + sec.material + "' is not defined");
    // FULL (C3D8's plain integration) and REDUCED MASS (C3D20R's mass at its points) take any
    // law and any procedure; FPM is incremental.
    if (sec.formulation == "FPM") check_formulation(m, sec, mat->second);
    check_section_material(mat->second, sec.loc, "*SOLID SECTION", false, needs_mass, temperatures);
    check_stiffness_damping(m, mat->second, "*SOLID SECTION", true);
    if (!sec.orientation.empty() && !m.orientations.count(sec.orientation))
      throw InputError(sec.loc, "*SOLID SECTION: orientation '" + sec.orientation + "' is not defined");
    claim(sec.elset, sec.loc, SectionKeyword::Solid);
  }
  for (const BeamSection& sec : m.beam_sections) {
    const auto mat = m.materials.find(sec.material);
    if (mat == m.materials.end())
      throw InputError(sec.loc, "*BEAM SECTION: material '" + sec.material + "' is not defined");
    const Material& mt = mat->second;
    const std::string where = "material '" + mt.name + "' used by this *BEAM SECTION";
    check_stiffness_damping(m, mt, "*BEAM SECTION", false);
    if (!mt.has_elastic || mt.has_hyperelastic || mt.elastic_type != ElasticType::Isotropic)
      throw InputError(sec.loc, where + ": beams need isotropic *ELASTIC (E, nu)");
    if (needs_mass && !mt.has_density)
      throw InputError(sec.loc, where + " has no *DENSITY (dynamic steps need the mass)");
    if (temperatures && mt.has_expansion)
      throw InputError(mt.expansion_loc, where + " expands (*EXPANSION) and the deck changes temperatures "
                                                "(*TEMPERATURE): thermal strain in beams is not supported yet "
                                                "(continuum elements take it)");
    for (const Step& s : m.steps) {
      if (s.procedure == Procedure::ExplicitDynamic) continue;
      const std::string step = "*BEAM SECTION, and step '" + s.name + "' (" + s.loc.str() + ")";
      if (s.frequency || s.buckle || s.dynamic || s.modal)
        throw InputError(sec.loc, step + " is not *STATIC or *DYNAMIC, EXPLICIT: beams run in explicit dynamic steps "
                                         "and *STATIC steps only");
    }
    claim(sec.elset, sec.loc, SectionKeyword::Beam);
  }
  for (const DiscreteSection& sec : m.discrete_sections)
    claim(sec.elset, sec.loc, sec.dashpot ? SectionKeyword::Dashpot : SectionKeyword::Spring);
  for (const AdhesionDef& a : m.adhesions)
    for (int e : a.elements) {
      owned[static_cast<std::size_t>(e)] = 1;
      owner[static_cast<std::size_t>(e)] = &a.loc;
    }
  for (std::size_t e = 0; e < owned.size(); ++e)
    if (!owned[e])
      throw InputError(m.elements.loc[e], "element " + std::to_string(m.elements.id[e]) + " has no " +
                                              section_keyword_name(m.elements.section[e]));
}

void check_materials(const Model& m) {
  for (const auto& [name, mat] : m.materials) {
    if (mat.has_elastic && mat.elastic_type == ElasticType::Isotropic &&
        !(mat.youngs > 0 && mat.poisson > -1 && mat.poisson < 0.5))
      throw InputError(mat.loc, "material '" + name + "': need E > 0 and -1 < nu < 0.5");
    if (mat.has_hyperelastic && !(mat.c10 > 0 && mat.d1 > 0))
      throw InputError(mat.loc, "material '" + name + "': need C10 > 0 and D1 > 0");
    if (mat.has_density && !(mat.density > 0))
      throw InputError(mat.loc, "material '" + name + "': density must be positive");
    if (!(mat.alpha >= 0)) throw InputError(mat.loc, "material '" + name + "': damping ALPHA must not be negative");
    if (!(mat.beta >= 0)) throw InputError(mat.loc, "material '" + name + "': damping BETA must not be negative");
  }
}

void check_steps(const Model& m) {
  for (const Step& s : m.steps)
    if (!(s.time_period > 0) || !std::isfinite(s.time_period))
      throw InputError(s.loc, "step '" + s.name + "' needs a positive time period");
}

}  // namespace

void validate(const Model& model) {
  check_nodes(model.nodes);
  check_elements(model.elements, model.nodes);
  check_materials(model);
  check_sections(model);
  check_steps(model);
}

}  // namespace halfstep
