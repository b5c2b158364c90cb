#!/usr/bin/env python3
"""Per-thread instruction mix of the kernels in an object file, from its SASS (compile-only
estimate for machines without a GPU; docs/performance.md "MITC4 split by Gauss point").

Counts the code before the first out-of-line subroutine (the slow paths of FP64 division and
square root that CALL.REL targets: rarely taken) and counts the body of each backward branch
4 times (every loop in the MITC4 kernels runs over 4 nodes, Gauss points or corners). flop is
2 FMA + ADD + MUL, as Nsight Compute's dadd + dmul + 2 dfma. Needs cuobjdump and nvdisasm
(CUDA toolkit, or the pip packages nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm) on PATH.

    python3 bench/prototypes/sass_counts.py mitc4_split_kernel.o
"""
import collections
import re
import subprocess
import sys

SHOWN = ['MUFU', 'SHFL', 'LDG', 'STG', 'LDL', 'STL', 'IMAD', 'IADD3', 'ISETP', 'SEL', 'FSEL', 'MOV', 'BRA']


def kernels(sass):
    """(name, instruction list) per kernel; an instruction is (address, opcode, operands)."""
    for part in re.split(r'\n\s*Function : ', sass)[1:]:
        name = part.split('\n', 1)[0].strip()
        ins = []
        for line in part.split('\n'):
            m = re.search(r'/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_]+)(\S*)\s*(.*?);', line)
            if m:
                ins.append((int(m.group(1), 16), m.group(3), m.group(5)))
        yield name, ins


def mix(ins):
    """Estimated dynamic opcode counts of one thread (see the module's comment)."""
    calls = [int(x, 16) for _, op, arg in ins if op == 'CALL' for x in re.findall(r'0x[0-9a-f]+', arg)]
    cut = min(calls) if calls else 1 << 62
    weight = collections.defaultdict(lambda: 1)
    for addr, op, arg in ins:
        targets = re.findall(r'0x[0-9a-f]+', arg) if op == 'BRA' else []
        if addr < cut and targets and int(targets[-1], 16) < addr:
            for b, _, _ in ins:
                if int(targets[-1], 16) <= b <= addr:
                    weight[b] *= 4
    ops = collections.Counter()
    for addr, op, _ in ins:
        if addr < cut and op != 'NOP':
            ops[op] += weight[addr]
    return ops


def main():
    sass = subprocess.run(['cuobjdump', '-sass', sys.argv[1]], check=True, capture_output=True, text=True).stdout
    for name, ins in kernels(sass):
        ops = mix(ins)
        fp = ['DFMA', 'DADD', 'DMUL'] if ops['DFMA'] else ['FFMA', 'FADD', 'FMUL']
        flop = 2 * ops[fp[0]] + ops[fp[1]] + ops[fp[2]]
        detail = ', '.join(f'{k} {ops[k]}' for k in fp + SHOWN if ops[k])
        print(f'{name}\n  ~{sum(ops.values())} instructions, {flop} flop: {detail}')


if __name__ == '__main__':
    main()
