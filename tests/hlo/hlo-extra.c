/* hlo-extra: prints one JSON object a line for each tape-API case of
 * hlo-cases.h, in the shape of `topos --json` (name, stablehlo, arguments,
 * results with the interpreter's values), for roundtrip.py. */
#include <stdio.h>
#include <stdlib.h>

#include "hlo-cases.h"
#include "tp-alloc.h"
#include "tp-buf.h"
#include "tp-hlo.h"
#include "tp-json.h"
#include "tp-plan.h"
#include "tp-run.h"

static void
put_value (TpBuf *out, const TpTape *t, float **values, TpNode node,
           bool first)
{
  uint64_t budget = UINT64_MAX;

  if (!first)
    tp_buf_putc (out, ',');
  tp_buf_puts (out, "{\"node\":");
  tp_buf_u64 (out, node);
  tp_buf_puts (out, ",\"value\":");
  tp_json_tensor (out, values[node], &t->shape[node], &budget);
  tp_buf_putc (out, '}');
}

static bool
emit_case (const HloCaseInfo *info, TpBuf *out)
{
  TpArena arena;
  HloCase c;
  TpPlan plan;
  TpBuf text;
  float **values;
  TpNode *args;
  uint32_t n_args;
  bool ok = false;

  tp_arena_init (&arena);
  memset (&c, 0, sizeof c);
  tp_tape_init (&c.tape, &arena);
  info->build (&c);
  tp_buf_init (&text);
  values = tp_arena_alloc (&arena, (c.tape.len + 1) * sizeof *values);
  args = tp_arena_alloc (&arena, (c.tape.len + 1) * sizeof *args);
  if (c.tape.error != TP_TAPE_OK || values == NULL || args == NULL
      || !tp_run_forward (&c.tape, &arena, values)
      || !tp_plan_lower (&plan, &c.tape, &arena, c.roots, c.n_roots,
                         c.observe, c.n_observe, false))
    goto out;
  tp_hlo_emit (&plan, &text);
  if (text.failed)
    goto out;

  tp_buf_putc (out, '{');
  tp_json_key (out, "name", true);
  tp_json_string (out, info->name, strlen (info->name));
  tp_json_key (out, "stablehlo", false);
  tp_json_string (out, text.data, text.len);
  tp_json_key (out, "arguments", false);
  tp_buf_putc (out, '[');
  n_args = tp_hlo_arguments (&plan, args);
  for (uint32_t k = 0; k < n_args; k++)
    put_value (out, &c.tape, values, args[k], k == 0);
  tp_buf_putc (out, ']');
  tp_json_key (out, "results", false);
  tp_buf_putc (out, '[');
  for (uint32_t k = 0; k < plan.n_results; k++)
    put_value (out, &c.tape, values, plan.results[k], k == 0);
  tp_buf_puts (out, "]}\n");
  ok = !out->failed;
out:
  tp_buf_clear (&text);
  tp_arena_reset (&arena);
  return ok;
}

int
main (void)
{
  TpBuf out;

  tp_buf_init (&out);
  for (size_t k = 0; k < sizeof hlo_cases / sizeof hlo_cases[0]; k++)
    if (hlo_cases[k].round_trip && !emit_case (&hlo_cases[k], &out))
      {
        fprintf (stderr, "hlo-extra: case %s could not be built\n",
                 hlo_cases[k].name);
        return 1;
      }
  fwrite (out.data, 1, out.len, stdout);
  tp_buf_clear (&out);
  return 0;
}
