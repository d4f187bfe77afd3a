"""The binding's exceptions."""


class OtpuError(RuntimeError):
    """A simulated error (sim/error.h otpu_error): the run stopped.

    kind         the kind of error ("hazard", "dram-address", "tmem-range", "bounds", ...)
    slice        the slice it belongs to (None: the machine as a whole)
    pc, n        the instruction's program index and dynamic number
    addr         the offending address (None where there is none)
    instruction  the instruction at pc, disassembled (None past the end of the program)
    words        its eight words (None without one)
    log          the write log of the failing step (Machine.step only; else empty)
    The message is the model's: "slice S: pc P (n N) DISASM: what went wrong".
    """

    def __init__(self, message, kind=None, slice=None, pc=None, n=None, addr=None,
                 instruction=None, words=None, log=()):
        super().__init__(message)
        self.message = message
        self.kind, self.slice, self.pc, self.n, self.addr = kind, slice, pc, n, addr
        self.instruction, self.words, self.log = instruction, words, list(log)


class OtpuInputError(OtpuError, ValueError):
    """Bad input before anything ran: a bundle that cannot be read, a Config the model refuses,
    a program or image that does not fit, an access out of range."""
