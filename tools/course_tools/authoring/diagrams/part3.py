"""The diagrams of Part III's deck (slides/part3.md and part3.fr.md), in the order the deck shows them."""
from course_tools.authoring.diagrams.numbers import (CARD, PCIE_ONE_WAY_GBS, PCIE_BOTH_WAYS_GBS, TRANSPOSE_WAVEFRONTS, TRANSPOSE_CONFLICTS, PADDED_WAVEFRONTS, STREAM_BYTES, STREAM_CHUNKS, STREAM_COUNT, BANKS, BANK_BYTES)
from course_tools.authoring.diagrams.svg import (Svg, source_line, diagram, INK, MUTED, HOST, DEVICE, THREAD, REGISTERS, SHARED, HBM, BAD, IDLE)


@diagram("18")
def reduction_tree(say):
    svg = Svg("reduction_tree", 1100, 385, "A block's tree reduction in shared memory, sequential addressing")
    values = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3]
    n = len(values)
    cell, left, row_h, gap = 52, 215, 30, 34
    svg.text(10, 22, "Threads `t < s` add `cache[t + s]` to `cache[t]`, s halving; a barrier after "
             "each level", 17, bold=True)
    for t in range(n):
        svg.text(left + t * cell + cell / 2, 52, f"t={t}" if t < 2 else str(t), 14, "middle", colour=THREAD[1])
    level, s, top = list(values), n, 62
    for r in range(5):
        y = top + r * (row_h + gap)
        active = n if r == 0 else s
        svg.text(10, y + 16, "`cache[t]` loaded" if r == 0 else f"s = {s}", 15, bold=True)
        if r < 4:
            svg.text(10, y + 34, "`__syncthreads()`", 14, colour=MUTED)
        for t in range(n):
            colours = SHARED if t < active else IDLE
            svg.rect(left + t * cell + 2, y, cell - 4, row_h, colours, 1.2, rx=2)
            svg.label_in(left + t * cell + 2, y, cell - 4, row_h, str(level[t]), 15,
                         bold=t < active, colour=INK if t < active else MUTED)
        if r < 4:
            svg.line(left, y + row_h + gap / 2, left + n * cell, y + row_h + gap / 2, MUTED, 1, dash="2,4")
            s //= 2
            for t in range(s):
                x_to = left + t * cell + cell / 2
                svg.line(left + (t + s) * cell + cell / 2, y + row_h + 1, x_to, y + row_h + gap - 2,
                         SHARED[1], 1.4)
                svg.line(x_to, y + row_h + 1, x_to, y + row_h + gap - 2, SHARED[1], 1.4)
                level[t] += level[t + s]
    svg.text(10, 378, f"`cache[0]` = {level[0]}: the block's sum, for `partials[blockIdx.x]`. "
             "16 threads shown; blocks of 256 take 8 levels.", 15)
    return svg


