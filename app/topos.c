/* topos: the command-line front end.  It prints one reading, all of them,
 * or the engine's JSON, for a program read from a file or standard input.
 * Everything it prints comes from the engine's session. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp-engine.h"

#define MAX_OBSERVE 256

static const char usage[] =
  "usage: topos [--reading spec|derivative|plan|stablehlo|values|dot|summary]\n"
  "             [--all] [--json] [--target NAME] [--observe NAME]... [--exact]\n"
  "             [FILE|-]\n"
  "Reads a tape-language program from FILE (or standard input) and prints\n"
  "one reading (spec by default), every reading (--all), or the engine's\n"
  "JSON (--json).  Exit status: 0 read, 1 refused, 2 usage error.\n";

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

int
main (int argc, char **argv)
{
  const char *observe[MAX_OBSERVE];
  TpChoices choices = { NULL, observe, 0, false };
  TpReading reading = TP_READING_SPEC;
  const char *path = NULL;
  bool json = false, all = false, options_done = false;
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
        json = true;
      else if (strcmp (a, "--all") == 0)
        all = true;
      else if (strcmp (a, "--exact") == 0)
        choices.exact = true;
      else if (strcmp (a, "--reading") == 0 || strcmp (a, "--target") == 0
               || strcmp (a, "--observe") == 0)
        {
          if (i + 1 >= argc)
            return usage_error ("missing value after", a);
          if (strcmp (a, "--reading") == 0)
            {
              if (!tp_reading_from_name (argv[i + 1], &reading))
                return usage_error ("unknown reading", argv[i + 1]);
            }
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
  else if (status == TP_STATUS_OK)
    fputs (tp_session_reading (session, reading), stdout);
  tp_session_free (session);
  free (source);
  if (fflush (stdout) != 0)
    return 2;
  return status == TP_STATUS_OK ? 0 : 1;
}
