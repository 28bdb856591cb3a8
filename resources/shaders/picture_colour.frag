#version 330 core
// Each pixel of a 2D view's kept picture as it was drawn (render/base_image_cache.h); a 2D
// view keeps no depth, and a shader that writes none is the cheaper one to run.
uniform sampler2D colourTexture;

out vec4 fragmentColour;

void main() { fragmentColour = texelFetch(colourTexture, ivec2(gl_FragCoord.xy), 0); }
