// otpu_fp_vec.sv - the op codes of the fp32 vector files (tb_fp's, /work/shared/vectors/FORMAT.md)
// mapped onto the functions of package otpu_fp (the project's rtl/otpu_fp.sv or any other file
// that defines the same package, e.g. openTPU's rtl/vpu/otpu_fp.sv).
//
//   0 add   1 sub   2 mul   3 max   4 min   5 exp2   6 recip   7 rsqrt   8 i2f (a is an int32)
//   9 q8 (the int8's byte, zero-extended)   10 gt (0 or 1)   11 abs   12 log2
//   13 fp_mm(a, b, 0) (max)   14 fp_mm(a, b, 1) (min)
//
// eval_op is the single point where an op is evaluated: the file bench (tb_fp.sv) calls it for
// every vector line, and the combinational ports of tb_fp (eval_op/eval_a/eval_b -> eval_res)
// expose it to a C/C++ driver that wants to push vectors itself.
//
// An older ISA revision's otpu_fp may lack functions (sim/revision.h: fp.log2 NULL,
// fp_no_mm_compare): its bench is built with OTPU_FP_NO_LOG2 / OTPU_FP_NO_MM defined, and those
// ops then evaluate as unknown ones.
package otpu_fp_vec;

  localparam int unsigned OP_COUNT = 15;     // valid op codes: 0 .. OP_COUNT-1

  function automatic logic op_known(input logic [31:0] op);
    return op < OP_COUNT;
  endfunction

  // The result of op on (a, b); unknown ops give 32'hDEADBEEF. Unary ops ignore b.
  function automatic logic [31:0] eval_op(input logic [31:0] op, input logic [31:0] a,
                                          input logic [31:0] b);
    /*verilator no_inline_task*/
    logic [31:0] r;
    case (op)
      32'd0:  r = otpu_fp::fp_add(a, b);
      32'd1:  r = otpu_fp::fp_sub(a, b);
      32'd2:  r = otpu_fp::fp_mul(a, b);
      32'd3:  r = otpu_fp::fp_max(a, b);
      32'd4:  r = otpu_fp::fp_min(a, b);
      32'd5:  r = otpu_fp::fp_exp2(a);
      32'd6:  r = otpu_fp::fp_recip(a);
      32'd7:  r = otpu_fp::fp_rsqrt(a);
      32'd8:  r = otpu_fp::i2f(a);
      32'd9:  r = {24'd0, otpu_fp::q8(a)};
      32'd10: r = {31'd0, otpu_fp::fp_gt(a, b)};
      32'd11: r = otpu_fp::fabs(a);
`ifndef OTPU_FP_NO_LOG2
      32'd12: r = otpu_fp::fp_log2(a);
`endif
`ifndef OTPU_FP_NO_MM
      32'd13: r = otpu_fp::fp_mm(a, b, 1'b0);
      32'd14: r = otpu_fp::fp_mm(a, b, 1'b1);
`endif
      default: r = 32'hDEAD_BEEF;
    endcase
    return r;
  endfunction

  function automatic string op_name(input logic [31:0] op);
    case (op)
      32'd0:  return "add";
      32'd1:  return "sub";
      32'd2:  return "mul";
      32'd3:  return "max";
      32'd4:  return "min";
      32'd5:  return "exp2";
      32'd6:  return "recip";
      32'd7:  return "rsqrt";
      32'd8:  return "i2f";
      32'd9:  return "q8";
      32'd10: return "gt";
      32'd11: return "abs";
      32'd12: return "log2";
      32'd13: return "mm_max";
      32'd14: return "mm_min";
      default: return "?";
    endcase
  endfunction

endpackage
