// The check harness, the judge: a case's runs and verdicts (CaseContext), and
// judge_main, which runs the cases and decides (declared in judge.hpp).
// Compiled once into course_check, which every check links (CMakeLists.txt,
// tools/course_tools/student/nvcc.py): a check.cpp compiles its cases alone.
#include "course/check/judge.hpp"

#include <dlfcn.h>

namespace course::check {

std::vector<std::string> program_lines(const std::string& output) {
  std::vector<std::string> lines;
  std::size_t at = 0;
  while (at < output.size()) {
    std::size_t end = output.find('\n', at);
    if (end == std::string::npos) end = output.size();
    std::string line = output.substr(at, end - at);
    at = end + 1;
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
      line.pop_back();
    }
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    if (line.compare(0, std::strlen(kSanitizerLinePrefix), kSanitizerLinePrefix) == 0) continue;
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string indent_excerpt(const std::string& text, std::size_t max_lines,
                           const std::string& prefix) {
  std::string out;
  std::size_t lines = 0, at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    if (lines < max_lines)
      out += prefix + text.substr(at, std::min<std::size_t>(end - at, 300)) + "\n";
    ++lines;
    at = end + 1;
  }
  if (lines > max_lines)
    out += prefix + "... (" + std::to_string(lines - max_lines) + " more lines)\n";
  return out;
}

Message describe_mismatch(const Comparison& comparison, Tolerance tolerance,
                          const std::string& what) {
  const Comparison& c = comparison;
  const Message bound = tolerance.atol == 0.0 && tolerance.rtol == 0.0
                            ? Message{"exact match required", "égalité exacte exigée"}
                            : Message{"tolerance |got - ref| <= {} + {} * |ref|",
                                      "tolérance |obtenu - réf| <= {} + {} * |réf|"}
                                  .with(tolerance.atol, tolerance.rtol);
  Message text = Message{"{}: {} of {} elements wrong", "{} : {} éléments faux sur {}"}.with(
      what, c.wrong, c.count);
  if (c.unwritten > 0) {
    text += Message{" ({} never written)", " ({} jamais écrits)"}.with(c.unwritten);
  }
  text += Message{"; ", " ; "} + bound + Message::verbatim("\n");
  const Message not_written{"<not written>", "<non écrit>"};
  for (const Mismatch& m : c.first) {
    text +=
        Message{"    index {}: expected {}, got {}\n", "    indice {} : attendu {}, obtenu {}\n"}
            .with(m.index, m.expected,
                  m.unwritten ? not_written : Message::verbatim(format_number(m.got)));
  }
  if (c.wrong > c.first.size()) {
    text +=
        Message{"    ... and {} more\n", "    ... et {} de plus\n"}.with(c.wrong - c.first.size());
  }
  if (c.max_abs_error > 0.0) {
    text += Message{"    max abs error {} at index {}\n",
                    "    plus grande erreur absolue {} à l'indice {}\n"}
                .with(c.max_abs_error, c.max_error_index);
  }
  return text;
}

Message sanitizer_hint(const std::string& tool) {
  if (tool == "racecheck") {
    return {"a shared-memory race: two threads of a block touch the same shared location, one "
            "of them writing, with no __syncthreads() between; the report names both accesses "
            "(build with -lineinfo for file:line).",
            "une situation de compétition en mémoire partagée : deux threads d'un bloc accèdent "
            "au même emplacement partagé, l'un d'eux en écriture, sans __syncthreads() entre "
            "les deux ; le rapport nomme les deux accès (compiler avec -lineinfo pour avoir "
            "fichier:ligne)."};
  }
  if (tool == "synccheck") {
    return {"a barrier that not every thread of the block reaches: a __syncthreads() inside a "
            "branch that some threads skip (an if on threadIdx.x or on the bounds) is divergent; "
            "the report names the kernel, the thread and the line of the barrier.",
            "une barrière que certains threads du bloc n'atteignent pas : un __syncthreads() "
            "dans une branche que certains threads sautent (un if sur threadIdx.x ou sur les "
            "bornes) est divergent ; le rapport nomme le kernel, le thread et la ligne de la "
            "barrière."};
  }
  if (tool == "initcheck") {
    return {"a read of device memory that nothing wrote: cudaMalloc gives memory with no "
            "defined contents; write it (cudaMemset, a copy, a kernel) before a kernel reads it.",
            "une lecture de mémoire du GPU que rien n'a écrite : cudaMalloc rend une mémoire au "
            "contenu indéfini ; écrivez-la (cudaMemset, une copie, un kernel) avant qu'un "
            "kernel la lise."};
  }
  return {"read the first error of compute-sanitizer's report: it names the kernel, the thread "
          "and the address (build with -lineinfo for file:line).",
          "lisez la première erreur du rapport de compute-sanitizer : elle nomme le kernel, le "
          "thread et l'adresse (compiler avec -lineinfo pour avoir fichier:ligne)."};
}

Run CaseContext::run_program(const std::vector<std::string>& args,
                             const std::vector<std::string>& environment, double timeout_seconds) {
  std::string key = std::to_string(timeout_seconds);
  for (const auto& words : {args, environment}) {
    key += '\n';
    for (const std::string& word : words) key += word + '\t';
  }
  auto& remembered = session_.remembered_runs();
  auto found = remembered.find(key);
  if (found == remembered.end()) {
    std::vector<std::string> command = {options_.program};
    command.insert(command.end(), args.begin(), args.end());
    Run run;
    run.child = session_.run_once(command, environment, session_.limit_for(name_, timeout_seconds),
                                  gpu_use_, name_);
    found = remembered.emplace(key, std::move(run)).first;
  }
  Run run = found->second;
  note_run(run);
  return run;
}

Run CaseContext::run_command(const std::vector<std::string>& program_and_args,
                             const std::vector<std::string>& environment, double timeout_seconds) {
  Run run;
  run.child = session_.run_once(program_and_args, environment,
                                session_.limit_for(name_, timeout_seconds), gpu_use_, name_);
  note_run(run);
  return run;
}

Run CaseContext::run_case(const std::string& kind,
                          const std::vector<std::pair<std::string, std::string>>& params,
                          std::uint64_t seed, double timeout_seconds) {
  Run run = session_.serve(case_words(kind, params, seed),
                           session_.limit_for(name_, timeout_seconds), gpu_use_, name_);
  note_run(run);
  session_.note_served(*this, run.sanitizer_errors);
  if (run.stayed_busy) note_stayed_busy(run);
  return run;
}

Run CaseContext::run_case_with(const std::vector<std::string>& launcher, const std::string& kind,
                               const std::vector<std::pair<std::string, std::string>>& params,
                               std::uint64_t seed, double timeout_seconds) {
  const std::string result_path =
      scratch_ + "/result-" + std::to_string(++run_counter_) + "-" + name_ + ".bin";
  unlink(result_path.c_str());
  std::vector<std::string> command = launcher;
  for (const std::string& word : case_words(kind, params, seed)) command.push_back(word);
  Run run =
      run_command(command, {std::string(kResultFileVariable) + "=" + result_path}, timeout_seconds);
  std::string data;
  if (read_file(result_path, data)) run.results = parse_results(data);
  unlink(result_path.c_str());
  return run;
}

Message how_it_ended(const ChildResult& child) {
  if (!child.started) return {"could not be started", "n'a pas pu être lancé"};
  if (child.timed_out) {
    return {"was stopped: time limit exceeded", "a été arrêté : limite de temps dépassée"};
  }
  if (child.output_limit_hit) {
    return {"was stopped: output limit exceeded", "a été arrêté : limite de sortie dépassée"};
  }
  if (child.memory_limit_hit) {
    return Message{"was stopped: memory limit exceeded ({} MiB resident)",
                   "a été arrêté : limite de mémoire dépassée ({} MiB résidents)"}
        .with(child.peak_memory_bytes >> 20);
  }
  if (child.exited) {
    return Message{"exited with status {}", "s'est terminé avec le code {}"}.with(child.exit_code);
  }
  return Message{"was killed by signal {} ({})", "a été tué par le signal {} ({})"}.with(
      child.signal, strsignal(child.signal));
}

bool CaseContext::ended_by_itself(const Run& run, const Message& what_ran) {
  const ChildResult& child = run.child;
  if (run.sanitizer_errors || child.output_limit_hit) return false;  // reported by note_run
  if (child.exited) return true;
  fail(what_ran + Message::verbatim(" ") + how_it_ended(child) +
       (child.output.empty()
            ? Message{"; it printed nothing", " ; il n'a rien affiché"}
            : Message{"; its output began:\n{}", " ; sa sortie commençait par :\n{}"}.with(
                  indent_excerpt(child.output, 10))));
  if (child.timed_out) {
    hint({"the program never ended: every loop and every kernel thread must reach its end, "
          "and the program must not wait for input.",
          "le programme ne s'est jamais terminé : chaque boucle et chaque thread de kernel "
          "doivent arriver à leur fin, et le programme ne doit pas attendre d'entrée."});
  } else if (child.started) {
    hint({"the program crashed on the host: check pointers and array sizes around the line "
          "where its output stops.",
          "le programme a planté sur l'hôte : vérifiez les pointeurs et les tailles de tableaux "
          "autour de la ligne où sa sortie s'arrête."});
  }
  return false;
}

bool CaseContext::finished(const Run& run) {
  if (run.sanitizer_errors) return false;  // already reported by note_run
  if (!run.results.format_error.empty()) {
    fail(Message{"the program's result file is malformed ({})",
                 "le fichier de résultats du programme est mal formé ({})"}
             .with(run.results.format_error));
    return false;
  }
  if (!run.results.finished) {
    fail(Message{"the program {} before finishing this case",
                 "le programme {} avant la fin de ce cas"}
             .with(how_it_ended(run.child)) +
         (run.child.output.empty() ? Message{"; it printed nothing", " ; il n'a rien affiché"}
                                   : Message{"; its output:\n{}", " ; sa sortie :\n{}"}.with(
                                         indent_excerpt(run.child.output))));
    if (run.child.timed_out) {
      hint({"a loop that never ends, or a kernel that never returns? Every thread must reach "
            "the end of the kernel.",
            "une boucle qui ne finit jamais, ou un kernel qui ne rend jamais la main ? Chaque "
            "thread doit arriver à la fin du kernel."});
    } else if (run.child.exited && run.child.exit_code == 0) {
      hint({"the program exited in the middle of the case: code under test must return to its "
            "caller, never call exit().",
            "le programme s'est terminé au milieu du cas : le code testé doit rendre la main à "
            "son appelant, jamais appeler exit()."});
    } else if (run.child.output.find("call:  kernel launch") != std::string::npos &&
               (run.child.output.find("cudaErrorInvalidConfiguration") != std::string::npos ||
                run.child.output.find("cudaErrorInvalidValue") != std::string::npos)) {
      hint({"invalid launch configuration: a grid needs at least one block (when n = 0, launch "
            "nothing) and a block at most 1024 threads.",
            "configuration de lancement invalide : une grille doit avoir au moins un bloc (quand "
            "n = 0, ne lancez rien) et un bloc au plus 1024 threads."});
    } else if (run.child.output.find("cudaErrorMisalignedAddress") != std::string::npos) {
      hint({"misaligned address: a float4 access needs an address that is a multiple of 16 bytes "
            "(x + 1 is not). Test every pointer with course::is_float4_aligned first, and fall "
            "back to one float per access when one of them is not aligned.",
            "adresse mal alignée : un accès float4 demande une adresse multiple de 16 octets "
            "(x + 1 ne l'est pas). Testez d'abord chaque pointeur avec course::is_float4_aligned, "
            "et revenez à un float par accès quand l'un d'eux n'est pas aligné."});
    } else if (run.child.output.find("cudaErrorIllegalAddress") != std::string::npos) {
      hint({"illegal address: a kernel read or wrote far outside its arrays. Check every index "
            "and every loop's bound against the length of what it reads (a float4 loop over "
            "n floats runs while v < n / 4).",
            "adresse illégale : un kernel a lu ou écrit loin hors de ses tableaux. Comparez "
            "chaque indice et la borne de chaque boucle à la longueur de ce qu'elle lit (une "
            "boucle float4 sur n floats tourne tant que v < n / 4)."});
    } else if (run.child.signal != 0) {
      hint({"a crash on the host: check host pointers, array sizes and that device pointers are "
            "never dereferenced on the host.",
            "un plantage sur l'hôte : vérifiez les pointeurs de l'hôte, les tailles de tableaux, "
            "et qu'aucun pointeur du GPU n'est déréférencé sur l'hôte."});
    }
    return false;
  }
  // Before any value is judged: a timed call that skipped its work says so first.
  if (!expect_timed_calls_did_their_work(run, false)) return false;
  const std::int64_t overruns = value_or(run, kOverrunRecord, 0);
  if (overruns > 0) {
    Message detail;
    auto found = run.results.records.find(kOverrunDetailRecord);
    if (found != run.results.records.end() && found->second.count == 2) {
      const auto values = found->second.values<std::int64_t>();
      detail = Message{" (a buffer of {} bytes was written at byte offset {})",
                       " (un tampon de {} octets a été écrit à l'octet {})"}
                   .with(values[0], values[1]);
    }
    fail(Message{"a kernel wrote past the end of a device buffer",
                 "un kernel a écrit au-delà de la fin d'un tampon du GPU"} +
         detail);
    hint({"out of bounds: threads beyond the last element must not write. Does the kernel "
          "check its index against n?",
          "hors bornes : les threads au-delà du dernier élément ne doivent pas écrire. Le "
          "kernel compare-t-il son indice à n ?"});
    return false;
  }
  return true;
}

bool CaseContext::expect_kernel_launched(const Run& run) {
  if (value_or(run, kKernelLaunchesRecord, 0) > 0) return true;
  fail({"the result was computed without launching a kernel",
        "le résultat a été calculé sans lancer de kernel"});
  hint({"this exercise computes on the GPU: the work must be done by a kernel launched with "
        "<<<blocks, threads>>>, not by a loop on the host.",
        "cet exercice calcule sur le GPU : le travail doit être fait par un kernel lancé avec "
        "<<<blocs, threads>>>, pas par une boucle sur l'hôte."});
  return false;
}

bool CaseContext::expect_no_leak(const Run& run) {
  const std::int64_t bytes = value_or(run, kLeakedBytesRecord, 0);
  const std::int64_t count = value_or(run, kLeakedAllocationsRecord, 0);
  if (bytes == 0 && count == 0) return true;
  fail(Message{"device memory leaked: {} allocation(s), {} bytes still allocated at the end",
               "fuite de mémoire du GPU : {} allocation(s), {} octets encore alloués à la fin"}
           .with(count, bytes));
  hint({"every cudaMalloc needs its cudaFree once the data is back on the host.",
        "chaque cudaMalloc demande son cudaFree une fois les données revenues sur l'hôte."});
  return false;
}

bool CaseContext::expect_transfer_bytes(const Run& run, std::int64_t host_to_device,
                                        std::int64_t device_to_host, const Message& fix) {
  std::int64_t to_device = 0, to_host = 0, copies_in = 0, copies_out = 0;
  if (!read_value(run, kHostToDeviceBytesRecord, to_device) ||
      !read_value(run, kDeviceToHostBytesRecord, to_host) ||
      !read_value(run, kHostToDeviceCopiesRecord, copies_in) ||
      !read_value(run, kDeviceToHostCopiesRecord, copies_out)) {
    return false;
  }
  if (to_device == host_to_device && to_host == device_to_host) return true;
  fail(Message{"host -> device: {} bytes in {} copies, expected {} bytes; device -> host: {} "
               "bytes in {} copies, expected {} bytes",
               "hôte -> GPU : {} octets en {} copies au lieu de {} octets ; GPU -> hôte : {} "
               "octets en {} copies au lieu de {} octets"}
           .with(to_device, copies_in, host_to_device, to_host, copies_out, device_to_host));
  hint(fix);
  return false;
}

bool CaseContext::expect_speed(const SpeedBar& bar, double measured, const Message& figures) {
  const bool declared = std::any_of(declared_bars_.begin(), declared_bars_.end(),
                                    [&](const SpeedBar& own) { return same_bar(own, bar); });
  if (!declared) {
    // The course's mistake, not the student's: the statements and the margin test read
    // each case's bars from its declaration, so a bar judged elsewhere would escape them.
    fail(Message::verbatim(std::string("the check judges a bar its case does not declare (\"") +
                           bar.figure + "\"): declare it in timed(case, {bars})"));
    return false;
  }
  Message why;
  const SpeedBar used = bar_on_this_gpu(bar, name_, why);
  speed_records_.push_back({name_, used, measured});
  if (!figures.empty()) add_line(figures.text());
  // Once a case: its bars share a reason.
  if (why.text() != bar_note_) {
    bar_note_ = why.text();
    add_line(bar_note_);
  }
  // A zero or missing time gives an infinite or undefined ratio: never a pass.
  const bool measurement = std::isfinite(measured) && measured > 0.0;
  if (measurement && clears(used, measured)) {
    add_line(describe_speed(used, measured).text());
    return true;
  }
  fail(describe_speed(used, measured) +
       (measurement ? Message{": on the wrong side of the bar", " : du mauvais côté du seuil"}
                    : Message{": not a measurement (a time of 0?)",
                              " : ce n'est pas une mesure (un temps de 0 ?)"}));
  return false;
}

bool CaseContext::expect_timed_calls_did_their_work(const Run& run, bool speed_case) {
  const auto found = run.results.records.find(kTimedCallsRecord);
  // A host-only runner (the course's tests without a GPU) has no device accounting.
  if (found == run.results.records.end() || found->second.count != 6) return true;
  const std::vector<std::int64_t> v = found->second.values<std::int64_t>();
  const std::int64_t calls = v[0], without_launch = v[1], checked = v[2], unwritten = v[3],
                     unwritten_words = v[4], other_stream = v[5];
  if (calls == 0 && !speed_case) return true;
  if (calls == 0) {
    fail({"this speed case timed none of the code under test through the course's audited "
          "timer (course::check::student_call): a fault of the exercise's harness, not of your "
          "code; tell your instructor",
          "ce cas de vitesse n'a chronométré aucun appel du code testé par le chronomètre "
          "contrôlé du cours (course::check::student_call) : un défaut du code d'encadrement "
          "de l'exercice (harness/), pas de votre code ; prévenez votre enseignant"});
    return false;
  }
  if (without_launch > 0) {
    fail(Message{"{} of the {} timed calls launched no kernel",
                 "{} des {} appels chronométrés n'ont lancé aucun kernel"}
             .with(without_launch, calls));
    hint({"each timed call must do the whole work again: a launcher that returns at once when "
          "it sees arguments it has seen before, or that hands back a result kept from an "
          "earlier call, is timed doing nothing, and loses the speed case.",
          "chaque appel chronométré doit refaire tout le travail : si un lanceur rend la main "
          "dès qu'il reconnaît des arguments déjà vus, ou rend un résultat gardé d'un appel "
          "précédent, on chronomètre un appel qui ne fait rien, et il perd le cas de vitesse."});
    return false;
  }
  if (unwritten > 0) {
    fail(Message{"the output of a timed call was not written: {} of the {} calls whose output "
                 "was poisoned before them left up to {} words as they were",
                 "la sortie d'un appel chronométré n'a pas été écrite : {} des {} appels dont la "
                 "sortie avait été empoisonnée avant eux en ont laissé jusqu'à {} mots tels quels"}
             .with(unwritten, checked, unwritten_words));
    hint({"each timed call must compute the whole result, whatever the size of its input: the "
          "course poisons the output before some timed calls, drawn at random, and reads it "
          "back after them.",
          "chaque appel chronométré doit calculer tout le résultat, quelle que soit la taille "
          "de son entrée : le cours empoisonne la sortie avant certains appels chronométrés, "
          "tirés au hasard, et la relit après eux."});
    return false;
  }
  if (other_stream > 0) {
    note(Message{"({} of the {} timed calls used streams of their own: the timer waited for them)",
                 "({} des {} appels chronométrés ont utilisé leurs propres streams : le "
                 "chronomètre les a attendus)"}
             .with(other_stream, calls));
  }
  return true;
}

bool CaseContext::read_times(const Run& run, std::initializer_list<TimeRead> times) {
  if (!expect_timed_calls_did_their_work(run, true)) return false;
  std::string measured;
  bool all_positive = true;
  for (const TimeRead& time : times) {
    if (!read_value(run, time.key, time.ms)) return false;
    all_positive = all_positive && time.ms > 0.0 && std::isfinite(time.ms);
    measured += (measured.empty() ? "" : ", ") + time.key.name + " " + format_number(time.ms);
  }
  if (!all_positive) {
    fail(Message{"the times measured are not all positive: {} (ms)",
                 "les temps mesurés ne sont pas tous positifs : {} (ms)"}
             .with(measured));
  }
  return all_positive;
}

bool CaseContext::times_judged() {
  if (!under_sanitizer()) return true;
  if (times_not_judged_noted_) return false;
  times_not_judged_noted_ = true;
  note({"(times are not judged under compute-sanitizer)",
        "(les temps ne sont pas jugés sous compute-sanitizer)"});
  return false;
}

bool CaseContext::judge_speed(const SpeedBar& bar, double ratio, const Message& figures,
                              const std::vector<Message>& hints) {
  if (!times_judged()) return true;
  if (expect_speed(bar, ratio, figures)) return true;
  for (const Message& text : hints) hint(text);
  return false;
}

bool CaseContext::read_text(const Run& run, const std::string& name, std::string& text) {
  if (!find_text(run, name, text)) {
    fail(Message{"the program reported no text '{}'", "le programme n'a rendu aucun texte « {} »"}
             .with(name));
    return false;
  }
  return true;
}

bool CaseContext::find_text(const Run& run, const std::string& name, std::string& text) {
  auto found = run.results.records.find(name);
  if (found == run.results.records.end() || found->second.type != ValueType::i32) return false;
  const std::vector<std::int32_t> bytes = found->second.values<std::int32_t>();
  text.assign(bytes.begin(), bytes.end());
  return true;
}

void CaseContext::not_graded(const Message& reason) {
  not_graded_ = true;
  lines_.clear();
  hints_.clear();
  add_line((Message{"not graded here: ", "non noté ici : "} + reason).text());
}

void CaseContext::hint(const Message& message) {
  const std::string& text = message.text();
  for (const std::string& known : hints_) {
    if (known == text) return;
  }
  hints_.push_back(text);
}

std::int64_t CaseContext::value_or(const Run& run, const std::string& name,
                                   std::int64_t fallback) const {
  auto found = run.results.records.find(name);
  if (found == run.results.records.end() || found->second.type != ValueType::i64 ||
      found->second.count != 1) {
    return fallback;
  }
  return found->second.values<std::int64_t>()[0];
}

void CaseContext::note_run(Run& run) {
  const ChildResult& c = run.child;
  if (c.timed_out || c.output_limit_hit || c.memory_limit_hit || (c.started && !c.exited)) {
    abnormal_ = true;
  }
  if (c.timed_out) ++timeouts_;
  if (c.memory_limit_hit) {
    fail(Message{"the program used more than {} MiB of host memory and was stopped",
                 "le programme a utilisé plus de {} MiB de mémoire de l'hôte et a été arrêté"}
             .with(options_.memory_limit_mb));
    hint({"a buffer sized with the wrong count, or an allocation inside a loop?",
          "un tampon dimensionné avec le mauvais nombre, ou une allocation dans une boucle ?"});
  }
  if (c.output_limit_hit) {
    fail(Message{"the program printed more than {} MiB and was stopped",
                 "le programme a affiché plus de {} MiB et a été arrêté"}
             .with(c.output_bytes >> 20));
    hint({"printing inside a large loop or kernel? Print a summary instead.",
          "un affichage dans une grande boucle ou dans un kernel ? Affichez plutôt un résumé."});
  }
  if (under_sanitizer() &&
      ((c.exited && c.exit_code == kSanitizerErrorExit) || sanitizer_found_errors(c.output))) {
    run.sanitizer_errors = true;
    fail(Message{"compute-sanitizer {} found errors:\n{}",
                 "compute-sanitizer {} a trouvé des erreurs :\n{}"}
             .with(tool_, indent_excerpt(sanitizer_lines(c.output), 40)));
    hint(sanitizer_hint(tool_));
  }
}

void CaseContext::note_stayed_busy(const Run& run) {
  const Message what =
      Message{"the program was still busy on the GPU {} s after writing its result (a kernel "
              "left running?) and was stopped",
              "le programme occupait encore le GPU {} s après avoir écrit son résultat (un "
              "kernel laissé en cours ?) et a été arrêté"}
          .with(run.busy_grace_seconds);
  if (!under_sanitizer()) {
    note(Message{"note: ", "remarque : "} + what);
    return;
  }
  // Under the sanitizer every such case costs the grace and a new start of the tool:
  // it counts as a time-out, so that --stop-after-timeouts bounds them.
  abnormal_ = true;
  ++timeouts_;
  fail(Message{"compute-sanitizer could not check the program to its end: ",
               "compute-sanitizer n'a pas pu vérifier le programme jusqu'à sa fin : "} +
       what);
  hint({"every kernel a function launches must have finished when it returns: wait for it "
        "(a copy back, cudaDeviceSynchronize) or do not launch it.",
        "chaque kernel qu'une fonction lance doit être terminé quand elle rend la main : "
        "attendez-le (une copie de retour, cudaDeviceSynchronize) ou ne le lancez pas."});
}

void CaseContext::add_line(const std::string& message) {
  std::size_t at = 0;
  while (at < message.size()) {
    std::size_t end = message.find('\n', at);
    if (end == std::string::npos) end = message.size();
    lines_ += "         " + message.substr(at, end - at) + "\n";
    at = end + 1;
  }
}

std::vector<std::string> CaseContext::case_words(
    const std::string& kind, const std::vector<std::pair<std::string, std::string>>& params,
    std::uint64_t seed) const {
  std::vector<std::string> words = {kCaseFlag, kind, kSeedFlag,
                                    std::to_string(seed != 0 ? seed : seed_)};
  for (const auto& [key, value] : params) {
    words.push_back(kParamFlag);
    words.push_back(key + "=" + value);
  }
  return words;
}

int visible_device_count(Message& reason) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    // The runtime says "insufficient driver" when there is no driver at all: tell the two
    // apart by loading the driver library, as tools/course_tools/student/cuda_device.py does.
    void* driver =
        status == cudaErrorInsufficientDriver ? dlopen("libcuda.so.1", RTLD_LAZY) : nullptr;
    if (status == cudaErrorInsufficientDriver && driver == nullptr) {
      reason = {"no NVIDIA driver: libcuda.so.1 is not installed",
                "pas de pilote NVIDIA : libcuda.so.1 n'est pas installé"};
    } else if (status == cudaErrorNoDevice) {
      reason = {"the NVIDIA driver sees no GPU (cudaErrorNoDevice; CUDA_VISIBLE_DEVICES?)",
                "le pilote NVIDIA ne voit aucun GPU (cudaErrorNoDevice ; CUDA_VISIBLE_DEVICES ?)"};
    } else {
      reason = Message::verbatim(std::string(cudaGetErrorName(status)) + ": " +
                                 cudaGetErrorString(status));
    }
    if (driver != nullptr) dlclose(driver);
    return 0;
  }
  if (count == 0) reason = {"the NVIDIA driver sees no GPU", "le pilote NVIDIA ne voit aucun GPU"};
  return count;
}

