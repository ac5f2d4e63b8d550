/* tp-style.h: light and dark.
 *
 * Widgets follow the style they are drawn with: a theme's dark variant
 * (gtk-application-prefer-dark-theme, GTK_THEME=Adwaita:dark, a dark
 * theme) shows as a light foreground colour, which is what
 * tp_style_is_dark reads.  The colours the playground draws itself (the
 * readings' highlights, the editor's marks, the source scheme) come from
 * the palette for that style.  The application applies the reader's
 * choice (the "style" setting: follow the system, light, dark) to GTK's
 * settings. */
#pragma once

#include <gtksourceview/gtksource.h>

G_BEGIN_DECLS

typedef struct
{
  const char *derived;          /* text appended by differentiate */
  const char *summary;          /* a reading's summary lines */
  const char *kept;             /* paragraph behind `kept` plan lines */
  const char *selected;         /* paragraph behind the selected node */
  const char *selected_ref;     /* behind a use of the selected node */
  const char *tangent;          /* behind the tangent node lit (Forward) */
  const char *error;            /* the refused spot's underline */
} TpPalette;

gboolean          tp_style_is_dark       (GtkWidget       *widget);
void              tp_style_get_foreground (GtkWidget      *widget,
                                           GdkRGBA        *fg);
const TpPalette  *tp_style_get_palette   (gboolean         dark);
/* Gives @buffer the source style scheme for the style. */
void              tp_style_apply_scheme  (GtkSourceBuffer *buffer,
                                          gboolean         dark);

G_END_DECLS
