/* Found first on the engine's include path, so that the engine cannot
 * include GLib or GTK: the engine is pure C11 and libm (see engine/meson.build). */
#error "the engine includes no GLib or GTK header"
