// otpu_mxu.sv - the MXU: MM on the ACT RAM (the stationary operand, which it holds) and a
// stream of weight rows from DRAM.
//
// Per output column n it streams one K-block per cycle: the block's D int8 (or D/2 bytes of
// 4-bit) weights and, without UNIT, its scale word. For every ACT row of the MM it forms the
// exact integer dot product of the block, t = (i2f(isum) * ws) * ASCALE and adds t into partial
// sum k mod 4 (PAIR: the even block's t and the odd block's t of ACT row j + M are added first).
// After the last block the partials are padded and folded (isum_4, openTPU docs/isa.md
// "Sums"), and one output row per cycle is written (ACC: plus the old value; ASCALE:
// old * alpha[j] + acc). ASCALE's M factors T[ssa + j] are read first, one a cycle, before
// any output is written: isasim.py reads them before it writes, and they may lie inside the
// MM's own output range.
// RMAX rows are written after the last column.
`include "otpu_config.svh"

module otpu_mxu
  import otpu_pkg::*;
  import otpu_fp::*;
#(
  parameter int SID = 0,
  parameter int D = 32,
  parameter int ACT_BLOCKS = 64,
  parameter int AR = 8
) (
  `OTPU_UNIT_PORTS,
  output logic             idle,
  input  logic             dump,
  // DRAM: the streamed block (D bytes from c_addr) and its scale word
  output logic [31:0]      c_addr,
  input  logic [8*D-1:0]   c_data,
  output logic [31:0]      s_addr,
  input  logic [31:0]      s_data,
  // TMEM: the old output (ACC, ASCALE) and the ASCALE factor
  output logic [1:0][31:0] t_raddr,
  input  logic [1:0][31:0] t_rdata,
  output wr_t              wt,
  // the quantizer's ACT RAM writes: [0] byte, [1] its DUP copy, [2] scale, [3] its DUP copy
  input  wr_t  [3:0]       aw
);
  localparam int NB = AR * ACT_BLOCKS;
  bit [7:0]  act [NB * D];  // (2-state: zero at time 0)
  bit [31:0] asc [NB];

  always_ff @(posedge clk) begin
    for (int p = 0; p < 2; p++)
      if (aw[p].v && aw[p].addr < 32'(NB * D)) act[aw[p].addr] <= aw[p].data[7:0];
    for (int p = 2; p < 4; p++)
      if (aw[p].v && aw[p].addr < 32'(NB)) asc[aw[p].addr] <= aw[p].data;
  end

  always_ff @(posedge clk) begin
    if (dump) begin
      for (int i = 0; i < NB * D; i++)
        otpu_dpi::otpu_dump_word(SID, otpu_dpi::DS_ACT, longint'(i), 32'(act[i]));
      for (int i = 0; i < NB; i++)
        otpu_dpi::otpu_dump_word(SID, otpu_dpi::DS_ASCALE, longint'(i), asc[i]);
    end
  end

  // ---- the MM ---------------------------------------------------------------------------------
  typedef enum logic [2:0] { S_IDLE, S_ALPHA, S_STRM, S_OUT, S_RMAX } st_t;
  st_t st;
  cmd_t c;
  logic [31:0] n, k, j;
  logic [31:0] pacc [AR][4];       // isum_4 partials per output row (blocking: this block only)
  logic [31:0] hold [AR];          // PAIR: the even block's term
  logic [31:0] rmx [AR];
  logic [31:0] alpha [AR];         // ASCALE's factors, read before the first output

  wire [15:0] mN = c.w4[15:0];
  wire [15:0] mKB = c.w4[31:16];
  wire [15:0] ors = c.w6[15:0];
  wire [7:0]  mM = c.w6[23:16];
  wire [7:0]  ab = c.w6[31:24];
  wire [1:0]  wf = c.flags[5:4];
  wire        unit = c.flags[F_UNIT];
  wire        pair = c.flags[F_PAIR];
  wire [31:0] ncols = pair ? ((32'(mKB) + 1) >> 1) : 32'(mKB);   // terms of each isum_4

  assign idle = (st == S_IDLE);
  assign err = 1'b0;
  always_comb begin
    c_addr = c.w1 + n * c.w5 + ((wf == 2'd0) ? k * 32'(D) : k * 32'(D / 2));
    s_addr = c.w2 + n * c.w7 + (k << 2);
    t_raddr[0] = c.w3 + j * 32'(ors) + n;
    t_raddr[1] = c.w2 + j;
  end

  // the 4-bit weight of a nibble (int4, or E2M1 at twice its value)
  function automatic logic signed [7:0] dec4(input logic [3:0] x, input logic fp4);
    logic [7:0] mag;
    if (!fp4) return 8'(signed'(x));
    case (x[2:0])
      3'd0: mag = 8'd0;  3'd1: mag = 8'd1;  3'd2: mag = 8'd2;  3'd3: mag = 8'd3;
      3'd4: mag = 8'd4;  3'd5: mag = 8'd6;  3'd6: mag = 8'd8;  default: mag = 8'd12;
    endcase
    return x[3] ? -signed'(mag) : signed'(mag);
  endfunction

  // the exact integer of one block for ACT row r
  function automatic logic signed [31:0] block_isum(input int r);
    logic signed [31:0] s, sub;
    int base;
    base = (r * ACT_BLOCKS + int'(ab) + int'(k)) * D;
    s = 0;
    if (wf == 2'd0) begin
      for (int i = 0; i < D; i++)
        s = s + 32'(signed'(act[base + i])) * 32'(signed'(c_data[8 * i +: 8]));
    end else begin
      for (int b = 0; b < 4; b++) begin
        sub = 0;
        for (int i = b * (D / 4); i < (b + 1) * (D / 4); i++)
          sub = sub + 32'(signed'(act[base + i])) * 32'(dec4(c_data[4 * i +: 4], wf == 2'd2));
        s = s + sub * (unit ? 32'sd1 : 32'(s_data[16 + 4 * b +: 4]));
      end
    end
    return s;
  endfunction

  always_ff @(posedge clk) begin
    // one-cycle pulses
    done <= 1'b0; wt.v <= 1'b0;
    if (rst) st <= S_IDLE;
    else case (st)
      S_IDLE: begin
        if (start) begin
          c <= cmd;
          n <= '0; k <= '0; j <= '0;
          for (int r = 0; r < AR; r++)
            for (int q = 0; q < 4; q++) pacc[r][q] = 32'd0;
          if (cmd.w4[15:0] == 16'd0) done <= 1'b1;
          else if (cmd.flags[F_ASCALE]) st <= S_ALPHA;
          else st <= (cmd.w4[31:16] == 16'd0) ? S_OUT : S_STRM;
        end
      end
      S_ALPHA: begin
        alpha[j] <= t_rdata[1];
        if (j + 1 == 32'(mM)) begin
          j <= '0;
          st <= (mKB == 16'd0) ? S_OUT : S_STRM;
        end else begin
          j <= j + 32'd1;
        end
      end
      S_STRM: begin
        logic [31:0] ws, t, x;
        int col, row;
        ws = unit ? FP_ONE : ((wf == 2'd0) ? s_data : {s_data[15:0], 16'h0});
        col = pair ? int'(k >> 1) : int'(k);
        for (int r = 0; r < int'(mM); r++) begin
          row = (pair && k[0]) ? r + int'(mM) : r;
          t = fp_mul(fp_mul(i2f(block_isum(row)), ws), asc[row * ACT_BLOCKS + int'(ab) + int'(k)]);
          if (pair && !k[0] && k + 1 < 32'(mKB)) begin
            hold[r] = t;
          end else begin
            x = (pair && !k[0]) ? fp_add(t, FP_PZERO) : (pair ? fp_add(hold[r], t) : t);
            pacc[r][col % 4] = fp_add(pacc[r][col % 4], x);
          end
        end
        if (k + 1 == 32'(mKB)) begin
          k <= '0; j <= '0; st <= S_OUT;
        end else begin
          k <= k + 32'd1;
        end
      end
      S_OUT: begin
        logic [31:0] p0, p1, p2, p3, acc, y;
        // isum_4: rows padded with +0 terms to a multiple of 4 (opentpu/isasim.py), then folded
        p0 = pacc[j][0]; p1 = pacc[j][1]; p2 = pacc[j][2]; p3 = pacc[j][3];
        if (ncols[1:0] != 2'd0) begin
          if (ncols[1:0] <= 2'd1) p1 = fp_add(p1, FP_PZERO);
          if (ncols[1:0] <= 2'd2) p2 = fp_add(p2, FP_PZERO);
          p3 = fp_add(p3, FP_PZERO);
        end
        acc = fp_add(fp_add(p0, p2), fp_add(p1, p3));
        if (c.flags[F_ASCALE]) y = fp_add(fp_mul(t_rdata[0], alpha[j]), acc);
        else if (c.flags[F_ACC]) y = fp_add(t_rdata[0], acc);
        else y = acc;
        wt <= '{v: 1'b1, space: SP_TMEM, addr: t_raddr[0], data: y, mask: 4'hF};
        rmx[j] = (n == 0) ? ftz(y) : fp_max(y, rmx[j]);
        if (j + 1 == 32'(mM)) begin
          j <= '0;
          for (int q = 0; q < 4; q++)
            for (int r = 0; r < AR; r++) pacc[r][q] = 32'd0;
          if (n + 1 == 32'(mN)) begin
            if (c.flags[F_RMAX] && !c.terr) st <= S_RMAX;
            else begin done <= 1'b1; st <= S_IDLE; end
          end else begin
            n <= n + 32'd1;
            st <= (mKB == 16'd0) ? S_OUT : S_STRM;
          end
        end else begin
          j <= j + 32'd1;
        end
      end
      S_RMAX: begin
        wt <= '{v: 1'b1, space: SP_TMEM, addr: c.w3 + 32'(mM) * 32'(ors) + j, data: rmx[j],
                mask: 4'hF};
        if (j + 1 == 32'(mM)) begin done <= 1'b1; st <= S_IDLE; end
        else j <= j + 32'd1;
      end
      default: st <= S_IDLE;
    endcase
  end
endmodule
