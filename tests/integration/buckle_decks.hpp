// Decks and readers of the buckle-step tests (tests/integration/test_buckle.cpp and the GPU's
// tests/gpu/test_gpu_buckle.cpp): a bar on a lateral spring, a clamped column of C3D20R bricks.
#pragma once

#include <array>
#include <map>
#include <utility>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "run_util.hpp"

namespace halfstep::test::buckle {

constexpr double kPi = 3.14159265358979323846;

/// The factors of the .dat's first buckling factor table, in mode order.
inline std::vector<double> dat_factors(const std::string& dat) {
  std::vector<double> out;
  const std::size_t at = dat.find("B U C K L I N G   F A C T O R   O U T P U T");
  if (at == std::string::npos) return out;
  std::istringstream in(dat.substr(at));
  std::string line;
  for (int skip = 0; skip < 5 && std::getline(in, line); ++skip) {
  }
  while (std::getline(in, line)) {
    std::istringstream row(line);
    int mode = 0;
    double f = 0;
    if (!(row >> mode >> f)) break;
    EXPECT_EQ(mode, static_cast<int>(out.size()) + 1);
    out.push_back(f);
  }
  return out;
}

/// summary.json's buckling factors of the first buckle step (full precision).
inline std::vector<double> summary_factors(const std::string& summary) {
  return summary_array(summary, "buckling_factors");
}

/// A rigid-ish bar (T3D2, EA) of length L along z, pinned at its foot, its head on a lateral
/// spring k along x and loaded by P down its axis: it buckles sideways at P k L, lambda = k L / P.
inline std::string bar_on_spring(double k, double P, const std::string& buckle_line = "1") {
  std::ostringstream d;
  d << "*NODE, NSET=ALL\n1, 0., 0., 0.\n2, 0., 0., 10.\n*ELEMENT, TYPE=T3D2, ELSET=BAR\n1, 1, 2\n"
    << "*ELEMENT, TYPE=SPRING1, ELSET=S\n2, 2\n*SPRING, ELSET=S\n1\n" << k << "\n"
    << "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.\n*SOLID SECTION, ELSET=BAR, MATERIAL=M\n1.\n"
    << "*BOUNDARY\n1, 1, 3\n2, 2, 2\n*STEP\n*BUCKLE\n" << buckle_line << "\n*CLOAD\n2, 3, " << -P
    << "\n*NODE PRINT, NSET=ALL\nU\n*END STEP\n";
  return d.str();
}

/// A column of n 20-node bricks (`type`) along z, square section b, length L, clamped at z = 0
/// (every node of the foot), with a pressure p on its head (face S2 of the top brick). One
/// brick across: C3D20R's reduced integration leaves such a stack a zero-energy mode (a
/// singular stiffness), so the default is C3D20.
inline std::string column_deck(int n, double b, double L, double p, const std::string& modes, const std::string& material,
                               const std::string& type = "C3D20", const std::string& buckle = "*BUCKLE") {
  std::ostringstream d;
  d.precision(17);
  // Nodes on the half-step grid (i, j in 0..2 across, k in 0..2n along), corners and edge
  // midpoints only: a point is a node when at most one of its indices is odd.
  std::map<std::tuple<int, int, int>, int> id;
  d << "*NODE, NSET=ALL\n";
  int next = 1;
  for (int k = 0; k <= 2 * n; ++k)
    for (int j = 0; j <= 2; ++j)
      for (int i = 0; i <= 2; ++i) {
        if ((i % 2) + (j % 2) + (k % 2) > 1) continue;
        id[{i, j, k}] = next;
        d << next++ << ", " << i * b / 2 << ", " << j * b / 2 << ", " << k * L / (2 * n) << "\n";
      }
  d << "*ELEMENT, TYPE=" << type << ", ELSET=COL\n";
  for (int e = 0; e < n; ++e) {
    const int z0 = 2 * e, z1 = z0 + 2, zm = z0 + 1;
    const auto N = [&](int i, int j, int k) { return id.at({i, j, k}); };
    d << e + 1 << ", " << N(0, 0, z0) << ", " << N(2, 0, z0) << ", " << N(2, 2, z0) << ", " << N(0, 2, z0) << ", "
      << N(0, 0, z1) << ", " << N(2, 0, z1) << ", " << N(2, 2, z1) << ", " << N(0, 2, z1) << ", " << N(1, 0, z0) << ", "
      << N(2, 1, z0) << ", " << N(1, 2, z0) << ", " << N(0, 1, z0) << ", " << N(1, 0, z1) << ", " << N(2, 1, z1)
      << ",\n" << N(1, 2, z1) << ", " << N(0, 1, z1) << ", " << N(0, 0, zm) << ", " << N(2, 0, zm) << ", "
      << N(2, 2, zm) << ", " << N(0, 2, zm) << "\n";
  }
  d << "*NSET, NSET=FOOT\n";
  for (const auto& [ijk, node] : id)
    if (std::get<2>(ijk) == 0) d << node << "\n";
  d << material << "*SOLID SECTION, ELSET=COL, MATERIAL=M\n*BOUNDARY\nFOOT, 1, 3\n*STEP\n" << buckle << "\n" << modes
    << "\n*DLOAD\n" << n << ", P2, " << p << "\n*END STEP\n";
  return d.str();
}


/// A column over [0, b]^2 x [0, L] of n x n x nz cubes, each cut into six tetrahedra along its
/// main diagonal (a conforming mesh), C3D10 (mid-edge nodes) or C3D4, clamped at z = 0, with a
/// pressure p on the head's faces (each tetrahedron's face on z = L).
inline std::string tet_column_deck(int n, int nz, double b, double L, double p, const std::string& modes,
                                   const std::string& material, bool quadratic) {
  std::ostringstream d;
  d.precision(17);
  std::map<std::tuple<int, int, int>, int> id;  // on the half-step grid (2i, 2j, 2k for corners)
  std::vector<std::array<double, 3>> x;
  const auto node = [&](int i2, int j2, int k2) {
    const auto key = std::make_tuple(i2, j2, k2);
    auto it = id.find(key);
    if (it != id.end()) return it->second;
    x.push_back({i2 * b / (2 * n), j2 * b / (2 * n), k2 * L / (2 * nz)});
    return id[key] = static_cast<int>(x.size());
  };
  const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  std::vector<std::vector<int>> tets;
  std::vector<int> head_face;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        for (const auto& pm : perm) {
          int c[4][3] = {{2 * i, 2 * j, 2 * k}};
          for (int s = 1; s < 4; ++s) {
            for (int a = 0; a < 3; ++a) c[s][a] = c[s - 1][a];
            c[s][pm[s - 1]] += 2;
          }
          // Positive volume: (c1 - c0) x (c2 - c0) . (c3 - c0) > 0, else swap corners 2 and 3.
          const auto v = [&](int s, int a) { return static_cast<double>(c[s][a] - c[0][a]); };
          const double vol = (v(1, 1) * v(2, 2) - v(1, 2) * v(2, 1)) * v(3, 0) +
                             (v(1, 2) * v(2, 0) - v(1, 0) * v(2, 2)) * v(3, 1) + (v(1, 0) * v(2, 1) - v(1, 1) * v(2, 0)) * v(3, 2);
          if (vol < 0)
            for (int a = 0; a < 3; ++a) std::swap(c[1][a], c[2][a]);
          std::vector<int> t;
          for (auto& q : c) t.push_back(node(q[0], q[1], q[2]));
          if (quadratic) {
            const int edges[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
            for (const auto& e : edges)
              t.push_back(node((c[e[0]][0] + c[e[1]][0]) / 2, (c[e[0]][1] + c[e[1]][1]) / 2, (c[e[0]][2] + c[e[1]][2]) / 2));
          }
          // The face on the head (Abaqus: S1 1-2-3, S2 1-4-2, S3 2-4-3, S4 3-4-1).
          const int faces[4][3] = {{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {2, 3, 0}};
          int on_head = 0;
          for (int f = 0; f < 4; ++f)
            if (c[faces[f][0]][2] == 2 * nz && c[faces[f][1]][2] == 2 * nz && c[faces[f][2]][2] == 2 * nz) on_head = f + 1;
          tets.push_back(t);
          head_face.push_back(on_head);
        }
  d << "*NODE, NSET=ALL\n";
  for (std::size_t i = 0; i < x.size(); ++i) d << i + 1 << ", " << x[i][0] << ", " << x[i][1] << ", " << x[i][2] << "\n";
  d << "*ELEMENT, TYPE=" << (quadratic ? "C3D10" : "C3D4") << ", ELSET=COL\n";
  for (std::size_t e = 0; e < tets.size(); ++e) {
    d << e + 1;
    for (int v : tets[e]) d << ", " << v;
    d << "\n";
  }
  d << "*NSET, NSET=FOOT\n";
  for (const auto& [key, v] : id)
    if (std::get<2>(key) == 0) d << v << "\n";
  d << material << "*SOLID SECTION, ELSET=COL, MATERIAL=M\n*BOUNDARY\nFOOT, 1, 3\n*STEP\n*BUCKLE\n" << modes << "\n*DLOAD\n";
  for (std::size_t e = 0; e < tets.size(); ++e)
    if (head_face[e] > 0) d << e + 1 << ", P" << head_face[e] << ", " << p << "\n";
  d << "*END STEP\n";
  return d.str();
}

}  // namespace halfstep::test::buckle
