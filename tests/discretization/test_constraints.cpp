// Linear constraints' tables (discretization/constraints.hpp): *EQUATION weights and the
// transferred masses, *TIE projections onto bilinear and quadratic faces (6-node triangles,
// 8-node quadrilaterals), ADJUST.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "discretization/structure_system.hpp"
#include "io/inp_reader.hpp"

namespace halfstep {
namespace {

/// A unit cube of one element (C3D8R, or a C3D10M tetrahedron when tet) plus extra lines.
std::string cube(const std::string& extra, bool tet = false) {
  std::string d = "*HEADING\nconstraint tables\n*NODE\n";
  if (!tet) {
    d += "1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n5, 0, 0, 1\n6, 1, 0, 1\n7, 1, 1, 1\n8, 0, 1, 1\n"
         "*ELEMENT, TYPE=C3D8R, ELSET=E\n1, 1, 2, 3, 4, 5, 6, 7, 8\n";
  } else {
    // Corners 1-4, mid-edge nodes 5:(1,2) 6:(2,3) 7:(3,1) 8:(1,4) 9:(2,4) 10:(3,4).
    d += "1, 0, 0, 0\n2, 1, 0, 0\n3, 0, 1, 0\n4, 0, 0, 1\n5, 0.5, 0, 0\n6, 0.5, 0.5, 0\n7, 0, 0.5, 0\n"
         "8, 0, 0, 0.5\n9, 0.5, 0, 0.5\n10, 0, 0.5, 0.5\n"
         "*ELEMENT, TYPE=C3D10M, ELSET=E\n1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10\n";
  }
  return d + extra +
         "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n1.\n*SOLID SECTION, ELSET=E, MATERIAL=M\n"
         "*STEP\n*DYNAMIC, EXPLICIT\n, 0.01\n*END STEP\n";
}

/// The weight of independent (node id, dof 0..2) in dependent dof k, 0 if absent.
double weight(const Model& m, const LinearConstraints& c, int k, int node_id, int dof) {
  double w = 0;
  for (int i = c.term_ptr[k]; i < c.term_ptr[k + 1]; ++i)
    if (m.nodes.id[c.term_node[i]] == node_id && c.term_dof[i] == dof) w += c.term_weight[i];
  return w;
}

TEST(ConstraintTables, EquationWeightsAndTransferredMasses) {
  // 2 u1(9) - u1(2) - u2(3) = 0: u1(9) = 0.5 u1(2) + 0.5 u2(3). Node 9 is a point mass of 4.
  const Model m = read_inp_string(cube("*NODE\n9, 2, 0, 0\n*ELEMENT, TYPE=MASS, ELSET=PM\n9, 9\n*MASS, ELSET=PM\n4.\n"
                                       "*EQUATION\n3\n9, 1, 2., 2, 1, -1., 3, 2, -1.\n"),
                                  "eq.inp");
  const StructureSystem sys = build_structure_system(m);
  const LinearConstraints& c = sys.constraints;
  ASSERT_EQ(c.num_dependent, 1);
  const int n9 = m.nodes.index.at(9), n2 = m.nodes.index.at(2), n3 = m.nodes.index.at(3);
  EXPECT_EQ(c.dep_node[0], n9);
  EXPECT_EQ(c.dep_dof[0], 0);
  EXPECT_EQ(c.dependent[n9], 1);
  EXPECT_EQ(weight(m, c, 0, 2, 0), 0.5);
  EXPECT_EQ(weight(m, c, 0, 3, 1), 0.5);
  // |w_k| (sum |w|) m_s = 0.5 * 1 * 4 on the receiving dofs only; node 2's other dofs keep
  // their own mass (1/8 of the unit cube's).
  EXPECT_DOUBLE_EQ(c.mass3[3 * n2 + 0], 0.125 + 2.0);
  EXPECT_DOUBLE_EQ(c.mass3[3 * n2 + 1], 0.125);
  EXPECT_DOUBLE_EQ(c.mass3[3 * n3 + 1], 0.125 + 2.0);
  EXPECT_EQ(c.recv_ptr[n2 + 1] - c.recv_ptr[n2], 1);
}

TEST(ConstraintTables, TieProjectsOntoTheBilinearFace) {
  // Slave node 9 at (1.001, 0.25, 0.75) near face S4 (nodes 2-6-7-3, x = 1): the bilinear
  // weights at y = 0.25, z = 0.75; ADJUST=YES puts it on the face, ADJUST=NO leaves it.
  for (const bool adjust : {true, false}) {
    const std::string tie = std::string("*TIE, NAME=T, POSITION TOLERANCE=0.01") + (adjust ? "" : ", ADJUST=NO") +
                            "\nS, F\n";
    const Model m = read_inp_string(cube("*NODE\n9, 1.001, 0.25, 0.75\n*ELEMENT, TYPE=MASS, ELSET=PM\n9, 9\n"
                                         "*MASS, ELSET=PM\n1.\n*SURFACE, NAME=S, TYPE=NODE\n9\n"
                                         "*SURFACE, NAME=F\nE, S4\n" + tie),
                                    "tie.inp");
    const StructureSystem sys = build_structure_system(m);
    const LinearConstraints& c = sys.constraints;
    ASSERT_EQ(c.num_dependent, 3);
    for (int d = 0; d < 3; ++d) {
      EXPECT_NEAR(weight(m, c, d, 2, d), 0.25 * 0.75, 1e-15);
      EXPECT_NEAR(weight(m, c, d, 6, d), 0.75 * 0.75, 1e-15);
      EXPECT_NEAR(weight(m, c, d, 7, d), 0.75 * 0.25, 1e-15);
      EXPECT_NEAR(weight(m, c, d, 3, d), 0.25 * 0.25, 1e-15);
    }
    const int n9 = m.nodes.index.at(9);
    EXPECT_NEAR(sys.x0[n9], adjust ? 1.0 : 1.001, 1e-15);
    EXPECT_NEAR(sys.y0[n9], 0.25, 1e-15);
    EXPECT_NEAR(sys.z0[n9], 0.75, 1e-15);
  }
}

TEST(ConstraintTables, TieOnAQuadraticTriangleTakesItsShapeFunctions) {
  // Face S1 of the C3D10M (corners 1-2-3, z = 0) at its centroid: corners -1/9, mid-edge
  // nodes 4/9; the masses handed over use |w| (sum |w| = 15/9).
  const Model m = read_inp_string(cube("*NODE\n11, 0.3333333333333333, 0.3333333333333333, 0\n"
                                       "*ELEMENT, TYPE=MASS, ELSET=PM\n11, 11\n*MASS, ELSET=PM\n9.\n"
                                       "*SURFACE, NAME=S, TYPE=NODE\n11\n*SURFACE, NAME=F\nE, S1\n*TIE, NAME=T\nS, F\n",
                                       true),
                                  "tet.inp");
  const StructureSystem sys = build_structure_system(m);
  const LinearConstraints& c = sys.constraints;
  ASSERT_EQ(c.num_dependent, 3);
  double sum = 0;
  for (int id : {1, 2, 3}) EXPECT_NEAR(weight(m, c, 0, id, 0), -1.0 / 9, 1e-15);
  for (int id : {5, 6, 7}) EXPECT_NEAR(weight(m, c, 0, id, 0), 4.0 / 9, 1e-15);
  for (int i = c.term_ptr[0]; i < c.term_ptr[1]; ++i) sum += c.term_weight[i];
  EXPECT_NEAR(sum, 1.0, 1e-15);
  const int n1 = m.nodes.index.at(1);
  EXPECT_NEAR(c.mass3[3 * n1] - sys.mass[n1], (1.0 / 9) * (15.0 / 9) * 9.0, 1e-14);
}

TEST(ConstraintTables, TieOnAQuadraticQuadrilateralTakesItsSerendipityFunctions) {
  // Face S4 of a C3D20 cube (x = 1: corners 2-6-7-3, mid-edge nodes 18:(2,6) 14:(6,7)
  // 19:(7,3) 10:(3,2)), its mid-edge node 14 moved out to x = 1.1 (a curved face). A slave on
  // the face at y = 0.25, z = 0.75 is at face parameters r = 2z - 1 = 0.5 (along 2 -> 6),
  // s = 2y - 1 = -0.5 (along 6 -> 7): the serendipity weights there are
  // corners -3/16, 0, -3/16, -1/8 and mid-edge nodes 9/16, 9/16, 3/16, 3/16, and the point
  // of the curved face is x = 1 + 0.1 * 9/16.
  std::string d = "*HEADING\nquadratic face tie\n*NODE\n"
                  "1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n5, 0, 0, 1\n6, 1, 0, 1\n7, 1, 1, 1\n8, 0, 1, 1\n"
                  "9, 0.5, 0, 0\n10, 1, 0.5, 0\n11, 0.5, 1, 0\n12, 0, 0.5, 0\n13, 0.5, 0, 1\n14, 1.1, 0.5, 1\n"
                  "15, 0.5, 1, 1\n16, 0, 0.5, 1\n17, 0, 0, 0.5\n18, 1, 0, 0.5\n19, 1, 1, 0.5\n20, 0, 1, 0.5\n"
                  "21, 1.05625, 0.25, 0.75\n*ELEMENT, TYPE=C3D20, ELSET=E\n"
                  "1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,\n16, 17, 18, 19, 20\n"
                  "*ELEMENT, TYPE=MASS, ELSET=PM\n21, 21\n*MASS, ELSET=PM\n1.\n"
                  "*SURFACE, NAME=S, TYPE=NODE\n21\n*SURFACE, NAME=F\nE, S4\n*TIE, NAME=T, POSITION TOLERANCE=1e-9\nS, F\n"
                  "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n1.\n*SOLID SECTION, ELSET=E, MATERIAL=M\n"
                  "*STEP\n*STATIC\n*BOUNDARY\n1, 1, 3\n*END STEP\n";
  const Model m = read_inp_string(d, "quad8.inp");
  const StructureSystem sys = build_structure_system(m);
  const LinearConstraints& c = sys.constraints;
  ASSERT_EQ(c.num_dependent, 3);
  const std::pair<int, double> expect[8] = {{2, -3.0 / 16}, {6, 0.0},      {7, -3.0 / 16}, {3, -1.0 / 8},
                                            {18, 9.0 / 16}, {14, 9.0 / 16}, {19, 3.0 / 16}, {10, 3.0 / 16}};
  for (int dof = 0; dof < 3; ++dof) {
    double sum = 0;
    for (const auto& [id, w] : expect) EXPECT_NEAR(weight(m, c, dof, id, dof), w, 1e-12) << "node " << id;
    for (int i = c.term_ptr[dof]; i < c.term_ptr[dof + 1]; ++i) sum += c.term_weight[i];
    EXPECT_NEAR(sum, 1.0, 1e-14);
  }
  const int n21 = m.nodes.index.at(21);
  EXPECT_NEAR(sys.x0[n21], 1.05625, 1e-12);  // on the face already: ADJUST leaves it there
}

TEST(ConstraintTables, RotationEquationHandsOnTheRotaryInertia) {
  // Two B31 beams (nodes 1-2 and 3-4) with ROTARYI 2 on node 3: ur3(3) - 0.5 ur3(2) = 0 makes
  // node 3's third rotation dependent; node 2's UR3 inertia gains 0.5 * 0.5 * I(3).
  const std::string deck =
      "*HEADING\nrotation tables\n*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 0, 0\n4, 2, 0, 0\n"
      "*ELEMENT, TYPE=B31, ELSET=B\n1, 1, 2\n2, 3, 4\n*ELEMENT, TYPE=ROTARYI, ELSET=RI\n9, 3\n"
      "*ROTARY INERTIA, ELSET=RI\n2., 2., 2.\n*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n1.\n"
      "*BEAM SECTION, ELSET=B, MATERIAL=M, SECTION=CIRC\n0.05\n*EQUATION\n2\n3, 6, 1., 2, 6, -0.5\n"
      "*STEP\n*DYNAMIC, EXPLICIT\n, 0.01\n*END STEP\n";
  const Model m = read_inp_string(deck, "rot.inp");
  const StructureSystem sys = build_structure_system(m);
  const LinearConstraints& c = sys.constraints;
  ASSERT_EQ(c.num_dependent, 1);
  const int n2 = m.nodes.index.at(2), n3 = m.nodes.index.at(3);
  EXPECT_EQ(c.dep_dof[0], 5);
  EXPECT_EQ(c.dependent[n3], 1 << 5);
  EXPECT_EQ(weight(m, c, 0, 2, 5), 0.5);
  ASSERT_EQ(c.rot_node.size(), 1u);
  EXPECT_EQ(c.rot_node[0], n3);
  ASSERT_EQ(c.inertia3.size(), 3 * sys.inertia.size());
  EXPECT_DOUBLE_EQ(c.inertia3[3 * n2 + 2], sys.inertia[n2] + 0.25 * sys.inertia[n3]);
  EXPECT_DOUBLE_EQ(c.inertia3[3 * n2 + 0], sys.inertia[n2]);
  EXPECT_GT(sys.inertia[n3], 2.0);
  EXPECT_DOUBLE_EQ(c.mass3[3 * n2], sys.mass[n2]);  // translations untouched
}

TEST(ConstraintTables, ShellTieTiesRotationsOnSixDofNodes) {
  // An S4R master and a node-based slave at its edge midpoint: the slave's six dofs follow
  // the edge's two nodes with weights 1/2; the MITC4 model runs with 6 dofs per node. With
  // NO ROTATION, translations only and 5 dofs.
  for (const bool rotations : {true, false}) {
    const std::string deck =
        std::string("*HEADING\nshell tie\n*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n11, 1, 0.5, 0\n"
                    "12, 2, 0.5, 0\n13, 2, 1, 0\n14, 1, 1, 0.\n*ELEMENT, TYPE=S4R, ELSET=A\n1, 1, 2, 3, 4\n"
                    "*ELEMENT, TYPE=S4R, ELSET=B\n2, 11, 12, 13, 14\n*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n"
                    "*DENSITY\n1.\n*SHELL SECTION, ELSET=A, MATERIAL=M\n0.1\n*SHELL SECTION, ELSET=B, MATERIAL=M\n"
                    "0.1\n*SURFACE, NAME=S, TYPE=NODE\n11\n*SURFACE, NAME=MA\nA, SPOS\n*TIE, NAME=T") +
        (rotations ? "" : ", NO ROTATION") + "\nS, MA\n*STEP\n*DYNAMIC, EXPLICIT\n, 0.01\n*END STEP\n";
    const Model m = read_inp_string(deck, "shell_tie.inp");
    const StructureSystem sys = build_structure_system(m);
    const LinearConstraints& c = sys.constraints;
    EXPECT_EQ(sys.node_dofs, rotations ? 6 : 5);
    ASSERT_EQ(c.num_dependent, rotations ? 6 : 3);
    const int n11 = m.nodes.index.at(11);
    EXPECT_EQ(c.dependent[n11], rotations ? 0x3F : 0x07);
    for (int k = 0; k < c.num_dependent; ++k) {
      EXPECT_EQ(c.dep_dof[k], k);
      EXPECT_NEAR(weight(m, c, k, 2, k), 0.5, 1e-15);
      EXPECT_NEAR(weight(m, c, k, 3, k), 0.5, 1e-15);
      EXPECT_EQ(weight(m, c, k, 1, k), 0.0);
    }
    EXPECT_EQ(c.rot_node.size(), rotations ? 1u : 0u);
  }
}

TEST(ConstraintTables, ShellSidesAreSurfacesForTiesAndPressure) {
  // An S3 (FPM triangle) master with a node-based slave inside it: weights (1/2, 1/4, 1/4) of
  // the linear triangle, six dofs. *DSLOAD on SPOS is *DLOAD P, on SNEG its opposite.
  const std::string deck =
      "*HEADING\nshell sides\n*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 0, 1, 0\n11, 0.25, 0.25, 0\n12, 1.25, 0.25, 0\n"
      "13, 0.25, 1.25, 0\n*ELEMENT, TYPE=S3, ELSET=A\n1, 1, 2, 3\n*ELEMENT, TYPE=S3, ELSET=B\n2, 11, 12, 13\n"
      "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n1.\n*SHELL SECTION, ELSET=A, MATERIAL=M, FORMULATION=FPM\n"
      "0.1\n*SHELL SECTION, ELSET=B, MATERIAL=M, FORMULATION=FPM\n0.1\n*SURFACE, NAME=S, TYPE=NODE\n11\n"
      "*SURFACE, NAME=MA\nA, SPOS\n"
      "*SURFACE, NAME=UNDER\nB, SNEG\n*TIE, NAME=T\nS, MA\n*STEP\n*DYNAMIC, EXPLICIT\n, 0.01\n*DSLOAD\nMA, P, 3.\n"
      "UNDER, P, 2.\n*END STEP\n";
  const Model m = read_inp_string(deck, "sides.inp");
  ASSERT_EQ(m.steps[0].dloads.size(), 2u);
  EXPECT_EQ(m.steps[0].dloads[0].face, 0);
  EXPECT_EQ(m.steps[0].dloads[0].magnitude, 3.0);
  EXPECT_EQ(m.steps[0].dloads[1].face, 0);
  EXPECT_EQ(m.steps[0].dloads[1].magnitude, -2.0);
  const StructureSystem sys = build_structure_system(m);
  const LinearConstraints& c = sys.constraints;
  ASSERT_EQ(c.num_dependent, 6);
  for (int k = 0; k < 6; ++k) {
    EXPECT_NEAR(weight(m, c, k, 1, k), 0.5, 1e-15);
    EXPECT_NEAR(weight(m, c, k, 2, k), 0.25, 1e-15);
    EXPECT_NEAR(weight(m, c, k, 3, k), 0.25, 1e-15);
  }
}

}  // namespace
}  // namespace halfstep
