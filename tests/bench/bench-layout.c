/* bench-layout: how long graphviz takes to lay out (and draw) the
 * picture, for the samples and for generated forward+gradient tapes, with
 * the picture's design beside the plain design in the same run.
 *
 * Designs, all from the engine's DOT reading:
 *   ours      the DOT as the engine writes it: the gradient band mirrored,
 *             so an edge from a saved forward value into the gradient
 *             node that reuses it spans a rank or two, and each parameter
 *             ranked level with its gradient;
 *   plain     the same DOT with every gradient edge pointing down
 *             (operand above reader) and nothing paired, the usual way to
 *             draw a tape: the saved-value edges then run from the top of
 *             the forward band to the bottom of the gradient band;
 *   plain-nc  plain, with the saved-value edges marked constraint=false;
 *   no-saved  plain without the saved-value edges at all (a lower bound:
 *             what the layout costs when those edges are not drawn).
 * Ratios are plain/ours and so on, measured in the same run on the same
 * graphs.  Not a test: it asserts nothing about time.
 *
 * Usage: bench-layout [--quick] [SAMPLES_DIR]
 *   --quick  skip the plain designs above 200 nodes (they take minutes). */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-util.h"
#include "tp-buf.h"
#include "tp-engine.h"
#include "tp-render.h"

typedef enum
{
  OURS,
  PLAIN,
  PLAIN_NC,
  NO_SAVED,
  N_DESIGNS
} Design;

static const char *const design_names[N_DESIGNS] = {
  "ours", "plain", "plain-nc", "no-saved",
};

/* Rewrites the engine's DOT into another design, line by line. */
static char *
redesign (const char *dot, Design design)
{
  TpBuf out;
  const char *line = dot;

  tp_buf_init (&out);
  while (*line != '\0')
    {
      const char *end = strchr (line, '\n');
      size_t len = end != NULL ? (size_t) (end - line) + 1 : strlen (line);
      unsigned a, b;
      int head_end = 0;
      bool edge = sscanf (line, "  n%u -> n%u [%n", &a, &b, &head_end) == 2
                  && head_end > 0;
      bool back = edge && memmem (line, len, "dir=back", 8) != NULL;
      bool saved = edge && memmem (line, len, " saved", 6) != NULL;

      bool pairing = memmem (line, len, "rank=same", 9) != NULL
                     || memmem (line, len, "\"pairing\"", 9) != NULL;

      if (design != OURS && pairing)
        ;                       /* the plain designs pair nothing */
      else if (design == OURS || !edge || (!back && !saved))
        tp_buf_append (&out, line, len);
      else if (saved && design == NO_SAVED)
        ;
      else if (saved)
        {
          /* "...];\n" -> "..., constraint=false];\n" for plain-nc */
          const char *close = line + len - 3;
          tp_buf_append (&out, line, (size_t) (close - line));
          if (design == PLAIN_NC)
            tp_buf_puts (&out, ", constraint=false");
          tp_buf_append (&out, close, 3);
        }
      else
        {
          /* A gradient edge written reader -> operand with dir=back
           * becomes operand -> reader. */
          const char *rest = line + head_end;
          const char *dir = memmem (line, len, ", dir=back", 10);
          char head[64];
          snprintf (head, sizeof head, "  n%u -> n%u [", b, a);
          tp_buf_puts (&out, head);
          tp_buf_append (&out, rest, (size_t) (dir - rest));
          tp_buf_append (&out, dir + 10, len - (size_t) (dir + 10 - line));
        }
      line += len;
    }
  return tp_buf_steal (&out);
}

/* Seconds for one tp_render_new: the minimum over a few runs (fewer for
 * slow graphs).  With draw, also the cairo recording and the SVG. */
static uint64_t last_cost;

static double
time_render (const char *dot, bool draw, bool *degraded)
{
  TpRenderOptions options = { .budget = UINT32_MAX, .svg = draw, .draw = draw };
  double best = 1e30, spent = 0;

  /* At least three runs (the machine may be busy: the minimum is the
   * figure), at most seven or about three seconds; a run over two
   * seconds is measured once. */
  for (int rep = 0; rep < 7 && (rep < 3 || spent < 3.0); rep++)
    {
      double t0 = bench_seconds (CLOCK_MONOTONIC), dt;
      TpRender *r = tp_render_new (dot, &options);
      dt = bench_seconds (CLOCK_MONOTONIC) - t0;
      if (r == NULL || !tp_render_ok (r))
        {
          fprintf (stderr, "bench-layout: render failed: %s\n",
                   r != NULL ? tp_render_diagnostics (r) : "out of memory");
          exit (1);
        }
      *degraded = tp_render_degraded (r);
      last_cost = tp_render_cost (r);
      tp_render_free (r);
      best = dt < best ? dt : best;
      spent += dt;
      if (dt > 2.0)
        break;
    }
  return best;
}

/* A forward+gradient tape of about `nodes` nodes: layers of a small
 * network whose ops vary (tanh, sin, exp, div, relu), ending in a scalar
 * loss.  A "chain" layer also reads the layer before last; a "tangled"
 * layer reads a pseudo-random earlier layer, so forward edges are long
 * too (the harder case for any design). */
