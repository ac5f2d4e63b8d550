/* tp-run.c: per-op kernels in the fixed orders of docs/language.md, values. */
#include "tp-run.h"

#include <string.h>

#include "tp-math.h"

/* out[i, j] = a[i,0]*b[0,j], then + a[i,p]*b[p,j] for p = 1.. in order.
 * Speed comes from computing an 8 x 32 tile of outputs at once, each tile
 * element still summed over p in order (no reassociation, no FMA: the
 * build uses -ffp-contract=off). */
#define TILE_I 8
#define TILE_J 32

/* On x86-64 with GCC the tile kernel is also compiled for AVX2 and
 * AVX-512, and the first matmul with a whole tile asks the processor
 * which it can run (cpuid, once).  Asking only then, rather than with
 * target_clones' resolver at load time, keeps a process that multiplies
 * no big matrix (the command line on a small program) from paying for
 * it.  Wider vectors change nothing in the order of operations, and
 * -ffp-contract=off keeps FMA out, so every variant gives the same bits. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) \
    && !defined(__SANITIZE_ADDRESS__) && defined(__linux__)
#define TP_DISPATCH 1
#include <cpuid.h>
#include <stdatomic.h>
#endif

static inline __attribute__ ((always_inline)) void
matmul_tile_body (const float *a, const float *b, float *out, uint32_t k,
                  uint32_t n, uint32_t i0, uint32_t j0)
{
  float acc[TILE_I][TILE_J];

  for (uint32_t r = 0; r < TILE_I; r++)
    {
      float x = a[(size_t) (i0 + r) * k];
      for (uint32_t c = 0; c < TILE_J; c++)
        acc[r][c] = x * b[j0 + c];
    }
  for (uint32_t p = 1; p < k; p++)
    {
      const float *brow = b + (size_t) p * n + j0;
      for (uint32_t r = 0; r < TILE_I; r++)
        {
          float x = a[(size_t) (i0 + r) * k + p];
          for (uint32_t c = 0; c < TILE_J; c++)
            acc[r][c] = acc[r][c] + x * brow[c];
        }
    }
  for (uint32_t r = 0; r < TILE_I; r++)
    memcpy (out + (size_t) (i0 + r) * n + j0, acc[r], sizeof acc[r]);
}

typedef void (*TileFn) (const float *, const float *, float *, uint32_t,
                        uint32_t, uint32_t, uint32_t);

/* noinline: the tile is a big function (its 8 x 32 accumulators
 * unrolled); inside tp_matmul it would make V8 optimize it with every
 * matmul, even one with no full tile (HACKING.md T4). */
__attribute__ ((noinline)) static void
matmul_tile_generic (const float *a, const float *b, float *out, uint32_t k,
                     uint32_t n, uint32_t i0, uint32_t j0)
{
  matmul_tile_body (a, b, out, k, n, i0, j0);
}

#ifdef TP_DISPATCH
__attribute__ ((target ("avx2"))) static void
matmul_tile_avx2 (const float *a, const float *b, float *out, uint32_t k,
                  uint32_t n, uint32_t i0, uint32_t j0)
{
  matmul_tile_body (a, b, out, k, n, i0, j0);
}

__attribute__ ((target ("avx512f"))) static void
matmul_tile_avx512 (const float *a, const float *b, float *out, uint32_t k,
                    uint32_t n, uint32_t i0, uint32_t j0)
{
  matmul_tile_body (a, b, out, k, n, i0, j0);
}

/* 0 not asked yet, 1 generic, 2 AVX2, 3 AVX-512F.  The vector registers
 * must be enabled by the system too (OSXSAVE, then XCR0's state bits). */
static atomic_int tile_level;

static int
ask_tile_level (void)
{
  unsigned a, b, c, d, lo, hi;
  int level = 1;

  if (__get_cpuid (1, &a, &b, &c, &d) && (c & bit_OSXSAVE) && (c & bit_AVX))
    {
      __asm__ ("xgetbv" : "=a" (lo), "=d" (hi) : "c" (0));
      if ((lo & 0x6) == 0x6 && __get_cpuid_count (7, 0, &a, &b, &c, &d))
        {
          if (b & bit_AVX2)
            level = 2;
          if ((b & bit_AVX512F) && (lo & 0xE6) == 0xE6)
            level = 3;
        }
    }
  return level;
}

