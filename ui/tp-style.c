/* tp-style.c: the playground's colours for light and dark styles. */
#include "config.h"

#include "tp-style.h"

static const TpPalette light = {
  .derived = "#8a5a00",
  .summary = "#6a6a6a",
  .kept = "rgba(53,132,228,0.13)",
  .selected = "rgba(246,195,67,0.45)",
  .selected_ref = "rgba(246,195,67,0.60)",
  .tangent = "rgba(53,132,228,0.30)",
  .error = "#e01b24",
};

/* Lighter inks and stronger washes: on a dark page a pale tint vanishes
 * and a dark ink does not read. */
/* Dark highlights are kept dim so that every colour of the topos-dark
 * scheme keeps a contrast of 4.5:1 on them (tests/ui checks it). */
static const TpPalette dark = {
  .derived = "#ffbe6f",
  .summary = "#c0bfbc",
  .kept = "rgba(98,160,234,0.18)",
  .selected = "rgba(229,165,10,0.18)",
  .selected_ref = "rgba(229,165,10,0.26)",
  .tangent = "rgba(98,160,234,0.28)",
  .error = "#ff7b63",
};

/* The widget's text colour, for what the playground draws itself. */
void
tp_style_get_foreground (GtkWidget *widget,
                         GdkRGBA   *fg)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

/* A dark style draws a light foreground on a dark background: read the
 * widget's own colour, whatever made it dark. */
gboolean
tp_style_is_dark (GtkWidget *widget)
{
  GdkRGBA fg;

  tp_style_get_foreground (widget, &fg);
  return 0.299f * fg.red + 0.587f * fg.green + 0.114f * fg.blue > 0.5f;
}

const TpPalette *
tp_style_get_palette (gboolean is_dark)
{
  return is_dark ? &dark : &light;
}

void
tp_style_apply_scheme (GtkSourceBuffer *buffer,
                       gboolean         is_dark)
{
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  static const char *const light_ids[] = { "Adwaita", "classic", NULL };
  static const char *const dark_ids[] = { "topos-dark", "Adwaita-dark", "classic-dark", "oblivion", NULL };
  const char *const *ids = is_dark ? dark_ids : light_ids;
  GtkSourceStyleScheme *scheme = NULL;

  for (guint i = 0; scheme == NULL && ids[i] != NULL; i++)
    scheme = gtk_source_style_scheme_manager_get_scheme (schemes, ids[i]);
  if (scheme != NULL && gtk_source_buffer_get_style_scheme (buffer) != scheme)
    gtk_source_buffer_set_style_scheme (buffer, scheme);
}
