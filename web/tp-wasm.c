/* tp-wasm.c: the engine's session seam, exported to JavaScript.
 *
 * This is the only file in the project that includes an emscripten header.
 * JavaScript hands over the program and the reader's choices as UTF-8 bytes
 * in the module's heap, and reads back the engine's JSON (the same text as
 * `topos --json` prints).  One session lives for the module's lifetime and
 * is recompiled on every call, so its arena is reused between keystrokes.
 *
 * Calling convention (all pointers are into the wasm heap, owned by the
 * caller unless said otherwise):
 *
 *   tp_wasm_read (source, source_len, target, observe, observe_len, exact)
 *     target:  NUL-terminated name, or 0 for "the last scalar";
 *     observe: observe_len bytes of names, each ended by '\n'; 0 for none.
 *   Returns the engine's status (0 read, 1 refused, 2 out of memory).
 *   tp_wasm_json () / tp_wasm_json_length () then give the JSON, which
 *   stays valid until the next tp_wasm_read.
 *
 *   tp_wasm_reading (which) / tp_wasm_reading_length (which): the text of
 *   one reading of the last tp_wasm_read (a TpReading: the JSON holds
 *   only the readings the page shows in full; the check tab wants the
 *   check reading's own text), borrowed, valid until the next read. */
#include <emscripten/emscripten.h>

#include <stdlib.h>
#include <string.h>

#include "tp-engine.h"

#define TP_WASM_MAX_OBSERVE 256

int         tp_wasm_read        (const char *source,
                                 size_t      source_len,
                                 const char *target,
                                 char       *observe,
                                 size_t      observe_len,
                                 int         exact);
const char *tp_wasm_json        (void);
size_t      tp_wasm_json_length (void);
const char *tp_wasm_reading     (int         which);
size_t      tp_wasm_reading_length (int      which);
int         tp_wasm_train       (unsigned    steps,
                                 const char *rate,
                                 size_t      rate_len);
const char *tp_wasm_train_text  (int         which);
size_t      tp_wasm_train_length (int        which);

static TpSession *session;
static char *json;
static size_t json_length;
static TpTrain *train;
static char *train_json;

/* The JSON for a session that could not be made or serialised: the same
 * shape a refused program has, so the page needs no special case. */
static const char no_memory_json[] =
  "{\"names\":[],\"spec\":\"\",\"derivative\":\"\",\"plan\":\"\","
  "\"stablehlo\":\"\",\"values\":\"\",\"dot\":\"\",\"summary\":\"\","
  "\"target\":null,\"observe\":[],\"tensors\":{},"
  "\"arguments\":[],\"results\":[],\"diagnostics\":[{\"line\":1,"
  "\"column\":1,\"message\":\"the page ran out of memory\"}],"
  "\"check\":{\"outcome\":null,\"verdict\":\"\",\"gradients\":[],\"nonfinite\":null},\"explain\":[],\"origins\":[],"
  "\"memory\":{\"steps\":[],\"buffers\":[],\"live\":[],"
  "\"peak\":{\"elements\":0,\"node\":null},\"retain_all\":0},"
  "\"memory_svg\":\"\","
  "\"map\":{\"spec\":{\"lines\":[],\"refs\":[]},"
  "\"derivative\":{\"lines\":[],\"refs\":[]},"
  "\"plan\":{\"lines\":[],\"refs\":[]},"
  "\"stablehlo\":{\"lines\":[],\"refs\":[]},"
  "\"values\":{\"lines\":[],\"refs\":[]}},"
  "\"spec_nodes\":0,\"gradient_nodes\":{},\"sources\":[],"
  "\"picture\":{\"reduced\":false},\"nodes\":[]}\n";

EMSCRIPTEN_KEEPALIVE int
tp_wasm_read (const char *source,
              size_t      source_len,
              const char *target,
              char       *observe,
              size_t      observe_len,
              int         exact)
{
  const char *names[TP_WASM_MAX_OBSERVE];
  TpChoices choices = { NULL, names, 0, exact != 0 };
  TpStatus status;

  tp_string_free (json);
  json = NULL;
  json_length = 0;

  if (target != NULL && target[0] != '\0')
    choices.target = target;

  /* Split the observe list in place: every '\n' ends one name. */
  for (size_t start = 0, i = 0; observe != NULL && i < observe_len; i++)
    if (observe[i] == '\n')
      {
        observe[i] = '\0';
        if (i > start && choices.n_observe < TP_WASM_MAX_OBSERVE)
          names[choices.n_observe++] = observe + start;
        start = i + 1;
      }

  if (session == NULL)
    session = tp_session_new ();
  if (session == NULL)
    return TP_STATUS_NO_MEMORY;

  status = tp_session_compile (session, source, source_len, &choices);
  json = tp_session_to_json (session);
  if (json != NULL)
    json_length = strlen (json);
  else
    status = TP_STATUS_NO_MEMORY;
  return (int) status;
}

/* The JSON of the last tp_wasm_read, borrowed. */
EMSCRIPTEN_KEEPALIVE const char *
tp_wasm_json (void)
{
  return json != NULL ? json : no_memory_json;
}

EMSCRIPTEN_KEEPALIVE size_t
tp_wasm_json_length (void)
{
  return json != NULL ? json_length : sizeof no_memory_json - 1;
}

EMSCRIPTEN_KEEPALIVE const char *
tp_wasm_reading (int which)
{
  if (session == NULL || which < 0 || which >= TP_N_READINGS)
    return "";
  return tp_session_reading (session, (TpReading) which);
}

EMSCRIPTEN_KEEPALIVE size_t
tp_wasm_reading_length (int which)
{
  return strlen (tp_wasm_reading (which));
}

/* Trains on the program of the last tp_wasm_read (tp_session_train):
 * returns 1 when it ran, 0 when it was refused (the JSON's "error" says
 * why), -1 when memory ran out.  Then tp_wasm_train_text (0) is the train
 * JSON object, (1) the train reading, (2) the loss curve's SVG, (3) the
 * parameters after the last update, as values lines. */
EMSCRIPTEN_KEEPALIVE int
tp_wasm_train (unsigned    steps,
               const char *rate,
               size_t      rate_len)
{
  tp_train_free (train);
  tp_string_free (train_json);
  train = NULL;
  train_json = NULL;
  if (session == NULL)
    return -1;
  train = tp_session_train (session, steps, rate, rate_len);
  if (train == NULL)
    return -1;
  train_json = tp_train_to_json (train);
  if (train_json == NULL)
    return -1;
  return tp_train_ok (train) ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE const char *
tp_wasm_train_text (int which)
{
  if (train == NULL || train_json == NULL)
    return "";
  switch (which)
    {
    case 0:
      return train_json;
    case 1:
      return tp_train_reading (train);
    case 2:
      return tp_train_svg (train);
    default:
      return tp_train_parameters (train);
    }
}

EMSCRIPTEN_KEEPALIVE size_t
tp_wasm_train_length (int which)
{
  return strlen (tp_wasm_train_text (which));
}
