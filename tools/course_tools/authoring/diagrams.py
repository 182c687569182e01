"""The lecture decks' diagrams, drawn as SVG text: one function per diagram, each writing
slides/diagrams/NAME.svg, which a deck shows as an image (![...](diagrams/NAME.svg)).

    tools/course diagrams              write every diagram into slides/diagrams/
    tools/course diagrams --check      write nothing; exit 1 when a committed SVG differs from what
                                   this script draws, is missing, or has no function here
    tools/course diagrams --output DIR write them into DIR instead

The SVGs are committed (the slide tool reads figures from slides/, and the students'
release ships them); the CTest test slides.diagrams runs --check, so an edit here that was
not written out fails. Python's standard library only, and deterministic: the same script
writes the same bytes.

Every number on a diagram is either a measurement the course made and quotes in a
statement (named with the exercise and the card, the course's H100: an NVIDIA H100 80GB
HBM3, an SXM card, attached to its host by PCIe), or an H100 SXM specification, or a
latency given as an approximate order of magnitude; the constants below say which.

Layout rules, checked as the diagrams are drawn: each canvas is at most MAX_WIDTH x
MAX_HEIGHT (a slide is 1280 x 720, and the diagram shares it with a title and one line
of caption, at its own size: one unit is one pixel of the slide); no text is smaller than
MIN_TEXT; every text's estimated extent lies inside the canvas and, where a box is named,
inside that box.
"""
import argparse
import html
import os
import sys

from course_tools.student.paths import ROOT

DIAGRAMS_DIR = os.path.join(ROOT, "slides", "diagrams")
MAX_WIDTH, MAX_HEIGHT = 1100, 390
MIN_TEXT = 14
TEXT_GAP = 4  # the least room between two texts side by side

# --- the numbers, and where they come from ----------------------------------------------
CARD = "H100"  # the course's measuring card: NVIDIA H100 80GB HBM3 (SXM), on PCIe

# Measured by the course (the statements quote them).
PCIE_ONE_WAY_GBS = 55      # exercise 23: 128 MiB from pinned memory, one direction alone
PCIE_BOTH_WAYS_GBS = 69    # exercise 23: both directions at once, the two together
COPY_CEILING_GBS = 2905    # exercise 09: device-to-device cudaMemcpy of 2^26 floats,
#                            (bytes read + bytes written) / time
HISTOGRAM_SPEEDUP = "241-283"  # exercise 14's check (its bar's reference, tests/speed_bars.md): every value in
#                                one bin, global-atomic time / privatised time, H100
TRANSPOSE_WAVEFRONTS = 1056    # exercise 22 (Nsight Compute): per 32 x 32 tile, unpadded...
TRANSPOSE_CONFLICTS = 992      # ...of which bank conflicts
PADDED_WAVEFRONTS = 64         # padded tile: no conflict
STREAM_BYTES = 128 * 2**20     # exercise 23's timed runs: 32M floats, 128 MiB each way
STREAM_CHUNKS, STREAM_COUNT = 16, 4  # its "16 chunks over 4 streams" case

# H100 SXM specifications.
H100_SMS = 132
H100_SUBPARTITIONS = 4           # per SM, each with a warp scheduler and 32 FP32 lanes
H100_FP32_LANES_PER_PARTITION = 32
H100_REGISTERS = 65536           # 32-bit registers per SM
H100_THREADS_PER_SM = 2048       # 64 warps
H100_L1_SHARED_KB = 256          # combined L1 data cache and shared memory, per SM
H100_SHARED_MAX_KB = 228         # of which at most this is shared memory
H100_L2_MB = 50
H100_HBM_GB = 80
H100_HBM_TBS = 3.35
BANKS, BANK_BYTES = 32, 4
SECTOR_BYTES = 32
WARP = 32

# Latencies: orders of magnitude in SM clock cycles, approximate (they vary with the access
# and the clock; the diagram says "about").
LATENCY = {"registers": "~1", "shared": "~30", "l2": "~200-300", "hbm": "~500-800"}

# --- one palette for every diagram -------------------------------------------------------
INK, MUTED, PAPER = "#1a1a1a", "#4a4a4a", "#ffffff"
HOST = ("#d8e6f7", "#1f4e89")        # (fill, stroke) of the host: CPU, its memory, PCIe
DEVICE = ("#dcefdc", "#26662a")      # the GPU, its SMs, its schedulers, kernels
THREAD = ("#d7eeeb", "#00665c")      # threads, lanes, warps
REGISTERS = ("#ece1f5", "#5b2a86")   # the memory levels, fastest to slowest
SHARED = ("#fde6cc", "#a34a00")
L2 = ("#f8efbf", "#6e5a00")
HBM = ("#eae1db", "#5a3d2b")
BAD = ("#f9d5d5", "#b71c1c")         # wasted bytes, conflicts
IDLE = ("#eeeeee", "#8a8a8a")        # lanes or values not in use

