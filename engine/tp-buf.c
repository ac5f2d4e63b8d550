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

/* Written in place: the room for the longest, then the digits. */
void
tp_buf_u64 (TpBuf *buf, uint64_t value)
{
  if ((buf->failed || buf->cap - buf->len <= 20)
      && !tp_buf_reserve (buf, 20))
    return;
  buf->len += tp_fmt_u64 (value, buf->data + buf->len);
  buf->data[buf->len] = '\0';
}

/* Formatted in place: the room for the longest, then the text's length. */
void
tp_buf_f32 (TpBuf *buf, float value)
{
  if ((buf->failed || buf->cap - buf->len <= TP_FMT_F32_MAX)
      && !tp_buf_reserve (buf, TP_FMT_F32_MAX))
    return;
  buf->len += tp_fmt_f32_display (value, buf->data + buf->len);
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
