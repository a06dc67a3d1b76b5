/* Definitions linked in place of glibc symbols that Debian 12's GCC 12 runtime (libstdc++.a) references and
 * older glibc lacks. Two users: the wheel's executables, linked against glibc 2.28 (zig's version stubs,
 * packaging/wheel/link; every other newer symbol is a link error there, not a run-time surprise), and the
 * main build's gpucheck, which links libstdc++.a (src/CMakeLists.txt) and must still load on scripts/bundle's
 * glibc 2.34 nodes. These two are the only ones needed.
 */
#include <stdint.h>
#include <sys/random.h>
#include <sys/types.h>

/* glibc 2.32: lets libstdc++ skip atomic reference counts in a single-threaded process. 0 ("maybe threaded")
 * is always correct, and is what libstdc++ assumes where the variable does not exist. */
char __libc_single_threaded = 0;

/* glibc 2.36: std::random_device's default source. getrandom (glibc 2.25) reads the same kernel CSPRNG. */
uint32_t arc4random(void) {
  uint32_t v;
  while (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v) {
  }
  return v;
}
