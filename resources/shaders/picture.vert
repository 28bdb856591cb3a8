#version 330 core
// A triangle that covers the whole viewport (render/base_image_cache.h: a kept picture
// copied into a view), with no vertex buffer: the corners come from the vertex index.
void main() {
    vec2 corner = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
    gl_Position = vec4(corner, 0.0, 1.0);
}
