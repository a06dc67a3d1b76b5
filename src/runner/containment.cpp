#include "runner/containment.h"

#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "core/files.h"

namespace gpucheck::runner {
namespace {

struct ProcStat {
  char state = '?';
  int parent = -1;
};

// State and parent pid from /proc/PID/stat: the fields after the command name, which may itself hold
// spaces and parentheses, so they are read after the last ')': ") S 1234 ...".
ProcStat stat_of(int pid) {
  // Not an ifstream: libstdc++'s istreambuf_iterator throws when the process ended mid-read (ESRCH).
  const std::string stat = read_proc_text("/proc/" + std::to_string(pid) + "/stat");
  ProcStat s;
  auto close = stat.rfind(')');
  if (close == std::string::npos || close + 4 >= stat.size()) return s;
  s.state = stat[close + 2];
  s.parent = std::atoi(stat.c_str() + close + 4);
  return s;
}

struct Child {
  int pid;
  bool zombie;  // already dead, only to be reaped
};

std::vector<Child> children_of_this_process() {
  std::vector<Child> out;
  const int self = getpid();
  DIR* d = opendir("/proc");
  if (!d) return out;
  while (dirent* e = readdir(d)) {
    char* end = nullptr;
    long pid = std::strtol(e->d_name, &end, 10);
    if (*end != '\0' || pid <= 0) continue;
    ProcStat st = stat_of(static_cast<int>(pid));
    if (st.parent == self) out.push_back({static_cast<int>(pid), st.state == 'Z'});
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
    std::vector<Child> orphans;
    for (const Child& c : children_of_this_process())
      if (c.pid != keep) orphans.push_back(c);
    if (orphans.empty()) break;
    for (const Child& c : orphans)
      if (!c.zombie) kill(c.pid, SIGKILL);
    for (const Child& c : orphans)  // a zombie (a descendant that already exited) is only reaped
      if (waitpid(c.pid, nullptr, 0) == c.pid && !c.zombie) ++ended;
  }
  return ended;
}

}  // namespace gpucheck::runner
