#include "section_overlays.h"

#include "geometry/axis_section.h"
#include "portal/leaf_sections.h"

namespace shallot::render {

namespace {

bool flagged(const std::vector<bool>* leaves, size_t leaf) { return leaves && leaf < leaves->size() && (*leaves)[leaf]; }

// The fill of a leaf's section (alpha 0: not drawn), by the rules of the projected cells
// (tree_overlays.cpp, cellLabelling) with the void apart and the reach composed over it.
QColor fillOf(const BspTree& tree, size_t leaf, const SectionOptions& o) {
    const CellOverlayOptions& c = o.cells;
    const uint64_t bits = tree.leafSolid[leaf];
    const bool solid = (bits >> c.pose) & 1u;
    const bool highlighted = int(leaf) == c.highlightLeaf;
    QColor fill(0, 0, 0, 0);
    if (highlighted || (o.cellsOn && !c.onlyHighlight && passes(bits, int(tree.poses.size()), c))) {
        fill = c.roundShape                               ? roundCellColour(roundCellKind(bits))
               : c.colouring == CellColouring::ByBitset ? bitsetColour(bits)
               : solid                                  ? kSolidCellColour
                                                        : kEmptyCellColour;
        if (!solid && flagged(o.voidLeaves, leaf)) fill = kVoidColour;
        else if (flagged(c.greyed, leaf)) fill = kGreyedCellColour;
        fill.setAlpha(highlighted ? 2 * kSectionAlpha : kSectionAlpha);
        if (highlighted) fill = fill.lighter(140);
    }
    if (o.viewWeight && leaf < o.viewWeight->size() && (*o.viewWeight)[leaf] > 0) {
        QColor weight = viewWeightColour(viewWeightStep((*o.viewWeight)[leaf], o.viewWeightLimit));
        weight.setAlpha(kSectionAlpha);
        fill = fill.alpha() > 0 ? over(weight, fill) : weight;
    }
    if (flagged(o.visible, leaf)) {
        QColor visible = kVisibleColour;
        visible.setAlpha(kSectionAlpha);
        fill = fill.alpha() > 0 ? over(visible, fill) : visible;
    }
    if (flagged(o.reached, leaf)) {
        QColor reach = kReachedColour;
        reach.setAlpha(kSectionAlpha);
        fill = fill.alpha() > 0 ? over(reach, fill) : reach;
    }
    return fill;
}

} // namespace

SectionBatches sectionOverlay(const BspTree& tree, const SectionOptions& o) {
    const int axis = o.axis;
    const Vec3 normal = Vec3::Unit(axis);
    SectionBatches out;
    out.fills.lit = false;
    out.lines.primitive = Primitive::Lines;
    out.lines.lit = false;
    // The leaves' regions tile the plane, a cell face lying in it drawn from one side
    // (portal/leaf_sections.h): the view never blanks where the plane meets a split plane.
    for (const LeafSection& section : leafSections(tree, axis, o.at)) {
        const QColor fill = fillOf(tree, size_t(section.leaf), o);
        if (fill.alpha() > 0) out.fills.addPolygon(section.polygon.vertices, normal, fill);
    }
    if (o.unionOn) {
        for (size_t k = 0; k < tree.polygons.size(); ++k)
            if (tree.polygons[k].pose == o.cells.pose)
                if (const auto segment = axisSection(tree.polygons.vertices(k), axis, o.at))
                    out.lines.addLine(segment->first, segment->second, kExpandedWorldColour);
    }
    if (o.portalsOn) {
        for (const Portal& p : tree.portals)
            if ((p.poses >> o.cells.pose) & 1u)
                if (const auto segment = axisSection(tree.portals.vertices(p), axis, o.at))
                    out.lines.addLine(segment->first, segment->second, kPortalColour);
    }
    // A brush resting on the plane (a wall on a floor's top in the top view) is cut there
    // too: seen from above, as the cells are drawn from one side.
    if (o.brushes)
        for (const auto& brush : *o.brushes)
            if (brush && brush->bounds.mins[axis] <= o.at && o.at < brush->bounds.maxs[axis])
                out.lines.addOutline(axisSectionFromAbove(brush->hull, axis, o.at).vertices, kBrushCutColour);
    if (o.leakPath)
        for (size_t i = 0; i + 1 < o.leakPath->size(); ++i) out.lines.addLine((*o.leakPath)[i], (*o.leakPath)[i + 1], kProblemColour);
    return out;
}

} // namespace shallot::render
