/* tp-alloc.c: the allocator a session was given, and a chunked arena.
 *
 * Each session has its own allocator (tp-engine-testing.h,
 * tp_session_new_with_allocator), as lua_newstate takes one.  The engine
 * does not pass it down to every buffer: each entry point of the seam
 * makes its session's allocator the thread's current one for the length
 * of the call (tp_alloc_enter, tp_alloc_leave), and every block the
 * engine allocates records, in a small header, the allocator it came
 * from, so freeing and growing a block never depend on the current one
 * (a string the caller frees with tp_string_free goes back where it came
 * from). */
#include "tp-alloc.h"
#include "tp-engine-testing.h"

#include <stdlib.h>
#include <string.h>

static const TpAllocator libc_allocator = { malloc, realloc, free };

/* The allocator of the session whose entry point this thread is in. */
static _Thread_local const TpAllocator *current;

/* Every block starts with the allocator it came from, padded so that the
 * caller's part stays aligned for any object. */
#define BLOCK_HEADER 16u
typedef union
{
  const TpAllocator *allocator;
  char pad[BLOCK_HEADER];
} TpBlockHeader;

const TpAllocator *
tp_alloc_enter (const TpAllocator *allocator)
{
  const TpAllocator *previous = current;

  current = allocator;
  return previous;
}

void
tp_alloc_leave (const TpAllocator *previous)
{
  current = previous;
}

void *
tp_malloc (size_t size)
{
  const TpAllocator *a = current != NULL ? current : &libc_allocator;
  TpBlockHeader *h;

  if (size > SIZE_MAX - BLOCK_HEADER)
    return NULL;
  h = a->malloc_fn (BLOCK_HEADER + (size == 0 ? 1 : size));
  if (h == NULL)
    return NULL;
  h->allocator = a;
  return (char *) h + BLOCK_HEADER;
}

void *
tp_realloc (void *ptr, size_t size)
{
  TpBlockHeader *h;
  const TpAllocator *a;

  if (ptr == NULL)
    return tp_malloc (size);
  if (size > SIZE_MAX - BLOCK_HEADER)
    return NULL;
  h = (TpBlockHeader *) ((char *) ptr - BLOCK_HEADER);
  a = h->allocator;
  h = a->realloc_fn (h, BLOCK_HEADER + (size == 0 ? 1 : size));
  if (h == NULL)
    return NULL;
  h->allocator = a;
  return (char *) h + BLOCK_HEADER;
}

void
tp_free (void *ptr)
{
  TpBlockHeader *h;

  if (ptr == NULL)
    return;
  h = (TpBlockHeader *) ((char *) ptr - BLOCK_HEADER);
  h->allocator->free_fn (h);
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
