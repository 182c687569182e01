"""The diagrams of Part III's deck (slides/part3.md and part3.fr.md), in the order the deck shows them."""
from course_tools.authoring.diagrams.numbers import (CARD, PCIE_ONE_WAY_GBS, PCIE_BOTH_WAYS_GBS, TRANSPOSE_WAVEFRONTS, TRANSPOSE_CONFLICTS, PADDED_WAVEFRONTS, STREAM_BYTES, STREAM_CHUNKS, STREAM_COUNT, BANKS, BANK_BYTES)
from course_tools.authoring.diagrams.svg import (Svg, source_line, diagram, INK, MUTED, HOST, DEVICE, THREAD, REGISTERS, SHARED, HBM, BAD, IDLE)
from course_tools.authoring.diagrams.numbers import (APP_INIT_MS, APP_NVRTC_MS, APP_NVRTC_COMPILE_MS, APP_NVCC_MS, APP_KERNEL_MS, SPMV_ENTRIES_PER_THREAD, SPMV_POWER_LAW_SCALAR, SPMV_POWER_LAW_BALANCED)
from course_tools.authoring.diagrams.svg import L2, text_width


@diagram("18")
def reduction_tree(say):
    svg = Svg("reduction_tree", 1100, 440, say("A block's tree reduction in shared memory, sequential addressing",
                                               "La réduction en arbre d'un bloc en mémoire partagée, adressage "
                                               "séquentiel"))
    values = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3]
    n = len(values)
    cell, left, row_h, gap = 52, 215, 32, 34
    svg.text(10, 24, say("Threads `t < s` add `cache[t + s]` to `cache[t]`, s halving; a barrier after each level",
                         "Les threads `t < s` ajoutent `cache[t + s]` à `cache[t]`, s divisé par 2 ; une barrière "
                         "par niveau"), 18, bold=True)
    svg.text(left - 10, 56, "t", 18, "end", colour=THREAD[1])
    for t in range(n):
        svg.text(left + t * cell + cell / 2, 56, str(t), 18, "middle", colour=THREAD[1])
    level, s, top = list(values), n, 66
    for r in range(5):
        y = top + r * (row_h + gap)
        active = n if r == 0 else s
        svg.text(10, y + 22, say("`cache[t]` loaded", "`cache[t]` chargé") if r == 0 else f"s = {s}", 18, bold=True)
        if r < 4:
            svg.text(10, y + 50, "`__syncthreads()`", 18, colour=MUTED)
        for t in range(n):
            colours = SHARED if t < active else IDLE
            svg.rect(left + t * cell + 2, y, cell - 4, row_h, colours, 1.2, rx=2)
            svg.label_in(left + t * cell + 2, y, cell - 4, row_h, str(level[t]), 18,
                         bold=t < active, colour=INK if t < active else MUTED)
        if r < 4:
            s //= 2
            for t in range(s):
                x_to = left + t * cell + cell / 2
                svg.line(left + (t + s) * cell + cell / 2, y + row_h + 1, x_to, y + row_h + gap - 2,
                         SHARED[1], 1.4)
                svg.line(x_to, y + row_h + 1, x_to, y + row_h + gap - 2, SHARED[1], 1.4)
                level[t] += level[t + s]
    svg.text(10, 406, say(f"`cache[0]` = {level[0]}: the block's sum, for `partials[blockIdx.x]`.",
                          f"`cache[0]` = {level[0]} : la somme du bloc, pour `partials[blockIdx.x]`."), 18, bold=True)
    svg.text(10, 432, say("16 threads shown; a block of 256 takes 8 levels. Grey: threads idle at that level, "
                          "whole warps of them.", "16 threads ici ; un bloc de 256 fait 8 niveaux. En gris : les "
                          "threads inactifs, par warps entiers."), 18, colour=MUTED)
    return svg


