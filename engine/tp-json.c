/* tp-json.c: JSON text. */
#include "tp-json.h"

#include <string.h>

void
tp_json_string (TpBuf *out, const char *text, size_t len)
{
  static const char hex[] = "0123456789abcdef";
  size_t run = 0;

  tp_buf_putc (out, '"');
  for (size_t i = 0; i < len; i++)
    {
      unsigned char c = (unsigned char) text[i];
      if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7F)
        continue;
      tp_buf_append (out, text + run, i - run);
      run = i + 1;
      switch (c)
        {
        case '"':
          tp_buf_puts (out, "\\\"");
          break;
        case '\\':
          tp_buf_puts (out, "\\\\");
          break;
        case '\n':
          tp_buf_puts (out, "\\n");
          break;
        case '\t':
          tp_buf_puts (out, "\\t");
          break;
        case '\r':
          tp_buf_puts (out, "\\r");
          break;
        default:
          tp_buf_puts (out, "\\u00");
          tp_buf_putc (out, hex[c >> 4]);
          tp_buf_putc (out, hex[c & 15]);
          break;
        }
    }
  tp_buf_append (out, text + run, len - run);
  tp_buf_putc (out, '"');
}

void
tp_json_key (TpBuf *out, const char *key, bool first)
{
  if (!first)
    tp_buf_putc (out, ',');
  tp_json_string (out, key, strlen (key));
  tp_buf_putc (out, ':');
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
tp_json_tensor (TpBuf *out, const float *data, const TpShape *shape,
                uint64_t *budget)
{
  tp_buf_putc (out, '{');
  tp_json_tensor_fields (out, data, shape, budget);
  tp_buf_putc (out, '}');
}
