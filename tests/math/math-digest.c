/* math-digest.c: a digest of the engine's transcendentals on the whole
 * argument set of math-cases.c
 *
 * Prints one line per function: its name, the number of arguments and the
 * FNV-1a 64 hash of the results' bit patterns (little-endian). The same
 * source is built natively and with emcc, and /math/wasm in test-math.c
 * requires the two outputs to be identical, so the WebAssembly build is
 * shown to give the native bits (which /math/crate shows to be libm's).
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "math-cases.h"

int
main (void)
{
  size_t n = math_cases_count ();
  uint32_t *xs = malloc (n * sizeof *xs);
  size_t f, i;
  int b;

  if (xs == NULL)
    {
      fprintf (stderr, "math-digest: out of memory\n");
      return 1;
    }
  math_cases_fill (xs);

  for (f = 0; f < MATH_N_FUNCTIONS; f++)
    {
      uint64_t h = UINT64_C (0xcbf29ce484222325);

      for (i = 0; i < n; i++)
        {
          uint32_t u = math_bits (math_functions[f].fn (math_float (xs[i])));

          for (b = 0; b < 32; b += 8)
            {
              h ^= (u >> b) & 0xffu;
              h *= UINT64_C (0x100000001b3);
            }
        }
      printf ("%s %zu %016" PRIx64 "\n", math_functions[f].name, n, h);
    }

  free (xs);
  return 0;
}
