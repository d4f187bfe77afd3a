// otpu_stream.sv - the DMA's stream engine: STREAM (openTPU docs/stream.md, judged by
// opentpu/isasim.py)
// and DSTEP, which it runs as STREAM with the Gated DeltaNet descriptor (isa.gdn_desc: A = the row
// dot with slot 1 = k, d = (X - A*K0) * K1, Y = S*K0 + d*k, O = the dot of Y with slot 0 = q).
//
// Phases, one word per cycle on the DMA's ports:
//   DESC   the descriptor words (float-safe payloads) from TMEM       (STREAM only)
//   CHECK  the ISA's checks; an error ends the instruction before any write
//   INPUT  the column slots, constants and row scalars into buffers (read before any write)
//   SNAP   a copy of an in-place TMEM stream whose rows overlap (all rows read before written)
//   per row r:  LOAD (S[r] into a buffer, dot A's partials), AFOLD, SCALAR (one op per cycle),
//               MAP (Y, written to the destination; dot Q's partials), QFOLD
//   OUT    O[r] to TMEM; RSAVE the saved registers
// Rows run one after another, which is the ISA's order (a row that reads what an earlier row wrote
// sees it). A TMEM stream row out of range stops the instruction at that row when the rows run
// one at a time in the reference too, and before any row otherwise.
`include "otpu_config.svh"

module otpu_stream
  import otpu_pkg::*;
  import otpu_fp::*;
#(
  parameter int SID = 0,
  parameter int D = 32,
  parameter int TMEM_WORDS = 65536,
  parameter longint DRAM_BYTES = 262144
) (
  `OTPU_UNIT_PORTS,
  `OTPU_WORD_READ_PORTS,
  output wr_t         wt,
  output wr_t         wm
);
  localparam int MAXC = 4096;          // rows and cols are 12-bit fields
  localparam longint T = longint'(TMEM_WORDS);

  // scalar operands and ops (opentpu/isa.py)
  localparam logic [3:0] OPA = 4'd8, OPX = 4'd9, OPK0 = 4'd10, OPZERO = 4'd14;
  localparam logic [3:0] SC_ADD = 0, SC_SUB = 1, SC_MUL = 2, SC_MAX = 3, SC_MIN = 4, SC_MOV = 5,
                         SC_RSQRT = 6, SC_RECIP = 7, SC_EXP2 = 8, SC_LOG2 = 9, SC_EXP2SUB = 10;

  typedef enum logic [3:0] {
    S_IDLE, S_DESC, S_CHECK, S_INPUT, S_SNAP, S_LOAD, S_AFOLD, S_SCALAR, S_MAP, S_QFOLD, S_OUT,
    S_RSAVE
  } st_t;
  st_t st;
  cmd_t c;
  logic dstep;

  // ---- the descriptor -----------------------------------------------------------------------
  logic [23:0] dp [5];
  logic [14:0] ops [15];
  logic [31:0] i, r, cc, nwords;
  wire [11:0] rows = dp[0][11:0];
  wire [11:0] cols = dp[0][23:12];
  wire        a_en = dp[1][0];
  wire [1:0]  a_op = dp[1][2:1];
  wire [1:0]  a_idx = dp[1][4:3];
  wire [1:0]  u_mode = dp[1][6:5];
  wire [1:0]  g_src = dp[1][8:7];
  wire [2:0]  g_idx = dp[1][11:9];
  wire [1:0]  b_src = dp[1][13:12];
  wire [2:0]  b_idx = dp[1][16:14];
  wire [2:0]  d_reg = dp[1][19:17];
  wire        q_en = dp[1][20];
  wire [1:0]  q_idx = dp[1][22:21];
  wire        out_p2 = dp[1][23];
  wire [3:0]  nops = dp[2][3:0];
  wire [3:0]  rinit = dp[2][7:4];
  wire [3:0]  rsave = dp[2][11:8];
  wire        q_self = dp[2][12];
  wire        o_reg_en = dp[2][13];
  wire [2:0]  o_reg = dp[2][16:14];
  wire [11:0] srs_d = dp[4][11:0];
  wire [11:0] drs_d = dp[4][23:12];
  wire        uses_g = (u_mode == 2'd1 || u_mode == 2'd2);
  wire        uses_b = (u_mode == 2'd1 || u_mode == 2'd3);

  // the instruction's fields (DSTEP mapped: src = dst = the state, vec = qk, x = v, k = g, out = o)
  wire [31:0] at = {16'd0, c.w1[15:0]};
  wire [31:0] ks = dstep ? c.w7 : {16'd0, c.w1[31:16]};
  wire [31:0] src = dstep ? c.w1 : c.w2;
  wire [31:0] dst = dstep ? c.w1 : c.w3;
  wire [31:0] vec = dstep ? c.w2 : c.w4;
  wire [31:0] xa = dstep ? c.w3 : c.w5;
  wire [31:0] ka = dstep ? c.w5 : c.w6;
  wire [31:0] outa = dstep ? c.w6 : c.w7;
  wire        zero = c.flags[F_SZERO];
  wire        in_t = !dstep && c.flags[F_SRC_T];
  wire        out_t = !dstep && c.flags[F_DST_T];
  wire        nodst = !dstep && c.flags[F_NODST];
  wire [31:0] srs = (srs_d != 0) ? 32'(srs_d) : 32'(cols);
  wire [31:0] drs = (drs_d != 0) ? 32'(drs_d) : 32'(cols);

  // ---- what the descriptor reads ------------------------------------------------------------
  function automatic logic unary(input logic [3:0] op);
    return op == SC_MOV || op == SC_RSQRT || op == SC_RECIP || op == SC_EXP2 || op == SC_LOG2;
  endfunction

  logic [3:0] slots, consts;
  logic       uses_x, bad_op;
  always_comb begin
    slots = '0; consts = rinit; uses_x = 1'b0; bad_op = 1'b0;
    for (int k = 0; k < 15; k++) begin
      if (4'(k) < nops) begin
        logic [3:0] o, a, b;
        o = ops[k][3:0]; a = ops[k][10:7]; b = ops[k][14:11];
        if (o > SC_EXP2SUB) bad_op = 1'b1;
        if (a >= OPK0 && a < OPZERO) consts[a - OPK0] = 1'b1;
        if (a == OPX) uses_x = 1'b1;
        if (!unary(o)) begin
          if (b >= OPK0 && b < OPZERO) consts[b - OPK0] = 1'b1;
          if (b == OPX) uses_x = 1'b1;
        end
      end
    end
    if (a_en && a_op == 2'd0) slots[a_idx] = 1'b1;
    if (a_en && a_op == 2'd2) consts[a_idx] = 1'b1;
    if (uses_g && g_src == 2'd1 && g_idx < 3'd4) slots[g_idx[1:0]] = 1'b1;
    if (uses_g && g_src == 2'd2 && g_idx < 3'd4) consts[g_idx[1:0]] = 1'b1;
    if (uses_b && b_src == 2'd0 && b_idx < 3'd4) slots[b_idx[1:0]] = 1'b1;
    if (uses_b && b_src == 2'd1 && b_idx < 3'd4) consts[b_idx[1:0]] = 1'b1;
    if ((q_en && !q_self) || out_p2) slots[q_idx] = 1'b1;
  end

  // ---- the checks (all before any write) -----------------------------------------------------
  logic        chk_err, seq, snap;
  logic [31:0] bad_row;        // rows from here on stop the instruction (TMEM stream range)
  always_comb begin
    longint unsigned nr, nc, e, sl, sh, dl, dh;
    logic [31:0] lb, sb;
    nr = longint'(rows); nc = longint'(cols);
    chk_err = 1'b0;
    if (rows == 0 || cols == 0) chk_err = 1'b1;
    if (q_en && o_reg_en) chk_err = 1'b1;
    if (bad_op) chk_err = 1'b1;
    if ((uses_g && (g_src == 2'd1 || g_src == 2'd2) && g_idx >= 3'd4) ||
        (uses_b && (b_src == 2'd0 || b_src == 2'd1) && b_idx >= 3'd4)) chk_err = 1'b1;
    if (uses_b && b_src == 2'd3) chk_err = 1'b1;
    for (int s = 0; s < 4; s++)
      if (slots[s] && longint'(vec) + longint'(s) * nc + nc > T) chk_err = 1'b1;
    for (int j = 0; j < 4; j++)
      if (consts[j] && longint'(ka) + longint'(j) * longint'(ks) >= T) chk_err = 1'b1;
    if (uses_x && longint'(xa) + nr > T) chk_err = 1'b1;
    if ((!in_t && !zero && longint'(src) % longint'(D) != 0) ||
        (!out_t && !nodst && longint'(dst) % longint'(D) != 0)) chk_err = 1'b1;
    if (!in_t && !zero && longint'(src) + 4 * nr * nc > DRAM_BYTES) chk_err = 1'b1;
    if (!out_t && !nodst && longint'(dst) + 4 * nr * nc > DRAM_BYTES) chk_err = 1'b1;
    // the stream's own ranges (bytes for DRAM, words for TMEM)
    sl = longint'(src); dl = longint'(dst);
    sh = in_t ? sl + (nr - 1) * longint'(srs) + nc : sl + 4 * nr * nc;
    dh = out_t ? dl + (nr - 1) * longint'(drs) + nc : dl + 4 * nr * nc;
    seq = (in_t == out_t) && !zero && !nodst && (src != dst || (in_t && srs != drs && rows > 1))
          && sl < dh && dl < sh;
    snap = (in_t == out_t) && in_t && !zero && !nodst && !seq && rows > 1 && srs < 32'(cols);
    // the first TMEM row out of range, as loading (S) or storing (Y) it
    lb = 32'(rows); sb = 32'(rows);
    if (in_t && !zero && sh > T) begin
      e = (longint'(src) + nc > T) ? 0 : (T - longint'(src) - nc) / longint'(srs) + 1;
      lb = 32'(e);
    end
    if (out_t && !nodst && dh > T) begin
      e = (longint'(dst) + nc > T) ? 0 : (T - longint'(dst) - nc) / longint'(drs) + 1;
      sb = 32'(e);
    end
    bad_row = (lb < sb) ? lb : sb;
    if (!seq && bad_row < 32'(rows)) bad_row = 32'd0;
  end

  // ---- buffers and the row's registers -------------------------------------------------------
  logic [31:0] cbuf [4 * MAXC];       // column slots
  logic [31:0] sbuf [MAXC];           // the current stream row
  logic [31:0] xbuf [MAXC];           // row scalars
  logic [31:0] obuf [MAXC];           // row outputs
  logic [31:0] kbuf [4];              // constants
  logic [31:0] snapb [TMEM_WORDS];    // SNAP: the stream's source span
  logic [31:0] regs [8];
  logic [31:0] part [64];
  logic [31:0] fh, aval;
  logic [31:0] mx;
  logic [1:0]  in_ph;                 // INPUT: 0 slots, 1 constants, 2 row scalars

  // operand values of the scalar program
  function automatic logic [31:0] opv(input logic [3:0] code);
    if (code < 4'd8) return regs[code[2:0]];
    if (code == OPA) return aval;
    if (code == OPX) return xbuf[r[11:0]];
    if (code < OPZERO) return kbuf[code - OPK0];
    if (code == OPZERO) return 32'd0;
    return FP_ONE;
  endfunction

  // ---- ports ----------------------------------------------------------------------------------
  logic [31:0] s_word;                // the stream element being loaded
  always_comb begin
    t_raddr = '0;
    m_raddr = src + ((r * 32'(cols) + cc) << 2);
    case (st)
      S_DESC: t_raddr = at + i;
      S_INPUT: begin
        case (in_ph)
          2'd0: t_raddr = vec + i * 32'(cols) + cc;
          2'd1: t_raddr = ka + i * 32'(ks);
          default: t_raddr = xa + cc;
        endcase
      end
      S_SNAP: t_raddr = src + cc;
      default: t_raddr = src + r * srs + cc;
    endcase
    if (zero) s_word = 32'd0;
    else if (!in_t) s_word = m_rdata;
    else if (snap) s_word = snapb[(r * srs + cc) % TMEM_WORDS];
    else s_word = t_rdata;
  end

  task automatic finish(input logic e);
    done <= 1'b1; err <= e; st <= S_IDLE;
  endtask

  // the end of a row: the next row, or the outputs
  task automatic next_row();
    cc <= '0;
    if (r + 1 == 32'(rows)) begin
      r <= '0; st <= S_OUT;
    end else begin
      r <= r + 32'd1;
      if (r + 1 >= bad_row) finish(1'b1);
      else st <= S_LOAD;
    end
  endtask

  always_ff @(posedge clk) begin
    // one-cycle pulses
    done <= 1'b0; err <= 1'b0; wt.v <= 1'b0; wm.v <= 1'b0;
    if (rst) st <= S_IDLE;
    else case (st)
      S_IDLE: begin
        if (start) begin
          c <= cmd;
          i <= '0; r <= '0; cc <= '0;
          dstep <= (cmd.op == OP_DSTEP);
          if (cmd.op == OP_DSTEP) begin
            // isa.gdn_desc(rows, cols): A = slot 1, U = FMMA (G = K0, B = slot 1, D = r2),
            // Q = slot 0, ops r0 = A*K0, r1 = X - r0, r2 = r1*K1
            dp[0] <= {cmd.w4[27:16], cmd.w4[11:0]};
            dp[1] <= 24'(1) | (24'(1) << 3) | (24'(1) << 5) | (24'(2) << 7) | (24'(1) << 14) |
                     (24'(2) << 17) | (24'(1) << 20);
            dp[2] <= 24'd3;
            dp[3] <= '0;
            dp[4] <= '0;
            ops[0] <= {4'd10, 4'd8, 3'd0, SC_MUL};
            ops[1] <= {4'd0, 4'd9, 3'd1, SC_SUB};
            ops[2] <= {4'd11, 4'd1, 3'd2, SC_MUL};
            st <= S_CHECK;
          end else begin
            nwords <= 32'd5;
            st <= S_DESC;
          end
        end
      end
      S_DESC: begin
        if (longint'(at) + longint'(i) >= T || t_rdata[30:23] != 8'h80) begin
          finish(1'b1);                                   // not a float-safe descriptor
        end else begin
          if (i < 5) dp[i[2:0]] <= {t_rdata[31], t_rdata[22:0]};
          else ops[i - 5] <= t_rdata[14:0];
          if (i == 2) nwords <= 32'd5 + 32'(t_rdata[3:0]);
          if (i + 1 == ((i >= 2) ? nwords : 32'd5) && i >= 4) st <= S_CHECK;
          i <= i + 32'd1;
        end
      end
      S_CHECK: begin
        if (chk_err || bad_row == 0) finish(1'b1);
        else begin
          for (int j = 0; j < 8; j++) regs[j] <= 32'd0;
          i <= '0; cc <= '0; in_ph <= 2'd0;
          st <= S_INPUT;
        end
      end
      S_INPUT: begin
        // slots (i = slot, cc = column), then constants (i), then row scalars (cc)
        case (in_ph)
          2'd0: begin
            if (slots[i[1:0]]) cbuf[{i[1:0], cc[11:0]}] <= t_rdata;
            if (!slots[i[1:0]] || cc + 1 == 32'(cols)) begin
              cc <= '0;
              if (i == 3) begin i <= '0; in_ph <= 2'd1; end
              else i <= i + 32'd1;
            end else cc <= cc + 32'd1;
          end
          2'd1: begin
            if (consts[i[1:0]]) kbuf[i[1:0]] <= t_rdata;
            if (i == 3) begin i <= '0; cc <= '0; in_ph <= 2'd2; end
            else i <= i + 32'd1;
          end
          default: begin
            if (uses_x) xbuf[cc[11:0]] <= t_rdata;
            if (!uses_x || cc + 1 == 32'(rows)) begin
              cc <= '0;
              for (int j = 0; j < 4; j++) if (rinit[j]) regs[4 + j] <= kbuf[j];
              st <= snap ? S_SNAP : S_LOAD;
            end else cc <= cc + 32'd1;
          end
        endcase
      end
      S_SNAP: begin
        snapb[cc % TMEM_WORDS] <= t_rdata;
        if (cc + 1 == (32'(rows) - 1) * srs + 32'(cols)) begin cc <= '0; st <= S_LOAD; end
        else cc <= cc + 32'd1;
      end
      S_LOAD: begin
        logic [31:0] sv, opa;
        sv = s_word;
        sbuf[cc[11:0]] <= sv;
        if (cc == 0) for (int q = 0; q < 64; q++) part[q] = 32'd0;
        if (a_en) begin
          if (a_op == 2'd3) begin
            if (cc == 0 || fp_gt(sv, mx)) mx <= ftz(sv);
          end else begin
            opa = (a_op == 2'd0) ? cbuf[{a_idx, cc[11:0]}] : (a_op == 2'd1) ? sv : kbuf[a_idx];
            part[cc[5:0]] = fp_add(part[cc[5:0]], fp_mul(sv, opa));
          end
        end
        if (cc + 1 == 32'(cols)) begin
          cc <= '0;
          fh <= 32'd32;
          st <= (a_en && a_op != 2'd3) ? S_AFOLD : S_SCALAR;
          if (!a_en) aval <= 32'd0;
          if (a_en && a_op == 2'd3) aval <= (cc == 0 || fp_gt(sv, mx)) ? ftz(sv) : mx;
          i <= '0;
        end else cc <= cc + 32'd1;
      end
      S_AFOLD, S_QFOLD: begin
        if (fh == 32'd32 && cols[5:0] != 6'd0)
          for (int q = int'(cols[5:0]); q < 64; q++) part[q] = fp_add(part[q], FP_PZERO);
        for (int k = 0; k < int'(fh); k++) part[k] = fp_add(part[k], part[k + int'(fh)]);
        if (fh == 32'd1) begin
          if (st == S_AFOLD) begin
            aval <= part[0];
            i <= '0;
            st <= S_SCALAR;
          end else begin
            obuf[r[11:0]] <= part[0];
            next_row();
          end
        end else fh <= fh >> 1;
      end
      S_SCALAR: begin
        if (i < 32'(nops)) begin
          logic [3:0] o;
          logic [31:0] x, y, v;
          o = ops[i][3:0];
          x = opv(ops[i][10:7]);
          y = opv(ops[i][14:11]);
          case (o)
            SC_ADD: v = fp_add(x, y);
            SC_SUB: v = fp_sub(x, y);
            SC_MUL: v = fp_mul(x, y);
            SC_MAX: v = fp_max(x, y);
            SC_MIN: v = fp_min(x, y);
            SC_MOV: v = ftz(x);
            SC_RSQRT: v = fp_rsqrt(x);
            SC_RECIP: v = fp_recip(x);
            SC_EXP2: v = fp_exp2(x);
            SC_LOG2: v = fp_log2(x);
            default: v = fp_exp2(fp_sub(x, y));
          endcase
          regs[ops[i][6:4]] <= v;
          i <= i + 32'd1;
        end else begin
          cc <= '0;
          st <= S_MAP;
        end
      end
      S_MAP: begin
        logic [31:0] sv, g, b, y, qv, yo;
        sv = sbuf[cc[11:0]];
        if (cc == 0) for (int q = 0; q < 64; q++) part[q] = 32'd0;
        case (g_src)
          2'd0: g = regs[g_idx];
          2'd1: g = cbuf[{g_idx[1:0], cc[11:0]}];
          2'd2: g = kbuf[g_idx[1:0]];
          default: g = FP_ONE;
        endcase
        case (b_src)
          2'd0: b = cbuf[{b_idx[1:0], cc[11:0]}];
          2'd1: b = kbuf[b_idx[1:0]];
          default: b = regs[b_idx];
        endcase
        case (u_mode)
          2'd0: y = ftz(sv);
          2'd1: y = fp_add(fp_mul(sv, g), fp_mul(regs[d_reg], b));
          2'd2: y = fp_mul(sv, g);
          default: y = fp_add(sv, fp_mul(regs[d_reg], b));
        endcase
        qv = cbuf[{q_idx, cc[11:0]}];
        if (q_en) part[cc[5:0]] = fp_add(part[cc[5:0]], fp_mul(y, q_self ? y : qv));
        yo = out_p2 ? fp_mul(y, qv) : y;
        if (!nodst) begin
          if (out_t)
            wt <= '{v: 1'b1, space: SP_TMEM, addr: dst + r * drs + cc, data: yo, mask: 4'hF};
          else
            wm <= '{v: 1'b1, space: SP_DRAM, addr: dst + ((r * 32'(cols) + cc) << 2), data: yo,
                    mask: 4'hF};
        end
        if (cc + 1 == 32'(cols)) begin
          cc <= '0;
          fh <= 32'd32;
          if (q_en) st <= S_QFOLD;
          else begin
            if (o_reg_en) obuf[r[11:0]] <= regs[o_reg];
            next_row();
          end
        end else cc <= cc + 32'd1;
      end
      S_OUT: begin
        if (!(q_en || o_reg_en) || c.terr) begin
          i <= '0; st <= S_RSAVE;
        end else if (r == 0 && longint'(outa) + longint'(rows) > T) begin
          finish(1'b1);
        end else begin
          wt <= '{v: 1'b1, space: SP_TMEM, addr: outa + r, data: obuf[r[11:0]], mask: 4'hF};
          if (r + 1 == 32'(rows)) begin i <= '0; st <= S_RSAVE; end
          else r <= r + 32'd1;
        end
      end
      S_RSAVE: begin
        if (i == 4) finish(1'b0);
        else begin
          if (rsave[i[1:0]]) begin
            if (longint'(ka) + longint'(i) * longint'(ks) >= T) finish(1'b1);
            else wt <= '{v: 1'b1, space: SP_TMEM, addr: ka + i * 32'(ks),
                         data: regs[4 + i[1:0]], mask: 4'hF};
          end
          i <= i + 32'd1;
        end
      end
      default: st <= S_IDLE;
    endcase
  end
endmodule
