#version 330 core
// Every batch without an outline: the colour the vertex shader gave. A program of its own
// rather than a branch on a uniform in outlined.frag: llvmpipe computed the outline's
// derivatives for every fragment all the same, and the 3D view's translucent overlays
// (several layers over most pixels) paid for them (docs/performance.md, 2026-11-29).
in vec4 vertexColour;
out vec4 fragmentColour;

void main() {
    fragmentColour = vertexColour;
}
