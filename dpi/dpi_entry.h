/* dpi_entry.h - every DPI-C entry point the RTL calls and the memory spaces they name.
 * Written by dpi/gen_dpi.py from dpi/dpi.def, which also writes their SystemVerilog
 * imports (rtl/otpu_dpi.sv, dpi/otpu_lockstep_dpi.sv): edit the
 * description, not this file. The C files of dpi/ implement them. */
#ifndef OTPU_DPI_ENTRY_H
#define OTPU_DPI_ENTRY_H

#include "protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Spaces of the load and dump calls that no write lands in, numbered after otpu_space. */
enum {
    OTPU_SP_IMEM = 5, /* instruction memory: 32-bit word index */
    OTPU_SP_STATE = 6, /* index 0 halted, 1 error, 2 pc, 3 icount, 4 cycles */
    OTPU_SP_SLOT = 7, /* window slot k: index 16k + field (rtl/otpu_seq.sv's dump) */
};

/* What otpu_bundle_info answers. */
enum {
    OTPU_BI_PROG_LEN = 0, /* instructions in prog_<sid>.hex */
    OTPU_BI_DRAM_WORDS = 1, /* 32-bit words in dram_<sid>.bin (rounded up) */
    OTPU_BI_ARG0 = 8, /* BI_ARG0 + k: run argument k (R8 + k), k < 8 */
};

/* otpu_dpi (rtl/otpu_dpi.sv) */
/* otpu_bundle_word(sid, space, index): the bundle's initial contents (0 past its end); space
 * BS_IMEM, or BS_DRAM (index = byte address / 4) */
unsigned int otpu_bundle_word(int sid, int space, long long idx);
/* otpu_bundle_info(sid, what): scalars of the bundle (BI_*) */
unsigned int otpu_bundle_info(int sid, int what);
/* otpu_dump_word(sid, space, index, data): one word of the final state; space DS_* (DS_DRAM:
 * index = byte address / 4; DS_ACT: one byte, index = row * ACT_BLOCKS * D + column; DS_ASCALE:
 * index = row * ACT_BLOCKS + block) */
void otpu_dump_word(int sid, int space, long long idx, unsigned int data);
/* The host of a run bundle's host.txt (sim/host.h), played by the driver: the RTL reports the
 * levels its steps wait on and takes the host's DRAM words and restarts. Each slice asks every
 * cycle; nothing is computed on the C side.
 * otpu_host_poll(sid, waiting): a WAITW read that did not hold (1); the WAITW ended (0) */
void otpu_host_poll(int sid, int waiting);
/* otpu_host_level(sid, halted, error, collective): the slice halted, stopped with an error,
 * waits at a BAR or GATHER */
void otpu_host_level(int sid, int halted, int error, int collective);
/* otpu_host_dram(sid, addr, data): the host's next DRAM access: 0 none, 1 write data at addr (a
 * byte address), 2 read addr (answered with otpu_host_dram_read) */
int otpu_host_dram(int sid, unsigned int *addr, unsigned int *data);
void otpu_host_dram_read(int sid, unsigned int addr, unsigned int data);
/* otpu_host_run(sid): -1, or restart the halted slice: with a new program of that many
 * instructions (0: keep the program), words otpu_host_prog_word, arguments otpu_host_arg */
int otpu_host_run(int sid);
unsigned int otpu_host_prog_word(int sid, int idx);
unsigned int otpu_host_arg(int sid, int k);

/* otpu_lockstep_dpi (dpi/otpu_lockstep_dpi.sv) */
/* an instruction record: kind EV_DISPATCH, EV_EXEC, EV_START or EV_COMPLETE; unit U_* for start
 * and complete (-1 otherwise); the window slot (dispatch, start, complete) */
void otpu_ev_ins(int sid, int kind, int unit, int slot, unsigned int pc, int op);
/* a write landing at write port P_*, in memory space SP_* (mask: the DRAM bytes written) */
void otpu_ev_wr(int sid, int port, int space, unsigned int addr, unsigned int data, int mask);
/* a slice status record: kind SS_HALTED or SS_ERROR (a = pc), SS_CHAIN (a = DRAM address, b =
 * instructions) */
void otpu_ev_state(int sid, int kind, unsigned int a, unsigned int b);

#ifdef __cplusplus
}
#endif
#endif
