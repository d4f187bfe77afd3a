/* host_steps.h - now and then, slices that start by waiting for the host (a WAITW on a flag,
 * host.txt's steps write it) (host_steps.c). */
#ifndef OTPU_GEN_HOST_STEPS_H
#define OTPU_GEN_HOST_STEPS_H

#include "program.h"

void gen_host_handshake(gen_ctx *c);

#endif
