/* topos-export.c: the command line's --svg and --png, as a module that
 * app/topos.c loads only when one of them is given.  It lays the DOT
 * reading out with the graphviz renderer (render/tp-render.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp-render.h"

/* PNG export: pixels per point (144 dpi), sharp on slides. */
#define PNG_SCALE 2.0

static bool
write_file (const char *path, const void *data, size_t len)
{
  FILE *f = fopen (path, "wb");
  bool ok;

  if (f == NULL)
    {
      fprintf (stderr, "topos: cannot write %s: %s\n", path, strerror (errno));
      return false;
    }
  ok = fwrite (data, 1, len, f) == len;
  ok = fclose (f) == 0 && ok;
  if (!ok)
    fprintf (stderr, "topos: cannot write %s\n", path);
  return ok;
}

/* Lays out the DOT reading and writes the SVG and/or PNG.  Graphviz's
 * messages go to standard error prefixed "topos: picture: ".  Returns an
 * exit status: 0, 1 when graphviz failed, 2 when a file cannot be
 * written. */
int tp_export_picture (const char *dot, const char *svg_path,
                       const char *png_path);

int
tp_export_picture (const char *dot, const char *svg_path, const char *png_path)
{
  TpRenderOptions options = { .svg = svg_path != NULL, .draw = png_path != NULL };
  TpRender *r = tp_render_new (dot, &options);
  const char *diag;
  int rc = 0;

  if (r == NULL)
    {
      fputs ("topos: out of memory\n", stderr);
      return 1;
    }
  diag = tp_render_diagnostics (r);
  while (*diag != '\0')
    {
      size_t n = strcspn (diag, "\n");
      fprintf (stderr, "topos: picture: %.*s\n", (int) n, diag);
      diag += n + (diag[n] == '\n');
    }
  if (!tp_render_ok (r))
    rc = 1;
  if (rc == 0 && svg_path != NULL)
    {
      size_t len;
      const char *svg = tp_render_svg (r, &len);
      if (svg == NULL)
        rc = 1;
      else if (!write_file (svg_path, svg, len))
        rc = 2;
    }
  if (rc == 0 && png_path != NULL)
    {
      size_t len;
      unsigned char *png = tp_render_png (r, PNG_SCALE, NULL, &len);
      if (png == NULL)
        {
          fputs ("topos: picture: the PNG could not be made (too large?)\n",
                 stderr);
          rc = 1;
        }
      else if (!write_file (png_path, png, len))
        rc = 2;
      free (png);
    }
  tp_render_free (r);
  return rc;
}
