// otpu_vpu.sv - the vector unit: VOP, one element per cycle in row-major order.
//
// Elementwise functions read A(r, c) (port 0) and B(r, c) in its bmode (port 1, or the immediate)
// and write f(A, B) the same cycle. RSUM, RSSQ and RDOT add each term into partial c mod 64;
// after the row's last element the partials are padded with +0 terms (cols not a multiple of
// 64), folded one tree level per cycle (isum_64) and the sum written. RMAX keeps a running
// maximum; ARGMAX also the first column holding it, and writes the pair in two cycles. OUTER
// first buffers Cv and Dv (up to 256 words each), then updates dst in place.
//
// The sequencer has already checked the read-after-write rule, so element order is the ISA's.
`include "otpu_config.svh"

module otpu_vpu
  import otpu_pkg::*;
  import otpu_fp::*;
#(
  parameter int SID = 0
) (
  `OTPU_UNIT_PORTS,
  output logic             idle,
  output logic [1:0][31:0] t_raddr,
  input  logic [1:0][31:0] t_rdata,
  output wr_t              wt
);
  typedef enum logic [2:0] { S_IDLE, S_PRE, S_ELEM, S_FOLD, S_ARG2 } st_t;
  st_t st;
  cmd_t c;
  logic [31:0] r, cc, fh;
  logic [31:0] part [64];            // isum_64 partials (blocking: this block only)
  logic [31:0] cbuf [256];           // OUTER: Cv
  logic [31:0] dbuf [256];           // OUTER: Dv
  logic [31:0] mx, amx_i;            // RMAX / ARGMAX running maximum, ARGMAX's column

  wire [31:0] rows = 32'(c.w4[15:0]);
  wire [31:0] cols = 32'(c.w4[31:16]);
  wire [31:0] drs = 32'(c.w5[15:0]);
  wire [31:0] ars = 32'(c.w5[31:16]);
  wire [31:0] brs = 32'(c.w6[15:0]);
  wire [7:0]  func = c.w6[23:16];
  wire [1:0]  bmode = c.w6[25:24];
  wire        red = (func >= V_RSUM);

  // fault injection: corrupt the n-th result (rtl/README.md)
  int f_n, f_bit, f_slice, n_res;
  initial begin
    f_n = 0; f_bit = 0; f_slice = 0;
    void'($value$plusargs("otpu_fault_slice=%d", f_slice));
    if (f_slice == SID) begin
      void'($value$plusargs("otpu_fp_n=%d", f_n));
      void'($value$plusargs("otpu_fp_bit=%d", f_bit));
    end
  end
  function automatic logic [31:0] res(input logic [31:0] y);
    return (f_n != 0 && n_res + 1 == f_n) ? y ^ (32'd1 << f_bit) : y;
  endfunction

  assign idle = (st == S_IDLE);
  assign err = 1'b0;

  always_comb begin
    if (st == S_PRE) begin
      t_raddr[0] = c.w7 + cc;                                    // Cv
      t_raddr[1] = c.flags[F_DSCALAR] ? c.w2 : c.w2 + cc;       // Dv
    end else if (func == V_OUTER) begin
      t_raddr[0] = c.w1 + r * drs + cc;                          // dst, in place
      t_raddr[1] = c.w3 + r * brs;                               // B(r)
    end else begin
      t_raddr[0] = c.w2 + r * ars + cc;
      case (bmode)
        2'd0: t_raddr[1] = c.w3 + r * brs + cc;
        2'd1: t_raddr[1] = c.w3 + r * brs;
        default: t_raddr[1] = c.w3 + cc;
      endcase
    end
  end

  wire [31:0] A = t_rdata[0];
  wire [31:0] B = (bmode == 2'd3) ? c.w7 : t_rdata[1];
  wire        last_c = (cc + 1 == cols);

  task automatic next_elem();
    if (last_c) begin
      cc <= '0;
      r <= r + 32'd1;
      if (r + 1 == rows) begin done <= 1'b1; st <= S_IDLE; end
    end else begin
      cc <= cc + 32'd1;
    end
  endtask

  always_ff @(posedge clk) begin
    // one-cycle pulses
    done <= 1'b0; wt.v <= 1'b0;
    if (rst) begin st <= S_IDLE; n_res <= 0; end
    else case (st)
      S_IDLE: begin
        if (start) begin
          c <= cmd;
          r <= '0; cc <= '0;
          for (int q = 0; q < 64; q++) part[q] = 32'd0;
          if (cmd.w4[15:0] == 16'd0 || (cmd.w4[31:16] == 16'd0 && cmd.w6[23:16] < V_RSUM))
            done <= 1'b1;
          else if (cmd.w6[23:16] == V_OUTER) st <= S_PRE;
          else if (cmd.w4[31:16] == 16'd0) begin fh <= 32'd32; st <= S_FOLD; end
          else st <= S_ELEM;
        end
      end
      S_PRE: begin
        cbuf[cc[7:0]] <= t_rdata[0];
        dbuf[cc[7:0]] <= c.flags[F_DONE] ? FP_ONE : t_rdata[1];
        if (last_c) begin cc <= '0; st <= S_ELEM; end
        else cc <= cc + 32'd1;
      end
      S_ELEM: begin
        logic [31:0] y;
        if (!red) begin
          case (func)
            V_ADD:     y = fp_add(A, B);
            V_SUB:     y = fp_sub(A, B);
            V_RSUB:    y = fp_sub(B, A);
            V_MUL:     y = fp_mul(A, B);
            V_MAX:     y = fp_max(A, B);
            V_MIN:     y = fp_min(A, B);
            V_OUTER:   y = fp_add(fp_mul(A, dbuf[cc[7:0]]), fp_mul(t_rdata[1], cbuf[cc[7:0]]));
            V_COPY:    y = ftz(A);
            V_EXP2:    y = fp_exp2(A);
            V_RECIP:   y = fp_recip(A);
            V_RSQRT:   y = fp_rsqrt(A);
            V_ABS:     y = fabs(A);
            V_FILL:    y = ftz(B);
            V_EXP2SUB: y = fp_exp2(fp_sub(A, B));
            default:   y = fp_log2(A);
          endcase
          wt <= '{v: 1'b1, space: SP_TMEM, addr: c.w1 + r * drs + cc, data: res(y), mask: 4'hF};
          n_res <= n_res + 1;
          next_elem();
        end else if (func == V_RMAX || func == V_ARGMAX) begin
          logic [31:0] m;
          logic        up;
          up = (cc == 0) || fp_gt(A, mx);
          m = up ? ftz(A) : mx;
          mx <= m;
          if (up) amx_i <= cc;
          if (last_c) begin
            wt <= '{v: 1'b1, space: SP_TMEM, addr: c.w1 + r * drs, data: res(m), mask: 4'hF};
            n_res <= n_res + 1;
            if (func == V_ARGMAX) st <= S_ARG2;
            else next_elem();
          end else begin
            cc <= cc + 32'd1;
          end
        end else begin
          logic [5:0] q;
          q = cc[5:0];
          if (func == V_RSUM) y = A;
          else if (func == V_RSSQ) y = fp_mul(A, A);
          else y = fp_mul(A, B);
          part[q] = fp_add(part[q], y);
          if (last_c) begin fh <= 32'd32; st <= S_FOLD; end
          else cc <= cc + 32'd1;
        end
      end
      S_FOLD: begin
        // first level: the +0 pad terms of a row that is not a multiple of 64 columns
        if (fh == 32'd32 && cols[5:0] != 6'd0)
          for (int q = int'(cols[5:0]); q < 64; q++) part[q] = fp_add(part[q], FP_PZERO);
        for (int i = 0; i < int'(fh); i++) part[i] = fp_add(part[i], part[i + int'(fh)]);
        if (fh == 32'd1) begin
          wt <= '{v: 1'b1, space: SP_TMEM, addr: c.w1 + r * drs, data: res(part[0]),
                  mask: 4'hF};
          n_res <= n_res + 1;
          for (int q = 0; q < 64; q++) part[q] = 32'd0;
          cc <= '0;
          r <= r + 32'd1;
          if (r + 1 == rows) begin done <= 1'b1; st <= S_IDLE; end
          else st <= (cols == 0) ? S_FOLD : S_ELEM;
          fh <= 32'd32;
        end else begin
          fh <= fh >> 1;
        end
      end
      S_ARG2: begin
        wt <= '{v: 1'b1, space: SP_TMEM, addr: c.w1 + r * drs + 32'd1,
                data: res(i2f(amx_i + c.w7)), mask: 4'hF};
        n_res <= n_res + 1;
        cc <= '0;
        r <= r + 32'd1;
        if (r + 1 == rows) begin done <= 1'b1; st <= S_IDLE; end
        else st <= S_ELEM;
      end
      default: st <= S_IDLE;
    endcase
  end
endmodule
