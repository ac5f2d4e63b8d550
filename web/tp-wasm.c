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
 *   tp_wasm_read (source, source_len, target, observe, observe_len, flags,
 *                 remat, remat_len, direction)
 *     target:  NUL-terminated name, or 0 for "the last scalar";
 *     observe: observe_len bytes of names, each ended by '\n'; 0 for none;
 *     flags:   1 exact, 2 optimize, 4 remat auto (TpChoices);
 *     remat:   remat_len bytes of names to rematerialise, as observe;
 *     direction: forward mode's, NUL-terminated ("w", "w[0, 1]"), or 0 for
 *              the seeded one.
 *   It compiles only (the engine is lazy: tp-engine.h); returns the
 *   engine's status (0 read, 1 refused, 2 out of memory).
 *   tp_wasm_json () / tp_wasm_json_length () then give the JSON (made on
 *   the first call after a read: the page asks for it only to download
 *   it), which stays valid until the next tp_wasm_read.
 *
 *   tp_wasm_json_members (low, high) / tp_wasm_json_members_length ():
 *   the JSON with only the members whose TP_JSON_MEMBER bit is set in
 *   high * 2^32 + low (tp_session_to_json_members: only what they need is
 *   computed, so the page asks for the members a visible tab shows),
 *   borrowed until the next such call or read.
 *
 *   tp_wasm_reading (which) / tp_wasm_reading_length (which): the text of
 *   one reading of the last tp_wasm_read (a TpReading: the JSON holds
 *   only the readings the page shows in full; the check tab wants the
 *   check reading's own text), borrowed, valid until the next read.
 *
 *   tp_wasm_json_without_map () / tp_wasm_json_without_map_length (): the
 *   same JSON without its "map" member (tp_session_to_json_without_map,
 *   made by the read: it is what the page reads), and tp_wasm_map (which) /
 *   tp_wasm_map_length (which) that reading's map as int32 values (see
 *   tp_wasm_map): the page's worker takes the map in as numbers instead
 *   of parsing it (70% of the time JSON.parse took on a 300-line
 *   program).  tp_wasm_token_class_name (k) and tp_wasm_line_role_name
 *   (k) name the map's numbers ("" past the last).
 *
 *   The teaching model: tp_wasm_step_text (k) / _length (step k's
 *   sentence, for a step past those the JSON's "steps" spells out),
 *   tp_wasm_node_states (k) / _length (every node's TpNodeState after
 *   step k, one byte each), tp_wasm_node_value_text (node, max) (a node's
 *   value as the values reading writes a tensor, at most max elements in
 *   full: what the step-through shows of its step's node),
 *   tp_wasm_short_number (v) (the short number format), and for the last training tp_wasm_train_at (k) (the
 *   parameters after k steps), tp_wasm_train_apply (k) (the program with
 *   them written in; "" and tp_wasm_train_why () when it cannot be) and
 *   tp_wasm_train_text (4) (the sentence that heads it).
 *
 *   Lessons (docs/lessons.md): tp_wasm_lesson_open (text, length) reads a
 *   lesson (1 read, 0 refused, -1 out of memory) and tp_wasm_lesson_json
 *   () / _length () give it as the engine's JSON (its "choices" are what
 *   the student's program is read with); tp_wasm_lesson_grade (answers,
 *   n_answers, flags) grades the last tp_wasm_read against it (answers:
 *   n int32 choices, -1 for none; flags: TP_GRADE_NO_TRAINING) and gives
 *   the grade's JSON, tp_wasm_lesson_grade_length () its length. */
#include <emscripten/emscripten.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tp-engine.h"

#define TP_WASM_MAX_OBSERVE 256

int         tp_wasm_read        (const char *source,
                                 size_t      source_len,
                                 const char *target,
                                 char       *observe,
                                 size_t      observe_len,
                                 int         flags,
                                 char       *remat,
                                 size_t      remat_len,
                                 const char *direction);
const char *tp_wasm_json        (void);
size_t      tp_wasm_json_length (void);
const char *tp_wasm_reading     (int         which);
size_t      tp_wasm_reading_length (int      which);
int         tp_wasm_train       (unsigned    steps,
                                 const char *rate,
                                 size_t      rate_len);
const char *tp_wasm_train_text  (int         which);
size_t      tp_wasm_train_length (int        which);
const char *tp_wasm_json_without_map (void);
size_t      tp_wasm_json_without_map_length (void);
const int32_t *tp_wasm_map      (int         which);
size_t      tp_wasm_map_length  (int         which);
const char *tp_wasm_token_class_name (int    klass);
const char *tp_wasm_line_role_name (int      role);
const char *tp_wasm_json_members (uint32_t   low,
                                  uint32_t   high);
size_t      tp_wasm_json_members_length (void);
const char *tp_wasm_step_text   (unsigned    k);
size_t      tp_wasm_step_text_length (unsigned k);
const uint8_t *tp_wasm_node_states (unsigned k);
size_t      tp_wasm_node_states_length (void);
const char *tp_wasm_node_value_text (uint32_t node,
                                     uint32_t max_elements);
const char *tp_wasm_short_number (double     value);
const char *tp_wasm_train_at    (unsigned    k);
const char *tp_wasm_train_apply (unsigned    k);
const char *tp_wasm_train_why   (void);
int         tp_wasm_lesson_open (const char *text,
                                 size_t      length);
const char *tp_wasm_lesson_json (void);
size_t      tp_wasm_lesson_json_length (void);
const char *tp_wasm_lesson_grade (const int32_t *answers,
                                  size_t         n_answers,
                                  unsigned       flags);
size_t      tp_wasm_lesson_grade_length (void);

static TpSession *session;
static char *json;
static size_t json_length;
static TpTrain *train;
static char *train_json;
static char *lean;              /* the JSON without "map", made by the read */
static size_t lean_length;
static int32_t *map_values;     /* tp_wasm_map's last answer */
static size_t map_count;
static char *members;           /* tp_wasm_json_members' last answer */
static size_t members_length;
static uint8_t *states;         /* tp_wasm_node_states' last answer */
static char *value_text;        /* tp_wasm_node_value_text's last answer */
static size_t states_length;
static char *applied;           /* tp_wasm_train_apply's last answer */
static const char *apply_why;
static TpLesson *lesson;        /* the lesson open */
static char *lesson_json;
static char *grade_json;        /* tp_wasm_lesson_grade's last answer */

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

/* Splits list (len bytes, each name ended by '\n') in place into names;
 * returns how many. */
static size_t
split_names (char *list, size_t len, const char **names)
{
  size_t n = 0;

  for (size_t start = 0, i = 0; list != NULL && i < len; i++)
    if (list[i] == '\n')
      {
        list[i] = '\0';
        if (i > start && n < TP_WASM_MAX_OBSERVE)
          names[n++] = list + start;
        start = i + 1;
      }
  return n;
}

EMSCRIPTEN_KEEPALIVE int
tp_wasm_read (const char *source,
              size_t      source_len,
              const char *target,
              char       *observe,
              size_t      observe_len,
              int         flags,
              char       *remat,
              size_t      remat_len,
              const char *direction)
{
  const char *names[TP_WASM_MAX_OBSERVE];
  const char *remat_names[TP_WASM_MAX_OBSERVE];
  TpChoices choices = {
    .target = NULL,
    .observe = names,
    .exact = (flags & 1) != 0,
    .optimize = (flags & 2) != 0,
    .remat = remat_names,
    .remat_auto = (flags & 4) != 0,
    .direction = direction != NULL && direction[0] != '\0' ? direction : NULL,
  };
  TpStatus status;

  tp_string_free (json);
  json = NULL;
  json_length = 0;
  tp_string_free (lean);
  lean = NULL;
  lean_length = 0;
  tp_string_free (members);
  members = NULL;
  members_length = 0;

  if (target != NULL && target[0] != '\0')
    choices.target = target;

  choices.n_observe = split_names (observe, observe_len, names);
  choices.n_remat = split_names (remat, remat_len, remat_names);

  if (session == NULL)
    session = tp_session_new ();
  if (session == NULL)
    return TP_STATUS_NO_MEMORY;

  status = tp_session_compile (session, source, source_len, &choices);
  return (int) status;
}

/* The JSON of the last tp_wasm_read (made on the first call after it),
 * borrowed. */
EMSCRIPTEN_KEEPALIVE const char *
tp_wasm_json (void)
{
  if (json == NULL && session != NULL)
    {
      json = tp_session_to_json (session);
      json_length = json != NULL ? strlen (json) : 0;
    }
  return json != NULL ? json : no_memory_json;
}

EMSCRIPTEN_KEEPALIVE size_t
tp_wasm_json_length (void)
{
  tp_wasm_json ();
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
  if (session == NULL || which < 0 || which >= TP_N_READINGS)
    return 0;
  return tp_session_reading_length (session, (TpReading) which);
}

/* Trains on the program of the last tp_wasm_read (tp_session_train):
 * returns 1 when it ran, 0 when it was refused (the JSON's "error" says
 * why), -1 when memory ran out.  Then tp_wasm_train_text (0) is the train
 * JSON object, (1) the train reading, (2) the loss curve's SVG, (3) the
 * parameters after the last update, as values lines, (4) the sentence
 * that heads it (tp_train_summary). */
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
    case 4:
      return tp_train_summary (train);
    default:
      return tp_train_parameters (train);
    }
}

