// gpucheck: sets up the process and runs the command line (cli/entry.cpp). Nothing else lives here.
#include <signal.h>

#include "cli/entry.h"

int main(int argc, char** argv) {
  signal(SIGPIPE, SIG_IGN);  // a closed `| head` must become a write error, not a silent death
  return gpucheck::cli::run_command_line(argc, argv);
}
