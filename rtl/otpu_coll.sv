// otpu_coll.sv - the machine's collective engine (the only state slices share). When every
// slice waits at a collective it checks that they agree (all BAR, or all GATHER with the same
// encoded dst, rows/cols, drs and seg), then acknowledges a BAR at once, or runs the GATHER: for
// every source slice k, row r and column c (one word per cycle) it reads T_k[src_k + r*srs_k + c]
// and writes it to T_s[dst_s + k*seg + r*drs + c] in every slice s. A slice that waits while all
// the others are halted (or stopped), or slices that disagree, complete with an error.
module otpu_coll
  import otpu_pkg::*;
#(
  parameter int S = 1
) (
  input  logic                  clk,
  input  logic                  rst,
  input  logic [S-1:0]          req,
  input  cmd_t [S-1:0]          req_cmd,
  input  logic [S-1:0]          stopped,    // halted for good, or stopped with an error
  output logic [S-1:0]          ack,
  output logic [S-1:0]          ack_err,
  output logic [S-1:0][31:0]    raddr,
  input  logic [S-1:0][31:0]    rdata,
  output wr_t  [S-1:0]          wt
);
  typedef enum logic [1:0] { S_IDLE, S_COPY } st_t;
  st_t st;
  logic [31:0] k, r, cc;

  wire [31:0] rows = 32'(req_cmd[0].w3[15:0]);
  wire [31:0] cols = 32'(req_cmd[0].w3[31:16]);

  logic all_req, agree, orphan;
  always_comb begin
    all_req = &req;
    agree = 1'b1;
    for (int s = 1; s < S; s++) begin
      if (req_cmd[s].op != req_cmd[0].op) agree = 1'b0;
      if (req_cmd[0].op == OP_GATHER &&
          (req_cmd[s].xw != req_cmd[0].xw || req_cmd[s].w3 != req_cmd[0].w3 ||
           req_cmd[s].w5 != req_cmd[0].w5 || req_cmd[s].w6 != req_cmd[0].w6)) agree = 1'b0;
    end
    orphan = (req != '0) && ((req | stopped) == '1) && !all_req;
  end

  always_comb begin
    for (int s = 0; s < S; s++) begin
      raddr[s] = req_cmd[s].w1 + r * req_cmd[s].w4 + cc;
    end
  end

  always_ff @(posedge clk) begin
    ack <= '0;
    ack_err <= '0;
    for (int s = 0; s < S; s++) wt[s].v <= 1'b0;
    if (rst) st <= S_IDLE;
    else case (st)
      S_IDLE: begin
        if (ack == '0 && orphan) begin
          ack <= req; ack_err <= req;
        end else if (ack == '0 && all_req) begin
          if (!agree) begin
            ack <= '1; ack_err <= '1;
          end else if (req_cmd[0].op == OP_BAR || rows == 0 || cols == 0) begin
            ack <= '1;
          end else begin
            k <= '0; r <= '0; cc <= '0; st <= S_COPY;
          end
        end
      end
      S_COPY: begin
        for (int s = 0; s < S; s++)
          wt[s] <= '{v: 1'b1, space: SP_TMEM,
                     addr: req_cmd[s].w2 + k * req_cmd[0].w6 + r * req_cmd[0].w5 + cc,
                     data: rdata[k], mask: 4'hF};
        if (cc + 1 == cols) begin
          cc <= '0;
          if (r + 1 == rows) begin
            r <= '0;
            if (k + 1 == 32'(S)) begin ack <= '1; st <= S_IDLE; end
            else k <= k + 32'd1;
          end else r <= r + 32'd1;
        end else cc <= cc + 32'd1;
      end
      default: st <= S_IDLE;
    endcase
  end
endmodule
