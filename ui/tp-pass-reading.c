/* tp-pass-reading.c: a pass reading copied out of the engine (see
 * tp-pass-reading.h). */
#include "config.h"

#include "tp-pass-reading.h"

/* The parameters in declaration order, each once, with their shapes:
 * the statements the names list marks as parameters. */
static void
tp_pass_reading_copy_parameters (TpPassReading   *self,
                                 const TpSession *session)
{
  size_t n_names = 0;
  const TpName *names = tp_session_names (session, &n_names);
  GArray *params = g_array_new (FALSE, TRUE, sizeof (TpPassParameter));
  GHashTable *seen = g_hash_table_new (NULL, NULL);

  for (size_t i = 0; i < n_names; i++)
    {
      TpPassParameter p = { 0 };

      if (!names[i].parameter || g_hash_table_contains (seen, GUINT_TO_POINTER (names[i].node + 1)))
        continue;
      g_hash_table_add (seen, GUINT_TO_POINTER (names[i].node + 1));
      p.name = g_strdup (tp_session_display_name (session, names[i].node));
      if (p.name == NULL)
        p.name = g_strdup (names[i].name);
      p.rank = names[i].rank;
      p.dims = g_new0 (guint, p.rank + 1);
      for (guint a = 0; a < p.rank; a++)
        p.dims[a] = names[i].dims[a];
      g_array_append_val (params, p);
    }
  g_hash_table_unref (seen);
  self->n_parameters = params->len;
  self->parameters = (TpPassParameter *) (void *) g_array_free (params, FALSE);
}

static void
tp_pass_reading_copy_forward (TpPassReading   *self,
                              const TpSession *session)
{
  TpForwardSummary summary;
  size_t n;

  tp_pass_reading_copy_parameters (self, session);
  if (!tp_session_forward (session, &summary))
    return;
  self->direction_error = g_strdup (summary.direction_error);
  self->tangent_first = summary.first;
  n = tp_session_forward_n_steps (session);
  self->n_tangent_steps = (guint) n;
  self->tangent_steps = g_new0 (char *, n + 1);
  for (size_t k = 0; k < n; k++)
    {
      size_t length = 0;
      const char *text = tp_session_forward_step_text (session, k, &length);

      self->tangent_steps[k] = text != NULL ? g_strndup (text, length) : NULL;
    }
}

/* The candidates, the nodes chosen, the outcome in words. */
static void
tp_pass_reading_copy_remat (TpPassReading   *self,
                            const TpSession *session)
{
  TpRematSummary summary;
  uint32_t n = tp_session_n_nodes (session);
  GArray *candidates = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *chosen = g_array_new (FALSE, FALSE, sizeof (guint));

  if (tp_session_remat (session, &summary))
    {
      self->sentence = g_strndup (summary.sentence, summary.sentence_length);
      self->remat_auto = summary.automatic;
      for (uint32_t node = 0; node < n; node++)
        {
          guint k = node;

          if (tp_session_remat_candidate (session, node))
            g_array_append_val (candidates, k);
          if (tp_session_rematerialised (session, node))
            g_array_append_val (chosen, k);
        }
    }
  self->n_candidates = candidates->len;
  self->candidates = (guint *) (void *) g_array_free (candidates, FALSE);
  self->n_chosen = chosen->len;
  self->chosen = (guint *) (void *) g_array_free (chosen, FALSE);
}

TpPassReading *
tp_pass_reading_new_from_session (const TpSession *session,
                                  TpPass           which)
{
  TpPassReading *self;
  size_t n_lines = 0, n_refs = 0;

  g_return_val_if_fail (TP_IS_PASS (which), NULL);

  if (session == NULL || tp_session_status (session) != TP_STATUS_OK)
    return NULL;
  self = g_new0 (TpPassReading, 1);
  self->which = which;
  if (TP_PASS_IS_READING (which))
    {
      TpReading reading = (TpReading) which;

      self->text = g_strdup (tp_session_reading (session, reading));
      n_lines = tp_session_map_n_lines (session, reading);
      n_refs = tp_session_map_n_refs (session, reading);
      self->lines = g_new0 (TpMapLine, n_lines + 1);
      self->refs = g_new0 (TpMapRef, n_refs + 1);
      for (size_t i = 0; i < n_lines; i++)
        tp_session_map_line (session, reading, i, &self->lines[i]);
      for (size_t i = 0; i < n_refs; i++)
        tp_session_map_ref (session, reading, i, &self->refs[i]);
    }
  else
    {
      self->text = g_strdup (which == TP_PASS_KERNELS ? tp_session_dot_kernels (session)
                             : which == TP_PASS_TANGENTS ? tp_session_dot_tangent (session) : "");
      self->lines = g_new0 (TpMapLine, 1);
      self->refs = g_new0 (TpMapRef, 1);
    }
  self->n_lines = (guint) n_lines;
  self->n_refs = (guint) n_refs;
  self->spec_nodes = tp_session_spec_nodes (session);
  if (which == TP_PASS_REMAT)
    tp_pass_reading_copy_remat (self, session);
  else if (which == TP_PASS_FUSION)
    {
      TpFusionSummary fusion;

      if (tp_session_fusion (session, &fusion))
        self->sentence = g_strndup (fusion.sentence, fusion.sentence_length);
    }
  else if (which == TP_PASS_FORWARD)
    tp_pass_reading_copy_forward (self, session);
  return self;
}

void
tp_pass_reading_free (TpPassReading *self)
{
  if (self == NULL)
    return;
  g_free (self->text);
  g_free (self->lines);
  g_free (self->refs);
  g_free (self->sentence);
  g_free (self->candidates);
  g_free (self->chosen);
  g_free (self->direction_error);
  for (guint k = 0; k < self->n_tangent_steps; k++)
    g_free (self->tangent_steps[k]);
  g_free (self->tangent_steps);
  for (guint i = 0; i < self->n_parameters; i++)
    {
      g_free (self->parameters[i].name);
      g_free (self->parameters[i].dims);
    }
  g_free (self->parameters);
  g_free (self);
}

const TpMapLine *
tp_pass_reading_get_line (const TpPassReading *self,
                          guint                line)
{
  return self != NULL && line < self->n_lines ? &self->lines[line] : NULL;
}

const char *
tp_pass_reading_get_tangent_step (const TpPassReading *self,
                                  guint                node)
{
  if (self == NULL || node < self->tangent_first || node - self->tangent_first >= self->n_tangent_steps)
    return NULL;
  return self->tangent_steps[node - self->tangent_first];
}
