#version 330 core
// Each pixel of a 3D view's kept picture as it was drawn, colour and depth, so that the
// overlays drawn over it are depth tested against the brushes of the picture
// (render/base_image_cache.h).
uniform sampler2D colourTexture;
uniform sampler2D depthTexture;

out vec4 fragmentColour;

void main() {
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    fragmentColour = texelFetch(colourTexture, pixel, 0);
    gl_FragDepth = texelFetch(depthTexture, pixel, 0).r;
}
