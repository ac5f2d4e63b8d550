/* tp-fusion.c: loop fusion over the plan's schedule (tp-fusion.h).
 *
 * A walk from the last step back: a step that may be fused (element-wise)
 * joins the kernel of its readers when they are all in one kernel that
 * takes producers; any other step starts a kernel.  The readers of a step
 * are walked before it, so each step is decided once.  No kernel can
 * need its own output through another kernel: a step joins only when
 * every reader of it is already inside. */
#include "tp-fusion.h"

#include <string.h>

#include "tp-json.h"

static const char *const kind_names[TP_N_KERNEL_KINDS] = {
  [TP_KERNEL_ARGUMENT] = "argument",
  [TP_KERNEL_CONSTANT] = "constant",
  [TP_KERNEL_LOOP] = "loop",
  [TP_KERNEL_REDUCE] = "reduce",
  [TP_KERNEL_SOFTMAX] = "softmax",
  [TP_KERNEL_MATMUL] = "matmul",
};

const char *
tp_kernel_kind_name (TpKernelKind kind)
{
  return (unsigned) kind < TP_N_KERNEL_KINDS ? kind_names[kind] : NULL;
}

/* The kernel an op starts when it starts one. */
static TpKernelKind
kind_of (TpOp op)
{
  switch (op)
    {
    case TP_OP_PARAMETER:
    case TP_OP_INPUT:
      return TP_KERNEL_ARGUMENT;
    case TP_OP_LEAF:
      return TP_KERNEL_CONSTANT;
    case TP_OP_MATMUL:
      return TP_KERNEL_MATMUL;
    case TP_OP_SUM:
    case TP_OP_SUM_ALONG:
      return TP_KERNEL_REDUCE;
    case TP_OP_LOG_SOFTMAX:
    case TP_OP_LOG_SUM_EXP:
      return TP_KERNEL_SOFTMAX;
    case TP_OP_ADD:
    case TP_OP_SUB:
    case TP_OP_MUL:
    case TP_OP_DIV:
    case TP_OP_MAXIMUM:
    case TP_OP_STEP:
    case TP_OP_NEG:
    case TP_OP_EXP:
    case TP_OP_LN:
    case TP_OP_SQRT:
    case TP_OP_TANH:
    case TP_OP_SIN:
    case TP_OP_COS:
    case TP_OP_BROADCAST:
    case TP_OP_BROADCAST_ALONG:
    case TP_OP_RESHAPE:
    case TP_OP_PERMUTE:
      break;
    }
  return TP_KERNEL_LOOP;
}

static bool
fusible (TpKernelKind kind)
{
  return kind == TP_KERNEL_LOOP || kind == TP_KERNEL_CONSTANT;
}

static bool
takes_producers (TpKernelKind kind)
{
  return kind == TP_KERNEL_LOOP || kind == TP_KERNEL_REDUCE
         || kind == TP_KERNEL_SOFTMAX;
}

