"""The diagrams of Part III's deck (slides/part3.md and part3.fr.md), in the order the deck shows them."""
from course_tools.authoring.diagrams.numbers import (CARD, PCIE_ONE_WAY_GBS, PCIE_BOTH_WAYS_GBS, TRANSPOSE_WAVEFRONTS, TRANSPOSE_CONFLICTS, PADDED_WAVEFRONTS, STREAM_BYTES, STREAM_CHUNKS, STREAM_COUNT, BANKS, BANK_BYTES,
    STREAM_SPEEDUP_MEASURED, STREAM_SERIAL_OVER_BOUND_MEASURED, SGEMM_SHARE_OF_CUBLAS, SGEMM_CUBLAS_TFLOPS, PEER_COPY_GBS, STAGED_COPY_GBS, ALL_REDUCE_BUSBW_GBS,
    SECTOR_BYTES, WARP)
from course_tools.authoring.diagrams.svg import (Svg, source_line, diagram, INK, MUTED, HOST, DEVICE, THREAD, REGISTERS, SHARED, HBM, BAD, IDLE)
from course_tools.authoring.diagrams.numbers import (APP_INIT_MS, APP_NVRTC_MS, APP_NVRTC_COMPILE_MS, APP_NVCC_MS, APP_KERNEL_MS, SPMV_ENTRIES_PER_THREAD, SPMV_POWER_LAW_SCALAR, SPMV_POWER_LAW_BALANCED,
    PIPELINE_STAGES)
