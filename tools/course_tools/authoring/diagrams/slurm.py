"""The diagrams of the cluster deck (slides/slurm.md and slurm.fr.md), in the order the deck shows them.
They are schematics of how a cluster is built and how Slurm runs a job: no measured number."""
from course_tools.authoring.diagrams.svg import (Svg, source_line, diagram, INK, MUTED, HOST, DEVICE, THREAD, SHARED, L2, HBM,
                                                 IDLE)

WHITE = ("#ffffff", INK)


def gpu(svg, x, y, w, h, label, size=18):
    svg.rect(x, y, w, h, DEVICE, 1.5)
    svg.label_in(x, y, w, h, label, size, bold=True)


@diagram()
def cluster(say):
    svg = Svg("cluster", 1100, 476, say("A cluster: login nodes, compute nodes with GPUs, a network and a shared file system",
              "Un cluster : nœuds de connexion, nœuds de calcul avec GPU, un réseau et un système de fichiers partagé"))
    # You, and the login node.
    svg.rect(10, 40, 130, 70, IDLE, 1.5)
    svg.label_in(10, 40, 130, 40, say("you", "vous"), 20, bold=True)
    svg.text(75, 98, say("laptop", "portable"), 18, "middle", colour=MUTED)
    svg.line(144, 75, 206, 75, INK, 2, arrow=True)
    svg.text(175, 62, "ssh", 18, "middle", mono=True)
    # The login node ends 80 px before the controller: room for the `sbatch` label between them.
    svg.rect(210, 20, 310, 120, HOST, 2)
    svg.text(226, 50, say("login node", "nœud de connexion"), 20, bold=True, colour=HOST[1])
    svg.lines(226, 76, [say("edit, compile, submit,", "éditer, compiler, soumettre,"),
                        say("read logs;", "lire les journaux ;"), say("never run", "jamais exécuter")], 18, leading=1.2)
    # The scheduler.
    svg.rect(600, 20, 300, 120, SHARED, 2)
    svg.text(616, 50, say("Slurm controller", "contrôleur Slurm"), 20, bold=True, colour=SHARED[1])
    svg.lines(616, 80, [say("`slurmctld`: the queue,", "`slurmctld` : la file,"),
                        say("decides where jobs run", "place les jobs sur les nœuds")], 18)
    svg.line(524, 75, 596, 75, INK, 2, arrow=True)
    svg.text(560, 62, "`sbatch`", 18, "middle")
    # The network.
    svg.rect(10, 170, 1080, 30, IDLE, 1.2, rx=0)
    svg.label_in(10, 170, 1080, 30, say("the network (Ethernet, InfiniBand)", "le réseau (Ethernet, InfiniBand)"), 18,
                 bold=True)
    for x in (390, 750):
        svg.line(x, 140, x, 170, INK, 2)
    # The compute nodes.
    for n in range(4):
        x = 10 + n * 272
        svg.line(x + 130, 200, x + 130, 246, INK, 2)
        svg.rect(x, 246, 260, 140, DEVICE if n < 3 else HOST, 2)
        svg.text(x + 14, 274, say(f"compute node {n + 1}", f"nœud de calcul {n + 1}"), 19, bold=True)
        svg.text(x + 246, 274, "`gpu`" if n < 3 else "`cpu`", 18, "end", colour=MUTED)
        svg.rect(x + 14, 286, 232, 34, HOST, 1.2)
        svg.label_in(x + 14, 286, 232, 34, say("CPU cores, memory", "cœurs CPU, mémoire"), 18)
        if n < 3:
            for g in range(4):
                gpu(svg, x + 14 + g * 59, 330, 55, 40, "GPU", 18)
    # The shared file system.
    svg.rect(10, 406, 1080, 40, L2, 1.5)
    svg.label_in(10, 406, 1080, 40, say("shared file system: `$HOME`, the course, the logs, seen by every node",
                                        "système de fichiers partagé : `$HOME`, le cours, les journaux, vus par tous "
                                        "les nœuds"), 19, bold=True)
    svg.text(1090, 464, say("`gpu`, `cpu`: the nodes' partition (schematic)", "`gpu`, `cpu` : la partition "
                            "des nœuds (schéma)"), 18, "end", colour=MUTED)
    return svg


