/* tp-session-json-teach.c: the JSON members of the reading map (map,
 * gradient_nodes, sources) and of the teaching model (origins, steps,
 * display_names, train_settings, defaults). */
#include "tp-session-json.h"

#include <stddef.h>
#include <string.h>

#include "tp-fmt.h"
#include "tp-json.h"

static char *
put_node_or_null (char *p, uint32_t node)
{
  if (node != TP_MAP_NO_NODE)
    return p + tp_fmt_u64 (node, p);
  memcpy (p, "null", 4);
  return p + 4;
}

/* n bytes of text at p, a byte at a time: the names here are a few bytes
 * long, shorter than a call to memcpy costs in wasm. */
static char *
put_name (char *p, const char *text, size_t n)
{
  for (size_t k = 0; k < n; k++)
    p[k] = text[k];
  return p + n;
}

#define PUT_LITERAL(p, text) \
  (memcpy ((p), (text), sizeof (text) - 1), (p) + sizeof (text) - 1)

/* Room for one entry of the map, written in place: the longest is a ref
 * of three 10-digit numbers, a token name and a node, under 96 bytes. */
#define MAP_ENTRY_MAX 96

/* Where the next entry goes, after its comma unless it is the first;
 * NULL when out failed. */
static char *
entry_start (TpBuf *out, bool first)
{
  char *p;

  if ((out->failed || out->cap - out->len <= MAP_ENTRY_MAX)
      && !tp_buf_reserve (out, MAP_ENTRY_MAX))
    return NULL;
  p = out->data + out->len;
  if (!first)
    *p++ = ',';
  return p;
}

/* The entry written up to p. */
static void
entry_end (TpBuf *out, char *p)
{
  *p = '\0';
  out->len = (size_t) (p - out->data);
}

/* The "map" member: per text reading its lines and refs.  A big
 * program's map has hundreds of thousands of entries, each written
 * straight into the output. */
void
tp_json_write_map (TpJsonWriter *w)
{
  const TpSession *s = w->s;
  TpBuf *out = w->out;
  size_t role_len[TP_N_ROLES], token_len[TP_N_TOKENS];

  for (int k = 0; k < TP_N_ROLES; k++)
    role_len[k] = strlen (tp_session_role_names[k]);
  for (int k = 0; k < TP_N_TOKENS; k++)
    token_len[k] = strlen (tp_session_token_names[k]);
  tp_buf_putc (out, '{');
  for (int r = 0; r < TP_MAP_READINGS; r++)
    {
      const TpMap *m = s->status == TP_STATUS_OK ? &s->maps[r] : NULL;
      uint32_t n_lines = m != NULL ? m->n_lines : 0;
      uint32_t n_refs = m != NULL ? m->n_refs : 0;

      tp_json_key (out, tp_reading_name ((TpReading) r), r == 0);
      tp_buf_puts (out, "{\"lines\":[");
      for (uint32_t k = 0; k < n_lines; k++)
        {
          const TpMapLineRec *l = &m->lines[k];
          char *p = entry_start (out, k == 0);
          if (p == NULL)
            return;
          p = PUT_LITERAL (p, "{\"node\":");
          p = put_node_or_null (p, l->node);
          p = PUT_LITERAL (p, ",\"role\":\"");
          p = put_name (p, tp_session_role_names[l->role], role_len[l->role]);
          p = PUT_LITERAL (p, "\"}");
          entry_end (out, p);
          if ((k & 1023) == 0)
            tp_json_drain (w, false);
        }
      tp_buf_puts (out, "],\"refs\":[");
      for (uint32_t k = 0; k < n_refs; k++)
        {
          const TpMapRefRec *f = &m->refs[k];
          char *p = entry_start (out, k == 0);
          if (p == NULL)
            return;
          *p++ = '[';
          p += tp_fmt_u64 (f->line, p);
          *p++ = ',';
          p += tp_fmt_u64 (f->start, p);
          *p++ = ',';
          p += tp_fmt_u64 (f->end, p);
          *p++ = ',';
          *p++ = '"';
          p = put_name (p, tp_session_token_names[f->klass],
                        token_len[f->klass]);
          *p++ = '"';
          *p++ = ',';
          p = put_node_or_null (p, f->node);
          *p++ = ']';
          entry_end (out, p);
          if ((k & 1023) == 0)
            tp_json_drain (w, false);
        }
      tp_buf_puts (out, "]}");
    }
  tp_buf_putc (out, '}');
}

static void
json_key_node (TpBuf *out, const char *key, uint32_t node)
{
  tp_json_key (out, key, false);
  if (node == TP_MAP_NO_NODE)
    tp_buf_puts (out, "null");
  else
    tp_buf_u64 (out, node);
}

/* "origins": per explained node, why it was recorded (tp_session_origin). */
void
tp_json_write_origins (TpJsonWriter *w)
{
  const TpSession *s = w->s;
  TpBuf *out = w->out;
  static const char *const roles[] = {
    [TP_ORIGIN_FORWARD] = "forward", [TP_ORIGIN_SEED] = "seed",
    [TP_ORIGIN_RULE] = "rule", [TP_ORIGIN_ZERO] = "zero",
    [TP_ORIGIN_SHARE] = "share", [TP_ORIGIN_UNREACHED] = "unreached",
    [TP_ORIGIN_APPENDED] = "appended",
  };
  TpOrigin o;

  tp_buf_putc (out, '[');
  for (uint32_t i = 0; i < s->n_explained && tp_session_origin (s, i, &o);
       i++)
    {
      if (i > 0)
        tp_buf_putc (out, ',');
      tp_buf_putc (out, '{');
      tp_json_key (out, "role", true);
      tp_json_string (out, roles[o.role], strlen (roles[o.role]));
      json_key_node (out, "of", o.of);
      json_key_node (out, "from", o.from);
      json_key_node (out, "share", o.share);
      json_key_node (out, "sum", o.sum);
      tp_json_key (out, "count", false);
      tp_buf_u64 (out, o.count);
      tp_buf_putc (out, '}');
      tp_json_drain (w, false);
    }
  tp_buf_putc (out, ']');
}

