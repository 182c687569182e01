// The check harness, Nsight Compute for the cases that read a kernel's metrics: where it is,
// its CSV (declared in nsight_compute.hpp).
// Compiled once into course_check, which every check links (CMakeLists.txt,
// tools/course_tools/student/nvcc.py): a check.cpp compiles its cases alone.
#include "course/check/nsight_compute.hpp"

namespace course::check {

std::string find_nsight_compute(std::string& why_not) {
  if (const char* chosen = std::getenv(kNcuVariable); chosen != nullptr && chosen[0] != '\0') {
    const std::string path = chosen;
    if (path == "none" || path == "off") {
      why_not = std::string(kNcuVariable) + "=" + path + " turns it off";
      return "";
    }
    if (ncu_is_executable(path)) return path;
    why_not = std::string(kNcuVariable) + "=" + path + " is not an executable";
    return "";
  }
  std::vector<std::string> folders;
  if (const char* path = std::getenv("PATH")) {
    std::string list = path;
    std::size_t at = 0;
    while (at <= list.size()) {
      std::size_t end = list.find(':', at);
      if (end == std::string::npos) end = list.size();
      if (end > at) folders.push_back(list.substr(at, end - at));
      at = end + 1;
    }
  }
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* home = std::getenv(variable)) folders.push_back(std::string(home) + "/bin");
  }
  folders.push_back("/usr/local/cuda/bin");
  for (const std::string& folder : folders) {
    if (ncu_is_executable(folder + "/ncu")) return folder + "/ncu";
  }
  why_not = "no ncu on PATH nor in /usr/local/cuda/bin (set " + std::string(kNcuVariable) +
            " to its path)";
  return "";
}

std::vector<std::string> ncu_command(const std::string& ncu,
                                     const std::vector<std::string>& metrics,
                                     const std::string& kernel_name, const std::string& program) {
  std::string list;
  for (const std::string& metric : metrics) list += (list.empty() ? "" : ",") + metric;
  return {ncu,         "--metrics",      list, "--csv", "--print-units", "base", "--kernel-name",
          kernel_name, "--launch-count", "1",  program};
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"') {
      if (quoted && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else {
        quoted = !quoted;
      }
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

NcuReading read_ncu_metrics(const ChildResult& child, const std::vector<std::string>& metrics) {
  NcuReading reading;
  const std::string& output = child.output;
  if (output.find(kNcuPermissionError) != std::string::npos) {
    reading.permission_denied = true;
    reading.why_not = std::string("ncu may not read the GPU's counters (") + kNcuPermissionError +
                      ": run as root, or load the driver with "
                      "NVreg_RestrictProfilingToAdminUsers=0)";
    return reading;
  }
  int name_column = -1, value_column = -1;
  std::size_t at = 0;
  while (at < output.size()) {
    std::size_t end = output.find('\n', at);
    if (end == std::string::npos) end = output.size();
    const std::string line = output.substr(at, end - at);
    at = end + 1;
    if (line.empty() || line[0] != '"') continue;
    const std::vector<std::string> fields = split_csv_line(line);
    if (name_column < 0) {
      for (std::size_t i = 0; i < fields.size(); ++i) {
        if (fields[i] == "Metric Name") name_column = static_cast<int>(i);
        if (fields[i] == "Metric Value") value_column = static_cast<int>(i);
      }
      continue;
    }
    if (value_column < 0 ||
        static_cast<int>(fields.size()) <= std::max(name_column, value_column)) {
      continue;
    }
    std::string number;
    for (const char c : fields[static_cast<std::size_t>(value_column)]) {
      if (c != ',') number += c;
    }
    char* stop = nullptr;
    const double value = std::strtod(number.c_str(), &stop);
    if (number.empty() || *stop != '\0') continue;
    reading.values[fields[static_cast<std::size_t>(name_column)]] += value;
  }
  for (const std::string& metric : metrics) {
    if (reading.values.count(metric) == 0) {
      reading.why_not = "ncu " + child.describe_end() + " and reported no value of " + metric +
                        (value_column < 0 ? " (no CSV metric table in its output)" : "");
      return reading;
    }
  }
  reading.ok = true;
  return reading;
}

std::string nsight_compute_for(CaseContext& c) {
  std::string why_not;
  const std::string ncu = find_nsight_compute(why_not);
  if (ncu.empty()) {
    c.note(Message{"Nsight Compute not used: {}", "Nsight Compute non utilisé : {}"}.with(why_not));
  }
  return ncu;
}

bool profile_case_words(CaseContext& c, const std::string& ncu,
                        const std::vector<std::string>& metrics, const std::string& kernel,
                        const std::string& kind,
                        const std::vector<std::pair<std::string, std::string>>& params,
                        double timeout_seconds, Run& run, NcuReading& reading) {
  run = c.run_case_with(ncu_command(ncu, metrics, kernel, c.options().program), kind, params, 0,
                        timeout_seconds);
  reading = read_ncu_metrics(run.child, metrics);
  if (!reading.ok) {
    c.note(Message{"Nsight Compute could not measure: {}; graded by timing instead",
                   "Nsight Compute n'a pas pu mesurer : {} ; noté d'après les temps à la place"}
               .with(reading.why_not));
  }
  return reading.ok;
}

}  // namespace course::check
