"""The diagrams of Part II's deck (slides/part2.md and part2.fr.md), in the order the deck shows them."""

from course_tools.authoring.diagrams.numbers import (CARD, COPY_CEILING_GBS, GAUSSIAN_SHARES, HISTOGRAM_SPEEDUP,
                                                     PCIE_ONE_WAY_GBS, WARP)
from course_tools.authoring.diagrams.svg import (Svg, source_line, diagram, INK, MUTED, HOST, DEVICE, THREAD,
                                                 REGISTERS, SHARED, L2, HBM, BAD, IDLE)

WHITE_DEVICE = ("#ffffff", DEVICE[1])
WHITE_HOST = ("#ffffff", HOST[1])


@diagram()
def copy_ceiling(say):
    svg = Svg("copy_ceiling", 1100, 440, say("A kernel's GB/s as a share of the copy ceiling measured in the same run",
              "Les GB/s d'un kernel en part du plafond de copie mesuré dans la même exécution"))
    svg.text(10, 28, say("Both timed in the same run, on the same GPU:", "Les deux, chronométrés dans la même "
                         "exécution, sur le même GPU :"), 20, bold=True)
    # The two measurements, side by side.
    for x, colours, title, lines in (
            (10, DEVICE, say("your kernel", "votre kernel"),
             [say("bytes read + bytes written", "octets lus + octets écrits"),
              say("÷ kernel time (events)", "÷ durée du kernel (événements)")]),
            (560, HBM, say("the ceiling: `cudaMemcpy`", "le plafond : `cudaMemcpy`"),
             [say("device to device, same size", "entre deux tampons du GPU, même taille"),
              say("reads and writes at the memory's top speed", "lit et écrit au plus vite")])):
        svg.rect(x, 46, 530, 118, colours, 2)
        svg.text(x + 16, 78, title, 20, bold=True, colour=colours[1])
        svg.lines(x + 16, 110, lines, 19)
    svg.text(550, 206, say("share = kernel GB/s ÷ ceiling GB/s", "part = GB/s du kernel ÷ GB/s du plafond"), 22,
             "middle", bold=True)
    # Exercise 09's Gaussian kernels, measured against the ceiling.
    left, scale, top = 420, 620 / 100, 226
    svg.rect(left, top, 100 * scale, 30, HBM, 1.5, rx=0)
    svg.text(left + 100 * scale - 8, top + 22, f"{COPY_CEILING_GBS} GB/s = 100 %", 18, "end", bold=True)
    svg.text(left - 12, top + 22, say("copy ceiling", "plafond de la copie"), 19, "end", bold=True)
    labels = {"divisions": say("two divisions per element", "deux divisions par élément"),
              "factors": say("factors computed on the host", "facteurs calculés sur l'hôte"),
              "copy kernel": say("a plain copy kernel", "un simple kernel de copie"),
              "float4": say("`float4` chunks, no division", "morceaux `float4`, sans division")}
    for row, (key, share) in enumerate(GAUSSIAN_SHARES):
        y = top + 42 + row * 34
        svg.rect(left, y, share * scale, 26, DEVICE, 1.2, rx=0)
        svg.text(left + share * scale + 8, y + 20, f"{share} %", 18, bold=True)
        svg.text(left - 12, y + 20, labels[key], 18, "end")
    source_line(svg, say(f"{CARD}, exercise 09's statement: the Gaussian kernels at 2^26 floats, median of 21 runs.",
                         f"{CARD}, énoncé de l'exercice 09 : les kernels gaussiens sur 2^26 floats, médiane de 21 "
                         "exécutions."), y=430)
    return svg


@diagram("09")
def elementwise_launch(say):
    svg = Svg("elementwise_launch", 1100, 440, say("One thread per element; the block count rounded up",
              "Un thread par élément ; le nombre de blocs arrondi à l'entier supérieur"))
    svg.text(10, 28, say("One thread per element: thread `i` computes `y[i] = f(a[i], b[i])`",
                         "Un thread par élément : le thread `i` calcule `y[i] = f(a[i], b[i])`"), 20, bold=True)
    # The three arrays, and one thread's element.
    cell, left, count = 44, 150, 18
    for row, name in enumerate(("a", "b", "y")):
        y = 60 + row * 58
        svg.text(left - 14, y + 27, f"`{name}`", 20, "end")
        for k in range(count):
            colours = REGISTERS if k == 9 else (HBM if name != "y" else SHARED)
            svg.rect(left + k * cell, y, cell - 4, 36, colours, 1.2, rx=2)
    svg.text(left + 9 * cell + 20, 56, "i", 18, "middle", bold=True)
    svg.line(left + 9 * cell + 20, 98, left + 9 * cell + 20, 174, REGISTERS[1], 2.5, arrow=True)
    svg.text(left + 9 * cell + 44, 162, "f", 20, bold=True, colour=REGISTERS[1])
    svg.text(left + count * cell + 4, 162, say("no element", "aucun élément"), 18, colour=MUTED)
    svg.text(left + count * cell + 4, 184, say("needs another", "n'en attend"), 18, colour=MUTED)
    # The blocks of the launch: n = 1000 in blocks of 256 -> 4 blocks, the last one partial.
    n, threads = 1000, 256
    blocks = (n + threads - 1) // threads
    top, width = 236, 1080 / blocks
    for b in range(blocks):
        x = 10 + b * width
        svg.rect(x + 2, top, width - 4, 70, DEVICE, 2)
        first, last = b * threads, b * threads + threads - 1
        svg.text(x + 14, top + 28, say(f"block {b}", f"bloc {b}"), 19, bold=True, colour=DEVICE[1])
        if last < n:
            svg.text(x + 14, top + 56, f"i = {first} … {last}", 18)
        else:
            live = (n - first) / threads * (width - 28)
            svg.rect(x + 14 + live, top + 8, width - 28 - live, 56, BAD, 1.2, rx=2)
            svg.text(x + 14, top + 56, f"i = {first} … {n - 1}", 18)
            svg.text(x + width - 10, top + 96, say(f"i ≥ n: {last - n + 1} threads return", f"i ≥ n : {last - n + 1} "
                                                   "threads ne font rien"), 18, "end", colour=BAD[1])
    svg.text(10, 350, say(f"n = {n}, {threads} threads per block:", f"n = {n}, {threads} threads par bloc :"), 20,
             bold=True)
    svg.text(10, 380, f"blocks = (n + {threads - 1}) / {threads} = {blocks}", 20, mono=True)
    svg.text(10, 412, say("rounded up; the kernel tests `i < n`; n = 0: no launch at all",
                          "arrondi à l'entier supérieur ; le kernel teste `i < n` ; n = 0 : aucun lancement"), 19)
    svg.text(1090, 412, say("schematic", "schéma"), 18, "end", colour=MUTED)
    return svg