bool write_summary(const std::string& path, const Exercise& exercise, const std::string& variant,
                   int score, int max_score, bool passed) {
  std::error_code ignored;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ignored);
  std::FILE* summary = std::fopen(path.c_str(), "w");
  if (summary == nullptr) return false;
  std::fprintf(summary, "%s_%s\t%s\t%d\t%d\t%s\n", exercise.number.c_str(), exercise.name.c_str(),
               variant.c_str(), score, max_score, passed ? "PASS" : "FAIL");
  return std::fclose(summary) == 0;
}

bool prepare_confinement(Options& options, const std::string& scratch, std::string& error) {
  if (geteuid() != 0) {
    error = "--run-as needs the check to run as root";
    return false;
  }
  const passwd* user = getpwnam(options.run_as.c_str());
  if (user == nullptr) {
    error = "no user named '" + options.run_as + "'";
    return false;
  }
  if (user->pw_uid == 0) {
    error = "--run-as must name an unprivileged user";
    return false;
  }
  options.run_as_uid = user->pw_uid;
  options.run_as_gid = user->pw_gid;
  const std::string copy = scratch + "/program";
  std::error_code failed;
  std::filesystem::copy_file(options.program, copy, failed);
  if (failed || chmod(copy.c_str(), 0755) != 0 ||
      chown(scratch.c_str(), options.run_as_uid, options.run_as_gid) != 0) {
    error = "cannot prepare " + scratch + " for " + options.run_as;
    return false;
  }
  // The PTX that the build wrote beside the program (PTX_SOURCES; beside_program.hpp)
  // goes beside the copy, named after it, where the program looks for it.
  const std::filesystem::path original(options.program);
  const std::string prefix = original.filename().string() + ".";
  const std::filesystem::path folder =
      original.has_parent_path() ? original.parent_path() : std::filesystem::path(".");
  for (const auto& entry : std::filesystem::directory_iterator(folder, failed)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || name.rfind(prefix, 0) != 0 ||
        entry.path().extension() != ".ptx") {
      continue;
    }
    const std::string target = copy + "." + name.substr(prefix.size());
    std::filesystem::copy_file(entry.path(), target, failed);
    if (failed || chmod(target.c_str(), 0644) != 0) break;
  }
  if (failed) {
    error = "cannot copy the PTX beside " + options.program + " into " + scratch;
    return false;
  }
  options.program = copy;
  // The student's shared library and the instructor-owned callers beside it (Python
  // scripts) are copied too: the confined caller reads them from the scratch folder.
  if (!options.library.empty()) {
    const std::string library_copy =
        scratch + "/" + std::filesystem::path(options.library).filename().string();
    std::filesystem::copy_file(options.library, library_copy, failed);
    if (failed || chmod(library_copy.c_str(), 0755) != 0) {
      error = "cannot copy the library " + options.library + " into " + scratch;
      return false;
    }
    options.library = library_copy;
  }
  if (!options.exercise_dir.empty()) {
    const std::string callers = scratch + "/exercise";
    std::filesystem::create_directory(callers, failed);
    for (const auto& entry : std::filesystem::directory_iterator(options.exercise_dir, failed)) {
      if (!entry.is_regular_file()) continue;
      const std::string target = callers + "/" + entry.path().filename().string();
      std::filesystem::copy_file(entry.path(), target, failed);
      if (failed || chmod(target.c_str(), 0644) != 0) break;
    }
    if (failed) {
      error = "cannot copy " + options.exercise_dir + " into " + scratch;
      return false;
    }
    options.exercise_dir = callers;
  }
  return true;
}

