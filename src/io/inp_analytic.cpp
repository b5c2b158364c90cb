// Rigid analytical surfaces: *SURFACE, TYPE=CYLINDER or TYPE=REVOLUTION (a profile of LINE
// and CIRCL segments in a local frame), their *RIGID BODY, ANALYTICAL SURFACE=, and the
// rules for naming them in contact (master only) and nowhere else. The reader keeps what the
// deck says in Model::analytical_surfaces; the contact with them is docs/theory.md's.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>

#include "io/inp_parser.hpp"
#include "io/inp_text.hpp"

namespace halfstep::inp {

namespace {

/// What the first field of a profile line says.
enum class Word { Start, Line, Circl, Parab, Number, Other };

Word word_of(std::string_view field) {
  const std::string w = squeeze_upper(field);
  if (w == "START") return Word::Start;
  if (w == "LINE") return Word::Line;
  if (w == "CIRCL") return Word::Circl;
  if (w == "PARAB") return Word::Parab;
  return to_real(field) ? Word::Number : Word::Other;
}

double norm3(const std::array<double, 3>& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

std::array<double, 3> minus3(const std::array<double, 3>& p, const std::array<double, 3>& q) {
  return {p[0] - q[0], p[1] - q[1], p[2] - q[2]};
}

std::string point_text(const std::array<double, 2>& p) {
  return "(" + format_real(p[0]) + ", " + format_real(p[1]) + ")";
}

/// "*SURFACE, TYPE=CYLINDER" or "... REVOLUTION", for messages.
std::string shown_type(const AnalyticalSurface& s) {
  return std::string("*SURFACE, TYPE=") + (s.kind == AnalyticalSurface::Kind::Cylinder ? "CYLINDER" : "REVOLUTION");
}

}  // namespace

// ---------------------------------------------------------------------------------------
// *SURFACE, TYPE=CYLINDER / REVOLUTION

void DeckParser::analytic_surface_keyword(const Keyword& kw, const std::string& type) {
  if (type == "SEGMENTS")
    fail(kw.pos, "*SURFACE, TYPE=SEGMENTS (2-D analytical surfaces) is not supported: contact is three-dimensional in "
                 "halfstep; use TYPE=CYLINDER");
  if (kw.find("FILLETRADIUS"))
    fail(kw.pos, "*SURFACE, FILLET RADIUS= is not supported: round corners with CIRCL segments");
  allow_params(kw, {"NAME", "TYPE"});
  const std::string shown = "*SURFACE, TYPE=" + type;
  if (in_part_ || !inst_.name.empty())
    fail(kw.pos, shown + " inside a *PART: parts and assemblies are not read for analytical surfaces; define it "
                         "outside the parts, with its points in global coordinates");
  const std::string name = key(required_param(kw, "NAME"));
  if (const auto e = m_.surfaces.find(name); e != m_.surfaces.end())
    fail(kw.pos, "surface '" + name + "' is defined twice (first at " + e->second.loc.str() + ", as " +
                     (e->second.node_based ? "a node" : "an element") + " surface)");
  const auto [it, inserted] = m_.analytical_surfaces.try_emplace(name);
  if (!inserted) fail(kw.pos, "surface '" + name + "' is defined twice (first at " + it->second.loc.str() + ")");
  it->second.name = name;
  it->second.kind = type == "CYLINDER" ? AnalyticalSurface::Kind::Cylinder : AnalyticalSurface::Kind::Revolution;
  it->second.loc = loc(kw.pos);
  analytic_ = &it->second;
  analytic_stage_ = 0;
}

// Cylinder: "a, b" / "c" / START / segments; revolution: "a, b" / START / segments.
void DeckParser::analytic_surface_data(const Line& line) {
  AnalyticalSurface& s = *analytic_;
  const bool cyl = s.kind == AnalyticalSurface::Kind::Cylinder;
  const std::string shown = shown_type(s);
  const auto& f = line.fields;
  const Word w = f.empty() ? Word::Other : word_of(f[0]);
  const auto point3 = [&](std::size_t at, const char* name) {
    std::array<double, 3> p{};
    for (std::size_t k = 0; k < 3; ++k)
      p[k] = real(f[at + k], std::string("coordinate ") + "xyz"[k] + " of point " + name);
    return p;
  };

  if (analytic_stage_ == 0) {
    const char* form = cyl ? "ax, ay, az, bx, by, bz (a: the local origin, b: a point on the local x-axis)"
                           : "ax, ay, az, bx, by, bz (a: the local origin, b: a point on the symmetry axis)";
    // Inside a part Abaqus leaves the points out (the part's frame); a 3-field first line of a
    // cylinder is its point c with the line of a and b left blank.
    if (f.empty() || w == Word::Start || w == Word::Line || w == Word::Circl || w == Word::Parab ||
        (cyl && f.size() == 3))
      fail(at_, shown + ": expected points a and b (ax, ay, az, bx, by, bz) on the first data line: leaving them "
                        "out (the form within a part) is refused, parts and assemblies are not read for analytical "
                        "surfaces; give them in global coordinates");
    need_fields(line, 6, form);
    at_most_fields(line, 6, form);
    s.a = point3(0, "a");
    s.b = point3(3, "b");
    const double ab = norm3(minus3(s.b, s.a));
    if (!(ab > 1e-12 * std::max(norm3(s.a), norm3(s.b))))
      fail(at_, shown + ": points a and b coincide (b - a is the local " + (cyl ? "x-axis" : "symmetry axis") + ")");
    analytic_stage_ = cyl ? 1 : 2;
    return;
  }
  if (analytic_stage_ == 1) {
    const char* form = "cx, cy, cz (a point on the generator, the local z-axis)";
    if (f.empty() || w == Word::Start || w == Word::Line || w == Word::Circl || w == Word::Parab)
      fail(at_, shown + ": expected point c (cx, cy, cz: a point on the generator, the local z-axis) on the second "
                        "data line, before START");
    need_fields(line, 3, form);
    at_most_fields(line, 3, form);
    s.c = point3(0, "c");
    // |(b - a) x (c - a)| against |b - a| |c - a|: the sine of the angle between x and the generator.
    const auto ab = minus3(s.b, s.a), ac = minus3(s.c, s.a);
    const std::array<double, 3> cross{ab[1] * ac[2] - ab[2] * ac[1], ab[2] * ac[0] - ab[0] * ac[2],
                                      ab[0] * ac[1] - ab[1] * ac[0]};
    if (!(norm3(cross) > 1e-9 * norm3(ab) * norm3(ac)))
      fail(at_, shown + ": point c is on the line through a and b: the generator (a to c) must not be parallel to "
                        "the local x-axis (a to b)");
    analytic_stage_ = 2;
    return;
  }

  const char* x = cyl ? "x" : "r";
  const char* y = cyl ? "y" : "z";
  // A profile point; a revolution's must not lie on the negative side of its axis.
  const auto point2 = [&](std::size_t at, const char* name) {
    std::array<double, 2> p{real(f[at], std::string(x) + " of the " + name),
                            real(f[at + 1], std::string(y) + " of the " + name)};
    if (!cyl && p[0] < 0)
      fail(at_, shown + ": the " + name + " " + point_text(p) + " has r = " + format_real(p[0]) +
                    " < 0 (a profile in (r, z) lies at r >= 0)");
    return p;
  };
  const std::string start_form = std::string("START, ") + x + ", " + y;
  const std::string line_form = std::string("LINE, ") + x + ", " + y + " (the end point)";
  const std::string circl_form =
      std::string("CIRCL, ") + x + ", " + y + ", " + x + "c, " + y + "c (the end point, the arc's centre)";
  if (w == Word::Parab) fail(at_, shown + ": PARAB is not supported: approximate it with CIRCL or LINE segments");
  if (w == Word::Other || w == Word::Number)
    fail(at_, shown + ": expected " + (analytic_stage_ == 2 ? start_form : line_form + " or " + circl_form) +
                  ", got '" + std::string(f.empty() ? std::string_view() : f[0]) +
                  "' (profile lines are START, LINE and CIRCL)");
  if (analytic_stage_ == 2) {
    if (w != Word::Start)
      fail(at_, shown + ": START missing: the profile must begin with " + start_form + ", got " +
                    std::string(w == Word::Line ? "LINE" : "CIRCL"));
    need_fields(line, 3, start_form.c_str());
    at_most_fields(line, 3, start_form.c_str());
    s.start = point2(1, "start point");
    analytic_start_pos_ = at_;
    analytic_stage_ = 3;
    return;
  }
  if (w == Word::Start)
    fail(at_, shown + ": a second START (the first is at " + loc(analytic_start_pos_).str() +
                  "): one profile per surface");
  ProfileSegment seg;
  seg.loc = loc(at_);
  const std::array<double, 2> p0 = s.segments.empty() ? s.start : s.segments.back().end;
  if (w == Word::Line) {
    need_fields(line, 3, line_form.c_str());
    at_most_fields(line, 3, line_form.c_str());
    seg.kind = ProfileSegment::Kind::Line;
    seg.end = point2(1, "end point");
  } else {
    need_fields(line, 5, circl_form.c_str());
    at_most_fields(line, 5, circl_form.c_str());
    seg.kind = ProfileSegment::Kind::Circle;
    seg.end = point2(1, "end point");
    seg.centre = {real(f[3], std::string(x) + " of the arc's centre"), real(f[4], std::string(y) + " of the arc's centre")};
  }
  const auto& p1 = seg.end;
  const double chord = std::hypot(p1[0] - p0[0], p1[1] - p0[1]);
  if (!(chord > 1e-12 * (std::hypot(p0[0], p0[1]) + std::hypot(p1[0], p1[1]))))
    fail(at_, shown + ": a segment of zero length (its end point " + point_text(p1) + " is where it starts)");
  if (seg.kind == ProfileSegment::Kind::Circle) {
    const auto& c = seg.centre;
    const double u0 = p0[0] - c[0], u1 = p0[1] - c[1], v0 = p1[0] - c[0], v1 = p1[1] - c[1];
    const double r0 = std::hypot(u0, u1), r1 = std::hypot(v0, v1);
    if (!(r0 > 1e-12 * chord))
      fail(at_, shown + ": CIRCL: the centre " + point_text(c) + " is the arc's start point " + point_text(p0));
    if (std::abs(r1 - r0) > 1e-3 * r0)
      fail(at_, shown + ": CIRCL: the end point " + point_text(p1) + " is " + format_real(r1) +
                    " from the centre, the start point " + point_text(p0) + " " + format_real(r0) +
                    ": they must be on one circle (to 1e-3 of the radius)");
    // The arc is the shorter way round (less than 180 degrees, Abaqus's rule); near a half
    // circle (the sine of the angle below 1e-3) that way is ambiguous.
    const double cross = u0 * v1 - u1 * v0, dot = u0 * v0 + u1 * v1;
    if (dot < 0 && std::abs(cross) <= 1e-3 * r0 * r1)
      fail(at_, shown + ": CIRCL: the arc from " + point_text(p0) + " to " + point_text(p1) +
                    " spans 180 degrees or more (arcs must be less than 180 degrees): split it in two");
    // A revolution's arc must not swing to r < 0 between its end points: it does when it
    // passes the direction -r from its centre and its leftmost point is left of the axis.
    if (!cyl && c[0] - r0 < -1e-9 * r0) {
      const double s0 = u0 * 0.0 - u1 * -1.0;  // u x (-1, 0)
      const double s1 = -1.0 * v1 - 0.0 * v0;  // (-1, 0) x v
      if ((cross > 0 && s0 >= 0 && s1 >= 0) || (cross < 0 && s0 <= 0 && s1 <= 0))
        fail(at_, shown + ": CIRCL: the arc from " + point_text(p0) + " to " + point_text(p1) + " about " +
                      point_text(c) + " reaches r = " + format_real(c[0] - r0) +
                      " < 0 (a profile in (r, z) lies at r >= 0)");
    }
  }
  s.segments.push_back(seg);
}

void DeckParser::analytic_surface_end() {
  const AnalyticalSurface& s = *analytic_;
  analytic_ = nullptr;
  const std::string shown = shown_type(s) + " '" + s.name + "'";
  const bool cyl = s.kind == AnalyticalSurface::Kind::Cylinder;
  if (analytic_stage_ == 0)
    fail(kw_.pos, shown + " needs data lines: points a, b" + (cyl ? "; point c" : "") +
                      "; START; then LINE or CIRCL segments");
  if (analytic_stage_ == 1)
    fail(kw_.pos, shown + " needs the line of point c (cx, cy, cz: a point on the generator), then START and the "
                          "LINE or CIRCL segments");
  if (analytic_stage_ == 2)
    fail(kw_.pos, shown + ": START missing: the profile must begin with START, " + (cyl ? "x, y" : "r, z") +
                      ", then LINE or CIRCL segments");
  if (s.segments.empty())
    fail(analytic_start_pos_, shown + ": no segment after START (expected LINE or CIRCL lines)");
}

// ---------------------------------------------------------------------------------------
// *RIGID BODY, ANALYTICAL SURFACE=

bool DeckParser::is_analytical(const std::string& name) const { return m_.analytical_surfaces.count(name) != 0; }

void DeckParser::refuse_analytical(const std::string& name, const SourceLoc& at, const std::string& where) const {
  const auto it = m_.analytical_surfaces.find(name);
  if (it == m_.analytical_surfaces.end()) return;
  fail(at, where + ": surface '" + name + "' is an analytical rigid surface (" + shown_type(it->second) + " at " +
               it->second.loc.str() + "): it can only be a contact master surface; expected an element or node surface");
}

// Runs after resolve_constraints, which claimed the nodes of every body, coupling and *MPC.
void DeckParser::resolve_analytical_bodies() {
  std::map<int, std::size_t> analytic_ref;  // reference node -> its first analytical claim
  for (std::size_t i = 0; i < node_claims_.size(); ++i) {
    const NodeClaim& c = node_claims_[i];
    if (!c.analytical) continue;
    const std::string& name = c.owner;
    if (const auto e = m_.surfaces.find(name); e != m_.surfaces.end())
      fail(c.pos, "*RIGID BODY: ANALYTICAL SURFACE= names an element/node surface ('" + name + "', " +
                      e->second.loc.str() + "): expected a *SURFACE, TYPE=CYLINDER or TYPE=REVOLUTION");
    const auto it = m_.analytical_surfaces.find(name);
    if (it == m_.analytical_surfaces.end())
      fail(c.pos, "*RIGID BODY: analytical surface '" + name + "' is not defined (expected a *SURFACE, NAME=" + name +
                      ", TYPE=CYLINDER or TYPE=REVOLUTION)");
    if (it->second.ref_node >= 0)
      fail(c.pos, "*RIGID BODY: analytical surface '" + name + "' is attached twice (first by the *RIGID BODY at " +
                      it->second.body_loc.str() + ")");
    it->second.ref_node = c.node;
    it->second.body_loc = loc(c.pos);
    analytic_ref.try_emplace(c.node, i);
  }
  if (analytic_ref.empty()) return;
  // A reference node moves its analytical surface alone: no other body, coupling or *MPC may
  // use it. The error goes to whichever of the two lines comes later in the deck.
  for (std::size_t i = 0; i < node_claims_.size(); ++i) {
    const NodeClaim& c = node_claims_[i];
    const auto hit = analytic_ref.find(c.node);
    if (hit == analytic_ref.end() || hit->second == i) continue;
    const NodeClaim& a = node_claims_[hit->second];
    const std::string node = "node " + std::to_string(m_.nodes.id[static_cast<std::size_t>(c.node)]);
    const std::string other = c.analytical ? "the reference node of analytical surface '" + c.owner + "'"
                                           : std::string(c.ref ? "the reference node of " : "a slave node of ") + c.owner;
    if (a.order > c.order)
      fail(a.pos, "*RIGID BODY, ANALYTICAL SURFACE=" + a.owner + ": its reference " + node + " is also " + other +
                      " (" + loc(c.pos).str() + "): the reference node of an analytical surface must belong to "
                      "its body alone");
    fail(c.pos, (c.analytical ? "*RIGID BODY, ANALYTICAL SURFACE=" + c.owner : c.owner) + ": " + node +
                    " is the reference node of analytical surface '" + a.owner + "' (*RIGID BODY at " +
                    loc(a.pos).str() + "): the reference node of an analytical surface must belong to its body alone");
  }
}

// ---------------------------------------------------------------------------------------
// Contact with analytical surfaces (end of the deck, before the other pair checks)

void DeckParser::resolve_analytical_contact() {
  if (m_.analytical_surfaces.empty()) return;
  std::vector<ContactPair> pairs;
  std::vector<PairOrigin> origins;
  for (std::size_t i = 0; i < m_.contact.pairs.size(); ++i) {
    const ContactPair& p = m_.contact.pairs[i];
    const PairOrigin& o = pair_origins_[i];
    const bool slave = is_analytical(p.slave), master = is_analytical(p.master);
    const std::string what = std::string(o.keyword) + ": ";
    if (slave && p.slave == p.master)
      fail(p.loc, what + "self-contact of analytical surface '" + p.slave + "' is not supported (a rigid surface "
                         "cannot touch itself)");
    if (slave && master)
      fail(p.loc, what + "a pair of two analytical surfaces ('" + p.slave + "', '" + p.master +
                         "') is not supported: one of the two surfaces must be deformable");
    if (slave) {
      // The mirror of an inclusion line "a, S": the line's other pair (a, S) is kept.
      if (std::string(o.keyword) == "*CONTACT INCLUSIONS") continue;
      fail(p.loc, what + "an analytical rigid surface can only be the master (second) surface, and '" + p.slave +
                         "' is the slave: write " + p.master + ", " + p.slave);
    }
    if (master && m_.analytical_surfaces.at(p.master).ref_node < 0)
      fail(p.loc, what + "analytical surface '" + p.master + "' needs *RIGID BODY, ANALYTICAL SURFACE=" + p.master +
                         ", REF NODE=... (the node that moves it)");
    pairs.push_back(p);
    origins.push_back(o);
  }
  m_.contact.pairs = std::move(pairs);
  pair_origins_ = std::move(origins);
}

}  // namespace halfstep::inp
