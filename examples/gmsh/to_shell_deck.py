#!/usr/bin/env python3
"""Turn a Gmsh Abaqus export (.inp) into a halfstep shell mesh file (stdlib only).

Usage: python3 examples/gmsh/to_shell_deck.py GMSH.inp MESH.inp [--flip]

Why: Gmsh's .inp writer labels 4-node surface elements CPS4 (plane stress) and
writes the 1-D elements of physical curves as T3D2 (and points, if any, as extra
*ELEMENT blocks).  halfstep only reads 4-node shells, so this script
  * keeps *NODE as written (node ids unchanged; nodes used only by dropped
    elements are removed),
  * keeps the 4-node quadrilateral blocks (CPS4, CPE4, CAX4, S4, S4R, ...) and
    renames their type to S4R (element ids unchanged),
  * drops every other element block (T3D2 lines, points) and refuses
    triangles (halfstep has no 3-node shell: mesh with recombination),
  * keeps the *NSET blocks of the physical groups (Mesh.SaveGroupsOfNodes = 1)
    and the *ELSET blocks that refer to kept quads only; an *ELSET of a physical
    curve (it lists T3D2 elements) is dropped,
  * drops Gmsh's *Heading (the file is meant to be *INCLUDEd by a driver deck),
  * rewrites data lines without Gmsh's trailing commas, 16 ids per line.
--flip reverses the node order of every element (normals to the other side).
The output is a mesh-only file (nodes, elements, sets) for *INCLUDE.
"""

import argparse
import sys

QUAD_TYPES = {"CPS4", "CPE4", "CPS4R", "CPE4R", "CAX4", "CAX4R", "S4", "S4R", "M3D4", "M3D4R", "R3D4", "SFM3D4"}
TRI_TYPES = {"CPS3", "CPE3", "CAX3", "S3", "S3R", "M3D3", "R3D3", "SFM3D3"}


def blocks(path):
    cur = None
    with open(path) as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith("**"):
                continue
            if line.startswith("*"):
                if cur:
                    yield cur
                parts = [p.strip() for p in line[1:].split(",")]
                params = {}
                for p in parts[1:]:
                    if "=" in p:
                        k, v = p.split("=", 1)
                        params[k.strip().upper()] = v.strip()
                    elif p:
                        params[p.upper()] = None
                cur = (parts[0].upper(), params, [])
            elif cur:
                cur[2].append([x.strip() for x in line.split(",") if x.strip()])
    if cur:
        yield cur


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gmsh_inp")
    ap.add_argument("mesh_inp")
    ap.add_argument("--flip", action="store_true", help="reverse the element orientation")
    a = ap.parse_args()

    nodes = []  # (id, x, y, z) strings as written
    quads = []  # (id, n1..n4)
    elsets, nsets = [], []
    dropped = {}
    for kw, params, data in blocks(a.gmsh_inp):
        if kw == "NODE":
            nodes.extend(data)
        elif kw == "ELEMENT":
            typ = (params.get("TYPE") or "").upper()
            if typ in QUAD_TYPES:
                for d in data:
                    if len(d) != 5:
                        sys.exit("unexpected %s element line %r" % (typ, d))
                    e = (int(d[0]), int(d[1]), int(d[2]), int(d[3]), int(d[4]))
                    if a.flip:
                        e = (e[0], e[1], e[4], e[3], e[2])
                    quads.append(e)
            elif typ in TRI_TYPES:
                sys.exit("triangles (%s) found: halfstep has no 3-node shell; recombine the mesh to quads" % typ)
            else:
                dropped[typ] = dropped.get(typ, 0) + len(data)
        elif kw == "ELSET":
            elsets.append((params.get("ELSET"), [int(x) for d in data for x in d]))
        elif kw == "NSET":
            nsets.append((params.get("NSET"), [int(x) for d in data for x in d]))
        elif kw == "HEADING":
            pass
        else:
            dropped["*" + kw] = dropped.get("*" + kw, 0) + 1
    if not quads:
        sys.exit("no 4-node elements in %s" % a.gmsh_inp)
    qids = {e[0] for e in quads}
    used = {n for e in quads for n in e[1:]}
    out = [
        "** Shell mesh converted from the Gmsh export %s by examples/gmsh/to_shell_deck.py" % a.gmsh_inp.split("/")[-1],
        "** (4-node quads renamed S4R; ids as written by Gmsh%s)." % ("; orientation flipped" if a.flip else ""),
        "** Dropped: %s." % (", ".join("%s x %d" % kv for kv in sorted(dropped.items())) or "nothing"),
        "*NODE",
    ]
    kept_nodes = set()
    for d in nodes:
        nid = int(d[0])
        if nid in used:
            kept_nodes.add(nid)
            out.append(", ".join(d[:4]))
    out.append("*ELEMENT, TYPE=S4R, ELSET=SHELL")
    out.extend("%d, %d, %d, %d, %d" % e for e in quads)

    def id_lines(ids):
        return [", ".join(str(i) for i in ids[k:k + 16]) for k in range(0, len(ids), 16)]

    skipped = []
    for name, ids in elsets:
        if ids and all(i in qids for i in ids):
            out.append("*ELSET, ELSET=%s" % name)
            out.extend(id_lines(ids))
        else:
            skipped.append(name)
    for name, ids in nsets:
        ids = [i for i in ids if i in kept_nodes]
        if ids:
            out.append("*NSET, NSET=%s" % name)
            out.extend(id_lines(ids))
    if skipped:
        out.insert(3, "** Element sets of non-quad elements dropped (node sets of the same name are kept): %s." % ", ".join(skipped))
    with open(a.mesh_inp, "w") as f:
        f.write("\n".join(out) + "\n")
    sys.stderr.write("%s: %d nodes, %d S4R elements, %d node sets; dropped %s\n" % (
        a.mesh_inp, len(kept_nodes), len(quads), len(nsets), dropped or "nothing"))


if __name__ == "__main__":
    main()
