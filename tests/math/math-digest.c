/* math-digest.c: digests of the engine's transcendentals on the whole
 * argument set of math-cases.c
 *
 *   math-digest
 *       one line per function: its name, the number of arguments and the
 *       FNV-1a 64 hash of the results' bit patterns (little-endian). The
 *       same source is built natively and with emcc, and /math/wasm in
 *       test-math.c requires the two outputs to be identical, so the
 *       WebAssembly build is shown to give the native bits.
 *   math-digest --arguments OUT
 *       writes the argument set to OUT, 4 little-endian bytes a pattern:
 *       the input of tests/math/ref's libm-ref.
 *   math-digest --blocks [RESULTS]
 *       the block digests of math-cases.h, of the engine's results or, given
 *       RESULTS (what libm-ref wrote for the set), of the crate's. The
 *       second form is how tests/math/ref/regenerate.sh records
 *       libm.digests, which /math/crate compares with the first.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "math-cases.h"

static int
fail (const char *what, const char *path)
{
  fprintf (stderr, "math-digest: %s%s%s\n", what, path ? ": " : "",
           path ? path : "");
  return 1;
}

static uint32_t
load_le (const unsigned char *p)
{
  return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16
         | (uint32_t) p[3] << 24;
}

static int
write_arguments (const uint32_t *xs, size_t n, const char *path)
{
  FILE *f = fopen (path, "wb");
  size_t i;

  if (f == NULL)
    return fail ("cannot write", path);
  for (i = 0; i < n; i++)
    {
      unsigned char b[4] = { (unsigned char) xs[i], (unsigned char) (xs[i] >> 8),
                             (unsigned char) (xs[i] >> 16),
                             (unsigned char) (xs[i] >> 24) };

      fwrite (b, 1, 4, f);
    }
  if (fclose (f) != 0)
    return fail ("cannot write", path);
  return 0;
}

/* Reads libm-ref's output for n arguments into results (MATH_N_FUNCTIONS
 * runs of n). */
static int
read_results (const char *path, uint32_t *results, size_t n)
{
  FILE *f = fopen (path, "rb");
  size_t i;
  unsigned char b[4];

  if (f == NULL)
    return fail ("cannot read", path);
  for (i = 0; i < n * MATH_N_FUNCTIONS; i++)
    {
      if (fread (b, 1, 4, f) != 4)
        {
          fclose (f);
          return fail ("too short for the argument set", path);
        }
      results[i] = load_le (b);
    }
  if (fread (b, 1, 1, f) != 0)
    {
      fclose (f);
      return fail ("longer than the argument set", path);
    }
  fclose (f);
  return 0;
}

int
main (int argc,
      char *argv[])
{
  size_t n = math_cases_count ();
  uint32_t *xs = malloc (n * sizeof *xs);
  uint32_t *results = NULL;
  size_t f, i, b;
  int k, status = 0;

  if (xs == NULL)
    return fail ("out of memory", NULL);
  math_cases_fill (xs);

  if (argc == 3 && strcmp (argv[1], "--arguments") == 0)
    status = write_arguments (xs, n, argv[2]);
  else if ((argc == 2 || argc == 3) && strcmp (argv[1], "--blocks") == 0)
    {
      results = malloc (n * MATH_N_FUNCTIONS * sizeof *results);
      if (results == NULL)
        status = fail ("out of memory", NULL);
      else if (argc == 3)
        status = read_results (argv[2], results, n);
      else
        for (f = 0; f < MATH_N_FUNCTIONS; f++)
          for (i = 0; i < n; i++)
            results[f * n + i]
              = math_bits (math_functions[f].fn (math_float (xs[i])));
      for (f = 0; status == 0 && f < MATH_N_FUNCTIONS; f++)
        for (b = 0; b < math_block_count (n); b++)
          {
            char line[MATH_DIGEST_LINE];

            math_digest_line (line, (int) f, b, xs, results + f * n, n);
            fputs (line, stdout);
          }
    }
  else if (argc == 1)
    for (f = 0; f < MATH_N_FUNCTIONS; f++)
      {
        uint64_t h = UINT64_C (0xcbf29ce484222325);

        for (i = 0; i < n; i++)
          {
            uint32_t u = math_bits (math_functions[f].fn (math_float (xs[i])));

            for (k = 0; k < 32; k += 8)
              {
                h ^= (u >> k) & 0xffu;
                h *= UINT64_C (0x100000001b3);
              }
          }
        printf ("%s %zu %016" PRIx64 "\n", math_functions[f].name, n, h);
      }
  else
    {
      fprintf (stderr, "usage: math-digest [--arguments OUT | --blocks [RESULTS]]\n");
      status = 2;
    }

  free (results);
  free (xs);
  return status;
}