static char *
generated_program (uint32_t nodes, bool tangled, uint32_t *got)
{
  for (uint32_t layers = 1;; layers++)
    {
      TpBuf src;
      TpSession *s = tp_session_new ();
      uint32_t seed = 12345;
      char *text;
      unsigned n = 0;

      tp_buf_init (&src);
      tp_buf_puts (&src, "x = input [4, 3]\nh0 = x\n");
      for (uint32_t k = 1; k <= layers; k++)
        {
          static const char *const forms[4] = {
            "h%u = tanh(h%u @ w%u)\n",
            "h%u = sin(h%u @ w%u) * h%u\n",
            "h%u = (h%u @ w%u) / (exp(h%u) + 1.0)\n",
            "h%u = relu(h%u @ w%u) - h%u\n",
          };
          char line[160];
          uint32_t form = k % 4, skip = k >= 2 ? k - 2 : 0;
          if (tangled)
            {
              seed = seed * 1103515245u + 12345u;
              form = (seed >> 16) % 4;
              seed = seed * 1103515245u + 12345u;
              skip = (seed >> 16) % k;
            }
          snprintf (line, sizeof line, "w%u = parameter [3, 3]\n", k);
          tp_buf_puts (&src, line);
          snprintf (line, sizeof line, forms[form], k, k - 1, k, skip);
          tp_buf_puts (&src, line);
        }
      {
        char line[64];
        snprintf (line, sizeof line, "loss = sum(h%u * h%u)\n", layers,
                  layers);
        tp_buf_puts (&src, line);
      }
      text = tp_buf_steal (&src);
      if (tp_session_compile (s, text, strlen (text), NULL) != TP_STATUS_OK)
        {
          fprintf (stderr, "bench-layout: generated program refused\n");
          exit (1);
        }
      sscanf (tp_session_reading (s, TP_READING_SUMMARY), "%u", &n);
      tp_session_free (s);
      if (n >= nodes)
        {
          *got = n;
          return text;
        }
      free (text);
    }
}

static void
bench (const char *label, const char *src, bool plain_too)
{
  TpSession *s = tp_session_new ();
  const char *dot;
  double t[N_DESIGNS] = { 0 }, full;
  bool degraded = false, deg;
  unsigned nodes = 0;

  if (tp_session_compile (s, src, strlen (src), NULL) != TP_STATUS_OK)
    {
      fprintf (stderr, "bench-layout: %s is refused\n", label);
      exit (1);
    }
  dot = tp_session_reading (s, TP_READING_DOT);
  sscanf (tp_session_reading (s, TP_READING_SUMMARY), "%u", &nodes);
  t[OURS] = time_render (dot, false, &degraded);
  full = time_render (dot, true, &deg);
  printf ("%-18s %6u %8s %7llu %9.1f %9.1f", label, nodes,
          strstr (dot, "class=\"note\"") != NULL ? "reduced" : "full",
          (unsigned long long) last_cost, t[OURS] * 1e3, full * 1e3);
  for (int d = PLAIN; d < N_DESIGNS; d++)
    {
      char *other;
      if (!plain_too || strstr (dot, "dir=back") == NULL)
        {
          printf (" %9s %7s", "-", "-");
          continue;
        }
      other = redesign (dot, (Design) d);
      t[d] = time_render (other, false, &deg);
      free (other);
      printf (" %9.1f %6.1fx", t[d] * 1e3, t[d] / t[OURS]);
    }
  printf ("\n");
  fflush (stdout);
  tp_session_free (s);
}

int
main (int argc, char **argv)
{
  static const char *const samples[] = {
    "readme", "dense-layer", "classifier", "two-layers", "not-yet-a-scalar",
  };
  static const uint32_t sizes[] = { 100, 200, 300, 400, 1000 };
  const char *dir = "resources/samples";
  bool quick = false;

  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--quick") == 0)
      quick = true;
    else
      dir = argv[i];

  printf ("graphviz dot layout, ms (min of 3 to 7 runs; one run when a run "
          "takes over 2 s)\n"
          "ours+render adds the cairo recording and the SVG text; "
          "each other design: time and ratio to ours\n");
  printf ("%-18s %6s %8s %7s %9s %9s", "graph", "nodes", "picture", "cost",
          "ours", "+render");
  for (int d = PLAIN; d < N_DESIGNS; d++)
    printf (" %9s %7s", design_names[d], "ratio");
  printf ("\n");
  for (size_t k = 0; k < sizeof samples / sizeof samples[0]; k++)
    {
      char path[1024];
      char *src;
      snprintf (path, sizeof path, "%s/%s.tape", dir, samples[k]);
      src = bench_read_file (path, NULL);
      if (src == NULL)
        {
          fprintf (stderr, "bench-layout: cannot read %s\n", path);
          return 1;
        }
      bench (samples[k], src, true);
      free (src);
    }
  for (int tangled = 0; tangled < 2; tangled++)
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
      {
        uint32_t got;
        char *src = generated_program (sizes[k], tangled, &got);
        char label[32];
        snprintf (label, sizeof label, "%s-%u", tangled ? "tangled" : "chain",
                  sizes[k]);
        bench (label, src, sizes[k] <= (quick ? 200u : 400u));
        free (src);
      }
  return 0;
}
