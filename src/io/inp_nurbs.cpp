// *NURBS PATCH (issue 14; docs/input.md): a planar NURBS patch written into the model as its
// control points (new nodes) and its Bézier elements (NCPE<p> / NCPS<p>), with the patch
// itself kept in Model::nurbs_patches for the element data and the output. Abaqus has no
// NURBS keyword; this one is halfstep's.
#include <algorithm>
#include <cmath>
#include <string>

#include "discretization/nurbs_patch.hpp"
#include "elements/nurbs_basis.hpp"
#include "elements/registry.hpp"
#include "io/inp_parser.hpp"
#include "io/inp_text.hpp"

namespace halfstep::inp {

void DeckParser::nurbs_keyword(const Keyword& kw) {
  allow_params(kw, {"NAME", "TYPE", "ELSET", "NSET", "REFINE", "ELEVATE"});
  if (!inst_.name.empty() || at_assembly_level())
    fail(kw.pos, "*NURBS PATCH is read in a flat deck only (not inside *PART, *INSTANCE or *ASSEMBLY)");
  nurbs_ = PendingNurbs{};
  nurbs_.pos = kw.pos;
  nurbs_.name = key(required_param(kw, "NAME"));
  const std::string type = upper(trim(required_param(kw, "TYPE")));
  if (type != "CPE" && type != "CPS")
    fail(kw.pos, "*NURBS PATCH, TYPE=" + type + ": expected CPE (plane strain) or CPS (plane stress); 3-D patches are not there yet");
  nurbs_.type = type;
  const auto count_param = [&](std::string_view k) {
    const std::string v = param(kw, k);
    if (v.empty()) return 0;
    const auto n = to_int(trim(v));
    if (!n || *n < 0 || *n > 64)
      fail(kw.pos, "*NURBS PATCH, " + std::string(k) + "=" + v + ": expected an integer from 0 to 64");
    return static_cast<int>(*n);
  };
  nurbs_.refine = count_param("REFINE");
  nurbs_.elevate = count_param("ELEVATE");
  if (kw.find("ELSET")) nurbs_.elset = key(required_param(kw, "ELSET"));
  if (kw.find("NSET")) nurbs_.nset = key(required_param(kw, "NSET"));
  nurbs_.open = true;
}

void DeckParser::nurbs_data(const Line& line) {
  PendingNurbs& p = nurbs_;
  const auto& f = line.fields;
  const auto ints = [&](const char* what) {
    need_fields(line, 2, what);
    at_most_fields(line, 2, what);
    std::array<int, 2> v{};
    for (int d = 0; d < 2; ++d) {
      const std::int64_t x = integer(f[static_cast<std::size_t>(d)], what);
      v[static_cast<std::size_t>(d)] = static_cast<int>(std::clamp<std::int64_t>(x, -1, 1 << 24));
    }
    return v;
  };
  if (p.stage == 0) {  // degrees
    const auto v = ints("the degrees in u and v");
    for (int d = 0; d < 2; ++d)
      if (v[static_cast<std::size_t>(d)] < 1 || v[static_cast<std::size_t>(d)] > nurbs::kNurbsMaxDegree)
        fail(at_, "*NURBS PATCH degree " + std::to_string(v[static_cast<std::size_t>(d)]) + ": expected 1 to " +
                      std::to_string(nurbs::kNurbsMaxDegree));
    p.degree = v;
    p.stage = 1;
    return;
  }
  if (p.stage == 1) {  // control points per direction
    const auto v = ints("the numbers of control points in u and v");
    for (int d = 0; d < 2; ++d)
      if (v[static_cast<std::size_t>(d)] < p.degree[static_cast<std::size_t>(d)] + 1 || v[static_cast<std::size_t>(d)] > 1000000)
        fail(at_, "*NURBS PATCH: " + std::to_string(v[static_cast<std::size_t>(d)]) + " control points in " +
                      (d == 0 ? "u" : "v") + ": expected at least degree + 1 = " +
                      std::to_string(p.degree[static_cast<std::size_t>(d)] + 1) + " (and at most 1000000)");
    if (static_cast<long long>(v[0]) * v[1] > 50000000LL)
      fail(at_, "*NURBS PATCH: " + std::to_string(v[0]) + " x " + std::to_string(v[1]) +
                    " control points: more than 50,000,000 in one patch");
    p.count = v;
    p.stage = 2;
    return;
  }
  if (p.stage == 2 || p.stage == 3) {  // knot vectors, as many values per line as wanted
    const int d = p.stage - 2;
    std::vector<double>& k = p.knots[static_cast<std::size_t>(d)];
    const std::size_t need = static_cast<std::size_t>(p.count[static_cast<std::size_t>(d)] + p.degree[static_cast<std::size_t>(d)] + 1);
    for (const auto& field : f) {
      if (k.size() >= need)
        fail(at_, std::string("too many knots for ") + (d == 0 ? "u" : "v") + ": expected " + std::to_string(need) +
                      " (control points + degree + 1)");
      const double x = real(field, d == 0 ? "a knot in u" : "a knot in v");
      if (!std::isfinite(x)) fail(at_, "knot values must be finite numbers");
      if (!k.empty() && x < k.back())
        fail(at_, std::string("the knot vector in ") + (d == 0 ? "u" : "v") + " must not decrease: " +
                      std::to_string(x) + " after " + std::to_string(k.back()));
      k.push_back(x);
    }
    if (k.size() == need) p.stage += 1;
    return;
  }
  // Control points: x, y, weight (u fastest).
  need_fields(line, 3, "control point x, y, weight");
  at_most_fields(line, 3, "control point x, y, weight");
  const std::size_t n = static_cast<std::size_t>(p.count[0]) * static_cast<std::size_t>(p.count[1]);
  if (p.x.size() >= n)
    fail(at_, "too many control points: the patch has " + std::to_string(p.count[0]) + " x " +
                  std::to_string(p.count[1]) + " = " + std::to_string(n));
  p.x.push_back(real(f[0], "the control point's x"));
  p.y.push_back(real(f[1], "the control point's y"));
  p.w.push_back(real(f[2], "the control point's weight"));
  if (!(p.w.back() > 0) || !std::isfinite(p.w.back()))
    fail(at_, "the weight of control point " + std::to_string(p.w.size()) + " must be a positive number, got " +
                  std::string(f[2]));
  if (!std::isfinite(p.x.back()) || !std::isfinite(p.y.back()))
    fail(at_, "control point " + std::to_string(p.x.size()) + " has a coordinate that is not a finite number");
  p.pos_of_point.push_back(at_);
}

void DeckParser::nurbs_end() {
  PendingNurbs& p = nurbs_;
  if (!p.open) return;
  p.open = false;
  static const char* const stage_names[] = {"the degrees in u and v", "the numbers of control points in u and v",
                                            "the knot vector in u", "the knot vector in v", "the control points"};
  const std::size_t n = static_cast<std::size_t>(p.count[0]) * static_cast<std::size_t>(p.count[1]);
  if (p.stage < 4 || p.x.size() < n)
    fail(p.pos, "*NURBS PATCH " + p.name + " ends before " + stage_names[std::min(p.stage, 4)] +
                    (p.stage == 4 ? " (" + std::to_string(p.x.size()) + " of " + std::to_string(n) + " read)" : std::string()));
  NurbsPatch patch;
  patch.dim = 2;
  patch.degree = {p.degree[0], p.degree[1], 1};
  patch.count = {p.count[0], p.count[1], 1};
  patch.knots[0] = p.knots[0];
  patch.knots[1] = p.knots[1];
  patch.x = p.x;
  patch.y = p.y;
  patch.z.assign(n, 0.0);
  patch.w = p.w;
  const SourceLoc where = loc(p.pos);
  validate(patch, where);
  // The elements take one degree in both directions: the lower is raised to the higher,
  // then both by ELEVATE.
  const int target = std::max(patch.degree[0], patch.degree[1]) + p.elevate;
  if (target > nurbs::kNurbsMaxDegree)
    fail(p.pos, "*NURBS PATCH " + p.name + ": ELEVATE=" + std::to_string(p.elevate) + " raises the degree to " +
                    std::to_string(target) + ", above the largest supported, " + std::to_string(nurbs::kNurbsMaxDegree));
  for (int d = 0; d < 2; ++d) {
    if (patch.degree[static_cast<std::size_t>(d)] < target)
      patch = elevate_degree(patch, d, target - patch.degree[static_cast<std::size_t>(d)]);
  }
  if (p.refine > 0) patch = refine_uniform(patch, p.refine);
  if (static_cast<long long>(patch.points()) > 50000000LL)
    fail(p.pos, "*NURBS PATCH " + p.name + ": REFINE=" + std::to_string(p.refine) + " makes " +
                    std::to_string(patch.points()) + " control points: more than 50,000,000 in one patch");
  const BezierMesh bm = extract_bezier(patch, false);
  const std::string kind_name = "N" + p.type + std::to_string(patch.degree[0]);
  const int kind = find_element_kind(kind_name);
  if (kind < 0) fail(p.pos, "*NURBS PATCH: no element kind " + kind_name);

  // The control points become nodes, the Bézier elements elements, numbered above every id
  // read so far.
  NurbsPatchDef def;
  def.name = p.name;
  def.dim = 2;
  def.degree = patch.degree;
  def.count = patch.count;
  def.knots = patch.knots;
  def.weights = patch.w;
  def.loc = where;
  Nodes& nodes = m_.nodes;
  PendingSet* nset = p.nset.empty() ? nullptr : &open_set(true, p.nset, p.pos);
  std::vector<std::int64_t> ids(static_cast<std::size_t>(patch.points()));
  for (int i = 0; i < patch.points(); ++i) {
    const std::int64_t id = ++max_node_id_;
    ids[static_cast<std::size_t>(i)] = id;
    def.nodes.push_back(nodes.size());
    nodes.index.emplace(id, nodes.size());
    nodes.id.push_back(id);
    nodes.x.push_back(patch.x[static_cast<std::size_t>(i)]);
    nodes.y.push_back(patch.y[static_cast<std::size_t>(i)]);
    nodes.z.push_back(0.0);
    nodes.loc.push_back(where);
    if (nset) nset->items.push_back(SetItem{id, id, 1, -1, false, p.pos});
  }
  // The sides' control points: NAME-U0, NAME-U1 (u at its ends), NAME-V0, NAME-V1.
  for (int d = 0; d < 2; ++d)
    for (int side = 0; side < 2; ++side) {
      PendingSet& s = open_set(true, p.name + (d == 0 ? "-U" : "-V") + std::to_string(side), p.pos);
      const int n0 = patch.count[0], n1 = patch.count[1];
      for (int j = 0; j < (d == 0 ? n1 : n0); ++j) {
        const int i0 = d == 0 ? (side ? n0 - 1 : 0) : j, i1 = d == 0 ? j : (side ? n1 - 1 : 0);
        const std::int64_t id = ids[static_cast<std::size_t>(patch.index(i0, i1))];
        s.items.push_back(SetItem{id, id, 1, -1, false, p.pos});
      }
    }
  Elements& e = m_.elements;
  PendingSet* elset = p.elset.empty() ? nullptr : &open_set(false, p.elset, p.pos);
  def.first_element = e.size();
  def.num_elements = bm.elements;
  for (int k = 0; k < bm.elements; ++k) {
    const std::int64_t id = ++max_element_id_;
    e.index.emplace(id, e.size());
    for (int a = 0; a < bm.nb; ++a)
      conn_ids_.push_back(ids[static_cast<std::size_t>(bm.connectivity[static_cast<std::size_t>(k) * bm.nb + a])]);
    e.id.push_back(id);
    e.kind.push_back(kind);
    e.shell.push_back(0);
    e.beam.push_back(0);
    e.discrete.push_back(0);
    e.conn_ptr.push_back(static_cast<int>(conn_ids_.size()));
    e.abaqus_type.push_back(kind_name);
    e.loc.push_back(where);
    if (elset) elset->items.push_back(SetItem{id, id, 1, -1, false, p.pos});
  }
  // The sides as element-face surfaces of the same names (for *DSLOAD): faces S1..S4 are
  // eta = -1, xi = +1, eta = +1, xi = -1 of each element (nurbs_quad.hpp).
  const int ne0 = bm.elements_per_dir[0], ne1 = bm.elements_per_dir[1];
  for (int d = 0; d < 2; ++d)
    for (int side = 0; side < 2; ++side) {
      const std::string sname = p.name + (d == 0 ? "-U" : "-V") + std::to_string(side);
      const auto [it, inserted] = m_.surfaces.try_emplace(sname);
      if (!inserted) fail(p.pos, "*NURBS PATCH " + p.name + ": surface '" + sname + "' is already defined");
      Surface& surf = it->second;
      surf.name = sname;
      surf.loc = where;
      const int face = d == 0 ? (side ? 2 : 4) : (side ? 3 : 1);
      for (int j = 0; j < (d == 0 ? ne1 : ne0); ++j) {
        const int i0 = d == 0 ? (side ? ne0 - 1 : 0) : j, i1 = d == 0 ? j : (side ? ne1 - 1 : 0);
        surf.elements.push_back(def.first_element + i0 + ne0 * i1);
        surf.faces.push_back(face);
      }
    }
  m_.nurbs_patches.push_back(std::move(def));
}

}  // namespace halfstep::inp