from course_tools.authoring.diagrams.svg import L2, PAPER, text_width


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
                         say("arguments; from each, the", "arguments ; à chacune, le"),
                         say("driver reads exactly its", "pilote lit exactement la"),
                         say("parameter's size in bytes", "taille de son paramètre")], 18, leading=1.3)
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
                        "`--fmad=true` (la valeur par défaut de NVRTC et de nvcc) : `a * x[i] + y[i]` devient"), 18, bold=True)
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
    svg.text(end + 8, 70, say(f"+ {APP_NVRTC_MS} ms", f"+ {APP_NVRTC_MS} ms".replace(".", ",")), 18, bold=True)
    end = bar(120, "nvcc", [(APP_INIT_MS, IDLE, init), (APP_NVCC_MS, DEVICE, "")])
    svg.text(end + 8, 150, say(f"+ {APP_NVCC_MS} ms", f"+ {APP_NVCC_MS} ms".replace(".", ",")), 18, bold=True)
    kernel = f"{APP_KERNEL_MS:.2f}"
    svg.text(10, 200, say("Green: load, allocate, copy in, kernel, copy out, free; + ms: the time after the initialisation.",
                          "En vert : charger, allouer, copier, kernel, rapatrier, libérer ; + ms : après l'initialisation."), 18)
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
    svg.text(10, 26, say("x and y in global memory: n products `x[i] * y[i]` to sum",
                         "x et y en mémoire globale : n produits `x[i] * y[i]` à sommer"), 20, bold=True)
    for b in range(blocks):
        x = left + b * piece_w
        svg.rect(x, 40, piece_w - 6, 36, HBM, 1.2, rx=0)
        name = "…" if b == blocks - 2 else ("B - 1" if b == blocks - 1 else str(b))
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
        svg.line(592, y + 30, 616, 110 + k * 40, INK, 1.5, arrow=True)
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
                                             "de tout ce dont dépend le CUBIN, la mémoire, puis le disque, NVRTC si la "
                                             "clé manque"))
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
                                          say("magic, length,", "nombre magique,"),
                                          say("checksum", "longueur, somme"), say("", "de contrôle")]),
             (THREAD, say("NVRTC (a miss)", "NVRTC"), [say("", "si la clé manque :"),
                                                       say("tens of milliseconds", "des dizaines de ms,"),
                                                       say("then stored in both", "puis rangé dans les deux")])]
    for i, (colours, heading, lines) in enumerate(steps):
        x = 10 + i * 300
        box = (x, 130, 250, 134)
        svg.rect(*box, colours, 2)
        svg.text(x + 12, 158, heading, 20, bold=True, colour=colours[1], box=box)
        svg.lines(x + 12, 188, [line for line in lines if line], 18, leading=1.25)
        if i:
            svg.line(x - 48, 190, x - 4, 190, INK, 2, arrow=True)
            svg.text(x - 26, 180, say("no", "non"), 18, "middle", colour=MUTED)
        svg.line(x + 125, 266, x + 125, 300, DEVICE[1], 2, arrow=True)
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
    svg.text(10, top + 104, say("A row cut between threads (row 2 here): each adds its part with "
                                "`atomicAdd(&y[row], sum)` into a zeroed y.", "Une ligne coupée entre threads (la 2 "
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
    svg = Svg("sgemm_tiles", 1160, 462, say("Tiled SGEMM: tiles of A and B through shared memory",
                                              "SGEMM en tuiles : des tuiles de A et de B en mémoire partagée"))
    t = 60  # pixels per tile of 32 x 32 elements
    k_tiles, m_tiles, n_tiles = 3, 3, 5
    step, tile_row, tile_col = 1, 1, 3  # the tile of k being loaded; the block's tile of C
    bx, by, ax, ay = 250, 10, 10, 210
    # B above C, A left of C: the classic picture of C = A B.
    svg.rect(bx, by, n_tiles * t, k_tiles * t, ("#ffffff", HBM[1]), 1.5, rx=0)
    svg.text(bx - 10, by + 22, "B (k x n)", 20, "end", bold=True)
    svg.rect(ax, ay, k_tiles * t, m_tiles * t, ("#ffffff", HBM[1]), 1.5, rx=0)
    svg.text(ax, ay - 10, "A (m x k)", 20, bold=True)
    svg.rect(bx, ay, n_tiles * t, m_tiles * t, ("#ffffff", HBM[1]), 1.5, rx=0)
    svg.text(bx + n_tiles * t - 8, ay + m_tiles * t - 10, "C (m x n)", 20, "end", bold=True)
    # The block's tile of C; the row strip of A and the column strip of B it needs.
    svg.rect(ax, ay + tile_row * t, k_tiles * t, t, HBM, 1, rx=0)
    svg.rect(bx + tile_col * t, by, t, k_tiles * t, HBM, 1, rx=0)
    a_tile = (ax + step * t, ay + tile_row * t)
    b_tile = (bx + tile_col * t, by + step * t)
    svg.rect(*a_tile, t, t, SHARED, 2.5, rx=0)
    svg.rect(*b_tile, t, t, SHARED, 2.5, rx=0)
    svg.rect(bx + tile_col * t, ay + tile_row * t, t, t, DEVICE, 2.5, rx=0)
    c_box = (bx, ay, n_tiles * t, m_tiles * t)
    svg.text(bx + tile_col * t - 8, ay + tile_row * t + 24, say("one block's", "tuile 32 x 32"), 18, "end",
             box=c_box)
    svg.text(bx + tile_col * t - 8, ay + tile_row * t + 48, say("32 x 32 tile", "d'un bloc"), 18, "end",
             box=c_box)
    svg.text(b_tile[0] - 8, b_tile[1] + 36, say("tile t of B", "tuile t de B"), 18, "end")
    svg.text(ax + 4, ay + m_tiles * t - 10, say("tile t of A", "tuile t de A"), 18)
    svg.lines(ax, 60, [say("t walks k, 32 at a", "t parcourt k, 32 à la"), say("time: across A's", "fois : la bande de A"),
                       say("row strip, down", "vers la droite, celle"), say("B's column strip", "de B vers le bas")], 18)
    svg.line(ax, 150, ax + 170, 150, INK, 2, arrow=True)

    # Shared memory and the loop.
    sx = 600
    svg.rect(sx, 10, 550, 150, SHARED, 2)
    svg.text(sx + 14, 38, say("shared memory of the block", "mémoire partagée du bloc"), 20, bold=True,
             colour=SHARED[1])
    for row, name in enumerate(("b_tile[32][32]", "a_tile[32][32]")):
        svg.rect(sx + 16, 54 + row * 52, 190, 42, ("#ffffff", SHARED[1]))
        svg.label_in(sx + 16, 54 + row * 52, 190, 42, name, 18, mono=True)
    svg.lines(sx + 222, 84, [say("each thread loads", "chaque thread charge"),
                             say("one element of each", "un élément de chacune")], 18)
    svg.line(b_tile[0] + t, b_tile[1] + t / 2, sx + 12, 75, SHARED[1], 2, arrow=True)
    svg.line(a_tile[0] + t, a_tile[1] + t / 2, sx + 12, 127, SHARED[1], 2, arrow=True)
    steps = [say("for each tile t of k:", "pour chaque tuile t de k :"),
             say("1. load a_tile, b_tile (0 past the edges)", "1. charger a_tile, b_tile (0 hors des bords)"),
             "2. `__syncthreads()`",
             say("3. 32 multiply-adds from shared memory", "3. 32 multiplications-additions en mémoire partagée"),
             say("4. `__syncthreads()` before the next load", "4. `__syncthreads()` avant le chargement suivant")]
    for i, content in enumerate(steps):
        svg.text(sx, 194 + i * 27, content, 18, bold=i == 0)
    svg.text(sx, 338, say("Each element: loaded once per tile,", "Chaque élément : chargé une fois par tuile,"),
             18, bold=True)
    svg.text(sx, 362, say("then read by 32 threads", "puis lu par 32 threads"), 18, bold=True)
    svg.text(sx, 394, say("global memory: 8 FLOP per byte", "mémoire globale : 8 FLOP par octet"), 18,
             colour=DEVICE[1], bold=True)
    svg.text(sx, 418, say("(one thread per element: 0.25)", "(un thread par élément : 0,25)"), 18,
             colour=DEVICE[1])
    source_line(svg, say("Exercise 21, step 2: T = 32, blocks of 32 x 32 threads; intensity from its statement.",
                         "Exercice 21, étape 2 : T = 32, blocs de 32 x 32 threads ; intensité d'après l'énoncé."),
                y=452)
    return svg


@diagram("21")
def register_blocking(say):
    svg = Svg("register_blocking", 1160, 470, say("Register blocking: 8 x 8 elements of C per thread",
                                                    "Blocage en registres : 8 x 8 éléments de C par thread"))
    cell = 16  # pixels per thread's 8 x 8 square: the block's 128 x 128 tile of C is 16 x 16 of them
    depth = 5  # pixels per element of the k slice (8 of them)
    cx, cy = 70, 104
    side = 16 * cell
    # B's tile (8 x 128) above, A's tile (128 x 8) to the left, both in shared memory.
    svg.rect(cx, cy - 12 - 8 * depth, side, 8 * depth, SHARED, 1.5, rx=0)
    svg.text(cx, cy - 22 - 8 * depth, say("B's tile: 8 x 128 (shared)", "tuile de B : 8 x 128 (partagée)"), 18,
             bold=True)
    svg.rect(cx - 12 - 8 * depth, cy, 8 * depth, side, SHARED, 1.5, rx=0)
    svg.text(cx - 12 - 8 * depth, cy + side + 26, say("A's tile: 128 x 8 (shared)",
                                                      "tuile de A : 128 x 8 (partagée)"), 18, bold=True)
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
    svg.lines(cx + side + 12, cy + 20, [say("C's tile:", "tuile de C :"), "128 x 128,",
                                        say("256 threads,", "256 threads,"), say("8 x 8 each", "8 x 8 chacun")],
              18, bold=True)
    svg.line(cx + (tc + 1) * cell + 2, cy + (tr + 0.5) * cell + 40, cx + side + 10, cy + (tr + 0.5) * cell + 40,
             REGISTERS[1], 1.5)
    svg.line(cx + (tc + 1) * cell + 2, cy + (tr + 0.5) * cell, cx + (tc + 1) * cell + 2,
             cy + (tr + 0.5) * cell + 40, REGISTERS[1], 1.5)
    svg.text(cx + side + 12, cy + (tr + 0.5) * cell + 46, say("one thread", "un thread"), 18,
             colour=REGISTERS[1], bold=True)

    # The outer product in registers, for one p.
    ox, oy, r = 560, 110, 22
    svg.text(ox, 30, say("For each p of the k slice (8 per tile):", "Pour chaque p de la tranche de k (8 par tuile) :"),
             20, bold=True)
    svg.rect(ox, oy, r, 8 * r, REGISTERS, 1.5, rx=0)
    for i in range(1, 8):
        svg.line(ox, oy + i * r, ox + r, oy + i * r, REGISTERS[1], 1)
    svg.text(ox - 8, oy + 4 * r + 6, say("8 of A", "8 de A"), 18, "end", bold=True)
    gx = ox + r + 24
    svg.rect(gx, oy - r - 10, 8 * r, r, REGISTERS, 1.5, rx=0)
    for i in range(1, 8):
        svg.line(gx + i * r, oy - r - 10, gx + i * r, oy - 10, REGISTERS[1], 1)
    svg.text(gx + 8 * r + 8, oy - 14, say("8 of B", "8 de B"), 18, bold=True)
    svg.rect(gx, oy, 8 * r, 8 * r, REGISTERS, 2, rx=0)
    for i in range(1, 8):
        svg.line(gx + i * r, oy, gx + i * r, oy + 8 * r, REGISTERS[1], 0.8)
        svg.line(gx, oy + i * r, gx + 8 * r, oy + i * r, REGISTERS[1], 0.8)
    svg.text(gx + 8 * r, oy + 8 * r + 26, say("64 sums (registers)", "64 sommes (registres)"), 18, "end", bold=True)
    tx = gx + 8 * r + 24
    svg.lines(tx, oy + 24, [say("16 shared reads", "16 lectures partagées"), say("(8 of A, 8 of B)", "(8 de A, 8 de B)"),
                            say("feed 64", "pour 64"), say("multiply-adds", "multiplications-")], 18, bold=True)
    if say.lang == "fr":
        svg.text(tx, oy + 24 + 4 * 23.4, "additions", 18, bold=True)
    svg.lines(tx, oy + 150, [say("step 2: 2 reads", "étape 2 : 2 lectures"),
                             say("per multiply-add", "par multiplication-")], 18)
    if say.lang == "fr":
        svg.text(tx, oy + 150 + 2 * 23.4, "addition", 18)
    svg.text(10, 414, say("Global memory: 32 FLOP per byte loaded (step 2: 8).",
                          "Mémoire globale : 32 FLOP par octet chargé (étape 2 : 8)."), 18, bold=True)
    svg.text(10, 438, say("Registers per thread: the 64 sums and the 16 values read.",
                          "Registres par thread : les 64 sommes et les 16 valeurs lues."), 18)
    source_line(svg, say("Exercise 21, step 4: tiles of 128 x 128 x 8, 8 x 8 elements per thread; counts from "
                         "its statement.", "Exercice 21, étape 4 : tuiles de 128 x 128 x 8, 8 x 8 éléments par "
                         "thread ; comptes d'après l'énoncé."), y=462)
    return svg


@diagram("22")
def transpose_tile(say):
    svg = Svg("transpose_tile", 1160, 410, say("Transpose through a shared-memory tile",
                                                 "Transposition à travers une tuile de mémoire partagée"))
    side, tiles = 200, 4
    t = side / tiles
    in_x, out_x, y0 = 10, 950, 50
    tile_x, tile_side = 480, 200
    access = THREAD[1]  # a warp's accesses

    def matrix(x, label, row, col):
        svg.rect(x, y0, side, side, ("#ffffff", HBM[1]), 1.5, rx=0)
        for i in range(1, tiles):
            svg.line(x + i * t, y0, x + i * t, y0 + side, "#c8b8ad", 1)
            svg.line(x, y0 + i * t, x + side, y0 + i * t, "#c8b8ad", 1)
        svg.rect(x + col * t, y0 + row * t, t, t, HBM, 2.5, rx=0)
        svg.text(x, y0 - 14, label, 20, bold=True)

    matrix(in_x, say("`in`: rows x cols", "`in` : rows x cols"), 1, 2)
    svg.lines(in_x, y0 + side + 28, [say("tile (blockIdx.y,", "tuile (blockIdx.y,"), "blockIdx.x) = (1, 2)"], 18)
    matrix(out_x, say("`out`: cols x rows", "`out` : cols x rows"), 2, 1)
    svg.lines(out_x, y0 + side + 28, [say("tile (blockIdx.x,", "tuile (blockIdx.x,"), "blockIdx.y) = (2, 1)",
                                      say("mirrored", "en miroir")], 18)
    # The tile in shared memory: rows in, columns out.
    svg.rect(tile_x, y0, tile_side, tile_side, SHARED, 2, rx=0)
    svg.text(tile_x, y0 - 14, say("`tile[32][33]` (shared)", "`tile[32][33]` (partagée)"), 20, bold=True)
    for j in range(4):
        y = y0 + 18 + j * 46
        svg.line(tile_x + 12, y, tile_x + tile_side - 12, y, access, 2.5, arrow=True)
    for j in range(4):
        x = tile_x + 28 + j * 46
        svg.line(x, y0 + 30, x, y0 + tile_side - 8, access, 2.5, arrow=True, dash="6,4")
    # Into the tile, out of it.
    svg.line(in_x + 3 * t, y0 + 1.5 * t, tile_x - 6, y0 + 1.5 * t, access, 2.5, arrow=True)
    svg.text(in_x + side + 12, y0 + 1.5 * t - 12, say("warps read rows", "les warps lisent"), 18, bold=True)
    svg.text(in_x + side + 12, y0 + 1.5 * t + 26, say("(coalesced)", "des lignes (coalescé)"), 18)
    svg.line(tile_x + tile_side + 6, y0 + 2.5 * t, out_x + t - 4, y0 + 2.5 * t, access, 2.5, arrow=True,
             dash="6,4")
    svg.text(tile_x + tile_side + 12, y0 + 2.5 * t - 12, say("columns (dashed)", "colonnes (tirets)"), 18,
             bold=True)
    svg.text(tile_x + tile_side + 12, y0 + 2.5 * t + 26, say("written as rows", "écrites en lignes"), 18)
    svg.text(tile_x + tile_side / 2, y0 + tile_side + 28, say("`__syncthreads()` between", "`__syncthreads()` entre"),
             18, "middle")
    svg.text(tile_x + tile_side / 2, y0 + tile_side + 52, say("in and out", "entrée et sortie"), 18, "middle")
    svg.text(10, 366, say("A block of 32 x 8 threads moves one 32 x 32 tile: each thread 4 elements "
                          "(rows `threadIdx.y + j`, j = 0, 8, 16, 24).",
                          "Un bloc de 32 x 8 threads déplace une tuile 32 x 32 : 4 éléments par thread "
                          "(lignes `threadIdx.y + j`, j = 0, 8, 16, 24)."), 18)
    svg.text(10, 394, say("Both global accesses are coalesced; the column walk happens in shared memory.",
                          "Les deux accès globaux sont coalescés ; le parcours en colonne se fait en mémoire partagée."),
             18)
    return svg


@diagram("22")
def transpose_banks(say):
    svg = Svg("transpose_banks", 1160, 440, say("Shared-memory banks: tile[32][32] vs tile[32][33]",
                                                  "Bancs de mémoire partagée : tile[32][32] ou tile[32][33]"))
    cell_w, cell_h = 50, 32
    shown_rows = [0, 1, 2, 3, None, 31]
    shown_cols = [0, 1, 2, 3, None, 31]

    def panel(x0, width, title, verdict, colours):
        cols = shown_cols + ([32] if width == 33 else [])
        svg.text(x0, 26, title, 20, bold=True, mono=True)
        svg.text(x0, 54, say(f"word `{width} i + k` is in bank `({width} i + k) % 32`",
                             f"le mot `{width} i + k` est dans le banc `({width} i + k) % 32`"), 18)
        top, left = 94, x0 + 56
        svg.text(left - 8, top - 8, "k :" if say.lang == "fr" else "k:", 18, "end", colour=MUTED)
        for c, k in enumerate(cols):
            svg.text(left + c * cell_w + cell_w / 2, top - 8, "…" if k is None else str(k), 18, "middle",
                     colour=MUTED)
        for r, i in enumerate(shown_rows):
            y = top + r * cell_h
            svg.text(left - 8, y + 23, "⋮" if i is None else f"i={i}", 18, "end", colour=MUTED)
            for c, k in enumerate(cols):
                x = left + c * cell_w
                if i is None or k is None:
                    if i is None and k is None:
                        continue
                    svg.text(x + cell_w / 2, y + 23, "⋮" if i is None else "…", 18, "middle", colour=MUTED)
                    continue
                pad = k == 32
                in_column = k == 0
                fill = IDLE if pad else (colours if in_column else SHARED)
                svg.rect(x + 1, y + 1, cell_w - 2, cell_h - 2, fill, 1, rx=1)
                svg.label_in(x + 1, y + 1, cell_w - 2, cell_h - 2,
                             say("pad", "vide") if pad else str((width * i + k) % BANKS),
                             18, bold=in_column, colour=colours[1] if in_column else INK)
        bottom = top + len(shown_rows) * cell_h
        svg.text(x0, bottom + 30, say("column k = 0, read by lanes i = 0-31:",
                                      "colonne k = 0, lue par les lanes i = 0-31 :"), 18, bold=True)
        svg.text(x0, bottom + 56, verdict, 18, bold=True, colour=colours[1])

    panel(10, 32, "float tile[32][32]", say("all in bank 0: 32 passes (32-way conflict)",
                                            "toutes dans le banc 0 : 32 passes (conflit d'ordre 32)"), BAD)
    panel(600, 33, "float tile[32][33]", say("banks 0, 1, …, 31: one pass", "bancs 0, 1, …, 31 : une passe"), DEVICE)
    svg.text(10, 384, say(f"Nsight Compute per tile (exercise 22): unpadded {TRANSPOSE_WAVEFRONTS} wavefronts, "
                          f"{TRANSPOSE_CONFLICTS} of them conflicts; padded {PADDED_WAVEFRONTS}, none.",
                          f"Nsight Compute par tuile (exercice 22) : sans remplissage {TRANSPOSE_WAVEFRONTS} wavefronts, "
                          f"dont {TRANSPOSE_CONFLICTS} conflits ; avec remplissage {PADDED_WAVEFRONTS}, aucun."), 18)
    source_line(svg, say(f"{BANKS} banks of {BANK_BYTES} bytes (the {CARD}'s and every recent GPU's); "
                         "the numbers in the cells are banks.",
                         f"{BANKS} bancs de {BANK_BYTES} octets (ceux du {CARD} et de tout GPU récent) ; "
                         "les nombres des cases sont des bancs."), y=430)
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
    which no table holds yet. The speed-up it shows is the model's; the measured one, quoted
    under it, comes from the check."""
    svg = Svg("streams_timeline", 1160, 494, say("Serial vs overlapped streams: a schematic of exercise 23",
                                                   "Un stream ou plusieurs qui se recouvrent : schéma de l'exercice 23"))
    spans, (t_in, t_kernel, t_out) = stream_schedule(STREAM_CHUNKS, STREAM_COUNT)
    left, per_ms = 170, 104
    serial_total = t_in + t_kernel + t_out
    pipeline_total = spans["out"][-1][1]
    bound = t_kernel
    ms = say("ms", "ms")

    def x(time):
        return left + time * per_ms

    def rows(top, title):
        svg.text(10, top - 14, title, 20, bold=True)
        labels = [(say("copy in", "copie aller"), HOST), ("kernel", DEVICE), (say("copy back", "copie retour"), HOST)]
        for i, (name, colours) in enumerate(labels):
            svg.text(left - 10, top + i * 36 + 23, name, 18, "end", bold=True, colour=colours[1])
            svg.line(left, top + i * 36 + 32, x(9.2), top + i * 36 + 32, "#dddddd", 1)
        return labels

    top = 44
    labels = rows(top, say("One stream: copy in, kernel, copy back, one after another",
                           "Un stream : copie aller, kernel, copie retour, l'un après l'autre"))
    starts = [0, t_in, t_in + t_kernel]
    for i, (duration, (name, colours)) in enumerate(zip((t_in, t_kernel, t_out), labels)):
        svg.rect(x(starts[i]), top + i * 36 + 2, duration * per_ms, 30, colours, 1.5, rx=2)
        svg.label_in(x(starts[i]), top + i * 36 + 2, duration * per_ms, 30,
                     f"{duration:.1f} {ms}".replace(".", say(".", ",")), 18, bold=True)
    svg.line(x(serial_total), top - 4, x(serial_total), top + 110, INK, 2)
    svg.text(x(serial_total) + 6, top + 60, f"{serial_total:.1f}".replace(".", say(".", ",")), 18, bold=True)
    svg.text(x(serial_total) + 6, top + 82, ms, 18, bold=True)

    top = 214
    rows(top, say(f"{STREAM_CHUNKS} chunks over {STREAM_COUNT} streams: copy engines and SMs overlap",
                  f"{STREAM_CHUNKS} morceaux sur {STREAM_COUNT} streams : moteurs de copie et SM se recouvrent"))
    for i, (stage, colours) in enumerate(zip(("in", "kernel", "out"), (HOST, DEVICE, HOST))):
        for k, (start, end) in enumerate(spans[stage]):
            svg.rect(x(start), top + i * 36 + 2, (end - start) * per_ms, 30, colours, 1, rx=1)
    svg.line(x(pipeline_total), top - 4, x(pipeline_total), top + 110, INK, 2)
    svg.text(x(pipeline_total) + 6, top + 60, f"{pipeline_total:.1f}".replace(".", say(".", ",")), 18, bold=True)
    svg.text(x(pipeline_total) + 6, top + 82, ms, 18, bold=True)
    svg.line(x(bound), top - 4, x(bound), top + 110, BAD[1], 2, dash="5,4")
    svg.text(x(bound) - 6, top + 130, say(f"bound = max(copy time, kernel) = {bound:.1f} ms",
                                          f"borne = max(temps de copie, kernel) = {bound:.1f} ms".replace(".", ",")),
             18, "end", colour=BAD[1], bold=True)
    # The time axis.
    axis = 372
    svg.line(left, axis, x(9.2), axis, INK, 1.5)
    for tick in range(10):
        svg.line(x(tick), axis, x(tick), axis + 5, INK, 1.5)
        svg.text(x(tick), axis + 24, f"{tick} {ms}" if tick in (0, 9) else str(tick), 18, "middle")
    model = f"{serial_total / pipeline_total:.1f}".replace(".", say(".", ","))
    svg.text(10, axis + 58, say(f"Model: {model}x faster than one stream; measured by the check on the {CARD}: "
                                f"{STREAM_SPEEDUP_MEASURED}x.",
                                f"Modèle : {model}x plus rapide qu'un stream ; mesuré par le correcteur sur le {CARD} : "
                                f"de {STREAM_SPEEDUP_MEASURED.replace('.', ',').replace('-', ' à ')}x."), 18, bold=True)
    # The measured speed-up passes what the model allows (serial / bound): the serial run
    # measured is longer than the sum of its parts timed alone, which the model adds up.
    cap = f"{serial_total / bound:.2f}".replace(".", say(".", ","))
    measured = STREAM_SERIAL_OVER_BOUND_MEASURED.replace(".", say(".", ","))
    svg.text(10, axis + 84, say(f"Why more: the serial run measured is longer than its parts' sum: {measured}x the bound "
                                f"(make report; model: {cap}x).",
                                f"Pourquoi plus : la série mesurée dure plus que la somme de ses parties : {measured}x la "
                                f"borne (make report ; modèle : {cap}x)."), 18)
    source_line(svg, say(f"Schematic from exercise 23's figures: 128 MiB each way, {PCIE_ONE_WAY_GBS} GB/s one way, "
                         f"{PCIE_BOTH_WAYS_GBS} GB/s both, kernel = copy time.",
                         f"Schéma d'après l'exercice 23 : 128 MiB par sens, {PCIE_ONE_WAY_GBS} GB/s dans un sens, "
                         f"{PCIE_BOTH_WAYS_GBS} GB/s à deux, durée du kernel = durée de copie."), y=486)
    return svg


@diagram("21")
def sgemm_steps(say):
    """Exercise 21's steps as its header sets them (tiled_sgemm.hpp) and its statement counts
    them, with the share of cuBLAS each reached in the course's report."""
    svg = Svg("sgemm_steps", 1160, 480, say("The six steps of exercise 21, from one thread per element to warp tiles",
                                              "Les six étapes de l'exercice 21, d'un thread par élément aux tuiles de warp"))
    columns = [(10, say("step", "étape")), (250, say("a block computes", "un bloc calcule")),
               (455, say("a thread computes", "un thread calcule")), (705, say("FLOP per byte", "FLOP par octet")),
               (905, say("of cuBLAS", "de cuBLAS"))]
    for x, head in columns:
        svg.text(x, 30, head, 18, bold=True)
    svg.text(705, 54, say("global / shared", "globale / partagée"), 18, colour=MUTED)
    rows = [(say("1 naive", "1 naïf"), say("32 x 8 elements", "32 x 8 éléments"), say("1 element", "1 élément"),
             "0.25 / -"),
            (say("2 shared tiles", "2 tuiles partagées"), "32 x 32, k by 32", say("1 element", "1 élément"),
             "8 / 0.25"),
            (say("3 1D blocking", "3 blocage 1D"), "64 x 64, k by 8", say("a column of 8", "une colonne de 8"),
             "16 / 0.44"),
            (say("4 2D blocking", "4 blocage 2D"), "128 x 128, k by 8", "8 x 8", "32 / 2"),
            ("5 float4", "128 x 128, k by 8", say("8 x 8, float4 loads", "8 x 8, lectures float4"), "32 / 2"),
            (say("6 warp tiles", "6 tuiles de warp"), "128 x 128, k by 16", say("8 x 8, warp 64 x 32", "8 x 8, warp 64 x 32"),
             "32 / 2")]
    top, row_h, bar_w = 70, 56, 165
    for i, (step, block, thread, intensity) in enumerate(rows):
        y = top + i * row_h
        colours = IDLE if i == 0 else (SHARED if i < 3 else REGISTERS)
        svg.rect(6, y, 1148, row_h - 6, (colours[0], colours[0]), 1, rx=4)
        svg.text(14, y + 32, step, 18, bold=True)
        block = block.replace("k by", say("k by", "k par"))
        svg.text(250, y + 32, block, 18)
        svg.text(455, y + 32, thread, 18)
        svg.text(705, y + 32, intensity.replace(".", say(".", ",")), 18, bold=True)
        share = SGEMM_SHARE_OF_CUBLAS[i]
        svg.rect(905, y + 12, bar_w * share / 100, 26, DEVICE, 1, rx=2)
        svg.rect(905, y + 12, bar_w, 26, ("none", MUTED), 1, rx=2)
        svg.text(905 + bar_w + 10, y + 32, f"{share} %" if say.lang == "fr" else f"{share}%", 18, bold=True)
    y = top + len(rows) * row_h + 20
    svg.text(10, y, say("Shared tiles cut global loads; blocking in registers cuts shared reads; "
                        "float4 and warp tiles cut instructions and passes.",
                        "Les tuiles partagées réduisent les chargements globaux, le blocage en registres "
                        "les lectures partagées,"), 18)
    if say.lang == "fr":
        svg.text(10, y + 24, "float4 et les tuiles de warp les instructions et les passes.", 18)
    source_line(svg, say(f"Share of cuBLAS measured at 4096³, FP32, {CARD} (cuBLAS: {SGEMM_CUBLAS_TFLOPS} TFLOP/s); "
                         f"steps from tiled_sgemm.hpp.",
                         f"Étapes : tiled_sgemm.hpp et l'énoncé ; part de cuBLAS à 4096³, FP32, mesurée sur le {CARD} "
                         f"(cuBLAS : {str(SGEMM_CUBLAS_TFLOPS).replace('.', ',')} TFLOP/s)."), y=472)
    return svg


@diagram("21")
def float4_loads(say):
    svg = Svg("float4_loads", 1160, 440, say("float4: one 16-byte load instead of four 4-byte loads",
                                               "float4 : un chargement de 16 octets au lieu de quatre de 4"))
    cell, left = 56, 250

    def row(y, label, note, groups, colours):
        svg.text(10, y + 28, label, 20, bold=True)
        for k in range(16):
            svg.rect(left + k * cell, y, cell, 40, colours, 1, rx=0)
            svg.label_in(left + k * cell, y, cell, 40, str(k), 18)
        for g, (start, width) in enumerate(groups):
            x = left + start * cell
            svg.polyline([(x + 3, y + 48), (x + 3, y + 56), (x + width * cell - 3, y + 56),
                          (x + width * cell - 3, y + 48)], THREAD[1], 2)
        svg.text(left, y + 82, note, 18)

    row(40, say("float", "float"), say("16 floats: 16 loads of 4 bytes, one per instruction",
                                       "16 floats : 16 chargements de 4 octets, un par instruction"),
        [(k, 1) for k in range(16)], SHARED)
    row(170, "float4", say("16 floats: 4 loads of 16 bytes (`float4`), a quarter of the instructions",
                           "16 floats : 4 chargements de 16 octets (`float4`), le quart des instructions"),
        [(4 * g, 4) for g in range(4)], REGISTERS)
    svg.text(10, 324, say("The address of a float4 must be a multiple of 16 bytes:",
                          "L'adresse d'un float4 doit être un multiple de 16 octets :"), 20, bold=True)
    svg.text(10, 352, say("row r of a matrix with n columns starts at float r n: a float4 load only when n % 4 == 0,",
                          "la ligne r d'une matrice de n colonnes commence au float r n : float4 seulement si n % 4 == 0,"),
             18)
    svg.text(10, 378, say("else element by element (n = 37: row 1 starts at byte 148, \"misaligned address\").",
                          "sinon élément par élément (n = 37 : la ligne 1 commence à l'octet 148, « misaligned address »)."),
             18)
    source_line(svg, say("Exercise 21, step 5 (`load_4_floats`): A's tile is stored transposed, a thread's 4 values "
                         "in one float4.", "Exercice 21, étape 5 (`load_4_floats`) : tuile de A rangée transposée, "
                         "les 4 valeurs d'un thread dans un float4."), y=430)
    return svg


@diagram("21")
def double_buffer(say):
    """Exercise 21's step 6 over time: its statement's order of the loads, stores and barrier."""
    svg = Svg("double_buffer", 1160, 360, say("Double-buffered tiles: the next slice loads while this one is used",
                                                "Tuiles en double tampon : la tranche suivante se charge pendant "
                                                "l'usage de celle-ci"))
    left, slice_w, lane_h = 250, 220, 56
    lanes = [(say("global → registers", "globale → registres"), HBM), (say("shared buffer 0", "tampon partagé 0"), SHARED),
             (say("shared buffer 1", "tampon partagé 1"), SHARED)]
    for i, (name, colours) in enumerate(lanes):
        y = 40 + i * lane_h
        svg.text(left - 12, y + 32, name, 18, "end", bold=True, colour=colours[1])
        svg.line(left, y + lane_h - 4, left + 4 * slice_w, y + lane_h - 4, "#dddddd", 1)
    for k in range(4):
        x = left + k * slice_w
        svg.text(x + slice_w / 2, 28, say(f"slice {k}", f"tranche {k}"), 18, "middle", bold=True)
        read_y = 40 + (1 + k % 2) * lane_h
        write_y = 40 + (1 + (k + 1) % 2) * lane_h
        if k < 3:  # the last slice fetches nothing (`more = s + kWarpTilesK < k`)
            svg.rect(x + 4, 44, 92, 40, HBM, 1.5)
            svg.label_in(x + 4, 44, 92, 40, say(f"load {k + 1}", f"charge {k + 1}"), 18)
        svg.rect(x + 4, read_y + 4, 150, 40, DEVICE, 1.5)
        svg.label_in(x + 4, read_y + 4, 150, 40, say(f"read {k}: FMA", f"lit {k} : FMA"), 18, bold=True)
        if k < 3:
            svg.rect(x + 158, write_y + 4, 56, 40, SHARED, 1.5)
            svg.label_in(x + 158, write_y + 4, 56, 40, say(f"st {k + 1}", f"éc {k + 1}"), 18)
        svg.line(x + slice_w, 36, x + slice_w, 40 + 3 * lane_h + 6, INK, 2.5, dash="8,5")
    svg.text(left + 4 * slice_w, 40 + 3 * lane_h + 30, "`__syncthreads()`", 18, "end")
    svg.lines(10, 270, [say("Loads of slice k + 1 go to registers first: their latency hides behind slice k's multiply-adds.",
                            "Les chargements de la tranche k + 1 vont d'abord en registres : leur latence se cache"),
                        say("They are stored (st) into the buffer nobody reads: no WAR, so one barrier per slice,",
                            "derrière les FMA de la tranche k ; puis écrits (éc) dans le tampon que personne ne lit :"),
                        say("which orders those stores before their reads (RAW).",
                            "pas de WAR, une seule barrière par tranche, qui les place avant leurs lectures (RAW).")], 18)
    source_line(svg, say("Exercise 21, step 6 (optional): slices of 16 values of k, two tiles of A and two of B in "
                         "shared memory; a schematic.", "Exercice 21, étape 6 (facultative) : tranches de 16 valeurs "
                         "de k, deux tuiles de A et deux de B ; un schéma."), y=350)
    return svg


@diagram("22")
def transpose_naive(say):
    svg = Svg("transpose_naive", 1160, 440, say("The naive transpose: a warp reads a row, writes a column",
                                                  "La transposition naïve : un warp lit une ligne, écrit une colonne"))
    floats_per_sector = SECTOR_BYTES // 4
    cell = 17  # pixels per float; the pictures show 32 floats of a row, and 8 rows of a column
    # The read: 32 consecutive floats, 4 sectors.
    x0, y0 = 10, 70
    svg.text(x0, 30, say("Read: `in[row][col .. col + 31]`", "Lecture : `in[row][col .. col + 31]`"), 20, bold=True)
    for k in range(WARP):
        svg.rect(x0 + k * cell, y0, cell, 34, THREAD, 1, rx=0)
    for s in range(WARP // floats_per_sector):
        x = x0 + s * floats_per_sector * cell
        svg.rect(x, y0 - 6, floats_per_sector * cell, 46, ("none", DEVICE[1]), 2.5, rx=2)
    svg.lines(x0, y0 + 76, [say(f"32 floats = {WARP // floats_per_sector} sectors of {SECTOR_BYTES} bytes,",
                                f"32 floats = {WARP // floats_per_sector} secteurs de {SECTOR_BYTES} octets,"),
                            say("every byte used: coalesced", "chaque octet utile : coalescé")], 18, bold=True)
    # The write: 32 rows of out, one float each, each in a sector of its own.
    x1, y1 = 600, 50
    svg.text(x1, 30, say("Write: `out[col + k][row]`, k = 0..31", "Écriture : `out[col + k][row]`, k = 0..31"), 20,
             bold=True)
    shown = 8
    for r in range(shown):
        y = y1 + 14 + r * 34
        for k in range(2 * floats_per_sector):
            used = k == 3
            svg.rect(x1 + k * cell * 1.5, y, cell * 1.5, 26, THREAD if used else IDLE, 1, rx=0)
        svg.rect(x1, y - 3, floats_per_sector * cell * 1.5, 32, ("none", BAD[1]), 2.5, rx=2)
    svg.text(x1 + 2 * floats_per_sector * cell * 1.5 + 14, y1 + 40, say("row col", "ligne col"), 18, colour=MUTED)
    svg.text(x1 + 2 * floats_per_sector * cell * 1.5 + 14, y1 + 40 + 7 * 34, say("row col + 7", "ligne col + 7"), 18,
             colour=MUTED)
    svg.text(x1 + 2 * floats_per_sector * cell * 1.5 + 14, y1 + 40 + 3.5 * 34, "…", 18, colour=MUTED)
    svg.lines(x1, y1 + 14 + shown * 34 + 30, [say(f"… {WARP} rows: {WARP} sectors for {WARP * 4} useful bytes",
                                                  f"… {WARP} lignes : {WARP} secteurs pour {WARP * 4} octets utiles"),
                                              say(f"({SECTOR_BYTES * WARP} bytes moved, 1 in 8 used)",
                                                  f"({SECTOR_BYTES * WARP} octets transférés, 1 sur 8 utile)")],
              18, bold=True, colour=BAD[1])
    svg.text(10, 280, say("The fix (next slides):", "Le remède (pages suivantes) :"), 20, bold=True)
    svg.lines(10, 308, [say("read a 32 x 32 tile by rows into shared", "lire une tuile 32 x 32 par lignes"),
                        say("memory, write it back by rows of `out`:", "en mémoire partagée, l'écrire par lignes"),
                        say("both global accesses coalesced", "de `out` : deux accès globaux coalescés")], 18)
    source_line(svg, say(f"Exercise 22's naive kernel; sectors of {SECTOR_BYTES} bytes (L2 and DRAM).",
                         f"Le kernel naïf de l'exercice 22 ; secteurs de {SECTOR_BYTES} octets (L2 et DRAM)."),
                y=430)
    return svg


@diagram("23")
def default_stream(say):
    """A schematic of what the legacy default stream does to the others (exercise 23's statement)."""
    svg = Svg("default_stream", 1160, 440, say("The legacy default stream serialises blocking streams",
                                                 "Le stream par défaut historique sérialise les streams bloquants"))
    left, unit, lane = 200, 52, 34

    def panel(top, title, serialised):
        svg.text(10, top, title, 20, bold=True)
        names = ["stream 1", "stream 2", "stream 3", say("stream 0", "stream 0")]
        for i, name in enumerate(names):
            y = top + 14 + i * lane
            svg.text(left - 10, y + 22, name, 18, "end", bold=i == 3, colour=BAD[1] if i == 3 else INK)
            svg.line(left, y + 30, left + 18 * unit, y + 30, "#dddddd", 1)
        clock = 0.0
        for chunk in range(3):
            start = clock if serialised else chunk * 1.0
            y = top + 14 + chunk * lane
            for part, (colours, length) in enumerate(((HOST, 1.0), (DEVICE, 1.5), (HOST, 1.0))):
                svg.rect(left + start * unit, y + 2, length * unit - 2, 28, colours, 1, rx=2)
                start += length
            if serialised:
                svg.rect(left + start * unit, top + 14 + 3 * lane + 2, 0.5 * unit, 28, BAD, 1.5, rx=2)
                svg.line(left + (start + 0.25) * unit, top + 14 + 3 * lane, left + (start + 0.25) * unit,
                         top + 14, BAD[1], 1.5, dash="4,3")
                clock = start + 0.5
        return top + 14 + 4 * lane

    end = panel(30, say("Blocking streams, and `kernel<<<1, 1>>>()` on stream 0 after each chunk: one at a time",
                        "Streams bloquants, et `kernel<<<1, 1>>>()` sur le stream 0 après chaque morceau : un à la fois"),
                True)
    panel(end + 50, say("`cudaStreamNonBlocking` (or `--default-stream per-thread`): chunks overlap",
                        "`cudaStreamNonBlocking` (ou `--default-stream per-thread`) : les morceaux se recouvrent"),
          False)
    svg.text(left + 12.5 * unit, 100, say("stream 0 waits for all,", "le stream 0 attend tout,"), 18, colour=BAD[1])
    svg.text(left + 12.5 * unit, 124, say("and all wait for it", "et tout l'attend"), 18, colour=BAD[1])
    source_line(svg, say("Schematic: copies in blue, kernels in green; exercise 23's check allows at most 1.3x "
                         "for an empty kernel on stream 0.", "Schéma : copies en bleu, kernels en vert ; "
                         "l'exercice 23 tolère au plus 1,3x pour un kernel vide sur le stream 0."), y=430)
    return svg


@diagram("24")
def sanitizer_tools(say):
    svg = Svg("sanitizer_tools", 1160, 470, say("compute-sanitizer's four tools, and the bug each finds in exercise 24",
                                                  "Les quatre outils de compute-sanitizer, et le bogue que chacun trouve "
                                                  "dans l'exercice 24"))
    tools = [("memcheck", [say("every memory", "chaque accès"), say("access", "mémoire")],
              [say("out of bounds,", "hors bornes,"), say("misaligned; leaks with", "mal aligné ; fuites avec"),
               "`--leak-check full`"],
              say("step 1: `out[n - i]`", "étape 1 : `out[n - i]`"), say("one past the end", "un après la fin")),
             ("racecheck", [say("shared memory,", "mémoire partagée,"), say("per block", "par bloc")],
              [say("a write and another", "une écriture et un autre"), say("access to one word,", "accès à un mot,"),
               say("no barrier between", "sans barrière entre eux")],
              say("step 2: smoothing", "étape 2 : lissage"), say("barrier missing", "barrière manquante")),
             ("synccheck", ["`__syncthreads()`,", "`__syncwarp()`"],
              [say("a barrier that some", "une barrière atteinte"), say("threads reach and", "par une partie"),
               say("others skip", "des threads seulement")],
              say("step 3: block sums", "étape 3 : sommes"), say("barrier inside an `if`",
                                                                           "barrière dans un `if`")),
             ("initcheck", [say("reads of global", "lectures de"), say("memory", "mémoire globale")],
              [say("memory read before", "mémoire lue avant"), say("anything wrote it", "toute écriture")],
              say("step 4: frame average", "étape 4 : moyenne"), say("`cudaMemset` missing", "`cudaMemset` manquant"))]
    width, gap = 281, 8
    for i, (name, watches, reports, step, bug) in enumerate(tools):
        x = 6 + i * (width + gap)
        svg.rect(x, 10, width, 50, DEVICE, 2)
        svg.label_in(x, 10, width, 50, f"--tool {name}", 20, bold=True, mono=True)
        svg.text(x + 8, 88, say("watches", "surveille"), 18, colour=MUTED)
        for k, content in enumerate(watches):
            svg.text(x + 8, 112 + k * 24, content, 18, bold=True, box=(x, 66, width, 100))
        svg.text(x + 8, 184, say("reports", "signale"), 18, colour=MUTED)
        for k, content in enumerate(reports):
            svg.text(x + 8, 208 + k * 24, content, 18, box=(x, 166, width, 100))
        svg.rect(x, 276, width, 80, BAD, 1.5)
        svg.text(x + 8, 306, step, 18, bold=True, box=(x, 276, width, 80))
        svg.text(x + 8, 336, bug, 18, box=(x, 276, width, 80))
    svg.text(10, 386, say("`compute-sanitizer --tool NAME ./program`, built with `-lineinfo`: "
                          "reports name file and line; 10-100x slower.",
                          "`compute-sanitizer --tool NOM ./program`, compilé avec `-lineinfo` : "
                          "fichier et ligne ; 10 à 100 fois plus lent."), 18, bold=True)
    svg.rect(6, 408, 1148, 50, IDLE, 1.5)
    svg.label_in(6, 408, 1148, 50, say("`cuda-memcheck` is gone (removed in CUDA 12.0): compute-sanitizer replaced it",
                                      "`cuda-memcheck` n'existe plus (retiré dans CUDA 12.0) : compute-sanitizer "
                                      "l'a remplacé"), 18, bold=True)
    return svg


@diagram("24", "21")
def barrier_hazards(say):
    svg = Svg("barrier_hazards", 1160, 450, say("Hazards on shared memory, and the barrier that orders them",
                                                  "Les aléas en mémoire partagée, et la barrière qui les ordonne"))
    cases = [("RAW", say("read after write", "lecture après écriture"),
              [(0, 0, say("write `s[i]`", "écrit `s[i]`")), (1, 1, say("read `s[i]`", "lit `s[i]`"))],
              say("the reader must see", "le lecteur doit voir"), say("the new value", "la nouvelle valeur")),
             ("WAR", say("write after read", "écriture après lecture"),
              [(0, 1, say("read `s[i]`", "lit `s[i]`")), (1, 0, say("write `s[i]`", "écrit `s[i]`"))],
              say("the next tile must not", "la tuile suivante ne doit"), say("overwrite a value in use",
                                                                            "pas écraser une valeur encore à lire")),
             ("WAW", say("write after write", "écriture après écriture"),
              [(0, 0, say("write `s[i]`", "écrit `s[i]`")), (1, 1, say("write `s[i]`", "écrit `s[i]`"))],
              say("which value stays?", "quelle valeur reste ?"), say("the order decides", "l'ordre décide"))]
    width, gap = 374, 13
    for c, (name, meaning, accesses, why1, why2) in enumerate(cases):
        x = 6 + c * (width + gap)
        svg.rect(x, 10, width, 330, ("#ffffff", INK), 1.5)
        svg.text(x + 14, 42, name, 22, bold=True, colour=BAD[1])
        svg.text(x + 100, 42, meaning, 18, bold=True)
        for lane in range(2):
            lx = x + 90 + lane * 190
            svg.text(lx, 76, f"thread {'AB'[lane]}", 18, "middle", bold=True, colour=THREAD[1])
            svg.line(lx, 84, lx, 270, THREAD[1], 2, arrow=True)
        svg.line(x + 10, 176, x + width - 10, 176, INK, 3, dash="10,5")
        # The label on a white ground: the threads' lines pass behind it, not through it.
        label_w = text_width("__syncthreads()", 18, mono=True) + 12
        svg.rect(x + (width - label_w) / 2, 152, label_w, 22, (PAPER, PAPER), 0, rx=0)
        svg.text(x + width / 2, 170, "`__syncthreads()`", 18, "middle")
        for order, lane, content in accesses:
            lx = x + 90 + lane * 190
            y = 110 if order == 0 else 196
            svg.rect(lx - 80, y, 160, 40, SHARED, 1.5)
            svg.label_in(lx - 80, y, 160, 40, content, 18)
        svg.lines(x + 14, 296, [why1, why2], 18)
    svg.text(10, 374, say("Without the barrier, the two accesses may come in either order: racecheck reports the pair "
                          "(a hazard),", "Sans la barrière, les deux accès peuvent venir dans un ordre ou l'autre : "
                          "racecheck signale la paire (un aléa),"), 18)
    svg.text(10, 400, say("whatever values this run gave. Exercise 21's tiles need a barrier for RAW and one for WAR.",
                          "quelles que soient les valeurs obtenues. Les tuiles de l'exercice 21 : une barrière pour RAW, "
                          "une pour WAR."), 18)
    source_line(svg, say("Two threads of one block, one word `s[i]` of shared memory; time runs downwards.",
                         "Deux threads d'un bloc, un mot `s[i]` de mémoire partagée ; le temps s'écoule vers le bas."),
                y=440)
    return svg


@diagram("25")
def nccl_all_reduce(say):
    svg = Svg("nccl_all_reduce", 1160, 450, say("An all-reduce across two GPUs: reduce-scatter, then all-gather",
                                                  "Un all-reduce sur deux GPU : reduce-scatter, puis all-gather"))
    cell_w, cell_h, gpu_y = 126, 44, (70, 200)
    columns = [(10, say("each GPU's partial sum", "somme partielle par GPU")),
               (400, say("1. reduce-scatter", "1. reduce-scatter")), (790, say("2. all-gather", "2. all-gather"))]
    states = [[("a0", "a1"), ("b0", "b1")],
              [("a0 + b0", "a1"), ("b0", "a1 + b1")],
              [("a0 + b0", "a1 + b1"), ("a0 + b0", "a1 + b1")]]

    def cell(s, g, h):
        """(x, y) of the top-left corner of half h on GPU g, in column s."""
        return columns[s][0] + h * (cell_w + 10), gpu_y[g]

    for s, (x, head) in enumerate(columns):
        svg.text(x, 24, head, 20, bold=True)
        for g in range(2):
            # GPU 0 above its halves, GPU 1 below: the arrows between them cross no label.
            svg.text(x, gpu_y[g] - 8 if g == 0 else gpu_y[g] + cell_h + 22, f"GPU {g}", 18, bold=True,
                     colour=DEVICE[1])
            for h in range(2):
                content = states[s][g][h]
                summed = "+" in content
                stale = s == 1 and not summed  # sent to the other GPU, no longer needed
                cx, cy = cell(s, g, h)
                svg.rect(cx, cy, cell_w, cell_h, DEVICE if summed else (IDLE if stale else HBM), 1.5)
                svg.label_in(cx, cy, cell_w, cell_h, content, 18, bold=summed,
                             colour=MUTED if stale else INK)

    def send(start, end):
        """An arrow from the bottom or top of one half to the top or bottom of another."""
        (s0, g0, h0), (s1, g1, h1) = start, end
        x0, y0 = cell(s0, g0, h0)
        x1, y1 = cell(s1, g1, h1)
        svg.line(x0 + cell_w / 2, y0 + (cell_h + 2 if g0 == 0 else -2), x1 + cell_w * 0.8,
                 y1 + (-4 if g1 == 1 else cell_h + 4), THREAD[1], 2.5, arrow=True)

    send((0, 0, 1), (1, 1, 1))  # GPU 0 sends a1; GPU 1 adds it to b1
    send((0, 1, 0), (1, 0, 0))  # GPU 1 sends b0; GPU 0 adds it to a0
    send((1, 0, 0), (2, 1, 0))  # then each sends the half it summed
    send((1, 1, 1), (2, 0, 1))
    svg.lines(400, 302, [say("each sends the half it does not", "chacun envoie la moitié qu'il ne"),
                         say("keep and adds the one it gets", "garde pas, ajoute celle reçue")], 18)
    svg.lines(790, 302, [say("each sends the half it summed", "chacun envoie la moitié"),
                         say("to the other", "qu'il a sommée à l'autre")], 18)
    svg.lines(10, 302, [say("a0, a1: GPU 0's halves", "a0, a1 : moitiés du GPU 0"),
                        say("b0, b1: GPU 1's", "b0, b1 : celles du GPU 1")], 18)
    svg.text(10, 366, say("Each GPU sends n/2 + n/2 bytes of an n-byte buffer: busbw = bytes / time x 2 (N - 1) / N "
                          "= algbw for N = 2.",
                          "Chaque GPU envoie n/2 + n/2 octets d'un tampon de n octets : busbw = octets / temps "
                          "x 2 (N - 1) / N = algbw pour N = 2."), 18)
    svg.text(10, 398, say(f"Measured on two H200s (NVLink, exercise 25): busbw {ALL_REDUCE_BUSBW_GBS} GB/s for 256 MiB.",
                          f"Mesuré sur deux H200 (NVLink, exercice 25) : busbw de {ALL_REDUCE_BUSBW_GBS.replace('-', ' à ')} GB/s pour "
                          f"256 MiB."), 18, bold=True, colour=DEVICE[1])
    source_line(svg, say("`ncclAllReduce(..., ncclSum, ...)` on both ranks; NCCL chooses its algorithm: a ring is shown.",
                         "`ncclAllReduce(..., ncclSum, ...)` sur les deux rangs ; NCCL choisit l'algorithme : ici un "
                         "anneau."), y=440)
    return svg


@diagram("25")
def peer_access(say):
    svg = Svg("peer_access", 1160, 440, say("Two GPUs: a peer copy over NVLink, or a copy staged through the host",
                                              "Deux GPU : copie pair à pair par NVLink, ou relayée par l'hôte"))
    # The host on top, the two GPUs below.
    svg.rect(380, 10, 400, 110, HOST, 2)
    svg.text(580, 40, say("Host", "Hôte"), 20, "middle", bold=True, colour=HOST[1])
    svg.rect(430, 56, 300, 48, ("#ffffff", HOST[1]))
    svg.label_in(430, 56, 300, 48, say("pinned buffer", "tampon épinglé"), 18, bold=True)
    for g, x in enumerate((60, 800)):
        svg.rect(x, 200, 300, 110, DEVICE, 2)
        svg.text(x + 150, 232, f"GPU {g}", 20, "middle", bold=True, colour=DEVICE[1])
        svg.rect(x + 30, 248, 240, 46, ("#ffffff", DEVICE[1]))
        svg.label_in(x + 30, 248, 240, 46, say("its memory (HBM)", "sa mémoire (HBM)"), 18)
    # Peer: straight across.
    svg.line(364, 272, 796, 272, DEVICE[1], 5, arrow=True)
    svg.text(580, 262, say(f"`cudaMemcpyPeerAsync`: {PEER_COPY_GBS} GB/s",
                           f"`cudaMemcpyPeerAsync` : {PEER_COPY_GBS} GB/s"), 18, "middle", bold=True,
             colour=DEVICE[1])
    svg.text(580, 298, say("peer to peer over NVLink, no host", "pair à pair par NVLink, sans l'hôte"), 18, "middle")
    # Staged: up, then down, over PCIe twice.
    svg.line(230, 196, 430, 110, HOST[1], 3, arrow=True, dash="8,5")
    svg.line(730, 110, 930, 196, HOST[1], 3, arrow=True, dash="8,5")
    svg.text(20, 150, say("1. PCIe up", "1. PCIe, montée"), 18, bold=True, colour=HOST[1])
    svg.text(1140, 150, say("2. PCIe down", "2. PCIe, descente"), 18, "end", bold=True, colour=HOST[1])
    svg.text(580, 150, say(f"staged through the host: {STAGED_COPY_GBS} GB/s",
                           f"relayée par l'hôte : {STAGED_COPY_GBS} GB/s".replace(".", ",")), 18, "middle", bold=True,
             colour=HOST[1])
    svg.text(10, 352, say("`cudaDeviceEnablePeerAccess` once each way; every call acts on the current device "
                          "(`cudaSetDevice`).", "`cudaDeviceEnablePeerAccess` une fois dans chaque sens ; chaque appel "
                          "agit sur le GPU courant (`cudaSetDevice`)."), 18)
    svg.text(10, 378, say("`nvidia-smi topo -m` shows the link: NV18 is 18 NVLinks; PIX, PHB, SYS mean PCIe paths.",
                          "`nvidia-smi topo -m` montre le lien : NV18 pour 18 NVLinks ; PIX, PHB, SYS pour des chemins PCIe."),
             18)
    source_line(svg, say("Measured by exercise 25 on two H200s linked by 18 NVLinks: 256 MiB from GPU 0 to GPU 1.",
                         "Mesuré par l'exercice 25 sur deux H200 reliés par 18 NVLinks : 256 MiB du GPU 0 au GPU 1."),
                y=430)
    return svg


@diagram("25")
def nccl_processes(say):
    svg = Svg("nccl_processes", 1160, 454, say("One process for both GPUs, or one process per GPU",
                                                 "Un processus pour les deux GPU, ou un processus par GPU"))
    for panel, x in enumerate((6, 590)):
        svg.rect(x, 10, 564, 340, ("#ffffff", INK), 1.5)
    # One process, one thread, two ranks: the group.
    svg.text(20, 42, say("One process, two ranks (the check)", "Un processus, deux rangs (le correcteur)"), 20, bold=True)
    svg.rect(20, 60, 536, 170, HOST, 1.5)
    svg.text(34, 88, say("process: `ncclCommInitAll`", "processus : `ncclCommInitAll`"), 18, bold=True)
    svg.lines(34, 120, ["`ncclGroupStart()`", "`ncclAllReduce(..., comms[0], streams[0])`",
                        "`ncclAllReduce(..., comms[1], streams[1])`", "`ncclGroupEnd()`"], 18)
    for g in range(2):
        svg.rect(40 + g * 270, 250, 236, 44, DEVICE, 1.5)
        svg.label_in(40 + g * 270, 250, 236, 44, say(f"GPU {g} = rank {g}", f"GPU {g} = rang {g}"), 18, bold=True)
    svg.text(20, 330, say("without the group, the first call waits", "sans le groupe, le premier appel attend"), 18)
    # One process per GPU: the id.
    svg.text(604, 42, say("One process per GPU (MPI, Slurm)", "Un processus par GPU (MPI, Slurm)"), 20, bold=True)
    for r in range(2):
        x = 604 + r * 270
        svg.rect(x, 60, 260, 170, HOST, 1.5)
        svg.text(x + 12, 88, say(f"rank {r}", f"rang {r}"), 18, bold=True)
        svg.lines(x + 12, 120, ["`ncclGetUniqueId`" if r == 0 else say("receives the id", "reçoit l'id"),
                                "`ncclCommInitRank`", "`ncclAllReduce`"], 18)
        svg.rect(x + 12, 250, 236, 44, DEVICE, 1.5)
        svg.label_in(x + 12, 250, 236, 44, say(f"its GPU (local {r})", f"son GPU (local {r})"), 18, bold=True)
    svg.line(864, 114, 878, 114, HOST[1], 2.5, arrow=True)
    svg.text(604, 330, say("rank 0's id, broadcast by MPI", "l'id du rang 0, diffusé par MPI"), 18)
    svg.text(10, 380, say("A rank's GPU is its place among the ranks of its node (local 0, 1, ...), not its rank number;",
                          "Le GPU d'un rang est sa place parmi les rangs de son nœud (local 0, 1...), pas son numéro ;"),
             18)
    svg.text(10, 406, say("with `srun --gpus-per-task=1`, each rank sees only its own GPU, as device 0.",
                          "avec `srun --gpus-per-task=1`, chaque rang ne voit que son GPU, comme device 0."), 18)
    source_line(svg, say("Exercise 25: the check joins two ranks from two threads; `mpirun -np 2 ex25_ranks` runs "
                         "them as processes.", "Exercice 25 : le correcteur joint deux rangs depuis deux threads ; "
                         "`mpirun -np 2 ex25_ranks` les lance en processus."), y=444)
    return svg


@diagram("26")
def mma_fragment_lanes(say):
    """Which lane of a warp holds which element of C in one mma.sync m16n8k16 (its PTX layout)."""
    svg = Svg("mma_fragment_lanes", 1160, 500, say("One mma.sync m16n8k16: which lane holds which element of C",
                                                     "Un mma.sync m16n8k16 : quelle lane tient quel élément de C"))
    rows, cols, cell_w, cell_h, left, top = 16, 8, 46, 25, 90, 56
    svg.text(10, 24, say("C's 16 x 8 tile; each cell shows the lane that holds it",
                         "La tuile de C de 16 x 8 ; chaque case montre la lane qui la tient"), 20, bold=True)
    for c in range(cols):
        svg.text(left + c * cell_w + cell_w / 2, top - 8, str(c), 18, "middle", colour=MUTED)
    for r in range(rows):
        svg.text(left - 10, top + r * cell_h + 19, str(r), 18, "end", colour=MUTED)
        colours = THREAD if r < rows // 2 else REGISTERS
        for c in range(cols):
            lane = (r % 8) * 4 + c // 2
            svg.rect(left + c * cell_w, top + r * cell_h, cell_w, cell_h, colours, 1, rx=0)
            svg.label_in(left + c * cell_w, top + r * cell_h, cell_w, cell_h, str(lane), 18,
                         bold=lane == 5)
    x = left + cols * cell_w + 40
    svg.lines(x, top + 20, [
        say("Lane l holds 4 floats of C:", "La lane l tient 4 floats de C :"),
        say("  c0, c1 at row l / 4, columns 2 (l % 4) and + 1", "  c0, c1 en ligne l / 4, colonnes 2 (l % 4) et + 1"),
        say("  c2, c3 at row l / 4 + 8, the same columns", "  c2, c3 en ligne l / 4 + 8, mêmes colonnes"),
        say("  (lane 5, in bold: rows 1 and 9, columns 2 and 3)",
            "  (lane 5, en gras : lignes 1 et 9, colonnes 2 et 3)"),
        say("A, 16 x 16 halves: 8 per lane in 4 registers, rows l / 4", "A, 16 x 16 en FP16 : 8 par lane en 4 registres,"),
        say("  and l / 4 + 8, columns 2 (l % 4) + {0, 1} and + 8",
            "  lignes l / 4 et l / 4 + 8, colonnes 2 (l % 4) + {0, 1} et + 8"),
        say("B, 16 x 8 halves: 4 per lane in 2 registers, column l / 4,",
            "B, 16 x 8 en FP16 : 4 par lane en 2 registres, colonne l / 4,"),
        say("  rows 2 (l % 4) + {0, 1} and + 8", "  lignes 2 (l % 4) + {0, 1} et + 8"),
        say("One instruction: 16 x 8 x 16 = 2048 multiply-adds",
            "Une instruction : 16 x 8 x 16 = 2048 multiplications-additions"),
        say("by the 32 lanes together; ldmatrix fills A and B", "par les 32 lanes ensemble ; ldmatrix remplit A et B"),
    ], 18)
    source_line(svg, say("PTX ISA, mma.m16n8k16 with .f16 inputs and .f32 sums; exercise 26, step 3 "
                         "(`mma_16x8x16`).", "PTX ISA, mma.m16n8k16, entrées .f16, sommes .f32 ; exercice 26, "
                         "étape 3 (`mma_16x8x16`)."), y=490)
    return svg


@diagram("26")
def tensor_core_tiles(say):
    """Exercise 26's tile hierarchy in step 3: the block's tile of C, a warp's, an MMA's."""
    svg = Svg("tensor_core_tiles", 1160, 460, say("C in tiles (step 3): a block's 128 x 256, a warp's 64 x 64, an "
                                                    "MMA's 16 x 8",
                                                    "C en tuiles (étape 3) : 128 x 256 par bloc, 64 x 64 par warp, "
                                                    "16 x 8 par MMA"))
    top = 60
    # The block: 128 x 256 at 1.25 px per element, 2 x 4 warps of 64 x 64.
    scale = 1.25
    bx = 20
    svg.text(bx, top - 14, say("block: 8 warps, 2 x 4", "bloc : 8 warps, 2 x 4"), 20, bold=True)
    for w in range(8):
        wr, wc = divmod(w, 4)
        colours = THREAD if w == 0 else DEVICE
        svg.rect(bx + wc * 64 * scale, top + wr * 64 * scale, 64 * scale, 64 * scale, colours, 1.5, rx=0)
        svg.label_in(bx + wc * 64 * scale, top + wr * 64 * scale, 64 * scale, 64 * scale,
                     f"w{w}", 18, bold=w == 0)
    svg.text(bx, top + 128 * scale + 28, say("128 x 256 of C", "128 x 256 de C"), 18)
    # A warp: 64 x 64 at 5 px per element, 4 x 8 MMA tiles of 16 x 8.
    scale = 5
    wx = 420
    svg.text(wx, top - 14, say("warp w0: 4 x 8 MMA tiles", "warp w0 : 4 x 8 tuiles MMA"), 20, bold=True)
    for f in range(4):
        for g in range(8):
            colours = REGISTERS if (f, g) == (0, 0) else THREAD
            svg.rect(wx + g * 8 * scale, top + f * 16 * scale, 8 * scale, 16 * scale, colours, 1.2, rx=0)
    svg.text(wx, top + 64 * scale + 28, say("64 x 64: 128 floats per lane", "64 x 64 : 128 floats par lane"), 18)
    svg.line(bx + 64 * 1.25 / 2, top, wx - 6, top, MUTED, 1.2, arrow=True, dash="6,4")
    # An MMA.
    mx = 770
    svg.text(mx, top - 14, say("one mma.sync m16n8k16", "un mma.sync m16n8k16"), 20, bold=True)
    svg.rect(mx, top, 8 * 10, 16 * 10, REGISTERS, 1.5, rx=0)
    svg.line(wx + 8 * scale + 4, top + 6, mx - 6, top + 6, MUTED, 1.2, arrow=True, dash="6,4")
    svg.lines(mx + 100, top + 24, [say("16 x 8 of C:", "16 x 8 de C :"), say("4 floats per lane", "4 floats par lane"),
                                   say("k in steps of 16", "k par pas de 16")], 18)
    svg.lines(mx, top + 200, [
        say("Per warp, per slice of 32 of k:", "Par warp et tranche de 32 de k :"),
        say("2 k-steps x (4 ldmatrix of A", "2 pas de k x (4 ldmatrix de A"),
        say("+ 4 of B + 32 mma.sync);", "+ 4 de B + 32 mma.sync) ;"),
        say("a fragment of A serves 8 MMAs,", "un fragment de A sert 8 MMA,"),
        say("one of B 4", "un de B 4"),
    ], 18)
    source_line(svg, say("Exercise 26, step 3 (step 2: 128 x 128 per block, 64 x 32 per warp, 4 x 2 WMMA fragments "
                         "of 16 x 16).",
                         "Exercice 26, étape 3 (étape 2 : 128 x 128 par bloc, 64 x 32 par warp, 4 x 2 fragments "
                         "WMMA de 16 x 16)."), y=450)
    return svg


@diagram("26")
def cp_async_pipeline(say):
    """Exercise 26's step 3 over time: which stage each slice's copy fills while the MMAs read another."""
    stages, steps = PIPELINE_STAGES, 5
    ahead = stages - 1  # slices in flight while the MMAs read one
    svg = Svg("cp_async_pipeline", 1160, 400,
              say(f"{stages} stages: {ahead} slices' copies in flight while the MMAs use one",
                  f"{stages} étages : {ahead} tranches en copie pendant que les MMA en lisent une"))
    left, step_w, lane_h, top = 190, 188, 48, 52
    svg.text(left + step_w / 2, top - 12, say("before", "avant"), 18, "middle", bold=True)
    for s in range(steps - 1):
        svg.text(left + (s + 1) * step_w + step_w / 2, top - 12, say(f"slice s = {s}", f"tranche s = {s}"), 18,
                 "middle", bold=True)
    for stage in range(stages):
        y = top + stage * lane_h
        svg.text(left - 12, y + 31, say(f"stage {stage}", f"étage {stage}"), 18, "end", bold=True, colour=SHARED[1])
        svg.line(left, y + lane_h - 3, left + steps * step_w, y + lane_h - 3, "#dddddd", 1)

    def box(column, stage, label, colours):
        x, y = left + column * step_w + 6, top + stage * lane_h + 5
        svg.rect(x, y, step_w - 12, lane_h - 10, colours, 1.5)
        svg.label_in(x, y, step_w - 12, lane_h - 10, label, 18, bold=colours == DEVICE)

    for first in range(ahead):
        box(0, first, say(f"copy {first}", f"copie {first}"), HBM)
    for s in range(steps - 1):
        box(s + 1, s % stages, say(f"MMA {s}", f"MMA {s}"), DEVICE)
        box(s + 1, (s + ahead) % stages, say(f"copy {s + ahead}", f"copie {s + ahead}"), HBM)
        x = left + (s + 1) * step_w
        svg.line(x, top - 4, x, top + stages * lane_h + 4, INK, 2.5, dash="8,5")
    svg.lines(10, top + stages * lane_h + 40, [
        say(f"Each dashed line: cp.async.wait_group {stages - 2} (slice s has landed), then __syncthreads()",
            f"Chaque trait pointillé : cp.async.wait_group {stages - 2} (la tranche s est arrivée), puis "
            "__syncthreads()"),
        say("(everyone's copies of s are in, and nobody still reads the stage of s - 1);",
            "(les copies de s de tous sont là, et plus personne ne lit l'étage de s - 1) ;"),
        say(f"then copy s + {ahead} starts into that stage, and the tensor cores work on s.",
            f"puis la copie de s + {ahead} part dans cet étage, et les tensor cores calculent sur s."),
    ], 18)
    source_line(svg, say(f"Exercise 26, step 3: slices of 32 values of k, kPipelineStages = {stages}, one commit per "
                         "slice.",
                         f"Exercice 26, étape 3 : tranches de 32 valeurs de k, kPipelineStages = {stages}, un commit "
                         "par tranche."), y=390)
    return svg


@diagram("26")
def wgmma_tma_pipeline(say):
    """Exercise 26's step 4: a producer warpgroup fills 4 stages with TMA, two consumer
    warpgroups read them with wgmma, a full and an empty mbarrier per stage between them."""
    svg = Svg("wgmma_tma_pipeline", 1160, 500, say("Step 4: a producer fills 4 stages, two consumers empty them",
                                                     "Étape 4 : un producteur remplit 4 étages, deux "
                                                     "consommateurs les vident"))
    top, stage_h, gap = 58, 62, 12
    # The producer, on the left.
    px, pw = 10, 250
    svg.rect(px, top, pw, 4 * stage_h + 3 * gap, THREAD, 1.5)
    svg.lines(px + 12, top + 30, [say("producer:", "producteur :"), say("warpgroup 0", "groupe de warps 0")],
              20, bold=True)
    svg.lines(px + 12, top + 110, [
        say("thread 0, slice t:", "thread 0, tranche t :"),
        say("wait empty[t % 4],", "attend empty[t % 4],"),
        say("expect_tx, then", "expect_tx, puis"),
        say("5 TMA boxes", "5 boîtes TMA"),
    ], 18)
    # The stages in shared memory, in the middle: A's 16 KiB box, B's 4 boxes of 8 KiB.
    sx, a_w, b_w = 370, 90, 45
    svg.text(sx, top - 14, say("shared memory: 4 stages", "mémoire partagée : 4 étages"), 20, bold=True,
             colour=SHARED[1])
    for s in range(4):
        y = top + s * (stage_h + gap)
        svg.rect(sx, y, a_w, stage_h, SHARED, 1.5, rx=0)
        svg.label_in(sx, y, a_w, stage_h, "A", 18, bold=True)
        for j in range(4):
            svg.rect(sx + a_w + j * b_w, y, b_w, stage_h, SHARED, 1.2, rx=0)
            svg.label_in(sx + a_w + j * b_w, y, b_w, stage_h, "B", 18)
        svg.text(sx - 10, y + 38, f"{s}", 18, "end", bold=True, colour=SHARED[1])
        svg.text(sx + a_w + 4 * b_w + 10, y + 26, f"full[{s}]", 18, mono=True)
        svg.text(sx + a_w + 4 * b_w + 10, y + 50, f"empty[{s}]", 18, mono=True)
    svg.line(px + pw + 4, top + 2 * stage_h, sx - 30, top + 2 * stage_h, SHARED[1], 2, arrow=True)
    svg.text(px + pw + 12, top + 2 * stage_h - 10, "TMA", 18, bold=True, colour=SHARED[1])
    # The consumers, on the right.
    cx, cw, ch = 820, 330, 2 * stage_h + gap / 2
    for c in range(2):
        y = top + c * (ch + gap)
        svg.rect(cx, y, cw, ch, DEVICE, 1.5)
        svg.lines(cx + 12, y + 30, [
            say(f"consumer: warpgroup {c + 1}", f"consommateur : groupe {c + 1}"),
            say(f"rows {64 * c}-{64 * c + 63}, 128 floats a thread", f"lignes {64 * c}-{64 * c + 63}, 128 floats/thread"),
            say("wait full[t % 4], 4 wgmma,", "attend full[t % 4], 4 wgmma,"),
            say("commit, wait_group 1", "commit, wait_group 1"),
        ], 18)
    svg.line(cx - 70, top + stage_h + 4, cx - 4, top + stage_h + 4, DEVICE[1], 2, arrow=True)
    svg.line(cx - 70, top + 3 * stage_h + gap + 4, cx - 4, top + 3 * stage_h + gap + 4, DEVICE[1], 2, arrow=True)
    # The consumers free a stage: an arrow back to the producer, under the stages.
    back_y = top + 4 * stage_h + 3 * gap + 26
    svg.polyline([(cx + cw / 2, top + 2 * ch + gap), (cx + cw / 2, back_y), (px + pw / 2, back_y),
                  (px + pw / 2, top + 4 * stage_h + 3 * gap + 4)], MUTED, 2, arrow=True)
    svg.text(px + pw / 2 + 14, back_y + 26, say("empty[s]: lane 0 of each of the 8 consumer warps arrives once "
                                                "slice s's wgmmas are done",
                                                "empty[s] : la lane 0 de chacun des 8 warps consommateurs arrive "
                                                "quand les wgmma de s sont finis"), 18)
    svg.lines(10, back_y + 72, [
        say("full[s]: 1 arrival (the producer's expect_tx) and the stage's bytes, which TMA completes;",
            "full[s] : 1 arrivée (l'expect_tx du producteur) et les octets de l'étage, que TMA complète ;"),
        say("slice t waits for phase t / 4 of full[t % 4]: parity (t / 4) & 1.",
            "la tranche t attend la phase t / 4 de full[t % 4] : parité (t / 4) & 1."),
    ], 18)
    source_line(svg, say("Exercise 26, step 4: 128 x 256 tiles of C, slices of 64, kWgmmaStages = 4, 197632 bytes "
                         "of shared memory.",
                         "Exercice 26, étape 4 : tuiles de C de 128 x 256, tranches de 64, kWgmmaStages = 4, "
                         "197\u00a0632 octets de mémoire partagée."), y=490)
    return svg


DIAGRAMS = [runtime_over_driver, driver_objects, nvrtc_path, ptx_vs_cubin, application_time, dot_two_stage, reduction_tree,
            generated_kernels, kernel_cache, csr, spmv_balanced, cg_loop, sgemm_tiles, register_blocking, sgemm_steps,
            float4_loads, double_buffer, transpose_naive, transpose_tile, transpose_banks, default_stream, streams_timeline,
            sanitizer_tools, barrier_hazards, nccl_all_reduce, peer_access, nccl_processes,
            mma_fragment_lanes, tensor_core_tiles, cp_async_pipeline, wgmma_tma_pipeline]
