// tb_fp_hostref.cpp - a self-check of the Verilated otpu_fp package against the host's IEEE
// binary32 arithmetic, for the ops whose definition is plain IEEE plus flush-to-zero: add, sub,
// mul, i2f, q8, the compares, max/min and abs. It complements the golden file: the host FPU
// rounds on the subnormal grid exactly as openTPU docs/isa.md defines it (a product that rounds up
// to 2^-126 is kept), and the random operands here concentrate on the regions where an
// implementation tends to slip (results near 2^-126, cancellation, overflow, the q8 range).
//
// The bench's combinational ports are used (eval_op / eval_a / eval_b -> eval_res), one eval()
// per vector: the same path a batch driver takes.
#include "tb_fp_hostref.h"

#include "bits.h"

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>

namespace {



uint32_t ftz(uint32_t a) { return ((a >> 23) & 0xFFu) == 0 ? (a & 0x80000000u) : a; }

uint32_t canon(uint32_t a) {
    return (((a >> 23) & 0xFFu) == 0xFFu && (a & 0x7FFFFFu) != 0) ? 0x7FC00000u : a;
}

uint32_t order_key(uint32_t a) {
    a = ftz(a);
    return (a >> 31) ? ~a : (a | 0x80000000u);
}

// The host's answer for op (see otpu_fp_vec.sv for the codes); ops 5..7 and 12 are not plain
// IEEE and are not checked here.
uint32_t host_ref(unsigned op, uint32_t a, uint32_t b) {
    const volatile float x = otpu_float_of(ftz(a));
    const volatile float y = otpu_float_of(ftz(b));
    volatile float r;
    switch (op) {
    case 0: r = x + y; return canon(ftz(otpu_bits_of(r)));
    case 1: r = x - y; return canon(ftz(otpu_bits_of(r)));
    case 2: r = x * y; return canon(ftz(otpu_bits_of(r)));
    case 3: case 13: return order_key(a) > order_key(b) ? ftz(a) : ftz(b);
    case 4: case 14: return order_key(b) > order_key(a) ? ftz(a) : ftz(b);
    case 8: r = static_cast<float>(static_cast<int32_t>(a)); return otpu_bits_of(r);
    case 9: {
        if (std::isnan(x)) return 0;
        double d = std::nearbyint(static_cast<double>(x));   // FE_TONEAREST: half to even
        if (d > 127) d = 127;
        if (d < -127) d = -127;
        return static_cast<uint8_t>(static_cast<int8_t>(d));
    }
    case 10: return order_key(a) > order_key(b) ? 1u : 0u;
    case 11: return ftz(a) & 0x7FFFFFFFu;
    default: return 0;
    }
}

uint32_t with_field(uint32_t v, uint32_t field) { return (v & 0x807FFFFFu) | (field << 23); }

}  // namespace

long tb_fp_hostcheck(Vtb_fp& top, long rounds, uint64_t seed, int show) {
    static const unsigned kOps[] = {0, 1, 2, 3, 4, 8, 9, 10, 11, 13, 14};
    std::fesetround(FE_TONEAREST);
    std::mt19937_64 rng(seed);
    long cases = 0, errs = 0;
    auto check = [&](unsigned op, uint32_t a, uint32_t b) {
        top.eval_op = static_cast<uint8_t>(op);
        top.eval_a = a;
        top.eval_b = b;
        top.eval();
        const uint32_t got = top.eval_res;
        const uint32_t want = host_ref(op, a, b);
        ++cases;
        if (got != want) {
            if (errs < show)
                std::printf("HOSTREF MISMATCH op=%u a=%08x b=%08x host=%08x got=%08x\n", op, a, b,
                            want, got);
            ++errs;
        }
    };
    // openTPU docs/isa.md's example: a product rounding up to 2^-126 on the subnormal grid is kept.
    check(2, 0x3F000000u, 0x00FFFFFFu);
    check(2, 0xBF000000u, 0x00FFFFFFu);
    for (long it = 0; it < rounds; ++it) {
        const uint64_t r = rng();
        uint32_t a = static_cast<uint32_t>(r), b = static_cast<uint32_t>(r >> 32);
        switch (it % 6) {
        case 0: break;                                         // uniform bit patterns
        case 1:                                                // small exponents
            a = with_field(a, static_cast<uint32_t>(rng() % 130));
            b = with_field(b, static_cast<uint32_t>(rng() % 130));
            break;
        case 2: {                                              // products near 2^-126
            // biased product exponent ea + eb - 127 in -1..1 (+1 for a carry)
            const uint32_t ea = 1 + static_cast<uint32_t>(rng() % 126);
            int eb = 127 - static_cast<int>(ea) + static_cast<int>(rng() % 3) - 1;
            eb = eb < 1 ? 1 : (eb > 254 ? 254 : eb);
            a = with_field(a, ea);
            b = with_field(b, static_cast<uint32_t>(eb));
            if (rng() % 4 == 0) a |= 0x7FFFFFu;
            if (rng() % 4 == 0) b |= 0x7FFFFFu;
            if (rng() % 8 == 0) b &= 0xFF800000u;
            break;
        }
        case 3:                                                // near-cancellation
            b = (a ^ 0x80000000u) + static_cast<uint32_t>(static_cast<int>(rng() % 64) - 32);
            break;
        case 4:                                                // the q8 range
            a = with_field(a, 120 + static_cast<uint32_t>(rng() % 16));
            if (rng() % 4 == 0) a &= 0xFFFF0000u;
            break;
        default:                                               // large: overflow
            a = with_field(a, 120 + static_cast<uint32_t>(rng() % 135));
            b = with_field(b, 120 + static_cast<uint32_t>(rng() % 135));
            break;
        }
        for (unsigned op : kOps) check(op, a, b);
    }
    std::printf("HOSTREF cases=%ld errors=%ld\n", cases, errs);
    return errs;
}
