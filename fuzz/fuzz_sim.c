/* fuzz_sim.c - the model on any programs and DRAM images, with a step limit.
 *
 * Input: a Config byte (S-1 in bits 0-1, D in bits 2-3: 8 16 32 128, PAIR, DSTEP, STREAM in
 * bits 4-6, bit 7 the ISA revision acf0c1c6, its Config fields it lacks then 0), MCOLS-1
 * (3 bits), ACT_ROWS, instructions per slice - 1 (6 bits); then each
 * slice's program (8 little-endian words per instruction, zeros past the input's end); the
 * rest is every slice's DRAM image. An instruction that would move more than WORK_LIMIT
 * elements ends the run before it executes (it is slow, not wrong: a fuzzer would report it
 * as a timeout). */
#include <stdint.h>
#include <string.h>

#include "machine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_INS = 64, MAX_STEPS = 4096 };
#define WORK_LIMIT ((uint64_t)1 << 22)

/* About how many elements the instruction at the slice's pc moves. */
static uint64_t work(const otpu_machine *m, uint32_t s)
{
    otpu_slice_view v = otpu_machine_view(m, s);
    if (v.halted || v.pc >= v.nprog)
        return 0;
    const otpu_config *c = otpu_machine_config(m);
    otpu_ops o = otpu_operands(&v.prog[v.pc], v.R);
    switch (o.format) {
    case OTPU_FMT_DMA:
        return o.dma.n;
    case OTPU_FMT_MM:
        return (uint64_t)o.mm.N * o.mm.KB * (o.mm.M + 1) * c->D;
    case OTPU_FMT_QACT:
        return (uint64_t)o.qact.rows * o.qact.KB * c->D;
    case OTPU_FMT_QST:
        return (uint64_t)o.qst.rows * o.qst.KB * c->D;
    case OTPU_FMT_VOP:
        return (uint64_t)o.vop.rows * o.vop.cols;
    case OTPU_FMT_GATHER:
        return (uint64_t)o.gather.rows * o.gather.cols * c->S;
    case OTPU_FMT_STREAM:
        return (uint64_t)4095 * 4095; /* the descriptor's largest shape */
    default:
        return 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    static const uint32_t Ds[4] = {8, 16, 32, 128};
    otpu_config cfg = otpu_config_default();
    cfg.S = 1 + (data[0] & 3) % 3;
    cfg.D = Ds[(data[0] >> 2) & 3];
    cfg.PAIR = (data[0] >> 4) & 1;
    cfg.DSTEP = (data[0] >> 5) & 1;
    cfg.STREAM = (data[0] >> 6) & 1;
    cfg.MCOLS = 1 + (data[1] & 7);
    cfg.ACT_ROWS = data[2] & 15;
    cfg.DRAM_BYTES = 1 << 18;
    cfg.IMEM_WORDS = 8 * MAX_INS;
    if (data[0] >> 7) {
        cfg.revision = OTPU_REV_ACF0C1C6;
        cfg.PAIR = cfg.DSTEP = cfg.STREAM = cfg.ACT_ROWS = 0;
    }
    char why[256];
    if (otpu_config_check(&cfg, why, sizeof why))
        return 0;
    uint32_t nins = 1 + (data[3] & (MAX_INS - 1));
    data += 4;
    size -= 4;
    otpu_error e;
    otpu_machine *m = otpu_machine_new(&cfg, &e);
    if (!m)
        return 0;
    for (uint32_t s = 0; s < cfg.S; s++) {
        uint32_t words[8 * MAX_INS] = {0};
        size_t take = size < sizeof(uint32_t) * 8 * nins ? size : sizeof(uint32_t) * 8 * nins;
        memcpy(words, data, take); /* (little-endian hosts) */
        data += take;
        size -= take;
        otpu_machine_load_program(m, s, words, 8 * nins, &e);
    }
    for (uint32_t s = 0; s < cfg.S; s++)
        otpu_machine_load_dram(m, s, 0, data, size < cfg.DRAM_BYTES ? size : cfg.DRAM_BYTES, &e);
    /* the machine's own loop, one instruction at a time (otpu_machine_run's order) */
    for (int steps = 0; steps < MAX_STEPS;) {
        int progressed = 0;
        for (uint32_t s = 0; s < cfg.S && steps < MAX_STEPS; s++) {
            if (work(m, s) > WORK_LIMIT)
                goto done;
            int r = otpu_machine_step(m, s);
            if (r < 0)
                goto done;
            if (r == 0) {
                progressed = 1;
                steps++;
            }
        }
        if (!progressed && otpu_machine_settle(m) <= 0)
            break;
    }
done:
    otpu_machine_free(m);
    return 0;
}