std::string case_block(const CaseOutcome& outcome) {
  const Case& c = *outcome.c;
  const CaseContext& context = *outcome.context;
  char points[32];
  if (context.is_not_graded()) {
    std::snprintf(points, sizeof points, "SKIP   -/%-3d", c.points);
  } else {
    const bool ok = context.passed();
    std::snprintf(points, sizeof points, "%s %3d/%-3d", ok ? "PASS" : "FAIL", ok ? c.points : 0,
                  c.points);
  }
  char line[256];
  std::snprintf(line, sizeof line, "  %s %-34s (%.2f s)\n", points, c.name.c_str(),
                outcome.seconds);
  return line + context.report();
}

void judge_sanitizer_end(CaseContext& last, const ServerEnd& end, const CheckSession& session) {
  if (!end.was_running || !last.under_sanitizer()) return;
  if (!end.exited) {
    last.fail(Message{"compute-sanitizer could not check the program to its end: it did not end "
                      "after its last case (a process or a kernel it left running?) and was "
                      "stopped",
                      "compute-sanitizer n'a pas pu vérifier le programme jusqu'à sa fin : il "
                      "ne s'est pas terminé après son dernier cas (un processus ou un kernel "
                      "laissé en cours ?) et a été arrêté"} +
              (end.output.empty() ? Message()
                                  : Message{":\n{}", " :\n{}"}.with(
                                        indent_excerpt(sanitizer_lines(end.output), 20))));
    last.hint({"every kernel a function launches must have finished when it returns, and the "
               "program must not leave processes behind.",
               "chaque kernel qu'une fonction lance doit être terminé quand elle rend la main, "
               "et le programme ne doit pas laisser de processus derrière lui."});
    return;
  }
  const bool errors = end.exit_code == kSanitizerErrorExit || sanitizer_found_errors(end.output);
  if (!errors || session.instance_flagged()) return;
  const bool memcheck = last.sanitizer_tool() == "memcheck";
  last.fail(Message{"compute-sanitizer {} found errors, reported when the program ended after "
                    "this case{}:\n{}",
                    "compute-sanitizer {} a trouvé des erreurs, signalées quand le programme "
                    "s'est terminé après ce cas{} :\n{}"}
                .with(last.sanitizer_tool(),
                      memcheck ? Message{" (leaks are reported then)",
                                         " (les fuites sont signalées à ce moment)"}
                               : Message(),
                      indent_excerpt(sanitizer_lines(end.output), 40)));
  last.hint(memcheck ? Message{"read the first error of compute-sanitizer's report: a leak names "
                               "the cudaMalloc whose cudaFree is missing.",
                               "lisez la première erreur du rapport de compute-sanitizer : une "
                               "fuite nomme le cudaMalloc dont le cudaFree manque."}
                     : sanitizer_hint(last.sanitizer_tool()));
}

