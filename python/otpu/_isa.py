"""The instruction table of sim/isa.def for otpu.asm.

Written by sim/gen_isa.py from sim/isa.def: edit the description, not this file.
"""

NOP = 0x00
HALT = 0x01
LI = 0x02
ADDI = 0x03
LOOP = 0x04
BAR = 0x05
RLD = 0x06
WAITW = 0x07
LD = 0x10
ST = 0x11
DSTEP = 0x12
STREAM = 0x13
MM = 0x20
QACT = 0x21
QST = 0x22
VOP = 0x30
GATHER = 0x40

F_CHAIN = 0x1
F_RAW = 0x1
F_MUL = 0x2
CMP_SHIFT = 0
F_DZERO = 0x1
F_SZERO = 0x1
F_SRC_T = 0x2
F_DST_T = 0x4
F_NODST = 0x8
F_UNIT = 0x1
F_ACC = 0x2
F_RMAX = 0x4
F_ASCALE = 0x8
F_PAIR = 0x40
WF_SHIFT = 4
F_ROW = 0x1
F_CSCALE = 0x2
F_RSCALE = 0x4
F_DUP = 0x8
F_HALF = 0x2
F_DSCALAR = 0x1
F_DONE = 0x2

# name: (opcode, unit, format)
OPCODES = {
    'NOP': (0x00, 'SEQ', 'NONE'),
    'HALT': (0x01, 'SEQ', 'HALT'),
    'LI': (0x02, 'SEQ', 'LI'),
    'ADDI': (0x03, 'SEQ', 'ADDI'),
    'LOOP': (0x04, 'SEQ', 'LOOP'),
    'BAR': (0x05, 'COLL', 'NONE'),
    'RLD': (0x06, 'SEQ', 'RLD'),
    'WAITW': (0x07, 'DMA', 'WAITW'),
    'LD': (0x10, 'DMA', 'DMA'),
    'ST': (0x11, 'DMA', 'DMA'),
    'DSTEP': (0x12, 'DMA', 'DSTEP'),
    'STREAM': (0x13, 'DMA', 'STREAM'),
    'MM': (0x20, 'MXU', 'MM'),
    'QACT': (0x21, 'QUANT', 'QACT'),
    'QST': (0x22, 'QUANT', 'QST'),
    'VOP': (0x30, 'VPU', 'VOP'),
    'GATHER': (0x40, 'COLL', 'GATHER'),
}

