// asm.h - a tiny assembler for the unit tests: instructions as otpu_instr, programs as words.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "isa.h"
#include "machine.h"

namespace otpu_test {

inline otpu_instr ins(unsigned op, std::initializer_list<uint32_t> w = {}, unsigned ra = 0,
                      unsigned rb = 0, unsigned rc = 0, unsigned rd = 0, unsigned flags = 0)
{
    otpu_instr i{};
    i.op = static_cast<uint8_t>(op);
    i.ra = static_cast<uint8_t>(ra);
    i.rb = static_cast<uint8_t>(rb);
    i.rc = static_cast<uint8_t>(rc);
    i.rd = static_cast<uint8_t>(rd);
    i.flags = static_cast<uint8_t>(flags);
    unsigned k = 1;
    for (uint32_t x : w)
        i.w[k++] = x;
    return i;
}

inline otpu_instr li(unsigned rd, uint32_t v) { return ins(OTPU_OP_LI, {v}, 0, 0, 0, rd); }
inline otpu_instr addi(unsigned rd, unsigned ra, uint32_t v) { return ins(OTPU_OP_ADDI, {v}, ra, 0, 0, rd); }
inline otpu_instr loop(uint32_t body, uint32_t count, unsigned ra = 0) { return ins(OTPU_OP_LOOP, {body, count}, ra); }
inline otpu_instr halt(unsigned flags = 0, unsigned ra = 0, unsigned rb = 0) { return ins(OTPU_OP_HALT, {}, ra, rb, 0, 0, flags); }
inline otpu_instr bar() { return ins(OTPU_OP_BAR); }
inline otpu_instr rld(unsigned rd, uint32_t tmem, unsigned flags = 0, unsigned ra = 0, unsigned rb = 0, uint32_t mul = 0)
{
    return ins(OTPU_OP_RLD, {tmem, mul}, ra, rb, 0, rd, flags);
}
inline otpu_instr ld(uint32_t dram, uint32_t tmem, uint32_t n) { return ins(OTPU_OP_LD, {dram, tmem, n}); }
inline otpu_instr st(uint32_t dram, uint32_t tmem, uint32_t n) { return ins(OTPU_OP_ST, {dram, tmem, n}); }
// WAITW: M32[R[ra]+dram] & mask cmp R[rc]+ref, then T[R[rb]+tmem] = the word
inline otpu_instr waitw(uint32_t dram, uint32_t tmem, uint32_t ref, unsigned cmp, unsigned ra = 0,
                        unsigned rb = 0, unsigned rc = 0, uint32_t mask = 0xFFFFFFFFu)
{
    return ins(OTPU_OP_WAITW, {dram, tmem, ref, mask, 0, 0}, ra, rb, rc, 0, cmp);
}

inline std::vector<uint32_t> words(std::initializer_list<otpu_instr> prog)
{
    std::vector<uint32_t> w;
    for (const otpu_instr &i : prog) {
        uint32_t x[8];
        otpu_encode(&i, x);
        w.insert(w.end(), x, x + 8);
    }
    return w;
}

} // namespace otpu_test