@diagram("20")
def csr(say):
    svg = Svg("csr", 1100, 400, say("A sparse matrix in CSR: row offsets, column indices, values",
                                    "Une matrice creuse en CSR : débuts de ligne, indices de colonne, valeurs"))
    rows, cols = 4, 6
    entries = {(0, 0): 10, (0, 3): 20, (2, 1): 30, (2, 2): 40, (2, 5): 50, (3, 4): 60}
    cell, left, top = 46, 84, 76
    svg.text(10, 26, say("4 x 6, 6 non-zeros", "4 x 6, 6 non-nuls"), 20, bold=True)
    for c in range(cols):
        svg.text(left + c * cell + cell / 2, top - 10, str(c), 18, "middle", colour=MUTED)
    for r in range(rows):
        svg.text(left - 10, top + r * cell + 30, say(f"row {r}", f"ligne {r}"), 18, "end")
        for c in range(cols):
            value = entries.get((r, c))
            svg.rect(left + c * cell, top + r * cell, cell, cell, HBM if value else ("#ffffff", "#b0b0b0"), 1,
                     rx=0)
            if value:
                svg.label_in(left + c * cell, top + r * cell, cell, cell, str(value), 18, bold=True)
    svg.lines(10, top + rows * cell + 30, [say("row 1 is empty: y[1] = 0", "la ligne 1 est vide : y[1] = 0"),
                                           say("one thread per row:", "un thread par ligne :"),
                                           say("thread i computes y[i]", "le thread i calcule y[i]")], 18,
              colour=MUTED)

    # The three arrays.
    ordered = sorted(entries.items())
    offsets = [0]
    for r in range(rows):
        offsets.append(offsets[-1] + sum(1 for (row, _), _ in ordered if row == r))
    ax, aw = 560, 62
    svg.text(ax - 150, 26, say("three arrays in global memory", "trois tableaux en mémoire globale"), 20, bold=True)

    def array(y, name, items, note):
        svg.text(ax - 12, y + 18, name, 18, "end", mono=True, bold=True)
        svg.text(ax - 12, y + 40, note, 18, "end", colour=MUTED)
        for k, item in enumerate(items):
            svg.rect(ax + k * aw, y, aw, 40, HBM, 1.2, rx=0)
            svg.label_in(ax + k * aw, y, aw, 40, str(item), 18, bold=True)

    array(46, "row_offsets", offsets, say("rows + 1", "lignes + 1"))
    columns_y = 176
    svg.text(ax - 12, columns_y - 12, "k", 18, "end", colour=MUTED)
    for k in range(len(ordered)):
        svg.text(ax + k * aw + aw / 2, columns_y - 12, str(k), 18, "middle", colour=MUTED)
    array(columns_y, "columns", [c for (_, c), _ in ordered], "nnz")
    array(columns_y + 54, "values", [v for _, v in ordered], "nnz")
    # row_offsets[r] is where row r starts in columns and values.
    for r in range(rows + 1):
        svg.line(ax + r * aw + aw / 2, 88, ax + offsets[r] * aw, columns_y - 32, DEVICE[1], 1.5, arrow=True)
    svg.text(ax + len(ordered) * aw + 8, columns_y - 34, say("= nnz", "= nnz"), 18, colour=MUTED)
    # Each row's span of k, from its two offsets.
    bracket_y = columns_y + 106
    for r in range(rows):
        start, end = offsets[r], offsets[r + 1]
        if start == end:
            continue
        x1, x2 = ax + start * aw + 4, ax + end * aw - 4
        svg.polyline([(x1, bracket_y - 6), (x1, bracket_y + 4), (x2, bracket_y + 4), (x2, bracket_y - 6)],
                     DEVICE[1], 2)
        svg.text((x1 + x2) / 2, bracket_y + 26, say(f"row {r}", f"ligne {r}"), 18, "middle", bold=True,
                 colour=DEVICE[1])
    svg.text(ax - 150, 356, say("row i: `k` from `row_offsets[i]` to `row_offsets[i + 1] - 1`",
                                "ligne i : `k` de `row_offsets[i]` à `row_offsets[i + 1] - 1`"), 18)
    svg.text(ax - 150, 384, say("y[i] = the sum of `values[k] * x[columns[k]]`", "y[i] = la somme des "
                                "`values[k] * x[columns[k]]`"), 18)
    return svg


@diagram("16")
def runtime_over_driver(say):
    svg = Svg("runtime_over_driver", 1100, 450, say("The runtime API is built on the driver API; exercise 16 calls the "
                                                    "driver itself", "L'API runtime repose sur l'API driver ; "
                                                    "l'exercice 16 appelle le pilote lui-même"))
    left, width = 10, 700
    layers = [
        (HOST, say("your program", "votre programme"),
         ["`cudaMalloc`, `kernel<<<grid, block>>>(a, x, y, n)`, `cudaMemcpy`"]),
        (THREAD, say("the runtime API: `cuda_runtime.h`, libcudart", "l'API runtime : `cuda_runtime.h`, libcudart"),
         [say("first call: `cuInit`, the primary context retained, current", "premier appel : `cuInit`, le contexte "
              "primaire retenu, courant"),
          say("the executable's kernels: loaded at first use", "les kernels de l'exécutable : chargés au premier "
              "usage"),
          say("`<<<...>>>`: the argument array, built by nvcc", "`<<<...>>>` : le tableau d'arguments, fait par nvcc")]),
        (DEVICE, say("the driver API: `cuda.h`, libcuda", "l'API driver : `cuda.h`, libcuda"),
         ["`cuInit`, `cuDevicePrimaryCtxRetain`, `cuModuleLoadData`,", "`cuModuleGetFunction`, `cuLaunchKernel`"]),
    ]
    y = 10
    tops = []
    for colours, heading, lines in layers:
        height = 44 + 26 * len(lines)
        svg.rect(left, y, width, height, colours, 2)
        svg.text(left + 14, y + 30, heading, 20, bold=True, colour=colours[1], box=(left, y, width, height))
        svg.lines(left + 14, y + 60, lines, 18, leading=1.45)
        tops.append((y, height))
        y += height + 24
        svg.line(left + width / 2, y - 22, left + width / 2, y - 4, INK, 2, arrow=True)
    svg.rect(left, y, width, 40, ("#ffffff", DEVICE[1]), 2)
    svg.label_in(left, y, width, 40, say("the GPU", "le GPU"), 20, bold=True)
    # Exercise 16's path, around the runtime.
    program_y = tops[0][0] + tops[0][1] / 2
    driver_y = tops[2][0] + tops[2][1] / 2
    svg.polyline([(left + width + 2, program_y), (780, program_y), (780, driver_y), (left + width + 6, driver_y)],
                 DEVICE[1], 2.5, arrow=True)
    svg.lines(800, program_y + 60, [say("Exercise 16:", "Exercice 16 :"), say("the program calls", "le programme"),
                                    say("the driver itself,", "appelle le pilote"), say("and does what", "lui-même et"),
                                    say("the runtime did", "fait ce que faisait"), say("", "le runtime")], 18,
              leading=1.35)
    svg.text(10, 440, say("Runtime and driver share the primary context: `cudaMalloc`'s buffers are valid in "
                          "`cuLaunchKernel`'s launches.", "Runtime et pilote partagent le contexte primaire : les "
                          "tampons de `cudaMalloc` servent à `cuLaunchKernel`."), 18, colour=MUTED)
    return svg