@diagram("20")
def csr(say):
    svg = Svg("csr", 1100, 380, "A sparse matrix in CSR: row offsets, column indices, values")
    rows, cols = 4, 6
    entries = {(0, 0): 10, (0, 3): 20, (2, 1): 30, (2, 2): 40, (2, 5): 50, (3, 4): 60}
    cell, left, top = 46, 80, 70
    svg.text(10, 24, "The matrix (4 x 6, 6 non-zeros)", 17, bold=True)
    for c in range(cols):
        svg.text(left + c * cell + cell / 2, top - 10, str(c), 14, "middle", colour=MUTED)
    for r in range(rows):
        svg.text(left - 12, top + r * cell + 29, f"row {r}", 15, "end")
        for c in range(cols):
            value = entries.get((r, c))
            svg.rect(left + c * cell, top + r * cell, cell, cell, HBM if value else ("#ffffff", "#b0b0b0"), 1,
                     rx=0)
            if value:
                svg.label_in(left + c * cell, top + r * cell, cell, cell, str(value), 16, bold=True)
    svg.text(left, top + rows * cell + 26, "row 1 is empty: y[1] = 0", 15, colour=MUTED)
    svg.text(left, top + rows * cell + 50, "one thread per row: thread i computes y[i]", 15, colour=MUTED)

    # The three arrays.
    ordered = sorted(entries.items())
    offsets = [0]
    for r in range(rows):
        offsets.append(offsets[-1] + sum(1 for (row, _), _ in ordered if row == r))
    ax, aw = 540, 62
    svg.text(ax - 130, 24, "The three arrays (global memory)", 17, bold=True)

    def array(y, name, items, note):
        svg.text(ax - 12, y + 16, name, 16, "end", mono=True, bold=True)
        svg.text(ax - 12, y + 36, note, 14, "end", colour=MUTED)
        for k, item in enumerate(items):
            svg.rect(ax + k * aw, y, aw, 40, HBM, 1.2, rx=0)
            svg.label_in(ax + k * aw, y, aw, 40, str(item), 16, bold=True)

    array(44, "row_offsets", offsets, "rows + 1")
    columns_y = 170
    svg.text(ax - 12, columns_y - 10, "k", 15, "end", colour=MUTED)
    for k in range(len(ordered)):
        svg.text(ax + k * aw + aw / 2, columns_y - 10, str(k), 14, "middle", colour=MUTED)
    array(columns_y, "columns", [c for (_, c), _ in ordered], "nnz")
    array(columns_y + 50, "values", [v for _, v in ordered], "nnz")
    # row_offsets[r] is where row r starts in columns and values.
    for r in range(rows + 1):
        svg.line(ax + r * aw + aw / 2, 86, ax + offsets[r] * aw, columns_y - 30, DEVICE[1], 1.5, arrow=True)
    svg.text(ax + len(ordered) * aw + 8, columns_y - 30, "= nnz: the end", 14, colour=MUTED)
    # Each row's span of k, from its two offsets.
    bracket_y = columns_y + 98
    for r in range(rows):
        start, end = offsets[r], offsets[r + 1]
        if start == end:
            continue
        x1, x2 = ax + start * aw + 4, ax + end * aw - 4
        svg.polyline([(x1, bracket_y - 6), (x1, bracket_y + 4), (x2, bracket_y + 4), (x2, bracket_y - 6)],
                     DEVICE[1], 2)
        svg.text((x1 + x2) / 2, bracket_y + 24, f"row {r}", 15, "middle", bold=True, colour=DEVICE[1])
    svg.text(ax - 130, 338, "row i: `k` from `row_offsets[i]` to `row_offsets[i + 1] - 1` "
             "(row 1: none, equal offsets)", 15)
    svg.text(ax - 130, 362, "y[i] = the sum of `values[k] * x[columns[k]]` over them", 15)
    return svg


