"""The course's tools, one package behind one command (tools/course; course_tools.cli holds
the list of subcommands). Its parts, each a sub-package:

    student/    what a students' copy runs (make NN, run-NN, check-NN, make, make test,
                make slides, the prerequisites); the release ships it whole
    grading/    the grader (grade): one submission or a class, its reports
    release/    the students' copy (release): what ships, the leak check, updating a copy
    report/     the benchmark report (report): the demos' measurements, the seeds' systems
    authoring/  the maintainers' checks and generators: new-exercise, skeleton regions,
                statement and deck parity, the diagrams
    suite/      the GPU suite (gpu_suite.sh) and its summaries: speed margins, GPU lock holds

The parts import student/ and each other, never the other way round: student/ imports only
itself, so a students' copy, which holds student/ alone, runs whole.
"""