@diagram("16")
def driver_objects(say):
    svg = Svg("driver_objects", 1100, 470, say("The driver API's objects: a device, its primary context, a module "
                                               "and its functions, a launch", "Les objets de l'API driver : un "
                                               "périphérique, son contexte primaire, un module et ses fonctions, "
                                               "un lancement"))
    # What the driver creates, each inside what it belongs to.
    svg.rect(10, 10, 650, 380, DEVICE, 2)
    svg.text(26, 38, say("`cuInit(0)`, then `cuDeviceGet`: a `CUdevice`", "`cuInit(0)`, puis `cuDeviceGet` : "
                         "un `CUdevice`"), 18, bold=True, colour=DEVICE[1])
    svg.rect(28, 54, 614, 320, ("#ffffff", DEVICE[1]), 1.5)
    svg.text(44, 82, say("its primary context, a `CUcontext`", "son contexte primaire, un `CUcontext`"), 18,
             bold=True)
    svg.text(44, 106, "`cuDevicePrimaryCtxRetain`, `cuCtxSetCurrent`", 18)
    svg.rect(326, 124, 300, 234, SHARED, 1.5)
    svg.text(340, 150, say("a `CUmodule`", "un `CUmodule`"), 18, bold=True, colour=SHARED[1])
    svg.text(340, 174, "`cuModuleLoadData(ptx)`", 18)
    svg.text(340, 206, say("its kernels, `CUfunction`:", "ses kernels, `CUfunction` :"), 18)
    svg.text(340, 230, "`cuModuleGetFunction`", 18)
    for i, name in enumerate(("saxpy", "sawtooth")):
        svg.rect(340, 248 + i * 52, 272, 42, ("#ffffff", SHARED[1]), 1.5)
        svg.label_in(340, 248 + i * 52, 272, 42, name, 18, mono=True, bold=True)
    svg.rect(44, 124, 266, 234, HBM, 1.5)
    svg.text(58, 150, say("device buffers", "tampons du GPU"), 18, bold=True, colour=HBM[1])
    svg.text(58, 174, "`CUdeviceptr` x, y", 18)
    svg.lines(58, 214, [say("`cuMemAlloc`, or the", "`cuMemAlloc`, ou le"),
                         say("runtime's `cudaMalloc`:", "`cudaMalloc` du runtime :"),
                         say("one context, one", "un contexte, un seul"),
                         say("address space", "espace d'adresses")], 18, leading=1.35)
    # The host program and its launch.
    svg.rect(700, 10, 390, 380, HOST, 2)
    svg.text(716, 38, say("the host program", "le programme hôte"), 18, bold=True, colour=HOST[1])
    svg.lines(716, 76, ["`void* args[] =`", "`  {&a, &x, &y, &n};`"], 18)
    svg.lines(716, 150, ["`cuLaunchKernel(saxpy,`", "`  grid, block, 0,`", "`  stream, args,`",
                         "`  nullptr);`"],
              18)
    svg.lines(716, 284, [say("`args`: the addresses of the", "`args` : les adresses des"),
                         say("arguments; the driver reads", "arguments ; le pilote lit"),
                         say("each parameter's size from", "la taille de chaque paramètre"),
                         say("the kernel: exactly that", "dans le kernel : exactement")], 18, leading=1.3)
    svg.line(700, 190, 616, 269, HOST[1], 2, arrow=True)
    # The clean-up.
    svg.text(10, 424, say("Clean-up in the reverse order: free the buffers, `cuModuleUnload`, then "
                          "`cuDevicePrimaryCtxRelease`.", "Nettoyage dans l'ordre inverse : libérer les tampons, "
                          "`cuModuleUnload`, puis `cuDevicePrimaryCtxRelease`."), 18, bold=True)
    svg.text(10, 452, say("Released first by its last holder, the context takes the module and the buffers with it.",
                          "Relâché en premier par son dernier détenteur, le contexte emporte module et tampons."), 18)
    return svg


