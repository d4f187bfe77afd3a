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

# Every format's fields in description order, one row a field: (format, name,
# kind, reg, word, lo, width, shared, mask, values). kind: 'reg' (reg), 'ri' (reg,
# word or 0, shared), 'bits' (word, lo, width), 'flag' (mask), 'ffield' (lo, width,
# mask, values: the names of its values, comma-separated); a column the kind has
# not is '', 0 or False.
FIELDS = (
    ('HALT', 'chain', 'flag', '', 0, 0, 0, False, 1, ''),
    ('HALT', 'addr', 'ri', 'ra', 0, 0, 0, False, 0, ''),
    ('HALT', 'count', 'ri', 'rb', 0, 0, 0, False, 0, ''),
    ('LI', 'rd', 'reg', 'rd', 0, 0, 0, False, 0, ''),
    ('LI', 'imm', 'bits', '', 1, 0, 32, False, 0, ''),
    ('ADDI', 'rd', 'reg', 'rd', 0, 0, 0, False, 0, ''),
    ('ADDI', 'sum', 'ri', 'ra', 1, 0, 0, False, 0, ''),
    ('LOOP', 'body', 'bits', '', 1, 0, 32, False, 0, ''),
    ('LOOP', 'count', 'ri', 'ra', 2, 0, 0, False, 0, ''),
    ('RLD', 'rd', 'reg', 'rd', 0, 0, 0, False, 0, ''),
    ('RLD', 'tmem', 'ri', 'ra', 1, 0, 0, False, 0, ''),
    ('RLD', 'mul', 'ri', 'rb', 2, 0, 0, False, 0, ''),
    ('RLD', 'raw', 'flag', '', 0, 0, 0, False, 1, ''),
    ('RLD', 'has_mul', 'flag', '', 0, 0, 0, False, 2, ''),
    ('WAITW', 'dram', 'ri', 'ra', 1, 0, 0, False, 0, ''),
    ('WAITW', 'tmem', 'ri', 'rb', 2, 0, 0, False, 0, ''),
    ('WAITW', 'ref', 'ri', 'rc', 3, 0, 0, False, 0, ''),
    ('WAITW', 'mask', 'bits', '', 4, 0, 32, False, 0, ''),
    ('WAITW', 'interval', 'bits', '', 5, 0, 32, False, 0, ''),
    ('WAITW', 'timeout', 'bits', '', 6, 0, 32, False, 0, ''),
    ('WAITW', 'cmp', 'ffield', '', 0, 0, 2, False, 3, 'eq,ne,ge,3'),
    ('DMA', 'dram', 'ri', 'ra', 1, 0, 0, False, 0, ''),
    ('DMA', 'tmem', 'ri', 'rb', 2, 0, 0, False, 0, ''),
    ('DMA', 'n', 'bits', '', 3, 0, 32, False, 0, ''),
    ('DSTEP', 'dram', 'ri', 'ra', 1, 0, 0, False, 0, ''),
    ('DSTEP', 'qk', 'ri', 'rb', 2, 0, 0, False, 0, ''),
    ('DSTEP', 'v', 'ri', 'rc', 3, 0, 0, False, 0, ''),
    ('DSTEP', 'rows', 'bits', '', 4, 0, 16, False, 0, ''),
    ('DSTEP', 'cols', 'bits', '', 4, 16, 16, False, 0, ''),
    ('DSTEP', 'g', 'bits', '', 5, 0, 32, False, 0, ''),
    ('DSTEP', 'o', 'bits', '', 6, 0, 32, False, 0, ''),
    ('DSTEP', 'gs', 'bits', '', 7, 0, 32, False, 0, ''),
    ('DSTEP', 'zero', 'flag', '', 0, 0, 0, False, 1, ''),
    ('STREAM', 'desc', 'bits', '', 1, 0, 16, False, 0, ''),
    ('STREAM', 'ks', 'bits', '', 1, 16, 16, False, 0, ''),
    ('STREAM', 'src', 'ri', 'ra', 2, 0, 0, False, 0, ''),
    ('STREAM', 'dst', 'ri', 'ra', 3, 0, 0, True, 0, ''),
    ('STREAM', 'vec', 'ri', 'rb', 4, 0, 0, False, 0, ''),
    ('STREAM', 'x', 'ri', 'rc', 5, 0, 0, False, 0, ''),
    ('STREAM', 'k', 'ri', 'rd', 6, 0, 0, False, 0, ''),
    ('STREAM', 'out', 'bits', '', 7, 0, 32, False, 0, ''),
    ('STREAM', 'zero', 'flag', '', 0, 0, 0, False, 1, ''),
    ('STREAM', 'src_t', 'flag', '', 0, 0, 0, False, 2, ''),
    ('STREAM', 'dst_t', 'flag', '', 0, 0, 0, False, 4, ''),
    ('STREAM', 'nodst', 'flag', '', 0, 0, 0, False, 8, ''),
    ('MM', 'sa', 'ri', 'ra', 1, 0, 0, False, 0, ''),
    ('MM', 'ssa', 'ri', 'rb', 2, 0, 0, False, 0, ''),
    ('MM', 'out', 'ri', 'rc', 3, 0, 0, False, 0, ''),
    ('MM', 'N', 'bits', '', 4, 0, 16, False, 0, ''),
    ('MM', 'KB', 'bits', '', 4, 16, 16, False, 0, ''),
    ('MM', 'rs', 'bits', '', 5, 0, 32, False, 0, ''),
    ('MM', 'ors', 'bits', '', 6, 0, 16, False, 0, ''),
    ('MM', 'M', 'bits', '', 6, 16, 8, False, 0, ''),
    ('MM', 'ab', 'bits', '', 6, 24, 8, False, 0, ''),
    ('MM', 'srs', 'bits', '', 7, 0, 32, False, 0, ''),
    ('MM', 'unit', 'flag', '', 0, 0, 0, False, 1, ''),
    ('MM', 'acc', 'flag', '', 0, 0, 0, False, 2, ''),
    ('MM', 'rmax', 'flag', '', 0, 0, 0, False, 4, ''),
    ('MM', 'ascale', 'flag', '', 0, 0, 0, False, 8, ''),
    ('MM', 'pair', 'flag', '', 0, 0, 0, False, 64, ''),
    ('MM', 'wf', 'ffield', '', 0, 4, 2, False, 48, 'int8,int4,fp4,3'),
    ('QACT', 'src', 'ri', 'ra', 1, 0, 0, False, 0, ''),
    ('QACT', 'rows', 'bits', '', 2, 0, 8, False, 0, ''),
    ('QACT', 'ab', 'bits', '', 2, 8, 8, False, 0, ''),
    ('QACT', 'KB', 'bits', '', 2, 16, 16, False, 0, ''),
    ('QACT', 'srs', 'bits', '', 3, 0, 32, False, 0, ''),
    ('QACT', 'cscale', 'bits', '', 4, 0, 32, False, 0, ''),
    ('QACT', 'rscale', 'bits', '', 5, 0, 32, False, 0, ''),
    ('QACT', 'row', 'flag', '', 0, 0, 0, False, 1, ''),
    ('QACT', 'has_cscale', 'flag', '', 0, 0, 0, False, 2, ''),
    ('QACT', 'has_rscale', 'flag', '', 0, 0, 0, False, 4, ''),
    ('QACT', 'dup', 'flag', '', 0, 0, 0, False, 8, ''),
    ('QST', 'src', 'ri', 'ra', 1, 0, 0, False, 0, ''),
    ('QST', 'dst', 'ri', 'rb', 2, 0, 0, False, 0, ''),
    ('QST', 'sdst', 'ri', 'rc', 3, 0, 0, False, 0, ''),
    ('QST', 'rows', 'bits', '', 4, 0, 16, False, 0, ''),
    ('QST', 'KB', 'bits', '', 4, 16, 16, False, 0, ''),
    ('QST', 'srs', 'bits', '', 5, 0, 32, False, 0, ''),
    ('QST', 'drs', 'bits', '', 6, 0, 32, False, 0, ''),
    ('QST', 'es', 'bits', '', 7, 0, 32, False, 0, ''),
    ('QST', 'row', 'flag', '', 0, 0, 0, False, 1, ''),
    ('QST', 'half', 'flag', '', 0, 0, 0, False, 2, ''),
    ('VOP', 'dst', 'ri', 'ra', 1, 0, 0, False, 0, ''),
    ('VOP', 'a', 'ri', 'rb', 2, 0, 0, False, 0, ''),
    ('VOP', 'b', 'ri', 'rc', 3, 0, 0, False, 0, ''),
    ('VOP', 'rows', 'bits', '', 4, 0, 16, False, 0, ''),
    ('VOP', 'cols', 'bits', '', 4, 16, 16, False, 0, ''),
    ('VOP', 'drs', 'bits', '', 5, 0, 16, False, 0, ''),
    ('VOP', 'ars', 'bits', '', 5, 16, 16, False, 0, ''),
    ('VOP', 'brs', 'bits', '', 6, 0, 16, False, 0, ''),
    ('VOP', 'func', 'bits', '', 6, 16, 8, False, 0, ''),
    ('VOP', 'bmode', 'bits', '', 6, 24, 2, False, 0, ''),
    ('VOP', 'imm', 'ri', 'rd', 7, 0, 0, False, 0, ''),
    ('VOP', 'dscalar', 'flag', '', 0, 0, 0, False, 1, ''),
    ('VOP', 'done', 'flag', '', 0, 0, 0, False, 2, ''),
    ('GATHER', 'src', 'ri', 'ra', 1, 0, 0, False, 0, ''),
    ('GATHER', 'dst', 'ri', 'rb', 2, 0, 0, False, 0, ''),
    ('GATHER', 'rows', 'bits', '', 3, 0, 16, False, 0, ''),
    ('GATHER', 'cols', 'bits', '', 3, 16, 16, False, 0, ''),
    ('GATHER', 'srs', 'bits', '', 4, 0, 32, False, 0, ''),
    ('GATHER', 'drs', 'bits', '', 5, 0, 32, False, 0, ''),
    ('GATHER', 'seg', 'bits', '', 6, 0, 32, False, 0, ''),
)