bool
tp_fusion_build (TpFusion *f, const TpPlan *plan, TpArena *arena)
{
  const TpTape *t = plan->tape;
  uint32_t n = plan->n_order;
  uint32_t *operand;       /* per step, its operands' steps: [2 * s + k] */
  uint32_t *readers, *reader_at, *cur, *root_kind, *renumber, *stamp;
  uint8_t *leaves;
  uint32_t n_roots = 0;

  memset (f, 0, sizeof *f);
  f->plan = plan;
  operand = tp_arena_alloc (arena, (2 * (size_t) n + 1) * sizeof *operand);
  reader_at = tp_arena_calloc (arena, (size_t) n + 2, sizeof *reader_at);
  readers = tp_arena_alloc (arena, (2 * (size_t) n + 1) * sizeof *readers);
  cur = tp_arena_alloc (arena, ((size_t) t->len + 1) * sizeof *cur);
  root_kind = tp_arena_alloc (arena, ((size_t) n + 1) * sizeof *root_kind);
  renumber = tp_arena_alloc (arena, ((size_t) n + 1) * sizeof *renumber);
  stamp = tp_arena_alloc (arena, ((size_t) n + 1) * sizeof *stamp);
  leaves = tp_arena_calloc (arena, (size_t) n + 1, 1);
  f->kernel_of = tp_arena_alloc (arena, ((size_t) n + 1) * sizeof *f->kernel_of);
  f->step_list = tp_arena_alloc (arena, ((size_t) n + 1) * sizeof *f->step_list);
  if (operand == NULL || reader_at == NULL || readers == NULL || cur == NULL
      || root_kind == NULL || renumber == NULL || stamp == NULL
      || leaves == NULL || f->kernel_of == NULL || f->step_list == NULL)
    return false;

  /* Each step's operands, as the steps of the copies it reads, and the
   * readers of each step (counted, then placed). */
  for (uint32_t s = 0; s < n; s++)
    {
      TpNode i = plan->order[s];
      uint32_t arity = tp_op_info[t->op[i]].arity;
      for (uint32_t k = 0; k < 2; k++)
        {
          operand[2 * s + k] = UINT32_MAX;
          if (k < arity && !(k == 1 && t->arg[i][1] == t->arg[i][0]))
            {
              operand[2 * s + k] = cur[t->arg[i][k]];
              reader_at[operand[2 * s + k] + 1]++;
            }
        }
      cur[i] = s;
      leaves[s] = plan->readable[i] && !plan->again[s];
    }
  for (uint32_t s = 0; s < n; s++)
    reader_at[s + 1] += reader_at[s];
  for (uint32_t s = 0; s < n; s++)
    stamp[s] = reader_at[s];
  for (uint32_t s = 0; s < n; s++)
    for (uint32_t k = 0; k < 2; k++)
      if (operand[2 * s + k] != UINT32_MAX)
        readers[stamp[operand[2 * s + k]]++] = s;

  /* Back to front: join the readers' kernel, or start one (kernel ids
   * here are the root step's). */
  for (uint32_t s = n; s-- > 0;)
    {
      TpKernelKind kind = kind_of ((TpOp) t->op[plan->order[s]]);
      uint32_t first = reader_at[s], last = reader_at[s + 1];
      uint32_t k = first < last ? f->kernel_of[readers[first]] : UINT32_MAX;
      bool join = fusible (kind) && k != UINT32_MAX
                  && takes_producers ((TpKernelKind) root_kind[k]);
      for (uint32_t r = first; join && r < last; r++)
        join = f->kernel_of[readers[r]] == k;
      if (join)
        f->kernel_of[s] = k;
      else
        {
          f->kernel_of[s] = s;
          root_kind[s] = kind == TP_KERNEL_CONSTANT && first < last
                         ? TP_KERNEL_CONSTANT : kind;
          n_roots++;
        }
    }

  /* Number the kernels by their first step, and list their steps. */
  f->kernels = tp_arena_alloc (arena, ((size_t) n_roots + 1)
                                      * sizeof *f->kernels);
  if (f->kernels == NULL)
    return false;
  for (uint32_t s = 0; s < n; s++)
    renumber[s] = UINT32_MAX;
  for (uint32_t s = 0; s < n; s++)
    {
      uint32_t root = f->kernel_of[s];
      if (renumber[root] == UINT32_MAX)
        {
          TpKernel *kernel = &f->kernels[f->n_kernels];
          renumber[root] = f->n_kernels++;
          memset (kernel, 0, sizeof *kernel);
          kernel->kind = (uint8_t) root_kind[root];
        }
      f->kernels[renumber[root]].n++;
    }
  for (uint32_t k = 0, at = 0; k < f->n_kernels; k++)
    {
      f->kernels[k].first = at;
      at += f->kernels[k].n;
      f->kernels[k].n = 0;
    }
  for (uint32_t s = 0; s < n; s++)
    {
      TpKernel *kernel = &f->kernels[renumber[f->kernel_of[s]]];
      f->kernel_of[s] = renumber[f->kernel_of[s]];
      f->step_list[kernel->first + kernel->n++] = s;
    }

  /* The traffic: a kernel reads each outside step once and writes each
   * of its steps that is read outside it or is a result. */
  for (uint32_t s = 0; s < n; s++)
    stamp[s] = UINT32_MAX;
  for (uint32_t k = 0; k < f->n_kernels; k++)
    {
      TpKernel *kernel = &f->kernels[k];
      if (kernel->kind == TP_KERNEL_ARGUMENT)
        continue;
      f->n_computed++;
      f->n_fused += kernel->n > 1;
      for (uint32_t m = 0; m < kernel->n; m++)
        {
          uint32_t s = f->step_list[kernel->first + m];
          uint64_t bytes = 4 * tp_shape_volume (&t->shape[plan->order[s]]);
          bool out = leaves[s];
          for (uint32_t j = 0; j < 2; j++)
            {
              uint32_t p = operand[2 * s + j];
              if (p == UINT32_MAX || f->kernel_of[p] == k || stamp[p] == k)
                continue;
              stamp[p] = k;
              kernel->bytes_read
                += 4 * tp_shape_volume (&t->shape[plan->order[p]]);
            }
          for (uint32_t r = reader_at[s]; r < reader_at[s + 1] && !out; r++)
            out = f->kernel_of[readers[r]] != k;
          if (out)
            kernel->bytes_written += bytes;
        }
      f->bytes_fused += kernel->bytes_read + kernel->bytes_written;
    }
  /* Unfused, every step that computes reads its operands and writes its
   * result. */
  for (uint32_t s = 0; s < n; s++)
    {
      if (kind_of ((TpOp) t->op[plan->order[s]]) == TP_KERNEL_ARGUMENT)
        continue;
      f->bytes_unfused += 4 * tp_shape_volume (&t->shape[plan->order[s]]);
      for (uint32_t j = 0; j < 2; j++)
        if (operand[2 * s + j] != UINT32_MAX)
          f->bytes_unfused
            += 4 * tp_shape_volume (&t->shape[plan->order[operand[2 * s + j]]]);
    }
  return true;
}

