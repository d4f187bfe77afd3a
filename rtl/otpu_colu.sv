// otpu_colu.sv - a slice's collective unit: BAR and GATHER. It raises its request to the
// machine's collective engine (otpu_coll) and completes when the engine acknowledges it; for a
// GATHER the engine reads and writes this slice's TMEM through the slice's collective ports.
`include "otpu_config.svh"

module otpu_colu
  import otpu_pkg::*;
(
  `OTPU_UNIT_PORTS,
  output logic  idle,
  output logic  req,        // waiting at the collective
  output cmd_t  req_cmd,
  input  logic  ack,        // the collective is over (one cycle)
  input  logic  ack_err
);
  logic busy;
  cmd_t c;
  assign idle = !busy;
  assign req = busy;
  assign req_cmd = c;
  always_ff @(posedge clk) begin
    done <= 1'b0;
    err <= 1'b0;
    if (rst) busy <= 1'b0;
    else if (!busy) begin
      if (start) begin c <= cmd; busy <= 1'b1; end
    end else if (ack) begin
      busy <= 1'b0; done <= 1'b1; err <= ack_err;
    end
  end
endmodule
