"""The diagrams of Part I's deck (slides/part1.md and part1.fr.md), in the order the deck shows them."""
from course_tools.authoring.diagrams.numbers import (CARD, PCIE_ONE_WAY_GBS, PCIE_BOTH_WAYS_GBS, COPY_CEILING_GBS, H100_SMS, H100_SUBPARTITIONS, H100_FP32_LANES_PER_PARTITION, H100_REGISTERS, H100_THREADS_PER_SM, H100_L1_SHARED_KB, H100_SHARED_MAX_KB, H100_L2_MB, H100_HBM_GB, H100_HBM_TBS, SECTOR_BYTES, WARP, LATENCY)
from course_tools.authoring.diagrams.svg import (Svg, source_line, diagram, INK, MUTED, HOST, DEVICE, THREAD, REGISTERS, SHARED, L2, HBM, BAD, IDLE)


@diagram("01", "03")
def host_device(say):
    svg = Svg("host_device", 1100, 390, "Host and device: PCIe and HBM bandwidths measured on an H100")
    # The host.
    svg.rect(10, 10, 300, 330, HOST, 2)
    svg.text(160, 40, "Host", 22, "middle", bold=True, colour=HOST[1])
    svg.rect(30, 60, 260, 80, ("#ffffff", HOST[1]))
    svg.label_in(30, 60, 260, 44, "CPU cores", 18, bold=True)
    svg.text(160, 124, "run the program, launch kernels", 15, "middle", box=(30, 60, 260, 80))
    svg.rect(30, 160, 260, 160, ("#ffffff", HOST[1]))
    svg.label_in(30, 160, 260, 44, "host memory (DRAM)", 18, bold=True)
    svg.rect(55, 215, 210, 80, HOST)
    svg.label_in(55, 215, 210, 44, "pinned buffer", 16, bold=True)
    svg.text(160, 278, "`cudaMallocHost`", 15, "middle", box=(55, 215, 210, 80))

    # The bus.
    svg.text(435, 110, "PCIe", 20, "middle", bold=True, colour=HOST[1])
    svg.line(318, 160, 552, 160, HOST[1], 3, arrow=True)
    svg.text(435, 150, f"to the device: {PCIE_ONE_WAY_GBS} GB/s", 15, "middle")
    svg.line(552, 210, 318, 210, HOST[1], 3, arrow=True)
    svg.text(435, 232, f"back: {PCIE_ONE_WAY_GBS} GB/s", 15, "middle")
    svg.text(435, 268, "both ways at once:", 15, "middle")
    svg.text(435, 288, f"{PCIE_BOTH_WAYS_GBS} GB/s together", 15, "middle", bold=True)

    # The device.
    svg.rect(560, 10, 530, 330, DEVICE, 2)
    svg.text(825, 40, f"Device: {CARD} SXM", 22, "middle", bold=True, colour=DEVICE[1])
    svg.rect(580, 60, 490, 74, ("#ffffff", DEVICE[1]))
    svg.text(598, 90, f"{H100_SMS} SMs", 18, bold=True)
    for i in range(10):
        svg.rect(700 + i * 32, 74, 26, 22, DEVICE, 1, rx=2)
    svg.text(1030, 90, "…", 18)
    svg.text(598, 122, "registers, L1 and shared memory in each", 15)
    svg.rect(580, 150, 490, 38, L2)
    svg.label_in(580, 150, 490, 38, f"L2 cache, {H100_L2_MB} MB", 17, bold=True)
    svg.rect(580, 256, 490, 66, HBM)
    svg.label_in(580, 256, 490, 38, f"HBM3: global memory, {H100_HBM_GB} GB", 17, bold=True)
    svg.text(825, 310, "where `cudaMalloc` allocates", 15, "middle", box=(580, 256, 490, 66))
    svg.line(620, 192, 620, 252, HBM[1], 4, both=True)
    svg.text(640, 216, f"device-to-device copy: {COPY_CEILING_GBS} GB/s", 17, bold=True)
    ratio = round(COPY_CEILING_GBS / PCIE_ONE_WAY_GBS / 10) * 10
    svg.text(640, 240, f"(specified: {H100_HBM_TBS} TB/s), about {ratio}x the bus", 15)

    source_line(svg, f"{CARD} SXM (80 GB HBM3) on PCIe, measured: the bus by exercise 23 "
                f"(128 MiB, pinned), the copy by exercise 09 (2^26 floats, bytes read + written).",
                y=362)
    source_line(svg, "Pageable memory is first copied into a pinned buffer by the CPU.", y=382)
    return svg


