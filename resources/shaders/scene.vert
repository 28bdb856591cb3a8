#version 330 core
// One program draws every batch: lit triangles (brush faces, cells) and unlit lines.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec4 colour;
layout(location = 3) in vec4 edge; // barycentric distances to the polygon's outline (mesh_batch.h)

uniform mat4 mvp;
uniform bool lit;
uniform float brightness; // scales the colour (brush outlines dimmed behind 2D sections)

out vec4 vertexColour;
out vec3 edgeCoordinates;

void main() {
    gl_Position = mvp * vec4(position, 1.0);
    // Head-light style shading that tells faces apart without any light setup.
    const vec3 lightDir = normalize(vec3(0.35, 0.55, 0.75));
    float shade = lit ? 0.55 + 0.45 * abs(dot(normalize(normal), lightDir)) : 1.0;
    vertexColour = vec4(colour.rgb * shade * brightness, colour.a);
    edgeCoordinates = edge.xyz;
}
