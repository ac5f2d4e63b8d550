/* map-check.h: the reading map checked against one program's readings,
 * read as a person reads them (test-map.c; the checks in map-check.c, the
 * StableHLO colour oracle in map-oracle.c). */
#pragma once

#include "tp-test-util.h"

/* Compiles src with choices and checks its map against its readings'
 * text (test-map.c's header says what is checked); what names it in
 * messages. */
void  map_check_program (const char *what, const char *src, const TpChoices *choices);
/* "start:end:class;..." of a StableHLO line by the desktop's tokenizer
 * (the oracle), newly allocated. */
char *map_oracle_tokens (const char *line);
