// *ADHESION (issue 14; docs/input.md): an interaction law between the faces of an element
// surface of planar elements and a rigid flat substrate. Abaqus has no such keyword; this one
// is halfstep's. The law's data lines are read here; when the model data ends (surfaces are
// resolved then) every face becomes an adhesion edge element (elements/adhesion_edge.hpp)
// with the face's nodes and, as its constant data, their weights and the side's 1D Bézier
// extraction operator.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "discretization/nurbs_patch.hpp"
#include "elements/registry.hpp"
#include "io/inp_parser.hpp"
#include "io/inp_text.hpp"
#include "materials/adhesion_law.hpp"

namespace halfstep::inp {


void DeckParser::adhesion_keyword(const Keyword& kw) {
  allow_params(kw, {"NAME", "SURFACE", "LAW"});
  if (!inst_.name.empty() || in_part_)
    fail(kw.pos, "*ADHESION is read outside *PART and *INSTANCE (at model or assembly level)");
  PendingAdhesion p;
  p.pos = kw.pos;
  p.surface = key(required_param(kw, "SURFACE"));
  const std::string law = kw.find("LAW") ? upper(trim(required_param(kw, "LAW"))) : std::string("LENNARD-JONES");
  if (law == "LENNARD-JONES" || law == "LENNARD JONES")
    p.law = kAdhesionLennardJones;
  else if (law == "PENALTY")
    p.law = kAdhesionPenalty;
  else
    fail(kw.pos, "*ADHESION, LAW=" + law + ": expected LENNARD-JONES (van der Waals adhesion) or PENALTY");
  p.name = kw.find("NAME") ? key(required_param(kw, "NAME"))
                           : "ADHESION-" + std::to_string(pending_adhesions_.size() + 1);
  pending_adhesions_.push_back(std::move(p));
}

void DeckParser::adhesion_data(const Line& line) {
  PendingAdhesion& p = pending_adhesions_.back();
  const auto& f = line.fields;
  const bool lj = p.law == kAdhesionLennardJones;
  if (p.lines == 0) {
    if (lj) {
      need_fields(line, 2, "the Hamaker constant A_H, the spacing r0 [, r_min]");
      at_most_fields(line, 3, "the Hamaker constant A_H, the spacing r0 [, r_min]");
      p.hamaker = real(f[0], "the Hamaker constant A_H");
      p.r0 = real(f[1], "the spacing r0");
      if (!(p.hamaker > 0) || !std::isfinite(p.hamaker))
        fail(at_, "*ADHESION: the Hamaker constant A_H must be a positive number");
      if (!(p.r0 > 0) || !std::isfinite(p.r0)) fail(at_, "*ADHESION: the spacing r0 must be a positive number");
      const double rest = lennard_jones_rest_gap(p.r0);
      p.r_min = f.size() > 2 && !f[2].empty() ? real(f[2], "r_min") : 0.5 * rest;
      if (!(p.r_min > 0) || !(p.r_min < rest))
        fail(at_, "*ADHESION: r_min (below which the traction is continued linearly) must lie between 0 and the "
                  "rest gap 15^(-1/6) r0 = " + format_real(rest) + ", got " + format_real(p.r_min));
    } else {
      need_fields(line, 1, "the penalty stiffness (traction per unit penetration)");
      at_most_fields(line, 1, "the penalty stiffness (traction per unit penetration)");
      p.penalty = real(f[0], "the penalty stiffness");
      if (!(p.penalty > 0) || !std::isfinite(p.penalty))
        fail(at_, "*ADHESION, LAW=PENALTY: the penalty stiffness must be a positive number");
    }
    p.lines = 1;
    return;
  }
  if (p.lines == 1) {
    need_fields(line, 4, "the substrate plane: x0, y0, nx, ny (a point and the normal towards the body)");
    at_most_fields(line, 4, "the substrate plane: x0, y0, nx, ny (a point and the normal towards the body)");
    double v[4];
    for (int i = 0; i < 4; ++i) {
      v[i] = real(f[static_cast<std::size_t>(i)], i < 2 ? "a coordinate of the substrate's point" : "a component of the substrate's normal");
      if (!std::isfinite(v[i])) fail(at_, "*ADHESION: the substrate plane's values must be finite numbers");
    }
    const double len = std::hypot(v[2], v[3]);
    if (!(len > 0)) fail(at_, "*ADHESION: the substrate's normal (nx, ny) must not be zero");
    p.point = {v[0], v[1]};
    p.normal = {v[2] / len, v[3] / len};
    p.lines = 2;
    return;
  }
  fail(at_, "*ADHESION takes two data lines (the law's constants, then the substrate plane x0, y0, nx, ny)");
}

void DeckParser::adhesion_end() {
  const PendingAdhesion& p = pending_adhesions_.back();
  if (p.lines < 2)
    fail(p.pos, std::string("*ADHESION needs ") + (p.lines == 0 ? "its law's constants (" : "") +
                    (p.lines == 0 ? (p.law == kAdhesionLennardJones ? "A_H, r0 [, r_min]" : "the penalty stiffness") : "") +
                    (p.lines == 0 ? ") and then " : "") + "the substrate plane (x0, y0, nx, ny) as data lines");
}

void DeckParser::resolve_adhesions() {
  if (pending_adhesions_.empty()) return;
  // The Bézier extraction of each patch that holds an adhesive face, made once.
  std::map<std::size_t, BezierMesh> extraction;
  const auto patch_of_element = [&](int e) -> int {
    for (std::size_t i = 0; i < m_.nurbs_patches.size(); ++i) {
      const NurbsPatchDef& d = m_.nurbs_patches[i];
      if (e >= d.first_element && e < d.first_element + d.num_elements) return static_cast<int>(i);
    }
    return -1;
  };
  for (const PendingAdhesion& p : pending_adhesions_) {
    const auto s = m_.surfaces.find(p.surface);
    if (s == m_.surfaces.end()) fail(p.pos, "*ADHESION: surface '" + p.surface + "' is not defined");
    if (s->second.node_based || s->second.elements.empty())
      fail(p.pos, "*ADHESION: surface '" + p.surface + "' must be an element-face surface (TYPE=ELEMENT) of planar elements");
    if (m_.elsets.count(p.name))
      fail(p.pos, "*ADHESION, NAME=" + p.name + ": an element set of that name exists already (the adhesion's edge "
                  "elements are put in a set of its name)");
    AdhesionDef def;
    def.name = p.name;
    def.surface = p.surface;
    def.loc = loc(p.pos);
    def.law = p.law == kAdhesionLennardJones ? AdhesionDef::Law::LennardJones : AdhesionDef::Law::Penalty;
    def.hamaker = p.hamaker;
    def.r0 = p.r0;
    def.r_min = p.r_min;
    def.penalty = p.penalty;
    def.point = p.point;
    def.normal = p.normal;
    def.data_ptr.push_back(0);
    IndexSet set;
    set.name = p.name;
    set.loc = def.loc;
    Elements& el = m_.elements;
    const Surface& surf = s->second;
    for (std::size_t i = 0; i < surf.elements.size(); ++i) {
      const int e = surf.elements[i], face = surf.faces[i];
      const auto k = static_cast<std::size_t>(e);
      const ElementKindInfo& info = element_kind(el.kind[k]);
      const std::string name = info.name;
      const std::string what = "*ADHESION: face S" + std::to_string(face) + " of element " + std::to_string(el.id[k]) +
                               " (" + el.abaqus_type[k] + ") on surface '" + p.surface + "'";
      if (info.dimension != 2 || info.axisymmetric || info.nodes < 4 || face < 1 || face > 4)
        fail(p.pos, what + ": adhesion takes the sides of plane stress or strain quadrilaterals (CPE4, CPE4R, CPS4, "
                           "CPS4R) and of NURBS elements (*NURBS PATCH)");
      std::vector<int> nodes;
      std::vector<double> data;
      const int patch = patch_of_element(e);
      if (patch < 0) {
        if (info.nodes != 4 || name.rfind("CP", 0) != 0)
          fail(p.pos, what + ": adhesion takes the sides of CPE4, CPE4R, CPS4, CPS4R and NURBS elements");
        const int* c = el.nodes_of(e);
        nodes = {c[face - 1], c[face % 4]};
        data = {1.0, 1.0, 1.0, 0.0, 0.0, 1.0};  // unit weights, the identity operator: the straight edge
      } else {
        const NurbsPatchDef& d = m_.nurbs_patches[static_cast<std::size_t>(patch)];
        auto it = extraction.find(static_cast<std::size_t>(patch));
        if (it == extraction.end())
          it = extraction.emplace(static_cast<std::size_t>(patch), extract_bezier(patch_of(m_, d), false)).first;
        const BezierMesh& bm = it->second;
        const int local = e - d.first_element, P = d.degree[0], n1 = P + 1;
        // Sides eta = -1 and +1 (S1, S3) run along xi, sides xi = +1 and -1 (S2, S4) along eta.
        const int along = (face == 1 || face == 3) ? 0 : 1, across = 1 - along;
        const bool at_end = face == 2 || face == 3;
        const Extraction1D& xa = bm.dir[static_cast<std::size_t>(across)];
        const double* ca = xa.op(bm.dir_element[static_cast<std::size_t>(local) * d.dim + across]);
        // The side is the patch's boundary when exactly the last (first) B-spline across is
        // nonzero there: then the side's curve is that row of control points alone.
        const int edge_bernstein = at_end ? P : 0, row = at_end ? P : 0;
        for (int j = 0; j < n1; ++j) {
          const double v = ca[j * n1 + edge_bernstein];
          if (std::fabs(v - (j == row ? 1.0 : 0.0)) > 1e-12)
            fail(p.pos, what + " is not on the boundary of NURBS patch " + d.name +
                            ": adhesion takes the patch's sides (its surfaces " + d.name + "-U0, -U1, -V0, -V1)");
        }
        // The side's nodes by increasing parameter, their weights (the patch's), then the
        // operator along the side.
        const int* c = el.nodes_of(e);
        for (int i = 0; i < n1; ++i) {
          const int a = along == 0 ? i + n1 * row : row + n1 * i;
          nodes.push_back(c[a]);
          const int point = bm.connectivity[static_cast<std::size_t>(local) * bm.nb + a];
          data.push_back(d.weights[static_cast<std::size_t>(point)]);
        }
        const Extraction1D& xl = bm.dir[static_cast<std::size_t>(along)];
        const double* cl = xl.op(bm.dir_element[static_cast<std::size_t>(local) * d.dim + along]);
        data.insert(data.end(), cl, cl + n1 * n1);
      }
      const int P = static_cast<int>(nodes.size()) - 1;
      const std::string kind_name = "ADH" + std::to_string(P);
      const int kind = find_element_kind(kind_name);
      if (kind < 0) fail(p.pos, what + ": no adhesion edge of degree " + std::to_string(P));
      const std::int64_t id = ++max_element_id_;
      el.index.emplace(id, el.size());
      set.members.push_back(el.size());
      def.elements.push_back(el.size());
      def.parents.push_back(e);
      def.data.insert(def.data.end(), data.begin(), data.end());
      def.data_ptr.push_back(def.data.size());
      el.id.push_back(id);
      el.kind.push_back(kind);
      el.section.push_back(SectionKeyword::Adhesion);
      el.conn.insert(el.conn.end(), nodes.begin(), nodes.end());
      el.conn_ptr.push_back(static_cast<int>(el.conn.size()));
      el.abaqus_type.push_back(kind_name);
      el.loc.push_back(def.loc);
    }
    m_.elsets.emplace(p.name, std::move(set));
    m_.adhesions.push_back(std::move(def));
  }
  pending_adhesions_.clear();
}

// The law is nonlinear in the gap: a *STATIC step follows it by Newton iterations with or
// without NLGEOM (the small-strain theory, solver/static_problem.cpp); the perturbation and
// implicit dynamic procedures of a geometrically linear step do not.
void DeckParser::check_adhesion_steps() const {
  if (m_.adhesions.empty()) return;
  for (const Step& s : m_.steps)
    if (s.procedure == Procedure::Static && !s.nlgeom && (s.frequency || s.buckle || s.modal || s.dynamic))
      fail(s.loc, "step '" + s.name + "' is a *FREQUENCY, *BUCKLE, *MODAL DYNAMIC or implicit *DYNAMIC step without "
                      "NLGEOM=YES, and the *ADHESION at " + m_.adhesions.front().loc.str() +
                      " runs in *STATIC steps and in those procedures with NLGEOM=YES only");
}

}  // namespace halfstep::inp
