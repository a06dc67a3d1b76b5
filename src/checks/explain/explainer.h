#pragma once
// `gpucheck explain` as a library call: stream a log through the signatures, then turn the matches into
// ordered causes with a root, explanations and fix commands.
#include <istream>
#include <string>
#include <vector>

#include "checks/explain/explanation.h"
#include "checks/explain/fix_template.h"
#include "checks/explain/log_scanner.h"
#include "checks/explain/signature.h"

namespace gpucheck::explain {

/// Reads `in` to the end in fixed-size chunks (bounded memory) and explains it. `name` labels the input;
/// `already_read`: bytes of the input taken from `in` before (they come first).
Explanation explain_stream(std::istream& in, const std::string& name, const std::vector<Signature>& signatures,
                           const FactCall& facts, ScanOptions options = {}, std::string_view already_read = {});

/// Same, for a log already in memory (tests).
Explanation explain_text(const std::string& text, const std::vector<Signature>& signatures, const FactCall& facts,
                         ScanOptions options = {});

/// Builds the explanation from a finished scan.
Explanation build_explanation(const LogScanner& scanner, const std::string& name,
                              const std::vector<Signature>& signatures, const FactCall& facts);

}  // namespace gpucheck::explain
