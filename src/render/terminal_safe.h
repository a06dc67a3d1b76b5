#pragma once
// Text read from outside (ELF strings, probe output, logs, environment values) reaches the terminal only
// through these copies, whose every string went through gpucheck::terminal_safe (core/text.h).
#include "core/finding.h"
#include "model/report.h"

namespace gpucheck::render {

Finding terminal_safe_copy(const Finding& f);
/// The whole report: findings, notes, details and inventory (recursively).
model::Report terminal_safe_copy(const model::Report& r);

}  // namespace gpucheck::render