void
tp_json_write_gradient_nodes (TpJsonWriter *w)
{
  size_t n_grads;
  const TpGradient *grads = tp_session_gradients (w->s, &n_grads);

  tp_buf_putc (w->out, '{');
  for (size_t k = 0; k < n_grads; k++)
    {
      tp_json_key (w->out, grads[k].name, k == 0);
      tp_buf_u64 (w->out, grads[k].gradient);
    }
  tp_buf_putc (w->out, '}');
}

void
tp_json_write_sources (TpJsonWriter *w)
{
  TpSession *s = w->s;
  TpBuf *out = w->out;
  uint32_t n = s->status == TP_STATUS_OK ? s->prog.tape.len : 0;

  tp_buf_putc (out, '[');
  for (uint32_t i = 0; i < n; i++)
    {
      TpSourceSpan span;
      if (i > 0)
        tp_buf_putc (out, ',');
      if (!tp_session_source (s, i, &span))
        {
          tp_buf_puts (out, "null");
          continue;
        }
      tp_buf_putc (out, '[');
      tp_buf_u64 (out, span.line);
      tp_buf_putc (out, ',');
      tp_buf_u64 (out, span.first);
      tp_buf_putc (out, ',');
      tp_buf_u64 (out, span.last);
      tp_buf_putc (out, ']');
    }
  tp_buf_putc (out, ']');
}

/* "steps": per step of the schedule its node, half and sentence. */
void
tp_json_write_steps (TpJsonWriter *w)
{
  TpSession *s = w->s;
  size_t n = tp_session_n_steps (s);

  tp_buf_putc (w->out, '[');
  for (size_t k = 0; k < n; k++)
    {
      TpStep step;
      if (!tp_session_step (s, k, &step))
        break;
      if (k > 0)
        tp_buf_putc (w->out, ',');
      tp_buf_puts (w->out, "{\"node\":");
      tp_buf_u64 (w->out, step.node);
      tp_buf_puts (w->out, step.gradient ? ",\"phase\":\"gradient\""
                                         : ",\"phase\":\"forward\"");
      tp_buf_puts (w->out, ",\"text\":");
      /* the first TP_STEP_TEXTS sentences; a later one is asked for */
      if (k < s->n_step_texts)
        tp_json_string (w->out, s->step_text + s->step_at[k],
                        s->step_at[k + 1] - s->step_at[k]);
      else
        tp_buf_puts (w->out, "null");
      tp_buf_putc (w->out, '}');
      tp_json_drain (w, false);
    }
  tp_buf_putc (w->out, ']');
}

void
tp_json_write_display_names (TpJsonWriter *w)
{
  TpSession *s = w->s;
  uint32_t n = tp_session_n_nodes (s);

  tp_buf_putc (w->out, '[');
  for (uint32_t i = 0; i < n; i++)
    {
      const char *name = tp_session_display_name (s, i);
      if (i > 0)
        tp_buf_putc (w->out, ',');
      if (name == NULL)
        tp_buf_puts (w->out, "null");
      else
        tp_json_string (w->out, name, strlen (name));
    }
  tp_buf_putc (w->out, ']');
}

void
tp_json_write_train_settings (TpJsonWriter *w)
{
  TpTrainSettings t;

  if (!tp_session_train_settings (w->s, &t))
    {
      tp_buf_puts (w->out, "null");
      return;
    }
  tp_buf_puts (w->out, "{\"steps\":");
  tp_buf_u64 (w->out, t.steps);
  tp_buf_puts (w->out, ",\"learning_rate\":");
  tp_json_string (w->out, t.learning_rate, t.learning_rate_length);
  tp_buf_puts (w->out, t.from_program ? ",\"from_program\":true"
                                      : ",\"from_program\":false");
  tp_buf_puts (w->out, ",\"line\":");
  tp_buf_u64 (w->out, t.line);
  tp_buf_putc (w->out, '}');
}

void
tp_json_write_defaults (TpJsonWriter *w)
{
  const TpDefaults *d = tp_defaults ();
  static const struct
  {
    const char *key;
    size_t at;
  } numbers[] = {
    { "debounce_ms", offsetof (TpDefaults, debounce_ms) },
    { "fold_limit", offsetof (TpDefaults, fold_limit) },
    { "fold_head", offsetof (TpDefaults, fold_head) },
    { "fold_tail", offsetof (TpDefaults, fold_tail) },
    { "play_interval_ms", offsetof (TpDefaults, play_interval_ms) },
    { "readable_label_px", offsetof (TpDefaults, readable_label_px) },
    { "train_steps", offsetof (TpDefaults, train_steps) },
  };

  tp_buf_putc (w->out, '{');
  for (size_t k = 0; k < sizeof numbers / sizeof numbers[0]; k++)
    {
      uint32_t v;
      memcpy (&v, (const char *) d + numbers[k].at, sizeof v);
      tp_json_key (w->out, numbers[k].key, k == 0);
      tp_buf_u64 (w->out, v);
    }
  tp_json_key (w->out, "train_rate", false);
  tp_json_string (w->out, d->train_rate, strlen (d->train_rate));
  tp_buf_putc (w->out, '}');
}
