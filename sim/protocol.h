/* protocol.h - the lockstep protocol's vocabulary (rtl/EVENTS.md): units, memory
 * spaces, write ports, records. Written by sim/gen_protocol.py from sim/protocol.def,
 * which also writes rtl/otpu_protocol_pkg.sv: edit the description, not this file. */
#ifndef OTPU_PROTOCOL_H
#define OTPU_PROTOCOL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The units that start and complete instructions, then the sequencer (which executes
 * some instructions itself and writes the registers). */
typedef enum {
    OTPU_UNIT_DMA = 0, /* LD ST WAITW DSTEP STREAM */
    OTPU_UNIT_MXU = 1, /* MM */
    OTPU_UNIT_QUANT = 2, /* QACT QST */
    OTPU_UNIT_VPU = 3, /* VOP */
    OTPU_UNIT_COLL = 4, /* BAR GATHER */
    OTPU_UNITS = 5,
    OTPU_UNIT_SEQ = 5,
    OTPU_UNIT_COUNT = 6 /* (also: no unit, an unknown opcode) */
} otpu_unit;

/* Memory spaces of a write. */
typedef enum {
    OTPU_SP_REG = 0, /* addr: register number */
    OTPU_SP_TMEM = 1, /* addr: word index */
    OTPU_SP_DRAM = 2, /* addr: byte address of the aligned word; mask: the bytes written */
    OTPU_SP_ACT = 3, /* addr: row * ACT_BLOCKS * D + column; data[7:0]: the int8 */
    OTPU_SP_ASCALE = 4, /* addr: row * ACT_BLOCKS + block; fp32 bits */
    OTPU_SPACES = 5
} otpu_space;

/* Write ports: each belongs to one unit (or the sequencer) and one space. */
enum {
    OTPU_PORT_SEQ_R = 0, /* LI, ADDI, RLD (R0 is never written) */
    OTPU_PORT_DMA_T = 1,
    OTPU_PORT_DMA_M = 2,
    OTPU_PORT_MXU_T = 3,
    OTPU_PORT_QNT_A = 4,
    OTPU_PORT_QNT_A2 = 5, /* the DUP copy (row + rows) */
    OTPU_PORT_QNT_S = 6,
    OTPU_PORT_QNT_S2 = 7, /* the DUP copy */
    OTPU_PORT_QNT_M = 8, /* QST: the byte replicated, mask = the one byte written */
    OTPU_PORT_VPU_T = 9,
    OTPU_PORT_COL_T = 10, /* a GATHER word written into this slice */
    OTPU_PORTS = 11
};

/* Instruction records, and slice status records. */
enum {
    OTPU_EV_DISPATCH = 0, /* the sequencer put the instruction at pc into a window slot */
    OTPU_EV_EXEC = 1, /* the sequencer executed NOP, LI, ADDI, LOOP, HALT or RLD itself */
    OTPU_EV_START = 2, /* a unit began the instruction in a slot */
    OTPU_EV_COMPLETE = 3, /* a unit finished its oldest started instruction */
};
enum {
    OTPU_SS_HALTED = 0, /* a: the HALT's pc */
    OTPU_SS_ERROR = 1, /* a: the failing instruction's pc */
    OTPU_SS_CHAIN = 2, /* a: DRAM byte address, b: instructions loaded by HALT CHAIN */
};

static const uint8_t otpu_port_unit[OTPU_PORTS] = {OTPU_UNIT_SEQ, OTPU_UNIT_DMA, OTPU_UNIT_DMA,
    OTPU_UNIT_MXU, OTPU_UNIT_QUANT, OTPU_UNIT_QUANT, OTPU_UNIT_QUANT, OTPU_UNIT_QUANT,
    OTPU_UNIT_QUANT, OTPU_UNIT_VPU, OTPU_UNIT_COLL};
static const uint8_t otpu_port_space[OTPU_PORTS] = {OTPU_SP_REG, OTPU_SP_TMEM, OTPU_SP_DRAM,
    OTPU_SP_TMEM, OTPU_SP_ACT, OTPU_SP_ACT, OTPU_SP_ASCALE, OTPU_SP_ASCALE, OTPU_SP_DRAM,
    OTPU_SP_TMEM, OTPU_SP_TMEM};
static const char *const otpu_port_names[OTPU_PORTS] = {"SEQ_R", "DMA_T", "DMA_M", "MXU_T",
    "QNT_A", "QNT_A2", "QNT_S", "QNT_S2", "QNT_M", "VPU_T", "COL_T"};
static const char *const otpu_unit_names[OTPU_UNIT_COUNT] = {"DMA", "MXU", "QUANT", "VPU", "COLL",
    "SEQ"};
static const char *const otpu_space_names[OTPU_SPACES] = {"REG", "TMEM", "DRAM", "ACT", "ASCALE"};
static const char *const otpu_event_names[] = {"dispatch", "exec", "start", "complete"};

#ifdef __cplusplus
}
#endif
#endif