EMSCRIPTEN_KEEPALIVE size_t
tp_wasm_train_length (int which)
{
  return strlen (tp_wasm_train_text (which));
}

/* The JSON of the last tp_wasm_read without its "map" member, borrowed;
 * the out-of-memory JSON when it could not be made. */
EMSCRIPTEN_KEEPALIVE const char *
tp_wasm_json_without_map (void)
{
  if (lean == NULL && session != NULL)
    {
      lean = tp_session_to_json_without_map (session);
      lean_length = lean != NULL ? strlen (lean) : 0;
    }
  return lean != NULL ? lean : no_memory_json;
}

EMSCRIPTEN_KEEPALIVE size_t
tp_wasm_json_without_map_length (void)
{
  tp_wasm_json_without_map ();
  return lean != NULL ? lean_length : sizeof no_memory_json - 1;
}

/* The chosen members of the last read's JSON, borrowed; the out-of-memory
 * JSON when it could not be made. */
EMSCRIPTEN_KEEPALIVE const char *
tp_wasm_json_members (uint32_t low, uint32_t high)
{
  tp_string_free (members);
  members = NULL;
  members_length = 0;
  if (session != NULL)
    members = tp_session_to_json_members (session,
                                          (uint64_t) high << 32 | low);
  members_length = members != NULL ? strlen (members) : 0;
  return members != NULL ? members : no_memory_json;
}

