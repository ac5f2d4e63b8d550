/* picture-test.h: what the picture's tests share (picture-test.c): an
 * SVG scanned for its node and edge groups, the samples, a compile, a
 * render that must succeed, and the tape's and plan's counts. */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tp-diff.h"
#include "tp-dot.h"
#include "tp-engine.h"
#include "tp-parse.h"
#include "tp-plan.h"
#include "tp-render.h"

#include <cgraph.h>

typedef struct
{
  GHashTable *nodes;   /* "n3" -> class string */
  GHashTable *edges;   /* "e3_0" -> class string */
  GHashTable *tangents;      /* the tangent band's: "t7" -> class string */
  GHashTable *tangent_edges; /* "te7_0" -> class string */
  guint texts;
} SvgScan;

/* Samples with a target and a name observed, or none. */
typedef struct
{
  const char *file;
  const char *target;
  const char *observe;
} Sample;

extern const Sample samples[];
extern const gsize n_samples;

/* A render made inside capture_std: the DOT in, the render out. */
typedef struct
{
  const char *dot;
  TpRender *render;
} NewJob;

void make_render (gpointer data);
void svg_scan (const char *svg, SvgScan *scan);
void svg_scan_clear (SvgScan *scan);
gboolean has_class (const char *classes, const char *word);
char *sample (const char *name);
TpSession *compile (const char *src, const char *target, const char *observe);
TpRender *render_ok (const char *dot);
void capture_std (void (*fn) (gpointer), gpointer data, char **out, char **err);
void tape_counts (TpSession *s, guint *nodes, guint *operands);
GHashTable *planned (TpSession *s);