@diagram("17")
def nvrtc_path(say):
    svg = Svg("nvrtc_path", 1100, 380, say("NVRTC at run time: a source string becomes a CUBIN, which the driver "
                                           "loads and launches", "NVRTC à l'exécution : une chaîne source devient "
                                           "un CUBIN, que le pilote charge et lance"))
    box_w, gap, top, box_h = 244, 36, 52, 196
    steps = [
        (HOST, say("a source string", "une chaîne source"), ["`kSaxpySource`", say("the kernel's text,", "le texte du"),
                                                             say("in the program", "kernel, dans le"),
                                                             say("", "programme")]),
        (THREAD, "NVRTC", ["`nvrtcCreateProgram`", "`nvrtcAddName…`", "`nvrtcCompile…`",
                           say("options: `sm_90`,", "options : `sm_90`,"), "`--fmad=true`"]),
        (SHARED, say("a CUBIN", "un CUBIN"), ["`nvrtcGetCUBIN`", say("machine code for", "code machine pour"),
                                              say("this GPU, and the", "ce GPU, et les noms"),
                                              say("lowered names", "décorés (lowered)")]),
        (DEVICE, say("the driver", "le pilote"), ["`cuModuleLoadData`", "`cuModuleGetFunction`", "`cuLaunchKernel`"]),
    ]
    for i, (colours, heading, contents) in enumerate(steps):
        x = 10 + i * (box_w + gap)
        svg.rect(x, top, box_w, box_h, colours, 2)
        svg.text(x + 12, top + 28, heading, 20, bold=True, colour=colours[1], box=(x, top, box_w, box_h))
        y = top + 62
        for content in contents:
            if content:
                svg.text(x + 12, y, content, 18, box=(x, top, box_w, box_h))
            y += 26
        if i:
            svg.line(x - gap + 2, top + box_h / 2, x - 4, top + box_h / 2, INK, 2.5, arrow=True)
    svg.text(10, 32, say("In the running program (exercise 17):", "Dans le programme qui s'exécute (exercice 17) :"),
             20, bold=True)
    # nvcc's path, for comparison.
    y = 300
    svg.text(10, y, say("The same text with nvcc (the reference): compiled before the program runs,",
                        "Le même texte avec nvcc (la référence) : compilé avant que le programme ne tourne,"), 18,
             bold=True)
    svg.text(10, y + 28, say("the machine code sits in the executable; the runtime loads it at first use, "
                             "and `<<<...>>>` launches it.", "le code machine est dans l'exécutable ; le runtime "
                             "le charge au premier usage et `<<<...>>>` le lance."), 18)
    svg.text(10, y + 64, say("NVRTC pays its compile (tens of ms) while the program runs, and in return "
                             "compiles what is known only then.", "NVRTC paie sa compilation (des dizaines de ms) "
                             "à l'exécution, pour compiler ce qu'on ne sait qu'alors."), 18,
             colour=MUTED)
    return svg


@diagram("17")
def ptx_vs_cubin(say):
    svg = Svg("ptx_vs_cubin", 1100, 450, say("PTX or a CUBIN, and what --fmad changes", "PTX ou CUBIN, et ce que "
                                              "change --fmad"))
    panel_w, panel_h = 530, 250
    panels = [
        (THREAD, say("PTX: `--gpu-architecture=compute_90`", "PTX : `--gpu-architecture=compute_90`"),
         "`nvrtcGetPTX`",
         [say("text for a virtual GPU; at load,", "du texte pour un GPU virtuel ; au"),
          say("`cuModuleLoadData` compiles it", "chargement, `cuModuleLoadData` le"),
          say("(the driver's JIT: time, once", "compile (le JIT du pilote : du temps,"),
          say("per process unless cached)", "une fois par processus, hors cache)")],
         say("runs on compute 9.0 and every later GPU", "tourne sur compute 9.0 et tout GPU plus récent")),
        (SHARED, say("CUBIN: `--gpu-architecture=sm_90`", "CUBIN : `--gpu-architecture=sm_90`"),
         "`nvrtcGetCUBIN`",
         [say("machine code (SASS) in an ELF", "du code machine (SASS) dans une"),
          say("image: loaded as it is, no", "image ELF : chargé tel quel, sans"),
          say("compilation at load", "compilation au chargement")],
         say("runs on sm_90 GPUs only: Hopper", "ne tourne que sur les GPU sm_90 : Hopper")),
    ]
    for i, (colours, heading, call, lines, where) in enumerate(panels):
        x = 10 + i * (panel_w + 20)
        box = (x, 10, panel_w, panel_h)
        svg.rect(*box, colours, 2)
        svg.text(x + 14, 40, heading, 18, bold=True, colour=colours[1], box=box)
        svg.text(x + 14, 70, call, 18, box=box)
        svg.lines(x + 14, 104, lines, 18, leading=1.35)
        svg.text(x + 14, 238, where, 18, bold=True, box=box)
    # --fmad.
    y = 290
    svg.text(10, y, say("`--fmad=true` (NVRTC's and nvcc's default): `a * x[i] + y[i]` becomes",
                        "`--fmad=true` (le défaut de NVRTC et de nvcc) : `a * x[i] + y[i]` devient"), 18, bold=True)
    svg.rect(10, y + 16, 535, 50, DEVICE, 1.5)
    svg.label_in(10, y + 16, 535, 50, say("one FFMA: one rounding, one instruction", "un FFMA : un arrondi, une "
                                          "instruction"), 18, bold=True)
    svg.text(10, y + 100, say("`--fmad=false`: an FMUL, then an FADD", "`--fmad=false` : un FMUL, puis un FADD"), 18,
             bold=True)
    svg.rect(10, y + 116, 535, 40, IDLE, 1.5)
    svg.label_in(10, y + 116, 535, 40, say("two roundings, two instructions", "deux arrondis, deux instructions"), 18)
    svg.lines(575, y + 34, [say("The same setting on both sides: the NVRTC", "Le même réglage des deux côtés : le"),
                            say("kernel and nvcc's then agree bit for bit.", "kernel NVRTC et celui de nvcc"),
                            say("Different settings: results differ in the", "concordent alors au bit près. Sinon,"),
                            say("last bits, and neither is wrong.", "ils diffèrent dans les derniers bits,"),
                            say("", "et aucun n'est faux.")], 18, leading=1.35)
    return svg


