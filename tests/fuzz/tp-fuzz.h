/* tp-fuzz.h: the fuzz target on the session seam.
 *
 * One input is a two-byte header followed by the program's bytes:
 *
 *   byte 0  bit 0     exact
 *           bits 1-2  target: 0 none, 1 a name picked from the program's
 *                     text, 2 the empty string, 3 a name that is absent
 *           bits 3-5  how many observe names (0-7), picked like the target
 *           bit 6     fail one allocation (which one comes from byte 1)
 *           bit 7     compile twice on one session and require equal output
 *   byte 1  seeds the picks (and the failing allocation)
 *
 * An input shorter than two bytes is a program with header 0.
 * tp_fuzz_one checks every property it can and aborts on a violation. */
#ifndef TP_FUZZ_H
#define TP_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#define TP_FUZZ_HEADER 2

/* The headers the seed corpus gives each program (tp-fuzz-replay
 * --corpus, and the replay of a .tape file). */
extern const uint8_t tp_fuzz_seed_headers[][TP_FUZZ_HEADER];
extern const size_t tp_fuzz_n_seed_headers;

int  LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
void tp_fuzz_one            (const uint8_t *data, size_t size);

#endif /* TP_FUZZ_H */
