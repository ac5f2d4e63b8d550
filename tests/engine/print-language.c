/* print-language: the language's words from the op table
 * (engine/tp-ops.def), one "FORM WORD OP" a line, for check-language.py:
 * every op written as a source, function or operator, then the
 * composites.  FORM is source, unary, axis, shaped, operator (binary) or
 * prefix (unary operator); OP is the printed name of the op the word
 * records (a composite: the op it is written for). */
#include <stdio.h>

#include "tp-tape.h"

static const char *
form_name (TpForm form, unsigned arity)
{
  switch (form)
    {
    case TP_FORM_SOURCE:
      return "source";
    case TP_FORM_UNARY:
      return "unary";
    case TP_FORM_AXIS:
      return "axis";
    case TP_FORM_SHAPED:
      return "shaped";
    case TP_FORM_OPERATOR:
      return arity == 1 ? "prefix" : "operator";
    case TP_FORM_NONE:
      break;
    }
  return NULL;
}

int
main (void)
{
  for (int op = 0; op < TP_N_OPS; op++)
    {
      const char *form = form_name ((TpForm) tp_op_info[op].form,
                                    tp_op_info[op].arity);
      if (form != NULL)
        printf ("%s %s %s\n", form, tp_op_info[op].written,
                tp_op_info[op].name);
    }
  for (int k = 0; k < TP_N_COMPOSITES; k++)
    printf ("%s %s %s\n", form_name ((TpForm) tp_composite_info[k].form, 1),
            tp_composite_info[k].written,
            tp_op_info[tp_composite_info[k].records].name);
  return 0;
}
