"""The diagrams of Part II's deck (slides/part2.md and part2.fr.md), in the order the deck shows them."""
from course_tools.authoring.diagrams.numbers import (CARD, HISTOGRAM_SPEEDUP, WARP)
from course_tools.authoring.diagrams.svg import (Svg, source_line, diagram, INK, MUTED, DEVICE, REGISTERS, SHARED, HBM, IDLE)


@diagram("12")
def warp_shuffle(say):
    svg = Svg("warp_shuffle", 1100, 390, "A warp sum with __shfl_down_sync in five steps")
    cell, left, row_h, gap = 29, 135, 24, 28
    svg.text(10, 22, "`v += __shfl_down_sync(0xffffffff, v, offset);` lane i adds the v of lane i + offset",
             16, bold=True)
    svg.text(left - 10, 50, "lane", 15, "end")
    for lane in range(0, WARP, 4):
        svg.text(left + lane * cell + cell / 2, 50, str(lane), 14, "middle")
    top = 60
    offsets = [None, 16, 8, 4, 2, 1]
    for r, offset in enumerate(offsets):
        y = top + r * (row_h + gap)
        useful = WARP if offset is None else offset
        value = 1 if offset is None else WARP // offset
        svg.text(left - 10, y + 19, "start" if offset is None else f"offset {offset}", 15, "end",
                 bold=True)
        for lane in range(WARP):
            used = lane < useful
            svg.rect(left + lane * cell + 1, y, cell - 2, row_h, REGISTERS if used else IDLE, 1, rx=2)
            if used:
                svg.label_in(left + lane * cell + 1, y, cell - 2, row_h, str(value), 14)
        if offset is not None:
            above = y - gap  # the bottom of the row before
            for lane in range(offset):
                x_to = left + lane * cell + cell / 2
                svg.line(left + (lane + offset) * cell + cell / 2, above + 1, x_to, y - 2, REGISTERS[1], 1.2)
                svg.line(x_to, above + 1, x_to, y - 2, REGISTERS[1], 1.2)
    svg.text(10, 364, "The numbers: how many lanes' values each sum holds. Lane 0 ends with the warp's "
             "sum, in 5 steps, without shared memory.", 15)
    svg.text(10, 384, "Grey: sums that nobody reads; those lanes still execute the shuffle, as the mask "
             "says every lane does.", 15)
    return svg


@diagram("14")
def histogram_privatised(say):
    svg = Svg("histogram_privatised", 1100, 375, "A privatised histogram: per-block bins in shared memory")
    counts = [[3, 0, 5, 1, 0, 2, 4, 1], [0, 2, 6, 0, 1, 3, 2, 2], [1, 0, 4, 2, 0, 1, 5, 3]]
    bins = len(counts[0])
    # The input: a grid-stride loop hands each block a block's width of values in turn.
    svg.text(10, 20, "values (global memory): each block takes its stretch of every grid-wide step", 16,
             bold=True)
    block_w, gap, pieces = 340, 30, 12
    piece_w = 1080 / pieces
    for i in range(pieces):
        svg.rect(10 + i * piece_w, 30, piece_w, 30, HBM, 1.2, rx=0)
        svg.label_in(10 + i * piece_w, 30, piece_w, 30, f"block {i % 3}", 14)
    for b in range(3):
        x = 10 + b * (block_w + gap)
        # The block and its private bins.
        svg.rect(x, 92, block_w, 142, DEVICE, 2)
        svg.text(x + 12, 115, f"block {b}", 16, bold=True, colour=DEVICE[1])
        svg.text(x + block_w - 12, 115, "`block_counts[]` (shared)", 15, "end")
        for i in range(b, pieces, 3):
            svg.line(10 + (i + 0.5) * piece_w, 61, x + block_w / 2, 90, INK, 1.2, arrow=True)
        for k in range(bins):
            bx = x + 14 + k * 39
            svg.rect(bx, 126, 36, 36, SHARED, 1.5)
            svg.label_in(bx, 126, 36, 36, str(counts[b][k]), 17, bold=True)
        svg.text(x + 12, 184, "`atomicAdd(&block_counts[bin], 1)`", 15)
        svg.text(x + 12, 205, "only this block's threads compete", 15)
        svg.text(x + 12, 226, "`__syncthreads()` before and after", 15, colour=MUTED)
        svg.line(x + block_w / 2, 236, 330 + 5 * 60 - (1 - b) * 150, 294, SHARED[1], 2, arrow=True)
    svg.text(10, 268, "merge: one global `atomicAdd`", 16, bold=True)
    svg.text(10, 288, "per non-zero bin of each block", 16, bold=True)
    # The global histogram.
    svg.text(330 - 10, 322, "`counts[]`", 16, "end", bold=True)
    for k in range(bins):
        total = sum(c[k] for c in counts)
        svg.rect(330 + k * 60, 298, 56, 36, HBM, 1.5)
        svg.label_in(330 + k * 60, 298, 56, 36, str(total), 17, bold=True)
    svg.text(330 + bins * 60 + 12, 322, "global memory", 15, colour=MUTED)
    source_line(svg, f"{CARD}, exercise 14's check, every value in one bin: privatised {HISTOGRAM_SPEEDUP}x "
                "faster than a global atomicAdd per value (tests/speed_bars.md).", y=364)
    return svg


DIAGRAMS = [warp_shuffle, histogram_privatised]