@diagram("01")
def sm_warps(say):
    svg = Svg("sm_warps", 1100, 380, "One H100 SM: four sub-partitions, each with a warp scheduler")
    svg.rect(10, 10, 1080, 318, DEVICE, 2)
    svg.text(30, 38, f"One SM ({CARD}: {H100_SMS} on the chip)", 20, bold=True, colour=DEVICE[1])
    svg.text(1070, 38, f"{H100_THREADS_PER_SM} threads = {H100_THREADS_PER_SM // WARP} warps resident, "
             f"{H100_THREADS_PER_SM // WARP // H100_SUBPARTITIONS} per scheduler", 16, "end")
    # The warps' states, for the picture: one issues, some wait for memory, the rest are ready.
    waiting = {0: (1, 2, 5, 6, 9, 12, 13), 1: (0, 3, 4, 8, 10, 14), 2: (2, 3, 6, 7, 11, 15),
               3: (1, 4, 5, 9, 12, 13)}
    issuing = {0: 3, 1: 7, 2: 0, 3: 10}
    column_w, gap = 255, 10
    for p in range(H100_SUBPARTITIONS):
        x = 20 + p * (column_w + gap)
        svg.rect(x, 50, column_w, 206, ("#ffffff", DEVICE[1]))
        svg.text(x + column_w / 2, 70, f"sub-partition {p}", 16, "middle", bold=True)
        svg.rect(x + 10, 78, column_w - 20, 26, DEVICE)
        svg.label_in(x + 10, 78, column_w - 20, 26, "warp scheduler", 15, bold=True)
        # The warps it chooses from: 16 per sub-partition.
        for w in range(16):
            wx, wy = x + 10 + (w % 8) * 29.5, 110 + (w // 8) * 25
            state = IDLE if w in waiting[p] else THREAD
            if w == issuing[p]:
                state = (THREAD[1], THREAD[1])
            svg.rect(wx, wy, 27, 22, state, 1, rx=2)
            svg.label_in(wx, wy, 27, 22, f"{w}", 14, colour="#ffffff" if w == issuing[p] else INK)
        svg.rect(x + 10, 164, column_w - 20, 26, REGISTERS)
        svg.label_in(x + 10, 164, column_w - 20, 26, "registers: 16,384 x 32 bit", 14)
        # Its 32 FP32 lanes, one warp instruction at a time.
        for lane in range(H100_FP32_LANES_PER_PARTITION):
            lx, ly = x + 10 + (lane % 16) * 14.7, 196 + (lane // 16) * 15
            svg.rect(lx, ly, 12.7, 13, DEVICE, 1, rx=1)
        svg.text(x + column_w / 2, 246, "32 FP32 lanes", 15, "middle")
    svg.rect(20, 264, 1050, 54, SHARED)
    svg.label_in(20, 264, 1050, 30, f"L1 data cache and shared memory: {H100_L1_SHARED_KB} KB, "
                 f"of which up to {H100_SHARED_MAX_KB} KB shared", 17, bold=True)
    svg.text(545, 309, "shared by the blocks resident on this SM", 15, "middle")
    # Legend.
    svg.rect(20, 336, 24, 18, (THREAD[1], THREAD[1]), 1, rx=2)
    svg.text(52, 351, "issues its instruction this clock", 15)
    svg.rect(320, 336, 24, 18, THREAD, 1, rx=2)
    svg.text(352, 351, "ready", 15)
    svg.rect(430, 336, 24, 18, IDLE, 1, rx=2)
    svg.text(462, 351, "waits for memory: the scheduler picks another warp", 15)
    source_line(svg, f"{CARD} SXM specifications: {H100_SUBPARTITIONS} sub-partitions per SM, "
                f"{H100_REGISTERS:,} registers and {H100_THREADS_PER_SM} threads per SM. "
                "Warp numbers and states: an illustration.", y=374)
    return svg


@diagram("01")
def memory_hierarchy(say):
    svg = Svg("memory_hierarchy", 1100, 385, "The H100's memory hierarchy: sizes and approximate latencies")
    header_y, centre, size_x, latency_x, measured_x = 26, 240, 470, 770, 920
    svg.text(centre, header_y, "level: who sees it", 16, "middle", bold=True)
    svg.text(size_x, header_y, f"size ({CARD} SXM specification)", 16, bold=True)
    svg.text(latency_x, header_y, "latency", 16, bold=True)
    svg.text(measured_x, header_y, "measured", 16, bold=True)
    rows = [
        (REGISTERS, "registers: one thread", f"{H100_REGISTERS:,} x 4 B = 256 KB per SM",
         LATENCY["registers"], ""),
        (SHARED, "shared memory, L1: one block", f"{H100_L1_SHARED_KB} KB per SM, up to "
         f"{H100_SHARED_MAX_KB} KB shared", LATENCY["shared"], ""),
        (L2, "L2 cache: the whole GPU", f"{H100_L2_MB} MB", LATENCY["l2"], ""),
        (HBM, "HBM3, global: every thread", f"{H100_HBM_GB} GB, {H100_HBM_TBS} TB/s",
         LATENCY["hbm"], f"copy: {COPY_CEILING_GBS} GB/s"),
        (HOST, "host memory: the CPU", "the machine's RAM, over PCIe", "", f"{PCIE_ONE_WAY_GBS} GB/s each way"),
    ]
    row_h, top = 56, 40
    for i, (colours, level, size, latency, measured) in enumerate(rows):
        y = top + i * row_h
        width = 230 + i * 45  # a pyramid: small and fast at the top
        x = centre - width / 2
        svg.rect(x, y, width, row_h - 10, colours, 2)
        svg.label_in(x, y, width, row_h - 10, level, 15, bold=True)
        baseline = y + row_h / 2 + 1
        svg.text(size_x, baseline, size, 15)
        if latency:
            svg.text(latency_x, baseline, latency, 16)
        if measured:
            svg.text(measured_x, baseline, measured, 16, bold=True)
    svg.line(size_x - 15, top - 4, size_x - 15, top + 5 * row_h - 10, MUTED, 1)
    # Faster and smaller upwards.
    svg.line(14, top + 5 * row_h - 14, 14, top + 4, INK, 2, arrow=True)
    svg.text(24, top + 12, "faster,", 15)
    svg.text(24, top + 30, "smaller", 15)
    svg.text(10, 336, "Latency: about, in SM clock cycles; orders of magnitude, approximate (they vary with "
             "the access and the clock).", 15)
    source_line(svg, f"Measured on the course's {CARD}: the device-to-device copy by exercise 09 "
                "(bytes read + written / time), PCIe (pinned) by exercise 23.", y=357)
    source_line(svg, "Local memory (a thread's spilled registers) lives in HBM, cached in L1 and L2.",
                y=378)
    return svg


@diagram("02")
def grid_index(say):
    blocks, threads = 4, 16
    svg = Svg("grid_index", 1100, 340, "A grid of 4 blocks of 16 threads and the global index")
    cell, left, top = 42, 330, 66
    svg.text(10, 26, "`kernel<<<4, 16>>>(...)`: gridDim.x = 4 blocks, blockDim.x = 16 threads", 17,
             bold=True)
    svg.text(left - 12, top - 10, "threadIdx.x:", 15, "end")
    for t in range(threads):
        svg.text(left + t * cell + cell / 2, top - 10, str(t), 15, "middle", colour=THREAD[1], bold=True)
    for b in range(blocks):
        y = top + b * (cell + 6)
        svg.rect(left - 4, y - 3, threads * cell + 8, cell + 6, DEVICE, 1.5)
        svg.text(10, y + 19, f"block {b} (blockIdx.x = {b})", 16, bold=True)
        svg.text(10, y + 38, f"starts at {b} × 16 = {b * threads}", 15, colour=MUTED)
        for t in range(threads):
            index = b * threads + t
            chosen = (b, t) == (2, 5)
            colours = (THREAD[1], THREAD[1]) if chosen else THREAD
            svg.rect(left + t * cell + 2, y, cell - 4, cell, colours, 1, rx=2)
            svg.label_in(left + t * cell + 2, y, cell - 4, cell, str(index), 16,
                         bold=chosen, colour="#ffffff" if chosen else INK)
    y = top + blocks * (cell + 6) + 34
    svg.text(10, y, "global index = `blockIdx.x * blockDim.x + threadIdx.x`", 18, bold=True)
    svg.text(10, y + 30, "thread 5 of block 2: 2 × 16 + 5 = 37, the element it works on", 17,
             colour=THREAD[1], bold=True)
    svg.text(1090, y + 30, "the numbers in the cells: each thread's global index", 15, "end",
             colour=MUTED)
    return svg


@diagram("07")
def coalescing(say):
    svg = Svg("coalescing", 1100, 365, "A warp's loads: coalesced (4 sectors) vs strided (32 sectors)")
    lane_w, left = 30, 90

    def lanes(y):
        svg.text(left - 10, y + 19, "warp", 15, "end", bold=True)
        for lane in range(WARP):
            svg.rect(left + lane * lane_w + 1, y, lane_w - 2, 26, THREAD, 1, rx=2)
            if lane % 4 == 0 or lane == WARP - 1:
                svg.label_in(left + lane * lane_w + 1, y, lane_w - 2, 26, str(lane), 14)

    # Coalesced: lane i reads float i.
    svg.text(10, 22, "Coalesced: lane i reads `x[i]`, 32 neighbouring floats", 17, bold=True)
    lanes(34)
    memory_y = 100
    for lane in range(WARP):
        svg.line(left + lane * lane_w + 15, 61, left + lane * lane_w + 15, memory_y - 2, THREAD[1], 1)
        svg.rect(left + lane * lane_w, memory_y, lane_w, 26, (HBM[1], "#ffffff"), 1, rx=0)
    for s in range(4):
        svg.rect(left + s * 8 * lane_w, memory_y, 8 * lane_w, 26, ("none", INK), 2.5, rx=0)
        svg.text(left + s * 8 * lane_w + 4 * lane_w, memory_y + 44, f"sector {s}: 32 B, all used", 15,
                 "middle")
    svg.text(left - 10, memory_y + 19, "HBM", 15, "end", bold=True)
    svg.text(1090, memory_y + 68, "1 request: 4 sectors, 128 B moved, 128 B used", 16, "end",
             bold=True, colour=DEVICE[1])

    # Strided: lane i reads row i, a whole row apart.
    top = 198
    svg.text(10, top, "Strided: lane i reads row i (`x[i * cols]`), rows `cols` floats apart", 17, bold=True)
    lanes(top + 12)
    memory_y = top + 76
    cell, shown = 20, 4
    span = 8 * cell + 44
    for s in range(shown):
        x = left + s * span
        svg.rect(x, memory_y, cell, 26, (HBM[1], "#ffffff"), 1, rx=0)
        for c in range(1, 8):
            svg.rect(x + c * cell, memory_y, cell, 26, BAD, 1, rx=0)
        svg.rect(x, memory_y, 8 * cell, 26, ("none", INK), 2.5, rx=0)
        svg.line(left + s * lane_w + 15, top + 39, x + cell / 2, memory_y - 2, THREAD[1], 1.2)
        if s < shown - 1:
            svg.text(x + 8 * cell + 22, memory_y + 19, "…", 16, "middle")
    more_x = left + shown * span
    for lane in range(shown, WARP):
        svg.line(left + lane * lane_w + 15, top + 39, more_x + 10, memory_y - 2, THREAD[1], 1, dash="3,3")
    svg.text(more_x + 4, memory_y + 19, "… 28 more sectors", 16)
    svg.text(left - 10, memory_y + 19, "HBM", 15, "end", bold=True)
    svg.rect(left, memory_y + 40, 20, 16, (HBM[1], "#ffffff"), 1, rx=0)
    svg.text(left + 28, memory_y + 54, "4 B used", 15)
    svg.rect(left + 120, memory_y + 40, 20, 16, BAD, 1, rx=0)
    svg.text(left + 148, memory_y + 54, "moved, unused", 15)
    svg.text(1090, memory_y + 54, "1 request: 32 sectors, 1024 B moved, 128 B used", 16, "end",
             bold=True, colour=BAD[1])
    source_line(svg, f"Memory is moved in sectors of {SECTOR_BYTES} bytes (4 per 128-byte line): "
                "what exercises 05 and 07 count per request with Nsight Compute.", y=356)
    return svg


DIAGRAMS = [host_device, sm_warps, memory_hierarchy, grid_index, coalescing]
