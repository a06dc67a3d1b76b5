#include "runner/containment.h"

#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace gpucheck::runner {
namespace {

// The parent pid from /proc/PID/stat: the field after the command name, which may itself hold spaces and
// parentheses, so it is read after the last ')'.
int parent_of(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto close = stat.rfind(')');
  if (close == std::string::npos || close + 4 >= stat.size()) return -1;
  // ") S 1234 ..." : state, then ppid
  return std::atoi(stat.c_str() + close + 4);
}

std::vector<int> children_of_this_process() {
  std::vector<int> out;
  const int self = getpid();
  DIR* d = opendir("/proc");
  if (!d) return out;
  while (dirent* e = readdir(d)) {
    char* end = nullptr;
    long pid = std::strtol(e->d_name, &end, 10);
    if (*end != '\0' || pid <= 0) continue;
    if (parent_of(static_cast<int>(pid)) == self) out.push_back(static_cast<int>(pid));
  }
  closedir(d);
  return out;
}

}  // namespace

bool become_subreaper() { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0; }

int end_orphans(int keep) {
  int ended = 0;
  // An orphan may itself leave children that become ours as it dies: repeat until none is left.
  for (int round = 0; round < 8; ++round) {
    std::vector<int> orphans;
    for (int pid : children_of_this_process())
      if (pid != keep) orphans.push_back(pid);
    if (orphans.empty()) break;
    for (int pid : orphans) kill(pid, SIGKILL);
    for (int pid : orphans)
      if (waitpid(pid, nullptr, 0) == pid) ++ended;
  }
  return ended;
}

}  // namespace gpucheck::runner
