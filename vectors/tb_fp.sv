// tb_fp.sv - fp32 vector bench for package otpu_fp (the interface of openTPU's
// sim/verilator/tb_fp.sv: +vec=FILE, lines "op a b expected" in hex, the same op codes and the
// same MISMATCH / FPTEST lines), with strict input checking and an exit status.
//
// File mode (+vec=FILE): every line of FILE is one vector, four whitespace-separated hex fields
// "<op> <a> <b> <expected>" (op 0..14, see otpu_fp_vec.sv; each field 1..8 hex digits, either
// case; a trailing CR is accepted). Every vector is evaluated and compared; the first 20
// mismatches (+show=N to change) are printed as
//   MISMATCH op=<op> a=<a> b=<b> exp=<expected> got=<result> line=<line number>
// and the run ends with
//   FPTEST cases=<vectors> errors=<mismatches>
// status (output port, the driver's exit code): 0 all vectors match; 1 at least one mismatch;
// 2 no +vec, an unreadable file, a malformed line (named by number; the run stops there, with
// no FPTEST line) or a file with no vectors.
//
// Batch mode (+batch, no +vec): the file reader does nothing and status is 0; a C/C++ driver
// sets eval_op / eval_a / eval_b, calls eval() and reads eval_res (eval_known: op is 0..14).
//
// DPI batch mode (fpvec_dpi.cpp, +dpi): the C++ driver fills a batch of operands, calls the
// exported fpvec_dpi_eval(n), which fetches every vector through the imported fpvec_dpi_get,
// evaluates it with eval_op and hands the result back through fpvec_dpi_put. The SV side only
// evaluates; the driver makes the vectors and judges the results.
module tb_fp (
  input  logic [7:0]  eval_op,
  input  logic [31:0] eval_a,
  input  logic [31:0] eval_b,
  output logic [31:0] eval_res,
  output logic        eval_known,
  output logic [7:0]  status
);
  import otpu_fp_vec::*;

  localparam logic [7:0] ST_PASS     = 8'd0;
  localparam logic [7:0] ST_MISMATCH = 8'd1;
  localparam logic [7:0] ST_INPUT    = 8'd2;

  always_comb begin
    eval_res   = otpu_fp_vec::eval_op({24'd0, eval_op}, eval_a, eval_b);
    eval_known = op_known({24'd0, eval_op});
  end

  // ---- DPI batch mode ----------------------------------------------------------------------

  import "DPI-C" function void fpvec_dpi_get(input int i, output int unsigned op,
                                             output int unsigned a, output int unsigned b);
  import "DPI-C" function void fpvec_dpi_put(input int i, input int unsigned res);
  export "DPI-C" function fpvec_dpi_eval;

  // Evaluates vectors 0 .. n-1 of the driver's current batch.
  function automatic void fpvec_dpi_eval(input int n);
    int unsigned op, a, b;
    for (int i = 0; i < n; i++) begin
      fpvec_dpi_get(i, op, a, b);
      fpvec_dpi_put(i, otpu_fp_vec::eval_op(op, a, b));
    end
  endfunction

  // ---- line parser -------------------------------------------------------------------------

  function automatic int hexval(input byte c);
    if (c >= "0" && c <= "9") return int'(c) - 48;
    if (c >= "a" && c <= "f") return int'(c) - 87;
    if (c >= "A" && c <= "F") return int'(c) - 55;
    return -1;
  endfunction

  function automatic bit is_blank(input byte c);
    return c == " " || c == "\t";
  endfunction

  // Parses one line (without its newline or CR) into the four fields. Returns "" when the line is a
  // well-formed vector, else the reason it is not.
  function automatic string parse_vec(input string ln, output logic [31:0] op,
                                      output logic [31:0] a, output logic [31:0] b,
                                      output logic [31:0] ex);
    int n, i, nd, nf, h;
    logic [31:0] v;
    logic [31:0] f0, f1, f2, f3;
    byte c;
    f0 = '0; f1 = '0; f2 = '0; f3 = '0;
    op = '0; a = '0; b = '0; ex = '0;
    n = ln.len();
    i = 0;
    nf = 0;
    while (i < n) begin
      c = ln[i];
      if (is_blank(c)) begin
        i++;
        continue;
      end
      if (nf == 4) return "more than 4 fields (expected: op a b expected)";
      v = '0;
      nd = 0;
      while (i < n && !is_blank(ln[i])) begin
        c = ln[i];
        h = hexval(c);
        if (h < 0) begin
          if (c >= 8'h21 && c <= 8'h7E)
            return $sformatf("field %0d: '%s' is not a hex digit", nf + 1, string'(c));
          return $sformatf("field %0d: byte 0x%02h is not a hex digit", nf + 1, c);
        end
        if (nd == 8) return $sformatf("field %0d: more than 8 hex digits", nf + 1);
        v = {v[27:0], 4'(h)};
        nd++;
        i++;
      end
      case (nf)
        0: f0 = v;
        1: f1 = v;
        2: f2 = v;
        default: f3 = v;
      endcase
      nf++;
    end
    if (nf == 0) return "empty line";
    if (nf != 4) return $sformatf("%0d field(s), expected 4 (op a b expected)", nf);
    if (!op_known(f0)) return $sformatf("unknown op %0h (ops are 0..e)", f0);
    op = f0; a = f1; b = f2; ex = f3;
    return "";
  endfunction

  // ---- file mode ---------------------------------------------------------------------------

  initial begin : run
    string fname, ln, why;
    int fd, lineno, cases, errs, show, got_n;
    int op_cases[OP_COUNT];
    int op_errs[OP_COUNT];
    logic [31:0] op, a, b, ex, got;
    status = ST_INPUT;
    show = 20;
    void'($value$plusargs("show=%d", show));
    for (int k = 0; k < OP_COUNT; k++) begin
      op_cases[k] = 0;
      op_errs[k] = 0;
    end
    if (!$value$plusargs("vec=%s", fname)) begin
      if ($test$plusargs("batch")) status = ST_PASS;
      else $display("tb_fp: error: no vector file (usage: +vec=FILE [+show=N])");
      disable run;
    end
    fd = $fopen(fname, "r");
    if (fd == 0) begin
      $display("tb_fp: error: cannot open vector file '%s'", fname);
      disable run;
    end
    lineno = 0;
    cases = 0;
    errs = 0;
    forever begin
      got_n = $fgets(ln, fd);
      if (got_n == 0) break;
      lineno++;
      if (ln.len() > 0 && ln[ln.len()-1] == "\n") ln = ln.substr(0, ln.len() - 2);
      if (ln.len() > 0 && ln[ln.len()-1] == "\r") ln = ln.substr(0, ln.len() - 2);
      why = parse_vec(ln, op, a, b, ex);
      if (why != "") begin
        $display("tb_fp: error: %s:%0d: malformed vector line: %s", fname, lineno, why);
        $display("tb_fp: error: %s:%0d: the line is \"%s\"", fname, lineno, ln);
        $fclose(fd);
        disable run;
      end
      got = otpu_fp_vec::eval_op(op, a, b);
      cases++;
      op_cases[op]++;
      if (got !== ex) begin
        if (errs < show)
          $display("MISMATCH op=%0d a=%08h b=%08h exp=%08h got=%08h line=%0d",
                   op, a, b, ex, got, lineno);
        errs++;
        op_errs[op]++;
      end
    end
    $fclose(fd);
    if (errs > show) $display("tb_fp: %0d more mismatches not shown", errs - show);
    if (errs > 0)
      for (int k = 0; k < OP_COUNT; k++)
        if (op_errs[k] > 0)
          $display("tb_fp: op %0d (%s): %0d of %0d vectors mismatch", k, op_name(k),
                   op_errs[k], op_cases[k]);
    $display("FPTEST cases=%0d errors=%0d", cases, errs);
    if (cases == 0) begin
      $display("tb_fp: error: %s holds no vectors", fname);
      status = ST_INPUT;
    end else begin
      status = (errs == 0) ? ST_PASS : ST_MISMATCH;
    end
  end

endmodule
