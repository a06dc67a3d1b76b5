/* A driver library that runs code as soon as it is loaded (what a constructor planted through
 * LD_LIBRARY_PATH does): it appends the loading process's pid to $GPUCHECK_HOSTILE_MARK, then crashes.
 * Built as libnvidia-ml.so.1 and libcuda.so.1: gpucheck must survive both, because it never loads them
 * itself (gpucheck-gpuinfo does, in a child). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void planted(void) {
  const char* mark = getenv("GPUCHECK_HOSTILE_MARK");
  if (mark) {
    FILE* f = fopen(mark, "a");
    if (f) {
      fprintf(f, "%d\n", (int)getpid());
      fclose(f);
    }
  }
  raise(SIGSEGV);
}
