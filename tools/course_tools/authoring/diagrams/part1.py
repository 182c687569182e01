"""The diagrams of Part I's deck (slides/part1.md and part1.fr.md), in the order the deck shows them.

Each is drawn at the size it is shown (1 unit = 1 pixel of the slide, at most 1168 wide), every
text at 18 px or more, once in English and once in French: say("English", "Français").
"""
from course_tools.authoring.diagrams.numbers import (
    CARD, PCIE_ONE_WAY_GBS, PCIE_BOTH_WAYS_GBS, COPY_CEILING_GBS, H100_SMS, H100_GPCS, GH100_FULL_SMS,
    H100_HBM_STACKS, H100_SUBPARTITIONS, H100_FP32_LANES_PER_PARTITION, H100_REGISTERS,
    H100_THREADS_PER_SM, H100_L1_SHARED_KB, H100_SHARED_MAX_KB, H100_L2_MB, H100_HBM_GB, H100_HBM_TBS,
    SECTOR_BYTES, WARP, LATENCY)
from course_tools.authoring.diagrams.svg import (Svg, source_line, diagram, INK, MUTED, HOST, DEVICE, THREAD,
                                                 REGISTERS, SHARED, L2, HBM, BAD, IDLE)

WHITE_HOST, WHITE_DEVICE = ("#ffffff", HOST[1]), ("#ffffff", DEVICE[1])
CHOSEN = (THREAD[1], THREAD[1])  # a thread or warp singled out: filled dark, white text
# Ready warps and active lanes against waiting warps and masked lanes (sm_warps, simd_simt): a
# saturated teal against white with a dashed grey border, told apart on a projector too.
READY = ("#6cc4ba", THREAD[1])
WAITING, WAITING_DASH = ("#ffffff", IDLE[1]), "4,3"
FP32_LANES_PER_SM = H100_SUBPARTITIONS * H100_FP32_LANES_PER_PARTITION


def thousands(value, say):
    """12,345 in English, 12 345 in French (a no-break space)."""
    return say(f"{value:,}", f"{value:,}".replace(",", "\u00a0"))


def decimal(value, say):
    return say(f"{value}", f"{value}".replace(".", ","))


def box(svg, x, y, w, h, colours, lines, size=18, bold_first=True, stroke=1.5):
    """A box with lines of text centred in it, the first in bold."""
    svg.rect(x, y, w, h, colours, stroke)
    leading = size * 1.3
    first = y + h / 2 - leading * (len(lines) - 1) / 2 + 0.36 * size
    for index, content in enumerate(lines):
        svg.text(x + w / 2, first + index * leading, content, size, "middle",
                 bold=bold_first and index == 0, box=(x, y, w, h))


