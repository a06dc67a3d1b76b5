#pragma once
// The one pass that keeps credentials out of everything gpucheck writes: every string of a Report (titles,
// summaries, evidence from logs and probe output, fixes, device findings, notes, host name, command line,
// environment, inventory, details) is redacted by name and value shape (core/secrets.h) before any renderer
// or file sees it. Commands redact where they know more (the environment by variable name); this pass is
// the boundary that catches what a check did not think of.
#include "model/report.h"

namespace gpucheck::model {

/// Redacts `r` in place (idempotent): `NAME=value` for secret-looking names, URL userinfo, credential
/// parameters, `Bearer`/`Basic` credentials and known token formats become "<redacted>".
void scrub_secrets(model::Report& r);
/// The same for one finding (`run` shows each probe's on the terminal as it finishes).
void scrub_secrets(Finding& f);
/// The same for every string of a document that is not a Report (bench's Google Benchmark document).
void scrub_secrets(nlohmann::json& document);

}  // namespace gpucheck::model
