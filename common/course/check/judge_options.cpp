// The check harness, the check's command line: --help's text and the parser (declared in
// judge_options.hpp).
// Compiled once into course_check, which every check links (CMakeLists.txt,
// tools/course_tools/student/nvcc.py): a check.cpp compiles its cases alone.
#include "course/check/judge_options.hpp"

#include "course/check/message.hpp"

namespace course::check {

void print_usage(const std::string& exercise_number) {
  // What a student uses comes first, in the chosen language; the instructors' options follow
  // in English (graders read them, and the docs quote them).
  const Message students{
      "usage: check_{} --program PATH [options]\n"
      "  --program PATH          the program under test (built from the student's files)\n"
      "  --seed N                seed of the inputs (default {}, or COURSE_CHECK_SEED;\n"
      "                          graders pick their own)\n"
      "  --case NAME             run only this case (repeatable)\n"
      "  --list                  list the cases and their points\n"
      "  --lang fr|en            the language of the messages and hints (see below)\n"
      "language: the messages and hints are in French with --lang fr or COURSE_LANG=fr, or\n"
      "  where neither is given and the locale (LC_ALL, LC_MESSAGES, then LANG) starts with fr;\n"
      "  in English otherwise, and in a self-test (--expect) without --lang.\n"
      "  make check-NN LANG=fr sets COURSE_LANG=fr.\n"
      "instructors' options:\n",
      "usage : check_{} --program CHEMIN [options]\n"
      "  --program CHEMIN        le programme testé (construit à partir de vos fichiers)\n"
      "  --seed N                la graine des entrées (par défaut {}, ou COURSE_CHECK_SEED ;\n"
      "                          les enseignants choisissent la leur)\n"
      "  --case NOM              n'exécuter que ce cas (répétable)\n"
      "  --list                  lister les cas et leurs points\n"
      "  --lang fr|en            la langue des messages et des pistes (voir plus bas)\n"
      "langue : les messages et les pistes sont en français avec --lang fr ou COURSE_LANG=fr,\n"
      "  ou quand aucun des deux n'est donné et que la locale (LC_ALL, LC_MESSAGES, puis LANG)\n"
      "  commence par fr ; en anglais sinon, et dans un autotest (--expect) sans --lang.\n"
      "  make check-NN LANG=fr définit COURSE_LANG=fr.\n"
      "Les options des enseignants, en anglais :\n"};
  std::fputs(students.with(exercise_number, kDefaultSeed).text().c_str(), stdout);
  std::fputs(
      "  --list-json             the same as JSON, with each case's speed bars (the source of\n"
      "                          the statements' case tables and tests/speed_bars.md)\n"
      "  --host-only             run only the cases that need no GPU (the CPU side)\n"
      "  --sanitizer PATH        run every case under compute-sanitizer memcheck\n"
      "  --sanitizer-tool NAME   with --sanitizer: memcheck (default), racecheck, synccheck\n"
      "                          or initcheck\n"
      "  --compute-sanitizer PATH  where compute-sanitizer is, for the cases that run under a\n"
      "                          tool of their own (without it they are not graded)\n"
      "  --timeout-scale X       multiply every time limit by X\n"
      "  --summary FILE          write one tab-separated result line to FILE\n"
      "  --variant NAME          name of what is checked, for the report and the summary\n"
      "  --library PATH          the student's files built as a shared library (exercises\n"
      "                          that are also called from Python)\n"
      "  --exercise-dir PATH     the exercise's folder (its instructor-owned callers)\n"
      "  --gpu-lock FILE         share the GPU with the other checks that name FILE: runs\n"
      "                          whose time is judged get it alone, the others share it\n"
      "  --record-times FILE     write each case's time (for a later --plain-times)\n"
      "  --plain-times FILE      case times of a plain run: under the sanitizer, each run's\n"
      "                          limit is 20x its case's time there (at least 5 s)\n"
      "  --speed-record FILE     write each speed bar's figure, bar and margin (one line each,\n"
      "                          tab-separated; tools/course speed-margins reads them)\n"
      "  --site-bars FILE        judge speed against FILE's bars where FILE was measured on\n"
      "                          this GPU (make calibrate; default: $COURSE_SITE_BARS)\n"
      "grading:\n"
      "  --report-json FILE      write every case's result as JSON to FILE\n"
      "  --stop-after-timeouts N after N runs over their time limit, fail the other cases unrun\n"
      "  --memory-limit-mb N     stop the program when it holds more than N MiB of host memory\n"
      "  --run-as USER           run the program as USER, with a process limit and a clean\n"
      "                          environment (the check must run as root), in a private mount\n"
      "                          namespace that shows only /bin /sbin /lib* /usr /etc /dev\n"
      "                          /proc /sys, private empty /tmp and /dev/shm, the program's\n"
      "                          scratch folder and the --show paths; every other folder\n"
      "                          (/home /root /srv /opt /var /mnt, a course anywhere) is an\n"
      "                          empty read-only folder, or holds only the branch of a shown\n"
      "                          one (/run: the scratch folder)\n"
      "  --show PATH             keep PATH visible too (repeatable; with --run-as): a toolkit\n"
      "                          or a Python outside /usr (/ shows everything: for tests)\n"
      "  --hide PATH             make PATH invisible to the program, even inside /usr\n"
      "                          (repeatable; with --run-as)\n"
      "self-test of the check (used by CTest):\n"
      "  --expect pass|fail      exit 0 when the verdict is this, 1 otherwise\n"
      "  --expect-hint TEXT      ...and the report contains TEXT (repeatable)\n"
      "  --expect-score N        ...and the score is N\n"
      "  --expect-clean          ...and no run crashed, hung or flooded its output\n"
      "  --declared-points N     the points CMake declared; must equal the cases' sum\n",
      stdout);
}

bool parse_options(int argc, char** argv, Options& options, std::string& error) {
  if (const char* seed = std::getenv("COURSE_CHECK_SEED")) {
    try {
      options.seed = std::stoull(seed);
    } catch (const std::exception&) {
      error = "COURSE_CHECK_SEED is not a number";
      return false;
    }
  }
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    auto next = [&](std::string& value) {
      if (i + 1 >= argc) {
        error = flag + " needs a value";
        return false;
      }
      value = argv[++i];
      return true;
    };
    std::string value;
    try {
      if (flag == "--program") {
        if (!next(options.program)) return false;
      } else if (flag == "--seed") {
        if (!next(value)) return false;
        options.seed = std::stoull(value);
      } else if (flag == "--case") {
        if (!next(value)) return false;
        options.only_cases.push_back(value);
      } else if (flag == "--host-only") {
        options.host_only = true;
      } else if (flag == "--list") {
        options.list_only = true;
      } else if (flag == "--list-json") {
        options.list_only = true;
        options.list_json = true;
      } else if (flag == "--sanitizer-tool") {
        if (!next(options.sanitizer_tool)) return false;
        if (!is_sanitizer_tool(options.sanitizer_tool)) {
          error = "--sanitizer-tool must be memcheck, racecheck, synccheck or initcheck";
          return false;
        }
      } else if (flag == "--sanitizer" || flag == "--compute-sanitizer") {
        if (!next(value)) return false;
        if (flag == "--sanitizer") options.sanitizer_requested = true;
        // CMake passes "<name>-NOTFOUND" when the tool is missing.
        if (!value.empty() && value.find("NOTFOUND") == std::string::npos)
          options.sanitizer = value;
      } else if (flag == "--timeout-scale") {
        if (!next(value)) return false;
        options.timeout_scale = std::stod(value);
      } else if (flag == "--summary") {
        if (!next(options.summary_path)) return false;
      } else if (flag == "--variant") {
        if (!next(options.variant)) return false;
      } else if (flag == "--library") {
        if (!next(options.library)) return false;
      } else if (flag == "--exercise-dir") {
        if (!next(options.exercise_dir)) return false;
      } else if (flag == "--gpu-lock") {
        if (!next(options.gpu_lock_path)) return false;
      } else if (flag == "--record-times") {
        if (!next(options.record_times_path)) return false;
      } else if (flag == "--speed-record") {
        if (!next(options.speed_record_path)) return false;
      } else if (flag == "--site-bars") {
        if (!next(options.site_bars_path)) return false;
      } else if (flag == "--plain-times") {
        if (!next(options.plain_times_path)) return false;
      } else if (flag == "--report-json") {
        if (!next(options.report_json_path)) return false;
      } else if (flag == "--stop-after-timeouts") {
        if (!next(value)) return false;
        options.stop_after_timeouts = std::stoi(value);
      } else if (flag == "--memory-limit-mb") {
        if (!next(value)) return false;
        options.memory_limit_mb = std::stoull(value);
      } else if (flag == "--run-as") {
        if (!next(options.run_as)) return false;
      } else if (flag == "--show") {
        if (!next(value)) return false;
        options.shown_paths.push_back(value);
      } else if (flag == "--hide") {
        if (!next(value)) return false;
        options.hidden_paths.push_back(value);
      } else if (flag == "--lang") {
        if (!next(options.lang)) return false;
        if (options.lang != "fr" && options.lang != "en") {
          error = "--lang takes fr or en";
          return false;
        }
      } else if (flag == "--expect") {
        if (!next(options.expect)) return false;
        if (options.expect != "pass" && options.expect != "fail") {
          error = "--expect takes pass or fail";
          return false;
        }
      } else if (flag == "--expect-hint") {
        if (!next(value)) return false;
        options.expect_hints.push_back(value);
      } else if (flag == "--expect-score") {
        if (!next(value)) return false;
        options.expect_score = std::stoi(value);
      } else if (flag == "--expect-clean") {
        options.expect_clean = true;
      } else if (flag == "--declared-points") {
        if (!next(value)) return false;
        options.declared_points = std::stoi(value);
      } else if (flag == "--help" || flag == "-h") {
        error = "help";
        return false;
      } else {
        error = "unknown option " + flag;
        return false;
      }
    } catch (const std::exception&) {
      error = "bad value for " + flag;
      return false;
    }
  }
  if (options.program.empty() && !options.list_only) {
    error = "--program is required";
    return false;
  }
  if ((!options.hidden_paths.empty() || !options.shown_paths.empty()) && options.run_as.empty()) {
    error = "--hide and --show need --run-as";
    return false;
  }
  return true;
}

}  // namespace course::check