@diagram("21")
def sgemm_tiles(say):
    svg = Svg("sgemm_tiles", 1100, 385, "Tiled SGEMM: tiles of A and B through shared memory")
    t = 56  # pixels per tile of 32 x 32 elements
    k_tiles, m_tiles, n_tiles = 3, 3, 5
    step, tile_row, tile_col = 1, 1, 2  # the tile of k being loaded; the block's tile of C
    bx, by, ax, ay = 230, 10, 10, 190
    # B above C, A left of C: the classic picture of C = A B.
    svg.rect(bx, by, n_tiles * t, k_tiles * t, ("#ffffff", HBM[1]), 1.5, rx=0)
    svg.text(bx - 10, by + 20, "B (k x n)", 16, "end", bold=True)
    svg.rect(ax, ay, k_tiles * t, m_tiles * t, ("#ffffff", HBM[1]), 1.5, rx=0)
    svg.text(ax, ay - 10, "A (m x k)", 16, bold=True)
    svg.rect(bx, ay, n_tiles * t, m_tiles * t, ("#ffffff", HBM[1]), 1.5, rx=0)
    svg.text(bx + n_tiles * t - 10, ay + m_tiles * t - 10, "C (m x n)", 16, "end", bold=True)
    # The block's tile of C; the row strip of A and the column strip of B it needs.
    svg.rect(ax, ay + tile_row * t, k_tiles * t, t, HBM, 1, rx=0)
    svg.rect(bx + tile_col * t, by, t, k_tiles * t, HBM, 1, rx=0)
    a_tile = (ax + step * t, ay + tile_row * t)
    b_tile = (bx + tile_col * t, by + step * t)
    svg.rect(*a_tile, t, t, SHARED, 2.5, rx=0)
    svg.rect(*b_tile, t, t, SHARED, 2.5, rx=0)
    svg.rect(bx + tile_col * t, ay + tile_row * t, t, t, DEVICE, 2.5, rx=0)
    c_box = (bx, ay, n_tiles * t, m_tiles * t)
    svg.text(bx + tile_col * t - 8, ay + tile_row * t + 26, "one block's", 15, "end", box=c_box)
    svg.text(bx + tile_col * t - 8, ay + tile_row * t + 46, "32 x 32 tile", 15, "end", box=c_box)
    svg.text(b_tile[0] - 8, b_tile[1] + 36, "tile t of B", 15, "end")
    svg.text(ax, ay + m_tiles * t - 8, "tile t of A", 15)
    svg.text(ax, 86, "t walks k, 32 at a time:", 15)
    svg.text(ax, 106, "along A's rows, down B", 15)
    svg.line(ax, 124, ax + 150, 124, INK, 1.5, arrow=True)

    # Shared memory and the loop.
    sx = 720
    svg.rect(sx, 10, 370, 136, SHARED, 2)
    svg.text(sx + 12, 34, "shared memory of the block", 16, bold=True, colour=SHARED[1])
    svg.rect(sx + 16, 46, 160, 40, ("#ffffff", SHARED[1]))
    svg.label_in(sx + 16, 46, 160, 40, "b_tile[32][32]", 15, mono=True)
    svg.rect(sx + 16, 94, 160, 40, ("#ffffff", SHARED[1]))
    svg.label_in(sx + 16, 94, 160, 40, "a_tile[32][32]", 15, mono=True)
    svg.text(sx + 190, 72, "each thread", 15)
    svg.text(sx + 190, 92, "loads one", 15)
    svg.text(sx + 190, 112, "of each", 15)
    svg.line(b_tile[0] + t, b_tile[1] + t / 2, sx + 12, 66, SHARED[1], 2, arrow=True)
    svg.line(a_tile[0] + t, a_tile[1] + t / 2, sx + 12, 118, SHARED[1], 2, arrow=True)
    steps = ["for each tile t of k:", "1. load a_tile, b_tile (0 past the edges)", "2. `__syncthreads()`",
             "3. 32 multiply-adds from shared memory", "4. `__syncthreads()` before the next load"]
    for i, content in enumerate(steps):
        svg.text(sx, 172 + i * 23, content, 15, bold=i == 0)
    svg.text(sx, 296, "Each element of A and B: loaded once", 15, bold=True)
    svg.text(sx, 315, "per tile, read by 32 threads", 15, bold=True)
    svg.text(sx, 338, "global memory: 8 FLOP per byte", 15, colour=DEVICE[1], bold=True)
    svg.text(sx, 357, "(one thread per element: 0.25)", 15, colour=DEVICE[1])
    source_line(svg, "Exercise 21, step 2: T = 32, blocks of 32 x 32 threads; intensity from its statement.",
                y=378)
    return svg


