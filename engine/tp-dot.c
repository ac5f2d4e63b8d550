/* tp-dot.c: PLACEHOLDER until the picture of issue 4 lands: it writes
 * nothing, so the dot reading is empty. */
#include "tp-dot.h"

void
tp_dot_write (const TpDotInput *in, TpBuf *out)
{
  (void) in;
  (void) out;
}
