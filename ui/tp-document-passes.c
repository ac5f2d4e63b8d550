/* tp-document-passes.c: the document's choices for the compiler's passes
 * (optimise, forward mode's direction) and its pass readings.
 *
 * A pass reading (optimized, fusion, forward, jax) is made only when a
 * pane that shows it, or "Copy as JAX", asks: the document asks its
 * reader to copy it out of the session's last compile, the one whose
 * readings are on screen, and attaches what comes back to those
 * readings.  A read made on the main thread (tp_document_recompute_now)
 * has its session here, and the pass is copied at once.  Pay for what is
 * read: the six readings never make one. */
#include "config.h"

#include "tp-document-private.h"

enum {
  PASS_READY,
  REMAT_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

void
_tp_document_passes_class_init (GObjectClass *klass)
{
  /* pass reading @which (a TpReading) is attached to the readings */
  signals[PASS_READY] =
    g_signal_new ("pass-ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  /* the rematerialisation chosen changed (tp_document_set_remat) */
  signals[REMAT_CHANGED] =
    g_signal_new ("remat-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

/* What came back from the reader: attached while its readings are the
 * newest. */
static void
tp_document_pass_cb (GObject       *owner,
                     int            generation,
                     TpPass         which,
                     TpPassReading *pass)
{
  TpDocument *self = TP_DOCUMENT (owner);
  guint bit = 1u << TP_PASS_INDEX (which);

  if (self->pass_asked[TP_PASS_INDEX (which)] == generation)
    self->pass_asking = self->pass_asking & ~bit & ((1u << TP_N_PASSES) - 1);
  if (pass == NULL || generation != self->generation || self->readings == NULL
      || self->readings_generation != generation || self->stale)
    {
      tp_pass_reading_free (pass);
      return;
    }
  tp_readings_attach_pass (self->readings, pass);
  g_signal_emit (self, signals[PASS_READY], 0, (int) which);
}

void
_tp_document_passes_init (TpDocument *self)
{
  tp_reader_set_pass_func (self->reader, tp_document_pass_cb);
}

/**
 * tp_document_want_pass:
 *
 * Returns: (nullable): pass reading @which of the readings on screen, or
 *   NULL while it is on its way (or cannot be made now: no readings, or
 *   the program on screen does not read, or newer readings are coming).
 *   "pass-ready" is emitted when it comes.
 */
const TpPassReading *
tp_document_want_pass (TpDocument *self,
                       TpPass      which)
{
  guint k;
  const TpPassReading *pass;

  g_return_val_if_fail (TP_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (TP_IS_PASS (which), NULL);

  k = TP_PASS_INDEX (which);
  if (self->readings == NULL)
    return NULL;
  pass = tp_readings_get_pass (self->readings, which);
  if (pass != NULL)
    return pass;
  /* refused, or a newer read is on its way: its readings will be asked */
  if (self->stale || self->readings_generation != self->generation)
    return NULL;
  if (self->read_here)
    {
      TpPassReading *made = tp_pass_reading_new_from_session (self->session, which);

      if (made == NULL)
        return NULL;
      tp_readings_attach_pass (self->readings, made);
      g_signal_emit (self, signals[PASS_READY], 0, (int) which);
      return made;
    }
  if ((self->pass_asking & (1u << k)) && self->pass_asked[k] == self->generation)
    return NULL;
  self->pass_asking = (self->pass_asking | 1u << k) & ((1u << TP_N_PASSES) - 1);
  self->pass_asked[k] = self->generation;
  tp_reader_pass (self->reader, self->generation, which);
  return NULL;
}

gboolean
tp_document_get_optimize (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), FALSE);

  return self->optimize;
}

/* The exact rewrites run before the plan: the plan, StableHLO, values,
 * memory and picture show the optimised program; the spec and the
 * derivative stay the recorded tape. */
void
tp_document_set_optimize (TpDocument *self,
                          gboolean    optimize)
{
  g_return_if_fail (TP_IS_DOCUMENT (self));

  if (self->optimize == !!optimize)
    return;
  self->optimize = !!optimize;
  _tp_document_queue_recompute (self, 0);
  g_object_notify (G_OBJECT (self), "optimize");
}

const char *
tp_document_get_direction (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), NULL);

  return self->direction;
}

/* Forward mode's direction as --direction takes it; NULL or "" for the
 * seeded one.  The engine says when it cannot use it. */
void
tp_document_set_direction (TpDocument *self,
                           const char *direction)
{
  g_return_if_fail (TP_IS_DOCUMENT (self));

  if (direction != NULL && direction[0] == '\0')
    direction = NULL;
  if (g_strcmp0 (self->direction, direction) == 0)
    return;
  g_free (self->direction);
  self->direction = g_strdup (direction);
  _tp_document_queue_recompute (self, 0);
  g_object_notify (G_OBJECT (self), "direction");
}

/* The statements rematerialised (NULL for none), and whether the engine
 * picks them. */
const char *const *
tp_document_get_remat (TpDocument *self,
                       gboolean   *automatic)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), NULL);

  if (automatic != NULL)
    *automatic = self->remat_auto;
  return (const char *const *) self->remat;
}

/* Frees the statements @names after their last forward use and computes
 * them again for the gradient (--remat NAME,...), or lets the engine pick
 * (@automatic: --remat auto, @names unused); no names and not automatic:
 * none.  The plan and what is made of it follow, never a value. */
void
tp_document_set_remat (TpDocument        *self,
                       const char *const *names,
                       gboolean           automatic)
{
  g_return_if_fail (TP_IS_DOCUMENT (self));

  if (automatic || (names != NULL && names[0] == NULL))
    names = NULL;
  if (self->remat_auto == !!automatic
      && ((names == NULL && self->remat == NULL)
          || (names != NULL && self->remat != NULL && g_strv_equal (names, (const char *const *) self->remat))))
    return;
  g_strfreev (self->remat);
  self->remat = g_strdupv ((char **) names);
  self->remat_auto = !!automatic;
  _tp_document_queue_recompute (self, 0);
  g_signal_emit (self, signals[REMAT_CHANGED], 0);
}
