/* tp-teaching.c: the teaching results, copied out of the engine session
 * after the readings (see tp-teaching.h). */
#include "config.h"

#include <string.h>

#include "tp-teaching.h"

/* Frees @n strings (some NULL) and their array. */
static void
strings_free (char  **strings,
              guint   n)
{
  for (guint i = 0; strings != NULL && i < n; i++)
    g_free (strings[i]);
  g_free (strings);
}

void
tp_chart_copy (TpChart       *out,
               const TpChart *chart)
{
  TpTick *x = g_new0 (TpTick, chart->n_x_ticks + 1);
  TpTick *y = g_new0 (TpTick, chart->n_y_ticks + 1);

  *out = *chart;
  out->title = g_strdup (chart->title);
  out->x_title = g_strdup (chart->x_title);
  out->y_title = g_strdup (chart->y_title);
  for (size_t i = 0; i < chart->n_x_ticks; i++)
    {
      x[i] = chart->x_ticks[i];
      x[i].label = g_strdup (chart->x_ticks[i].label);
    }
  for (size_t i = 0; i < chart->n_y_ticks; i++)
    {
      y[i] = chart->y_ticks[i];
      y[i].label = g_strdup (chart->y_ticks[i].label);
    }
  out->x_ticks = x;
  out->y_ticks = y;
}

void
tp_chart_clear (TpChart *chart)
{
  for (size_t i = 0; chart->x_ticks != NULL && i < chart->n_x_ticks; i++)
    g_free ((char *) chart->x_ticks[i].label);
  for (size_t i = 0; chart->y_ticks != NULL && i < chart->n_y_ticks; i++)
    g_free ((char *) chart->y_ticks[i].label);
  g_free ((TpTick *) chart->x_ticks);
  g_free ((TpTick *) chart->y_ticks);
  g_free ((char *) chart->title);
  g_free ((char *) chart->x_title);
  g_free ((char *) chart->y_title);
  memset (chart, 0, sizeof *chart);
}

char *
tp_short_number_dup (double value)
{
  char text[TP_SHORT_NUMBER_MAX];

  tp_short_number (value, text);
  return g_strdup (text);
}

char *
tp_grouped_number_dup (guint64 value)
{
  char text[27];

  tp_grouped_number (value, text);
  return g_strdup (text);
}

/* Every node's state after each step, as the engine gives it: the first
 * step's whole, then what each later step changed (a node changes state
 * at most twice, so the changes are about twice the nodes). */
static void
copy_states (TpTeaching      *self,
             const TpSession *session,
             TpTeachingGoOn   go_on,
             gpointer         data)
{
  g_autofree guint8 *now = NULL;
  GArray *changes;

  if (self->n_steps == 0 || (guint64) self->n_steps * self->n_nodes > TP_STEP_STATES_BUDGET)
    return;
  self->states = g_new0 (guint8, self->n_nodes + 1);
  now = g_new0 (guint8, self->n_nodes + 1);
  if (!tp_session_node_states (session, 0, self->states, self->n_nodes))
    {
      g_clear_pointer (&self->states, g_free);
      return;
    }
  memcpy (now, self->states, self->n_nodes);
  changes = g_array_new (FALSE, FALSE, sizeof (TpStateChange));
  self->change_at = g_new0 (guint, self->n_steps + 1);
  for (guint k = 1; k < self->n_steps; k++)
    {
      g_autofree guint8 *next = g_new0 (guint8, self->n_nodes + 1);

      self->change_at[k] = changes->len;
      if ((k % 256 == 0 && go_on != NULL && !go_on (data))
          || !tp_session_node_states (session, k, next, self->n_nodes))
        {
          g_array_free (changes, TRUE);
          g_clear_pointer (&self->states, g_free);
          g_clear_pointer (&self->change_at, g_free);
          return;
        }
      for (guint i = 0; i < self->n_nodes; i++)
        if (next[i] != now[i])
          {
            TpStateChange c = { i, next[i] };

            g_array_append_val (changes, c);
          }
      memcpy (now, next, self->n_nodes);
    }
  self->change_at[self->n_steps] = changes->len;
  self->changes = (TpStateChange *) g_array_free (changes, FALSE);
}

gboolean
tp_teaching_get_node_states (const TpTeaching *self,
                             guint             step,
                             guint8           *states)
{
  if (self == NULL || self->states == NULL || step >= self->n_steps)
    return FALSE;
  memcpy (states, self->states, self->n_nodes);
  for (guint c = self->change_at[1]; step >= 1 && c < self->change_at[step + 1]; c++)
    states[self->changes[c].node] = self->changes[c].state;
  return TRUE;
}

/* Explain, memory and the step-through, out of @session: what every pane
 * but the check needs.  NULL when @go_on said stop. */