# format: its fields, in description order: (name, 'reg', REG), (name, 'ri', REG, WORD or None, shared),
# (name, 'bits', WORD, LO, WIDTH), (name, 'flag', MASK), (name, 'ffield', LO, WIDTH, values)
FORMATS = {
    'NONE': (
    ),
    'HALT': (
        ('chain', 'flag', 1),
        ('addr', 'ri', 'ra', None, False),
        ('count', 'ri', 'rb', None, False),
    ),
    'LI': (
        ('rd', 'reg', 'rd'),
        ('imm', 'bits', 1, 0, 32),
    ),
    'ADDI': (
        ('rd', 'reg', 'rd'),
        ('sum', 'ri', 'ra', 1, False),
    ),
    'LOOP': (
        ('body', 'bits', 1, 0, 32),
        ('count', 'ri', 'ra', 2, False),
    ),
    'RLD': (
        ('rd', 'reg', 'rd'),
        ('tmem', 'ri', 'ra', 1, False),
        ('mul', 'ri', 'rb', 2, False),
        ('raw', 'flag', 1),
        ('has_mul', 'flag', 2),
    ),
    'WAITW': (
        ('dram', 'ri', 'ra', 1, False),
        ('tmem', 'ri', 'rb', 2, False),
        ('ref', 'ri', 'rc', 3, False),
        ('mask', 'bits', 4, 0, 32),
        ('interval', 'bits', 5, 0, 32),
        ('timeout', 'bits', 6, 0, 32),
        ('cmp', 'ffield', 0, 2, ('eq', 'ne', 'ge', '3')),
    ),
    'DMA': (
        ('dram', 'ri', 'ra', 1, False),
        ('tmem', 'ri', 'rb', 2, False),
        ('n', 'bits', 3, 0, 32),
    ),
    'DSTEP': (
        ('dram', 'ri', 'ra', 1, False),
        ('qk', 'ri', 'rb', 2, False),
        ('v', 'ri', 'rc', 3, False),
        ('rows', 'bits', 4, 0, 16),
        ('cols', 'bits', 4, 16, 16),
        ('g', 'bits', 5, 0, 32),
        ('o', 'bits', 6, 0, 32),
        ('gs', 'bits', 7, 0, 32),
        ('zero', 'flag', 1),
    ),
    'STREAM': (
        ('desc', 'bits', 1, 0, 16),
        ('ks', 'bits', 1, 16, 16),
        ('src', 'ri', 'ra', 2, False),
        ('dst', 'ri', 'ra', 3, True),
        ('vec', 'ri', 'rb', 4, False),
        ('x', 'ri', 'rc', 5, False),
        ('k', 'ri', 'rd', 6, False),
        ('out', 'bits', 7, 0, 32),
        ('zero', 'flag', 1),
        ('src_t', 'flag', 2),
        ('dst_t', 'flag', 4),
        ('nodst', 'flag', 8),
    ),
    'MM': (
        ('sa', 'ri', 'ra', 1, False),
        ('ssa', 'ri', 'rb', 2, False),
        ('out', 'ri', 'rc', 3, False),
        ('N', 'bits', 4, 0, 16),
        ('KB', 'bits', 4, 16, 16),
        ('rs', 'bits', 5, 0, 32),
        ('ors', 'bits', 6, 0, 16),
        ('M', 'bits', 6, 16, 8),
        ('ab', 'bits', 6, 24, 8),
        ('srs', 'bits', 7, 0, 32),
        ('unit', 'flag', 1),
        ('acc', 'flag', 2),
        ('rmax', 'flag', 4),
        ('ascale', 'flag', 8),
        ('pair', 'flag', 64),
        ('wf', 'ffield', 4, 2, ('int8', 'int4', 'fp4', '3')),
    ),
    'QACT': (
        ('src', 'ri', 'ra', 1, False),
        ('rows', 'bits', 2, 0, 8),
        ('ab', 'bits', 2, 8, 8),
        ('KB', 'bits', 2, 16, 16),
        ('srs', 'bits', 3, 0, 32),
        ('cscale', 'bits', 4, 0, 32),
        ('rscale', 'bits', 5, 0, 32),
        ('row', 'flag', 1),
        ('has_cscale', 'flag', 2),
        ('has_rscale', 'flag', 4),
        ('dup', 'flag', 8),
    ),
    'QST': (
        ('src', 'ri', 'ra', 1, False),
        ('dst', 'ri', 'rb', 2, False),
        ('sdst', 'ri', 'rc', 3, False),
        ('rows', 'bits', 4, 0, 16),
        ('KB', 'bits', 4, 16, 16),
        ('srs', 'bits', 5, 0, 32),
        ('drs', 'bits', 6, 0, 32),
        ('es', 'bits', 7, 0, 32),
        ('row', 'flag', 1),
        ('half', 'flag', 2),
    ),
    'VOP': (
        ('dst', 'ri', 'ra', 1, False),
        ('a', 'ri', 'rb', 2, False),
        ('b', 'ri', 'rc', 3, False),
        ('rows', 'bits', 4, 0, 16),
        ('cols', 'bits', 4, 16, 16),
        ('drs', 'bits', 5, 0, 16),
        ('ars', 'bits', 5, 16, 16),
        ('brs', 'bits', 6, 0, 16),
        ('func', 'bits', 6, 16, 8),
        ('bmode', 'bits', 6, 24, 2),
        ('imm', 'ri', 'rd', 7, False),
        ('dscalar', 'flag', 1),
        ('done', 'flag', 2),
    ),
    'GATHER': (
        ('src', 'ri', 'ra', 1, False),
        ('dst', 'ri', 'rb', 2, False),
        ('rows', 'bits', 3, 0, 16),
        ('cols', 'bits', 3, 16, 16),
        ('srs', 'bits', 4, 0, 32),
        ('drs', 'bits', 5, 0, 32),
        ('seg', 'bits', 6, 0, 32),
    ),
}
