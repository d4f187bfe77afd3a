/* sequencer.h - a slice's sequencer (the reference's Slice.step and Slice.advance): the
 * instruction at pc dispatched to its body (slice.h's otpu_exec_*), loop bodies closed, a
 * WAITW polled. Internal to libotpusim: machine.c runs the slices with it. It sits above the
 * instruction bodies (exec_*.c), which see only slice.h. */
#ifndef OTPU_SEQUENCER_H
#define OTPU_SEQUENCER_H

#include "slice.h"

/* Execute the instruction at pc (the reference's Slice.step); an instruction the config's
 * ISA revision lacks is an ILLEGAL error. 0, or -1 with *s->err set. */
int otpu_slice_step(otpu_slice *s);
/* Move past the instruction at pc, closing loop bodies (Slice.advance). */
void otpu_slice_advance(otpu_slice *s);
/* WAITW: poll its word once; on success write it and advance. 1 held, 0 not yet, -1 error. */
int otpu_slice_poll(otpu_slice *s);

#endif
