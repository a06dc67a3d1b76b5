#pragma once
// A fix written as one sentence (a signature's fix template, once rendered) becomes a Fix whose shell lines
// are its `commands` and whose summary is the prose alone: every format shows the commands the same way (a
// code block, a "$ " line, a JSON array), and none has to find them inside a sentence.
#include <string>

#include "core/finding.h"

namespace gpucheck::model {

/// `text` split into a summary and commands: each span in backticks that is a shell line (not a lone
/// option such as `--no-build-isolation`) becomes one command, in order, and leaves the sentence with the
/// words that only led to it (": ", " then ", "(...)").
/// "build it without isolation: `pip install torch` then `pip install --no-build-isolation x`" ->
/// {"build it without isolation", {"pip install torch", "pip install --no-build-isolation x"}}.
Fix fix_from_text(const std::string& text);

}  // namespace gpucheck::model
