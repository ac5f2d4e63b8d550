/* topos: the command-line front end.  It prints one reading, all of them,
 * or the engine's JSON, for a program read from a file or standard input.
 * Everything it prints comes from the engine's session. */
#define _DEFAULT_SOURCE

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp-engine.h"
#include "topos-lesson.h"

#if defined (__linux__) && defined (__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#define TP_HUGE_HEAP 1
#endif

#ifdef TP_HAVE_RENDER
#include <dlfcn.h>
#include <stdint.h>
#include <unistd.h>
#endif

#define MAX_OBSERVE 256

static const char usage[] =
  "usage: topos [--reading spec|derivative|plan|stablehlo|values|dot|summary|\n"
  "                        check|explain|memory|optimized|fusion|forward|jax|\n"
  "                        train]...\n"
  "             [--all] [--json[=MEMBER,...]] [--target NAME] [--observe NAME]...\n"
  "             [--exact] [--optimize] [--remat NAME[,NAME...]|auto]\n"
  "             [--direction NAME|NAME[i,j]]\n"
  "             [--svg OUT.svg] [--png OUT.png] [--memory-svg OUT.svg]\n"
  "             [--train STEPS --learning-rate R [--train-svg OUT.svg]] [FILE|-]\n"
  "       topos --lesson LESSON [--solution] [PROGRAM]   (topos --lesson --help)\n"
  "Reads a tape-language program from FILE (or standard input) and prints\n"
  "one reading (spec by default), several (--reading given more than once,\n"
  "each under == NAME ==), the original's six and the summary (--all), or\n"
  "the engine's JSON (--json; --json=spec,values for those members only).\n"
  "Only what is printed is computed.  --svg and --png write the picture\n"
  "(graphviz) instead, --memory-svg the memory chart (the engine's own SVG);\n"
  "a reading is then printed only when asked for.\n"
  "--optimize runs the exact rewrites (the optimized reading) before the\n"
  "plan; --remat frees the named statements after the forward pass and\n"
  "computes them again for the gradient (auto: picks them).  Both change\n"
  "the plan and what is made from it, never a value.\n"
  "--train runs STEPS steps of gradient descent on the parameters and prints\n"
  "the train reading (also --reading train), or adds \"train\" to --json.\n"
  "--direction picks forward mode's direction: 1 at the first element of\n"
  "parameter NAME, or at NAME[i, j]; the seeded one without it.\n"
  "--lesson grades a program against a lesson's goals (docs/lessons.md).\n"
  "Exit status: 0 read, 1 refused, 2 usage error.\n";

/* Reads a comma-separated list of JSON member names into *members;
 * false (and a usage error printed) for a name that is no member. */
static bool
read_members (const char *list, uint64_t *members)
{
  const char *at = list;

  *members = 0;
  for (;;)
    {
      const char *end = strchr (at, ',');
      size_t n = end != NULL ? (size_t) (end - at) : strlen (at);
      TpJsonMember m;

      if (!tp_json_member_from_name (at, n, &m))
        {
          fprintf (stderr, "topos: --json: no member named `%.*s`; the members"
                   " are", (int) n, at);
          for (int k = 0; k < TP_N_JSON_MEMBERS; k++)
            fprintf (stderr, "%s %s", k > 0 ? "," : "",
                     tp_json_member_name ((TpJsonMember) k));
          fputs ("\n", stderr);
          return false;
        }
      *members |= TP_JSON_MEMBER (m);
      if (end == NULL)
        return true;
      at = end + 1;
    }
}

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
/* The picture export lives in a module of its own (topos-export.c), loaded
 * only for --svg and --png: a run that prints readings maps no graphviz,
 * cairo or X11 library, and starts as fast as a plain C program. */
typedef int (*ExportFn) (const char *dot, const char *svg_path,
                         const char *png_path);

/* The module's path: beside this executable (the build tree), else in the
 * installed module directory. */
