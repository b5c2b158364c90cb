// The contact of a run as flat arrays (issue 17): the master facets and the slave nodes of
// every contact definition, built once from the deck's *CONTACT PAIR and *CONTACT. The pass
// that turns them into forces each increment is dynamics/contact_pass.hpp (docs/theory.md,
// "Contact").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "discretization/analytic_surface.hpp"
#include "model/model.hpp"

namespace halfstep {

/// Master facets, slave nodes and friction of all contact definitions (structure of arrays).
/// A facet is a triangle or a quadrilateral of element corners whose right-hand normal points
/// out of the body (solid faces are turned at the build); a shell facet is its mid-surface,
/// offset by half the thickness, on one side (SPOS, SNEG) or both (general contact).
struct ContactSystem {
  int num_pairs = 0;    ///< contact definitions (one-sided: slave nodes against master facets)
  int num_facets = 0;
  int num_slaves = 0;   ///< (node, definition) records: a node in two definitions has two

  std::vector<int> facet_nodes;          ///< 4 per facet; a triangle's fourth is -1
  std::vector<int> facet_pair;           ///< definition of each facet
  std::vector<double> facet_offset;      ///< half the shell thickness (0 on solid faces)
  /// Deepest penetration taken as contact: half the element's extent below a solid face
  /// (deeper, the node is nearer another face); shells: not used (their offsets bound it).
  std::vector<double> facet_depth;
  std::vector<std::uint8_t> facet_two_sided;  ///< 1: a shell's both sides


  std::vector<int> slave_node;        ///< node index of each slave record
  std::vector<int> slave_pair;        ///< definition of each slave record
  std::vector<double> slave_offset;   ///< half the largest shell thickness at the node (0: solids only)
  std::vector<double> spring_mass;    ///< per record: the mass of its penalty spring (set_spring_masses)
  /// Per slave record, the one-sided facets of its own surface that hold it (CSR over
  /// records, 4 corners each): their normals give the side the node faces, and a facet
  /// facing the same way cannot be touched (a node on a body's edge lies in the planes of
  /// the other body's side faces). None for node surfaces and shells: any facet then.
  std::vector<int> slave_facet_ptr{0}, slave_facet_nodes;
  /// Per slave record of a self-contact definition (CSR over records; empty ranges for the
  /// others), the nodes that share an element with its node: their facets are not touched
  /// (docs/theory.md, "Contact", folds).
  std::vector<int> near_ptr{0}, near_nodes;

  std::vector<double> mu_static, mu_kinetic, decay;  ///< per definition (*FRICTION)
  std::vector<double> stick_slope;  ///< per definition: CalculiX's stick slope (pressure per slip; 0: none)
  /// Per definition, its pressure-overclosure law (*SURFACE BEHAVIOR; dynamics/contact_law.hpp):
  /// the kind (Overclosure), its values (CSR: SurfaceInteraction::overclosure_law) and the
  /// clearance at which its pressure starts (EXPONENTIAL's c0, a table's first clearance; 0
  /// otherwise), which its slave records' offsets include so that the search finds them.
  std::vector<std::uint8_t> law_kind;
  std::vector<int> law_ptr{0};
  std::vector<double> law_values, law_clearance;
  /// Per slave record, the area its node stands for (a softened law's pressure times it is
  /// the record's force): its share of the slave surface's faces in the reference
  /// configuration (a quarter of each quadrilateral, a third of each triangle), or a node
  /// surface's area.
  std::vector<double> slave_area;
  std::vector<std::uint8_t> self;     ///< per definition: self-contact (skip facets holding the node)
  /// Per definition: its surfaces also meet the other way round (self-contact, or the
  /// reverse pair exists), so a slave whose motion is prescribed may leave the contact to
  /// the other pass.
  std::vector<std::uint8_t> mirrored;
  /// Rigid analytical surfaces that are masters of some definition (AnalyticView's layout):
  /// per surface its reference node, kind and frame, and its profile's segments (CSR).
  int num_analytic = 0;
  std::vector<int> analytic_ref;
  std::vector<double> analytic_frame;     ///< kAnalyticFrameValues per surface
  std::vector<int> analytic_seg_ptr{0};
  std::vector<double> analytic_seg;       ///< kAnalyticSegValues per segment
  std::vector<std::string> analytic_name; ///< per surface, for messages
  std::vector<int> pair_surface;          ///< per definition: its analytical master, or -1
  /// Per node (CSR over nodes), the distinct contact facets it is a corner of: their outward
  /// area normal times the node's share (a quarter of a quadrilateral, a third of a
  /// triangle; reference configuration) and 1 for a two-sided shell facet, 4 values each.
  /// CPRESS divides the nodal normal force by the area of the facets it presses on
  /// (contact_pressure).
  std::vector<int> node_area_ptr;
  std::vector<double> node_area;
  /// Edge-to-edge contact (docs/theory.md, "Contact", edges): the feature edges of each
  /// definition's surfaces (solid edges whose facets' outward normals differ by more than
  /// kFeatureEdgeAngle, shell perimeter edges). A record (role bit kEdgeRecord) looks for the
  /// targets (bit kEdgeTarget) of its definition: a self-contact definition's edges are both,
  /// a pair's slave-surface edges records and its master-surface edges targets.
  int num_edges = 0;
  std::vector<int> edge_nodes;             ///< 2 per edge
  std::vector<int> edge_pair;              ///< definition of each edge
  std::vector<std::uint8_t> edge_role;     ///< kEdgeRecord | kEdgeTarget bits
  /// 8 per edge: the corners of a solid edge's two facets (4 each, -1: a triangle's fourth),
  /// whose outward normals orient the contact; all -1 for a shell's perimeter edge.
  std::vector<int> edge_facets;
  std::vector<double> edge_offset;         ///< half the shell thickness (0 on solid edges)
  std::vector<double> edge_depth;          ///< deepest penetration taken: the smaller of its facets' depths (shells: 0)
  std::vector<double> edge_spring_mass;    ///< per edge record: its penalty spring's mass (set_spring_masses)
  /// Per edge of a self-contact definition (CSR over edges; empty for the others), the nodes
  /// sharing an element with one of its nodes: edges through them are not touched.
  std::vector<int> edge_near_ptr{0}, edge_near_nodes;
  double penalty_scale = 1;           ///< *CONTACT CONTROLS ASSIGNMENT, TYPE=SCALE PENALTY
  /// Largest distance between a slave node and a facet's plane at which they can touch
  /// (offsets and depths): the broad phase's search margin.
  double reach = 0;

