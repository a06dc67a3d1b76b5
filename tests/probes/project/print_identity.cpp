// Prints the id and title gpucheck_add_probe compiled in, so a test can compare them with the manifest.
#include <cstdio>

int main() {
  std::printf("%s\n%s\n", GPUCHECK_PROBE_ID, GPUCHECK_PROBE_TITLE);
  return 0;
}