TpTeaching *
tp_teaching_new_from_session (const TpSession *session,
                              TpTeachingGoOn   go_on,
                              gpointer         data)
{
  TpTeaching *self = g_new0 (TpTeaching, 1);
  guint64 budget = TP_STEP_VALUE_BUDGET;
  gboolean origins = TRUE;
  uint64_t elements = 0;
  uint32_t node = 0;
  size_t step = 0;
  TpChart chart;

  self->n_nodes = tp_session_n_nodes (session);
  self->explain = g_strdup (tp_session_reading (session, TP_READING_EXPLAIN));
  self->memory = g_strdup (tp_session_reading (session, TP_READING_MEMORY));
  self->explanations = g_new0 (char *, self->n_nodes + 1);
  self->node_steps = g_new (guint, self->n_nodes + 1);
  self->origins = g_new0 (TpOrigin, self->n_nodes + 1);
  self->value_texts = g_new0 (char *, self->n_nodes + 1);
  for (guint i = 0; i < self->n_nodes; i++)
    {
      size_t length = 0;
      const char *sentence = tp_session_explanation (session, i, &length);
      size_t k;
      uint32_t rank = 0;
      const uint32_t *dims = NULL;

      if (sentence != NULL)
        self->explanations[i] = g_strndup (sentence, length);
      self->node_steps[i] = tp_session_node_step (session, i, &k) ? (guint) k : G_MAXUINT;
      if (origins && !tp_session_origin (session, i, &self->origins[i]))
        origins = FALSE;
      if (budget > 0 && tp_session_node_value (session, i, &rank, &dims) != NULL)
        {
          char *text = tp_session_node_value_text (session, i, TP_STEP_VALUE_ELEMENTS);
          guint64 volume = 1;

          for (uint32_t d = 0; d < rank; d++)
            volume *= dims[d];
          self->value_texts[i] = g_strdup (text);
          tp_string_free (text);
          budget -= MIN (budget, MIN (volume, TP_STEP_VALUE_ELEMENTS));
        }
    }
  if (!origins)
    g_clear_pointer (&self->origins, g_free);
  if (go_on != NULL && !go_on (data))
    {
      tp_teaching_free (self);
      return NULL;
    }

  self->n_steps = (guint) tp_session_n_steps (session);
  self->steps = g_new0 (TpStep, self->n_steps + 1);
  self->step_texts = g_new0 (char *, self->n_steps + 1);
  for (guint k = 0; k < self->n_steps; k++)
    {
      size_t length = 0;
      const char *text = tp_session_step_text (session, k, &length);

      tp_session_step (session, k, &self->steps[k]);
      self->step_texts[k] = text != NULL ? g_strndup (text, length) : NULL;
    }
  copy_states (self, session, go_on, data);
  if (go_on != NULL && !go_on (data))
    {
      tp_teaching_free (self);
      return NULL;
    }
  node = tp_session_target (session);
  self->target = node != TP_MAP_NO_NODE ? node : G_MAXUINT;
  if (tp_session_memory_peak (session, &elements, &node, &step))
    {
      self->has_peak = TRUE;
      self->peak_elements = elements;
      self->peak_node = node;
      self->peak_step = (guint) step;
    }
  if (tp_session_memory_chart (session, &chart))
    {
      tp_chart_copy (&self->memory_chart, &chart);
      self->has_chart = TRUE;
    }
  return self;
}

void
tp_teaching_free (TpTeaching *self)
{
  if (self == NULL)
    return;
  g_free (self->explain);
  g_free (self->memory);
  strings_free (self->explanations, self->n_nodes);
  g_free (self->origins);
  strings_free (self->value_texts, self->n_nodes);
  g_free (self->steps);
  g_free (self->node_steps);
  strings_free (self->step_texts, self->n_steps);
  g_free (self->states);
  g_free (self->changes);
  g_free (self->change_at);
  if (self->has_chart)
    tp_chart_clear (&self->memory_chart);
  g_free (self);
}

/* The check's summary and reading; NULL when the session's interrupt
 * stopped it. */
TpChecked *
tp_checked_new_from_session (const TpSession *session)
{
  TpChecked *self = g_new0 (TpChecked, 1);
  const char *text = tp_session_reading (session, TP_READING_CHECK);

  if (tp_session_interrupted (session))
    {
      g_free (self);
      return NULL;
    }
  self->text = g_strdup (text);
  if (tp_session_check_summary (session, &self->summary) && !tp_session_interrupted (session))
    {
      self->verdict = g_strndup (self->summary.verdict, self->summary.verdict_length);
      self->summary.verdict = self->verdict;
    }
  else
    {
      self->summary.outcome = TP_OUTCOME_UNCHECKED;
      self->summary.verdict = NULL;
      self->summary.verdict_length = 0;
    }
  return self;
}

void
tp_checked_free (TpChecked *self)
{
  if (self == NULL)
    return;
  g_free (self->verdict);
  g_free (self->text);
  g_free (self);
}
