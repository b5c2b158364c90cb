// Square steel plate with a central circular hole, unstructured all-quad mesh.
// Units: mm.  Plate 100 x 100 in the XY plane (0 <= x, y <= 100), hole radius 15
// centred at (50, 50).  Element normals +Z (the outer loop is counter-clockwise).
//
// Regenerate (Gmsh 4.8.4 was used for the committed mesh):
//   gmsh examples/gmsh/plate_with_hole.geo -2 -format inp -o examples/gmsh/plate_with_hole_gmsh.inp
//   python3 examples/gmsh/to_shell_deck.py examples/gmsh/plate_with_hole_gmsh.inp examples/gmsh/plate_with_hole_mesh.inp
// (the mesh options, the output format and the node-set export are set below as well).

SetFactory("Built-in");

Lx = 100.0;  Ly = 100.0;
xc = 50.0;   yc = 50.0;   r = 15.0;
h  = 7.0;    // target element size
hh = 4.0;    // element size on the hole

Point(1) = {0,  0,  0, h};
Point(2) = {Lx, 0,  0, h};
Point(3) = {Lx, Ly, 0, h};
Point(4) = {0,  Ly, 0, h};
Point(5) = {xc,     yc,     0, hh};   // hole centre
Point(6) = {xc + r, yc,     0, hh};
Point(7) = {xc,     yc + r, 0, hh};
Point(8) = {xc - r, yc,     0, hh};
Point(9) = {xc,     yc - r, 0, hh};

Line(1) = {1, 2};   // bottom  y = 0
Line(2) = {2, 3};   // right   x = Lx
Line(3) = {3, 4};   // top     y = Ly
Line(4) = {4, 1};   // left    x = 0
Circle(5) = {6, 5, 7};
Circle(6) = {7, 5, 8};
Circle(7) = {8, 5, 9};
Circle(8) = {9, 5, 6};

Curve Loop(1) = {1, 2, 3, 4};
Curve Loop(2) = {5, 6, 7, 8};
Plane Surface(1) = {1, 2};

// Unstructured quads: Frontal-Delaunay triangulation recombined into quads by
// the Blossom algorithm (all quads, no triangles left for this geometry).
// Note: Mesh.Algorithm = 8 (Frontal-Delaunay for quads) crashes (segmentation
// fault) in the Debian Gmsh 4.8.4 build used here, so algorithm 6 is used.
Mesh.Algorithm = 6;               // Frontal-Delaunay
Mesh.RecombinationAlgorithm = 1;  // Blossom
Mesh.RecombineAll = 1;
Recombine Surface {1};
Mesh.ElementOrder = 1;
Mesh.Smoothing = 5;

// Physical groups become *ELSET / *NSET in the Abaqus (.inp) export
Physical Surface("PLATE") = {1};
Physical Curve("LEFT") = {4};
Physical Curve("RIGHT") = {2};
Physical Curve("BOTTOM") = {1};
Physical Curve("TOP") = {3};
Physical Curve("HOLE") = {5, 6, 7, 8};

Mesh.SaveGroupsOfNodes = 1;       // write node sets for the physical groups
Mesh.Format = 39;                 // 39 = inp (Abaqus)