static TileFn
pick_tile (void)
{
  int level = atomic_load_explicit (&tile_level, memory_order_relaxed);

  if (level == 0)
    {
      level = ask_tile_level ();
      atomic_store_explicit (&tile_level, level, memory_order_relaxed);
    }
  return level == 3 ? matmul_tile_avx512
         : level == 2 ? matmul_tile_avx2 : matmul_tile_generic;
}
#else
static TileFn
pick_tile (void)
{
  return matmul_tile_generic;
}
#endif

/* The rows and columns that do not fill a tile: row by row, each output
 * row seeded with the first products and then added to for p = 1.. in
 * order (vectorises across j, keeps every element's order). */
static void
matmul_edge (const float *a, const float *b, float *out, uint32_t k,
             uint32_t n, uint32_t i0, uint32_t i1, uint32_t j0, uint32_t j1)
{
  for (uint32_t i = i0; i < i1; i++)
    {
      float *restrict row = out + (size_t) i * n;
      const float *arow = a + (size_t) i * k;
      for (uint32_t j = j0; j < j1; j++)
        row[j] = arow[0] * b[j];
      for (uint32_t p = 1; p < k; p++)
        {
          const float *restrict brow = b + (size_t) p * n;
          float x = arow[p];
          for (uint32_t j = j0; j < j1; j++)
            row[j] = row[j] + x * brow[j];
        }
    }
}

void
tp_matmul (const float *a, const float *b, float *out, uint32_t m,
           uint32_t k, uint32_t n)
{
  uint32_t mi = m - m % TILE_I, nj = n - n % TILE_J;
  TileFn tile = mi > 0 && nj > 0 ? pick_tile () : matmul_tile_generic;

  for (uint32_t i = 0; i < mi; i += TILE_I)
    for (uint32_t j = 0; j < nj; j += TILE_J)
      tile (a, b, out, k, n, i, j);
  if (nj < n)
    matmul_edge (a, b, out, k, n, 0, mi, nj, n);
  if (mi < m)
    matmul_edge (a, b, out, k, n, mi, m, 0, n);
}

/* Splits a shape around axis k: outer * extent * inner. */
static void
split_axis (const TpShape *s, uint32_t axis, size_t *outer, size_t *extent,
            size_t *inner)
{
  *outer = 1;
  *inner = 1;
  for (uint32_t d = 0; d < axis; d++)
    *outer *= s->dims[d];
  *extent = s->dims[axis];
  for (uint32_t d = axis + 1; d < s->rank; d++)
    *inner *= s->dims[d];
}

/* out[o, i] = x[o,0,i] + x[o,1,i] + ... in order. */
static void
sum_along (const float *x, float *out, size_t outer, size_t n, size_t inner)
{
  for (size_t o = 0; o < outer; o++)
    {
      const float *src = x + o * n * inner;
      float *dst = out + o * inner;
      memcpy (dst, src, inner * sizeof *dst);
      for (size_t s = 1; s < n; s++)
        for (size_t i = 0; i < inner; i++)
          dst[i] = dst[i] + src[s * inner + i];
    }
}

static void
max_along (const float *x, float *out, size_t outer, size_t n, size_t inner)
{
  for (size_t o = 0; o < outer; o++)
    {
      const float *src = x + o * n * inner;
      float *dst = out + o * inner;
      memcpy (dst, src, inner * sizeof *dst);
      for (size_t s = 1; s < n; s++)
        for (size_t i = 0; i < inner; i++)
          dst[i] = tp_maximum (dst[i], src[s * inner + i]);
    }
}

/* LogSoftmax and LogSumExp share the stable walk: peak = max_k(x),
 * s = x - peak, total = sum_k(exp(s)), z = ln(total).  LogSoftmax gives
 * s - z, LogSumExp gives peak + z.  The scratch holds s and the reduced
 * rows; out may be reduced (LogSumExp) or full size. */