@diagram("09")
def functor_transform(say):
    svg = Svg("functor_transform", 1100, 420, say("A functor carried by value into one template kernel",
              "Un foncteur passé par valeur à un kernel modèle unique"))
    # The host side: the functor object.
    svg.rect(10, 10, 400, 330, HOST, 2)
    svg.text(28, 42, say("host", "hôte"), 22, bold=True, colour=HOST[1])
    svg.rect(28, 60, 364, 150, WHITE_HOST)
    svg.text(44, 90, "`GaussianPdf{mean, sigma}`", 19)
    svg.lines(44, 124, ["mean", "inverse_sigma", "normalisation"], 19, mono=True)
    svg.text(28, 246, say("the constructor runs here,", "le constructeur s'exécute ici,"), 19)
    svg.text(28, 272, say("once: no division", "une fois : aucune division"), 19)
    svg.text(28, 298, say("left for the GPU", "ne reste au GPU"), 19)
    # The launch: the object travels with the kernel's arguments.
    svg.line(414, 135, 600, 135, INK, 3, arrow=True)
    svg.text(507, 118, say("copied by value", "copié par valeur"), 18, "middle", bold=True)
    svg.text(507, 162, say("with the", "avec les"), 18, "middle")
    svg.text(507, 186, say("arguments", "arguments"), 18, "middle")
    # The device side: one instantiation per functor.
    svg.rect(606, 10, 484, 330, DEVICE, 2)
    svg.text(624, 42, say("device", "GPU"), 22, bold=True, colour=DEVICE[1])
    svg.rect(624, 60, 448, 150, WHITE_DEVICE)
    svg.text(640, 90, "`transform_kernel<GaussianPdf>`", 19)
    svg.text(640, 124, say("each thread, element `i`:", "chaque thread, élément `i` :"), 19)
    svg.text(660, 156, "y[i] = op(x[i]);", 19, mono=True)
    svg.text(640, 190, say("`op()` inlined: no call", "`op()` incorporé : aucun appel"), 19)
    svg.text(624, 246, say("one kernel per functor type:", "un kernel par type de foncteur :"), 19)
    svg.text(624, 272, "`transform_kernel<Add>`, ...", 19)
    svg.text(624, 298, say("each as fast as a handwritten one", "chacun vaut un kernel écrit à la main"),
             19)
    svg.text(10, 378, say("`transform(GaussianPdf{mean, sigma}, n, y, x)`: one call, the launch included",
                          "`transform(GaussianPdf{mean, sigma}, n, y, x)` : un appel, lancement compris"), 20)
    svg.text(10, 408, say("A `__device__` lambda would do too (nvcc's `--extended-lambda`).",
                          "Une lambda `__device__` conviendrait aussi (option `--extended-lambda` de nvcc)."), 19,
             colour=MUTED)
    return svg


@diagram("09", "13")
def float4_tail(say):
    svg = Svg("float4_tail", 1100, 420, say("Chunks of four floats, then the last n % 4 one by one",
              "Des morceaux de quatre floats, puis les n % 4 derniers un par un"))
    n, cell, left = 22, 47, 30
    chunks = n // 4
    svg.text(10, 28, say(f"n = {n} floats: {chunks} `float4` chunks, then the last {n % 4} one by one",
                         f"n = {n} floats : {chunks} morceaux `float4`, puis les {n % 4} derniers un par un"),
             20, bold=True)
    for k in range(n):
        chunk = k // 4
        colours = THREAD if chunk < chunks and chunk % 2 == 0 else (REGISTERS if chunk < chunks else SHARED)
        svg.rect(left + k * cell, 50, cell - 4, 40, colours, 1.2, rx=2)
        svg.label_in(left + k * cell, 50, cell - 4, 40, str(k), 18)
    for c in range(chunks):
        x0, x1 = left + c * 4 * cell, left + (c + 1) * 4 * cell - 4
        svg.polyline([(x0, 98), (x0, 108), (x1, 108), (x1, 98)], INK, 1.5)
        svg.text((x0 + x1) / 2, 132, say(f"chunk {c}", f"morceau {c}"), 18, "middle", bold=True)
    tail = left + chunks * 4 * cell
    svg.polyline([(tail, 98), (tail, 108), (tail + (n % 4) * cell - 4, 108), (tail + (n % 4) * cell - 4, 98)],
                 SHARED[1], 1.5)
    svg.text(tail + (n % 4) * cell / 2, 132, say("tail", "reste"), 18, "middle", bold=True, colour=SHARED[1])
    svg.lines(10, 182, [
        say("09: a thread takes chunk `c`, floats 4c to 4c + 3: one `float4` load per array when it is whole",
            "09 : un thread prend le morceau `c`, floats 4c à 4c + 3 : une lecture `float4` par tableau s'il est "
            "entier"),
        say("The tail, the last n % 4 floats: one thread, one float at a time (11, 13, 14: one per thread)",
            "Le reste, les n % 4 derniers floats : un thread, un float à la fois (11, 13, 14 : un par thread)"),
        say("Only where every pointer is 16-byte aligned; otherwise every float goes one at a time",
            "Seulement si chaque pointeur est aligné sur 16 octets ; sinon chaque float passe un à un")], 19,
        leading=1.55)
    # Why: bytes in flight per warp load instruction.
    svg.text(10, 300, say("One load instruction of a warp:", "Une instruction de chargement d'un warp :"), 20,
             bold=True)
    for row, (label, lanes_bytes, colours) in enumerate((("`float`", 4, HBM), ("`float4`", 16, THREAD))):
        y = 316 + row * 44
        svg.text(120, y + 25, label, 20, "end")
        width = WARP * lanes_bytes * 1.2
        svg.rect(132, y, width, 34, colours, 1.2, rx=0)
        svg.text(132 + width + 10, y + 25, say(f"{WARP} x {lanes_bytes} = {WARP * lanes_bytes} bytes",
                                               f"{WARP} x {lanes_bytes} = {WARP * lanes_bytes} octets"), 19)
    return svg


