// The one way our code reaches OpenGL: glad's generated 3.3 core loader (build tree, not committed).
// Include this instead of any system GL header so every function goes through the loader.
#pragma once

#include <glad/gl.h>