SANS = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"


# --- a small SVG writer --------------------------------------------------------------------

class LayoutError(Exception):
    """A diagram breaks a layout rule (raised, not asserted: python -O must not skip it)."""


def require(condition, message):
    if not condition:
        raise LayoutError(message)


def number(value):
    """A coordinate as text: at most two decimals, no trailing zeros (deterministic output)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


# Advance widths of DejaVu Sans (the widest of the fonts named), in em, for the estimates.
_NARROW = {c: 0.28 for c in "ijl|'!"}
_NARROW.update({c: 0.32 for c in " .,:;"})
_NARROW.update({c: 0.39 for c in "()[]{}frtI-"})
_NARROW.update({c: 0.34 for c in "/\\"})
_WIDE = {c: 0.98 for c in "mwMW%…—"}
_WIDE.update({c: 0.84 for c in "+=<>×→←≈·~^"})


def text_width(content, size, mono=False, bold=False):
    if mono:
        return len(content) * 0.602 * size
    em = 0.0
    for char in content:
        if char in _NARROW:
            em += _NARROW[char]
        elif char in _WIDE:
            em += _WIDE[char]
        elif char.isdigit():
            em += 0.64
        elif char.isupper():
            em += 0.72
        else:
            em += 0.62
    return em * size * (1.15 if bold else 1.0)


def segments(content):
    """'a `code` b' -> [('a ', False), ('code', True), (' b', False)]: backquotes mark code."""
    parts = content.split("`")
    return [(part, index % 2 == 1) for index, part in enumerate(parts) if part]


class Svg:
    """One diagram: shapes and text in slide pixels, checked against the layout rules."""

    def __init__(self, name, width, height, title):
        require(width <= MAX_WIDTH and height <= MAX_HEIGHT, f"{name}: {width} x {height} is too large")
        self.name, self.width, self.height, self.title = name, width, height, title
        self.items, self.arrows = [], set()
        self.extents = []  # ((left, top, right, bottom), text) of every text drawn

    # shapes
    def rect(self, x, y, w, h, colours, stroke_width=1.5, rx=3, dash=None):
        fill, stroke = colours
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.items.append(f'<rect x="{number(x)}" y="{number(y)}" width="{number(w)}" height="{number(h)}" '
                          f'rx="{number(rx)}" fill="{fill}" stroke="{stroke}" '
                          f'stroke-width="{number(stroke_width)}"{extra}/>')

    def line(self, x1, y1, x2, y2, colour=INK, width=1.5, arrow=False, dash=None, both=False):
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        if arrow or both:
            self.arrows.add(colour)
            marker = f'url(#arrow-{colour[1:]})'
            extra += f' marker-end="{marker}"' + (f' marker-start="{marker}"' if both else "")
        self.items.append(f'<line x1="{number(x1)}" y1="{number(y1)}" x2="{number(x2)}" y2="{number(y2)}" '
                          f'stroke="{colour}" stroke-width="{number(width)}"{extra}/>')

    def polyline(self, points, colour=INK, width=1.5, arrow=False):
        extra = ""
        if arrow:
            self.arrows.add(colour)
            extra = f' marker-end="url(#arrow-{colour[1:]})"'
        coordinates = " ".join(f"{number(x)},{number(y)}" for x, y in points)
        self.items.append(f'<polyline points="{coordinates}" fill="none" stroke="{colour}" '
                          f'stroke-width="{number(width)}"{extra}/>')

    # text
    def text(self, x, y, content, size=16, anchor="start", bold=False, colour=INK, box=None, mono=False):
        """`content` at baseline y; backquoted parts in monospace (all of it with mono=True).
        `box` (x, y, w, h): the text must fit inside it."""
        require(size >= MIN_TEXT, f"{self.name}: text {content!r} at {size} px")
        parts = [(content, True)] if mono else segments(content)
        width = sum(text_width(part, size, code, bold) for part, code in parts)
        left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
        top, bottom = y - 0.76 * size, y + 0.24 * size
        where = f"{self.name}: text {content!r} ({number(left)}..{number(left + width)}, " \
                f"{number(top)}..{number(bottom)})"
        require(left >= 0 and left + width <= self.width and top >= 0 and bottom <= self.height,
                where + f" leaves the canvas {self.width} x {self.height}")
        if box is not None:
            bx, by, bw, bh = box
            require(left >= bx and left + width <= bx + bw and top >= by and bottom <= by + bh,
                    where + f" leaves its box {box}")
        extent = (left - TEXT_GAP, top, left + width + TEXT_GAP, bottom)
        for other, what in self.extents:
            require(extent[2] <= other[0] or other[2] <= extent[0] or extent[3] <= other[1]
                    or other[3] <= extent[1], where + f" overlaps the text {what!r}")
        self.extents.append((extent, content))
        attributes = f'x="{number(x)}" y="{number(y)}" font-size="{number(size)}"'
        if anchor != "start":
            attributes += f' text-anchor="{anchor}"'
        if bold:
            attributes += ' font-weight="bold"'
        if colour != INK:
            attributes += f' fill="{colour}"'
        if len(parts) == 1 and parts[0][1]:
            attributes += f' font-family="{MONO}"'
            body = html.escape(parts[0][0], quote=False)
        elif len(parts) == 1:
            body = html.escape(parts[0][0], quote=False)
        else:
            body = "".join(f'<tspan font-family="{MONO}">{html.escape(p, quote=False)}</tspan>' if code
                           else html.escape(p, quote=False) for p, code in parts)
        self.items.append(f"<text {attributes}>{body}</text>")
        return width

    def label_in(self, x, y, w, h, content, size=16, bold=False, colour=INK, mono=False):
        """Text centred in the box (x, y, w, h), checked to fit in it."""
        self.text(x + w / 2, y + h / 2 + 0.36 * size, content, size, "middle", bold, colour,
                  box=(x, y, w, h), mono=mono)

    def render(self, function):
        defs = "".join(
            f'<marker id="arrow-{c[1:]}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="11" '
            f'markerHeight="11" markerUnits="userSpaceOnUse" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{c}"/></marker>'
            for c in sorted(self.arrows))
        lines = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
            f'viewBox="0 0 {self.width} {self.height}" font-family="{SANS}" role="img" '
            f'aria-label="{html.escape(self.title)}">',
            f"<!-- Drawn by tools/course_tools/authoring/diagrams.py, {function}(): edit it there, then run tools/course diagrams. -->",
            f"<title>{html.escape(self.title, quote=False)}</title>",
        ]
        if defs:
            lines.append(f"<defs>{defs}</defs>")
        lines.append(f'<rect x="0" y="0" width="{self.width}" height="{self.height}" fill="{PAPER}"/>')
        lines += self.items
        lines.append("</svg>")
        return "\n".join(lines) + "\n"


def source_line(svg, content, y=None):
    """The diagram's provenance, in small muted text along its bottom."""
    svg.text(10, svg.height - 8 if y is None else y, content, size=14, colour=MUTED)