@diagram("10")
def round_trips(say):
    svg = Svg("round_trips", 1100, 440, say("A round trip over the bus at every step, or the data kept on the device",
              "Un aller-retour sur le bus à chaque étape, ou les données gardées sur le GPU"))
    unit, left = 28, 200

    def bar(x, y, w, colours, label):
        svg.rect(x, y, w, 40, colours, 1.2, rx=2)
        svg.label_in(x, y, w, 40, label, 18)

    rows = [
        (say("a round trip", "un aller-retour"), say("per step", "par étape"), 40,
         [("pulses", 4), ("out", 3), ("in", 6), ("noise", 4), ("out", 3), ("in", 3), ("zero", 4), ("out", 3)]),
        (say("kept on", "gardées sur"), say("the device", "le GPU"), 230,
         [("in", 3), ("pulses", 4), ("noise", 4), ("zero", 4), ("out", 3)]),
    ]
    names = {"in": say("in", "aller"), "out": say("out", "retour"), "pulses": say("pulses", "impulsions"),
             "noise": say("+ noise", "+ bruit"), "zero": say("suppress", "supprimer")}
    for title, subtitle, y, steps in rows:
        svg.text(10, y + 20, title, 20, bold=True)
        svg.text(10, y + 46, subtitle, 20, bold=True)
        x = left
        for kind, length in steps:
            colours = HOST if kind in ("in", "out") else DEVICE
            bar(x, y + 4, length * unit, colours, names[kind])
            x += length * unit + 4
        total = x - left
        svg.line(left, y + 62, left + total, y + 62, MUTED, 1.2, both=True)
    svg.text(left, 124, say("every step copies its inputs in and its output back: 3 n floats each way",
                            "chaque étape copie ses entrées et renvoie sa sortie : 3 n floats dans chaque sens"), 19)
    svg.text(left, 156, say(f"bus: {PCIE_ONE_WAY_GBS} GB/s ({CARD}, pinned); device memory: "
                            f"{COPY_CEILING_GBS} GB/s", f"bus : {PCIE_ONE_WAY_GBS} GB/s ({CARD}, mémoire "
                            f"épinglée) ; mémoire du GPU : {COPY_CEILING_GBS} GB/s"), 19, colour=MUTED)
    svg.text(left, 316, say("the noise in, the waveform out: n floats each way, nothing else crosses",
                            "le bruit à l'aller, la forme d'onde au retour : n floats dans chaque sens"), 19)
    # Legend.
    svg.rect(10, 370, 30, 24, HOST, 1.2, rx=2)
    svg.text(50, 389, say("a copy over PCIe", "une copie sur PCIe"), 19)
    svg.rect(290, 370, 30, 24, DEVICE, 1.2, rx=2)
    svg.text(330, 389, say("a kernel", "un kernel"), 19)
    source_line(svg, say("Schematic: the bars' lengths are not measured; copies cost far more than these kernels.",
                          "Schéma : la longueur des barres n'est pas mesurée ; les copies coûtent bien plus que ces "
                          "kernels."), y=428)
    return svg


@diagram("10")
def pinned_pageable(say):
    svg = Svg("pinned_pageable", 1100, 420, say("Pageable copies go through a pinned staging buffer; pinned ones go by DMA",
              "Les copies paginables passent par un tampon épinglé ; les épinglées partent par DMA"))

    def box(x, y, w, colours, line1, line2=None):
        svg.rect(x, y, w, 76, colours, 1.8)
        if line2 is None:
            svg.label_in(x, y, w, 76, line1, 19, bold=True)
        else:
            svg.label_in(x, y + 4, w, 36, line1, 19, bold=True)
            svg.label_in(x, y + 38, w, 34, line2, 18)

    # Pageable.
    svg.text(10, 30, say("Pageable memory (`new`, `std::vector`, `malloc`): two copies",
                         "Mémoire paginable (`new`, `std::vector`, `malloc`) : deux copies"), 20, bold=True)
    box(10, 48, 250, IDLE, say("your buffer", "votre tampon"), say("pageable", "paginable"))
    svg.line(264, 86, 400, 86, HOST[1], 2.5, arrow=True)
    svg.text(332, 74, say("CPU copy", "copie CPU"), 18, "middle")
    box(404, 48, 290, HOST, say("driver's staging", "tampon du pilote"), say("pinned", "épinglé"))
    svg.line(698, 86, 834, 86, HOST[1], 2.5, arrow=True)
    svg.text(766, 74, "DMA", 18, "middle", bold=True)
    box(838, 48, 252, HBM, say("device memory", "mémoire du GPU"))
    svg.text(10, 160, say("an async copy from it does not overlap anything: the CPU copy holds the host",
                          "une copie asynchrone depuis elle ne recouvre rien : la copie CPU occupe l'hôte"), 19)
    # Pinned.
    svg.text(10, 222, say("Pinned memory (`cudaMallocHost`): one copy, by the GPU's DMA engine",
                          "Mémoire épinglée (`cudaMallocHost`) : une copie, par le moteur de copie du GPU"), 20, bold=True)
    box(10, 240, 250, HOST, say("your buffer", "votre tampon"), say("pinned", "épinglé"))
    svg.line(264, 278, 834, 278, HOST[1], 3, arrow=True)
    svg.text(549, 266, say(f"DMA over PCIe: {PCIE_ONE_WAY_GBS} GB/s one way ({CARD})",
                           f"DMA sur PCIe : {PCIE_ONE_WAY_GBS} GB/s dans un sens ({CARD})"), 18, "middle", bold=True)
    box(838, 240, 252, HBM, say("device memory", "mémoire du GPU"))
    svg.lines(10, 356, [
        say("The OS never moves a pinned page, so the GPU may read it while the CPU works on.",
            "Le système ne déplace jamais une page épinglée : le GPU la lit pendant que le CPU travaille."),
        say("Pinning is slow to allocate and takes RAM from the system: allocate once, reuse.",
            "Épingler est lent et prend de la RAM au système : allouer une fois, réutiliser.")], 19)
    source_line(svg, say("Bus figure: exercise 23, 128 MiB from pinned memory.",
                         "Débit du bus : exercice 23, 128 MiB depuis la mémoire épinglée."), y=410)
    return svg