static ExportFn
load_export (void)
{
  char self[4096], path[4096 + 64];
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);
  void *module = NULL;
  const char *error = NULL;
  ExportFn fn;

  if (n > 0)
    {
      char *slash;

      self[n] = '\0';
      slash = strrchr (self, '/');
      if (slash != NULL)
        {
          *slash = '\0';
          snprintf (path, sizeof path, "%s/" TP_EXPORT_MODULE, self);
          module = dlopen (path, RTLD_NOW | RTLD_LOCAL);
          if (module == NULL && access (path, F_OK) == 0)
            error = dlerror ();
        }
    }
  if (module == NULL && error == NULL)
    {
      module = dlopen (TP_MODULE_DIR "/" TP_EXPORT_MODULE, RTLD_NOW | RTLD_LOCAL);
      if (module == NULL)
        error = dlerror ();
    }
  if (module == NULL)
    {
      fprintf (stderr, "topos: the picture export could not be loaded: %s\n",
               error != NULL ? error : TP_EXPORT_MODULE " not found");
      return NULL;
    }
  fn = (ExportFn) (uintptr_t) dlsym (module, "tp_export_picture");
  if (fn == NULL)
    fprintf (stderr, "topos: the picture export could not be loaded: %s\n",
             dlerror ());
  return fn;
}
#endif

/* Writes a piece of the JSON to standard output. */
static bool
write_out (const char *data, size_t length, void *user)
{
  (void) user;
  return fwrite (data, 1, length, stdout) == length;
}

#ifdef TP_HUGE_HEAP
/* A whole JSON of a big program touches tens of megabytes once, and
 * faulting them in 4 KiB pages was a fifth of its time.  The heap is set
 * to grow in one 64 MiB step, big blocks are taken from it rather than
 * mapped each on its own, and the kernel is asked to back it with huge
 * pages (it does where transparent huge pages are "madvise" or "always";
 * elsewhere the advice is ignored and nothing changes). */
static void
heap_in_huge_pages (void)
{
  const size_t pad = (size_t) 64 << 20, huge = (size_t) 2 << 20;
  uintptr_t start, end;
  void *first;

  mallopt (M_MMAP_THRESHOLD, 32 << 20);
  mallopt (M_TRIM_THRESHOLD, (int) pad);
  mallopt (M_TOP_PAD, (int) pad);
  first = malloc (1);
  end = (uintptr_t) sbrk (0);
  start = ((uintptr_t) first + huge - 1) & ~(uintptr_t) (huge - 1);
  if (first != NULL && end > start)
    madvise ((void *) start, end - start, MADV_HUGEPAGE);
  free (first);
}
#endif

