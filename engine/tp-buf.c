/* tp-buf.c: growable text buffer with sticky failure. */
#include "tp-buf.h"

#include "tp-engine.h"

#include <string.h>

#include "tp-alloc.h"
#include "tp-fmt.h"

void
tp_buf_init (TpBuf *buf)
{
  buf->data = NULL;
  buf->len = 0;
  buf->cap = 0;
  buf->failed = false;
}

void
tp_buf_clear (TpBuf *buf)
{
  tp_free (buf->data);
  tp_buf_init (buf);
}

bool
tp_buf_reserve (TpBuf *buf, size_t extra)
{
  size_t want;
  char *p;

  if (buf->failed)
    return false;
  if (buf->cap - buf->len > extra)
    return true;
  if (extra > SIZE_MAX / 4 - buf->len)
    {
      buf->failed = true;
      return false;
    }
  want = buf->cap < 256 ? 256 : buf->cap;
  while (want - buf->len <= extra)
    want += want / 2;
  p = tp_realloc (buf->data, want);
  if (p == NULL)
    {
      buf->failed = true;
      return false;
    }
  buf->data = p;
  buf->cap = want;
  return true;
}

void
tp_buf_spaces (TpBuf *buf, size_t count)
{
  if (!tp_buf_reserve (buf, count))
    return;
  memset (buf->data + buf->len, ' ', count);
  buf->len += count;
  buf->data[buf->len] = '\0';
}

void
tp_buf_pad_from (TpBuf *buf, size_t mark, size_t width)
{
  size_t have = buf->len - mark;

  if (!buf->failed && have < width)
    tp_buf_spaces (buf, width - have);
}

void
tp_buf_u64 (TpBuf *buf, uint64_t value)
{
  char tmp[24];
  size_t n = 0;

  do
    {
      tmp[sizeof tmp - 1 - n] = (char) ('0' + value % 10);
      value /= 10;
      n++;
    }
  while (value != 0);
  tp_buf_append (buf, tmp + sizeof tmp - n, n);
}

void
tp_buf_f32 (TpBuf *buf, float value)
{
  char tmp[TP_FMT_F32_MAX];
  size_t n = tp_fmt_f32_display (value, tmp);

  tp_buf_append (buf, tmp, n);
}

void
tp_buf_dims (TpBuf *buf, const uint32_t *dims, uint32_t n)
{
  tp_buf_putc (buf, '[');
  for (uint32_t i = 0; i < n; i++)
    {
      if (i > 0)
        tp_buf_append (buf, ", ", 2);
      tp_buf_u64 (buf, dims[i]);
    }
  tp_buf_putc (buf, ']');
}

void
tp_buf_shape (TpBuf *buf, const TpShape *shape)
{
  tp_buf_dims (buf, shape->dims, shape->rank);
}

char *
tp_buf_steal (TpBuf *buf)
{
  char *p;

  if (buf->failed)
    {
      tp_buf_clear (buf);
      return NULL;
    }
  if (buf->data == NULL && !tp_buf_reserve (buf, 1))
    return NULL;
  buf->data[buf->len] = '\0';
  p = buf->data;
  tp_buf_init (buf);
  return p;
}

void
tp_buf_grouped (TpBuf *buf, uint64_t value)
{
  char text[27];

  tp_buf_append (buf, text, tp_grouped_number (value, text));
}