# --- Part I ------------------------------------------------------------------------------------

def host_device():
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


def sm_warps():
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


def memory_hierarchy():
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


def grid_index():
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


def coalescing():
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


# --- Part II ------------------------------------------------------------------------------------

def warp_shuffle():
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


def histogram_privatised():
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


# --- Part III ------------------------------------------------------------------------------------

def reduction_tree():
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


def csr():
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


def sgemm_tiles():
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


def register_blocking():
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


def transpose_tile():
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


def transpose_banks():
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


def streams_timeline():
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


# --- the command -------------------------------------------------------------------------------

DIAGRAMS = [host_device, sm_warps, memory_hierarchy, grid_index, coalescing, warp_shuffle,
            histogram_privatised, reduction_tree, csr, sgemm_tiles, register_blocking,
            transpose_tile, transpose_banks, streams_timeline]


def drawn():
    """{file name: SVG text} of every diagram."""
    result = {}
    for function in DIAGRAMS:
        svg = function()
        require(svg.name == function.__name__, f"{function.__name__} draws {svg.name}")
        result[svg.name + ".svg"] = svg.render(function.__name__)
    return result


def main(argv):
    parser = argparse.ArgumentParser(prog=argv[0], description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--output", default=DIAGRAMS_DIR)
    options = parser.parse_args(argv[1:])
    try:
        diagrams = drawn()
    except LayoutError as error:
        print(f"diagrams: {error}", file=sys.stderr)
        return 1
    folder = os.path.abspath(options.output)
    shown = os.path.relpath(folder, ROOT) if folder.startswith(ROOT + os.sep) else folder
    if options.check:
        present = sorted(n for n in os.listdir(folder) if n.endswith(".svg")) if os.path.isdir(folder) else []
        problems = [f"{shown}/{n}: no function in tools/course_tools/authoring/diagrams.py draws it (remove it, or add one)"
                    for n in present if n not in diagrams]
        for name, text in sorted(diagrams.items()):
            path = os.path.join(folder, name)
            if not os.path.isfile(path):
                problems.append(f"{shown}/{name}: missing: run tools/course diagrams")
                continue
            with open(path, encoding="utf-8") as handle:
                if handle.read() != text:
                    problems.append(f"{shown}/{name}: out of date: run tools/course diagrams and commit it")
        for problem in problems:
            print(f"diagrams: {problem}", file=sys.stderr)
        if problems:
            return 1
        print(f"diagrams: the {len(diagrams)} diagrams in {shown} are what tools/course diagrams draws")
        return 0
    os.makedirs(folder, exist_ok=True)
    for name, text in sorted(diagrams.items()):
        with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
            handle.write(text)
    print(f"diagrams: wrote {len(diagrams)} diagrams into {shown}")
    return 0