static void
put_count (TpBuf *out, uint64_t n, const char *one, const char *many)
{
  char grouped[27];

  tp_grouped_number (n, grouped);
  tp_buf_puts (out, grouped);
  tp_buf_putc (out, ' ');
  tp_buf_puts (out, n == 1 ? one : many);
}

void
tp_fusion_sentence (const TpFusion *f, TpBuf *out)
{
  uint64_t saved = f->bytes_unfused > f->bytes_fused
                   ? f->bytes_unfused - f->bytes_fused : 0;
  uint32_t computing = 0;

  for (uint32_t k = 0; k < f->n_kernels; k++)
    if (f->kernels[k].kind != TP_KERNEL_ARGUMENT)
      computing += f->kernels[k].n;
  tp_buf_puts (out, "Fused, the ");
  put_count (out, computing, "computed node", "computed nodes");
  tp_buf_puts (out, " run as ");
  put_count (out, f->n_computed, "kernel", "kernels");
  if (f->bytes_unfused == 0)
    {
      tp_buf_puts (out, " and move no memory.");
      return;
    }
  tp_buf_puts (out, ": memory traffic ");
  put_count (out, f->bytes_fused, "byte", "bytes");
  tp_buf_puts (out, " instead of ");
  put_count (out, f->bytes_unfused, "byte", "bytes");
  tp_buf_puts (out, " (");
  tp_buf_u64 (out, saved * 100 / f->bytes_unfused);
  tp_buf_puts (out, "% less).");
}

static void
put_pad_u64 (TpBuf *out, uint64_t value, size_t width)
{
  char tmp[24];
  size_t n = 0;

  do
    {
      tmp[n++] = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value != 0);
  if (n < width)
    tp_buf_spaces (out, width - n);
  while (n > 0)
    tp_buf_putc (out, tmp[--n]);
}