@diagram("10")
def unified_memory(say):
    svg = Svg("unified_memory", 1100, 440, say("Unified (managed) memory: a page fault per first touch, or one prefetch",
              "Mémoire unifiée : un défaut de page par premier accès, ou un préchargement"))
    pages, page_w, left = 8, 56, 250
    svg.text(10, 28, say("`cudaMallocManaged`: one pointer; the driver moves its pages between host and device",
                         "`cudaMallocManaged` : un seul pointeur ; le pilote déplace ses pages entre l'hôte et le GPU"),
             19, bold=True)
    # No hint: the kernel stalls at each page it touches first.
    svg.text(10, 84, say("no hint", "sans indication"), 20, bold=True)
    x = left
    for p in range(pages):
        svg.rect(x, 60, 40, 36, BAD, 1.2, rx=2)
        svg.label_in(x, 60, 40, 36, "!", 18, bold=True, colour=BAD[1])
        svg.rect(x + 42, 60, page_w + 4, 36, DEVICE, 1.2, rx=2)
        x += 42 + page_w + 8
    svg.text(10, 128, say("each first touch from the GPU: a page fault, the page migrated while the kernel waits",
                            "chaque premier accès du GPU : un défaut de page, la page migrée pendant que le kernel "
                            "attend"), 18)
    # Prefetch: the whole range in the stream's order, then a kernel without faults.
    svg.text(10, 216, say("prefetch", "préchargement"), 20, bold=True)
    svg.rect(left, 192, 300, 36, HOST, 1.2, rx=2)
    svg.label_in(left, 192, 300, 36, "`cudaMemPrefetchAsync`", 18)
    svg.rect(left + 304, 192, pages * page_w + 10, 36, DEVICE, 1.2, rx=2)
    svg.label_in(left + 304, 192, pages * page_w + 10, 36, say("kernel: no fault", "kernel : aucun défaut"), 18,
                 bold=True)
    svg.text(10, 260, say("the whole range moved in bulk, in the stream's order, before the kernel",
                            "toute la plage déplacée d'un bloc, dans l'ordre du stream, avant le kernel"), 18)
    # Legend and what the host must still do.
    svg.rect(10, 300, 40, 28, BAD, 1.2, rx=2)
    svg.label_in(10, 300, 40, 28, "!", 18, bold=True, colour=BAD[1])
    svg.text(60, 321, say("a page fault served", "un défaut de page servi"), 19)
    svg.rect(330, 300, 40, 28, DEVICE, 1.2, rx=2)
    svg.text(380, 321, say("the kernel computes", "le kernel calcule"), 19)
    svg.rect(640, 300, 40, 28, HOST, 1.2, rx=2)
    svg.text(690, 321, say("a bulk migration", "une migration groupée"), 19)
    svg.text(10, 372, say("Either way the host waits for the stream (`cudaStreamSynchronize`) before it reads.",
                          "Dans les deux cas, l'hôte attend le stream (`cudaStreamSynchronize`) avant de lire."), 19)
    svg.text(10, 420, say("Schematic: how long the faults take is the question the statement asks you to measure.",
                          "Schéma : la durée des défauts est ce que l'énoncé vous demande de mesurer."), 18,
             colour=MUTED)
    return svg