@diagram()
def node(say):
    svg = Svg("node", 1100, 460, say("Inside a GPU node: CPUs and their memory, GPUs on PCIe, NVLink between GPUs",
              "L'intérieur d'un nœud GPU : les CPU et leur mémoire, les GPU sur PCIe, NVLink entre les GPU"))
    # Two CPU sockets with their memory.
    for s in range(2):
        x = 10 + s * 550
        svg.rect(x, 10, 530, 110, HOST, 2)
        svg.text(x + 16, 40, say(f"CPU {s}: cores", f"CPU {s} : cœurs"), 20, bold=True, colour=HOST[1])
        for c in range(12):
            svg.rect(x + 16 + c * 26, 54, 22, 22, ("#ffffff", HOST[1]), 1, rx=2)
        svg.rect(x + 350, 50, 164, 56, WHITE, 1.2)
        svg.label_in(x + 350, 50, 164, 56, say("host memory", "mémoire hôte"), 18)
        svg.text(x + 16, 104, "`--cpus-per-task`, `--mem`", 18)
    svg.line(540, 65, 560, 65, HOST[1], 3, both=True)
    # PCIe switches to the GPUs.
    for s in range(2):
        x = 10 + s * 550
        svg.rect(x + 140, 150, 250, 40, HOST, 1.5)
        svg.label_in(x + 140, 150, 250, 40, say("PCIe switch", "commutateur PCIe"), 18, bold=True)
        svg.line(x + 265, 122, x + 265, 148, HOST[1], 3)
        for g in range(2):
            gx = x + 30 + g * 260
            svg.line(x + 265, 192, gx + 105, 238, HOST[1], 3)
            svg.rect(gx, 240, 210, 110, DEVICE, 2)
            svg.text(gx + 14, 268, f"GPU {s * 2 + g}", 20, bold=True, colour=DEVICE[1])
            svg.rect(gx + 14, 282, 182, 52, HBM, 1.2)
            svg.label_in(gx + 14, 282, 182, 52, say("its own memory", "sa propre mémoire"), 18)
    # NVLink between the GPUs, where the node has it.
    svg.line(250, 370, 860, 370, THREAD[1], 4, both=True)
    svg.text(555, 396, say("NVLink (or NVSwitch), where the node has it: GPU to GPU without the CPU",
                           "NVLink (ou NVSwitch), si le nœud en a : de GPU à GPU sans passer par le CPU"), 18, "middle",
             bold=True, colour=THREAD[1])
    svg.lines(10, 428, [say("`--gres=gpu:1`: one of the four; the job sees it as device 0 (`CUDA_VISIBLE_DEVICES`)",
                            "`--gres=gpu:1` : un des quatre ; le job le voit comme device 0 (`CUDA_VISIBLE_DEVICES`)")],
              19)
    svg.text(1090, 452, say("schematic", "schéma"), 18, "end", colour=MUTED)
    return svg


@diagram()
def job_path(say):
    svg = Svg("job_path", 1100, 470, say("A job's path: sbatch on the login node, slurmctld, slurmd on a GPU node, the log",
              "Le chemin d'un job : sbatch sur le nœud de connexion, slurmctld, slurmd sur un nœud GPU, le journal"))

    def station(x, y, w, colours, title, lines):
        svg.rect(x, y, w, 130, colours, 2)
        svg.text(x + 14, y + 30, title, 20, bold=True, colour=colours[1])
        svg.lines(x + 14, y + 62, lines, 18)

    station(10, 20, 320, HOST, say("1. login node", "1. nœud de connexion"),
            ["`sbatch job.sh`", say("→ Submitted batch job 4211", "→ Submitted batch job 4211")])
    station(390, 20, 330, SHARED, say("2. `slurmctld`", "2. `slurmctld`"),
            [say("the queue: PD pending until", "la file : PD, en attente"),
             say("a GPU, cores, memory are free", "de GPU, cœurs et mémoire libres")])
    station(780, 20, 310, DEVICE, say("3. GPU node: `slurmd`", "3. nœud GPU : `slurmd`"),
            [say("R running: the script's", "R en cours : les commandes"), say("commands, on its GPU", "du script, sur son GPU")])
    svg.line(334, 85, 386, 85, INK, 2.5, arrow=True)
    svg.line(724, 85, 776, 85, INK, 2.5, arrow=True)
    # What comes back.
    station(780, 230, 310, L2, say("4. the log", "4. le journal"),
            ["`logs/%x-%j.log`", say("on the shared file system", "sur le système partagé")])
    svg.line(935, 154, 935, 226, INK, 2.5, arrow=True)
    svg.text(945, 196, say("stdout, stderr", "stdout, stderr"), 18)
    station(390, 230, 330, SHARED, say("5. accounting", "5. comptabilité"),
            ["`sacct -j 4211`", say("state, time, memory, exit code", "état, durée, mémoire, code")])
    svg.path("M 935,154 C 935,200 700,180 640,226", INK, 2, arrow=True, dash="6 4")
    station(10, 230, 320, HOST, say("6. you, on the login node", "6. vous, nœud de connexion"),
            ["`tail -f`, `squeue -u $USER`", say("`scancel 4211` to stop it", "`scancel 4211` pour l'arrêter")])
    svg.line(386, 295, 334, 295, INK, 2.5, arrow=True)
    svg.line(776, 330, 334, 330, INK, 2, arrow=True, dash="6 4")
    svg.lines(10, 420, [
        say("States: PD pending, R running, CG completing; then COMPLETED, FAILED, TIMEOUT, ...", "États : PD en attente, R en cours, CG en fin ; puis COMPLETED, FAILED, TIMEOUT, ..."),
        say("Schematic: the daemons' names are Slurm's; the job id is an example.",
            "Schéma : les noms des démons sont ceux de Slurm ; le numéro de job est un exemple.")], 18, colour=INK)
    return svg