static void
log_softmax_like (const float *x, float *out, const TpShape *s,
                  uint32_t axis, bool keep_axis, float *scratch)
{
  size_t outer, n, inner;
  size_t reduced, volume;
  float *peak, *centered, *total;

  split_axis (s, axis, &outer, &n, &inner);
  reduced = outer * inner;
  volume = reduced * n;
  peak = scratch;
  total = scratch + reduced;
  centered = scratch + 2 * reduced;

  max_along (x, peak, outer, n, inner);
  for (size_t o = 0; o < outer; o++)
    for (size_t k = 0; k < n; k++)
      for (size_t i = 0; i < inner; i++)
        {
          size_t at = (o * n + k) * inner + i;
          centered[at] = x[at] - peak[o * inner + i];
        }
  /* exp(s) goes to out when out is full size (LogSoftmax), else to the
   * scratch after s. */
  {
    float *ex = keep_axis ? out : centered + volume;
    for (size_t e = 0; e < volume; e++)
      ex[e] = tp_expf (centered[e]);
    sum_along (ex, total, outer, n, inner);
  }
  for (size_t r = 0; r < reduced; r++)
    total[r] = tp_logf (total[r]);
  if (keep_axis)
    {
      for (size_t o = 0; o < outer; o++)
        for (size_t k = 0; k < n; k++)
          for (size_t i = 0; i < inner; i++)
            {
              size_t at = (o * n + k) * inner + i;
              out[at] = centered[at] - total[o * inner + i];
            }
    }
  else
    for (size_t r = 0; r < reduced; r++)
      out[r] = peak[r] + total[r];
}

static void
permute (const float *x, float *out, const TpShape *in, const uint8_t *order)
{
  size_t stride[TP_MAX_RANK], step[TP_MAX_RANK];
  uint32_t idx[TP_MAX_RANK], dims[TP_MAX_RANK];
  uint32_t rank = in->rank;
  size_t volume = (size_t) tp_shape_volume (in), src = 0;

  if (rank == 0)
    {
      out[0] = x[0];
      return;
    }
  stride[rank - 1] = 1;
  for (uint32_t d = rank - 1; d > 0; d--)
    stride[d - 1] = stride[d] * in->dims[d];
  for (uint32_t d = 0; d < rank; d++)
    {
      dims[d] = in->dims[order[d]];
      step[d] = stride[order[d]];
      idx[d] = 0;
    }
  for (size_t e = 0; e < volume; e++)
    {
      out[e] = x[src];
      for (uint32_t d = rank; d-- > 0;)
        {
          src += step[d];
          if (++idx[d] < dims[d])
            break;
          src -= step[d] * dims[d];
          idx[d] = 0;
        }
    }
}

static size_t
scratch_size (const TpTape *tape, TpNode i)
{
  TpOp op = (TpOp) tape->op[i];

  if (op == TP_OP_LOG_SOFTMAX || op == TP_OP_LOG_SUM_EXP)
    return 2 * (size_t) tp_shape_volume (&tape->shape[tape->arg[i][0]]) + 2
           * (size_t) tp_shape_volume (&tape->shape[i]);
  return 0;
}