EMSCRIPTEN_KEEPALIVE size_t
tp_wasm_json_members_length (void)
{
  return members != NULL ? members_length : sizeof no_memory_json - 1;
}

EMSCRIPTEN_KEEPALIVE const char *
tp_wasm_step_text (unsigned k)
{
  size_t length;
  const char *text = session != NULL
                     ? tp_session_step_text (session, k, &length) : NULL;

  /* a step's sentence is never longer than its own buffer: it ends at a
   * NUL when it is a later step's, and within the session's text
   * otherwise; the caller copies tp_wasm_step_text_length bytes */
  return text != NULL ? text : "";
}

EMSCRIPTEN_KEEPALIVE size_t
tp_wasm_step_text_length (unsigned k)
{
  size_t length = 0;

  if (session == NULL || tp_session_step_text (session, k, &length) == NULL)
    return 0;
  return length;
}

/* Every node's state after step k, one byte each; NULL (length 0) when k
 * is out of range or memory runs out. */
/* Tangent step k's sentence (forward mode's step-through, for a step
 * past the JSON's first TP_STEP_TEXTS), its length in
 * tp_wasm_forward_step_text_length; "" (length 0) out of range.  One
 * call makes the text: the length is this call's, kept beside it. */
static size_t forward_step_length;

EMSCRIPTEN_KEEPALIVE const char *
tp_wasm_forward_step_text (unsigned k)
{
  const char *text = NULL;

  forward_step_length = 0;
  if (session != NULL)
    text = tp_session_forward_step_text (session, k, &forward_step_length);
  if (text == NULL)
    forward_step_length = 0;
  return text != NULL ? text : "";
}