@diagram()
def batch_interactive(say):
    svg = Svg("batch_interactive", 1100, 420, say("Batch or interactive: a script in the queue, or a shell on an allocation",
              "Batch ou interactif : un script dans la file, ou un shell sur une allocation"))
    # Batch.
    svg.text(10, 30, say("batch: `sbatch job.sh`", "batch : `sbatch job.sh`"), 20, bold=True)
    steps = [(HOST, say("script", "script")), (SHARED, say("waits in the queue", "attend dans la file")),
             (DEVICE, say("runs on its own GPU and cores", "s'exécute sur ses ressources")), (L2, say("log", "journal"))]
    widths = [140, 260, 400, 140]
    x = 10
    for (colours, label), w in zip(steps, widths):
        svg.rect(x, 48, w, 50, colours, 1.5)
        svg.label_in(x, 48, w, 50, label, 18, bold=True)
        x += w + 40
        if x < 1000:
            svg.line(x - 38, 73, x - 4, 73, INK, 2, arrow=True)
    svg.text(10, 132, say("you may log out; it ends when done or at its time limit; for checks, runs, measurements",
                          "vous pouvez vous déconnecter ; il finit seul ou à sa limite ; pour les vérifications, les mesures"),
             18)
    # Interactive.
    svg.text(10, 200, say("interactive: `salloc`, then `srun --pty bash -l`", "interactif : `salloc`, puis "
                          "`srun --pty bash -l`"), 20, bold=True)
    svg.rect(10, 218, 1080, 110, SHARED, 1.5, dash="8 5")
    svg.text(24, 244, say("the allocation: held, used or not, until `exit` or the time limit",
                          "l'allocation : retenue, utilisée ou non, jusqu'à `exit` ou la limite"), 18,
             colour=SHARED[1])
    for k, (label, w) in enumerate([(say("a shell on the node", "un shell sur le nœud"), 290),
                                    ("`compute-sanitizer ...`", 290), (say("think, idle", "réflexion, inactif"), 200),
                                    ("`exit`", 140)]):
        xx = 24 + sum([290, 290, 200][:k]) + k * 30
        colours = IDLE if k == 2 else DEVICE
        svg.rect(xx, 258, w, 52, colours, 1.2)
        svg.label_in(xx, 258, w, 52, label, 18, bold=k != 2)
    svg.lines(10, 366, [
        say("Interactive: for exploring (sanitizer, profiler, debugger); an idle allocation still holds the GPU.",
            "Interactif : pour explorer (sanitizer, profileur, débogueur) ; une allocation inactive garde le GPU."),
        say("The course's way: `slurm/interactive` (a shell) and `make submit-check-NN` (a batch job).",
            "À la manière du cours : `slurm/interactive` (un shell) et `make submit-check-NN` (un job batch).")],
        18)
    return svg