@diagram("21")
def register_blocking(say):
    svg = Svg("register_blocking", 1100, 385, "Register blocking: 8 x 8 elements of C per thread")
    cell = 15  # pixels per thread's 8 x 8 square: the block's 128 x 128 tile of C is 16 x 16 of them
    depth = 4  # pixels per element of the k slice (8 of them)
    cx, cy = 60, 90
    side = 16 * cell
    # B's tile (8 x 128) above, A's tile (128 x 8) to the left, both in shared memory.
    svg.rect(cx, cy - 12 - 8 * depth, side, 8 * depth, SHARED, 1.5, rx=0)
    svg.text(cx, cy - 20 - 8 * depth, "B's tile: 8 x 128 (shared)", 15, bold=True)
    svg.rect(cx - 12 - 8 * depth, cy, 8 * depth, side, SHARED, 1.5, rx=0)
    svg.text(cx - 12 - 8 * depth, cy + side + 22, "A's tile: 128 x 8 (shared)", 15, bold=True)
    svg.rect(cx, cy, side, side, ("#ffffff", DEVICE[1]), 2, rx=0)
    for i in range(1, 16):
        svg.line(cx + i * cell, cy, cx + i * cell, cy + side, "#b9d8ba", 1)
        svg.line(cx, cy + i * cell, cx + side, cy + i * cell, "#b9d8ba", 1)
    # One thread's 8 x 8 square, its 8 rows of A and 8 columns of B; column p = 2 of the slice.
    tr, tc, p = 5, 9, 2
    mark = (REGISTERS[1], REGISTERS[1])
    svg.rect(cx + tc * cell, cy + tr * cell, cell, cell, mark, 1, rx=0)
    svg.rect(cx - 12 - 8 * depth + p * depth, cy + tr * cell, depth, cell, mark, 1, rx=0)
    svg.rect(cx + tc * cell, cy - 12 - 8 * depth + p * depth, cell, depth, mark, 1, rx=0)
    svg.text(cx + side + 12, cy + 20, "C's tile: 128 x 128,", 15, bold=True)
    svg.text(cx + side + 12, cy + 40, "256 threads,", 15, bold=True)
    svg.text(cx + side + 12, cy + 60, "each 8 x 8", 15, bold=True)
    svg.line(cx + (tc + 1) * cell + 2, cy + (tr + 0.5) * cell, cx + side + 10, cy + (tr + 0.5) * cell,
             REGISTERS[1], 1.5)
    svg.text(cx + side + 12, cy + (tr + 0.5) * cell + 5, "one thread", 15, colour=REGISTERS[1], bold=True)

    # The outer product in registers, for one p.
    ox, oy, r = 520, 100, 22
    svg.text(ox - 40, 30, "For each p of the k slice (8 per tile):", 17, bold=True)
    svg.rect(ox, oy, r, 8 * r, REGISTERS, 1.5, rx=0)
    for i in range(1, 8):
        svg.line(ox, oy + i * r, ox + r, oy + i * r, REGISTERS[1], 1)
    svg.text(ox + r / 2, oy + 8 * r + 22, "8 of A", 15, "middle", bold=True)
    gx = ox + r + 24
    svg.rect(gx, oy - r - 10, 8 * r, r, REGISTERS, 1.5, rx=0)
    for i in range(1, 8):
        svg.line(gx + i * r, oy - r - 10, gx + i * r, oy - 10, REGISTERS[1], 1)
    svg.text(gx + 8 * r + 8, oy - 15, "8 of B", 15, bold=True)
    svg.rect(gx, oy, 8 * r, 8 * r, REGISTERS, 2, rx=0)
    for i in range(1, 8):
        svg.line(gx + i * r, oy, gx + i * r, oy + 8 * r, REGISTERS[1], 0.8)
        svg.line(gx, oy + i * r, gx + 8 * r, oy + i * r, REGISTERS[1], 0.8)
    svg.text(gx + 4 * r, oy + 8 * r + 22, "64 sums (registers)", 15, "middle", bold=True)
    tx = gx + 8 * r + 30
    notes = ["read 8 values of A's column p", "and 8 of B's row p into", "registers: 16 shared reads",
             "for 64 multiply-adds", "", "tiles of 32 (step 2):", "2 reads per multiply-add"]
    for i, content in enumerate(notes):
        if content:
            svg.text(tx, oy + 20 + i * 22, content, 15, bold=i < 4)
    svg.text(ox - 40, 326, "Global memory: 32 FLOP per byte loaded (step 2: 8).", 15, bold=True)
    svg.text(ox - 40, 348, "Registers per thread: the 64 sums and the 16 values read.", 15)
    source_line(svg, "Exercise 21, step 4 (`kBlocking2dM = kBlocking2dN = 128`, `kBlocking2dK = 8`, "
                "8 x 8 per thread); counts from its statement.", y=378)
    return svg