@diagram("11")
def fusion(say):
    svg = Svg("fusion", 1100, 450, say("Three kernels move 7 arrays through memory; the fused kernel 3",
              "Trois kernels font passer 7 tableaux par la mémoire ; le kernel fusionné 3"))
    memory_y = 300

    def kernel(x, w, label):
        svg.rect(x, 130, w, 56, DEVICE, 2)
        svg.label_in(x, 130, w, 56, label, 19, bold=True)

    def array(x, label, colours=HBM):
        svg.rect(x, memory_y, 84, 40, colours, 1.2, rx=2)
        svg.label_in(x, memory_y, 84, 40, label, 18, mono=True)

    for x, w in ((10, 690), (720, 370)):
        svg.rect(x, memory_y - 10, w, 60, ("#f7f3f0", HBM[1]), 1.2)
    svg.text(20, memory_y + 80, say("global memory (HBM)", "mémoire globale (HBM)"), 19, bold=True, colour=HBM[1])
    svg.text(10, 30, say("three kernels: 4 arrays read + 3 written = 7", "trois kernels : 4 tableaux lus + 3 écrits = 7"),
             20, bold=True)
    # The three kernels: normalise, weigh, activate; each reads and writes global memory.
    placed = {"x": 30, "t1": 150, "w": 300, "t2": 420, "y": 600}
    for name, x in placed.items():
        array(x, name, SHARED if name.startswith("t") else HBM)
    steps = [(20, say("normalise", "normaliser"), ["x"], "t1"),
             (250, say("weigh", "pondérer"), ["t1", "w"], "t2"),
             (480, say("activate", "activer"), ["t2"], "y")]
    for x, label, inputs, output in steps:
        kernel(x, 200, label)
        for k, name in enumerate(inputs):
            svg.line(placed[name] + 42, memory_y - 12, x + 50 + k * 50, 190, HBM[1], 2, arrow=True)
        svg.line(x + 150, 190, placed[output] + 42, memory_y - 12, DEVICE[1], 2, arrow=True)
    svg.text(360, 100, say("t1, t2: intermediates, written then read back", "t1, t2 : intermédiaires, écrits puis "
                           "relus"), 18, "middle", colour=SHARED[1])
    # The fused kernel.
    svg.text(730, 30, say("fused: 2 read + 1 written = 3", "fusionné : 2 lus + 1 écrit = 3"), 20, bold=True)
    svg.rect(730, 130, 360, 56, DEVICE, 2)
    svg.label_in(730, 130, 360, 56, say("normalise · weigh · activate", "normaliser · pondérer · activer"), 19,
                 bold=True)
    svg.text(910, 100, say("in registers, one pass", "dans les registres, une passe"), 18, "middle")
    fused_arrays = {"x": 745, "w": 865, "y": 985}
    for name, x in fused_arrays.items():
        array(x, name)
    for name, x in fused_arrays.items():
        up = name != "y"
        svg.line(x + 42, memory_y - 12 if up else 190, x + 42, 190 if up else memory_y - 12,
                 HBM[1] if up else DEVICE[1], 2, arrow=True)
    svg.text(1090, memory_y + 80, say("→ about 3/7 of the three kernels' time", "→ environ 3/7 du temps des trois "
                                      "kernels"), 19, "end", bold=True)
    source_line(svg, say("Memory-bound: one or two flops per element, the time follows the bytes moved. Schematic.",
                          "Limité par la mémoire : un ou deux flops par élément, le temps suit les octets déplacés. "
                          "Schéma."), y=430)
    return svg


@diagram("12")
def row_lanes(say):
    svg = Svg("row_lanes", 1100, 460, say("Who reads a row: one thread, a group of lanes, or a whole block",
              "Qui lit une ligne : un thread, un groupe de lanes ou un bloc entier"))
    cols, cell = 12, 32

    def matrix(x, y, rows, colour_of, label_of=None):
        for r in range(rows):
            for c in range(cols):
                svg.rect(x + c * cell, y + r * 30, cell - 2, 26, colour_of(r, c), 1, rx=1)
                if label_of:
                    text = label_of(r, c)
                    if text:
                        svg.label_in(x + c * cell, y + r * 30, cell - 2, 26, text, 18)

    palette = [THREAD, REGISTERS, SHARED, L2]
    # One thread per row: thread r walks along row r.
    svg.text(10, 28, say("one thread per row", "un thread par ligne"), 20, bold=True)
    matrix(10, 44, 4, lambda r, c: palette[r], lambda r, c: str(r))
    svg.lines(10, 190, [say("at each step lanes 0..3 read a row", "à chaque pas, les lanes 0..3 lisent"),
                        say("apart: not coalesced; 7 long rows,", "à une ligne d'écart : non coalescés ;"),
                        say("7 busy threads", "7 lignes longues, 7 threads")], 18)
    # A group of 4 lanes per row.
    gx = 430
    svg.text(gx, 28, say("a group of 4 lanes per row", "un groupe de 4 lanes par ligne"), 20, bold=True)
    matrix(gx, 44, 4, lambda r, c: palette[r], lambda r, c: str(r * 4 + c % 4))
    svg.lines(gx, 190, [say("lane `l` of a group: columns `l`,", "la lane `l` d'un groupe : colonnes `l`,"),
                        say("`l + 4`, ...: consecutive floats;", "`l + 4`, ... : floats consécutifs ;"),
                        say("then shuffles sum the group", "puis des shuffles somment le groupe")], 18)
    # One block per long row.
    bx = 10
    svg.text(bx, 296, say("one block per long row (2048 columns and more): 256 threads, 8 warps",
                          "un bloc par ligne longue (2048 colonnes et plus) : 256 threads, 8 warps"), 20, bold=True)
    for w in range(8):
        x = bx + w * 112
        svg.rect(x, 312, 106, 34, THREAD, 1.2, rx=2)
        svg.label_in(x, 312, 106, 34, f"warp {w}", 18)
        svg.line(x + 53, 348, 357 + w * 38, 392, THREAD[1], 1.2, arrow=True)
    svg.text(bx + 900, 334, say("shuffles", "shuffles"), 18)
    for w in range(8):
        svg.rect(340 + w * 38, 394, 34, 30, SHARED, 1.2, rx=2)
    svg.text(330, 416, "`warp_sums[8]`", 19, "end")
    svg.text(654, 416, say("`__syncthreads()`, then warp 0 adds them", "`__syncthreads()`, puis le warp 0 les "
                           "additionne"), 18)
    svg.text(10, 450, say("Numbers in the cells: the lane that reads the column (schematic, 12 columns shown).",
                          "Nombres dans les cases : la lane qui lit la colonne (schéma, 12 colonnes montrées)."), 18,
             colour=MUTED)
    # The right-hand panel: why the group width follows the row length.
    svg.rect(860, 40, 230, 140, ("#ffffff", MUTED), 1.2)
    svg.lines(874, 66, [say("row length", "longueur de ligne"), say("→ group width", "→ largeur du groupe"),
                        say("1 to 32 lanes,", "1 à 32 lanes,"), say("a warp at most;", "un warp au plus ;"),
                        say("beyond: a block", "au-delà : un bloc")], 18)
    return svg


