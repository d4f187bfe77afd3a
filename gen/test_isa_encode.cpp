// test_isa_encode.cpp - otpu_encode_operands is the inverse of otpu_operands: random words of
// every opcode, decoded into otpu_ops and encoded again, give the same words in every bit a
// field of the opcode's format defines (and zeros elsewhere).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "isa.h"

namespace {

// The bits each format defines: w0 (op, register nibbles, flags) and w1..w7.
struct Mask {
    uint32_t w[8];
};

constexpr uint32_t OP = 0xFF, RA = 0xF00, RB = 0xF000, RC = 0xF0000, RD = 0xF00000, F = ~0u;

uint32_t flags(uint32_t f) { return f << 24; }

Mask mask_of(otpu_format f)
{
    switch (f) {
    case OTPU_FMT_NONE: return {{OP}};
    case OTPU_FMT_HALT: return {{OP | RA | RB | flags(1)}};
    case OTPU_FMT_LI: return {{OP | RD, F}};
    case OTPU_FMT_ADDI: return {{OP | RD | RA, F}};
    case OTPU_FMT_LOOP: return {{OP | RA, F, F}};
    case OTPU_FMT_RLD: return {{OP | RD | RA | RB | flags(3), F, F}};
    case OTPU_FMT_WAITW: return {{OP | RA | RB | RC | flags(3), F, F, F, F, F, F}};
    case OTPU_FMT_DMA: return {{OP | RA | RB, F, F, F}};
    case OTPU_FMT_DSTEP: return {{OP | RA | RB | RC | flags(1), F, F, F, F, F, F, F}};
    case OTPU_FMT_STREAM: return {{OP | RA | RB | RC | RD | flags(0xF), F, F, F, F, F, F, F}};
    case OTPU_FMT_MM: return {{OP | RA | RB | RC | flags(0x7F), F, F, F, F, F, F, F}};
    case OTPU_FMT_QACT: return {{OP | RA | flags(0xF), F, F, F, F, F}};
    case OTPU_FMT_QST: return {{OP | RA | RB | RC | flags(3), F, F, F, F, F, F, F}};
    case OTPU_FMT_VOP:
        return {{OP | RA | RB | RC | RD | flags(3), F, F, F, F, F, 0x03FFFFFF, F}};
    case OTPU_FMT_GATHER: return {{OP | RA | RB, F, F, F, F, F, F}};
    }
    return {{OP}};
}

const unsigned opcodes[] = {
#define X(NAME, name, code, unit, format) code,
    OTPU_OPCODES(X)
#undef X
};

TEST(IsaEncode, RoundTripsRandomWordsOfEveryOpcode)
{
    std::mt19937_64 rng(12345);
    for (unsigned op : opcodes) {
        Mask m = mask_of(otpu_op_format(op));
        for (int k = 0; k < 2000; k++) {
            uint32_t words[8];
            for (auto &w : words)
                w = (uint32_t)rng();
            words[0] = (words[0] & ~0xFFu) | op;
            otpu_instr in = otpu_decode(words);
            otpu_ops o = otpu_operands(&in, nullptr);
            otpu_instr out;
            otpu_encode_operands(op, &o, &out);
            for (int i = 0; i < 8; i++) {
                ASSERT_EQ(out.w[i] & m.w[i], words[i] & m.w[i])
                    << otpu_op_name(op) << " w" << i << " of " << std::hex << words[i];
                ASSERT_EQ(out.w[i] & ~m.w[i], 0u) << otpu_op_name(op) << " w" << i;
            }
            otpu_instr again = otpu_decode(out.w);
            EXPECT_EQ(again.op, out.op);
            EXPECT_EQ(again.ra, out.ra);
            EXPECT_EQ(again.rd, out.rd);
            EXPECT_EQ(again.flags, out.flags);
        }
    }
}

// STREAM's dst shares ra with src: the register comes from src.
TEST(IsaEncode, StreamDstSharesSrcRegister)
{
    otpu_ops o{};
    o.format = OTPU_FMT_STREAM;
    o.stream.src = {0, 5, 3};
    o.stream.dst = {0, 9, 3};
    otpu_instr out;
    otpu_encode_operands(OTPU_OP_STREAM, &o, &out);
    EXPECT_EQ(out.ra, 3);
    EXPECT_EQ(out.w[2], 5u);
    EXPECT_EQ(out.w[3], 9u);
}

} // namespace
