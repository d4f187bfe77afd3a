// otpu_fp.sv - openTPU fp32 arithmetic as a SystemVerilog package (otpu-lockstep's own
// implementation, written independently of openTPU's rtl/vpu/otpu_fp.sv; same package name,
// function names, arguments and results, so either file can be checked by the same bench).
//
// Semantics (openTPU docs/isa.md "Arithmetic", opentpu/fp32.py at 42cef8ba):
//   * IEEE-754 binary32, round to nearest even.
//   * Flush to zero: a denormal input is a zero of its sign; a result that IEEE rounding (on the
//     subnormal grid) leaves denormal becomes a zero of its sign. A product that rounds up to
//     2^-126 on that grid is kept (0.5 * 0x00FFFFFF = 0x00800000).
//   * add / sub / mul return the canonical NaN 0x7FC00000 for any NaN result.
//   * Compares use the total order of the flushed sign-magnitude bits:
//     -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN.
//   * exp2, log2, recip and rsqrt are fixed sequences of fp_add / fp_mul.
//
// Every function is combinational (automatic, no state), pure SystemVerilog, Verilator 5.006.
// The no_inline_task metacomments only make Verilator emit fp_add / fp_mul as C++ functions
// instead of inlining their ~70 calls (a much smaller model); other tools ignore them.
package otpu_fp;

  typedef logic [31:0] f32_t;

  // ---- constants -------------------------------------------------------------------------
  localparam f32_t FP_QNAN    = 32'h7FC0_0000;   // canonical NaN
  localparam f32_t FP_PINF    = 32'h7F80_0000;
  localparam f32_t FP_NINF    = 32'hFF80_0000;
  localparam f32_t FP_PZERO   = 32'h0000_0000;
  localparam f32_t FP_HALF    = 32'h3F00_0000;   // 0.5
  localparam f32_t FP_ONE     = 32'h3F80_0000;   // 1.0
  localparam f32_t FP_MONE    = 32'hBF80_0000;   // -1.0
  localparam f32_t FP_THREEH  = 32'h3FC0_0000;   // 1.5
  localparam f32_t FP_TWO     = 32'h4000_0000;   // 2.0
  localparam f32_t FP_M126    = 32'hC2FC_0000;   // -126.0
  localparam f32_t FP_P128    = 32'h4300_0000;   // 128.0

  localparam logic [31:0] MAGIC_RECIP = 32'h7EF3_11C3;
  localparam logic [31:0] MAGIC_RSQRT = 32'h5F37_59DF;
  localparam logic [22:0] LOG2_SQRT2_FRAC = 23'h35_04F3;   // fraction bits of sqrt(2)

  // Polynomial coefficients: element k is c_k (fp_exp2 and fp_log2 run Horner's rule over them).
  // exp2 on [0, 1): c0 + f*(c1 + ... + f*c7), fp32 bits of opentpu/fp32.py EXP2_COEFFS.
  localparam f32_t [7:0] EXP2_K = {
    32'h37B3_C7D6, 32'h3916_C07C, 32'h3AAF_E2F6, 32'h3C1D_8534,    // c7 .. c4
    32'h3D63_593E, 32'h3E75_FDE9, 32'h3F31_7218, 32'h3F80_0000};   // c3 .. c0

  // log2(1+t)/t ~ c1 + t*(c2 + ... + t*c9), fp32 bits (openTPU docs/isa.md, opentpu/fp32.py).
  localparam f32_t [9:1] LOG2_K = {
    32'h3E00_DB73, 32'hBE54_3E8E, 32'h3E5C_E48E, 32'hBE74_ADF2, 32'h3E93_69C2,   // c9 .. c5
    32'hBEB8_AE27, 32'h3EF6_39EB, 32'hBF38_AA38, 32'h3FB8_AA3B};                 // c4 .. c1

  // ---- bit-level helpers -----------------------------------------------------------------

  // Denormal -> zero of the same sign; everything else (NaN included) unchanged.
  function automatic f32_t ftz(input f32_t x);
    return (x[30:23] == 8'd0) ? {x[31], 31'd0} : x;
  endfunction

  // NaN / infinity tests on the magnitude bits x[30:0].
  function automatic logic fp_isnan(input logic [30:0] x);
    return (x[30:23] == 8'hFF) && (x[22:0] != 23'd0);
  endfunction

  function automatic logic fp_isinf(input logic [30:0] x);
    return (x[30:23] == 8'hFF) && (x[22:0] == 23'd0);
  endfunction

  // x with k added to its exponent field, as a plain 32-bit integer add of k << 23
  // (x * 2^k while the field stays in 1..254).
  function automatic f32_t fp_scale_field(input f32_t x, input logic signed [8:0] k);
    logic signed [31:0] kk;
    kk = 32'(k);
    return x + (kk <<< 23);
  endfunction

  // Left-normalize a 32-bit value: returns the shifted value (bit 31 set unless v == 0) and
  // the shift count in lz (0..31; 31 for v == 0).
  function automatic logic [31:0] norm_left32(input logic [31:0] v, output logic [4:0] lz);
    logic [31:0] t;
    t = v;
    lz = 5'd0;
    if (t[31:16] == 16'd0) begin lz[4] = 1'b1; t = {t[15:0], 16'd0}; end
    if (t[31:24] ==  8'd0) begin lz[3] = 1'b1; t = {t[23:0],  8'd0}; end
    if (t[31:28] ==  4'd0) begin lz[2] = 1'b1; t = {t[27:0],  4'd0}; end
    if (t[31:30] ==  2'd0) begin lz[1] = 1'b1; t = {t[29:0],  2'd0}; end
    if (t[31]    ==  1'b0) begin lz[0] = 1'b1; t = {t[30:0],  1'd0}; end
    return t;
  endfunction

  // Round a normalized significand m (hidden bit m[23]) with guard bit g and sticky st to
  // nearest even, and pack it with biased exponent e. Overflow gives a signed infinity; e < 1
  // gives a signed zero (callers only pass e < 1 where the exact value is already below
  // 2^-126 on the subnormal grid, i.e. where IEEE would return a denormal or zero).
  function automatic f32_t round_pack(input logic s, input logic signed [11:0] e,
                                      input logic [23:0] m, input logic g, input logic st);
    /* verilator lint_off UNUSEDSIGNAL */
    logic [24:0] r;                   // r[23], the hidden bit, is implied by the exponent
    /* verilator lint_on UNUSEDSIGNAL */
    logic signed [11:0] e2;
    r = {1'b0, m} + {24'd0, g & (st | m[0])};
    e2 = e + {11'd0, r[24]};          // a carry out of the rounding gives 1.0 * 2^(e+1)
    if (e < 12'sd1) return {s, 31'd0};
    if (e2 > 12'sd254) return {s, 8'hFF, 23'd0};
    return {s, e2[7:0], r[22:0]};
  endfunction

  // ---- add / sub -------------------------------------------------------------------------

  function automatic f32_t fp_add(input f32_t a_in, input f32_t b_in);
    /*verilator no_inline_task*/
    f32_t a, b, x, y;
    logic        eff_sub;
    logic [7:0]  d;
    logic [26:0] mx, my, my_al, lost_mask;
    logic [27:0] sum;
    logic [31:0] nrm;
    logic [4:0]  lz;
    logic signed [11:0] e;
    logic [23:0] m;
    logic g, st;
    a = ftz(a_in);
    b = ftz(b_in);
    // NaN operands and inf - inf give the canonical NaN; otherwise an infinity wins.
    if (fp_isnan(a[30:0]) || fp_isnan(b[30:0])) return FP_QNAN;
    if (fp_isinf(a[30:0]) && fp_isinf(b[30:0])) return (a[31] == b[31]) ? a : FP_QNAN;
    if (fp_isinf(a[30:0])) return a;
    if (fp_isinf(b[30:0])) return b;
    // x: the operand of larger magnitude.
    if (a[30:0] >= b[30:0]) begin x = a; y = b; end
    else begin x = b; y = a; end
    eff_sub = x[31] ^ y[31];
    // Significands with three extra low bits (guard, round, sticky); a zero has none.
    mx = {(x[30:23] != 8'd0), x[22:0], 3'b000};
    my = {(y[30:23] != 8'd0), y[22:0], 3'b000};
    d = x[30:23] - y[30:23];
    if (d >= 8'd27) begin
      my_al = {26'd0, (my != 27'd0)};
    end else begin
      lost_mask = ~(27'h7FF_FFFF << d);
      my_al = (my >> d) | {26'd0, ((my & lost_mask) != 27'd0)};
    end
    sum = eff_sub ? ({1'b0, mx} - {1'b0, my_al}) : ({1'b0, mx} + {1'b0, my_al});
    // Exact zero: +0 for x - x, the common sign for (+-0) + (+-0) of equal signs.
    if (sum == 28'd0) return {x[31] & ~eff_sub, 31'd0};
    // Normalize: the leading one goes to bit 31 of a 32-bit word (sum sits in [27:0]).
    nrm = norm_left32({sum, 4'd0}, lz);
    // sum[26] is x's hidden-bit position: exponent = ex + 1 - (leading zeros of sum[27:0]).
    e = $signed({4'd0, x[30:23]}) + 12'sd1 - $signed({7'd0, lz});
    m = nrm[31:8];
    g = nrm[7];
    st = (nrm[6:0] != 7'd0);
    // A result below 2^-126 is exact here (both operands are multiples of 2^-149): flush.
    return round_pack(x[31], e, m, g, st);
  endfunction

  function automatic f32_t fp_sub(input f32_t a, input f32_t b);
    return fp_add(a, {~b[31], b[30:0]});
  endfunction

  // ---- mul -------------------------------------------------------------------------------

  function automatic f32_t fp_mul(input f32_t a_in, input f32_t b_in);
    /*verilator no_inline_task*/
    f32_t a, b;
    logic s;
    logic [47:0] p;
    logic signed [11:0] e;
    logic [23:0] m;
    logic g, st;
    a = ftz(a_in);
    b = ftz(b_in);
    s = a[31] ^ b[31];
    if (fp_isnan(a[30:0]) || fp_isnan(b[30:0])) return FP_QNAN;
    if (fp_isinf(a[30:0]) || fp_isinf(b[30:0])) begin
      if (a[30:0] == 31'd0 || b[30:0] == 31'd0) return FP_QNAN;   // inf * 0
      return {s, 8'hFF, 23'd0};
    end
    if (a[30:0] == 31'd0 || b[30:0] == 31'd0) return {s, 31'd0};
    p = {24'd0, 1'b1, a[22:0]} * {24'd0, 1'b1, b[22:0]};          // in [2^46, 2^48)
    e = $signed({4'd0, a[30:23]}) + $signed({4'd0, b[30:23]}) - 12'sd127;
    if (p[47]) begin
      m = p[47:24]; g = p[23]; st = (p[22:0] != 23'd0);
      e = e + 12'sd1;
    end else begin
      m = p[46:23]; g = p[22]; st = (p[21:0] != 22'd0);
    end
    // Just below 2^-126 (biased exponent 0): on the subnormal grid the step is 2^-149, i.e.
    // 22 fraction bits here, so the value rounds up to 2^-126 exactly when its top 24 bits are
    // all ones (>= 2^-126 - 2^-150, the tie going to the even 2^-126). Anything else there, or
    // lower, is a denormal or zero and flushes.
    if (e == 12'sd0) return (m == 24'hFF_FFFF) ? {s, 8'd1, 23'd0} : {s, 31'd0};
    return round_pack(s, e, m, g, st);
  endfunction

  // ---- compares, max / min, abs ----------------------------------------------------------

  // Total-order key of the flushed bits: negative values reversed below all positive ones.
  function automatic logic [31:0] fp_order_key(input f32_t x_in);
    f32_t x;
    x = ftz(x_in);
    return x[31] ? ~x : {1'b1, x[30:0]};
  endfunction

  function automatic logic fp_gt(input f32_t a, input f32_t b);
    return fp_order_key(a) > fp_order_key(b);
  endfunction

  function automatic f32_t fp_max(input f32_t a, input f32_t b);
    return fp_gt(a, b) ? ftz(a) : ftz(b);
  endfunction

  function automatic f32_t fp_min(input f32_t a, input f32_t b);
    return fp_gt(b, a) ? ftz(a) : ftz(b);
  endfunction

  // max (mn = 0) or min (mn = 1) from the single compare a > b. For min the tie case picks b,
  // which is the same bits as a: equal keys mean equal flushed values.
  function automatic f32_t fp_mm(input f32_t a, input f32_t b, input logic mn);
    return (fp_gt(a, b) ^ mn) ? ftz(a) : ftz(b);
  endfunction

  /* verilator lint_off UNUSEDSIGNAL */        // a[31] is dropped by definition
  function automatic f32_t fabs(input f32_t a);
    return ftz({1'b0, a[30:0]});
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // ---- conversions -----------------------------------------------------------------------

  // int32 -> fp32, round to nearest even.
  function automatic f32_t i2f(input logic signed [31:0] x);
    logic [31:0] mag, nrm;
    logic [4:0] lz;
    logic signed [11:0] e;
    if (x == 32'sd0) return FP_PZERO;
    mag = x[31] ? (~x + 32'd1) : x;         // |-2^31| = 0x80000000 as unsigned
    nrm = norm_left32(mag, lz);
    e = 12'sd158 - $signed({7'd0, lz});     // 127 + 31 - lz
    return round_pack(x[31], e, nrm[31:8], nrm[7], (nrm[6:0] != 7'd0));
  endfunction

  // Round half to even to an integer, saturate to [-127, 127], as the int8's byte; NaN -> 0.
  function automatic logic [7:0] q8(input f32_t x_in);
    f32_t x;
    logic [7:0] ex;
    logic [4:0] sh;
    logic [23:0] m, ip, rest, half;
    logic [7:0] mag;
    x = ftz(x_in);
    ex = x[30:23];
    if (fp_isnan(x[30:0])) return 8'd0;
    if (ex < 8'd126) return 8'd0;                       // |x| < 0.5 (and zeros)
    if (ex > 8'd133) return x[31] ? 8'h81 : 8'h7F;      // |x| >= 128 (and inf)
    m = {1'b1, x[22:0]};
    sh = 5'(8'd150 - ex);                               // 17..24: value = m / 2^sh
    ip = m >> sh;
    rest = m & ~(24'hFF_FFFF << sh);
    half = 24'd1 << (sh - 5'd1);
    if (rest > half || (rest == half && ip[0])) ip = ip + 24'd1;
    mag = (ip > 24'd127) ? 8'd127 : ip[7:0];
    return x[31] ? (~mag + 8'd1) : mag;
  endfunction

  // ---- composite functions ---------------------------------------------------------------

  // floor(x) for a flushed x in [-126, 128).
  function automatic logic signed [31:0] fp_floor_small(input f32_t x);
    logic [7:0] ex;
    logic [4:0] sh;
    logic [23:0] m, ip;
    logic frac;
    ex = x[30:23];
    if (x[30:0] == 31'd0) return 32'sd0;
    if (ex < 8'd127) return x[31] ? -32'sd1 : 32'sd0;  // 0 < |x| < 1
    m = {1'b1, x[22:0]};
    sh = 5'(8'd150 - ex);                               // 17..23 for |x| < 256
    ip = m >> sh;
    frac = ((m & ~(24'hFF_FFFF << sh)) != 24'd0);
    if (x[31]) return -$signed({8'd0, ip + {23'd0, frac}});
    return $signed({8'd0, ip});
  endfunction

  // 2^x: x < -126 -> +0, x >= 128 (and any NaN) -> +inf; else i = floor(x), f = x - i,
  // the degree-7 Horner polynomial in f, and i added to the result's exponent field.
  function automatic f32_t fp_exp2(input f32_t x_in);
    f32_t x, f, p;
    logic signed [31:0] i;
    x = ftz(x_in);
    if (fp_isnan(x[30:0])) return FP_PINF;   // made canonical (+NaN) first: >= 128
    if (fp_gt(FP_M126, x)) return FP_PZERO;
    if (!fp_gt(FP_P128, x)) return FP_PINF;
    i = fp_floor_small(x);
    f = fp_sub(x, i2f(i));
    p = EXP2_K[7];
    for (int k = 6; k >= 0; k--) p = fp_add(fp_mul(p, f), EXP2_K[k]);
    return p + (i <<< 23);
  endfunction

  // 1/x on the significand: a = 1.frac in [1, 2), seed MAGIC - bits(a), two Newton steps
  // y = y*(2 - a*y), the correction y = y*(1 - a*y) + y, then the exponent (127 - field of x)
  // and the sign of x. +-0 -> +0; |x| >= 2^126 (inf and NaN too) -> zero with x's sign.
  function automatic f32_t fp_recip(input f32_t x_in);
    f32_t x, a, y;
    x = ftz(x_in);
    if (x[30:0] == 31'd0) return FP_PZERO;
    if (x[30:0] >= 31'h7E80_0000) return {x[31], 31'd0};
    a = {1'b0, 8'd127, x[22:0]};
    y = MAGIC_RECIP - a;
    y = fp_mul(y, fp_sub(FP_TWO, fp_mul(a, y)));
    y = fp_mul(y, fp_sub(FP_TWO, fp_mul(a, y)));
    y = fp_add(fp_mul(y, fp_sub(FP_ONE, fp_mul(a, y))), y);
    y = fp_scale_field(y, 9'sd127 - $signed({1'b0, x[30:23]}));
    return {x[31] | y[31], y[30:0]};
  endfunction

  // 1/sqrt(x): any sign bit, +0 and +inf -> +0. The exponent field is moved by +4 (field <= 2)
  // or -4 (field 250..254) first and the result's by +2 / -2 after. Seed MAGIC - bits/2,
  // h = 0.5*x, two steps y = y*(1.5 - h*(y*y)), the correction y = y*(0.5 - h*(y*y)) + y.
  function automatic f32_t fp_rsqrt(input f32_t x_in);
    f32_t x, xs, y, h;
    logic signed [8:0] k;
    x = ftz(x_in);
    if (x[31] || x == FP_PZERO || x == FP_PINF) return FP_PZERO;
    if (x[30:23] <= 8'd2) k = 9'sd4;
    else if (x[30:23] >= 8'd250 && x[30:23] != 8'hFF) k = -9'sd4;
    else k = 9'sd0;
    xs = fp_scale_field(x, k);
    y = MAGIC_RSQRT - {1'b0, xs[31:1]};
    h = fp_mul(FP_HALF, xs);
    y = fp_mul(y, fp_sub(FP_THREEH, fp_mul(h, fp_mul(y, y))));
    y = fp_mul(y, fp_sub(FP_THREEH, fp_mul(h, fp_mul(y, y))));
    y = fp_add(fp_mul(y, fp_sub(FP_HALF, fp_mul(h, fp_mul(y, y)))), y);
    return fp_scale_field(y, k >>> 1);
  endfunction

  // log2(x): x = 2^e * m with m in [sqrt(1/2), sqrt(2)), t = m - 1, Horner over C9..C1 in t,
  // result q*t + e. +-0 -> -inf, x < 0 and NaN -> canonical NaN, +inf -> +inf.
  function automatic f32_t fp_log2(input f32_t x_in);
    f32_t x, m, t, q, r;
    logic ge;
    logic signed [31:0] e;
    x = ftz(x_in);
    if (x[30:0] == 31'd0) return FP_NINF;
    if (x[31] || fp_isnan(x[30:0])) return FP_QNAN;
    if (fp_isinf(x[30:0])) return FP_PINF;
    ge = (x[22:0] >= LOG2_SQRT2_FRAC);
    e = $signed({24'd0, x[30:23]}) - 32'sd127 + {31'd0, ge};
    m = {1'b0, (ge ? 8'd126 : 8'd127), x[22:0]};
    t = fp_add(m, FP_MONE);
    q = LOG2_K[9];
    for (int k = 8; k >= 1; k--) q = fp_add(fp_mul(q, t), LOG2_K[k]);
    r = fp_add(fp_mul(q, t), i2f(e));
    return ftz(r);
  endfunction

endpackage
