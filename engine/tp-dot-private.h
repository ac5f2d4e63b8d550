/* tp-dot-private.h: what the picture's writers share (tp-dot.c, the
 * picture; tp-dot-tangent.c, forward mode's tangent band). */
#ifndef TP_DOT_PRIVATE_H
#define TP_DOT_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tp-buf.h"
#include "tp-dot.h"

/* The palette: Paul Tol's colour-blind-safe schemes.  Fills are light so
 * their dark text reads on any background; lines and free text are
 * mid-tones that show on a light and on a dark background.  No class is
 * told apart by colour alone: shapes, borders, dashes and words say it
 * too. */
#define INK          "#222222"   /* text on fills */
#define MID          "#808080"   /* lines, free text, outlines */
#define FILL_OP      "#BBCCEE"   /* forward op: pale blue */
#define FILL_PARAM   "#EEDD88"   /* parameter: light yellow */
#define FILL_INPUT   "#44BB99"   /* input: mint */
#define FILL_LEAF    "#DDDDDD"   /* leaf: pale grey */
#define FILL_DERIVED "#EE8866"   /* appended by differentiate: orange */
#define LINE_GRAD    "#EE7733"   /* gradient edges and band */
#define LINE_SAVED   "#EE3377"   /* saved-value edges: magenta */
#define LINE_RESULT  "#0077BB"   /* readable results: blue */
#define LINE_SKIP    "#80808099" /* edges into skipped nodes */
#define LINE_NONFINITE "#CC3311" /* where a non-finite value is born: red */
#define FILL_TANGENT "#CCDDAA"   /* recorded by forward mode: pale green */
#define LINE_TANGENT "#009988"   /* tangent edges and band: teal */
/* Graphviz knows Helvetica's metrics everywhere (the wasm build has no
 * font files) and writes it to SVG as "Helvetica,sans-Serif". */
#define FONT         "Helvetica"

/* The longest name or tag shown, in characters. */
#define TEXT_MAX 40

/* Appends text for an HTML-like label: & < > " ' as entities, a
 * backslash doubled, control characters as \u{..}, invalid UTF-8 as
 * U+FFFD, cut after max characters with "...". */
void tp_dot_put_html (TpBuf *out, const char *text, size_t max);

/* The forward band's ranks as tp_dot_cost estimates them (longest paths
 * down, each source sunk to just above its first reader) into rank, per
 * node below spec.  False when memory runs out. */
bool     tp_dot_forward_ranks  (const TpTape *t, uint32_t spec, uint32_t *rank);

/* tp-dot-tangent.c: the tangent band's layout cost as tp_dot_cost counts
 * it (its nodes, its edges and the ranks they cross), UINT64_MAX when
 * memory runs out;
 * the band itself, each parameter's direction level with it, and the
 * legend of its classes.  in->tangent is not NULL. */
uint64_t tp_dot_tangent_cost   (const TpDotInput *in);
void     tp_dot_put_tangent    (const TpDotInput *in, TpBuf *out);
void     tp_dot_tangent_legend (const TpDotInput *in, TpBuf *out);
/* The note that says the band is left out: cost (the picture's with the
 * band) is over budget. */
void     tp_dot_tangent_note   (const TpDotInput *in, uint64_t cost,
                                uint32_t budget, TpBuf *out);

#endif /* TP_DOT_PRIVATE_H */
