/* tp-texts.h: each of a set of tensors (a compile's node values, forward
 * mode's direction) as text, formatted once per compile.
 *
 * Formatting f32s is most of what writing values costs, and the values
 * reading, the JSON's tensors and nodes, the forward reading and the JAX
 * program write the same elements again.  The first writer that shows a
 * tensor whole formats its elements here, and the others copy them.  The
 * text of an f32 is a function of its bits, so a tensor whose elements
 * have another's bits shares that one's text (a gradient repeats many
 * forward values bit for bit: the first share added to a zero, a
 * broadcast).
 *
 * The texts live in the session's arena until the next compile.  At most
 * TP_TEXTS_ELEMENTS elements are kept; past that a writer formats on its
 * own, with the same bytes. */
#ifndef TP_TEXTS_H
#define TP_TEXTS_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-texts.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "tp-alloc.h"
#include "tp-buf.h"
#include "tp-tape.h"

#ifndef TP_TEXTS_ELEMENTS
#define TP_TEXTS_ELEMENTS (UINT64_C (1) << 20)
#endif

/* Bytes readable past a text's NUL, so that an element can be copied
 * in fixed-size pieces (tp_texts_copy). */
#define TP_TEXT_PAD 16

typedef struct
{
  const char *text;       /* each element's Rust Display, joined by ','
                             ("1,-0.5") and NUL-terminated, with
                             TP_TEXT_PAD bytes after */
  const uint8_t *widths;  /* per element, the length of its text */
  uint32_t len;           /* of text */
  bool finite;            /* no NaN or inf: text is also the JSON's */
} TpTensorText;

/* All zero is empty and unbound. */
typedef struct
{
  TpArena *arena;         /* where the texts live */
  uint32_t n;             /* tensors */
  float *const *values;   /* per tensor, its elements */
  const TpShape *shapes;  /* tensor k's shape is shapes[k], or */
  const TpNode *shape_of; /* shapes[shape_of[k]] when this is not NULL */
  TpTensorText **kept;    /* per tensor, once formatted (NULL before) */
  TpNode *slots;          /* open addressing by the bits' hash: a tensor
                             whose text is kept, or TP_NO_NODE */
  uint32_t mask;
  uint64_t elements;      /* kept so far */
  TpBuf scratch;          /* where a text is formatted first */
} TpTexts;

/* Binds the texts to n tensors, values[k] of shape shapes[k] (or
 * shapes[shape_of[k]] when shape_of is not NULL), which stay as they are
 * until the arena's reset (the session binds a compile's values once
 * they are computed); the tables are made on the first tp_texts_get. */
void tp_texts_bind  (TpTexts *t, TpArena *arena, uint32_t n,
                     float *const *values, const TpShape *shapes,
                     const TpNode *shape_of);
/* Frees the scratch and unbinds (the arena's reset frees the texts). */
void tp_texts_clear (TpTexts *t);

/* Tensor k's elements as text, formatted the first time it is asked
 * for.  NULL (t may be NULL) when none is kept: an unbound t, k past the
 * tensors, TP_TEXTS_ELEMENTS reached, or memory ran out, which fails
 * out (the caller's text fails, as on every failed allocation). */
const TpTensorText *tp_texts_get (TpTexts *t, uint32_t k, TpBuf *out);

/* Appends the width bytes at from (an element of a text) to out: in
 * pieces of 16, as a variable-length copy of a few bytes costs more
 * than its bytes (a call, or a slow string instruction). */
static inline void
tp_texts_copy (TpBuf *out, const char *from, uint8_t width)
{
  char *to;

  if ((out->failed || out->cap - out->len <= (size_t) width + 16)
      && !tp_buf_reserve (out, (size_t) width + 16))
    return;
  to = out->data + out->len;
  for (unsigned k = 0; k < width; k += 16)
    memcpy (to + k, from + k, 16);
  out->len += width;
  out->data[out->len] = '\0';
}

#endif /* TP_TEXTS_H */
