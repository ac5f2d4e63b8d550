/* topos: the command-line front end.  It prints one reading, all of them,
 * or the engine's JSON, for a program read from a file or standard input.
 * Everything it prints comes from the engine's session. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp-engine.h"
#ifdef TP_HAVE_RENDER
#include "tp-render.h"
#endif

#define MAX_OBSERVE 256
/* PNG export: pixels per point (144 dpi), sharp on slides. */
#define PNG_SCALE 2.0

static const char usage[] =
  "usage: topos [--reading spec|derivative|plan|stablehlo|values|dot|summary]\n"
  "             [--all] [--json] [--target NAME] [--observe NAME]... [--exact]\n"
  "             [--svg OUT.svg] [--png OUT.png] [FILE|-]\n"
  "Reads a tape-language program from FILE (or standard input) and prints\n"
  "one reading (spec by default), every reading (--all), or the engine's\n"
  "JSON (--json).  --svg and --png write the picture (graphviz) instead;\n"
  "a reading is then printed only when asked for.\n"
  "Exit status: 0 read, 1 refused, 2 usage error.\n";

static int
usage_error (const char *what, const char *arg)
{
  fprintf (stderr, "topos: %s%s%s\n%s", what, arg ? " " : "", arg ? arg : "",
           usage);
  return 2;
}

/* Reads all of f; NULL on a read or memory error. */
static char *
slurp (FILE *f, size_t *len)
{
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc (cap);

  if (buf == NULL)
    return NULL;
  for (;;)
    {
      size_t got;
      if (n == cap)
        {
          char *p;
          cap *= 2;
          p = realloc (buf, cap);
          if (p == NULL)
            {
              free (buf);
              return NULL;
            }
          buf = p;
        }
      got = fread (buf + n, 1, cap - n, f);
      n += got;
      if (got == 0)
        break;
    }
  if (ferror (f))
    {
      free (buf);
      return NULL;
    }
  *len = n;
  return buf;
}

#ifdef TP_HAVE_RENDER
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
static int
export_picture (const char *dot, const char *svg_path, const char *png_path)
{
  TpRenderOptions options = { 0, svg_path != NULL, png_path != NULL };
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
#endif

int
main (int argc, char **argv)
{
  const char *observe[MAX_OBSERVE];
  TpChoices choices = { NULL, observe, 0, false };
  TpReading reading = TP_READING_SPEC;
  const char *path = NULL, *svg_path = NULL, *png_path = NULL;
  bool json = false, all = false, options_done = false, asked = false;
  TpSession *session;
  TpStatus status;
  char *source;
  size_t len = 0;
  FILE *f;

  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      if (options_done || a[0] != '-' || strcmp (a, "-") == 0)
        {
          if (path != NULL)
            return usage_error ("more than one FILE:", a);
          path = a;
        }
      else if (strcmp (a, "--") == 0)
        options_done = true;
      else if (strcmp (a, "--help") == 0 || strcmp (a, "-h") == 0)
        {
          fputs (usage, stdout);
          return 0;
        }
      else if (strcmp (a, "--json") == 0)
        json = asked = true;
      else if (strcmp (a, "--all") == 0)
        all = asked = true;
      else if (strcmp (a, "--exact") == 0)
        choices.exact = true;
      else if (strcmp (a, "--reading") == 0 || strcmp (a, "--target") == 0
               || strcmp (a, "--observe") == 0 || strcmp (a, "--svg") == 0
               || strcmp (a, "--png") == 0)
        {
          if (i + 1 >= argc)
            return usage_error ("missing value after", a);
          if (strcmp (a, "--reading") == 0)
            {
              if (!tp_reading_from_name (argv[i + 1], &reading))
                return usage_error ("unknown reading", argv[i + 1]);
              asked = true;
            }
          else if (strcmp (a, "--svg") == 0)
            svg_path = argv[i + 1];
          else if (strcmp (a, "--png") == 0)
            png_path = argv[i + 1];
          else if (strcmp (a, "--target") == 0)
            choices.target = argv[i + 1];
          else
            {
              if (choices.n_observe == MAX_OBSERVE)
                return usage_error ("too many --observe options", NULL);
              observe[choices.n_observe++] = argv[i + 1];
            }
          i++;
        }
      else
        return usage_error ("unknown option", a);
    }

#ifndef TP_HAVE_RENDER
  if (svg_path != NULL || png_path != NULL)
    {
      fputs ("topos: this build has no graphviz renderer; --svg and --png "
             "are not available\n", stderr);
      return 2;
    }
#endif
  if ((svg_path != NULL || png_path != NULL) && !asked)
    reading = TP_N_READINGS;      /* print nothing */

  if (path == NULL || strcmp (path, "-") == 0)
    {
      f = stdin;
      path = "<stdin>";
    }
  else if ((f = fopen (path, "rb")) == NULL)
    {
      fprintf (stderr, "topos: cannot open %s: %s\n", path, strerror (errno));
      return 2;
    }
  source = slurp (f, &len);
  if (f != stdin)
    fclose (f);
  if (source == NULL)
    {
      fprintf (stderr, "topos: cannot read %s\n", path);
      return 2;
    }

  session = tp_session_new ();
  if (session == NULL)
    {
      free (source);
      fputs ("topos: out of memory\n", stderr);
      return 1;
    }
  status = tp_session_compile (session, source, len, &choices);
  if (status != TP_STATUS_OK)
    {
      size_t n;
      const TpDiag *d = tp_session_diags (session, &n);
      for (size_t k = 0; k < n; k++)
        fprintf (stderr, "%s:%u:%u: error: %s\n", path, d[k].line,
                 d[k].column, d[k].message);
    }
  if (json)
    {
      char *text = tp_session_to_json (session);
      if (text == NULL)
        {
          fputs ("topos: out of memory\n", stderr);
          status = TP_STATUS_NO_MEMORY;
        }
      else
        fputs (text, stdout);
      tp_string_free (text);
    }
  else if (status == TP_STATUS_OK && all)
    {
      for (int r = 0; r < TP_N_READINGS; r++)
        {
          printf ("== %s ==\n", tp_reading_name ((TpReading) r));
          fputs (tp_session_reading (session, (TpReading) r), stdout);
          if (r + 1 < TP_N_READINGS)
            putchar ('\n');
        }
    }
  else if (status == TP_STATUS_OK && reading != TP_N_READINGS)
    fputs (tp_session_reading (session, reading), stdout);
#ifdef TP_HAVE_RENDER
  if (status == TP_STATUS_OK && (svg_path != NULL || png_path != NULL))
    {
      int rc = export_picture (tp_session_reading (session, TP_READING_DOT),
                               svg_path, png_path);
      if (rc != 0)
        {
          tp_session_free (session);
          free (source);
          fflush (stdout);
          return rc;
        }
    }
#endif
  tp_session_free (session);
  free (source);
  if (fflush (stdout) != 0)
    return 2;
  return status == TP_STATUS_OK ? 0 : 1;
}