EMSCRIPTEN_KEEPALIVE size_t
tp_wasm_forward_step_text_length (void)
{
  return forward_step_length;
}

EMSCRIPTEN_KEEPALIVE const uint8_t *
tp_wasm_node_states (unsigned k)
{
  size_t n = session != NULL ? tp_session_n_nodes (session) : 0;

  free (states);
  states = NULL;
  states_length = 0;
  if (n == 0 || (states = malloc (n)) == NULL)
    return NULL;
  if (!tp_session_node_states (session, k, states, n))
    {
      free (states);
      states = NULL;
      return NULL;
    }
  states_length = n;
  return states;
}

EMSCRIPTEN_KEEPALIVE size_t
tp_wasm_node_states_length (void)
{
  return states_length;
}

/* Node's value as the values reading writes a tensor, at most
 * max_elements in full (tp_session_node_value_text), borrowed until the
 * next call; "" when there is none (refused, out of range, out of
 * memory). */
EMSCRIPTEN_KEEPALIVE const char *
tp_wasm_node_value_text (uint32_t node, uint32_t max_elements)
{
  tp_string_free (value_text);
  value_text = session != NULL
               ? tp_session_node_value_text (session, node, max_elements)
               : NULL;
  return value_text != NULL ? value_text : "";
}

EMSCRIPTEN_KEEPALIVE const char *
tp_wasm_short_number (double value)
{
  static char text[TP_SHORT_NUMBER_MAX];

  tp_short_number (value, text);
  return text;
}

/* The parameters after k steps of the last training, as values lines in
 * the short number format (shown outside the readings); "" when there is
 * none. */
EMSCRIPTEN_KEEPALIVE const char *
tp_wasm_train_at (unsigned k)
{
  const char *text = train != NULL ? tp_train_parameters_short_at (train, k) : NULL;

  return text != NULL ? text : "";
}

/* The program with the parameters after k steps of the last training
 * written in; "" with tp_wasm_train_why () saying why when it cannot be. */
EMSCRIPTEN_KEEPALIVE const char *
tp_wasm_train_apply (unsigned k)
{
  tp_string_free (applied);
  applied = NULL;
  apply_why = "there is no training";
  if (train != NULL)
    applied = tp_train_apply (train, k, &apply_why);
  if (applied == NULL && apply_why == NULL)
    apply_why = "the page ran out of memory";
  return applied != NULL ? applied : "";
}

EMSCRIPTEN_KEEPALIVE const char *
tp_wasm_train_why (void)
{
  return apply_why != NULL ? apply_why : "";
}

/* The map of reading which (TP_READING_SPEC .. TP_READING_VALUES) of the
 * last tp_wasm_read, as int32 values: the line count, the ref count, then
 * per line its node (-1 for none) and role, then per ref its line, start
 * and end bytes, class and node (-1 for none); borrowed until the next
 * call.  NULL (length 0) when memory runs out. */