@diagram("17")
def application_time(say):
    svg = Svg("application_time", 1100, 330, say("Where an application's time goes: SAXPY on 16M floats, measured "
                                                 "on an H100", "Où passe le temps d'une application : SAXPY sur "
                                                 "16M floats, mesuré sur un H100"))
    scale, left = 2.9, 110  # pixels per millisecond
    other = APP_NVRTC_MS - APP_NVRTC_COMPILE_MS

    def bar(y, label, pieces):
        svg.text(left - 12, y + 30, label, 20, "end", bold=True)
        x = left
        for ms, colours, text in pieces:
            svg.rect(x, y, ms * scale, 44, colours, 1.5, rx=0)
            if text:
                svg.label_in(x, y, ms * scale, 44, text, 18)
            x += ms * scale
        return x

    init = say(f"CUDA initialisation: {APP_INIT_MS:.0f} ms", f"initialisation de CUDA : {APP_INIT_MS:.0f} ms")
    end = bar(40, "NVRTC", [(APP_INIT_MS, IDLE, init), (APP_NVRTC_COMPILE_MS, THREAD, say("compile", "compil.")),
                            (other, DEVICE, "")])
    svg.text(end + 8, 70, say(f"{APP_NVRTC_MS} ms", f"{APP_NVRTC_MS} ms".replace(".", ",")), 18, bold=True)
    end = bar(120, "nvcc", [(APP_INIT_MS, IDLE, init), (APP_NVCC_MS, DEVICE, "")])
    svg.text(end + 8, 150, say(f"{APP_NVCC_MS} ms", f"{APP_NVCC_MS} ms".replace(".", ",")), 18, bold=True)
    kernel = f"{APP_KERNEL_MS:.2f}"
    svg.text(10, 200, say("Green: load, allocate, copy in, kernel, copy out, free.",
                          "En vert : charger, allouer, copier, kernel, rapatrier, libérer."), 18)
    svg.text(10, 226, say(f"The kernel alone: {kernel} ms, a third of a pixel at this scale.",
                          f"Le kernel seul : {kernel.replace('.', ',')} ms, un tiers de pixel à cette échelle."), 18,
             bold=True)
    svg.text(10, 272, say("Initialisation: once per process; NVRTC's compile: once per kernel. Keep the data "
                          "on the GPU, run many kernels.",
                          "Initialisation : une fois par processus ; compilation : une fois par kernel. Gardez "
                          "les données sur le GPU."), 18)
    source_line(svg, say(f"{CARD}, exercise 17's demo (CUDA 13.0): 16,777,216 floats, pageable, "
                         "each phase on the host's clock.", f"{CARD}, démo de l'exercice 17 (CUDA 13.0) : 16 777 216 "
                         "floats paginables, chaque phase à l'horloge de l'hôte."), y=318)
    return svg


