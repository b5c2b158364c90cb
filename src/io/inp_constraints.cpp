// *TIE and *EQUATION: constraints between nodes (model data). The reader keeps what the deck
// says; the dependent dofs, the projections and the checks that need geometry are made by
// discretization/constraints.cpp when the system is built.
#include "io/inp_parser.hpp"
#include "io/inp_text.hpp"

namespace halfstep::inp {

void DeckParser::tie_keyword(const Keyword& kw) {
  allow_params(kw, {"NAME", "POSITIONTOLERANCE", "ADJUST", "TYPE", "NOROTATION"});
  tie_ = Tie{};
  tie_.name = key(required_param(kw, "NAME"));
  if (kw.find("POSITIONTOLERANCE")) {
    const double tol = real_param(kw, "POSITIONTOLERANCE", 0.0);
    if (!(tol > 0)) fail(kw.pos, "*TIE, POSITION TOLERANCE= must be positive");
    tie_.position_tolerance = tol;
  }
  const std::string adjust = squeeze_upper(param(kw, "ADJUST"));
  if (adjust == "NO") tie_.adjust = false;
  else if (!adjust.empty() && adjust != "YES")
    fail(kw.pos, "*TIE, ADJUST=" + param(kw, "ADJUST") + ": expected YES or NO");
  const std::string type = squeeze_upper(param(kw, "TYPE"));
  if (!type.empty() && type != "SURFACETOSURFACE" && type != "NODETOSURFACE")
    fail(kw.pos, "*TIE, TYPE=" + param(kw, "TYPE") + ": expected SURFACE TO SURFACE or NODE TO SURFACE");
  tie_.loc = loc(kw.pos);
}

void DeckParser::tie_data(const Line& line) {
  need_fields(line, 2, "slave surface, master surface");
  at_most_fields(line, 2, "slave surface, master surface");
  Tie t = tie_;
  t.slave = key(line.fields[0]);
  t.master = key(line.fields[1]);
  t.loc = loc(at_);
  m_.ties.push_back(std::move(t));
}

void DeckParser::tie_end() { need_data_line("slave surface, master surface"); }

void DeckParser::equation_keyword(const Keyword& kw) {
  allow_params(kw, {});
  equation_open_ = false;
}

// A count line opens an equation; term lines (node or node set, dof, coefficient; up to four
// terms a line) follow until the count is reached.
void DeckParser::equation_data(const Line& line) {
  if (!equation_open_) {
    at_most_fields(line, 1, "the number of terms");
    const std::int64_t n = integer(line.fields.empty() ? std::string_view() : line.fields[0], "the number of terms");
    if (n < 2)
      fail(at_, "*EQUATION needs at least 2 terms, got " + std::to_string(n) +
                    " (a dof held at zero is a *BOUNDARY)");
    pending_equations_.push_back(PendingEquation{{}, static_cast<int>(n), at_});
    equation_open_ = true;
    return;
  }
  PendingEquation& eq = pending_equations_.back();
  if (line.fields.size() % 3 != 0 || line.fields.empty())
    fail(at_, "*EQUATION term line: expected node or node set, dof, coefficient (up to 4 terms a line), got " +
                  std::to_string(line.fields.size()) + " fields");
  const int terms = static_cast<int>(line.fields.size() / 3);
  if (static_cast<int>(eq.terms.size()) + terms > eq.expected)
    fail(at_, "*EQUATION has more terms than the " + std::to_string(eq.expected) + " its count line gives");
  for (int t = 0; t < terms; ++t) {
    const int d = dof(line.fields[3 * t + 1], "*EQUATION dof");
    if (d > 3)
      fail(at_, "*EQUATION on rotational dof " + std::to_string(d) + " is not supported (dofs 1 to 3)");
    const double c = real(line.fields[3 * t + 2], "the coefficient");
    if (eq.terms.empty() && c == 0)
      fail(at_, "the first coefficient of an *EQUATION must be nonzero (its dof is the one eliminated)");
    eq.terms.push_back(PendingTerm{key(line.fields[3 * t]), d, c, at_});
  }
  if (static_cast<int>(eq.terms.size()) == eq.expected) equation_open_ = false;
}

void DeckParser::equation_end() {
  need_data_line("the number of terms, then the terms");
  if (equation_open_) {
    const PendingEquation& eq = pending_equations_.back();
    fail(eq.pos, "*EQUATION expects " + std::to_string(eq.expected) + " terms, got " +
                     std::to_string(eq.terms.size()));
  }
}

void DeckParser::resolve_constraints() {
  for (const Tie& t : m_.ties)
    for (const std::string* name : {&t.slave, &t.master}) {
      const auto it = m_.surfaces.find(*name);
      if (it == m_.surfaces.end())
        fail(t.loc, "*TIE " + t.name + ": surface '" + *name + "' is not defined");
      if (name == &t.master && it->second.node_based)
        fail(t.loc, "*TIE " + t.name + ": the master surface '" + *name +
                        "' is node-based; it must be made of element faces (TYPE=ELEMENT)");
    }
  // One equation per set member: every term's set has as many nodes (a node is a set of one).
  for (const PendingEquation& pe : pending_equations_) {
    std::vector<std::vector<int>> nodes;
    for (const PendingTerm& t : pe.terms) nodes.push_back(node_targets(t.target, t.pos));
    const std::size_t count = nodes[0].size();
    for (std::size_t i = 1; i < nodes.size(); ++i)
      if (nodes[i].size() != count)
        fail(pe.terms[i].pos, "*EQUATION term '" + pe.terms[i].target + "' has " + std::to_string(nodes[i].size()) +
                                  " nodes, the first term's has " + std::to_string(count) +
                                  " (node sets of an equation must be as large)");
    for (std::size_t k = 0; k < count; ++k) {
      Equation e;
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        e.nodes.push_back(nodes[i][k]);
        e.dofs.push_back(pe.terms[i].dof);
        e.coefficients.push_back(pe.terms[i].coefficient);
      }
      e.loc = loc(pe.pos);
      m_.equations.push_back(std::move(e));
    }
  }
  pending_equations_.clear();
}

}  // namespace halfstep::inp