  bool empty() const { return num_pairs == 0; }
  /// Whether some definition has a softened pressure-overclosure law.
  bool softened() const {
    for (std::uint8_t k : law_kind)
      if (k != 0) return true;
    return false;
  }
};

/// Values kept per slave record, then per edge record, between increments
/// (ContactView::shear_history; an edge record leaves the first three unused): the
/// friction force (3), whether the record touched a facet at the last commit (1: yes), the
/// penetration beyond what its approach explains (ignored, see ContactNodeBody), the facet
/// (edge) it touched (as a number) and its spring's stretch (penetration less that excess).
inline constexpr int kContactHistory = 7;

/// ContactSystem::edge_role bits: the edge looks for contact (one record), and it can be touched.
inline constexpr std::uint8_t kEdgeRecord = 1, kEdgeTarget = 2;

/// Angle (degrees) between the outward normals of a solid edge's two facets above which the
/// edge is a feature edge and takes edge-to-edge contact.
inline constexpr double kFeatureEdgeAngle = 30.0;

/// Fraction of the largest stable penalty stiffness used (docs/theory.md, "Contact"): with
/// it, a contact spring between two nodes raises the highest frequency of the mesh by less
/// than the stable increment's safety factor allows.
inline constexpr double kContactPenaltyFraction = 0.125;

/// Builds the contact arrays of m (empty without contact); general contact (ALL EXTERIOR)
/// also takes every analytical surface attached to a rigid body. Throws InputError naming the
/// definition's file:line when a surface yields no facets or no slave nodes, or when slave
/// nodes start behind an analytical surface (most often a profile written the wrong way).
ContactSystem build_contact_system(const Model& m);

/// Contact pressure at node n under the nodal normal contact force f: |f| over the area of
/// the node's facets that f presses on (one-sided facets whose outward normal opposes f,
/// weighted by the cosine; two-sided ones either way); 0 off the contact surfaces.
double contact_pressure(const ContactSystem& cs, int n, const double f[3]);

/// The analytical surfaces of cs as the contact pass reads them (host memory).
AnalyticView<double> analytic_view(const ContactSystem& cs);

/// Sets each record's spring mass from the nodal masses: the lighter of its slave node and
/// the lightest corner node of its definition's facets (fixed for the run, so the spring is
/// conservative); each edge record's likewise: the lighter of its edge's lighter node and
/// the lightest node of its definition's target edges.
void set_spring_masses(ContactSystem& cs, const std::vector<double>& mass);

/// Every node a slave or edge record reads or pushes (slave nodes, the corners of master
/// facets and of the slaves' own facets, analytical surfaces' reference nodes, the feature
/// edges' nodes and their facets' corners), ascending: the nodes whose motion a distributed
/// run shares among its ranks each increment.
std::vector<int> contact_nodes(const ContactSystem& cs);

/// cs with its nodes renumbered: node n becomes to_new[n] (-1 for every node that is not in
/// contact_nodes(cs)), of num nodes in all. Neighbour lists (slave and edge records') keep
/// only renumbered nodes (the others are no facet's corner and no edge's node), node areas
/// follow their nodes.
ContactSystem renumber_contact(const ContactSystem& cs, const std::vector<int>& to_new, int num);

}  // namespace halfstep