void
tp_fusion_describe (const TpFusion *f, TpBuf *out, TpMap *map)
{
  const TpPlan *plan = f->plan;

  tp_map_line (map, out, TP_MAP_NO_NODE, TP_ROLE_FRAME);
  tp_buf_puts (out, "kernel  kind          read   written  nodes\n");
  for (uint32_t k = 0; k < f->n_kernels; k++)
    {
      const TpKernel *kernel = &f->kernels[k];
      TpNode root = plan->order[f->step_list[kernel->first + kernel->n - 1]];
      size_t mark, at;

      if (k == TP_FUSION_TEXT_KERNELS)
        {
          tp_map_line (map, out, TP_MAP_NO_NODE, TP_ROLE_NOTE);
          tp_buf_puts (out, "... ");
          tp_buf_u64 (out, f->n_kernels - k);
          tp_buf_puts (out, " more kernels: the text lists the first ");
          tp_buf_u64 (out, TP_FUSION_TEXT_KERNELS);
          tp_buf_putc (out, '\n');
          break;
        }
      tp_map_line (map, out, root, TP_ROLE_NODE);
      put_pad_u64 (out, k, 6);
      tp_buf_append (out, "  ", 2);
      mark = out->len;
      tp_buf_puts (out, kind_names[kernel->kind]);
      tp_map_ref (map, out, mark, TP_TOKEN_OP, TP_MAP_NO_NODE);
      tp_buf_pad_from (out, mark, 8);
      put_pad_u64 (out, kernel->bytes_read, 10);
      put_pad_u64 (out, kernel->bytes_written, 10);
      tp_buf_append (out, "  ", 2);
      for (uint32_t m = 0; m < kernel->n; m++)
        {
          TpNode i = plan->order[f->step_list[kernel->first + m]];
          if (m > 0)
            tp_buf_append (out, ", ", 2);
          at = out->len;
          tp_buf_u64 (out, i);
          tp_map_ref (map, out, at, TP_TOKEN_OPERAND, i);
        }
      tp_buf_putc (out, '\n');
    }
  tp_map_line (map, out, TP_MAP_NO_NODE, TP_ROLE_FOOTER);
  tp_buf_puts (out, "fusion: ");
  tp_buf_u64 (out, plan->n_order);
  tp_buf_puts (out, " steps in ");
  tp_buf_u64 (out, f->n_kernels);
  tp_buf_puts (out, " kernels (");
  tp_buf_u64 (out, f->n_computed);
  tp_buf_puts (out, " that compute, ");
  tp_buf_u64 (out, f->n_fused);
  tp_buf_puts (out, " of several nodes); bytes moved ");
  tp_buf_u64 (out, f->bytes_fused);
  tp_buf_puts (out, " fused, ");
  tp_buf_u64 (out, f->bytes_unfused);
  tp_buf_puts (out, " unfused\n");
  tp_map_line (map, out, TP_MAP_NO_NODE, TP_ROLE_NOTE);
  tp_fusion_sentence (f, out);
  tp_buf_putc (out, '\n');
}

void
tp_fusion_json (const TpFusion *f, TpBuf *out)
{
  TpBuf sentence;

  tp_buf_puts (out, "{\"kernels\":[");
  for (uint32_t k = 0; f != NULL && k < f->n_kernels; k++)
    {
      const TpKernel *kernel = &f->kernels[k];
      if (k > 0)
        tp_buf_putc (out, ',');
      tp_buf_puts (out, "{\"kind\":\"");
      tp_buf_puts (out, kind_names[kernel->kind]);
      tp_buf_puts (out, "\",\"nodes\":[");
      for (uint32_t m = 0; m < kernel->n; m++)
        {
          if (m > 0)
            tp_buf_putc (out, ',');
          tp_buf_u64 (out, f->plan->order[f->step_list[kernel->first + m]]);
        }
      tp_buf_puts (out, "],\"bytes_read\":");
      tp_buf_u64 (out, kernel->bytes_read);
      tp_buf_puts (out, ",\"bytes_written\":");
      tp_buf_u64 (out, kernel->bytes_written);
      tp_buf_putc (out, '}');
    }
  tp_buf_puts (out, "],\"bytes_unfused\":");
  tp_buf_u64 (out, f != NULL ? f->bytes_unfused : 0);
  tp_buf_puts (out, ",\"bytes_fused\":");
  tp_buf_u64 (out, f != NULL ? f->bytes_fused : 0);
  tp_buf_puts (out, ",\"sentence\":");
  tp_buf_init (&sentence);
  if (f != NULL)
    tp_fusion_sentence (f, &sentence);
  tp_json_string (out, sentence.data != NULL ? sentence.data : "",
                  sentence.len);
  out->failed = out->failed || sentence.failed;
  tp_buf_clear (&sentence);
  tp_buf_putc (out, '}');
}
