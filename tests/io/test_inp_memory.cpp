// The reader's memory per element is bounded (issue 21, item 4): a shell mesh read from a
// deck with a long path holds no string per node or element.
#include <gtest/gtest.h>

#include <string>

#include "io/inp_reader.hpp"
#include "model/memory.hpp"

namespace halfstep {
namespace {

/// An n x n S4R plate with its nodes and elements in sets, as a pre-processor writes it.
std::string plate_deck(int n) {
  std::string d = "*NODE, NSET=ALL\n";
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i)
      d += std::to_string(j * (n + 1) + i + 1) + ", " + std::to_string(i * 0.01) + ", " + std::to_string(j * 0.01) + ", 0.\n";
  d += "*ELEMENT, TYPE=S4R, ELSET=PLATE\n";
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const int a = j * (n + 1) + i + 1;
      d += std::to_string(j * n + i + 1) + ", " + std::to_string(a) + ", " + std::to_string(a + 1) + ", " +
           std::to_string(a + n + 2) + ", " + std::to_string(a + n + 1) + "\n";
    }
  d += "*MATERIAL, NAME=STEEL\n*ELASTIC\n210e9, 0.3\n*DENSITY\n7800\n*SHELL SECTION, ELSET=PLATE, MATERIAL=STEEL\n0.01\n"
       "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-4\n*END STEP\n";
  return d;
}

TEST(ReaderMemory, AShellMeshHoldsAtMost160BytesPerElement) {
  const std::string path = "/a/project/folder/with/a/long/name/and/its/sub/folders/plate_model_version_3.inp";
  const int n = 200;
  const Model m = read_inp_string(plate_deck(n), path);
  ASSERT_EQ(m.elements.size(), n * n);
  // Before issue 21: 294 bytes per element with a short path, 454 with this one (a SourceLoc,
  // a type name and a hash-map node per node and per element).
  const double per_element = static_cast<double>(model_host_bytes(m)) / m.elements.size();
  EXPECT_LE(per_element, 160.0);
  EXPECT_GT(per_element, 60.0);  // the coordinates, ids and connectivity alone take ~70
  EXPECT_EQ(m.elements.loc[static_cast<std::size_t>(n * n - 1)].str(), path + ":" + std::to_string(2 + (n + 1) * (n + 1) + n * n));
  EXPECT_EQ(m.nsets.at("ALL").members.size(), static_cast<std::size_t>((n + 1) * (n + 1)));
  EXPECT_EQ(m.elsets.at("PLATE").members.back(), n * n - 1);
}

}  // namespace
}  // namespace halfstep
