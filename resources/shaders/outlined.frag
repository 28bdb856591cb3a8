#version 330 core
in vec4 vertexColour;
in vec3 edgeCoordinates;
out vec4 fragmentColour;

// Outlined batches (3D brush faces) draw each polygon's outline themselves: a band this
// many pixels wide inside every outline edge, so an edge between two faces shows as a line
// of about twice that. Cheaper under llvmpipe than a second pass of lines, and free of the
// depth fighting of lines drawn over the faces they bound.
const float kOutlineHalfWidthPixels = 0.75;

uniform vec4 outline; // colour of the outline (batches without one use scene.frag)

void main() {
    // Distances in pixels: a coordinate held at 1 (an inner edge of the fan) changes by
    // nothing across the triangle and comes out far from every pixel.
    vec3 pixels = edgeCoordinates / max(fwidth(edgeCoordinates), vec3(1e-6));
    float distance = min(pixels.x, min(pixels.y, pixels.z));
    float coverage = 1.0 - smoothstep(kOutlineHalfWidthPixels - 0.5, kOutlineHalfWidthPixels + 0.5, distance);
    fragmentColour = mix(vertexColour, vec4(outline.rgb, 1.0), outline.a * coverage);
}