# Every size line (docs/isa-table.md, 'Sizes'): (format, field, zero, if, error):
# zero is 'empty', 'error' or 'skip'; if a condition or None; error the conditions
# under which a 0 is an error instead, each one or two conditions joined by '&'. A
# condition: 'FIELD' (not 0) or 'FIELD=V_NAME' (otpu.asm's V_NAME).
SIZES = (
    ('HALT', 'count', 'error', 'chain', ()),
    ('LOOP', 'body', 'error', None, ()), ('LOOP', 'count', 'skip', None, ()),
    ('DMA', 'n', 'empty', None, ()),
    ('DSTEP', 'rows', 'error', None, ()), ('DSTEP', 'cols', 'error', None, ()),
    ('MM', 'N', 'empty', None, ('rmax',)), ('MM', 'KB', 'empty', None, ()), ('MM', 'M', 'error', None, ()),
    ('QACT', 'rows', 'empty', None, ()), ('QACT', 'KB', 'empty', None, ()),
    ('QST', 'rows', 'empty', None, ()), ('QST', 'KB', 'empty', None, ('row&rows',)),
    ('VOP', 'rows', 'empty', None, ()), ('VOP', 'cols', 'empty', None, ('func=V_RMAX', 'func=V_ARGMAX')),
    ('GATHER', 'rows', 'empty', None, ()), ('GATHER', 'cols', 'empty', None, ()),
)
