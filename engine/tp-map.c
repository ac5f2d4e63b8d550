/* tp-map.c: growing the reading map. */
#include "tp-map.h"

#include "tp-alloc.h"

void
tp_map_init (TpMap *map)
{
  map->lines = NULL;
  map->n_lines = 0;
  map->cap_lines = 0;
  map->refs = NULL;
  map->n_refs = 0;
  map->cap_refs = 0;
  map->line_start = 0;
  map->cut = false;
  map->failed = false;
}

void
tp_map_clear (TpMap *map)
{
  tp_free (map->lines);
  tp_free (map->refs);
  tp_map_init (map);
}

/* Keeps small arrays for the next compile (a keystroke's program is
 * about as long as the last one) and frees big ones. */
void
tp_map_empty (TpMap *map)
{
  if (map->cap_lines > TP_MAP_KEEP || map->cap_refs > TP_MAP_KEEP
      || map->failed)
    {
      tp_map_clear (map);
      return;
    }
  map->n_lines = 0;
  map->n_refs = 0;
  map->line_start = 0;
  map->cut = false;
}

/* Doubles an array of count elements of size bytes; false (and the map
 * failed) when memory runs out or the count would pass UINT32_MAX. */
static bool
grow (TpMap *map, void **array, uint32_t *cap, size_t size)
{
  uint32_t want = *cap < 64 ? 64 : *cap * 2;
  void *p;

  if (map->failed || *cap > UINT32_MAX / 2)
    {
      map->failed = true;
      return false;
    }
  p = tp_realloc (*array, (size_t) want * size);
  if (p == NULL)
    {
      map->failed = true;
      return false;
    }
  *array = p;
  *cap = want;
  return true;
}

bool
tp_map_grow_lines (TpMap *map)
{
  void *p = map->lines;
  bool ok = grow (map, &p, &map->cap_lines, sizeof *map->lines);

  map->lines = p;
  return ok;
}

bool
tp_map_grow_refs (TpMap *map)
{
  void *p = map->refs;
  bool ok = grow (map, &p, &map->cap_refs, sizeof *map->refs);

  map->refs = p;
  return ok;
}
