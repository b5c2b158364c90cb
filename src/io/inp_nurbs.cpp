// *NURBS PATCH (issue 14; docs/input.md): a planar (TYPE=CPE, CPS) or solid (TYPE=C3D) NURBS
// patch written into the model as its control points (new nodes) and its Bézier elements
// (NCPE<p> / NCPS<p> / NC3D<p>), with the patch itself kept in Model::nurbs_patches for the
// element data and the output. Abaqus has no NURBS keyword; this one is halfstep's.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "discretization/nurbs_patch.hpp"
#include "elements/nurbs_basis.hpp"
#include "elements/registry.hpp"
#include "io/inp_parser.hpp"
#include "io/inp_text.hpp"

namespace halfstep::inp {

namespace {

/// Highest degree of the solid elements (NC3D1..NC3D3): degree 4 in 3-D is not offered
/// (elements/nurbs_hex.hpp).
constexpr int kSolidMaxDegree = 3;
/// n (a whole number) with its thousands separated by commas, as a message's limit.
std::string with_commas(double n) {
  const std::string digits = std::to_string(static_cast<long long>(n));
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

/// Name of parametric direction d (u, v, w).
const char* direction_name(int d) { return d == 0 ? "u" : d == 1 ? "v" : "w"; }

/// The element face (Abaqus label) that is side `side` (0: the direction's start, 1: its
/// end) of parametric direction d: planar S1..S4 = eta -1, xi +1, eta +1, xi -1; solid S1..S6
/// as C3D8's: zeta -1, zeta +1, eta -1, xi +1, eta +1, xi -1.
int side_face(int dim, int d, int side) {
  if (dim == 2) return d == 0 ? (side ? 2 : 4) : (side ? 3 : 1);
  return d == 0 ? (side ? 4 : 6) : d == 1 ? (side ? 5 : 3) : (side ? 2 : 1);
}

}  // namespace

void DeckParser::nurbs_keyword(const Keyword& kw) {
  allow_params(kw, {"NAME", "TYPE", "ELSET", "NSET", "REFINE", "ELEVATE"});
  if (!inst_.name.empty() || at_assembly_level())
    fail(kw.pos, "*NURBS PATCH is read in a flat deck only (not inside *PART, *INSTANCE or *ASSEMBLY)");
  nurbs_ = PendingNurbs{};
  nurbs_.pos = kw.pos;
  nurbs_.name = key(required_param(kw, "NAME"));
  const std::string type = upper(trim(required_param(kw, "TYPE")));
  if (type != "CPE" && type != "CPS" && type != "C3D")
    fail(kw.pos, "*NURBS PATCH, TYPE=" + type + ": expected CPE (plane strain), CPS (plane stress) or C3D (solid)");
  nurbs_.type = type;
  nurbs_.dim = type == "C3D" ? 3 : 2;
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
  const int dim = p.dim;
  const auto dirs = [&](const char* what) { return std::string(what) + (dim == 3 ? " in u, v and w" : " in u and v"); };
  const auto ints = [&](const std::string& what) {
    need_fields(line, static_cast<std::size_t>(dim), what.c_str());
    at_most_fields(line, static_cast<std::size_t>(dim), what.c_str());
    std::array<int, 3> v{1, 1, 1};
    for (int d = 0; d < dim; ++d) {
      const std::int64_t x = integer(f[static_cast<std::size_t>(d)], what.c_str());
      v[static_cast<std::size_t>(d)] = static_cast<int>(std::clamp<std::int64_t>(x, -1, 1 << 24));
    }
    return v;
  };
  if (p.stage == 0) {  // degrees
    const auto v = ints(dirs("the degrees"));
    const int top = dim == 3 ? kSolidMaxDegree : nurbs::kNurbsMaxDegree;
    for (int d = 0; d < dim; ++d)
      if (v[static_cast<std::size_t>(d)] < 1 || v[static_cast<std::size_t>(d)] > top)
        fail(at_, "*NURBS PATCH degree " + std::to_string(v[static_cast<std::size_t>(d)]) + ": expected 1 to " +
                      std::to_string(top) + (dim == 3 ? " for TYPE=C3D (solid elements NC3D1..NC3D3)" : ""));
    p.degree = v;
    p.stage = 1;
    return;
  }
  if (p.stage == 1) {  // control points per direction
    const auto v = ints(dirs("the numbers of control points"));
    long long total = 1;
    for (int d = 0; d < dim; ++d) {
      const int n = v[static_cast<std::size_t>(d)], need = p.degree[static_cast<std::size_t>(d)] + 1;
      if (n < need || n > 1000000)
        fail(at_, "*NURBS PATCH: " + std::to_string(n) + " control points in " + direction_name(d) +
                      ": expected at least degree + 1 = " + std::to_string(need) + " (and at most 1000000)");
      total *= n;
      if (total > 50000000LL) break;
    }
    if (total > 50000000LL) {
      std::string sizes = std::to_string(v[0]);
      for (int d = 1; d < dim; ++d) sizes += " x " + std::to_string(v[static_cast<std::size_t>(d)]);
      fail(at_, "*NURBS PATCH: " + sizes + " control points: more than 50,000,000 in one patch");
    }
    p.count = v;
    p.stage = 2;
    return;
  }
  if (p.stage >= 2 && p.stage < 2 + dim) {  // knot vectors, as many values per line as wanted
    const int d = p.stage - 2;
    const std::string dn = direction_name(d);
    std::vector<double>& k = p.knots[static_cast<std::size_t>(d)];
    const std::size_t need = static_cast<std::size_t>(p.count[static_cast<std::size_t>(d)] + p.degree[static_cast<std::size_t>(d)] + 1);
    for (const auto& field : f) {
      if (k.size() >= need)
        fail(at_, "too many knots for " + dn + ": expected " + std::to_string(need) + " (control points + degree + 1)");
      const double x = real(field, ("a knot in " + dn).c_str());
      if (!std::isfinite(x)) fail(at_, "knot values must be finite numbers");
      if (!k.empty() && x < k.back())
        fail(at_, "the knot vector in " + dn + " must not decrease: " + std::to_string(x) + " after " +
                      std::to_string(k.back()));
      k.push_back(x);
    }
    if (k.size() == need) p.stage += 1;
    return;
  }
  // Control points: x, y, [z,] weight (u fastest, then v, then w).
  const char* what = dim == 3 ? "control point x, y, z, weight" : "control point x, y, weight";
  need_fields(line, static_cast<std::size_t>(dim + 1), what);
  at_most_fields(line, static_cast<std::size_t>(dim + 1), what);
  std::size_t n = 1;
  for (int d = 0; d < dim; ++d) n *= static_cast<std::size_t>(p.count[static_cast<std::size_t>(d)]);
  if (p.x.size() >= n) {
    std::string sizes = std::to_string(p.count[0]);
    for (int d = 1; d < dim; ++d) sizes += " x " + std::to_string(p.count[static_cast<std::size_t>(d)]);
    fail(at_, "too many control points: the patch has " + sizes + " = " + std::to_string(n));
  }
  p.x.push_back(real(f[0], "the control point's x"));
  p.y.push_back(real(f[1], "the control point's y"));
  p.z.push_back(dim == 3 ? real(f[2], "the control point's z") : 0.0);
  const std::size_t wf = static_cast<std::size_t>(dim);
  p.w.push_back(real(f[wf], "the control point's weight"));
  if (!(p.w.back() > 0) || !std::isfinite(p.w.back()))
    fail(at_, "the weight of control point " + std::to_string(p.w.size()) + " must be a positive number, got " +
                  std::string(f[wf]));
  if (!std::isfinite(p.x.back()) || !std::isfinite(p.y.back()) || !std::isfinite(p.z.back()))
    fail(at_, "control point " + std::to_string(p.x.size()) + " has a coordinate that is not a finite number");
  p.pos_of_point.push_back(at_);
}

void DeckParser::nurbs_end() {
  PendingNurbs& p = nurbs_;
  if (!p.open) return;
  p.open = false;
  const int dim = p.dim;
  const std::string dirs = dim == 3 ? " in u, v and w" : " in u and v";
  const std::string stage_names[] = {"the degrees" + dirs, "the numbers of control points" + dirs,
                                     "the knot vector in u", "the knot vector in v", "the knot vector in w",
                                     "the control points"};
  const int points_stage = 2 + dim;
  std::size_t n = 1;
  for (int d = 0; d < dim; ++d) n *= static_cast<std::size_t>(p.count[static_cast<std::size_t>(d)]);
  if (p.stage < points_stage || p.x.size() < n)
    fail(p.pos, "*NURBS PATCH " + p.name + " ends before " +
                    (p.stage < points_stage ? stage_names[p.stage] : stage_names[5]) +
                    (p.stage == points_stage ? " (" + std::to_string(p.x.size()) + " of " + std::to_string(n) + " read)"
                                             : std::string()));
  NurbsPatch patch;
  patch.dim = dim;
  patch.degree = {p.degree[0], p.degree[1], dim == 3 ? p.degree[2] : 1};
  patch.count = {p.count[0], p.count[1], dim == 3 ? p.count[2] : 1};
  for (int d = 0; d < dim; ++d) patch.knots[static_cast<std::size_t>(d)] = p.knots[static_cast<std::size_t>(d)];
  patch.x = p.x;
  patch.y = p.y;
  patch.z = p.z;
  patch.w = p.w;
  const SourceLoc where = loc(p.pos);
  validate(patch, where);
  // The elements take one degree in every direction: the lower ones are raised to the
  // highest, then all by ELEVATE.
  int target = 0;
  for (int d = 0; d < dim; ++d) target = std::max(target, patch.degree[static_cast<std::size_t>(d)]);
  target += p.elevate;
  const int top = dim == 3 ? kSolidMaxDegree : nurbs::kNurbsMaxDegree;
  if (target > top)
    fail(p.pos, "*NURBS PATCH " + p.name + ": ELEVATE=" + std::to_string(p.elevate) + " raises the degree to " +
                    std::to_string(target) + ", above the largest supported" + (dim == 3 ? " for solids" : "") +
                    ", " + std::to_string(top));
  for (int d = 0; d < dim; ++d) {
    if (patch.degree[static_cast<std::size_t>(d)] < target)
      patch = elevate_degree(patch, d, target - patch.degree[static_cast<std::size_t>(d)]);
  }
  // Checked before refining: REFINE=64 on a 6 KB deck would otherwise ask for ~10^8 points'
  // worth of maps and run out of memory before the count could be looked at.
  const double refined = refined_point_count(patch, p.refine);
  if (refined > limits_.max_patch_points) {  // ReadLimits (docs/input.md)
    char count[32];
    std::snprintf(count, sizeof count, "%.4g", refined);
    fail(p.pos, "*NURBS PATCH " + p.name + ": " + (p.refine > 0 ? "REFINE=" + std::to_string(p.refine) + " would make " : "") +
                    count + " control points: more than " + with_commas(limits_.max_patch_points) + " in one patch");
  }
  if (p.refine > 0) patch = refine_uniform(patch, p.refine);
  const BezierMesh bm = extract_bezier(patch, false);
  const std::string kind_name = (dim == 3 ? std::string("NC3D") : "N" + p.type) + std::to_string(patch.degree[0]);
  const int kind = find_element_kind(kind_name);
  if (kind < 0) fail(p.pos, "*NURBS PATCH: no element kind " + kind_name);

  // The control points become nodes, the Bézier elements elements, numbered above every id
  // read so far.
  NurbsPatchDef def;
  def.name = p.name;
  def.dim = dim;
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
    nodes.z.push_back(dim == 3 ? patch.z[static_cast<std::size_t>(i)] : 0.0);
    nodes.loc.push_back(where);
    if (nset) nset->items.push_back(SetItem{id, id, 1, -1, false, p.pos});
  }
  // The sides' control points: NAME-U0, NAME-U1 (u at its ends), NAME-V0, NAME-V1 and, for a
  // solid, NAME-W0, NAME-W1; a side's points in patch order.
  const auto side_name = [&](int d, int side) {
    return p.name + "-" + static_cast<char>(direction_name(d)[0] - 'a' + 'A') + std::to_string(side);
  };
  for (int d = 0; d < dim; ++d)
    for (int side = 0; side < 2; ++side) {
      PendingSet& s = open_set(true, side_name(d, side), p.pos);
      const int at = side ? patch.count[static_cast<std::size_t>(d)] - 1 : 0;
      for (int i2 = 0; i2 < patch.count[2]; ++i2)
        for (int i1 = 0; i1 < patch.count[1]; ++i1)
          for (int i0 = 0; i0 < patch.count[0]; ++i0) {
            const int i[3] = {i0, i1, i2};
            if (i[d] != at) continue;
            const std::int64_t id = ids[static_cast<std::size_t>(patch.index(i0, i1, i2))];
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
    e.section.push_back(SectionKeyword::Solid);
    e.conn_ptr.push_back(static_cast<int>(conn_ids_.size()));
    e.abaqus_type.push_back(kind_name);
    e.loc.push_back(where);
    if (elset) elset->items.push_back(SetItem{id, id, 1, -1, false, p.pos});
  }
  // The sides as element-face surfaces of the same names (for *DSLOAD): the face of each
  // element on the side (side_face; nurbs_quad.hpp, nurbs_hex.hpp).
  const std::array<int, 3> ne = bm.elements_per_dir;
  for (int d = 0; d < dim; ++d)
    for (int side = 0; side < 2; ++side) {
      const std::string sname = side_name(d, side);
      const auto [it, inserted] = m_.surfaces.try_emplace(sname);
      if (!inserted) fail(p.pos, "*NURBS PATCH " + p.name + ": surface '" + sname + "' is already defined");
      Surface& surf = it->second;
      surf.name = sname;
      surf.loc = where;
      const int face = side_face(dim, d, side);
      const int at = side ? ne[static_cast<std::size_t>(d)] - 1 : 0;
      for (int e2 = 0; e2 < (dim == 3 ? ne[2] : 1); ++e2)
        for (int e1 = 0; e1 < ne[1]; ++e1)
          for (int e0 = 0; e0 < ne[0]; ++e0) {
            const int i[3] = {e0, e1, e2};
            if (i[d] != at) continue;
            surf.elements.push_back(def.first_element + e0 + ne[0] * (e1 + ne[1] * e2));
            surf.faces.push_back(face);
          }
    }
  m_.nurbs_patches.push_back(std::move(def));
}

}  // namespace halfstep::inp
