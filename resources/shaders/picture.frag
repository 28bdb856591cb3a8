#version 330 core
// Each pixel of a view's kept picture as it was drawn, colour and depth, so that the
// overlays drawn over it are depth tested against the brushes of the picture.
uniform sampler2D colourTexture;
uniform sampler2D depthTexture;
uniform bool withDepth;

out vec4 fragmentColour;

void main() {
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    fragmentColour = texelFetch(colourTexture, pixel, 0);
    gl_FragDepth = withDepth ? texelFetch(depthTexture, pixel, 0).r : gl_FragCoord.z;
}
