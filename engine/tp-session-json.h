/* tp-session-json.h: the JSON writer's state, shared by
 * tp-session-json.c (the object, its readings and values) and
 * tp-session-json-teach.c (the map's members and the teaching model's). */
#ifndef TP_SESSION_JSON_H
#define TP_SESSION_JSON_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-session-json.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include "tp-session-private.h"

/* The object being written: which members, whether one is written yet,
 * and the output budget the tensors share. */
typedef struct
{
  TpSession *s;
  TpBuf *out;
  uint64_t members;
  bool any;
  uint64_t budget;
  bool spending;        /* a budgeted member is chosen: the ones before it
                           spend the budget even when not written */
  /* tp_session_write_json's: the text written so far is handed to it
   * between members and entries, so it is never held whole */
  bool (*sink) (const char *data, size_t length, void *user);
  void *sink_data;
} TpJsonWriter;

/* What is held before it is handed to the sink. */
#define DRAIN_BYTES (UINT64_C (1) << 18)

/* Hands what is written to the sink once it is big enough (or all of
 * it); only between a member's entries, never inside one. */
void tp_json_drain (TpJsonWriter *w, bool all);
/* text as a JSON string, drained a slice at a time. */
void tp_json_write_string (TpJsonWriter *w, const char *text, size_t len);

/* The members written in tp-session-json-teach.c, each its value only
 * (the key is written by the caller). */
void tp_json_write_map            (TpJsonWriter *w);
void tp_json_write_origins        (TpJsonWriter *w);
void tp_json_write_gradient_nodes (TpJsonWriter *w);
void tp_json_write_sources        (TpJsonWriter *w);
void tp_json_write_steps          (TpJsonWriter *w);
void tp_json_write_display_names  (TpJsonWriter *w);
void tp_json_write_train_settings (TpJsonWriter *w);
void tp_json_write_defaults       (TpJsonWriter *w);
/* (tp-session-forward.c) */
void tp_session_json_forward      (TpJsonWriter *w);

#endif /* TP_SESSION_JSON_H */
