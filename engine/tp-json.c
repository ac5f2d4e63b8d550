/* tp-json.c: JSON text. */
#include "tp-json.h"

#include <string.h>

#include "tp-fmt.h"

/* Which of v's eight bytes need escaping: a byte below 0x20, or equal to
 * '"', '\\' or 0x7F, sets its high bit in one of these words.  A borrow
 * can set a high bit above a byte that needs escaping, never below one,
 * so the lowest set bit is exact. */
static inline uint64_t
escape_mask8 (uint64_t v)
{
  const uint64_t ones = UINT64_C (0x0101010101010101);
  uint64_t q = v ^ (ones * '"'), b = v ^ (ones * '\\');
  uint64_t d = v ^ (ones * 0x7F);

  return (((v - ones * 0x20) & ~v) | ((q - ones) & ~q) | ((b - ones) & ~b)
          | ((d - ones) & ~d))
         & UINT64_C (0x8080808080808080);
}

/* Per byte, the letter after its backslash when it needs escaping ('u'
 * for \u00XX), else 0. */
static const unsigned char escape_letter[256] = {
  'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 't', 'n', 'u', 'u', 'r', 'u', 'u',
  'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u',
  ['"'] = '"', ['\\'] = '\\', [0x7F] = 'u',
};

/* Escapes text into w, which has room for 6 bytes per byte; returns the
 * end.  Eight bytes are read at a time (on little-endian machines, the
 * first byte in the lowest bits) and copied up to the first that needs
 * escaping; that one is looked up in a table rather than sorted by a
 * switch, whose jump the readings' mix of quotes and newlines kept
 * mispredicting (a third of the time in wasm, an eighth natively). */
static char *
escape_into (char *w, const char *text, size_t len)
{
  static const char hex[] = "0123456789abcdef";
  size_t i = 0;

  while (i < len)
    {
      unsigned char c, letter;
#if defined (__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
      if (len - i >= 8)
        {
          uint64_t v, m;
          unsigned clean;
          memcpy (&v, text + i, 8);
          m = escape_mask8 (v);
          memcpy (w, &v, 8);
          if (m == 0)
            {
              w += 8;
              i += 8;
              continue;
            }
          clean = (unsigned) __builtin_ctzll (m) / 8;
          w += clean;
          i += clean;
        }
#endif
      c = (unsigned char) text[i++];
      letter = escape_letter[c];
      if (letter == 0)
        {
          *w++ = (char) c;
          continue;
        }
      w[0] = '\\';
      w[1] = (char) letter;
      if (letter != 'u')
        {
          w += 2;
          continue;
        }
      w[2] = '0';
      w[3] = '0';
      w[4] = hex[c >> 4];
      w[5] = hex[c & 15];
      w += 6;
    }
  return w;
}

void
tp_json_string (TpBuf *out, const char *text, size_t len)
{
  tp_buf_putc (out, '"');
  tp_json_escaped (out, text, len);
  tp_buf_putc (out, '"');
}

void
tp_json_escaped (TpBuf *out, const char *text, size_t len)
{
  /* In chunks, so the room reserved for the worst case stays small. */
  const size_t chunk = 4096;

  for (size_t at = 0; at < len; at += chunk)
    {
      size_t n = len - at < chunk ? len - at : chunk;
      char *w;
      if (!tp_buf_reserve (out, 6 * n + 1))
        return;
      w = escape_into (out->data + out->len, text + at, n);
      out->len = (size_t) (w - out->data);
      out->data[out->len] = '\0';
    }
}

void
tp_json_f32 (TpBuf *out, float value)
{
  if (value != value)
    tp_buf_puts (out, "\"NaN\"");
  else if (value > 3.4028235e38f)
    tp_buf_puts (out, "\"inf\"");
  else if (value < -3.4028235e38f)
    tp_buf_puts (out, "\"-inf\"");
  else
    tp_buf_f32 (out, value);
}

void
tp_json_double (TpBuf *out, double value)
{
  double m = value < 0 ? -value : value;
  int e = 0;
  char digits[TP_FMT_F32_MAX];

  if (value != value || m - m != 0.0 || m == 0.0
      || (m <= 3.4e38 && m >= 1.2e-38))
    {
      tp_json_f32 (out, (float) value);
      return;
    }
  while (m >= 10.0)
    {
      m /= 10.0;
      e++;
    }
  while (m < 1.0)
    {
      m *= 10.0;
      e--;
    }
  tp_fmt_f32_display ((float) m, digits);
  if (value < 0)
    tp_buf_putc (out, '-');
  tp_buf_puts (out, digits);
  tp_buf_putc (out, 'e');
  if (e < 0)
    {
      tp_buf_putc (out, '-');
      e = -e;
    }
  tp_buf_u64 (out, (uint64_t) e);
}

void
tp_json_dims (TpBuf *out, const TpShape *shape)
{
  tp_buf_putc (out, '[');
  for (uint32_t d = 0; d < shape->rank; d++)
    {
      if (d > 0)
        tp_buf_putc (out, ',');
      tp_buf_u64 (out, shape->dims[d]);
    }
  tp_buf_putc (out, ']');
}

void
tp_json_tensor_fields (TpBuf *out, const float *data, const TpShape *shape,
                       uint64_t *budget)
{
  uint64_t volume = tp_shape_volume (shape);

  tp_buf_puts (out, "\"shape\":");
  tp_json_dims (out, shape);
  tp_buf_puts (out, ",\"data\":");
  if (volume > *budget)
    {
      tp_buf_puts (out, "null,\"elided\":true");
      return;
    }
  *budget -= volume;
  tp_buf_putc (out, '[');
  for (uint64_t e = 0; e < volume; e++)
    {
      if (e > 0)
        tp_buf_putc (out, ',');
      tp_json_f32 (out, data[e]);
    }
  tp_buf_putc (out, ']');
}

void
tp_json_tensor_fields_text (TpBuf *out, const float *data,
                            const TpShape *shape, uint64_t *budget,
                            const TpTensorText *text)
{
  uint64_t volume = tp_shape_volume (shape);

  if (text == NULL || !text->finite || volume > *budget)
    {
      tp_json_tensor_fields (out, data, shape, budget);
      return;
    }
  *budget -= volume;
  tp_buf_puts (out, "\"shape\":");
  tp_json_dims (out, shape);
  tp_buf_puts (out, ",\"data\":[");
  tp_buf_append (out, text->text, text->len);
  tp_buf_putc (out, ']');
}

void
tp_json_tensor (TpBuf *out, const float *data, const TpShape *shape,
                uint64_t *budget)
{
  tp_buf_putc (out, '{');
  tp_json_tensor_fields (out, data, shape, budget);
  tp_buf_putc (out, '}');
}