@diagram()
def course_scripts(say):
    svg = Svg("course_scripts", 1100, 440, say("The course's scripts: the site configuration becomes the sbatch line",
              "Les scripts du cours : la configuration du site devient la ligne sbatch"))
    svg.rect(10, 10, 420, 250, L2, 2)
    svg.text(26, 40, "`slurm/site.conf`", 20, bold=True)
    svg.lines(26, 74, ["COURSE_PARTITION=gpu", 'COURSE_GPU_REQUEST="--gres=gpu:1"', "COURSE_TIME_STUDENT=0:10:00",
                       "COURSE_CPUS_STUDENT=1", "COURSE_MEM_STUDENT=4G", "COURSE_MODULES=..."], 18, mono=True)
    svg.rect(520, 10, 570, 110, HOST, 2)
    svg.text(536, 40, say("you type", "vous tapez"), 20, bold=True, colour=HOST[1])
    svg.lines(536, 74, ["make submit-check-03", say("or: slurm/submit check 03", "ou : slurm/submit check 03")], 19,
              mono=True)
    svg.rect(520, 150, 570, 110, DEVICE, 2)
    svg.text(536, 180, say("`slurm/submit` reads both", "`slurm/submit` lit les deux"), 20, bold=True,
             colour=DEVICE[1])
    svg.lines(536, 212, [say("checks every setting, names the missing one;", "vérifie chaque réglage, nomme "
                             "celui qui manque ;"),
                         say("`--print` shows the command, submits nothing", "`--print` montre la commande, ne "
                             "soumet rien")], 18)
    svg.line(434, 200, 516, 200, INK, 2.5, arrow=True)
    svg.line(805, 124, 805, 146, INK, 2.5, arrow=True)
    svg.line(805, 264, 805, 292, INK, 2.5, arrow=True)
    # The sbatch line it builds, in pieces coloured by where they come from.
    svg.rect(10, 296, 1080, 96, ("#ffffff", INK), 1.5)
    svg.lines(24, 326, ["sbatch --parsable --job-name=course-03-check --output=logs/03-check-%j.log",
                        "  --chdir=~/course --export=ALL --partition=gpu --time=0:10:00 --ntasks=1",
                        "  --cpus-per-task=1 --mem=4G --gres=gpu:1 slurm/jobs/check.sbatch 03"], 18, mono=True,
              leading=1.4)
    source_line(svg, say("Schematic: the line `slurm/submit --print check 03` prints with the example site "
                          "configuration, paths shortened.", "Schéma : la ligne qu'affiche `slurm/submit --print "
                          "check 03` avec la configuration d'exemple, chemins raccourcis."), y=424)
    return svg


@diagram()
def job_array(say):
    svg = Svg("job_array", 1100, 430, say("Grading a class: a job array, one task per submission, then a collecting job",
              "Corriger une promotion : un tableau de jobs, une tâche par rendu, puis un job de collecte"))
    svg.text(10, 30, "sbatch --array=0-11%4 grade-task.sbatch", 20, mono=True, bold=True)
    svg.text(1090, 30, say("at most 4 tasks at a time", "au plus 4 tâches à la fois"), 19, "end", bold=True)
    tasks, per_row, w = 12, 4, 258
    for t in range(tasks):
        x, y = 10 + (t % per_row) * (w + 16), 50 + (t // per_row) * 62
        colours = DEVICE if t < 6 else (SHARED if t < 10 else IDLE)  # %4: 4 running while tasks wait
        svg.rect(x, y, w, 50, colours, 1.5)
        svg.label_in(x, y, w, 50, say(f"task {t}: student {t + 1}", f"tâche {t} : étudiant {t + 1}"), 18)
    svg.rect(10, 260, 520, 30, DEVICE, 1.2)
    svg.label_in(10, 260, 520, 30, say("done: one result file each", "finies : un fichier de résultat chacune"), 18)
    svg.rect(560, 260, 250, 30, SHARED, 1.2)
    svg.label_in(560, 260, 250, 30, say("running", "en cours"), 18)
    svg.rect(840, 260, 250, 30, IDLE, 1.2)
    svg.label_in(840, 260, 250, 30, say("pending", "en attente"), 18)
    svg.line(550, 296, 550, 326, INK, 2.5, arrow=True)
    svg.rect(180, 330, 740, 56, L2, 2)
    svg.label_in(180, 330, 740, 56, say("collecting job (`--dependency=afterany`): the gradebook",
                                        "job de collecte (`--dependency=afterany`) : le relevé de notes"), 19, bold=True)
    svg.text(10, 418, say("`afterany`: it runs whatever the tasks' states; it lists what was not graded, and why.",
                          "`afterany` : il s'exécute quel que soit l'état des tâches ; il liste ce qui n'a pas été "
                          "noté, et pourquoi."), 18)
    return svg


DIAGRAMS = [cluster, node, job_path, batch_interactive, job_array, course_scripts]