static void
run_node (const TpTape *tape, TpNode i, float *const *values, float *out,
          float *scratch)
{
  TpOp op = (TpOp) tape->op[i];
  const TpShape *s = &tape->shape[i];
  size_t volume = (size_t) tp_shape_volume (s);
  TpNode ia = tape->arg[i][0], ib = tape->arg[i][1];
  const float *a = ia != TP_NO_NODE ? values[ia] : NULL;
  const float *b = ib != TP_NO_NODE ? values[ib] : NULL;
  const TpAttr *attr = &tape->attr[i];

  switch (op)
    {
    case TP_OP_LEAF:
    case TP_OP_PARAMETER:
    case TP_OP_INPUT:
      memcpy (out, tape->payload[i], volume * sizeof *out);
      break;
    case TP_OP_ADD:
      for (size_t e = 0; e < volume; e++)
        out[e] = a[e] + b[e];
      break;
    case TP_OP_SUB:
      for (size_t e = 0; e < volume; e++)
        out[e] = a[e] - b[e];
      break;
    case TP_OP_MUL:
      for (size_t e = 0; e < volume; e++)
        out[e] = a[e] * b[e];
      break;
    case TP_OP_DIV:
      for (size_t e = 0; e < volume; e++)
        out[e] = a[e] / b[e];
      break;
    case TP_OP_MAXIMUM:
      for (size_t e = 0; e < volume; e++)
        out[e] = tp_maximum (a[e], b[e]);
      break;
    case TP_OP_STEP:
      for (size_t e = 0; e < volume; e++)
        out[e] = a[e] >= b[e] ? 1.0f : 0.0f;
      break;
    case TP_OP_NEG:
      for (size_t e = 0; e < volume; e++)
        out[e] = -a[e];
      break;
    case TP_OP_EXP:
      for (size_t e = 0; e < volume; e++)
        out[e] = tp_expf (a[e]);
      break;
    case TP_OP_LN:
      for (size_t e = 0; e < volume; e++)
        out[e] = tp_logf (a[e]);
      break;
    case TP_OP_SQRT:
      for (size_t e = 0; e < volume; e++)
        out[e] = tp_sqrtf (a[e]);
      break;
    case TP_OP_TANH:
      for (size_t e = 0; e < volume; e++)
        out[e] = tp_tanhf (a[e]);
      break;
    case TP_OP_SIN:
      for (size_t e = 0; e < volume; e++)
        out[e] = tp_sinf (a[e]);
      break;
    case TP_OP_COS:
      for (size_t e = 0; e < volume; e++)
        out[e] = tp_cosf (a[e]);
      break;
    case TP_OP_MATMUL:
      {
        const TpShape *sa = &tape->shape[ia];
        tp_matmul (a, b, out, sa->dims[0], sa->dims[1], s->dims[1]);
      }
      break;
    case TP_OP_SUM:
      {
        size_t n = (size_t) tp_shape_volume (&tape->shape[ia]);
        float t = a[0];
        for (size_t e = 1; e < n; e++)
          t = t + a[e];
        out[0] = t;
      }
      break;
    case TP_OP_SUM_ALONG:
      {
        size_t outer, n, inner;
        split_axis (&tape->shape[ia], attr->axis, &outer, &n, &inner);
        sum_along (a, out, outer, n, inner);
      }
      break;
    case TP_OP_BROADCAST:
      for (size_t e = 0; e < volume; e++)
        out[e] = a[0];
      break;
    case TP_OP_BROADCAST_ALONG:
      {
        size_t outer, n, inner;
        split_axis (s, attr->axis, &outer, &n, &inner);
        for (size_t o = 0; o < outer; o++)
          for (size_t k = 0; k < n; k++)
            memcpy (out + (o * n + k) * inner, a + o * inner,
                    inner * sizeof *out);
      }
      break;
    case TP_OP_RESHAPE:
      memcpy (out, a, volume * sizeof *out);
      break;
    case TP_OP_PERMUTE:
      permute (a, out, &tape->shape[ia], attr->order);
      break;
    case TP_OP_LOG_SOFTMAX:
      log_softmax_like (a, out, &tape->shape[ia], attr->axis, true, scratch);
      break;
    case TP_OP_LOG_SUM_EXP:
      log_softmax_like (a, out, &tape->shape[ia], attr->axis, false, scratch);
      break;
    }
}

bool
tp_run_node (const TpTape *tape, TpNode i, float *const *values, float *out)
{
  size_t need = scratch_size (tape, i);
  float *scratch = NULL;

  if (need > 0)
    {
      scratch = tp_malloc (need * sizeof *scratch);
      if (scratch == NULL)
        return false;
    }
  run_node (tape, i, values, out, scratch);
  tp_free (scratch);
  return true;
}

size_t
tp_run_scratch_size (const TpTape *tape)
{
  size_t scratch_max = 0;

  for (TpNode i = 0; i < tape->len; i++)
    {
      size_t need = scratch_size (tape, i);
      if (need > scratch_max)
        scratch_max = need;
    }
  return scratch_max;
}

/* noinline: see tp_run_forward. */
__attribute__ ((noinline)) void
tp_run_again (const TpTape *tape, float *const *values, float *scratch,
              const uint8_t *run)
{
  for (TpNode i = 0; i < tape->len; i++)
    if (run != NULL ? run[i] : !tp_tape_is_source (tape, i))
      run_node (tape, i, values, values[i], scratch);
}

bool
tp_run_forward (const TpTape *tape, TpArena *arena, float **values)
{
  size_t scratch_max = tp_run_scratch_size (tape);
  float *scratch = NULL;

  if (scratch_max > 0)
    {
      scratch = tp_arena_alloc (arena, scratch_max * sizeof *scratch);
      if (scratch == NULL)
        return false;
    }
  for (TpNode i = 0; i < tape->len; i++)
    {
      if (tp_tape_is_source (tape, i))
        {
          values[i] = tape->payload[i];
          continue;
        }
      values[i] = tp_arena_alloc (arena, (size_t) tp_shape_volume (&tape->shape[i])
                                         * sizeof (float));
      if (values[i] == NULL)
        return false;
    }
  /* The first run is a run again into fresh buffers.  With the compiler
   * told not to inline it here, tp_run_again keeps two callers in wasm,
   * where wasm-opt inlines any function with one caller: into the training,
   * which a call runs once, so V8 would never move it from its baseline
   * tier and every step would run the node loop there (HACKING.md T4). */
  tp_run_again (tape, (float *const *) values, scratch, NULL);
  return true;
}