@diagram("12")
def constant_broadcast(say):
    svg = Svg("constant_broadcast", 1100, 380, say("Constant memory: one address is broadcast, k addresses are served in turn",
              "Mémoire constante : une adresse est diffusée, k adresses sont servies à tour de rôle"))
    lanes, cell = 16, 28

    def warp(x, y):
        for lane in range(lanes):
            svg.rect(x + lane * cell, y, cell - 3, 30, THREAD, 1, rx=2)
        svg.text(x + lanes * cell + 6, y + 22, "…", 18)

    svg.text(10, 28, say("all lanes read `c_column_weights[c]`", "toutes les lanes lisent `c_column_weights[c]`"), 20,
             bold=True)
    svg.rect(150, 48, 240, 40, L2, 1.5)
    svg.label_in(150, 48, 240, 40, say("one address", "une adresse"), 19, bold=True)
    for lane in range(lanes):
        svg.line(270, 90, 20 + lane * cell + 13, 168, L2[1], 1.2, arrow=True)
    warp(20, 170)
    svg.text(20, 236, say("one read, broadcast to the warp", "une lecture, diffusée au warp"), 19, bold=True)
    svg.text(600, 28, say("lanes read k different addresses", "les lanes lisent k adresses différentes"), 20, bold=True)
    for k in range(4):
        svg.rect(600 + k * 118, 48, 110, 40, L2, 1.5)
        svg.label_in(600 + k * 118, 48, 110, 40, say(f"address {k}", f"adresse {k}"), 18)
        for lane in range(k * 4, k * 4 + 4):
            svg.line(600 + k * 118 + 55, 90, 600 + lane * cell + 13, 168, BAD[1], 1.2, arrow=True)
    warp(600, 170)
    svg.text(600, 236, say("k reads, served one after the other", "k lectures, servies l'une après l'autre"), 19,
             bold=True, colour=BAD[1])
    svg.lines(10, 300, [
        say("`__constant__ float c_column_weights[2048];` read-only in kernels, cached (64 KiB in all)",
            "`__constant__ float c_column_weights[2048];` lecture seule, en cache (64 KiB en tout)"),
        say("Filled from the host: `cudaMemcpyToSymbol(c_column_weights, host, bytes)`",
            "Rempli depuis l'hôte : `cudaMemcpyToSymbol(c_column_weights, host, octets)`"),
        say("Row norms: the whole warp is at column `c` together, so every read is one address",
            "Normes de lignes : tout le warp est à la colonne `c` en même temps, une seule adresse à chaque "
            "lecture")], 19, leading=1.5)
    return svg