std::string exercise_json(const Exercise& exercise) {
  int total_points = 0;
  std::string cases;
  for (const Case& c : exercise.cases) {
    total_points += c.points;
    std::string bars;
    for (const SpeedBar& bar : c.bars) {
      bars += std::string(bars.empty() ? "" : ", ") + "{\"figure\": " + json_string(bar.figure) +
              ", \"kind\": " + (bar.kind == BarKind::at_least ? "\"at_least\"" : "\"at_most\"") +
              ", \"bar\": " + format_number(bar.bar) +
              ", \"reference\": " + json_string(bar.reference) + "}";
    }
    cases += std::string(cases.empty() ? "" : ",\n") + "    {\"name\": " + json_string(c.name) +
             ", \"points\": " + std::to_string(c.points) +
             ", \"hidden\": " + (c.hidden ? "true" : "false") +
             ", \"needs_gpu\": " + (c.needs_gpu ? "true" : "false") +
             ", \"judges_time\": " + (c.judges_time ? "true" : "false") +
             ", \"sanitizer_tool\": " + json_string(c.sanitizer_tool) + ", \"bars\": [" + bars +
             "]}";
  }
  return "{\n  \"number\": " + json_string(exercise.number) +
         ",\n  \"name\": " + json_string(exercise.name) +
         ",\n  \"points\": " + std::to_string(total_points) + ",\n  \"cases\": [\n" + cases +
         "\n  ]\n}\n";
}

