/* tp-alloc.c: allocator hooks and a simple chunked arena. */
#include "tp-alloc.h"
#include "tp-engine.h"

#include <stdlib.h>
#include <string.h>

static TpAllocator hooks = { malloc, realloc, free };

void
tp_set_allocator (const TpAllocator *allocator)
{
  if (allocator != NULL)
    hooks = *allocator;
  else
    {
      hooks.malloc_fn = malloc;
      hooks.realloc_fn = realloc;
      hooks.free_fn = free;
    }
}

void *
tp_malloc (size_t size)
{
  return hooks.malloc_fn (size == 0 ? 1 : size);
}

void *
tp_realloc (void *ptr, size_t size)
{
  return hooks.realloc_fn (ptr, size == 0 ? 1 : size);
}

void
tp_free (void *ptr)
{
  if (ptr != NULL)
    hooks.free_fn (ptr);
}

struct _TpChunk
{
  TpChunk *next;
  size_t size;
  /* payload follows, aligned for any object */
};

#define CHUNK_HEADER ((sizeof (TpChunk) + 15) & ~(size_t) 15)
#define CHUNK_MIN    (64 * 1024)

void
tp_arena_init (TpArena *arena)
{
  arena->chunks = NULL;
  arena->used = 0;
  arena->size = 0;
}

void
tp_arena_reset (TpArena *arena)
{
  TpChunk *c = arena->chunks;

  while (c != NULL)
    {
      TpChunk *next = c->next;
      tp_free (c);
      c = next;
    }
  tp_arena_init (arena);
}

/* Big requests get a chunk of their own, linked behind the current one so
 * the current chunk keeps serving small requests. */
void *
tp_arena_alloc (TpArena *arena, size_t size)
{
  size_t need = (size + 15) & ~(size_t) 15;
  TpChunk *c;

  if (size > SIZE_MAX / 2)
    return NULL;
  if (arena->chunks != NULL && arena->size - arena->used >= need)
    {
      char *p = (char *) arena->chunks + CHUNK_HEADER + arena->used;
      arena->used += need;
      return p;
    }
  if (need >= CHUNK_MIN / 4)
    {
      c = tp_malloc (CHUNK_HEADER + need);
      if (c == NULL)
        return NULL;
      c->size = need;
      if (arena->chunks != NULL)
        {
          c->next = arena->chunks->next;
          arena->chunks->next = c;
        }
      else
        {
          c->next = NULL;
          arena->chunks = c;
          arena->used = need;
          arena->size = need;
        }
      return (char *) c + CHUNK_HEADER;
    }
  c = tp_malloc (CHUNK_HEADER + CHUNK_MIN);
  if (c == NULL)
    return NULL;
  c->size = CHUNK_MIN;
  c->next = arena->chunks;
  arena->chunks = c;
  arena->used = need;
  arena->size = CHUNK_MIN;
  return (char *) c + CHUNK_HEADER;
}

void *
tp_arena_calloc (TpArena *arena, size_t count, size_t size)
{
  void *p;

  if (size != 0 && count > SIZE_MAX / 2 / size)
    return NULL;
  p = tp_arena_alloc (arena, count * size);
  if (p != NULL)
    memset (p, 0, count * size);
  return p;
}

char *
tp_arena_strndup (TpArena *arena, const char *text, size_t len)
{
  char *p = tp_arena_alloc (arena, len + 1);

  if (p == NULL)
    return NULL;
  memcpy (p, text, len);
  p[len] = '\0';
  return p;
}

void *
tp_arena_grow (TpArena *arena, void *old, size_t old_count,
               size_t new_count, size_t elem_size)
{
  void *p;

  if (elem_size != 0 && new_count > SIZE_MAX / 2 / elem_size)
    return NULL;
  p = tp_arena_alloc (arena, new_count * elem_size);
  if (p != NULL && old != NULL && old_count > 0)
    memcpy (p, old, old_count * elem_size);
  return p;
}
