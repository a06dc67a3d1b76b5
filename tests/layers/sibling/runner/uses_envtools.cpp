// runner and envtools are siblings: neither may include the other.
#include "envtools/cuda_env.h"
