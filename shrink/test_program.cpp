// test_program.cpp - shrink/program.h: removing instructions keeps LOOP bodies consistent.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

extern "C" {
#include "isa.h"
#include "program.h"
}

namespace {

struct Ins {
  unsigned op;
  uint32_t w1, w2;
  uint8_t ra;
};

std::vector<uint32_t> encode(const std::vector<Ins> &prog) {
  std::vector<uint32_t> w(prog.size() * 8);
  for (size_t i = 0; i < prog.size(); i++) {
    otpu_instr in{};
    in.op = static_cast<uint8_t>(prog[i].op);
    in.ra = prog[i].ra;
    in.w[1] = prog[i].w1;
    in.w[2] = prog[i].w2;
    otpu_encode(&in, &w[8 * i]);
  }
  return w;
}

// (opcode, body) of each instruction of a program: what the removal must get right
std::vector<std::pair<unsigned, uint32_t>> shape(const uint32_t *w, size_t n) {
  std::vector<std::pair<unsigned, uint32_t>> s;
  for (size_t i = 0; i < n; i++) {
    otpu_instr in = otpu_decode(w + 8 * i);
    s.push_back({in.op, in.op == OTPU_OP_LOOP ? in.w[1] : 0});
  }
  return s;
}

std::vector<std::pair<unsigned, uint32_t>> remove(const std::vector<Ins> &prog,
                                                  const std::vector<uint8_t> &drop) {
  std::vector<uint32_t> w = encode(prog), out(w.size());
  size_t m = shrink_prog_remove(w.data(), prog.size(), drop.data(), out.data());
  return shape(out.data(), m);
}

constexpr unsigned L = OTPU_OP_LOOP, N = OTPU_OP_NOP, H = OTPU_OP_HALT, V = OTPU_OP_VOP;

TEST(ShrinkProgram, RemovingInsideABodyShrinksEveryLoopAroundIt) {
  // 0: LOOP body=4 { 1: VOP  2: LOOP body=2 { 3: VOP  4: NOP } }  5: HALT
  std::vector<Ins> p = {{L, 4, 3, 0}, {V, 0, 0, 0}, {L, 2, 2, 0}, {V, 0, 0, 0}, {N, 0, 0, 0},
                        {H, 0, 0, 0}};
  auto got = remove(p, {0, 0, 0, 1, 0, 0});
  std::vector<std::pair<unsigned, uint32_t>> want = {{L, 3}, {V, 0}, {L, 1}, {N, 0}, {H, 0}};
  EXPECT_EQ(got, want);
}

TEST(ShrinkProgram, ALoopLeftEmptyGoesAndCanEmptyTheOneAroundIt) {
  std::vector<Ins> p = {{L, 3, 3, 0}, {L, 2, 2, 0}, {V, 0, 0, 0}, {N, 0, 0, 0}, {H, 0, 0, 0}};
  auto got = remove(p, {0, 0, 1, 1, 0});
  std::vector<std::pair<unsigned, uint32_t>> want = {{H, 0}};
  EXPECT_EQ(got, want);
}

TEST(ShrinkProgram, RemovingALoopLeavesItsBodyOnce) {
  std::vector<Ins> p = {{N, 0, 0, 0}, {L, 2, 5, 0}, {V, 0, 0, 0}, {V, 0, 0, 0}, {H, 0, 0, 0}};
  auto got = remove(p, {1, 1, 0, 0, 0});
  std::vector<std::pair<unsigned, uint32_t>> want = {{V, 0}, {V, 0}, {H, 0}};
  EXPECT_EQ(got, want);
}

TEST(ShrinkProgram, InstructionsAfterABodyDoNotChangeIt) {
  std::vector<Ins> p = {{L, 1, 5, 0}, {V, 0, 0, 0}, {N, 0, 0, 0}, {V, 0, 0, 0}, {H, 0, 0, 0}};
  auto got = remove(p, {0, 0, 1, 0, 0});
  std::vector<std::pair<unsigned, uint32_t>> want = {{L, 1}, {V, 0}, {V, 0}, {H, 0}};
  EXPECT_EQ(got, want);
}

TEST(ShrinkProgram, OnlyTheFinalHaltIsPinned) {
  std::vector<uint32_t> w = encode({{H, 0, 0, 0}, {N, 0, 0, 0}, {H, 0, 0, 0}});
  EXPECT_FALSE(shrink_prog_pinned(w.data(), 3, 0));
  EXPECT_FALSE(shrink_prog_pinned(w.data(), 3, 1));
  EXPECT_TRUE(shrink_prog_pinned(w.data(), 3, 2));
  std::vector<uint32_t> v = encode({{N, 0, 0, 0}});
  EXPECT_FALSE(shrink_prog_pinned(v.data(), 1, 0));
}

TEST(ShrinkProgram, LoopCountsAreReadAndSetAsImmediates) {
  std::vector<uint32_t> w = encode({{L, 1, 7, 3}, {V, 0, 0, 0}, {H, 0, 0, 0}});
  uint32_t count = 0;
  int by_reg = 0;
  ASSERT_TRUE(shrink_prog_loop(w.data(), 0, &count, &by_reg));
  EXPECT_EQ(count, 7u);
  EXPECT_TRUE(by_reg);
  EXPECT_FALSE(shrink_prog_loop(w.data(), 1, &count, &by_reg));
  shrink_prog_set_count(w.data(), 0, 2);
  otpu_instr in = otpu_decode(w.data());
  otpu_ops o = otpu_operands(&in, nullptr);
  EXPECT_EQ(o.loop.count.value, 2u);
  EXPECT_EQ(o.loop.count.reg, 0);
  EXPECT_EQ(o.loop.body, 1u);
}

TEST(ShrinkProgram, AHaltChainBecomesAPlainHalt) {
  otpu_instr in{};
  in.op = OTPU_OP_HALT;
  in.flags = OTPU_F_CHAIN;
  in.ra = 1;
  in.rb = 2;
  std::vector<uint32_t> w(8);
  otpu_encode(&in, w.data());
  ASSERT_TRUE(shrink_prog_chains(w.data(), 0));
  shrink_prog_unchain(w.data(), 0);
  EXPECT_FALSE(shrink_prog_chains(w.data(), 0));
  otpu_instr out = otpu_decode(w.data());
  EXPECT_EQ(out.op, OTPU_OP_HALT);
  EXPECT_EQ(out.ra, 0);
  EXPECT_EQ(out.rb, 0);
}

TEST(ShrinkProgram, RegisterOperandsFoldIntoImmediates) {
  otpu_instr in{};
  in.op = OTPU_OP_LD;
  in.ra = 1;  // dram = R1 + 0x10
  in.rb = 2;  // tmem = R2 + 0x20
  in.w[1] = 0x10;
  in.w[2] = 0x20;
  in.w[3] = 8;  // n
  std::vector<uint32_t> w(8);
  otpu_encode(&in, w.data());
  const uint32_t seen[6] = {0x1010, 0x220};  // the values it ran with
  ASSERT_TRUE(shrink_prog_fold(w.data(), 0, seen));
  otpu_instr out = otpu_decode(w.data());
  otpu_ops o = otpu_operands(&out, nullptr);
  EXPECT_EQ(o.dma.dram.reg, 0);
  EXPECT_EQ(o.dma.dram.imm, 0x1010u);
  EXPECT_EQ(o.dma.tmem.reg, 0);
  EXPECT_EQ(o.dma.tmem.imm, 0x220u);
  EXPECT_EQ(o.dma.n, 8u);
  EXPECT_FALSE(shrink_prog_fold(w.data(), 0, seen));  // nothing left to fold

  otpu_instr halt{};
  halt.op = OTPU_OP_HALT;
  halt.flags = OTPU_F_CHAIN;
  halt.ra = 1;
  halt.rb = 2;
  otpu_encode(&halt, w.data());
  EXPECT_FALSE(shrink_prog_fold(w.data(), 0, seen));  // CHAIN has no immediates
}

}  // namespace
