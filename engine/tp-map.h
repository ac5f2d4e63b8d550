/* tp-map.h: the reading map as a writer builds it (see tp-engine.h).
 *
 * A writer that is given a map (NULL means "no map") calls tp_map_line
 * before the first byte of every line it writes and tp_map_ref after each
 * token that matters, with the output length from before the token.  The
 * map only records offsets the writer already knows: nothing reads the
 * text.  Refs stop at TP_MAP_REFS per reading (lines never do), which
 * bounds the map like the budgets bound the readings.  A failed allocation makes the map "failed" (later calls do
 * nothing), like TpBuf; the session then reports out of memory. */
#ifndef TP_MAP_H
#define TP_MAP_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-map.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tp-buf.h"
#include "tp-engine.h"

/* The readings that have maps: TP_READING_SPEC .. TP_READING_VALUES, at
 * their own index; the forward reading's comes after them. */
#define TP_MAP_READINGS (TP_READING_VALUES + 1)
#define TP_MAP_FORWARD TP_MAP_READINGS
#define TP_MAP_SLOTS (TP_MAP_READINGS + 1)

typedef struct
{
  uint32_t node;
  uint32_t first_ref;
  uint8_t role;
} TpMapLineRec;

typedef struct
{
  uint32_t line;
  uint32_t start;
  uint32_t end;
  uint32_t node;
  uint8_t klass;
} TpMapRefRec;

typedef struct
{
  TpMapLineRec *lines;
  uint32_t n_lines;
  uint32_t cap_lines;
  TpMapRefRec *refs;
  uint32_t n_refs;
  uint32_t cap_refs;
  size_t line_start;     /* output offset of the open line's first byte */
  bool cut;              /* refs stopped at TP_MAP_REFS */
  bool failed;
} TpMap;

void tp_map_init  (TpMap *map);
void tp_map_clear (TpMap *map);       /* frees */
/* Empties the map for the next reading, keeping arrays of at most
 * TP_MAP_KEEP entries. */
#define TP_MAP_KEEP (1u << 16)
void tp_map_empty (TpMap *map);
bool tp_map_grow_lines (TpMap *map);
bool tp_map_grow_refs  (TpMap *map);

/* Opens the next line, which starts at out->len. */
static inline void
tp_map_line (TpMap *map, const TpBuf *out, uint32_t node, TpLineRole role)
{
  TpMapLineRec *l;

  if (map == NULL || (map->n_lines == map->cap_lines
                      && !tp_map_grow_lines (map)))
    return;
  l = &map->lines[map->n_lines++];
  l->node = node;
  l->first_ref = map->n_refs;
  l->role = (uint8_t) role;
  map->line_start = out->len;
}

/* A token of the open line: from the output offset `from` to out->len. */
static inline void
tp_map_ref (TpMap *map, const TpBuf *out, size_t from, TpTokenClass klass,
            uint32_t node)
{
  TpMapRefRec *r;

  if (map == NULL || map->n_lines == 0)
    return;
  if (map->n_refs >= TP_MAP_REFS)
    {
      map->cut = true;
      return;
    }
  if (map->n_refs == map->cap_refs && !tp_map_grow_refs (map))
    return;
  r = &map->refs[map->n_refs++];
  r->line = map->n_lines - 1;
  r->start = (uint32_t) (from - map->line_start);
  r->end = (uint32_t) (out->len - map->line_start);
  r->node = node;
  r->klass = (uint8_t) klass;
}

#endif /* TP_MAP_H */
