// The check harness, writing the speed records that the margin test reads (declared in
// speed_bar.hpp).
// Compiled once into course_check, which every check links (CMakeLists.txt,
// tools/course_tools/student/nvcc.py): a check.cpp compiles its cases alone.
#include "course/check/speed_bar.hpp"

namespace course::check {

bool write_speed_records(const std::string& path, const std::vector<std::string>& timed_cases,
                         const std::vector<SpeedRecord>& records) {
  std::error_code ignored;  // a folder that cannot be made shows as the open's failure
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ignored);
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) return false;
  for (const std::string& name : timed_cases) std::fprintf(file, "timed\t%s\n", name.c_str());
  for (const SpeedRecord& r : records) {
    std::fprintf(file, "speed\t%s\t%s\t%s\t%.6g\t%.6g\t%.4f\n", r.case_name.c_str(), r.bar.figure,
                 r.bar.kind == BarKind::at_least ? "at_least" : "at_most", r.bar.bar, r.measured,
                 margin_over(r.bar, r.measured));
  }
  return std::fclose(file) == 0;
}

}  // namespace course::check