@diagram("22")
def transpose_tile(say):
    svg = Svg("transpose_tile", 1100, 380, "Transpose through a shared-memory tile")
    side, tiles = 200, 4
    t = side / tiles
    in_x, out_x, y0 = 20, 880, 50
    tile_x, tile_side = 440, 200
    access = THREAD[1]  # a warp's accesses

    def matrix(x, label, row, col):
        svg.rect(x, y0, side, side, ("#ffffff", HBM[1]), 1.5, rx=0)
        for i in range(1, tiles):
            svg.line(x + i * t, y0, x + i * t, y0 + side, "#c8b8ad", 1)
            svg.line(x, y0 + i * t, x + side, y0 + i * t, "#c8b8ad", 1)
        svg.rect(x + col * t, y0 + row * t, t, t, HBM, 2.5, rx=0)
        svg.text(x, y0 - 12, label, 16, bold=True)

    matrix(in_x, "`in`: rows x cols", 1, 2)
    svg.text(in_x, y0 + side + 24, "tile (blockIdx.y, blockIdx.x)", 15)
    svg.text(in_x, y0 + side + 44, "= (1, 2)", 15)
    matrix(out_x, "`out`: cols x rows", 2, 1)
    svg.text(out_x, y0 + side + 24, "tile (blockIdx.x, blockIdx.y)", 15)
    svg.text(out_x, y0 + side + 44, "= (2, 1): mirrored", 15)
    # The tile in shared memory: rows in, columns out.
    svg.rect(tile_x, y0, tile_side, tile_side, SHARED, 2, rx=0)
    svg.text(tile_x, y0 - 12, "`tile[32][33]` (shared)", 16, bold=True)
    for j in range(4):
        y = y0 + 18 + j * 46
        svg.line(tile_x + 12, y, tile_x + tile_side - 12, y, access, 2.5, arrow=True)
    for j in range(4):
        x = tile_x + 28 + j * 46
        svg.line(x, y0 + 30, x, y0 + tile_side - 8, access, 2.5, arrow=True, dash="6,4")
    # Into the tile, out of it.
    svg.line(in_x + 3 * t, y0 + 1.5 * t, tile_x - 6, y0 + 1.5 * t, access, 2.5, arrow=True)
    svg.text(in_x + side + 12, y0 + 1.5 * t - 12, "warps read rows", 15, bold=True)
    svg.text(in_x + side + 12, y0 + 1.5 * t + 24, "(coalesced)", 15)
    svg.line(tile_x + tile_side + 6, y0 + 2.5 * t, out_x + t - 4, y0 + 2.5 * t, access, 2.5, arrow=True,
             dash="6,4")
    svg.text(tile_x + tile_side + 12, y0 + 2.5 * t - 12, "tile's columns (dashed)", 15, bold=True)
    svg.text(tile_x + tile_side + 12, y0 + 2.5 * t + 24, "written as rows of `out`", 15)
    svg.text(tile_x + tile_side / 2, y0 + tile_side + 24, "`__syncthreads()` between in and out", 15,
             "middle")
    svg.text(10, 340, "A block of 32 x 8 threads moves one 32 x 32 tile: each thread 4 elements "
             "(rows `threadIdx.y + j`, j = 0, 8, 16, 24).", 15)
    svg.text(10, 364, "Both global accesses are coalesced; the column walk happens in shared memory, "
             "which has no sectors to waste.", 15)
    return svg


