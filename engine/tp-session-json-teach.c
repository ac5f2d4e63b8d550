/* tp-session-json-teach.c: the JSON members of the reading map (map,
 * gradient_nodes, sources) and of the teaching model (origins, steps,
 * display_names, train_settings, defaults). */
#include "tp-session-json.h"

#include <stddef.h>
#include <string.h>

#include "tp-json.h"

static size_t
put_u32 (char *p, uint32_t value)
{
  char tmp[10];
  size_t n = 0;

  do
    {
      tmp[n++] = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value != 0);
  for (size_t k = 0; k < n; k++)
    p[k] = tmp[n - 1 - k];
  return n;
}

static size_t
put_node_or_null (char *p, uint32_t node)
{
  if (node != TP_MAP_NO_NODE)
    return put_u32 (p, node);
  memcpy (p, "null", 4);
  return 4;
}

static size_t
put_str (char *p, const char *text)
{
  size_t n = strlen (text);

  memcpy (p, text, n);
  return n;
}

/* The "map" member: per text reading its lines and refs. */
void
tp_json_write_map (TpJsonWriter *w)
{
  const TpSession *s = w->s;
  TpBuf *out = w->out;

  tp_buf_putc (out, '{');
  for (int r = 0; r < TP_MAP_READINGS; r++)
    {
      const TpMap *m = s->status == TP_STATUS_OK ? &s->maps[r] : NULL;
      uint32_t n_lines = m != NULL ? m->n_lines : 0;
      uint32_t n_refs = m != NULL ? m->n_refs : 0;

      tp_json_key (out, tp_reading_name ((TpReading) r), r == 0);
      /* Each entry is formatted on the stack and appended once: a big
       * program's map has hundreds of thousands. */
      tp_buf_puts (out, "{\"lines\":[");
      for (uint32_t k = 0; k < n_lines; k++)
        {
          char tmp[64];
          size_t n = 0;
          if (k > 0)
            tmp[n++] = ',';
          n += put_str (tmp + n, "{\"node\":");
          n += put_node_or_null (tmp + n, m->lines[k].node);
          n += put_str (tmp + n, ",\"role\":\"");
          n += put_str (tmp + n, tp_session_role_names[m->lines[k].role]);
          n += put_str (tmp + n, "\"}");
          tp_buf_append (out, tmp, n);
          if ((k & 1023) == 0)
            tp_json_drain (w, false);
        }
      tp_buf_puts (out, "],\"refs\":[");
      for (uint32_t k = 0; k < n_refs; k++)
        {
          const TpMapRefRec *f = &m->refs[k];
          char tmp[80];
          size_t n = 0;
          if (k > 0)
            tmp[n++] = ',';
          tmp[n++] = '[';
          n += put_u32 (tmp + n, f->line);
          tmp[n++] = ',';
          n += put_u32 (tmp + n, f->start);
          tmp[n++] = ',';
          n += put_u32 (tmp + n, f->end);
          tmp[n++] = ',';
          tmp[n++] = '"';
          n += put_str (tmp + n, tp_session_token_names[f->klass]);
          tmp[n++] = '"';
          tmp[n++] = ',';
          n += put_node_or_null (tmp + n, f->node);
          tmp[n++] = ']';
          tp_buf_append (out, tmp, n);
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
tp_json_write_origins (const TpSession *s, TpBuf *out)
{
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
