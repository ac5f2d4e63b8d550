/* tp-alloc.h: the engine's allocator and the per-compile arena. */
#ifndef TP_ALLOC_H
#define TP_ALLOC_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-alloc.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stddef.h>
#include <stdint.h>

#include "tp-engine-testing.h"

/* Makes allocator (NULL: the C library's) the one tp_malloc uses on this
 * thread, until tp_alloc_leave; returns the previous one.  Each entry
 * point of the seam wraps its work in these with its session's
 * allocator (TP_ALLOC_SCOPE in tp-session-private.h). */
const TpAllocator *tp_alloc_enter (const TpAllocator *allocator);
void  tp_alloc_leave (const TpAllocator *previous);

/* A block remembers the allocator it came from: tp_realloc and tp_free
 * use that one, whatever the current one is. */
void *tp_malloc  (size_t size);
void *tp_realloc (void *ptr, size_t size);
void  tp_free    (void *ptr);

/* An arena hands out memory that lives until tp_arena_reset.  Every
 * allocation can fail (NULL); the arena stays usable and frees what it
 * holds on reset. */
typedef struct _TpChunk TpChunk;
typedef struct
{
  TpChunk *chunks;
  size_t used;     /* bytes used in the newest chunk */
  size_t size;     /* capacity of the newest chunk */
} TpArena;

void  tp_arena_init   (TpArena *arena);
void  tp_arena_reset  (TpArena *arena);
void *tp_arena_alloc  (TpArena *arena, size_t size);
void *tp_arena_calloc (TpArena *arena, size_t count, size_t size);
char *tp_arena_strndup (TpArena *arena, const char *text, size_t len);
/* Grows an array held in the arena: returns a copy with room for
 * new_count elements (old contents kept), or NULL. */
void *tp_arena_grow   (TpArena *arena, void *old, size_t old_count,
                       size_t new_count, size_t elem_size);

#endif /* TP_ALLOC_H */