@diagram("01", "04")
def cpu_gpu(say):
    svg = Svg("cpu_gpu", 1168, 430, say("A CPU: a few large cores; a GPU: many simple lanes",
                                         "Un CPU : quelques gros cœurs ; un GPU : beaucoup d'unités simples"))
    # The CPU: large cores, most of the chip is control and cache.
    svg.rect(10, 10, 560, 300, HOST, 2)
    svg.text(290, 42, say("CPU: a few large cores", "CPU : quelques gros cœurs"), 22, "middle", bold=True,
             colour=HOST[1])
    for i in range(4):
        x, y = 30 + (i % 2) * 170, 62 + (i // 2) * 112
        svg.rect(x, y, 155, 100, WHITE_HOST)
        svg.rect(x + 8, y + 8, 139, 38, HOST, 1)
        svg.label_in(x + 8, y + 8, 139, 38, say("control", "contrôle"), 18)
        svg.rect(x + 8, y + 54, 139, 38, DEVICE, 1)
        svg.label_in(x + 8, y + 54, 139, 38, say("arithmetic", "calcul"), 18)
    svg.rect(370, 62, 180, 212, L2)
    svg.label_in(370, 62, 180, 212, say("large caches", "grands caches"), 20, bold=True)
    svg.text(290, 340, say("makes one thread fast: short latency", "rend un thread rapide : latence courte"),
             20, "middle", bold=True)
    svg.text(290, 368, say("branch prediction, out-of-order execution", "prédiction, exécution dans le désordre"),
             18, "middle")
    # The GPU: many SMs, each full of simple lanes.
    svg.rect(598, 10, 560, 300, DEVICE, 2)
    svg.text(878, 42, say("GPU: many simple lanes", "GPU : beaucoup d'unités simples"), 22, "middle", bold=True,
             colour=DEVICE[1])
    for i in range(12):
        x, y = 614 + (i % 4) * 134, 58 + (i // 4) * 70
        svg.rect(x, y, 126, 62, WHITE_DEVICE)
        svg.rect(x + 4, y + 4, 118, 10, HOST, 1, rx=1)
        for lane in range(32):
            svg.rect(x + 5 + (lane % 16) * 7.3, y + 20 + (lane // 16) * 19, 6, 16, DEVICE, 0.8, rx=0)
    svg.rect(614, 268, 530, 32, L2)
    svg.label_in(614, 268, 530, 32, say("shared L2 cache", "cache L2 commun"), 18, bold=True)
    svg.text(878, 340, say("makes many threads fast in total: throughput", "rend beaucoup de threads rapides : débit"),
             20, "middle", bold=True)
    svg.text(878, 368, say("while some warps wait for memory, others compute",
                           "pendant que des warps attendent, d'autres calculent"), 18, "middle")
    source_line(svg, say(f"A schematic (areas not to scale). {CARD} SXM: {H100_SMS} SMs × {FP32_LANES_PER_SM} "
                         f"FP32 lanes = {H100_SMS * FP32_LANES_PER_SM:,} lanes.",
                         f"Schéma (surfaces non à l'échelle). {CARD} SXM : {H100_SMS} SM × {FP32_LANES_PER_SM} "
                         f"unités FP32 = {thousands(H100_SMS * FP32_LANES_PER_SM, say)} unités."), y=418)
    return svg


@diagram("01", "03")
def host_device(say):
    svg = Svg("host_device", 1168, 470, say("Host and device: PCIe and HBM bandwidths measured on an H100",
                                             "Hôte et périphérique : débits du PCIe et de la HBM mesurés sur un H100"))
    svg.rect(10, 10, 320, 380, HOST, 2)
    svg.text(170, 42, say("Host", "Hôte"), 24, "middle", bold=True, colour=HOST[1])
    box(svg, 30, 60, 280, 90, WHITE_HOST, [say("CPU cores", "cœurs du CPU"),
                                            say("run the program,", "exécutent le programme,"),
                                            say("launch kernels", "lancent les kernels")])
    svg.rect(30, 170, 280, 200, WHITE_HOST)
    svg.label_in(30, 170, 280, 44, say("host memory (DRAM)", "mémoire de l'hôte"), 20, bold=True)
    box(svg, 50, 224, 240, 130, HOST, [say("pinned buffer", "tampon épinglé"), "`cudaMallocHost`"])
    # The bus.
    svg.text(460, 120, "PCIe", 24, "middle", bold=True, colour=HOST[1])
    svg.line(338, 176, 582, 176, HOST[1], 3, arrow=True)
    svg.text(460, 164, say(f"to the device: {PCIE_ONE_WAY_GBS} GB/s", f"vers le GPU : {PCIE_ONE_WAY_GBS} GB/s"),
             18, "middle")
    svg.line(582, 226, 338, 226, HOST[1], 3, arrow=True)
    svg.text(460, 252, say(f"back: {PCIE_ONE_WAY_GBS} GB/s", f"retour : {PCIE_ONE_WAY_GBS} GB/s"), 18, "middle")
    svg.text(460, 292, say("both ways at once:", "les deux sens à la fois :"), 18, "middle")
    svg.text(460, 316, say(f"{PCIE_BOTH_WAYS_GBS} GB/s together", f"{PCIE_BOTH_WAYS_GBS} GB/s en tout"), 18,
             "middle", bold=True)
    # The device.
    svg.rect(590, 10, 568, 380, DEVICE, 2)
    svg.text(874, 42, say(f"Device: {CARD} SXM", f"Périphérique : {CARD} SXM"), 24, "middle", bold=True,
             colour=DEVICE[1])
    svg.rect(610, 60, 528, 86, WHITE_DEVICE)
    svg.text(628, 92, say(f"{H100_SMS} SMs", f"{H100_SMS} SM"), 20, bold=True)
    for i in range(10):
        svg.rect(740 + i * 34, 74, 28, 24, DEVICE, 1, rx=2)
    svg.text(1090, 92, "…", 20)
    svg.text(628, 130, say("registers, L1 and shared memory in each", "registres, L1 et mémoire partagée dans chacun"),
             18)
    svg.rect(610, 160, 528, 40, L2)
    svg.label_in(610, 160, 528, 40, say(f"L2 cache, {H100_L2_MB} MiB", f"cache L2, {H100_L2_MB} MiB"), 20, bold=True)
    svg.line(640, 204, 640, 286, HBM[1], 4, both=True)
    svg.text(662, 234, say(f"device-to-device copy: {COPY_CEILING_GBS:,} GB/s",
                           f"copie dans le GPU : {thousands(COPY_CEILING_GBS, say)} GB/s"), 20, bold=True)
    ratio = round(COPY_CEILING_GBS / PCIE_ONE_WAY_GBS / 10) * 10
    svg.text(662, 262, say(f"(specified: {H100_HBM_TBS} TB/s), about {ratio}× the bus",
                           f"(spécifié : {decimal(H100_HBM_TBS, say)} TB/s), environ {ratio} × le bus"), 18)
    box(svg, 610, 294, 528, 80, HBM, [say(f"HBM3: global memory, {H100_HBM_GB} GB", f"HBM3 : mémoire globale, {H100_HBM_GB} GB"),
                                       say("where `cudaMalloc` allocates", "là où alloue `cudaMalloc`")], size=20)
    source_line(svg, say(f"{CARD} SXM on PCIe, measured: the bus by exercise 23 (128 MiB, pinned), the copy by one "
                         "run of exercise 09 (2^26 floats).",
                         f"{CARD} SXM sur PCIe, mesuré : le bus par l'exercice 23 (128 MiB, mémoire épinglée), la "
                         "copie par l'exercice 09 (2^26 floats)."), y=424)
    source_line(svg, say("Each run measures its own copy ceiling. Pageable memory is first copied into a pinned "
                         "buffer by the CPU.",
                         "Chaque exécution mesure son plafond. La mémoire paginable est d'abord copiée par le CPU "
                         "dans un tampon épinglé."), y=456)
    return svg


@diagram("01")
def whole_chip(say):
    svg = Svg("whole_chip", 1168, 470, say(f"The whole {CARD}: {H100_GPCS} GPCs of SMs around one L2 cache, HBM3 beside",
                                            f"Le {CARD} entier : {H100_GPCS} GPC de SM autour d'un cache L2, la HBM3 à côté"))
    chip_x, chip_w = 150, 868
    svg.rect(chip_x, 10, chip_w, 380, DEVICE, 2)
    svg.text(chip_x + chip_w / 2, 38, say(f"{CARD} SXM: {H100_SMS} SMs in {H100_GPCS} GPCs (graphics processing clusters)",
                                          f"{CARD} SXM : {H100_SMS} SM en {H100_GPCS} GPC (graphics processing clusters)"),
             20, "middle", bold=True, colour=DEVICE[1])
    per_gpc = [H100_SMS // H100_GPCS + (1 if g < H100_SMS % H100_GPCS else 0) for g in range(H100_GPCS)]
    gpc_w, gpc_h = 200, 118
    for g, sms in enumerate(per_gpc):
        row, column = divmod(g, 4)
        x, y = chip_x + 18 + column * (gpc_w + 10), 56 + row * (gpc_h + 84)
        svg.rect(x, y, gpc_w, gpc_h, WHITE_DEVICE)
        svg.text(x + 10, y + 24, f"GPC {g}", 18, bold=True)
        svg.text(x + gpc_w - 10, y + 24, say(f"{sms} SMs", f"{sms} SM"), 18, "end")
        for s in range(sms):
            svg.rect(x + 10 + (s % 9) * 20.5, y + 38 + (s // 9) * 38, 17, 32, DEVICE, 1, rx=2)
    svg.rect(chip_x + 18, 56 + gpc_h + 14, chip_w - 36, 56, L2)
    svg.label_in(chip_x + 18, 56 + gpc_h + 14, chip_w - 36, 56,
                 say(f"L2 cache: {H100_L2_MB} MiB, shared by every SM", f"cache L2 : {H100_L2_MB} MiB, commun à tous les SM"),
                 20, bold=True)
    # The HBM3 stacks beside the chip, and PCIe below.
    stacks = [(10, 60), (10, 170), (10, 280), (1028, 90), (1028, 230)]
    for x, y in stacks[:H100_HBM_STACKS]:
        svg.rect(x, y, 130, 96, HBM, 1.5)
        svg.label_in(x, y, 130, 48, "HBM3", 20, bold=True)
        svg.label_in(x, y + 44, 130, 40, say("stack", "pile"), 18)
        svg.line(x + (130 if x < chip_x else 0), y + 48, chip_x if x < chip_x else chip_x + chip_w, y + 48, HBM[1], 3)
    svg.text(584, 418, say(f"{H100_HBM_STACKS} HBM3 stacks: {H100_HBM_GB} GB, {H100_HBM_TBS} TB/s, every SM reaches all",
                           f"{H100_HBM_STACKS} piles HBM3 : {H100_HBM_GB} GB, {decimal(H100_HBM_TBS, say)} TB/s, "
                           "tout SM les atteint"), 20, "middle", bold=True, colour=HBM[1])
    source_line(svg, say(f"{CARD} SXM specifications (the full GH100 die has {GH100_FULL_SMS} SMs). SMs per GPC: "
                         "an illustration, it varies from chip to chip.",
                         f"Spécifications du {CARD} SXM (la puce GH100 complète a {GH100_FULL_SMS} SM). SM par GPC : "
                         "une illustration, variable d'une puce à l'autre."), y=456)
    return svg


@diagram("01")
def sm_warps(say):
    svg = Svg("sm_warps", 1168, 500, say("One H100 SM: four sub-partitions, each with a warp scheduler",
                                          "Un SM de H100 : quatre sous-partitions, chacune avec un ordonnanceur de warps"))
    svg.rect(10, 10, 1148, 396, DEVICE, 2)
    svg.text(30, 42, say(f"One SM ({CARD}: {H100_SMS} on the chip)", f"Un SM ({CARD} : {H100_SMS} sur la puce)"),
             22, bold=True, colour=DEVICE[1])
    warps = H100_THREADS_PER_SM // WARP
    svg.text(1140, 42, say(f"{H100_THREADS_PER_SM:,} threads = {warps} warps resident, "
                           f"{warps // H100_SUBPARTITIONS} per scheduler",
                           f"{thousands(H100_THREADS_PER_SM, say)} threads = {warps} warps résidents, "
                           f"{warps // H100_SUBPARTITIONS} par ordonnanceur"), 18, "end")
    # The warps' states, for the picture: one issues, some wait for memory, the rest are ready.
    waiting = {0: (1, 2, 5, 6, 9, 12, 13), 1: (0, 3, 4, 8, 10, 14), 2: (2, 3, 6, 7, 11, 15),
               3: (1, 4, 5, 9, 12, 13)}
    issuing = {0: 3, 1: 7, 2: 0, 3: 10}
    column_w, gap = 276, 8
    for p in range(H100_SUBPARTITIONS):
        x = 22 + p * (column_w + gap)
        svg.rect(x, 58, column_w, 262, ("#ffffff", DEVICE[1]))
        svg.text(x + column_w / 2, 82, say(f"sub-partition {p}", f"sous-partition {p}"), 18, "middle", bold=True)
        svg.rect(x + 10, 92, column_w - 20, 30, DEVICE)
        svg.label_in(x + 10, 92, column_w - 20, 30, say("warp scheduler", "ordonnanceur de warps"), 18, bold=True)
        for w in range(16):
            wx, wy = x + 10 + (w % 8) * 32, 130 + (w // 8) * 34
            state = CHOSEN if w == issuing[p] else WAITING if w in waiting[p] else READY
            waits = state is WAITING
            svg.rect(wx, wy, 30, 30, state, 1.5 if waits else 1, rx=2, dash=WAITING_DASH if waits else None)
            svg.label_in(wx, wy, 30, 30, f"{w}", 18, colour="#ffffff" if w == issuing[p] else INK)
        svg.rect(x + 10, 202, column_w - 20, 30, REGISTERS)
        svg.label_in(x + 10, 202, column_w - 20, 30,
                     say(f"{H100_REGISTERS // H100_SUBPARTITIONS:,} registers",
                         f"{thousands(H100_REGISTERS // H100_SUBPARTITIONS, say)} registres"), 18)
        for lane in range(H100_FP32_LANES_PER_PARTITION):
            lx, ly = x + 12 + (lane % 16) * 16, 242 + (lane // 16) * 18
            svg.rect(lx, ly, 13, 15, DEVICE, 1, rx=1)
        svg.text(x + column_w / 2, 306, say(f"{H100_FP32_LANES_PER_PARTITION} FP32 lanes",
                                            f"{H100_FP32_LANES_PER_PARTITION} unités FP32"), 18, "middle")
    svg.rect(22, 330, 1124, 66, SHARED)
    svg.label_in(22, 330, 1124, 36, say(f"L1 data cache and shared memory: {H100_L1_SHARED_KB} KiB, "
                                        f"of which up to {H100_SHARED_MAX_KB} KiB shared",
                                        f"cache L1 et mémoire partagée : {H100_L1_SHARED_KB} KiB, "
                                        f"dont jusqu'à {H100_SHARED_MAX_KB} KiB partagés"), 20, bold=True)
    svg.text(584, 386, say("used by the blocks resident on this SM", "pour les blocs résidents sur ce SM"), 18,
             "middle")
    # Legend.
    svg.rect(20, 420, 26, 22, CHOSEN, 1, rx=2)
    svg.text(54, 438, say("issues an instruction this clock", "émet une instruction à ce cycle"), 18)
    svg.rect(400, 420, 26, 22, READY, 1, rx=2)
    svg.text(434, 438, say("ready", "prêt"), 18)
    svg.rect(520, 420, 26, 22, WAITING, 1.5, rx=2, dash=WAITING_DASH)
    svg.text(554, 438, say("waits for memory: the scheduler picks another",
                           "attend la mémoire : l'ordonnanceur en prend un autre"), 18)
    source_line(svg, say(f"{CARD} SXM specifications: {H100_REGISTERS:,} registers and {H100_THREADS_PER_SM:,} threads "
                         "per SM. Warp numbers and states: an illustration.",
                         f"Spécifications du {CARD} SXM : {thousands(H100_REGISTERS, say)} registres et "
                         f"{thousands(H100_THREADS_PER_SM, say)} threads par SM. Numéros et états des warps : "
                         "une illustration."), y=488)
    return svg


@diagram("02")
def simd_simt(say):
    svg = Svg("simd_simt", 1168, 470, say("SIMD: one instruction on a vector register; SIMT: one instruction for a warp of threads",
                                           "SIMD : une instruction sur un registre vecteur ; SIMT : une instruction pour un warp de threads"))
    # SIMD.
    svg.rect(10, 10, 560, 400, HOST, 2)
    svg.text(290, 42, say("SIMD (a CPU's AVX)", "SIMD (l'AVX d'un CPU)"), 22, "middle", bold=True, colour=HOST[1])
    svg.text(30, 80, say("one thread, one instruction:", "un thread, une instruction :"), 18)
    svg.text(30, 108, "`vaddps ymm0, ymm1, ymm2`", 20, bold=True)
    for row, name in enumerate(("ymm1", "ymm2", "ymm0")):
        y = 134 + row * 58
        svg.text(30, y + 30, name, 18, mono=True)
        for lane in range(8):
            svg.rect(110 + lane * 54, y, 50, 42, WHITE_HOST if row < 2 else HOST, 1, rx=2)
            svg.label_in(110 + lane * 54, y, 50, 42, f"{lane}", 18)
    svg.text(30, 334, say("8 floats in one register; the program chooses", "8 floats dans un registre ; le programme"), 18)
    svg.text(30, 360, say("the width, and masks the odd ends itself", "choisit la largeur et masque les restes"), 18)
    svg.text(30, 390, say("(AVX-512: 16 floats)", "(AVX-512 : 16 floats)"), 18, colour=MUTED)
    # SIMT.
    svg.rect(598, 10, 560, 400, DEVICE, 2)
    svg.text(878, 42, say("SIMT (a GPU's warp)", "SIMT (le warp d'un GPU)"), 22, "middle", bold=True, colour=DEVICE[1])
    svg.text(618, 80, say("32 threads, each its own registers and index:", "32 threads, chacun ses registres et son indice :"), 18)
    svg.text(618, 108, "`y[i] = a * x[i] + y[i];`", 20, bold=True)
    cell = 12.5

    def warp(y, active, label):
        svg.text(618, y + 19, label, 18)
        for lane in range(WARP):
            on = active(lane)
            svg.rect(745 + lane * cell, y, cell - 2, 26, READY if on else WAITING, 1 if on else 1.2, rx=1,
                     dash=None if on else "3,2")

    warp(134, lambda lane: True, say("all 32", "les 32"))
    svg.text(618, 200, say("a branch: `if (i % 2 == 0) ... else ...`", "un branchement : `if (i % 2 == 0) ... else ...`"), 18)
    warp(216, lambda lane: lane % 2 == 0, say("then: even", "then : pairs"))
    warp(252, lambda lane: lane % 2 == 1, say("else: odd", "else : impairs"))
    svg.text(618, 310, say("the hardware masks the lanes of the other path:", "le matériel masque les threads de l'autre"), 18)
    svg.text(618, 336, say("both paths run, one after the other", "chemin : les deux s'exécutent l'un après l'autre"), 18)
    svg.text(618, 376, say("You write one thread's code; the GPU groups 32.", "On écrit le code d'un thread ; le GPU en groupe 32."), 18,
             bold=True)
    svg.rect(20, 428, 24, 20, READY, 1, rx=1)
    svg.text(52, 444, say("active lane", "thread actif"), 18)
    svg.rect(240, 428, 24, 20, WAITING, 1.2, rx=1, dash="3,2")
    svg.text(272, 444, say("masked: waits for the other path", "masqué : attend l'autre chemin"), 18)
    return svg


@diagram("01")
def memory_hierarchy(say):
    svg = Svg("memory_hierarchy", 1168, 480, say("The H100's memory hierarchy: sizes and approximate latencies",
                                                  "La hiérarchie mémoire du H100 : tailles et latences approximatives"))
    header_y, centre, size_x, latency_x, measured_x = 28, 270, 515, 815, 940
    svg.text(centre, header_y, say("level: who sees it", "niveau : qui le voit"), 18, "middle", bold=True)
    svg.text(size_x, header_y, say(f"size ({CARD} SXM)", f"taille ({CARD} SXM)"), 18, bold=True)
    svg.text(latency_x, header_y, say("latency", "latence"), 18, bold=True)
    svg.text(measured_x, header_y, say("measured", "mesuré"), 18, bold=True)
    rows = [
        (REGISTERS, say("registers: one thread", "registres : un thread"),
         say(f"{H100_REGISTERS:,} × 4 B per SM", f"{thousands(H100_REGISTERS, say)} × 4 octets par SM"),
         LATENCY["registers"], ""),
        (SHARED, say("shared: one block; L1: the SM", "partagée : un bloc ; L1 : le SM"),
         say(f"{H100_L1_SHARED_KB} KiB per SM", f"{H100_L1_SHARED_KB} KiB par SM"), LATENCY["shared"], ""),
        (L2, say("L2: the whole GPU", "L2 : tout le GPU"), f"{H100_L2_MB} MiB", LATENCY["l2"], ""),
        (HBM, say("HBM3, global: all threads", "HBM3, globale : tous"),
         say(f"{H100_HBM_GB} GB, {H100_HBM_TBS} TB/s", f"{H100_HBM_GB} GB, {decimal(H100_HBM_TBS, say)} TB/s"),
         LATENCY["hbm"], say(f"copy: {COPY_CEILING_GBS:,} GB/s", f"copie : {thousands(COPY_CEILING_GBS, say)} GB/s")),
        (HOST, say("host memory: the CPU", "mémoire de l'hôte : CPU"), say("the machine's RAM", "la RAM de la machine"),
         "", say(f"PCIe: {PCIE_ONE_WAY_GBS} GB/s", f"PCIe : {PCIE_ONE_WAY_GBS} GB/s")),
    ]
    row_h, top = 62, 42
    widths = (250, 340, 375, 410, 445)  # a pyramid, small and fast at the top; row 2's label is long
    for i, (colours, level, size, latency, measured) in enumerate(rows):
        y = top + i * row_h
        width = widths[i]
        svg.rect(centre - width / 2, y, width, row_h - 10, colours, 2)
        svg.label_in(centre - width / 2, y, width, row_h - 10, level, 18, bold=True)
        baseline = y + row_h / 2 + 2
        svg.text(size_x, baseline, size, 18)
        if latency:
            svg.text(latency_x, baseline, latency, 18)
        if measured:
            svg.text(measured_x, baseline, measured, 18, bold=True)
    svg.line(size_x - 15, top - 4, size_x - 15, top + 5 * row_h - 10, MUTED, 1)
    svg.line(16, top + 5 * row_h - 14, 16, top + 4, INK, 2, arrow=True)
    svg.lines(26, top + 20, [say("faster,", "plus rapide,"), say("smaller", "plus petit")], 18, leading=1.2)
    svg.text(10, 382, say("Latency: approximate, in SM clock cycles (orders of magnitude: they vary with the access and "
                          "the clock).",
                          "Latence : approximative, en cycles du SM (ordres de grandeur : elle varie avec l'accès et "
                          "l'horloge)."), 18)
    source_line(svg, say(f"Measured on the course's {CARD}: the device-to-device copy by exercise 09, PCIe (pinned, "
                         "one way) by exercise 23.",
                         f"Mesuré sur le {CARD} du cours : la copie dans le GPU par l'exercice 09, le PCIe (mémoire "
                         "épinglée, un sens) par l'exercice 23."), y=410)
    source_line(svg, say("The copy ceiling is one run's: each run, and each figure, measures its own.",
                         "Le plafond de copie est celui d'une exécution : chaque exécution, et chaque figure, "
                         "mesure le sien."), y=440)
    source_line(svg, say("Local memory (a thread's spilled registers) lives in HBM, cached in L1 and L2.",
                         "La mémoire locale (registres débordés d'un thread) est en HBM, en cache dans L1 et L2."), y=470)
    return svg


@diagram("01")
def compile_path(say):
    svg = Svg("compile_path", 1168, 500, say("From a .cu file to the GPU: PTX, SASS, the fatbinary and the driver's JIT",
                                              "D'un fichier .cu au GPU : PTX, SASS, le fatbinary et la compilation JIT du pilote"))
    box(svg, 10, 150, 150, 80, WHITE_HOST, ["`saxpy.cu`", say("host + device", "hôte + GPU")])
    box(svg, 200, 150, 120, 80, DEVICE, ["nvcc", say("splits", "sépare")])
    svg.line(160, 190, 198, 190, INK, 2, arrow=True)
    # Host path.
    box(svg, 370, 30, 220, 80, WHITE_HOST, [say("host code", "code hôte"), say("→ g++ → object", "→ g++ → objet")])
    svg.polyline([(260, 150), (260, 70), (368, 70)], INK, 2, arrow=True)
    # Device path.
    box(svg, 370, 250, 220, 90, WHITE_DEVICE, ["PTX", say("virtual ISA,", "jeu d'instructions"),
                                                say("`compute_90`", "virtuel, `compute_90`")])
    svg.polyline([(260, 230), (260, 295), (368, 295)], INK, 2, arrow=True)
    box(svg, 640, 250, 200, 90, DEVICE, ["SASS (cubin)", say("machine code,", "code machine,"), "`sm_90`"])
    svg.line(590, 295, 638, 295, INK, 2, arrow=True)
    svg.text(614, 240, "ptxas", 18, "middle")
    # The fatbinary, in the executable.
    svg.rect(880, 150, 270, 200, ("#ffffff", INK), 2)
    svg.text(1015, 178, say("executable", "exécutable"), 20, "middle", bold=True)
    box(svg, 895, 190, 240, 40, WHITE_HOST, [say("host code", "code hôte")])
    svg.rect(895, 240, 240, 98, L2)
    svg.text(1015, 264, "fatbinary", 18, "middle", bold=True)
    svg.text(1015, 292, say("SASS for `sm_90`", "SASS pour `sm_90`"), 18, "middle")
    svg.text(1015, 320, say("+ PTX for `compute_90`", "+ PTX de `compute_90`"), 18, "middle")
    svg.polyline([(590, 70), (1015, 70), (1015, 148)], INK, 2, arrow=True)
    svg.line(840, 295, 893, 295, INK, 2, arrow=True)
    svg.polyline([(480, 340), (480, 366), (860, 366), (860, 320), (893, 320)], INK, 1.5, arrow=True)
    # At run time.
    svg.rect(10, 390, 1140, 100, DEVICE, 1.5)
    svg.text(24, 418, say("At load time, the driver: SASS for this GPU? load it. Else compile the PTX for it (JIT), once,",
                          "Au chargement, le pilote : du SASS pour ce GPU ? il le charge. Sinon il compile le PTX (JIT),"),
             18, bold=True)
    svg.text(24, 444, say("kept in a cache: how a program built for 9.0 runs on a newer GPU.",
                          "une fois, gardé en cache : ainsi un programme compilé pour 9.0 tourne sur un GPU plus récent."), 18)
    svg.text(24, 474, say("`-arch=sm_90`: SASS for 9.0 + PTX.   `-arch=compute_90`: PTX only, compiled at load time.",
                          "`-arch=sm_90` : SASS 9.0 + PTX.   `-arch=compute_90` : PTX seul, compilé au chargement."), 18)
    return svg


@diagram("01")
def error_check(say):
    svg = Svg("error_check", 1168, 420, say("Every CUDA call returns a status: CUDA_CHECK stops at the first failure",
                                             "Chaque appel CUDA rend un statut : CUDA_CHECK s'arrête au premier échec"))
    svg.text(10, 28, say("A runtime call returns a `cudaError_t`:", "Un appel du runtime rend un `cudaError_t` :"), 20, bold=True)
    box(svg, 10, 48, 330, 70, WHITE_HOST, ["`CUDA_CHECK(cudaMalloc(...))`"], size=18)
    svg.polygon([(470, 48), (570, 83), (470, 118), (370, 83)], L2)
    svg.label_in(400, 60, 140, 46, "`cudaSuccess`?", 18)
    svg.line(340, 83, 368, 83, INK, 2, arrow=True)
    svg.line(470, 118, 470, 158, DEVICE[1], 2, arrow=True)
    svg.text(482, 146, say("yes: go on", "oui : on continue"), 18, colour=DEVICE[1], bold=True)
    svg.line(570, 83, 640, 83, BAD[1], 2, arrow=True)
    svg.text(578, 72, say("no", "non"), 18, colour=BAD[1], bold=True)
    box(svg, 642, 40, 516, 92, BAD, [say("print the call, file:line,", "affiche l'appel, fichier:ligne,"),
                                      say("the error's name and text; exit(1)", "le nom et le texte de l'erreur ; exit(1)")],
        bold_first=False)
    svg.text(10, 212, say("A launch returns nothing: ask afterwards.", "Un lancement ne rend rien : on demande ensuite."),
             20, bold=True)
    box(svg, 10, 232, 330, 60, WHITE_DEVICE, ["`kernel<<<g, b>>>(...)`"])
    box(svg, 380, 232, 360, 60, DEVICE, ["`CUDA_CHECK_LAUNCH()`"])
    svg.line(340, 262, 378, 262, INK, 2, arrow=True)
    svg.text(760, 256, say("`cudaGetLastError()`: a bad", "`cudaGetLastError()` : une mauvaise"), 18)
    svg.text(760, 282, say("configuration (2048 threads)", "configuration (2048 threads)"), 18)
    svg.text(10, 340, say("An error inside the kernel (an illegal address) shows at the next synchronising call,",
                          "Une erreur dans le kernel (adresse illégale) apparaît au prochain appel synchronisant,"), 18)
    svg.text(10, 366, say("for instance `cudaMemcpy` or `cudaDeviceSynchronize()`: `COURSE_DEBUG_SYNC=1` makes",
                          "par exemple `cudaMemcpy` ou `cudaDeviceSynchronize()` : `COURSE_DEBUG_SYNC=1` fait"), 18)
    svg.text(10, 392, say("`CUDA_CHECK_LAUNCH()` wait for the kernel, to pin the error to its launch.",
                          "attendre le kernel à `CUDA_CHECK_LAUNCH()`, pour rattacher l'erreur à son lancement."), 18)
    return svg


@diagram("02", "03")
def grid_index(say):
    blocks, threads = 4, 16
    svg = Svg("grid_index", 1168, 430, say("A grid of 4 blocks of 16 threads and the global index",
                                            "Une grille de 4 blocs de 16 threads et l'indice global"))
    cell, left, top = 48, 380, 72
    svg.text(10, 28, say("`kernel<<<4, 16>>>(...)`: gridDim.x = 4 blocks, blockDim.x = 16 threads",
                         "`kernel<<<4, 16>>>(...)` : gridDim.x = 4 blocs, blockDim.x = 16 threads"), 20, bold=True)
    svg.text(left - 12, top - 12, say("threadIdx.x:", "threadIdx.x :"), 18, "end")
    for t in range(threads):
        svg.text(left + t * cell + cell / 2, top - 12, str(t), 18, "middle", colour=THREAD[1], bold=True)
    for b in range(blocks):
        y = top + b * (cell + 8)
        svg.rect(left - 4, y - 3, threads * cell + 8, cell + 6, DEVICE, 1.5)
        svg.text(10, y + 20, say(f"block {b} (blockIdx.x = {b})", f"bloc {b} (blockIdx.x = {b})"), 18, bold=True)
        svg.text(10, y + 44, say(f"starts at {b} × 16 = {b * threads}", f"commence à {b} × 16 = {b * threads}"), 18,
                 colour=MUTED)
        for t in range(threads):
            index = b * threads + t
            chosen = (b, t) == (2, 5)
            svg.rect(left + t * cell + 2, y, cell - 4, cell, CHOSEN if chosen else THREAD, 1, rx=2)
            svg.label_in(left + t * cell + 2, y, cell - 4, cell, str(index), 18, bold=chosen,
                         colour="#ffffff" if chosen else INK)
    y = top + blocks * (cell + 8) + 36
    svg.text(10, y, say("global index = `blockIdx.x * blockDim.x + threadIdx.x`",
                        "indice global = `blockIdx.x * blockDim.x + threadIdx.x`"), 20, bold=True)
    svg.text(10, y + 32, say("thread 5 of block 2: 2 × 16 + 5 = 37, the element it works on",
                             "thread 5 du bloc 2 : 2 × 16 + 5 = 37, l'élément qu'il traite"), 20, colour=THREAD[1], bold=True)
    svg.text(1158, y + 64, say("in the cells: each thread's global index", "dans les cases : l'indice global de chaque thread"),
             18, "end", colour=MUTED)
    return svg


@diagram("02", "04")
def async_launch(say):
    svg = Svg("async_launch", 1168, 400, say("The host does not wait: a launch queues the kernel and returns",
                                              "L'hôte n'attend pas : un lancement met le kernel en file et rend la main"))
    host_y, device_y, lane_h = 60, 200, 70
    svg.text(10, host_y + 44, say("host", "hôte"), 22, bold=True, colour=HOST[1])
    svg.text(10, device_y + 44, "GPU", 22, bold=True, colour=DEVICE[1])
    svg.line(110, 350, 1150, 350, INK, 2, arrow=True)
    svg.text(1150, 380, say("time", "temps"), 18, "end")
    # Host: two launches, then its own work, then it waits.
    box(svg, 110, host_y, 110, lane_h, HOST, ["`k1<<<>>>`"], size=18)
    box(svg, 224, host_y, 110, lane_h, HOST, ["`k2<<<>>>`"], size=18)
    box(svg, 338, host_y, 320, lane_h, WHITE_HOST, [say("other host work", "autre travail de l'hôte")], bold_first=False)
    svg.rect(662, host_y, 380, lane_h, IDLE)
    svg.text(852, host_y + 30, "`cudaDeviceSynchronize()`", 18, "middle", box=(662, host_y, 380, lane_h))
    svg.text(852, host_y + 56, say("waits", "attend"), 18, "middle", box=(662, host_y, 380, lane_h))
    box(svg, 1046, host_y, 104, lane_h, HOST, [say("result", "résultat")], bold_first=False)
    # Device: the kernels run one after the other.
    box(svg, 240, device_y, 420, lane_h, DEVICE, ["k1"])
    box(svg, 664, device_y, 376, lane_h, DEVICE, ["k2"])
    svg.line(165, host_y + lane_h + 2, 250, device_y - 2, DEVICE[1], 1.5, arrow=True, dash="5,4")
    svg.line(279, host_y + lane_h + 2, 674, device_y - 2, DEVICE[1], 1.5, arrow=True, dash="5,4")
    svg.line(1040, device_y, 1044, host_y + lane_h + 2, HOST[1], 2, arrow=True)
    svg.text(130, 300, say("each launch returns at once (microseconds);", "chaque lancement rend la main aussitôt (µs) ;"), 18)
    svg.text(130, 326, say("the kernels run in order, later", "les kernels s'exécutent dans l'ordre, plus tard"), 18)
    svg.text(1034, 300, say("printf's lines appear here", "les lignes de printf sortent ici"), 18, "end", bold=True)
    return svg


@diagram("03")
def round_trip(say):
    svg = Svg("round_trip", 1168, 470, say("The round trip: allocate, copy in, compute, copy back, free",
                                            "L'aller-retour : allouer, copier, calculer, rapatrier, libérer"))
    svg.rect(10, 10, 400, 330, HOST, 2)
    svg.text(210, 42, say("host memory", "mémoire de l'hôte"), 22, "middle", bold=True, colour=HOST[1])
    box(svg, 60, 80, 300, 60, WHITE_HOST, ["`host_x`"])
    box(svg, 60, 240, 300, 60, WHITE_HOST, ["`host_y`"])
    svg.rect(758, 10, 400, 330, DEVICE, 2)
    svg.text(958, 42, say("device memory", "mémoire du GPU"), 22, "middle", bold=True, colour=DEVICE[1])
    box(svg, 808, 80, 300, 60, HBM, ["`device_x`"])
    box(svg, 808, 240, 300, 60, HBM, ["`device_y`"])
    svg.line(362, 110, 806, 110, HOST[1], 3, arrow=True)
    svg.text(584, 98, say("2. `cudaMemcpy`, host to device", "2. `cudaMemcpy`, hôte vers GPU"), 18, "middle", bold=True)
    svg.line(958, 142, 958, 238, DEVICE[1], 3, arrow=True)
    svg.text(948, 186, say("3. kernel:", "3. kernel :"), 18, "end", bold=True)
    svg.text(948, 212, "`affine_kernel`", 18, "end")
    svg.line(806, 270, 362, 270, HOST[1], 3, arrow=True)
    svg.text(584, 258, say("4. `cudaMemcpy`, device to host", "4. `cudaMemcpy`, GPU vers hôte"), 18, "middle", bold=True)
    svg.text(584, 170, say("1. `cudaMalloc` both", "1. `cudaMalloc` des deux"), 18, "middle", bold=True)
    svg.text(584, 196, say("5. `cudaFree` both, at the end", "5. `cudaFree` des deux, à la fin"), 18, "middle", bold=True)
    # Rounding up, and the bounds check.
    svg.text(10, 380, say("n = 1000, 256 threads per block: (1000 + 255) / 256 = 4 blocks = 1024 threads",
                          "n = 1000, 256 threads par bloc : (1000 + 255) / 256 = 4 blocs = 1024 threads"), 18, bold=True)
    width = 1148 / 1024
    for b in range(4):
        svg.rect(10 + b * 256 * width, 396, 256 * width - 2, 30, THREAD, 1, rx=0)
        svg.label_in(10 + b * 256 * width, 396, 256 * width - 2, 30, say(f"block {b}", f"bloc {b}"), 18)
    svg.rect(10 + 1000 * width, 396, 24 * width, 30, BAD, 1, rx=0)
    svg.text(1158, 456, say("the last 24 threads: `i >= n`, they must not write", "les 24 derniers : `i >= n`, ils ne doivent rien écrire"),
             18, "end", colour=BAD[1], bold=True)
    return svg


@diagram("04")
def event_timing(say):
    svg = Svg("event_timing", 1168, 400, say("Timing with CUDA events: stamped by the GPU, around the kernel",
                                              "Mesurer avec des événements CUDA : datés par le GPU, autour du kernel"))
    host_y, stream_y, lane_h = 56, 196, 64
    svg.text(10, host_y + 40, say("host", "hôte"), 22, bold=True, colour=HOST[1])
    svg.text(10, stream_y + 40, "stream", 22, bold=True, colour=DEVICE[1])
    box(svg, 120, host_y, 150, lane_h, HOST, ["`start()`"])
    box(svg, 274, host_y, 120, lane_h, HOST, [say("launch", "lancement")])
    box(svg, 398, host_y, 150, lane_h, HOST, ["`stop()`"])
    svg.rect(552, host_y, 460, lane_h, IDLE)
    svg.text(782, host_y + 40, say("`elapsed_ms()`: `cudaEventSynchronize(stop)`", "`elapsed_ms()` : `cudaEventSynchronize(stop)`"),
             18, "middle", box=(552, host_y, 460, lane_h))
    box(svg, 1016, host_y, 142, lane_h, HOST, ["ms"])
    # The stream: event, kernel, event.
    svg.polygon([(300, stream_y), (320, stream_y + lane_h / 2), (300, stream_y + lane_h), (280, stream_y + lane_h / 2)], L2)
    svg.polygon([(960, stream_y), (980, stream_y + lane_h / 2), (960, stream_y + lane_h), (940, stream_y + lane_h / 2)], L2)
    box(svg, 324, stream_y, 612, lane_h, DEVICE, ["`heavy_kernel`"])
    svg.line(195, host_y + lane_h + 2, 296, stream_y - 2, INK, 1.5, arrow=True, dash="5,4")
    svg.line(334, host_y + lane_h + 2, 420, stream_y - 2, DEVICE[1], 1.5, arrow=True, dash="5,4")
    svg.line(473, host_y + lane_h + 2, 956, stream_y - 2, INK, 1.5, arrow=True, dash="5,4")
    svg.line(300, stream_y + lane_h + 22, 960, stream_y + lane_h + 22, DEVICE[1], 2, both=True)
    svg.text(630, stream_y + lane_h + 50, say("`cudaEventElapsedTime(&ms, start, stop)`: the kernel's own time",
                                              "`cudaEventElapsedTime(&ms, start, stop)` : le temps du kernel seul"),
             18, "middle", bold=True)
    svg.line(120, 354, 548, 354, BAD[1], 2, both=True)
    svg.text(120, 386, say("a host clock around the launch alone: microseconds, not the kernel",
                           "une horloge de l'hôte autour du seul lancement : des µs, pas le kernel"), 18, colour=BAD[1])
    return svg


@diagram("05")
def blocks_3d(say):
    bx, by, bz = 8, 4, 2
    svg = Svg("blocks_3d", 1168, 470, say("A block of 8 x 4 x 2 threads: x is the fastest, a warp is 32 consecutive numbers",
                                           "Un bloc de 8 x 4 x 2 threads : x varie le plus vite, un warp est 32 numéros consécutifs"))
    svg.text(10, 28, say("`dim3 block(8, 4, 2)`: 64 threads, two warps", "`dim3 block(8, 4, 2)` : 64 threads, deux warps"), 20,
             bold=True)
    cell = 52
    for z in range(bz):
        left, top = 60 + z * 520, 90
        svg.text(left, top - 16, f"z = {z}", 20, bold=True)
        for y in range(by):
            svg.text(left - 8, top + y * cell + 33, f"y = {y}" if z == 0 else f"{y}", 18, "end")
            for x in range(bx):
                number = x + y * bx + z * bx * by
                colours = THREAD if number < WARP else SHARED
                svg.rect(left + x * cell + 2, top + y * cell + 2, cell - 4, cell - 4, colours, 1, rx=2)
                svg.label_in(left + x * cell + 2, top + y * cell + 2, cell - 4, cell - 4, str(number), 18)
        svg.line(left, top + by * cell + 14, left + bx * cell, top + by * cell + 14, INK, 2, arrow=True)
        svg.text(left + bx * cell / 2, top + by * cell + 40, say("x: threadIdx.x, neighbours in memory",
                                                                 "x : threadIdx.x, voisins en mémoire"), 18, "middle")
    svg.text(10, 370, say("thread number = `x + y * 8 + z * 8 * 4`   (x + y · bx + z · bx · by)",
                          "numéro du thread = `x + y * 8 + z * 8 * 4`   (x + y · bx + z · bx · by)"), 20, bold=True)
    svg.rect(10, 392, 26, 22, THREAD, 1, rx=2)
    svg.text(44, 410, say("warp 0: threads 0-31 (z = 0)", "warp 0 : threads 0-31 (z = 0)"), 18)
    svg.rect(400, 392, 26, 22, SHARED, 1, rx=2)
    svg.text(434, 410, say("warp 1: threads 32-63 (z = 1)", "warp 1 : threads 32-63 (z = 1)"), 18)
    svg.text(10, 450, say("Limits: bx, by ≤ 1024, bz ≤ 64, bx · by · bz ≤ 1024 threads per block.",
                          "Limites : bx, by ≤ 1024, bz ≤ 64, bx · by · bz ≤ 1024 threads par bloc."), 18, colour=MUTED)
    return svg


@diagram("06")
def row_col_major(say):
    svg = Svg("row_col_major", 1168, 460, say("Row-major memory read column-major is the transpose: how cuBLAS computes C = A B",
                                               "Une mémoire rangée par lignes lue par colonnes est la transposée : C = A B avec cuBLAS"))
    cell = 56
    # The matrix A, 2 x 3, row-major.
    svg.text(10, 30, say("A (2 × 3), as C stores it", "A (2 × 3), en C"), 20, bold=True)
    letters = "abcdef"
    for i in range(2):
        for j in range(3):
            svg.rect(40 + j * cell, 50 + i * cell, cell - 4, cell - 4, WHITE_HOST, 1.5, rx=2)
            svg.label_in(40 + j * cell, 50 + i * cell, cell - 4, cell - 4, letters[i * 3 + j], 22, bold=True)
    # Memory.
    svg.text(330, 30, say("memory: row after row, `a[i * lda + j]`", "mémoire : ligne après ligne, `a[i * lda + j]`"), 20,
             bold=True)
    for k in range(6):
        colours = HOST if k < 3 else SHARED
        svg.rect(330 + k * cell, 64, cell - 4, cell - 4, colours, 1.5, rx=0)
        svg.label_in(330 + k * cell, 64, cell - 4, cell - 4, letters[k], 22, bold=True)
    svg.line(220, 92, 326, 92, INK, 2, arrow=True)
    # Read column-major with leading dimension 3: a 3 x 2 matrix, the transpose.
    svg.line(500, 122, 500, 168, INK, 2, arrow=True)
    svg.text(520, 152, say("cuBLAS reads it column after column (Fortran's order)",
                           "cuBLAS la lit colonne après colonne (l'ordre du Fortran)"), 20)
    svg.text(546, 204, say("cuBLAS sees Aᵀ (3 × 2):", "cuBLAS voit Aᵀ (3 × 2) :"), 20, "end", bold=True)
    for j in range(2):
        for i in range(3):
            colours = HOST if j == 0 else SHARED
            svg.rect(560 + j * cell, 180 + i * cell, cell - 4, cell - 4, colours, 1.5, rx=2)
            svg.label_in(560 + j * cell, 180 + i * cell, cell - 4, cell - 4, letters[j * 3 + i], 22, bold=True)
    # The consequence.
    svg.rect(10, 366, 1148, 86, L2)
    svg.text(24, 396, say("C = A B  is the same as  Cᵀ = Bᵀ Aᵀ: ask cuBLAS for Bᵀ Aᵀ, column-major, transposing nothing:",
                          "C = A B  équivaut à  Cᵀ = Bᵀ Aᵀ : demander Bᵀ Aᵀ à cuBLAS, par colonnes, sans rien transposer :"),
             18, bold=True)
    svg.text(24, 428, say("pass B first, then A, and the sizes n, m, k: its column-major Cᵀ is our row-major C.",
                          "B d'abord, puis A, et les tailles n, m, k : sa Cᵀ par colonnes est notre C par lignes."), 18)
    svg.text(790, 212, say("row i of A", "ligne i de A"), 18)
    svg.text(790, 238, say("= column i of Aᵀ", "= colonne i de Aᵀ"), 18)
    return svg


@diagram("05", "07")
def coalescing(say):
    svg = Svg("coalescing", 1168, 470, say("A warp's loads: coalesced (4 sectors) vs strided (32 sectors)",
                                            "Les lectures d'un warp : coalescées (4 secteurs) ou à pas (32 secteurs)"))
    lane_w, left = 32, 110

    def lanes(y):
        svg.text(left - 10, y + 21, "warp", 18, "end", bold=True)
        for lane in range(WARP):
            svg.rect(left + lane * lane_w + 1, y, lane_w - 2, 28, THREAD, 1, rx=2)
            if lane % 8 == 0 or lane == WARP - 1:
                svg.label_in(left + lane * lane_w + 1, y, lane_w - 2, 28, str(lane), 18)

    svg.text(10, 26, say("Coalesced: lane i reads `x[i]`, 32 neighbouring floats",
                         "Coalescé : le thread i lit `x[i]`, 32 floats voisins"), 20, bold=True)
    lanes(40)
    memory_y = 110
    for lane in range(WARP):
        svg.line(left + lane * lane_w + 16, 69, left + lane * lane_w + 16, memory_y - 2, THREAD[1], 1)
        svg.rect(left + lane * lane_w, memory_y, lane_w, 28, (HBM[1], "#ffffff"), 1, rx=0)
    for s in range(4):
        svg.rect(left + s * 8 * lane_w, memory_y, 8 * lane_w, 28, ("none", INK), 2.5, rx=0)
        svg.text(left + s * 8 * lane_w + 4 * lane_w, memory_y + 50, say(f"sector {s}: all used", f"secteur {s} : tout sert"),
                 18, "middle")
    svg.text(left - 10, memory_y + 21, "HBM", 18, "end", bold=True)
    svg.text(1158, memory_y + 80, say("1 request: 4 sectors, 128 B moved, 128 B used",
                                      "1 requête : 4 secteurs, 128 octets déplacés, 128 octets utiles"), 20, "end", bold=True,
             colour=DEVICE[1])
    top = 236
    svg.text(10, top, say("Strided: lane i reads row i (`x[i * cols]`), rows `cols` floats apart",
                          "À pas : le thread i lit la ligne i (`x[i * cols]`), à `cols` floats d'écart"), 20, bold=True)
    lanes(top + 14)
    memory_y = top + 84
    cell, shown = 20, 4
    span = 8 * cell + 40
    for s in range(shown):
        x = left + s * span
        svg.rect(x, memory_y, cell, 28, (HBM[1], "#ffffff"), 1, rx=0)
        for c in range(1, 8):
            svg.rect(x + c * cell, memory_y, cell, 28, BAD, 1, rx=0)
        svg.rect(x, memory_y, 8 * cell, 28, ("none", INK), 2.5, rx=0)
        svg.line(left + s * lane_w + 16, top + 43, x + cell / 2, memory_y - 2, THREAD[1], 1.2)
        if s < shown - 1:
            svg.text(x + 8 * cell + 25, memory_y + 21, "…", 18, "middle")
    more_x = left + shown * span
    for lane in range(shown, WARP):
        svg.line(left + lane * lane_w + 16, top + 43, more_x + 10, memory_y - 2, THREAD[1], 1, dash="3,3")
    svg.text(more_x + 4, memory_y + 21, say("… 28 more sectors", "… 28 secteurs de plus"), 18)
    svg.text(left - 10, memory_y + 21, "HBM", 18, "end", bold=True)
    svg.rect(left, memory_y + 44, 22, 20, (HBM[1], "#ffffff"), 1, rx=0)
    svg.text(left + 30, memory_y + 61, say("4 B used", "4 octets utiles"), 18)
    svg.rect(left + 150, memory_y + 44, 22, 20, BAD, 1, rx=0)
    svg.text(left + 180, memory_y + 61, say("moved, unused", "déplacés, inutiles"), 18)
    svg.text(1158, memory_y + 96, say("1 request: 32 sectors, 1024 B moved, 128 B used",
                                      "1 requête : 32 secteurs, 1024 octets déplacés, 128 octets utiles"), 20, "end", bold=True,
             colour=BAD[1])
    source_line(svg, say(f"Memory moves in sectors of {SECTOR_BYTES} bytes: exercises 05 and 07 count them per request "
                         "(Nsight Compute).",
                         f"La mémoire se déplace par secteurs de {SECTOR_BYTES} octets : les exercices 05 et 07 les "
                         "comptent par requête."), y=460)
    return svg


@diagram("07")
def grid_2d(say):
    svg = Svg("grid_2d", 1168, 480, say("A 2D grid of 32 x 8 blocks over a matrix: rounded up, the edge blocks test",
                                         "Une grille 2D de blocs 32 x 8 sur une matrice : arrondie au-dessus, les blocs du bord testent"))
    bw, bh, columns, rows = 140, 80, 4, 4
    left, top = 150, 60
    svg.text(10, 28, "`dim3 block(32, 8); dim3 grid(ceil(cols / 32), ceil(rows / 8));`", 20, bold=True)
    matrix_w, matrix_h = 3.2 * bw, 3.5 * bh  # the right edge clear of the labels "(3, r)", centred at 3.5 bw
    for r in range(rows):
        for c in range(columns):
            x, y = left + c * bw, top + r * bh
            chosen = (r, c) == (1, 2)
            svg.rect(x, y, bw, bh, SHARED if chosen else IDLE, 1)
            svg.label_in(x, y + 4, bw, 30, f"({c}, {r})", 18, bold=chosen)
    svg.rect(left, top, matrix_w, matrix_h, ("none", DEVICE[1]), 3, rx=0)
    svg.text(left, top + rows * bh + 28, say("green border: the matrix, rows × cols floats",
                                             "bord vert : la matrice, rows × cols floats"),
             18, bold=True, colour=DEVICE[1])
    svg.text(left - 10, top + 26, "blockIdx.y", 18, "end")
    svg.line(left - 20, top + 40, left - 20, top + rows * bh, INK, 1.5, arrow=True)
    svg.text(left + columns * bw, top - 10, "blockIdx.x →", 18, "end")
    # The rule, on the right.
    x = 730
    svg.lines(x, 96, [say("Each block: 32 columns × 8 rows", "Chaque bloc : 32 colonnes × 8 lignes"),
                      say("of threads, x along the row.", "de threads, x le long de la ligne.")], 18, bold=True)
    svg.lines(x, 180, ["`col = blockIdx.x * 32 + threadIdx.x`", "`row = blockIdx.y * 8 + threadIdx.y`"], 18)
    svg.lines(x, 262, [say("A warp: 32 neighbouring columns", "Un warp : 32 colonnes voisines"),
                       say("of one row, 128 contiguous bytes.", "d'une ligne, 128 octets contigus.")], 18)
    svg.lines(x, 340, [say("Blocks past the last row or", "Les blocs qui dépassent la dernière"),
                       say("column test", "ligne ou colonne testent"), "`row < rows && col < cols`."], 18)
    svg.rect(10, 440, 26, 22, SHARED, 1)
    svg.text(44, 457, say("block (2, 1)", "bloc (2, 1)"), 18)
    svg.rect(240, 440, 26, 22, IDLE, 1)
    svg.text(274, 457, say("a block; outside the matrix, its threads do nothing", "un bloc ; hors de la matrice, ses threads ne font rien"),
             18)
    return svg


@diagram("08")
def ctypes_path(say):
    svg = Svg("ctypes_path", 1168, 420, say("From Python or C to the GPU: ctypes, a shared library with C names, the CUDA runtime",
                                             "De Python ou de C au GPU : ctypes, une bibliothèque partagée aux noms C, le runtime CUDA"))
    w, h, top = 200, 110, 60
    stages = [
        (WHITE_HOST, ["Python", "`veclib.py`", say("NumPy arrays", "tableaux NumPy")]),
        (HOST, ["ctypes", "`CDLL(path)`", "`argtypes`"]),
        (L2, [say("shared library", "bibliothèque"), "`.so`, `extern \"C\"`", "`vec_saxpy`"]),
        (DEVICE, [say("CUDA runtime", "runtime CUDA"), "`cudaMalloc`", say("copies, launch", "copies, lancement")]),
        (WHITE_DEVICE, ["GPU", "`saxpy_kernel`"]),
    ]
    for i, (colours, lines) in enumerate(stages):
        x = 10 + i * (w + 37)
        box(svg, x, top, w, h, colours, lines)
        if i:
            svg.line(x - 35, top + 40, x - 2, top + 40, INK, 2, arrow=True)
            svg.line(x - 2, top + 80, x - 35, top + 80, BAD[1], 2, arrow=True)
    svg.text(10, top + h + 40, say("on the way (black): the call, by its C name; back (red): a `veclib_status`, "
                                   "never an `exit()`",
                                   "à l'aller (noir) : l'appel, par son nom C ; au retour (rouge) : un `veclib_status`, "
                                   "jamais un `exit()`"),
             18, bold=True)
    svg.text(10, top + h + 68, say("Python turns a failed status into `VecLibError`, with `veclib_last_error_message()`.",
                                   "Python transforme un statut d'échec en `VecLibError`, avec "
                                   "`veclib_last_error_message()`."), 18)
    # The C path into the same library.
    box(svg, 10, 290, 320, 90, WHITE_HOST, [say("C program", "programme C"), "`c_program.c`, `c_caller.c`"])
    svg.line(330, 335, 490, 335, INK, 2, arrow=True)
    svg.text(410, 325, say("linked", "lié"), 18, "middle")
    box(svg, 492, 290, 656, 90, L2, [say("the same object, `veclib.o`: C names, no mangling",
                                         "le même objet, `veclib.o` : noms C, sans décoration"),
                                     say("(C++ would export `_Z9vec_saxpyfPKfPfm`)", "(le C++ exporterait `_Z9vec_saxpyfPKfPfm`)")],
        bold_first=False)
    return svg


DIAGRAMS = [cpu_gpu, host_device, whole_chip, sm_warps, simd_simt, memory_hierarchy, compile_path, error_check,
            grid_index, async_launch, round_trip, event_timing, blocks_3d, row_col_major, coalescing, grid_2d,
            ctypes_path]
