# Fails when a source of gpucheck (src/, probes/, kernels/) calls system(), popen(), execl(), execlp() or
# execvp(), or names a shell with -c ("sh", "-c" / "sh -c" / "bash", "-c"): every process is spawned from
# an argument vector (core/subprocess.h), never through a shell nor a PATH search. Run as
#   cmake -DROOT=<repo> -P tests/hardening/no_shell.cmake
file(GLOB_RECURSE sources ${ROOT}/src/*.cpp ${ROOT}/src/*.h ${ROOT}/src/*.c ${ROOT}/probes/*.cpp ${ROOT}/probes/*.h
     ${ROOT}/kernels/*.cpp ${ROOT}/kernels/*.h ${ROOT}/kernels/*.cu)
set(found "")
foreach(f ${sources})
  file(STRINGS ${f} lines REGEX "(^|[^_a-zA-Z0-9:.>])(system|popen|execl|execlp|execvp)[ \t]*\\(")
  file(STRINGS ${f} shell_lines REGEX "\"(/bin/|/usr/bin/)?(ba|da|z)?sh(\"[ \t]*,[ \t]*\"| )-c")
  list(APPEND lines ${shell_lines})
  foreach(l ${lines})
    string(STRIP "${l}" l)
    if(NOT l MATCHES "^//")
      list(APPEND found "${f}: ${l}")
    endif()
  endforeach()
endforeach()
list(LENGTH sources n)
if(found)
  list(JOIN found "\n  " text)
  message(FATAL_ERROR "shell or PATH-searching spawn in gpucheck's sources:\n  ${text}")
endif()
message(STATUS "no system()/popen() in ${n} sources")
