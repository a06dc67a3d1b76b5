// Writes argv[2] bytes to argv[1] with write_file_atomic; the test kills it mid-write to prove the old file
// survives a killed writer.
#include <cstdlib>
#include <string>

#include "core/files.h"

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  std::string content(std::strtoull(argv[2], nullptr, 10), 'N');
  gpucheck::write_file_atomic(argv[1], content);
  return 0;
}
