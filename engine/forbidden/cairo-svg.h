/* Found first on the engine's include path, so that the engine cannot
 * include cairo: the engine is pure C11 and libm (see engine/meson.build). */
#error "the engine includes no cairo header"
