// Not built: the fixture of hardening.no_shell_catches_each_form. Every line below must be found.
int a() { return system("ls"); }
int b() { return popen("ls", "r") != nullptr; }
int c() { return execl("/bin/ls", "ls", nullptr); }
int d() { return execlp("ls", "ls", nullptr); }
int e() { char* v[] = {nullptr}; return execvp("ls", v); }
int f() { return spawn({"sh", "-c", "ls"}); }
int g() { return spawn({"/bin/bash", "-c", "ls"}); }
int h() { return run("sh -c ls"); }
