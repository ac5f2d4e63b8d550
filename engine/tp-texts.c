/* tp-texts.c: tensors' elements as text, formatted once (tp-texts.h). */
#include "tp-texts.h"

#include <string.h>

#include "tp-fmt.h"

void
tp_texts_bind (TpTexts *t, TpArena *arena, uint32_t n, float *const *values,
               const TpShape *shapes, const TpNode *shape_of)
{
  t->arena = arena;
  t->n = n;
  t->values = values;
  t->shapes = shapes;
  t->shape_of = shape_of;
  t->kept = NULL;
  t->slots = NULL;
  t->mask = 0;
  t->elements = 0;
}

void
tp_texts_clear (TpTexts *t)
{
  tp_buf_clear (&t->scratch);
  memset (t, 0, sizeof *t);
}

static uint64_t
volume_of (const TpTexts *t, uint32_t k)
{
  return tp_shape_volume (&t->shapes[t->shape_of != NULL ? t->shape_of[k]
                                                         : k]);
}

/* A hash of n f32s' bits (FNV-1a over the words). */
static uint64_t
hash_bits (const float *v, uint64_t n)
{
  uint64_t h = UINT64_C (14695981039346656037);

  for (uint64_t e = 0; e < n; e++)
    {
      uint32_t bits;
      memcpy (&bits, &v[e], sizeof bits);
      h = (h ^ bits) * UINT64_C (1099511628211);
    }
  return h ^ (h >> 29);
}

/* The tables: per tensor its text, and twice as many slots as tensors. */
static bool
make_tables (TpTexts *t)
{
  uint32_t n = t->n, slots = 16;

  while (slots < 2 * (n + 1) && slots < (UINT32_C (1) << 30))
    slots *= 2;
  t->kept = tp_arena_calloc (t->arena, (size_t) n + 1, sizeof *t->kept);
  t->slots = tp_arena_alloc (t->arena, (size_t) slots * sizeof *t->slots);
  if (t->kept == NULL || t->slots == NULL)
    {
      t->kept = NULL;
      return false;
    }
  for (uint32_t k = 0; k < slots; k++)
    t->slots[k] = TP_NO_NODE;
  t->mask = slots - 1;
  return true;
}

/* The slot of tensor k's bits: a tensor whose elements have them, or
 * the empty slot where k belongs. */
static TpNode *
find_same (TpTexts *t, uint32_t k, uint64_t volume)
{
  const float *v = t->values[k];
  uint32_t i = (uint32_t) hash_bits (v, volume) & t->mask;

  for (;; i = (i + 1) & t->mask)
    {
      TpNode j = t->slots[i];
      if (j == TP_NO_NODE
          || (volume_of (t, j) == volume
              && memcmp (t->values[j], v, (size_t) volume * sizeof *v) == 0))
        return &t->slots[i];
    }
}

/* Formats tensor k's volume elements into a new text in the arena. */
static TpTensorText *
format_tensor (TpTexts *t, uint32_t k, uint64_t volume)
{
  const float *v = t->values[k];
  TpBuf *out = &t->scratch;
  TpTensorText *text;
  uint8_t *widths;
  char *copy;
  bool finite = true;

  text = tp_arena_alloc (t->arena, sizeof *text + (size_t) volume);
  if (text == NULL)
    return NULL;
  widths = (uint8_t *) (text + 1);
  out->len = 0;
  out->failed = false;
  for (uint64_t e = 0; e < volume; e++)
    {
      uint32_t bits;
      size_t n;
      if ((out->cap - out->len <= TP_FMT_F32_MAX + 1)
          && !tp_buf_reserve (out, TP_FMT_F32_MAX + 1))
        return NULL;
      memcpy (&bits, &v[e], sizeof bits);
      finite = finite && (bits & 0x7f800000u) != 0x7f800000u;
      n = tp_fmt_f32_display (v[e], out->data + out->len);
      widths[e] = (uint8_t) n;
      out->len += n;
      out->data[out->len++] = ',';
    }
  /* without the last comma, and TP_TEXT_PAD bytes after the NUL */
  copy = tp_arena_alloc (t->arena, out->len + TP_TEXT_PAD);
  if (copy == NULL)
    return NULL;
  memcpy (copy, out->data, out->len - 1);
  copy[out->len - 1] = '\0';
  text->text = copy;
  text->widths = widths;
  text->len = (uint32_t) (out->len - 1);
  text->finite = finite;
  return text;
}

const TpTensorText *
tp_texts_get (TpTexts *t, uint32_t k, TpBuf *out)
{
  TpNode *slot;
  uint64_t volume;
  TpTensorText *text;

  if (t == NULL || t->values == NULL || k >= t->n || t->values[k] == NULL)
    return NULL;
  if (t->kept != NULL && t->kept[k] != NULL)
    return t->kept[k];
  volume = volume_of (t, k);
  /* (an element's text is at most 48 bytes: a tensor within the limit
   * has a text shorter than UINT32_MAX) */
  if (volume == 0 || volume > TP_TEXTS_ELEMENTS - t->elements)
    return NULL;
  if (t->kept == NULL && !make_tables (t))
    {
      out->failed = true;
      return NULL;
    }
  slot = find_same (t, k, volume);
  if (*slot != TP_NO_NODE)
    {
      t->kept[k] = t->kept[*slot];
      return t->kept[k];
    }
  text = format_tensor (t, k, volume);
  if (text == NULL)
    {
      out->failed = true;
      return NULL;
    }
  *slot = k;
  t->kept[k] = text;
  t->elements += volume;
  return text;
}