int
main (int argc, char **argv)
{
  const char *observe[MAX_OBSERVE];
  const char *remat[MAX_OBSERVE];
  char *remat_list = NULL;
  TpChoices choices = { .target = NULL, .observe = observe, .n_observe = 0,
                        .exact = false, .remat = remat };
  TpReading readings[TP_N_READINGS];
  size_t n_readings = 0;
  uint64_t members = TP_JSON_ALL;
  const char *path = NULL, *svg_path = NULL, *png_path = NULL;
  const char *train_steps = NULL, *learning_rate = NULL, *train_svg = NULL;
  bool train_reading = false;
  TpTrain *train = NULL;
  const char *memory_path = NULL;
  bool json = false, all = false, options_done = false, asked = false;
  TpSession *session;
  TpStatus status;
  char *source;
  size_t len = 0;
  FILE *f;

#ifdef TP_HUGE_HEAP
  heap_in_huge_pages ();
#endif
  /* Lessons have a command line of their own. */
  if (argc >= 2 && strcmp (argv[1], "--lesson-pot") == 0)
    return topos_lesson_main (argc, argv);
  for (int i = 1; i < argc && strcmp (argv[i], "--") != 0; i++)
    if (strcmp (argv[i], "--lesson") == 0)
      return topos_lesson_main (argc, argv);

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
      else if (strncmp (a, "--json=", 7) == 0)
        {
          if (!read_members (a + 7, &members))
            return 2;
          json = asked = true;
        }
      else if (strcmp (a, "--all") == 0)
        all = asked = true;
      else if (strcmp (a, "--exact") == 0)
        choices.exact = true;
      else if (strcmp (a, "--optimize") == 0)
        choices.optimize = true;
      else if (strcmp (a, "--remat") == 0)
        {
          char *name;
          if (i + 1 >= argc)
            return usage_error ("missing value after", a);
          if (strcmp (argv[++i], "auto") == 0)
            {
              choices.remat_auto = true;
              continue;
            }
          free (remat_list);
          remat_list = strdup (argv[i]);
          if (remat_list == NULL)
            return usage_error ("out of memory reading", a);
          choices.n_remat = 0;
          for (name = strtok (remat_list, ","); name != NULL;
               name = strtok (NULL, ","))
            {
              if (choices.n_remat == MAX_OBSERVE)
                return usage_error ("too many --remat names", NULL);
              remat[choices.n_remat++] = name;
            }
        }
      else if (strcmp (a, "--reading") == 0 || strcmp (a, "--target") == 0
               || strcmp (a, "--observe") == 0 || strcmp (a, "--svg") == 0
               || strcmp (a, "--png") == 0 || strcmp (a, "--memory-svg") == 0
               || strcmp (a, "--train") == 0
               || strcmp (a, "--learning-rate") == 0
               || strcmp (a, "--train-svg") == 0
               || strcmp (a, "--direction") == 0)
        {
          if (i + 1 >= argc)
            return usage_error ("missing value after", a);
          if (strcmp (a, "--reading") == 0 && strcmp (argv[i + 1], "train") == 0)
            train_reading = asked = true;
          else if (strcmp (a, "--reading") == 0)
            {
              TpReading r;
              bool again = false;
              if (!tp_reading_from_name (argv[i + 1], &r))
                return usage_error ("unknown reading", argv[i + 1]);
              for (size_t k = 0; k < n_readings; k++)
                again = again || readings[k] == r;
              if (!again)
                readings[n_readings++] = r;
              asked = true;
            }
          else if (strcmp (a, "--train") == 0)
            train_steps = argv[i + 1];
          else if (strcmp (a, "--learning-rate") == 0)
            learning_rate = argv[i + 1];
          else if (strcmp (a, "--train-svg") == 0)
            train_svg = argv[i + 1];
          else if (strcmp (a, "--svg") == 0)
            svg_path = argv[i + 1];
          else if (strcmp (a, "--png") == 0)
            png_path = argv[i + 1];
          else if (strcmp (a, "--memory-svg") == 0)
            memory_path = argv[i + 1];
          else if (strcmp (a, "--target") == 0)
            choices.target = argv[i + 1];
          else if (strcmp (a, "--direction") == 0)
            choices.direction = argv[i + 1];
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
  if ((train_reading || learning_rate != NULL || train_svg != NULL)
      && train_steps == NULL)
    return usage_error ("--reading train, --learning-rate and --train-svg "
                        "go with --train STEPS", NULL);
  if (train_steps != NULL
      && (learning_rate == NULL || train_steps[0] == '\0'
          || strspn (train_steps, "0123456789") != strlen (train_steps)
          || strlen (train_steps) > 9))
    return usage_error ("--train takes a number of steps and needs "
                        "--learning-rate R; got", train_steps);
  if (train_steps != NULL && members != TP_JSON_ALL)
    return usage_error ("--json=MEMBER,... does not go with --train (the "
                        "train object joins the whole JSON)", NULL);
  if (train_steps != NULL && !asked && svg_path == NULL && png_path == NULL
      && train_svg == NULL && memory_path == NULL)
    train_reading = asked = true;  /* --train alone prints its reading */
  /* The spec by default; nothing when something else was asked for. */
  if (!asked && svg_path == NULL && png_path == NULL && memory_path == NULL
      && train_steps == NULL)
    readings[n_readings++] = TP_READING_SPEC;

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
  /* The maps and the source spans only for a JSON that holds them (the
   * whole one, a training's, or one that names them) */
  choices.no_map = !json || (train_steps == NULL
                             && !(members & (TP_JSON_MEMBER (TP_JSON_MAP)
                                             | TP_JSON_MEMBER (TP_JSON_SOURCES))));
  status = tp_session_compile (session, source, len, &choices);
  if (status != TP_STATUS_OK)
    {
      size_t n;
      const TpDiag *d = tp_session_diags (session, &n);
      for (size_t k = 0; k < n; k++)
        fprintf (stderr, "%s:%u:%u: error: %s\n", path, d[k].line,
                 d[k].column, d[k].message);
    }
  if (status == TP_STATUS_OK && train_steps != NULL)
    {
      train = tp_session_train (session, (uint32_t) strtoul (train_steps, NULL, 10),
                                learning_rate, strlen (learning_rate));
      if (train == NULL)
        {
          fputs ("topos: out of memory\n", stderr);
          status = TP_STATUS_NO_MEMORY;
        }
      else if (!tp_train_ok (train))
        {
          fprintf (stderr, "%s: error: --train: %s\n", path,
                   tp_train_error (train));
          tp_train_free (train);
          tp_session_free (session);
          free (source);
          return 1;
        }
    }
  if (json && train != NULL)
    {
      char *text = tp_session_to_json_with_train (session, train);
      if (text == NULL)
        {
          fputs ("topos: out of memory\n", stderr);
          status = TP_STATUS_NO_MEMORY;
        }
      else
        fputs (text, stdout);
      tp_string_free (text);
    }
  else if (json && !tp_session_write_json (session, members, write_out, NULL))
    {
      /* written as it is made: part of it may be out already */
      fputs ("topos: out of memory\n", stderr);
      status = TP_STATUS_NO_MEMORY;
    }
  else if (status == TP_STATUS_OK && all)
    {
      /* the original's readings: the six and the summary */
      for (int r = 0; r <= TP_READING_SUMMARY; r++)
        {
          printf ("== %s ==\n", tp_reading_name ((TpReading) r));
          fputs (tp_session_reading (session, (TpReading) r), stdout);
          if (r < TP_READING_SUMMARY)
            putchar ('\n');
        }
    }
  else if (status == TP_STATUS_OK && n_readings == 1 && !train_reading)
    fputs (tp_session_reading (session, readings[0]), stdout);
  else if (status == TP_STATUS_OK)
    for (size_t k = 0; k < n_readings; k++)
      {
        printf ("%s== %s ==\n", k > 0 ? "\n" : "",
                tp_reading_name (readings[k]));
        fputs (tp_session_reading (session, readings[k]), stdout);
      }
  if (status == TP_STATUS_OK && memory_path != NULL)
    {
      const char *svg = tp_session_memory_svg (session);
      FILE *m = fopen (memory_path, "wb");
      bool written = m != NULL && fputs (svg, m) >= 0;
      if (m != NULL && fclose (m) != 0)
        written = false;
      if (!written)
        {
          fprintf (stderr, "topos: cannot write %s: %s\n", memory_path,
                   strerror (errno));
          tp_train_free (train);
          tp_session_free (session);
          free (source);
          fflush (stdout);
          return 2;
        }
    }
  if (!json && train != NULL && train_reading)
    {
      if (all || n_readings > 0)
        fputs ("\n== train ==\n", stdout);
      fputs (tp_train_reading (train), stdout);
    }
  if (train != NULL && train_svg != NULL)
    {
      const char *svg = tp_train_svg (train);
      FILE *out = fopen (train_svg, "wb");
      bool written = out != NULL
                     && fwrite (svg, 1, strlen (svg), out) == strlen (svg);
      written = out != NULL && fclose (out) == 0 && written;
      if (!written)
        {
          fprintf (stderr, "topos: cannot write %s\n", train_svg);
          tp_train_free (train);
          tp_session_free (session);
          free (source);
          return 2;
        }
    }
  tp_train_free (train);
#ifdef TP_HAVE_RENDER
  if (status == TP_STATUS_OK && (svg_path != NULL || png_path != NULL))
    {
      ExportFn export_picture = load_export ();
      int rc = export_picture == NULL
               ? 1
               : export_picture (tp_session_reading (session, TP_READING_DOT),
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
  free (remat_list);
  if (fflush (stdout) != 0)
    return 2;
  return status == TP_STATUS_OK ? 0 : 1;
}