// The name of the GPU the program runs on ("NVIDIA H200"), as site bars and speed records
// name it; "" where the runtime cannot tell.
std::string this_gpu_name() {
  cudaDeviceProp properties{};
  return cudaGetDeviceProperties(&properties, 0) == cudaSuccess ? properties.name : "";
}

// The site bars of --site-bars or COURSE_SITE_BARS, if any (speed_bar.hpp), for this
// exercise and this GPU. False, after saying why, for a file that cannot be used: a grading
// must not go on with other bars than it was told to use.
bool load_site_bars(const Options& options, const Exercise& exercise) {
  std::string path = options.site_bars_path;
  if (path.empty()) {
    const char* from_environment = std::getenv("COURSE_SITE_BARS");
    if (from_environment != nullptr) path = from_environment;
  }
  if (path.empty()) return true;
  SiteBars bars;
  std::string error;
  if (!read_site_bars(path, exercise.number, bars, error)) {
    std::fprintf(stderr, "check_%s: %s\n", exercise.number.c_str(), error.c_str());
    return false;
  }
  bars.current_gpu = this_gpu_name();
  bars.applies = !bars.current_gpu.empty() && bars.current_gpu == bars.gpu;
  use_site_bars(std::move(bars));
  return true;
}

int judge_main(int argc, char** argv, const Exercise& exercise) {
  choose_language(language_from_environment());
  Options options;
  std::string error;
  const bool parsed = parse_options(argc, argv, options, error);
  // A self-test's expected hints (--expect-hint) are English texts: neither a French locale
  // nor COURSE_LANG (make test LANG=fr) may fail it; --lang still chooses (the French
  // acceptance test, check.french_feedback_03, gives it).
  if (parsed && !options.lang.empty()) {
    choose_language(options.lang == "fr" ? Language::french : Language::english);
  } else if (parsed && !options.expect.empty()) {
    choose_language(Language::english);
  }
  if (!parsed) {
    print_usage(exercise.number);
    if (error == "help") return kExitPass;
    std::fprintf(stderr, "check_%s: %s\n", exercise.number.c_str(), error.c_str());
    return kExitMisuse;
  }
  int total_points = 0;
  for (const Case& c : exercise.cases) total_points += c.points;
  if (options.list_json) {
    std::fputs(exercise_json(exercise).c_str(), stdout);
    return kExitPass;
  }
  if (options.list_only) {
    // Points first, in a column of their own: a long case name cannot shift them.
    const Message hidden{" (hidden)", " (caché)"};
    const Message no_gpu{" (no GPU needed)", " (sans GPU)"};
    const Message point{"point", "point"}, points{"points", "points"};
    for (const Case& c : exercise.cases) {
      std::printf("%3d %-6s %s%s%s\n", c.points, (c.points == 1 ? point : points).text().c_str(),
                  c.name.c_str(), c.hidden ? hidden.text().c_str() : "",
                  c.needs_gpu ? "" : no_gpu.text().c_str());
    }
    std::printf("%3d %-6s %s\n", total_points, (total_points == 1 ? point : points).text().c_str(),
                Message{"total", "au total"}.text().c_str());
    return kExitPass;
  }
  if (options.declared_points >= 0 && options.declared_points != total_points) {
    std::fprintf(stderr,
                 "check_%s: CMake declares %d points but the cases add up to %d: update one\n",
                 exercise.number.c_str(), options.declared_points, total_points);
    return kExitMisuse;
  }
  for (const std::string& wanted : options.only_cases) {
    bool known = false;
    for (const Case& c : exercise.cases) known = known || c.name == wanted;
    if (!known) {
      std::fprintf(stderr, "check_%s: no case named '%s' (--list shows them)\n",
                   exercise.number.c_str(), wanted.c_str());
      return kExitMisuse;
    }
  }
  if (!is_executable(options.program)) {
    std::fprintf(stderr,
                 "check_%s: the program under test '%s' does not exist or cannot be run "
                 "(did it build?)\n",
                 exercise.number.c_str(), options.program.c_str());
    return kExitMisuse;
  }
  const std::string variant = options.variant.empty() ? options.program : options.variant;
  // "SKIPPED:" in both languages: scripts and people search for it (a CTest skip).
  auto skip = [&](const Message& why) {
    std::printf("SKIPPED: %s\n", why.text().c_str());
    if (!options.report_json_path.empty()) {
      write_report_json(options.report_json_path, exercise.number, exercise.name, variant,
                        options.seed, {}, why.text());
    }
    return kExitSkip;
  };
  auto selected = [&](const Case& c) {
    if (options.host_only && c.needs_gpu) return false;
    // CPU code alone gives compute-sanitizer nothing to check.
    if (options.sanitizer_requested && !c.needs_gpu) return false;
    if (options.only_cases.empty()) return true;
    for (const std::string& wanted : options.only_cases) {
      if (wanted == c.name) return true;
    }
    return false;
  };
  bool needs_gpu = false;
  int selected_cases = 0;
  for (const Case& c : exercise.cases) {
    if (!selected(c)) continue;
    ++selected_cases;
    needs_gpu = needs_gpu || (exercise.needs_gpu && c.needs_gpu);
  }
  if (selected_cases == 0) {
    std::fprintf(stderr, "check_%s: no case to run%s\n", exercise.number.c_str(),
                 options.host_only ? ": this exercise has no case that runs without a GPU" : "");
    return kExitMisuse;
  }
  Message reason;
  const int devices = needs_gpu ? visible_device_count(reason) : 0;
  if (needs_gpu && devices == 0) {
    return skip(Message{"check {} {} needs a CUDA device, and this machine has none ({})",
                        "le correcteur {} {} demande un GPU CUDA, et cette machine n'en a "
                        "aucun ({})"}
                    .with(exercise.number, exercise.name, reason));
  }
  if (needs_gpu && devices < exercise.devices) {
    return skip(Message{"check {} {} needs {} CUDA devices, and this machine has {}",
                        "le correcteur {} {} demande {} GPU CUDA, et cette machine en a {}"}
                    .with(exercise.number, exercise.name, exercise.devices, devices));
  }
  if (needs_gpu && !load_site_bars(options, exercise)) return kExitMisuse;
  if (options.sanitizer_requested && options.sanitizer.empty()) {
    return skip({"compute-sanitizer was not found on this machine",
                 "compute-sanitizer est introuvable sur cette machine"});
  }

  // A confined program gets private, empty temporary folders: its scratch folder, which
  // the check must see too, lives under /run (root's) instead of /tmp.
  std::string scratch_template = "/tmp/course-check-XXXXXX";
  if (!options.run_as.empty()) scratch_template = "/run/course-check-XXXXXX";
  const char* scratch = mkdtemp(scratch_template.data());
  if (scratch == nullptr) {
    std::perror("mkdtemp");
    return kExitMisuse;
  }
  if (!options.run_as.empty() && !prepare_confinement(options, scratch, error)) {
    std::fprintf(stderr, "check_%s: %s\n", exercise.number.c_str(), error.c_str());
    std::filesystem::remove_all(scratch);
    return kExitMisuse;
  }
  const Message heading =
      Message{"== check {} {}: {}, seed {}", "== correcteur {} {} : {}, graine {}"}.with(
          exercise.number, exercise.name, variant, options.seed) +
      (options.sanitizer_requested
           ? Message{", under compute-sanitizer {}", ", sous compute-sanitizer {}"}.with(
                 options.sanitizer_tool)
           : Message()) +
      (options.host_only
           ? Message{", the cases that need no GPU", ", les cas qui se passent de GPU"}
           : Message()) +
      Message::verbatim(" ==");
  std::printf("%s\n", heading.text().c_str());
  if (needs_gpu) std::printf("[%s]\n", describe_device(query_device(0)).c_str());
  std::fflush(stdout);

  CheckSession session(options, scratch);
  session.on_server_end(
      [&](CaseContext& last, const ServerEnd& end) { judge_sanitizer_end(last, end, session); });
  // A case under compute-sanitizer may still inherit what the tool reports when its
  // program ends (after the next case has started, or after the last): the cases are
  // printed once every program has ended.
  bool print_at_end = false;
  for (const Case& c : exercise.cases) print_at_end = print_at_end || !tool_of(c, options).empty();
  if (session.gpu_lock_failed()) {
    std::fprintf(stderr, "check_%s: cannot open the GPU lock %s\n", exercise.number.c_str(),
                 options.gpu_lock_path.c_str());
    std::filesystem::remove_all(scratch);
    return kExitMisuse;
  }
  std::vector<CaseOutcome> outcomes;
  int timeouts = 0;
  // A self-test that expects a failure with given hints, and nothing about the score or
  // the runs, is proved as soon as a case failed and every hint was printed: the other
  // cases (a known-wrong variant's timed runs among them) would prove nothing more.
  const bool stops_when_proved =
      options.expect == "fail" && options.expect_score < 0 && !options.expect_clean;
  std::string report_so_far;
  bool failed_so_far = false;
  // Such a self-test runs the timed cases last: they hold the GPU alone, and the failure
  // it expects is most often found before them.
  std::vector<const Case*> order;
  for (const Case& c : exercise.cases) {
    if (selected(c) && !(stops_when_proved && c.judges_time)) order.push_back(&c);
  }
  for (const Case& c : exercise.cases) {
    if (selected(c) && stops_when_proved && c.judges_time) order.push_back(&c);
  }
  int cases_left = static_cast<int>(order.size());
  for (const Case* next : order) {
    const Case& c = *next;
    if (stops_when_proved && failed_so_far &&
        std::all_of(options.expect_hints.begin(), options.expect_hints.end(),
                    [&](const std::string& h) {
                      return report_so_far.find(h) != std::string::npos;
                    })) {
      std::printf("  (the %d case(s) left are not run: the check already fails with every "
                  "expected hint)\n",
                  cases_left);
      break;
    }
    --cases_left;
    const std::string tool = tool_of(c, options);
    CaseOutcome outcome{&c,
                        std::make_unique<CaseContext>(options, session, c.name,
                                                      derive_seed(options.seed, name_hash(c.name)),
                                                      scratch, gpu_use(c), tool)};
    CaseContext& context = *outcome.context;
    context.declare_bars(c.bars);
    outcome.run = options.stop_after_timeouts <= 0 || timeouts < options.stop_after_timeouts;
    session.use_tool(tool);
    WallTimer timer;
    if (outcome.run && !tool.empty() && options.sanitizer.empty()) {
      context.not_graded(Message{"compute-sanitizer not found: this case runs the program under "
                                 "compute-sanitizer {} (give its path with --compute-sanitizer "
                                 "PATH)",
                                 "compute-sanitizer introuvable : ce cas exécute le programme "
                                 "sous compute-sanitizer {} (donnez son chemin avec "
                                 "--compute-sanitizer CHEMIN)"}
                             .with(tool));
    } else if (outcome.run) {
      c.body(context);
    } else {
      context.fail(Message{"not run: the program already exceeded its time limit {} times",
                           "non exécuté : le programme a déjà dépassé sa limite de temps {} fois"}
                       .with(timeouts));
    }
    outcome.seconds = timer.elapsed_ms() / 1e3;
    if (!context.is_not_graded()) timeouts += context.timeouts();
    if (outcome.run) session.record_time(c.name, outcome.seconds);
    failed_so_far = failed_so_far || (!context.is_not_graded() && !context.passed());
    report_so_far += context.report();
    outcomes.push_back(std::move(outcome));
    if (!print_at_end) print_case(outcomes.back());
  }
  session.finish();
  if (print_at_end) {
    for (const CaseOutcome& outcome : outcomes) print_case(outcome);
  }
  std::filesystem::remove_all(scratch);
  if (!options.speed_record_path.empty()) {
    std::vector<std::string> timed_cases;
    std::vector<SpeedRecord> records;
    for (const CaseOutcome& outcome : outcomes) {
      if (!outcome.c->judges_time || outcome.context->under_sanitizer()) continue;
      timed_cases.push_back(outcome.c->name);
      const auto& judged = outcome.context->speed_records();
      records.insert(records.end(), judged.begin(), judged.end());
    }
    if (!write_speed_records(options.speed_record_path, this_gpu_name(), timed_cases, records)) {
      std::fprintf(stderr, "check_%s: cannot write the speed records %s\n", exercise.number.c_str(),
                   options.speed_record_path.c_str());
      return kExitMisuse;
    }
  }
  if (!session.write_recorded_times()) {
    std::fprintf(stderr, "check_%s: cannot write the case times %s\n", exercise.number.c_str(),
                 options.record_times_path.c_str());
    return kExitMisuse;
  }

  int score = 0, max_score = 0, cases_run = 0, cases_passed = 0;
  int cases_not_graded = 0, points_not_graded = 0;
  bool any_abnormal = false;
  std::string full_report;
  std::vector<CaseReport> reports;
  for (const CaseOutcome& outcome : outcomes) {
    const Case& c = *outcome.c;
    const CaseContext& context = *outcome.context;
    // A case not graded here (a tool it needs is missing) is out of the score and its
    // maximum; the others count.
    const bool graded = !context.is_not_graded();
    const bool ok = graded && context.passed();
    if (graded) {
      ++cases_run;
      max_score += c.points;
      if (ok) {
        ++cases_passed;
        score += c.points;
      }
      any_abnormal = any_abnormal || context.abnormal();
    } else {
      ++cases_not_graded;
      points_not_graded += c.points;
    }
    full_report += case_block(outcome);
    reports.push_back(
        {c.name, c.points, ok, c.hidden, outcome.run && graded, outcome.seconds, context.report()});
  }

  const bool passed = cases_passed == cases_run;
  const char* verdict = passed ? "PASS" : "FAIL";
  if (cases_run == 0) verdict = "NOT GRADED";
  std::printf("%s\n", Message{"score: {}/{} points, {} of {} cases passed: {}",
                              "note : {}/{} points, {} cas réussis sur {} : {}"}
                          .with(score, max_score, cases_passed, cases_run, verdict)
                          .text()
                          .c_str());
  if (cases_not_graded > 0) {
    std::printf("SKIPPED: %s\n",
                Message{"{} case(s) worth {} points could not run here and are not graded (see "
                        "SKIP above)",
                        "{} cas valant {} points n'ont pas pu s'exécuter ici et ne sont pas notés "
                        "(voir SKIP plus haut)"}
                    .with(cases_not_graded, points_not_graded)
                    .text()
                    .c_str());
  }
  if (!options.summary_path.empty() &&
      !write_summary(options.summary_path, exercise, variant, score, max_score, passed)) {
    std::fprintf(stderr, "check_%s: cannot write the summary file %s\n", exercise.number.c_str(),
                 options.summary_path.c_str());
    return kExitMisuse;
  }
  if (!options.report_json_path.empty() &&
      !write_report_json(options.report_json_path, exercise.number, exercise.name, variant,
                         options.seed, reports, "")) {
    std::fprintf(stderr, "check_%s: cannot write the report %s\n", exercise.number.c_str(),
                 options.report_json_path.c_str());
    return kExitMisuse;
  }
  // Nothing graded here (every case needs a missing tool): skipped, never passed.
  if (options.expect.empty()) {
    if (cases_run == 0 && cases_not_graded > 0) return kExitSkip;
    return passed ? kExitPass : kExitFail;
  }

  // Self-test mode: the verdict is compared with what CTest declared; a case not graded
  // here leaves it unproved (skipped), except that a graded case failing disproves "pass"
  // whatever the others would give: where a GPU cannot run one step (exercise 26's step 3
  // on sm_75), the reference solution's other steps are still held to their cases.
  if (cases_not_graded > 0 && options.expect == "pass" && !passed) {
    std::printf("EXPECTATION NOT MET (expected pass):\n  - verdict FAIL: %d graded case(s) "
                "failed, with %d case(s) not graded here\n",
                cases_run - cases_passed, cases_not_graded);
    return kExitFail;
  }
  if (cases_not_graded > 0) {
    std::printf("SKIPPED: the expectation cannot be proved here: %d case(s) not graded\n",
                cases_not_graded);
    return kExitSkip;
  }
  std::vector<std::string> unmet;
  if ((options.expect == "pass") != passed)
    unmet.push_back("verdict " + std::string(passed ? "PASS" : "FAIL"));
  for (const std::string& h : options.expect_hints) {
    if (full_report.find(h) == std::string::npos) unmet.push_back("no hint containing '" + h + "'");
  }
  if (options.expect_score >= 0 && score != options.expect_score) {
    unmet.push_back("score " + std::to_string(score) + " instead of " +
                    std::to_string(options.expect_score));
  }
  if (options.expect_clean && any_abnormal)
    unmet.push_back("a run crashed, hung or flooded its output");
  if (unmet.empty()) {
    std::printf("expectation met: %s\n", options.expect == "pass" ? "passes" : "fails as declared");
    return kExitPass;
  }
  std::printf("EXPECTATION NOT MET (expected %s):\n", options.expect.c_str());
  for (const std::string& u : unmet) std::printf("  - %s\n", u.c_str());
  return kExitFail;
}

}  // namespace course::check
