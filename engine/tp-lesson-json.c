/* tp-lesson-json.c: a lesson as JSON (docs/lessons.md, The JSON), for a
 * front end that reads the engine through JSON (the web page's worker).
 * Text is spans with their characters, as in the C structure: nothing in
 * it is markup. */
#include "tp-lesson.h"

#include <string.h>

#include "tp-json.h"

static const char *const span_kinds[] = { "text", "emphasis", "code", "link" };

static void
put_text (TpBuf *out, const TpLessonText *t)
{
  tp_buf_puts (out, "{\"line\":");
  tp_buf_u64 (out, t->line);
  tp_buf_puts (out, ",\"source\":");
  tp_json_string (out, t->source, t->source_length);
  tp_buf_puts (out, ",\"spans\":[");
  for (size_t k = 0; k < t->n_spans; k++)
    {
      const TpSpan *s = &t->spans[k];
      tp_buf_puts (out, k > 0 ? ",{\"kind\":\"" : "{\"kind\":\"");
      tp_buf_puts (out, span_kinds[s->kind]);
      tp_buf_puts (out, "\",\"text\":");
      tp_json_string (out, s->text, s->length);
      if (s->url != NULL)
        {
          tp_buf_puts (out, ",\"url\":");
          tp_json_string (out, s->url, s->url_length);
        }
      tp_buf_putc (out, '}');
    }
  tp_buf_puts (out, "]}");
}

static void
put_blocks (TpBuf *out, const TpLessonBlock *blocks, size_t n)
{
  tp_buf_putc (out, '[');
  for (size_t b = 0; b < n; b++)
    {
      const TpLessonBlock *block = &blocks[b];
      if (b > 0)
        tp_buf_putc (out, ',');
      tp_buf_puts (out, "{\"kind\":");
      switch (block->kind)
        {
        case TP_BLOCK_PARAGRAPH:
          tp_buf_puts (out, "\"paragraph\",\"text\":");
          put_text (out, &block->text);
          break;
        case TP_BLOCK_CODE:
          tp_buf_puts (out, "\"code\",\"info\":");
          tp_json_string (out, block->info, strlen (block->info));
          tp_buf_puts (out, ",\"code\":");
          tp_json_string (out, block->code, block->code_length);
          break;
        case TP_BLOCK_LIST:
          tp_buf_puts (out, "\"list\",\"ordered\":");
          tp_buf_puts (out, block->ordered ? "true" : "false");
          tp_buf_puts (out, ",\"first\":");
          tp_buf_u64 (out, block->first);
          tp_buf_puts (out, ",\"items\":[");
          for (size_t i = 0; i < block->n_items; i++)
            {
              if (i > 0)
                tp_buf_putc (out, ',');
              put_blocks (out, block->items[i].blocks,
                          block->items[i].n_blocks);
            }
          tp_buf_putc (out, ']');
          break;
        }
      tp_buf_puts (out, ",\"line\":");
      tp_buf_u64 (out, block->line);
      tp_buf_putc (out, '}');
    }
  tp_buf_putc (out, ']');
}

static void
put_goal (TpBuf *out, const TpLessonGoal *g)
{
  tp_buf_puts (out, "{\"kind\":");
  tp_json_string (out, tp_goal_kind_name (g->kind),
                  strlen (tp_goal_kind_name (g->kind)));
  tp_buf_puts (out, ",\"line\":");
  tp_buf_u64 (out, g->line);
  tp_buf_puts (out, ",\"written\":");
  tp_json_string (out, g->written, g->written_length);
  tp_buf_puts (out, ",\"sentence\":");
  put_text (out, &g->sentence);
  tp_buf_puts (out, ",\"engine_sentence\":");
  tp_buf_puts (out, g->engine_sentence ? "true" : "false");
  tp_buf_puts (out, ",\"hint\":");
  if (g->hint != NULL)
    put_text (out, g->hint);
  else
    tp_buf_puts (out, "null");
  tp_buf_puts (out, ",\"question\":");
  if (g->kind == TP_GOAL_QUESTION)
    {
      tp_buf_puts (out, "{\"number\":");
      tp_buf_u64 (out, g->question);
      tp_buf_puts (out, ",\"about\":");
      if (g->about != TP_N_READINGS)
        {
          const char *name = tp_reading_name (g->about);
          tp_json_string (out, name, strlen (name));
        }
      else
        tp_buf_puts (out, "null");
      tp_buf_puts (out, ",\"choices\":[");
      for (size_t c = 0; c < g->n_choices; c++)
        {
          if (c > 0)
            tp_buf_putc (out, ',');
          put_text (out, &g->choices[c]);
        }
      tp_buf_puts (out, "]}");
    }
  else
    tp_buf_puts (out, "null");
  tp_buf_putc (out, '}');
}