@diagram("13")
def grid_stride(say):
    svg = Svg("grid_stride", 1100, 420, say("A grid-stride loop: T threads sweep the array in steps of T",
              "Une boucle à pas de grille : T threads parcourent le tableau par pas de T"))
    threads, steps, cell, left = 8, 4, 30, 100
    n = threads * steps - 3
    svg.text(10, 28, say(f"a grid of T = {threads} threads (2 blocks of 4), n = {n} elements",
                         f"une grille de T = {threads} threads (2 blocs de 4), n = {n} éléments"), 20, bold=True)
    palette = [THREAD, REGISTERS, SHARED, L2]
    # The array, coloured by the step that reaches each element.
    for i in range(threads * steps):
        x = left + i * cell
        if i < n:
            svg.rect(x, 110, cell - 3, 36, palette[i // threads], 1.2, rx=2)
            svg.label_in(x, 110, cell - 3, 36, str(i % threads), 18)
        else:
            svg.rect(x, 110, cell - 3, 36, IDLE, 1, rx=2, dash="3 3")
    svg.text(left - 12, 136, say("array", "tableau"), 19, "end", bold=True)
    for s in range(steps):
        x0 = left + s * threads * cell
        svg.text(x0 + threads * cell / 2, 96, say(f"step {s}", f"étape {s}"), 18, "middle", bold=True,
                 colour=palette[s][1])
        svg.polyline([(x0, 102), (x0, 92)], MUTED, 1.2)
    svg.text(left + threads * steps * cell, 172, say("i ≥ n: stop", "i ≥ n : fin"), 18, "end", colour=MUTED)
    svg.text(left, 172, say("the number in a cell: the thread `t` that handles it", "le nombre d'une case : le thread "
                            "`t` qui la traite"), 18, colour=MUTED)
    svg.lines(10, 226, [
        "for (int i = blockIdx.x * blockDim.x + threadIdx.x;",
        "     i < n; i += gridDim.x * blockDim.x)   // T",
        "    y[i] = f(x[i]);"], 20, mono=True, leading=1.3)
    svg.lines(10, 330, [
        say("Thread `t` does elements `t`, `t + T`, `t + 2T`, ...: correct with any grid, any n",
            "Le thread `t` traite `t`, `t + T`, `t + 2T`, ... : juste pour toute grille et tout n"),
        say("At every step the grid reads T consecutive elements: coalesced",
            "À chaque étape, la grille lit T éléments consécutifs : accès coalescés"),
        say("Size the grid to the GPU (one full wave), not to the data",
            "Dimensionner la grille d'après le GPU (une vague pleine), pas d'après les données")], 19, leading=1.5)
    return svg


@diagram("14")
def atomic_contention(say):
    svg = Svg("atomic_contention", 1100, 430, say("Atomics on one address are served one after another",
              "Les opérations atomiques sur une même adresse sont servies l'une après l'autre"))
    svg.text(10, 28, say("every value in one bin: one address", "toutes les valeurs dans une classe : une adresse"), 19,
             bold=True)
    for t in range(8):
        svg.rect(10 + t * 62, 50, 56, 32, THREAD, 1.2, rx=2)
        svg.label_in(10 + t * 62, 50, 56, 32, f"t{t}", 18)
        svg.line(38 + t * 62, 84, 250, 190, BAD[1], 1.2, arrow=True)
    svg.rect(170, 192, 160, 46, BAD, 2)
    svg.label_in(170, 192, 160, 46, "`counts[7]`", 19, bold=True)
    # The queue at that address.
    for k in range(8):
        svg.rect(20 + k * 58, 262, 52, 30, IDLE, 1, rx=2)
        svg.label_in(20 + k * 58, 262, 52, 30, str(k + 1), 18)
    svg.text(10, 320, say("served in turn, one at a time", "servies à tour de rôle, une à la fois"), 19, bold=True,
             colour=BAD[1])
    svg.text(600, 28, say("uniformly spread values: 8 addresses", "valeurs uniformément réparties : 8 adresses"), 19,
             bold=True)
    for t in range(8):
        svg.rect(600 + t * 62, 50, 56, 32, THREAD, 1.2, rx=2)
        svg.label_in(600 + t * 62, 50, 56, 32, f"t{t}", 18)
        svg.line(628 + t * 62, 84, 628 + t * 62, 190, DEVICE[1], 1.2, arrow=True)
        svg.rect(600 + t * 62, 192, 56, 46, DEVICE, 1.5)
        svg.label_in(600 + t * 62, 192, 56, 46, str(t), 18)
    svg.lines(600, 272, [say("different bins: served side by side,", "classes différentes : servies en parallèle,"),
                         say("but still one global atomic per value", "mais une atomique globale par valeur")],
              19, bold=True, colour=DEVICE[1])
    svg.lines(10, 372, [
        say("`atomicAdd`: one indivisible read-modify-write; never lost, but never at once on one address",
            "`atomicAdd` : une lecture-modification-écriture indivisible ; rien de perdu, mais une à la fois "
            "sur une adresse"),
        say("The cure: privatise, so that only a block's threads compete for one counter",
            "Le remède : privatiser, pour que seuls les threads d'un bloc se disputent un compteur")], 19)
    return svg


@diagram("14")
def histogram_privatised(say):
    svg = Svg("histogram_privatised", 1100, 480, say("A privatised histogram: per-block bins in shared memory",
              "Un histogramme privatisé : des classes par bloc en mémoire partagée"))
    counts = [[3, 0, 5, 1, 0, 2, 4, 1], [0, 2, 6, 0, 1, 3, 2, 2], [1, 0, 4, 2, 0, 1, 5, 3]]
    bins = len(counts[0])
    # The input: a grid-stride loop hands each block a block's width of values in turn.
    svg.text(10, 24, say("values (global memory): each block takes its stretch of every grid-wide step",
                         "valeurs (mémoire globale) : chaque bloc prend sa part de chaque étape de la grille"), 19,
             bold=True)
    block_w, gap, pieces = 340, 30, 12
    piece_w = 1080 / pieces
    for i in range(pieces):
        svg.rect(10 + i * piece_w, 36, piece_w, 32, HBM, 1.2, rx=0)
        svg.label_in(10 + i * piece_w, 36, piece_w, 32, say(f"block {i % 3}", f"bloc {i % 3}"), 18)
    for b in range(3):
        x = 10 + b * (block_w + gap)
        # The block and its private bins.
        svg.rect(x, 100, block_w, 190, DEVICE, 2)
        svg.text(x + 12, 126, say(f"block {b}", f"bloc {b}"), 19, bold=True, colour=DEVICE[1])
        svg.text(x + block_w - 12, 126, say("shared", "partagée"), 18, "end", colour=MUTED)
        for i in range(b, pieces, 3):
            svg.line(10 + (i + 0.5) * piece_w, 69, x + block_w / 2, 98, INK, 1.2, arrow=True)
        for k in range(bins):
            bx = x + 14 + k * 39
            svg.rect(bx, 138, 36, 36, SHARED, 1.5)
            svg.label_in(bx, 138, 36, 36, str(counts[b][k]), 19, bold=True)
        svg.lines(x + 12, 200, [say("`atomicAdd` on its shared bins", "`atomicAdd` sur ses classes"),
                                say("only its threads compete", "seuls ses threads s'y disputent"),
                                say("a barrier before and after", "une barrière avant et après")], 18)
        svg.line(x + block_w / 2 + (1 - b) * 40, 292, 330 + 4 * 60 - (1 - b) * 150, 358, SHARED[1], 2, arrow=True)
    svg.lines(10, 314, [say("merge: one global", "fusion : un `atomicAdd`"),
                        say("`atomicAdd` per non-zero", "global par classe non"),
                        say("bin of each block", "nulle de chaque bloc")], 18, bold=True)
    # The global histogram.
    svg.text(320, 390, "`counts[]`", 19, "end", bold=True)
    for k in range(bins):
        total = sum(c[k] for c in counts)
        svg.rect(330 + k * 60, 362, 56, 40, HBM, 1.5)
        svg.label_in(330 + k * 60, 362, 56, 40, str(total), 19, bold=True)
    svg.text(330 + bins * 60 + 12, 390, say("global memory", "mémoire globale"), 18, colour=MUTED)
    source_line(svg, say(f"{CARD}, exercise 14's check (4M values in one bin, 1024 blocks of 256): privatised "
                         f"{HISTOGRAM_SPEEDUP}x faster", f"{CARD}, correcteur de l'exercice 14 (4M valeurs dans "
                         f"une classe, 1024 blocs de 256) : privatisé {HISTOGRAM_SPEEDUP} fois plus vite"), y=444)
    source_line(svg, say("than a global atomicAdd per value (tests/speed_bars.md).",
                         "qu'un atomicAdd global par valeur (tests/speed_bars.md)."), y=470)
    return svg


@diagram("15")
def monte_carlo_pi(say):
    svg = Svg("monte_carlo_pi", 1100, 440, say("Monte Carlo pi: points in the quarter disc, one random sequence per thread",
              "Pi par Monte-Carlo : des points dans le quart de disque, une suite aléatoire par thread"))
    side, x0, y0 = 340, 40, 50
    svg.rect(x0, y0, side, side, ("#ffffff", INK), 1.5, rx=0)
    svg.path(f"M{x0},{y0} A{side},{side} 0 0,1 {x0 + side},{y0 + side} L{x0},{y0 + side} Z", INK, 1.5,
             fill=THREAD[0])
    # Points from a fixed linear congruential sequence: the same picture every time (schematic).
    state, hits, total = 12345, 0, 60
    for _ in range(total):
        state = (1103515245 * state + 12345) % 2**31
        u = state / 2**31
        state = (1103515245 * state + 12345) % 2**31
        v = state / 2**31
        inside = u * u + v * v <= 1
        hits += inside
        svg.circle(x0 + u * side, y0 + side - v * side, 4.5, THREAD if inside else BAD, 1.2)
    svg.text(x0, y0 - 14, say("the unit square, the quarter disc", "le carré unité, le quart de disque"), 19,
             bold=True)
    svg.text(x0, y0 + side + 30, say(f"{hits} of {total} inside: 4 x {hits} / {total} = {4 * hits / total:.2f}",
                                     f"{hits} sur {total} dedans : 4 x {hits} / {total} = "
                                     f"{4 * hits / total:.2f}".replace(".", ",")), 19)
    # One random sequence per thread.
    left = 450
    svg.text(left, 36, say("one random sequence per thread (Philox)", "une suite aléatoire par thread (Philox)"), 20,
             bold=True)
    for t in range(4):
        y = 56 + t * 54
        svg.rect(left, y, 120, 40, THREAD, 1.2)
        svg.label_in(left, y, 120, 40, f"thread {t}", 18, bold=True)
        for k in range(5):
            svg.rect(left + 140 + k * 62, y + 4, 56, 32, REGISTERS, 1, rx=2)
            svg.label_in(left + 140 + k * 62, y + 4, 56, 32, f"u{k}", 18)
        svg.text(left + 140 + 5 * 62 + 8, y + 27, say(f"… subsequence {t}", f"… sous-séquence {t}"), 18)
    svg.lines(left, 300, [
        say("`curand_init(seed, t, 0, &state)`: subsequence `t`,", "`curand_init(seed, t, 0, &state)` : "
            "sous-séquence `t`,"),
        say("2^66 numbers after `t - 1`, at no cost:", "2^66 nombres après `t - 1`, sans coût :"),
        say("threads never share a number", "les threads ne partagent jamais un nombre")], 19)
    svg.text(left, 400, say("Standard error: about 1.64 / sqrt(n)", "Erreur type : environ 1,64 / sqrt(n)"), 19,
             bold=True)
    svg.text(1090, 430, say("schematic: 60 points", "schéma : 60 points"), 18, "end", colour=MUTED)
    return svg


@diagram("12")
def warp_shuffle(say):
    svg = Svg("warp_shuffle", 1130, 440, say("A warp sum with __shfl_down_sync in five steps",
              "Une somme dans un warp avec __shfl_down_sync en cinq étapes"))
    cell, left, row_h, gap = 31.5, 112, 28, 26
    svg.text(10, 24, "v += __shfl_down_sync(0xffffffff, v, offset);", 20, mono=True, bold=False)
    svg.text(1120, 24, say("lane i adds the v of lane i + offset", "la lane i ajoute le v de la lane i + offset"), 19,
             "end", bold=True)
    svg.text(left - 10, 58, say("lane", "lane"), 18, "end")
    for lane in range(0, WARP, 4):
        svg.text(left + lane * cell + cell / 2, 58, str(lane), 18, "middle")
    top = 68
    offsets = [None, 16, 8, 4, 2, 1]
    for r, offset in enumerate(offsets):
        y = top + r * (row_h + gap)
        useful = WARP if offset is None else offset
        value = 1 if offset is None else WARP // offset
        svg.text(left - 10, y + 21, say("start", "départ") if offset is None else f"offset {offset}", 18, "end",
                 bold=True)
        for lane in range(WARP):
            used = lane < useful
            svg.rect(left + lane * cell + 1, y, cell - 2, row_h, REGISTERS if used else IDLE, 1, rx=2)
            if used:
                svg.label_in(left + lane * cell + 1, y, cell - 2, row_h, str(value), 18)
        if offset is not None:
            above = y - gap  # the bottom of the row before
            for lane in range(offset):
                x_to = left + lane * cell + cell / 2
                svg.line(left + (lane + offset) * cell + cell / 2, above + 1, x_to, y - 2, REGISTERS[1], 1.2)
                svg.line(x_to, above + 1, x_to, y - 2, REGISTERS[1], 1.2)
    svg.lines(10, 400, [
        say("The numbers: how many lanes' values each sum holds. Lane 0 ends with the warp's sum, in 5 steps.",
            "Les nombres : combien de valeurs chaque somme contient. La lane 0 finit avec la somme du warp, en 5 "
            "étapes."),
        say("Grey: sums nobody reads; those lanes still execute the shuffle, as the mask says every lane does.",
            "Gris : des sommes que personne ne lit ; ces lanes exécutent le shuffle, comme le masque le dit.")], 18)
    return svg


DIAGRAMS = [copy_ceiling, elementwise_launch, float4_tail, functor_transform, round_trips, pinned_pageable,
            unified_memory, fusion, row_lanes, constant_broadcast, warp_shuffle, grid_stride, atomic_contention,
            histogram_privatised, monte_carlo_pi]