EMSCRIPTEN_KEEPALIVE const int32_t *
tp_wasm_map (int which)
{
  size_t n_lines = 0, n_refs = 0, k = 0;

  free (map_values);
  map_values = NULL;
  map_count = 0;
  if (session != NULL && which >= 0 && which < TP_N_READINGS)
    {
      n_lines = tp_session_map_n_lines (session, (TpReading) which);
      n_refs = tp_session_map_n_refs (session, (TpReading) which);
    }
  map_values = malloc ((2 + 2 * n_lines + 5 * n_refs) * sizeof *map_values);
  if (map_values == NULL)
    return NULL;
  map_values[k++] = (int32_t) n_lines;
  map_values[k++] = (int32_t) n_refs;
  for (size_t i = 0; i < n_lines; i++)
    {
      TpMapLine line = { TP_MAP_NO_NODE, 0, 0, 0 };

      tp_session_map_line (session, (TpReading) which, i, &line);
      map_values[k++] = line.node == TP_MAP_NO_NODE ? -1 : (int32_t) line.node;
      map_values[k++] = (int32_t) line.role;
    }
  for (size_t i = 0; i < n_refs; i++)
    {
      TpMapRef ref = { 0, 0, 0, 0, TP_MAP_NO_NODE };

      tp_session_map_ref (session, (TpReading) which, i, &ref);
      map_values[k++] = (int32_t) ref.line;
      map_values[k++] = (int32_t) ref.start;
      map_values[k++] = (int32_t) ref.end;
      map_values[k++] = (int32_t) ref.klass;
      map_values[k++] = ref.node == TP_MAP_NO_NODE ? -1 : (int32_t) ref.node;
    }
  map_count = k;
  return map_values;
}

EMSCRIPTEN_KEEPALIVE size_t
tp_wasm_map_length (int which)
{
  (void) which;
  return map_count;
}

EMSCRIPTEN_KEEPALIVE const char *
tp_wasm_token_class_name (int klass)
{
  const char *name = klass >= 0 ? tp_token_class_name ((TpTokenClass) klass) : NULL;
  return name != NULL ? name : "";
}

EMSCRIPTEN_KEEPALIVE const char *
tp_wasm_line_role_name (int role)
{
  const char *name = role >= 0 ? tp_line_role_name ((TpLineRole) role) : NULL;
  return name != NULL ? name : "";
}

/* Reads the lesson of text (length bytes) in place of the one open. */
EMSCRIPTEN_KEEPALIVE int
tp_wasm_lesson_open (const char *text, size_t length)
{
  tp_lesson_free (lesson);
  tp_string_free (lesson_json);
  lesson_json = NULL;
  lesson = tp_lesson_parse (text, length);
  if (lesson == NULL)
    return -1;
  lesson_json = tp_lesson_to_json (lesson);
  if (lesson_json == NULL)
    return -1;
  return tp_lesson_error (lesson) == NULL ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE const char *
tp_wasm_lesson_json (void)
{
  return lesson_json != NULL ? lesson_json : "";
}

EMSCRIPTEN_KEEPALIVE size_t
tp_wasm_lesson_json_length (void)
{
  return strlen (tp_wasm_lesson_json ());
}

/* Grades the last read against the lesson open; its JSON, or "" when
 * there is no lesson or memory runs out. */
EMSCRIPTEN_KEEPALIVE const char *
tp_wasm_lesson_grade (const int32_t *answers, size_t n_answers,
                      unsigned flags)
{
  TpGrade *grade;

  tp_string_free (grade_json);
  grade_json = NULL;
  if (lesson == NULL || session == NULL)
    return "";
  grade = tp_lesson_grade (lesson, session, answers, n_answers, flags);
  if (grade != NULL)
    grade_json = tp_grade_to_json (grade);
  tp_grade_free (grade);
  return grade_json != NULL ? grade_json : "";
}

EMSCRIPTEN_KEEPALIVE size_t
tp_wasm_lesson_grade_length (void)
{
  return grade_json != NULL ? strlen (grade_json) : 0;
}
