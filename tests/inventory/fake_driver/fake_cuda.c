/* A stand-in libcuda.so.1 (file libcuda.so.550.54.15) whose cuDriverGetVersion says CUDA 12.4. */
int cuDriverGetVersion(int* v) { *v = 12040; return 0; }