/* {"optimize": B, "remat": null | "auto" | [NAME...], "direction": null
 * | D} */
static void
put_choices (TpBuf *out, const TpLessonChoices *ch)
{
  tp_buf_puts (out, "{\"optimize\":");
  tp_buf_puts (out, ch->optimize ? "true" : "false");
  tp_buf_puts (out, ",\"remat\":");
  if (ch->remat_auto)
    tp_buf_puts (out, "\"auto\"");
  else if (ch->n_remat == 0)
    tp_buf_puts (out, "null");
  else
    {
      tp_buf_putc (out, '[');
      for (uint32_t k = 0; k < ch->n_remat; k++)
        {
          if (k > 0)
            tp_buf_putc (out, ',');
          tp_json_string (out, ch->remat[k], strlen (ch->remat[k]));
        }
      tp_buf_putc (out, ']');
    }
  tp_buf_puts (out, ",\"direction\":");
  if (ch->direction != NULL)
    tp_json_string (out, ch->direction, strlen (ch->direction));
  else
    tp_buf_puts (out, "null");
  tp_buf_putc (out, '}');
}

static char *
lesson_json (const TpLesson *l)
{
  TpBuf out;

  tp_buf_init (&out);
  if (l->refused)
    {
      tp_buf_puts (&out, "{\"error\":{\"line\":");
      tp_buf_u64 (&out, l->diag.line);
      tp_buf_puts (&out, ",\"column\":");
      tp_buf_u64 (&out, l->diag.column);
      tp_buf_puts (&out, ",\"message\":");
      tp_json_string (&out, l->diag.message, strlen (l->diag.message));
      tp_buf_puts (&out, "}}\n");
      return tp_buf_steal (&out);
    }
  tp_buf_puts (&out, "{\"title\":");
  put_text (&out, &l->title);
  tp_buf_puts (&out, ",\"text\":");
  put_blocks (&out, l->blocks, l->n_blocks);
  tp_buf_puts (&out, ",\"start\":");
  tp_json_string (&out, l->start, l->start_len);
  tp_buf_puts (&out, ",\"solution\":");
  tp_json_string (&out, l->solution, l->solution_len);
  tp_buf_puts (&out, ",\"choices\":");
  put_choices (&out, &l->choices);
  tp_buf_puts (&out, ",\"hints\":[");
  for (size_t k = 0; k < l->n_hints; k++)
    {
      if (k > 0)
        tp_buf_putc (&out, ',');
      put_text (&out, &l->hints[k]);
    }
  tp_buf_puts (&out, "],\"goals\":[");
  for (size_t k = 0; k < l->n_goals; k++)
    {
      if (k > 0)
        tp_buf_putc (&out, ',');
      put_goal (&out, &l->goals[k]);
    }
  tp_buf_puts (&out, "],\"questions\":");
  tp_buf_u64 (&out, l->n_questions);
  tp_buf_puts (&out, "}\n");
  return tp_buf_steal (&out);
}

char *
tp_lesson_to_json (const TpLesson *l)
{
  const TpAllocator *saved = tp_alloc_enter (l->allocator);
  char *json = lesson_json (l);

  tp_alloc_leave (saved);
  return json;
}
