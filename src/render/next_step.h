#pragma once
// The one thing to do after reading a verdict: every command that judges something ends its text with
// a "Next step:" line (text::closing). A command printed there is a gpucheck command line that works
// where it is printed: the program as it was invoked (o.program), the same inventory source and
// interpreter options the report was made with; anything else is a plain instruction pointing at a fix
// shown above it, never a made-up command.
#include <string>

#include "render/render.h"

namespace gpucheck::render {

/// What to do after reading a verdict: the advice, and the gpucheck command it ends with ("" when it names
/// none). The text renderer prints the command on a "$ " line of its own, which wrapping never breaks, so
/// it copies whole.
struct NextStep {
  std::string advice;   // "apply fix 1 of [id] above, then check again:"; "" for a command without a verdict
  std::string command;  // "gpucheck doctor --python P"
};

/// The next step for `r`; empty for a command that reports data, not a verdict (list, version, use-cuda,
/// modulefiles, completion, man).
NextStep next_step(const report::Report& r, const RenderOptions& o);

/// The report's closing verdict line without colour: run's counts ("FAIL: 1 pass, ..."), doctor's
/// "2 error(s), 1 warning(s)", explain's cause count; "" for a command without a verdict.
std::string verdict_line(const report::Report& r);

/// True for the commands whose text ends with a verdict and a next step.
bool has_verdict(const report::Report& r);

}  // namespace gpucheck::render
