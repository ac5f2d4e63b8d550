/* tp-buf.h: a growable text buffer.  A failed allocation makes the buffer
 * "failed": later appends do nothing and tp_buf_failed says so, so callers
 * check once at the end instead of after every append. */
#ifndef TP_BUF_H
#define TP_BUF_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-buf.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tp-shape.h"

typedef struct
{
  char *data;     /* NUL-terminated when len > 0 or after tp_buf_steal */
  size_t len;
  size_t cap;
  bool failed;
} TpBuf;

void   tp_buf_init      (TpBuf *buf);
void   tp_buf_clear     (TpBuf *buf);   /* frees */
bool   tp_buf_reserve   (TpBuf *buf, size_t extra);
void   tp_buf_spaces    (TpBuf *buf, size_t count);
/* Pads with spaces until the text since mark is width bytes long. */
void   tp_buf_pad_from  (TpBuf *buf, size_t mark, size_t width);
void   tp_buf_u64       (TpBuf *buf, uint64_t value);
/* A count with its thousands grouped, "2,442,657,804", as messages write
 * big numbers (tp_grouped_number). */
void   tp_buf_grouped   (TpBuf *buf, uint64_t value);
void   tp_buf_f32       (TpBuf *buf, float value);        /* Rust Display */
void   tp_buf_shape     (TpBuf *buf, const TpShape *shape); /* "[2, 3]" */
void   tp_buf_dims      (TpBuf *buf, const uint32_t *dims, uint32_t n);
/* Returns the NUL-terminated text ("" when empty) and leaves buf empty.
 * NULL if the buffer failed.  Caller frees with tp_free. */
char  *tp_buf_steal     (TpBuf *buf);

/* The appends every writer makes per token: inline, so the common case
 * (room left, not failed) is a copy and no call. */
static inline void
tp_buf_append (TpBuf *buf, const char *text, size_t len)
{
  if ((buf->failed || buf->cap - buf->len <= len)
      && !tp_buf_reserve (buf, len))
    return;
#if defined (__wasm__)
  /* wasm: a call to memcpy (or a memory.copy) costs more than the few
   * bytes of most tokens; copy those here.  A length known when this is
   * compiled (a literal's) is left to memcpy, which becomes stores. */
  if (!__builtin_constant_p (len) && len <= 16)
    {
      char *d = buf->data + buf->len;
      for (size_t k = 0; k < len; k++)
        d[k] = text[k];
    }
  else
#endif
    memcpy (buf->data + buf->len, text, len);
  buf->len += len;
  buf->data[buf->len] = '\0';
}

static inline void
tp_buf_puts (TpBuf *buf, const char *text)
{
#if defined (__wasm__)
  /* wasm: most texts not known when this is compiled are a few bytes (a
   * name, a colour), shorter than a call to strlen costs there. */
  if (!__builtin_constant_p (strlen (text)))
    {
      size_t n = 0;
      while (text[n] != '\0')
        n++;
      tp_buf_append (buf, text, n);
      return;
    }
#endif
  tp_buf_append (buf, text, strlen (text));
}

static inline void
tp_buf_putc (TpBuf *buf, char c)
{
  if ((buf->failed || buf->cap - buf->len <= 1) && !tp_buf_reserve (buf, 1))
    return;
  buf->data[buf->len++] = c;
  buf->data[buf->len] = '\0';
}

#endif /* TP_BUF_H */