@diagram("22")
def transpose_banks(say):
    svg = Svg("transpose_banks", 1100, 375, "Shared-memory banks: tile[32][32] vs tile[32][33]")
    cell_w, cell_h = 44, 27
    shown_rows = [0, 1, 2, 3, None, 31]
    shown_cols = [0, 1, 2, 3, None, 31]

    def panel(x0, width, title, verdict, colours):
        cols = shown_cols + ([32] if width == 33 else [])
        svg.text(x0, 24, title, 18, bold=True, mono=True)
        svg.text(x0, 46, f"word `{width} i + k` is in bank `({width} i + k) % 32`", 15)
        top, left = 80, x0 + 60
        svg.text(left - 8, top - 8, "k:", 14, "end", colour=MUTED)
        for c, k in enumerate(cols):
            svg.text(left + c * cell_w + cell_w / 2, top - 8, "…" if k is None else str(k), 14, "middle",
                     colour=MUTED)
        for r, i in enumerate(shown_rows):
            y = top + r * cell_h
            svg.text(left - 8, y + 20, "⋮" if i is None else f"i={i}", 14, "end", colour=MUTED)
            for c, k in enumerate(cols):
                x = left + c * cell_w
                if i is None or k is None:
                    if i is None and k is None:
                        continue
                    svg.text(x + cell_w / 2, y + 20, "⋮" if i is None else "…", 14, "middle", colour=MUTED)
                    continue
                pad = k == 32
                in_column = k == 0
                fill = IDLE if pad else (colours if in_column else SHARED)
                svg.rect(x + 1, y + 1, cell_w - 2, cell_h - 2, fill, 1, rx=1)
                svg.label_in(x + 1, y + 1, cell_w - 2, cell_h - 2, "pad" if pad else str((width * i + k) % BANKS),
                             14, bold=in_column, colour=colours[1] if in_column else INK)
        bottom = top + len(shown_rows) * cell_h
        svg.text(x0, bottom + 26, "column k = 0, read by lanes i = 0-31:", 15, bold=True)
        svg.text(x0, bottom + 48, verdict, 15, bold=True, colour=colours[1])

    panel(20, 32, "float tile[32][32]", "all in bank 0: 32 passes (a 32-way conflict)", BAD)
    panel(580, 33, "float tile[32][33]", "banks 0, 1, …, 31: one pass", DEVICE)
    svg.text(20, 318, f"Nsight Compute per tile (8 warps; exercise 22): unpadded {TRANSPOSE_WAVEFRONTS} "
             f"wavefronts, {TRANSPOSE_CONFLICTS} of them conflicts;", 15)
    svg.text(20, 340, f"padded {PADDED_WAVEFRONTS}, none. `tile[33][32]` pads the wrong dimension: "
             "its rows are still 32 words long.", 15)
    source_line(svg, f"{BANKS} banks of {BANK_BYTES} bytes (the {CARD}'s and every recent GPU's); "
                "the numbers in the cells are banks.", y=366)
    return svg


def stream_schedule(chunks, streams):
    """Exercise 23's pipeline, simulated in steps of 1 microsecond with the statement's rates:
    each copy direction at PCIE_ONE_WAY_GBS alone, both sharing PCIE_BOTH_WAYS_GBS; the kernel's
    work set to the copy time. Chunk k runs on stream k % streams, in order within its stream.
    Returns {stage: [(start_ms, end_ms)] per chunk} and the times of the serial pipeline."""
    one_way = STREAM_BYTES / (PCIE_ONE_WAY_GBS * 1e9) * 1e3           # ms per whole array
    both = 2 * STREAM_BYTES / (PCIE_BOTH_WAYS_GBS * 1e9) * 1e3        # both ways at once
    kernel = both
    dt = 0.001
    remaining = {"in": [1.0] * chunks, "kernel": [1.0] * chunks, "out": [1.0] * chunks}
    spans = {stage: [[None, None] for _ in range(chunks)] for stage in remaining}
    order = ["in", "kernel", "out"]

    def ready(stage, k):
        index = order.index(stage)
        if index > 0 and spans[order[index - 1]][k][1] is None:
            return False  # its stream's previous step
        if index == 0 and k >= streams and spans["out"][k - streams][1] is None:
            return False  # the previous chunk of its stream
        return k == 0 or spans[stage][k - 1][1] is not None  # one engine per stage, in order

    now, done = 0.0, False
    while not done:
        running = {}
        for stage in order:
            for k in range(chunks):
                if remaining[stage][k] > 0 and ready(stage, k):
                    running[stage] = k
                    break
        copies = sum(1 for s in ("in", "out") if s in running)
        for stage, k in running.items():
            if spans[stage][k][0] is None:
                spans[stage][k][0] = now
            if stage == "kernel":
                rate = 1 / (kernel / chunks)
            else:
                rate = 1 / ((both / 2 if copies == 2 else one_way) / chunks)
            remaining[stage][k] -= rate * dt
            if remaining[stage][k] <= 1e-9:
                remaining[stage][k] = 0
                spans[stage][k][1] = now + dt
        now += dt
        done = spans["out"][-1][1] is not None
    serial = (one_way, kernel, one_way)
    return spans, serial


