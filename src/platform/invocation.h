#pragma once
// How a command gpucheck prints for the user (a next step, a fix) runs this same gpucheck from the user's
// shell. Under uvx the executable lives in uv's cache and the `gpucheck` on uvx's PATH is gone once it
// returns; a PATH may also find another gpucheck first.
#include <string>

namespace gpucheck::platform {

struct Invocation {
  std::string argv0;     // as this process was started
  std::string self_exe;  // this executable's real path (/proc/self/exe)
  std::string path;      // $PATH
  bool under_uv = false; // $UV is set: uv (uvx, uv run, uv tool run) started this process
};

/// The words to print in front of a gpucheck command line, each quoted for the shell (core/shell_quote.h):
///  - started by uv from a wheel file (its dist-info's direct_url.json names a file:// wheel that exists):
///    "uvx --from /abs/gpucheck-....whl gpucheck";
///  - started by uv otherwise: this executable's absolute path;
///  - `argv0` with a slash ("./build/stage/bin/gpucheck"): as typed;
///  - a bare name that PATH resolves to this executable: the name ("gpucheck");
///  - else (PATH has another gpucheck first, or none): this executable's absolute path.
std::string command_prefix(const Invocation& in);

/// This process's Invocation (argv[0] given; the rest read from /proc/self/exe and the environment).
Invocation this_invocation(const std::string& argv0);

}  // namespace gpucheck::platform
