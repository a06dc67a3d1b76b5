# Fails when a source of gpucheck (src/, probes/, kernels/) holds, outside a comment, what RULE forbids:
#   shell:     system(), popen(), execl(), execlp() or execvp(), or a shell named with -c ("sh", "-c" /
#              "sh -c" / "bash", "-c"): every process is spawned from an argument vector
#              (core/subprocess.h), never through a shell nor a PATH search.
#   std_regex: <regex> or std::regex: libstdc++'s std::regex recurses once per character a `[^']*` consumes,
#              so a long line of a file gpucheck reads (a torch/version.py, a version.txt, a Requires-Dist)
#              overflowed the stack. Text patterns go through knowledge/text_pattern.h (RE2).
# Run as
#   cmake -DROOT=<repo> -DRULE=shell|std_regex -P tests/hardening/forbidden_in_sources.cmake
if(RULE STREQUAL "shell")
  set(patterns "(^|[^_a-zA-Z0-9:.>])(system|popen|execl|execlp|execvp)[ \t]*\\("
               "\"(/bin/|/usr/bin/)?(ba|da|z)?sh(\"[ \t]*,[ \t]*\"| )-c")
  set(what "shell or PATH-searching spawn")
  set(clean "no system()/popen()")
elseif(RULE STREQUAL "std_regex")
  set(patterns "#[ \t]*include[ \t]*<regex>|std::(w?regex|w?smatch|w?cmatch|w?sregex_iterator|regex_[a-z]+)")
  set(what "std::regex (use knowledge/text_pattern.h)")
  set(clean "no std::regex")
else()
  message(FATAL_ERROR "RULE must be shell or std_regex")
endif()
file(GLOB_RECURSE sources ${ROOT}/src/*.cpp ${ROOT}/src/*.h ${ROOT}/src/*.c ${ROOT}/probes/*.cpp ${ROOT}/probes/*.h
     ${ROOT}/kernels/*.cpp ${ROOT}/kernels/*.h ${ROOT}/kernels/*.cu)
set(found "")
foreach(f ${sources})
  # Whole lines: ';' and brackets would split or join CMake list items, so they are stood in for first.
  file(READ ${f} content)
  string(REPLACE ";" "<semicolon>" content "${content}")
  string(REPLACE "[" "<lb>" content "${content}")
  string(REPLACE "]" "<rb>" content "${content}")
  string(REPLACE "\n" ";" lines "${content}")
  foreach(l ${lines})
    string(STRIP "${l}" l)
    if(l MATCHES "^//")
      continue()
    endif()
    foreach(p ${patterns})
      if(l MATCHES "${p}")
        list(APPEND found "${f}: ${l}")
        break()
      endif()
    endforeach()
  endforeach()
endforeach()
list(LENGTH sources n)
if(found)
  list(JOIN found "\n  " text)
  string(REPLACE "<semicolon>" ";" text "${text}")
  string(REPLACE "<lb>" "[" text "${text}")
  string(REPLACE "<rb>" "]" text "${text}")
  message(FATAL_ERROR "${what} in gpucheck's sources:\n  ${text}")
endif()
message(STATUS "${clean} in ${n} sources")
