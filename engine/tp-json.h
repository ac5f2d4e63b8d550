/* tp-json.h: writing JSON text. */
#ifndef TP_JSON_H
#define TP_JSON_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-json.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>

#include "tp-buf.h"
#include "tp-texts.h"

/* A JSON string literal, quotes included; text is valid UTF-8. */
void tp_json_string    (TpBuf *out, const char *text, size_t len);
/* text escaped as inside a JSON string, without the quotes. */
void tp_json_escaped   (TpBuf *out, const char *text, size_t len);
/* A number as Rust Display writes it; non-finite as "NaN", "inf", "-inf". */
void tp_json_f32       (TpBuf *out, float value);
void tp_json_dims      (TpBuf *out, const TpShape *shape);
/* A double as a JSON number: rounded to f32 and written as tp_json_f32
 * does where an f32 holds it; past the f32 range (a chart's axis over a
 * diverging run), its f32-rounded digits with an exponent ("1e40"). */
void tp_json_double    (TpBuf *out, double value);
/* {"shape": [..], "data": [..]}; data is null (and "elided": true) when
 * the tensor does not fit the remaining budget. */
void tp_json_tensor    (TpBuf *out, const float *data, const TpShape *shape,
                        uint64_t *budget);
/* The same members without the braces, for an object that has more. */
void tp_json_tensor_fields (TpBuf *out, const float *data,
                            const TpShape *shape, uint64_t *budget);
/* tp_json_tensor_fields, the elements copied from text (data's, kept by
 * tp-texts.h) when it is not NULL and finite: the same bytes. */
void tp_json_tensor_fields_text (TpBuf *out, const float *data,
                                 const TpShape *shape, uint64_t *budget,
                                 const TpTensorText *text);

/* An object's key and its colon, after a comma unless first: inline, so
 * a literal key's length is known when compiled (strlen is a call in
 * wasm). */
static inline void
tp_json_key (TpBuf *out, const char *key, bool first)
{
  if (!first)
    tp_buf_putc (out, ',');
  tp_json_string (out, key, strlen (key));
  tp_buf_putc (out, ':');
}

#endif /* TP_JSON_H */