@diagram("18")
def dot_two_stage(say):
    svg = Svg("dot_two_stage", 1100, 450, say("A dot product in two passes: a partial sum per block, then one block "
                                              "sums the partials", "Un produit scalaire en deux passes : une somme "
                                              "partielle par bloc, puis un bloc somme les partielles"))
    blocks, piece_w, left = 6, 160, 130
    svg.text(10, 26, say("`x[i] * y[i]`, n products in global memory", "`x[i] * y[i]`, n produits en mémoire globale"),
             20, bold=True)
    for b in range(blocks):
        x = left + b * piece_w
        svg.rect(x, 40, piece_w - 6, 36, HBM, 1.2, rx=0)
        name = "…" if b == blocks - 2 else (f"B - 1" if b == blocks - 1 else str(b))
        svg.label_in(x, 40, piece_w - 6, 36, say(f"block {name}" if name != "…" else "…",
                                                 f"bloc {name}" if name != "…" else "…"), 18)
        if name == "…":
            continue
        svg.line(x + piece_w / 2 - 3, 78, x + piece_w / 2 - 3, 112, INK, 1.5, arrow=True)
        svg.rect(x, 114, piece_w - 6, 64, DEVICE, 1.5)
        svg.label_in(x, 114, piece_w - 6, 34, say("a tree in", "un arbre en"), 18)
        svg.label_in(x, 142, piece_w - 6, 34, say("shared mem.", "mém. partagée"), 18)
        svg.line(x + piece_w / 2 - 3, 180, x + piece_w / 2 - 3, 214, INK, 1.5, arrow=True)
        svg.rect(x, 216, piece_w - 6, 36, SHARED, 1.5, rx=0)
        svg.label_in(x, 216, piece_w - 6, 36, f"partials[{name}]" if name != "B - 1" else "partials[B-1]", 18,
                     mono=True)
    svg.text(10, 152, say("pass 1", "passe 1"), 18, bold=True, colour=DEVICE[1])
    # The second pass.
    svg.rect(340, 300, 420, 60, DEVICE, 2)
    svg.label_in(340, 300, 420, 34, say("pass 2: `sum_partials<<<1, 256>>>`", "passe 2 : `sum_partials<<<1, 256>>>`"),
                 18, bold=True)
    svg.label_in(340, 326, 420, 34, say("one block sums the B partials", "un bloc somme les B partielles"), 18)
    for b in (0, 1, 2, 3, 5):
        svg.line(left + b * piece_w + piece_w / 2 - 3, 254, 550 + (b - 2.5) * 40, 298, SHARED[1], 1.5, arrow=True)
    svg.rect(820, 306, 200, 48, SHARED, 2)
    svg.label_in(820, 306, 200, 48, "`*result`", 20, bold=True)
    svg.line(762, 330, 816, 330, INK, 2, arrow=True)
    svg.text(10, 398, say("Two kernels, because blocks cannot wait for each other: a kernel's end is the grid's "
                          "barrier.", "Deux kernels, car les blocs ne peuvent s'attendre : la fin d'un kernel est la "
                          "barrière de la grille."), 18)
    svg.text(10, 428, say("Or one `atomicAdd(result, partial)` per block: B atomics, in an order that varies from run "
                          "to run.", "Ou un `atomicAdd(result, partielle)` par bloc : B atomiques, dans un ordre qui "
                          "change d'une exécution à l'autre."), 18, colour=MUTED)
    return svg


@diagram("19")
def generated_kernels(say):
    svg = Svg("generated_kernels", 1100, 410, say("One generator, many kernels: an argument list and an operation "
                                                  "become a kernel's source", "Un générateur, de nombreux kernels : "
                                                  "une liste d'arguments et une opération deviennent le source d'un "
                                                  "kernel"))
    svg.text(10, 26, say("`ElementwiseKernel(arguments, operation, name)`, after PyCUDA's:",
                         "`ElementwiseKernel(arguments, opération, nom)`, d'après PyCUDA :"), 20, bold=True)
    kernels = [("lin_comb", "float a, const float* x, const float* y, float* z", "z[i] = a * x[i] + y[i]"),
               ("square", "const float* x, float* y", "y[i] = x[i] * x[i]"),
               ("clamp", "float low, float high, float* v", "v[i] = fminf(fmaxf(v[i], low), high)")]
    for k, (name, arguments, operation) in enumerate(kernels):
        y = 44 + k * 70
        svg.rect(10, y, 580, 60, HOST, 1.5)
        svg.text(22, y + 24, f"`{name}`: `{operation}`", 18, box=(10, y, 580, 60))
        svg.text(22, y + 50, f"`{arguments}`", 18, colour=MUTED, box=(10, y, 580, 60))
        svg.line(592, y + 30, 616, 44 + 105, INK, 1.5, arrow=True)
    # The generated text.
    box = (620, 44, 470, 200)
    svg.rect(*box, THREAD, 2)
    svg.text(632, 70, say("`generate_source` writes:", "`generate_source` écrit :"), 18, bold=True, box=box)
    svg.lines(632, 100, ['`extern "C" __global__ void`', "`lin_comb(float a, … float*`",
                         "`    __restrict__ z, size_t n) {`", "`  for (i = first; i < n;`",
                         "`       i += stride)`",
                         "`    z[i] = a * x[i] + y[i]; }`"], 18, leading=1.2)
    svg.line(855, 246, 855, 282, INK, 2, arrow=True)
    svg.rect(620, 284, 470, 60, DEVICE, 2)
    svg.label_in(620, 284, 470, 30, say("NVRTC, for this GPU, then the cache", "NVRTC, pour ce GPU, puis le cache"),
                 18, bold=True)
    svg.label_in(620, 310, 470, 34, say("one CUBIN per source", "un CUBIN par source"), 18)
    svg.lines(10, 276, [say("`extern \"C\"`: found by its own name", "`extern \"C\"` : trouvé sous son propre nom"),
                        say("`__restrict__`: the arrays do not overlap", "`__restrict__` : les tableaux sont disjoints"),
                        say("the grid-stride loop: right for any grid", "la boucle à pas de grille : juste pour toute grille")],
              18, leading=1.4)
    svg.text(10, 400, say("Each kernel is one source, so one key and one CUBIN: the operation is code, not a parameter.",
                          "Chaque kernel est un source, donc une clé et un CUBIN : l'opération est du code, pas un "
                          "paramètre."), 18, colour=MUTED)
    return svg