@diagram("23")
def streams_timeline(say):
    """A schematic: exercise 23's statement quotes the parts' times, not the events of each chunk.
    The measured parts come from make run-23 (printed) and make report (its pipeline_shapes
    table); a timeline of measured events would need the demo to record each chunk's events,
    which no table holds yet."""
    svg = Svg("streams_timeline", 1100, 388, "Serial vs overlapped streams: a schematic of exercise 23")
    spans, (t_in, t_kernel, t_out) = stream_schedule(STREAM_CHUNKS, STREAM_COUNT)
    left, per_ms = 160, 100
    serial_total = t_in + t_kernel + t_out
    pipeline_total = spans["out"][-1][1]
    bound = t_kernel

    def x(ms):
        return left + ms * per_ms

    def rows(top, title):
        svg.text(10, top - 12, title, 17, bold=True)
        labels = [("copy in", HOST), ("kernel", DEVICE), ("copy back", HOST)]
        for i, (name, colours) in enumerate(labels):
            svg.text(left - 10, top + i * 34 + 21, name, 15, "end", bold=True, colour=colours[1])
            svg.line(left, top + i * 34 + 30, x(9.2), top + i * 34 + 30, "#dddddd", 1)
        return labels

    top = 40
    labels = rows(top, "One stream: copy in, kernel, copy back, one after another")
    starts = [0, t_in, t_in + t_kernel]
    for i, (duration, (name, colours)) in enumerate(zip((t_in, t_kernel, t_out), labels)):
        svg.rect(x(starts[i]), top + i * 34 + 2, duration * per_ms, 28, colours, 1.5, rx=2)
        svg.label_in(x(starts[i]), top + i * 34 + 2, duration * per_ms, 28,
                     f"{name} {duration:.1f} ms", 15, bold=True)
    svg.line(x(serial_total), top - 4, x(serial_total), top + 104, INK, 2)
    svg.text(x(serial_total) + 6, top + 56, f"{serial_total:.1f}", 15, bold=True)
    svg.text(x(serial_total) + 6, top + 74, "ms", 15, bold=True)

    top = 190
    rows(top, f"{STREAM_CHUNKS} chunks over {STREAM_COUNT} streams (chunk k on stream k % {STREAM_COUNT}): "
         "the copy engines and the SMs overlap")
    for i, (stage, colours) in enumerate(zip(("in", "kernel", "out"), (HOST, DEVICE, HOST))):
        for k, (start, end) in enumerate(spans[stage]):
            svg.rect(x(start), top + i * 34 + 2, (end - start) * per_ms, 28, colours, 1, rx=1)
            if stage == "kernel" and k % 2 == 0:  # the copies, faster, are too narrow for it
                svg.label_in(x(start), top + i * 34 + 2, (end - start) * per_ms, 28, str(k), 14)
    svg.line(x(pipeline_total), top - 4, x(pipeline_total), top + 104, INK, 2)
    svg.text(x(pipeline_total) + 6, top + 122, f"{pipeline_total:.1f} ms: "
             f"{serial_total / pipeline_total:.1f}x faster than one stream", 15, bold=True)
    svg.line(x(bound), top - 4, x(bound), top + 104, BAD[1], 2, dash="5,4")
    svg.text(x(bound) - 6, top + 122, f"bound = max(copy time, kernel) = {bound:.1f} ms", 15, "end",
             colour=BAD[1], bold=True)
    # The time axis.
    axis = 336
    svg.line(left, axis, x(9.2), axis, INK, 1.5)
    for ms in range(10):
        svg.line(x(ms), axis, x(ms), axis + 5, INK, 1.5)
        svg.text(x(ms), axis + 20, f"{ms} ms" if ms in (0, 9) else str(ms), 14, "middle")
    source_line(svg, f"Schematic, not a measurement: exercise 23's {CARD} figures (128 MiB each way, "
                f"{PCIE_ONE_WAY_GBS} GB/s one way, {PCIE_BOTH_WAYS_GBS} GB/s both, kernel = copy time).",
                y=380)
    return svg


DIAGRAMS = [reduction_tree, csr, sgemm_tiles, register_blocking, transpose_tile, transpose_banks, streams_timeline]
