/* tp-hint.c: hints for the idioms learners try first (tp-hint.h). */
#include "tp-hint.h"

#include <stdbool.h>
#include <string.h>

/* The most rows a column of ones is written out for. */
#define ONES_SHOWN 8u

/* `ones = leaf [[1], [1], ...]` with n rows. */
static void
put_ones (TpBuf *m, uint32_t n)
{
  tp_buf_puts (m, "`ones = leaf [");
  for (uint32_t k = 0; k < n && k < ONES_SHOWN; k++)
    tp_buf_puts (m, k == 0 ? "[1]" : ", [1]");
  if (n > ONES_SHOWN)
    tp_buf_puts (m, ", ...");
  tp_buf_puts (m, "]`");
  if (n > ONES_SHOWN)
    {
      tp_buf_puts (m, " (");
      tp_buf_grouped (m, n);
      tp_buf_puts (m, " rows of [1])");
    }
}

void
tp_hint_row (TpBuf *m, const TpShape *a, const TpShape *b,
             const char *a_name, const char *b_name)
{
  /* the matrix is the rank-2 side with more than one row */
  bool a_wide = a->rank == 2 && a->dims[0] > 1
                && !(b->rank == 2 && b->dims[0] > a->dims[0]);
  const TpShape *wide = a_wide ? a : b, *row = a_wide ? b : a;
  const char *name = a_wide ? b_name : a_name;
  uint32_t n, cols;

  if (name == NULL)
    name = "b";
  if (wide->rank != 2 || wide->dims[0] < 2)
    return;
  n = wide->dims[0];
  cols = wide->dims[1];
  if (row->rank == 2 && row->dims[0] == 1 && row->dims[1] == cols)
    {
      tp_buf_puts (m, "; to use the [1, ");
      tp_buf_u64 (m, cols);
      tp_buf_puts (m, "] row for each of the ");
      tp_buf_grouped (m, n);
      tp_buf_puts (m, " rows, spread it first: `ones @ ");
      tp_buf_puts (m, name);
      tp_buf_puts (m, "`, with ");
      put_ones (m, n);
    }
  else if (row->rank == 1 && row->dims[0] == cols)
    {
      tp_buf_puts (m, "; to use it for each of the ");
      tp_buf_grouped (m, n);
      tp_buf_puts (m, " rows, make it a row and spread it: `ones @ reshape(");
      tp_buf_puts (m, name);
      tp_buf_puts (m, ", [1, ");
      tp_buf_u64 (m, cols);
      tp_buf_puts (m, "])`, with ");
      put_ones (m, n);
    }
}

void
tp_hint_function (TpBuf *m, const char *name, size_t len)
{
  if ((len == 4 && memcmp (name, "mean", 4) == 0)
      || (len == 7 && memcmp (name, "average", 7) == 0))
    tp_buf_puts (m, "; for the mean of all N elements write `sum(x) / N`, "
                    "and `mean_along(x, axis)` for the mean along one axis");
}