@diagram("19")
def kernel_cache(say):
    svg = Svg("kernel_cache", 1100, 430, say("The kernel cache: a key from everything the CUBIN depends on, memory "
                                             "first, then disk, NVRTC on a miss", "Le cache de kernels : une clé "
                                             "de tout ce dont dépend le CUBIN, la mémoire, puis le disque, NVRTC en "
                                             "cas d'échec"))
    # The key.
    svg.rect(10, 10, 1080, 76, HOST, 1.5)
    x = 24 + svg.text(24, 40, say("key = name + hash(", "clé = nom + hash("), 20, bold=True) + 12
    parts = [say("the source", "le source"), say("the options", "les options"), say("the architecture", "l'architecture"),
             say("NVRTC's version", "la version de NVRTC")]
    for part in parts:
        width = text_width(part, 18) + 20
        svg.rect(x, 18, width, 32, ("#ffffff", HOST[1]), 1.2)
        svg.label_in(x, 18, width, 32, part, 18)
        x += width + 8
    svg.text(x, 40, ")", 20, bold=True)
    svg.text(24, 74, say("the source, not the name: two kernels of one name never share an entry",
                         "le source, pas le nom : deux kernels du même nom ne partagent jamais d'entrée"), 18,
             colour=MUTED)
    # The lookup.
    steps = [(SHARED, say("memory", "mémoire"), [say("a map in the process,", "une table du processus,"),
                                                  say("looked up first", "consultée d'abord")]),
             (L2, say("disk", "disque"), [say("a file per key:", "un fichier par clé :"),
                                          say("magic, length,", "magie, longueur,"),
                                          say("checksum", "somme de contrôle")]),
             (THREAD, say("NVRTC (a miss)", "NVRTC (un échec)"), [say("tens of milliseconds", "des dizaines de ms"),
                                                                  say("then stored in both", "puis rangé dans les deux")])]
    for i, (colours, heading, lines) in enumerate(steps):
        x = 10 + i * 300
        box = (x, 130, 250, 120)
        svg.rect(*box, colours, 2)
        svg.text(x + 12, 158, heading, 20, bold=True, colour=colours[1], box=box)
        svg.lines(x + 12, 190, lines, 18, leading=1.35)
        if i:
            svg.line(x - 48, 190, x - 4, 190, INK, 2, arrow=True)
            svg.text(x - 26, 180, say("no", "non"), 18, "middle", colour=MUTED)
        svg.line(x + 125, 252, x + 125, 300, DEVICE[1], 2, arrow=True)
    svg.line(545, 86, 140, 128, INK, 1.5, arrow=True)
    svg.rect(10, 302, 860, 44, DEVICE, 2)
    svg.label_in(10, 302, 860, 44, say("the CUBIN → `cuModuleLoadData` → `cuLaunchKernel`",
                                       "le CUBIN → `cuModuleLoadData` → `cuLaunchKernel`"), 20, bold=True)
    svg.lines(900, 150, [say("A bad file:", "Fichier abîmé :"), say("warned about,", "un avertissement,"),
                         say("compiled again", "et on recompile")], 18, leading=1.35)
    svg.text(10, 384, say("A failed compilation is never stored: the next attempt shows its log again.",
                          "Une compilation ratée n'est jamais rangée : la tentative suivante remontre son journal."), 18)
    svg.text(10, 412, say("Written to a temporary file, then renamed: no other process reads half an entry.",
                          "Écrit dans un fichier temporaire, puis renommé : aucun autre processus ne lit une demi-entrée."),
             18, colour=MUTED)
    return svg

