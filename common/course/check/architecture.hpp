// Why a case that needs a newer GPU architecture cannot be graded here (exercise 26's
// step 3 needs sm_80), or one that needs an architecture's specific features (exercise 26's
// step 4 needs sm_90a: an sm_90 GPU and code built for sm_90a), for a person: the decision
// is course/architecture.hpp's. Such a case is not graded (CaseContext::not_graded: SKIP
// with this reason, out of the score and of its maximum), never given zero, never passed.
#pragma once

#include <optional>

#include "course/architecture.hpp"
#include "course/check/message.hpp"

namespace course::check {

// Why `what` (a step, for a person) cannot run here, given the gap found, or nothing.
inline std::optional<Message> architecture_gap_reason(const Message& what, int needed,
                                                      const Architectures& found,
                                                      ArchitectureGap gap) {
  switch (gap) {
    case ArchitectureGap::device_too_old:
      return Message{"{} needs sm_{} or newer; this GPU is sm_{}",
                     "{} demande sm_{} ou plus récent ; ce GPU est sm_{}"}
          .with(what, needed, found.device);
    case ArchitectureGap::code_too_old:
      return Message{"{} needs sm_{} or newer; this build has no sm_{} code (this GPU, sm_{}, "
                     "runs code compiled for compute_{}): build for this GPU (make does; with "
                     "CMake, -DCMAKE_CUDA_ARCHITECTURES={})",
                     "{} demande sm_{} ou plus récent ; ce programme n'a pas de code sm_{} (ce "
                     "GPU, sm_{}, exécute du code compilé pour compute_{}) : compilez pour ce "
                     "GPU (make le fait ; avec CMake, -DCMAKE_CUDA_ARCHITECTURES={})"}
          .with(what, needed, needed, found.device, found.code, found.device);
    case ArchitectureGap::device_other:
      return Message{"{} needs an sm_{} GPU and a build for sm_{}a (instructions of that "
                     "architecture alone); this GPU is sm_{}",
                     "{} demande un GPU sm_{} et un programme compilé pour sm_{}a (des "
                     "instructions de cette seule architecture) ; ce GPU est sm_{}"}
          .with(what, needed, needed, found.device);
    case ArchitectureGap::code_not_specific:
      return Message{"{} needs a build for sm_{}a; this build has no sm_{}a code (this GPU, "
                     "sm_{}, runs code compiled for compute_{} without the instructions of "
                     "sm_{}a): build for this GPU (make does; with CMake, "
                     "-DCMAKE_CUDA_ARCHITECTURES={}, which an exercise that needs sm_{}a "
                     "compiles for sm_{}a)",
                     "{} demande un programme compilé pour sm_{}a ; ce programme n'a pas de "
                     "code sm_{}a (ce GPU, sm_{}, exécute du code compilé pour compute_{} sans "
                     "les instructions de sm_{}a) : compilez pour ce GPU (make le fait ; avec "
                     "CMake, -DCMAKE_CUDA_ARCHITECTURES={}, qu'un exercice qui demande sm_{}a "
                     "compile pour sm_{}a)"}
          .with(what, needed, needed, found.device, found.code, needed, found.device, needed,
                needed);
    case ArchitectureGap::none: break;
  }
  return std::nullopt;
}

// Why `what` (a step, for a person) cannot run here, or nothing when it can.
inline std::optional<Message> why_not_runnable(const Message& what, int needed,
                                               const Architectures& found) {
  return architecture_gap_reason(what, needed, found, architecture_gap(needed, found));
}

// The same for code that uses the specific features of architecture `needed` (90: sm_90a).
inline std::optional<Message> why_not_runnable_specific(const Message& what, int needed,
                                                        const Architectures& found) {
  return architecture_gap_reason(what, needed, found, specific_architecture_gap(needed, found));
}

}  // namespace course::check
