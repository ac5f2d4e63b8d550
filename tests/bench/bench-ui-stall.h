/* bench-ui-stall.h: the main loop's heartbeat for bench-ui
 * (bench-ui-stall.c). */
#pragma once

#include <glib.h>

/* µs, since bench_stall_reset: the longest gap between two beats, and the
 * most CPU time the main thread used between two. */
extern gint64 bench_max_gap;
extern gint64 bench_max_busy;

/* Starts the 1 ms heartbeat; with trace_ms > 0, also the watchdog that
 * samples the main thread's stack once it has not beaten for trace_ms. */
void bench_stall_start       (int trace_ms);
void bench_stall_reset       (void);
/* With a watchdog: stops its sampling and prints the stacks (stderr). */
void bench_stall_trace_print (void);