@diagram("20")
def spmv_balanced(say):
    svg = Svg("spmv_balanced", 1100, 480, say("Splitting SpMV's work by rows or by non-zeros",
                                              "Répartir le travail du SpMV par lignes ou par non-nuls"))
    lengths = [2, 1, 11, 2, 3, 5]
    colours = [SHARED, HBM, THREAD, SHARED, HBM, THREAD]
    cell = 28
    svg.text(10, 26, say("By rows: thread i takes row i", "Par lignes : le thread i prend la ligne i"), 20, bold=True)
    for r, length in enumerate(lengths):
        y = 38 + r * 32
        svg.text(120, y + 22, say(f"thread {r}", f"thread {r}"), 18, "end", colour=THREAD[1])
        for k in range(length):
            svg.rect(130 + k * cell, y, cell - 3, 28, colours[r], 1, rx=2)
    svg.lines(500, 80, [say("Thread 2 runs 11 steps, the others", "Le thread 2 fait 11 pas, les autres"),
                        say("1 to 5: the warp takes as long as its", "de 1 à 5 : le warp dure autant que"),
                        say("longest row. Power-law rows: a thread", "sa plus longue ligne. Lignes en loi de"),
                        say(f"per row: {SPMV_POWER_LAW_SCALAR}x cuSPARSE's time (H200).",
                            f"puissance : {SPMV_POWER_LAW_SCALAR}x le temps de cuSPARSE (H200).")],
              18, leading=1.35)
    # By non-zeros.
    per_thread = SPMV_ENTRIES_PER_THREAD
    total = sum(lengths)
    top = 310
    svg.text(10, top - 44, say(f"By non-zeros: {per_thread} entries a thread, whatever their rows",
                               f"Par non-nuls : {per_thread} entrées par thread, quelles que soient leurs lignes"),
             20, bold=True)
    cell = 40
    k = 0
    for r, length in enumerate(lengths):
        for _ in range(length):
            svg.rect(20 + k * cell, top, cell - 2, 34, colours[r], 1, rx=0)
            svg.label_in(20 + k * cell, top, cell - 2, 34, str(r), 18)
            k += 1
    svg.text(20, top + 56, say("the digit: the entry's row; a thread finds the row of its first entry "
                               "by a binary search in `row_offsets`", "le chiffre : la ligne de l'entrée ; un thread "
                               "trouve celle de sa première entrée par dichotomie"), 18, colour=MUTED)
    for t in range((total + per_thread - 1) // per_thread):
        x1 = 20 + t * per_thread * cell + 3
        x2 = 20 + min(total, (t + 1) * per_thread) * cell - 5
        svg.polyline([(x1, top - 4), (x1, top - 12), (x2, top - 12), (x2, top - 4)], THREAD[1], 2)
        svg.text((x1 + x2) / 2, top - 18, say(f"thread {t}", f"thread {t}"), 18, "middle", bold=True,
                 colour=THREAD[1])
    svg.text(10, top + 104, say("A row cut between threads (rows 2 and 5 here): each adds its part with "
                                "`atomicAdd(&y[row], sum)` into a zeroed y.", "Une ligne coupée entre threads (2 et 5 "
                                "ici) : chacun ajoute sa part par `atomicAdd(&y[row], sum)` à un y nul."), 18)
    balanced = f"{SPMV_POWER_LAW_BALANCED}x"
    svg.text(10, top + 134, say(f"Every thread does the same work: on power-law rows, {balanced} cuSPARSE's time "
                                "(H200).", f"Tous les threads font le même travail : en loi de puissance, "
                                f"{balanced.replace('.', ',')} le temps de cuSPARSE (H200)."), 18, colour=MUTED)
    return svg


@diagram("20")
def cg_loop(say):
    svg = Svg("cg_loop", 1100, 450, say("One iteration of conjugate gradient, every vector kept on the device",
                                        "Une itération du gradient conjugué, chaque vecteur gardé sur le GPU"))
    # The loop, clockwise.
    boxes = [
        (20, 30, DEVICE, say("SpMV", "SpMV"), "`q = A p`"),
        (400, 30, THREAD, say("dot (in double)", "produit scalaire (double)"), "`alpha = rr / (p . q)`"),
        (780, 30, DEVICE, say("two axpys", "deux axpy"), "`x += alpha p; r -= alpha q`"),
        (780, 230, THREAD, say("dot (in double)", "produit scalaire (double)"), "`rr_next = r . r`"),
        (400, 230, DEVICE, say("xpay", "xpay"), "`p = r + beta p`"),
        (20, 230, HOST, say("stop?", "arrêt ?"), "`rr <= tol² rr0`"),
    ]
    w, h = 300, 90
    for x, y, colours, heading, formula in boxes:
        svg.rect(x, y, w, h, colours, 2)
        svg.label_in(x, y + 6, w, 36, heading, 20, bold=True, colour=colours[1])
        svg.label_in(x, y + 44, w, 38, formula, 18)
    arrow, (left, middle, right), (top, bottom) = INK, (20, 400, 780), (30, 230)
    svg.line(left + w + 4, top + h / 2, middle - 4, top + h / 2, arrow, 2.5, arrow=True)
    svg.line(middle + w + 4, top + h / 2, right - 4, top + h / 2, arrow, 2.5, arrow=True)
    svg.line(right + w / 2, top + h + 4, right + w / 2, bottom - 4, arrow, 2.5, arrow=True)
    svg.line(right - 4, bottom + h / 2, middle + w + 4, bottom + h / 2, arrow, 2.5, arrow=True)
    svg.text(middle + w / 2, bottom + h + 26, "`beta = rr_next / rr`", 18, "middle")
    svg.line(middle - 4, bottom + h / 2, left + w + 4, bottom + h / 2, arrow, 2.5, arrow=True)
    svg.line(left + w / 2, bottom - 4, left + w / 2, top + h + 4, arrow, 2.5, arrow=True)
    svg.text(left + w / 2 + 10, 180, say("no: next iteration", "non : itération suivante"), 18)
    svg.line(left + w / 2, bottom + h + 4, left + w / 2, 370, HOST[1], 2.5, arrow=True)
    svg.text(left + w / 2 + 10, 360, say("yes: x is the solution", "oui : x est la solution"), 18, bold=True)
    svg.text(10, 412, say("x, r, p and q never leave the GPU: per iteration, two doubles (p . q and r . r) cross "
                          "the bus.", "x, r, p et q ne quittent jamais le GPU : par itération, deux doubles (p . q et "
                          "r . r) passent le bus."), 18, bold=True)
    svg.text(10, 440, say("p . q <= 0: A is not positive definite, a breakdown, reported rather than a NaN.",
                          "p . q <= 0 : A n'est pas définie positive, une rupture, signalée plutôt qu'un NaN."), 18,
             colour=MUTED)
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


DIAGRAMS = [runtime_over_driver, driver_objects, nvrtc_path, ptx_vs_cubin, application_time, dot_two_stage, reduction_tree,
            generated_kernels, kernel_cache, csr, spmv_balanced, cg_loop, sgemm_tiles, register_blocking, transpose_tile, transpose_banks, streams_timeline]
