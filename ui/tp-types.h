/* tp-types.h: forward declarations of the desktop app's types, so headers
 * can name each other without include cycles. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _TpApplication  TpApplication;
typedef struct _TpDocument     TpDocument;
typedef struct _TpDrafts       TpDrafts;
typedef struct _TpEditor       TpEditor;
typedef struct _TpPictureView  TpPictureView;
typedef struct _TpPictureWorker TpPictureWorker;
typedef struct _TpReadings     TpReadings;
typedef struct _TpTextPane     TpTextPane;
typedef struct _TpWindow       TpWindow;

/* The six panes, in the order the window shows them.  The picture is the
 * DOT reading drawn. */
typedef enum
{
  TP_PANE_SPEC,
  TP_PANE_DERIVATIVE,
  TP_PANE_PLAN,
  TP_PANE_STABLEHLO,
  TP_PANE_VALUES,
  TP_PANE_PICTURE,
  TP_N_PANES
} TpPane;

#define TP_APP_ID          "org.topos.Playground"
#define TP_RESOURCE_PREFIX "/org/topos/Playground"

G_END_DECLS
