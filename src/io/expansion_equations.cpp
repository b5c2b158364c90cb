#include "io/expansion_equations.hpp"

#include <cmath>
#include <cstddef>

namespace halfstep::inp {

void append_reduced_equations(std::vector<std::vector<double>> rows, const std::vector<int>& col_node, int pivot_nodes,
                              const SourceLoc& loc, std::vector<Equation>& out) {
  const std::size_t ncol = 3 * col_node.size(), npiv = 3 * static_cast<std::size_t>(pivot_nodes);
  std::vector<std::ptrdiff_t> pivot(rows.size(), -1);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::ptrdiff_t col = -1;
    double best = 1e-9;
    for (std::size_t j = 0; j < npiv; ++j)
      if (std::fabs(rows[i][j]) > best) {
        best = std::fabs(rows[i][j]);
        col = static_cast<std::ptrdiff_t>(j);
      }
    if (col < 0) continue;
    pivot[i] = col;
    const double inv = 1.0 / rows[i][static_cast<std::size_t>(col)];
    for (double& v : rows[i]) v *= inv;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      if (k == i) continue;
      const double f = rows[k][static_cast<std::size_t>(col)];
      if (f == 0) continue;
      for (std::size_t j = 0; j < ncol; ++j) rows[k][j] -= f * rows[i][j];
    }
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (pivot[i] < 0) continue;
    Equation q;
    q.loc = loc;
    const auto add = [&](std::size_t col, double coef) {
      q.nodes.push_back(col_node[col / 3]);
      q.dofs.push_back(static_cast<int>(col % 3) + 1);
      q.coefficients.push_back(coef);
    };
    add(static_cast<std::size_t>(pivot[i]), 1.0);
    for (std::size_t j = 0; j < ncol; ++j)
      if (static_cast<std::ptrdiff_t>(j) != pivot[i] && std::fabs(rows[i][j]) > 1e-12) add(j, rows[i][j]);
    out.push_back(std::move(q));
  }
}

}  // namespace halfstep::inp
