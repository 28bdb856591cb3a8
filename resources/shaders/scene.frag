#version 330 core
in vec4 vertexColour;
out vec4 fragmentColour;

void main() {
    fragmentColour = vertexColour;
}
